"""The logical table laid out for the window: its size and its scale.

Every view draws in *logical* pixels through one camera.  The logical space follows the
window's shape instead of being a fixed 1280x720 picture shrunk or enlarged into it:

* the scale (window pixels per logical pixel) is chosen so that the design's smallest
  space, :data:`MIN_W` x :data:`MIN_H`, fits the window: below 1024x720 the table is
  shrunk, never further than text of :data:`~atout.ui.window.theme.MIN_FONT` points
  (the smallest the views write) stays at least :data:`MIN_TEXT_PX` window pixels;
* above that size the scale grows at half the window's pace, so a large window shows
  text somewhat larger and gives the rest of its room to the cards;
* the logical size is the window's size divided by the scale: a 4:3 window gets a
  1024x768 table, a 16:9 one 1280x720 (at 1280x720) or 1536x864 (at 1920x1080), a tall
  one a tall table; nothing is letterboxed.

The views lay themselves out again from a :class:`Frame` whenever it changes (a resize,
the full screen).
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_W = 1024.0
"""The narrowest logical table every view is laid out for."""
MIN_H = 720.0
"""The lowest logical table every view is laid out for."""
MIN_WINDOW = (800, 600)
"""The smallest window the table is made for (the window cannot be made smaller)."""
MIN_TEXT_PX = 12.0
"""The smallest height, in window pixels, of a text's font (its em) at any window size
from :data:`MIN_WINDOW` up."""
SIDEBAR = 300.0
"""The width of the side bar (contract, score sheet, buttons) right of the felt."""


@dataclass(frozen=True)
class Frame:
    """The logical table for one window size: ``width`` x ``height`` logical pixels,
    drawn at ``scale`` window pixels each."""

    width: float
    height: float
    scale: float

    @property
    def table_right(self) -> float:
        """The felt runs from x 0 to here; the side bar is to its right."""
        return self.width - SIDEBAR

    @property
    def felt_mid(self) -> float:
        """The middle of the felt, across."""
        return self.table_right / 2

    @property
    def mid_y(self) -> float:
        return self.height / 2

    @property
    def sidebar_mid(self) -> float:
        return (self.table_right + self.width) / 2


def scale_for(width: float, height: float) -> float:
    """Window pixels per logical pixel for a window (framebuffer) of this size."""
    fit = min(width / MIN_W, height / MIN_H)
    return fit if fit <= 1.0 else 1.0 + (fit - 1.0) / 2


def frame_for(width: float, height: float) -> Frame:
    """The logical table for a window (framebuffer) of ``width`` x ``height`` pixels."""
    width, height = max(1.0, width), max(1.0, height)
    scale = scale_for(width, height)
    return Frame(round(width / scale, 3), round(height / scale, 3), scale)


def text_px(font_size: float, scale: float) -> float:
    """The height in window pixels of a font of ``font_size`` points (pyglet's 96 dpi)."""
    return font_size * 96 / 72 * scale
