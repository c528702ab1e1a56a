"""The look of the Arcade table: the window's first size, fonts, colours, card sizes and
the pace.

The views draw in a logical space that follows the window's shape (see
:mod:`atout.ui.window.frame`): each lays itself out again for the window's size.
"""

from __future__ import annotations

from typing import Final

from ..i18n import N_

WIDTH: Final = 1280
"""The window's width when it opens."""
HEIGHT: Final = 720
"""The window's height when it opens."""

MIN_FONT: Final = 12
"""The smallest font, in points, that any view writes (see :mod:`.frame`: at the smallest
window it is still 12 pixels high)."""

CARD_W: Final = 140
"""Width of arcade's card images, in image pixels."""
CARD_H: Final = 190
"""Height of arcade's card images."""

FONT: Final = ("DejaVu Sans", "Arial", "Liberation Sans", "Helvetica")
"""Fonts that carry the suit symbols, tried in order."""

# --- colours (RGBA) ------------------------------------------------------------------------

FELT = (22, 104, 60, 255)
"""The table's baize, also the colour the window is cleared to (outside the table too)."""
WOOD = (84, 50, 26, 255)
PANEL = (248, 244, 230, 255)
PANEL_EDGE = (176, 140, 60, 255)
INK = (30, 30, 30, 255)
INK_SOFT = (90, 90, 90, 255)
WHITE = (255, 255, 255, 255)
CREAM = (246, 238, 210, 255)
GOLD = (250, 204, 64, 255)
RED = (200, 40, 40, 255)
GREEN_OK = (40, 150, 70, 255)
GREEN_OK_HOVER = (60, 180, 90, 255)
AMBER = (176, 120, 30, 255)
AMBER_HOVER = (206, 150, 50, 255)
BUTTON = (40, 92, 160, 255)
BUTTON_HOVER = (58, 118, 196, 255)
BUTTON_OFF = (90, 100, 110, 255)
BUTTON_TEXT = (255, 255, 255, 255)
TOAST = (30, 30, 30, 225)
SHADOW = (0, 0, 0, 90)
BLUE_DIAMONDS = (28, 84, 200, 255)
GREEN_CLUBS = (20, 128, 52, 255)

TWO_COLOURS: Final = (INK, RED, RED, INK)
"""The ink of each suit (clubs, diamonds, hearts, spades) in the usual deck."""
FOUR_COLOURS: Final = (GREEN_CLUBS, BLUE_DIAMONDS, RED, INK)
"""The four-colour deck (the setting ``four_colour``): ♣ green, ♦ blue, ♥ red, ♠ black;
every suit keeps its symbol, so the colour is never the only sign of it."""

_four_colour = False


def set_four_colour(on: bool) -> None:
    """Draw the cards and the suits in the four-colour deck's inks (``on``) or the usual
    red and black, from now on (the setting ``four_colour``)."""
    global _four_colour
    _four_colour = bool(on)


def four_colour() -> bool:
    """Whether the four-colour deck is in use."""
    return _four_colour


def suit_ink(suit: int) -> tuple[int, int, int, int]:
    """The ink of ``suit`` (0 clubs .. 3 spades) in the deck in use."""
    return (FOUR_COLOURS if _four_colour else TWO_COLOURS)[suit]


# --- pace ----------------------------------------------------------------------------------

SPEEDS: Final = {"slow": 1.7, "normal": 1.0, "fast": 0.45}
"""Named speeds: a factor on every delay and animation (0 plays at once, for tests)."""
SPEED_WORDS: Final = (N_("slow"), N_("normal"), N_("fast"))
"""The speeds' names, marked for the catalogs (translated where a button shows them)."""

BOT_PACE: Final = 0.8
"""Seconds at least between a bot's turn coming and its card landing (times the speed)."""
MOVE: Final = 0.28
"""Seconds for a card to travel to its place."""
FLIP: Final = 0.36
"""Seconds for a face-down card to turn."""
TRICK_HOLD: Final = 1.0
"""Seconds a finished trick stays in the middle before going to its winner."""
COLLECT: Final = 0.35
"""Seconds for a finished trick to slide to its winner."""
DEAL_STAGGER: Final = 0.022
"""Seconds between two cards when dealing."""
TURNED_GLOW: Final = 2.5
"""Seconds a card just turned face up glows once it has flipped (or until it is played)."""
TOAST_TIME: Final = 3.2
"""Seconds a message stays on the table."""
