"""A one-line text field for the window's screens: a light plate that shows what was
typed (with a cursor while it has the focus, a grey hint while it is empty).

The field keeps no text of its own: the screen keeps the values and hands each field its
value to show (:meth:`TextBox.show`) and what is typed to filter (:meth:`TextBox.typed`),
so two fields may edit one value.
"""

from __future__ import annotations

from collections.abc import Callable

from . import theme
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer

FIELD = (250, 248, 240, 255)
FIELD_HOVER = (255, 255, 255, 255)
HINT = (140, 140, 140, 255)


class TextBox:
    """A text field at ``(x, y)`` (its middle), ``width`` wide, for the value ``key``;
    ``on_click`` gives it the focus.  ``limit``: the longest value; ``digits``: digits
    only; ``placeholder``: the grey hint while the value is empty."""

    def __init__(
        self,
        layer: Layer,
        row: ButtonRow,
        key: str,
        x: float,
        y: float,
        width: float,
        on_click: Callable[[], None],
        *,
        limit: int,
        name: str = "",
        digits: bool = False,
        placeholder: str = "",
    ) -> None:
        self.key = key
        self.name = name or key
        self.limit = limit
        self.digits = digits
        self.placeholder = placeholder
        self.width = width
        self.button = row.add(
            Button(
                layer,
                "",
                x,
                y,
                int(width),
                38,
                on_click,
                size=13,
                colour=FIELD,
                hover_colour=FIELD_HOVER,
                text_colour=theme.INK,
                name=f"field:{self.name}",
            )
        )

    def show(self, value: str, focused: bool) -> None:
        """Show ``value`` (its end, when it is wider than the field), the cursor when
        ``focused``, the hint when empty."""
        label = self.button.label
        words = value + ("|" if focused else "")
        colour = theme.INK if words else HINT
        label.text = words or self.placeholder
        shown = words
        while shown and label.content_width > self.width - 24:
            shown = shown[1:]
            label.text = "…" + shown
        if tuple(label.color) != colour:
            label.color = colour
        self.button.selected = focused

    def typed(self, value: str, text: str) -> str:
        """``value`` with ``text`` typed at its end (unprintable characters and, in a
        field of digits, anything but digits left out; never longer than the limit)."""
        kept = "".join(ch for ch in text if ch.isprintable() and (ch.isdigit() or not self.digits))
        return (value + kept)[: self.limit]
