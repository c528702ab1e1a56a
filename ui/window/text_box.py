"""A one-line text field for the window's screens: a light plate that shows what was
typed (with a cursor while it has the focus, a grey hint while it is empty).

The field keeps no text of its own: the screen keeps the values and hands each field its
value to show (:meth:`TextBox.show`), what is typed (:meth:`TextBox.typed`) and the
editing keys (:meth:`TextBox.edit`: the arrows, Home, End, Backspace, Delete), so two
fields may edit one value.  The field keeps only where its cursor stands.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade

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
        self.cursor: int | None = None
        """Where the cursor stands in the value (``None``: at its end, where typing
        starts when the field takes the focus)."""
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

    def at(self, value: str) -> int:
        """The cursor's place in ``value`` (its end unless moved)."""
        return len(value) if self.cursor is None else min(self.cursor, len(value))

    def show(self, value: str, focused: bool) -> None:
        """Show ``value`` with the cursor where it stands when ``focused`` (the part
        around the cursor when the value is wider than the field), the hint when empty.
        A field that loses the focus puts its cursor back at the end."""
        if not focused:
            self.cursor = None
        label = self.button.label
        at = self.at(value)
        words = value[:at] + "|" + value[at:] if focused else value
        colour = theme.INK if words else HINT
        label.text = words or self.placeholder
        left, right = words[: at + 1], words[at + 1 :]  # the cursor ends ``left``
        whole = len(left)
        while label.content_width > self.width - 24 and (len(left) > 1 or right):
            if len(left) > 1:
                left = left[1:]
            else:
                right = right[:-1]
            label.text = ("…" if len(left) < whole else "") + left + right
        if tuple(label.color) != colour:
            label.color = colour
        self.button.selected = focused

    def typed(self, value: str, text: str) -> str:
        """``value`` with ``text`` typed at the cursor (unprintable characters and, in a
        field of digits, anything but digits left out; never longer than the limit)."""
        kept = "".join(ch for ch in text if ch.isprintable() and (ch.isdigit() or not self.digits))
        at = self.at(value)
        kept = kept[: max(0, self.limit - len(value))]
        if self.cursor is not None:
            self.cursor = at + len(kept)
        return value[:at] + kept + value[at:]

    def edit(self, value: str, symbol: int) -> str | None:
        """``value`` after the editing key ``symbol`` (the cursor moved or a character
        taken away); ``None`` when ``symbol`` is no editing key."""
        k = arcade.key
        at = self.at(value)
        if symbol == k.BACKSPACE:
            if at == 0:
                return value
            self.cursor = at - 1 if self.cursor is not None else None
            return value[: at - 1] + value[at:]
        if symbol == k.DELETE:
            return value[:at] + value[at + 1 :]
        if symbol == k.LEFT:
            self.cursor = max(0, at - 1)
        elif symbol == k.RIGHT:
            self.cursor = None if at + 1 >= len(value) else at + 1
        elif symbol == k.HOME:
            self.cursor = 0
        elif symbol == k.END:
            self.cursor = None
        else:
            return None
        return value
