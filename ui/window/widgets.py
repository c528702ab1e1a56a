"""Small widgets drawn in the table's logical space: layers, buttons, plates, messages.

Software rendering pays for every draw call and every pixel, so widgets are grouped in
a :class:`Layer`: its plates (rounded rectangles, as sprites) are one sprite list and its
texts (:class:`arcade.Text` objects in one pyglet batch) are laid out once and changed
only when their text changes; a whole layer is two draw calls.  Hit tests take logical
coordinates (see :meth:`atout.ui.window.app.App.to_logical`).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator

import arcade
import pyglet

from . import theme
from .sprites import rounded_texture

Colour = tuple[int, int, int, int]


def quantize(value: float, step: int = 10) -> int:
    """Round a size up to a multiple of ``step`` (a few sizes: a few textures)."""
    return max(step, (int(value) + step - 1) // step * step)


class SpriteSet:
    """Sprites drawn in order, the hidden ones left out.

    Arcade draws a hidden sprite as a transparent one: a software renderer still fills
    every pixel of it.  So the set keeps its sprites in a plain list and hands only the
    visible ones to its :class:`arcade.SpriteList`, rebuilt when a sprite is shown or
    hidden (a comparison of a few flags per frame).
    """

    def __init__(self) -> None:
        self.items: list[arcade.Sprite] = []
        self._list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self._flags: tuple[bool, ...] | None = None

    def append(self, sprite: arcade.Sprite) -> arcade.Sprite:
        self.items.append(sprite)
        self._flags = None
        return sprite

    def replace(self, sprites: list[arcade.Sprite]) -> None:
        """Draw these sprites, in this order, from now on."""
        self.items = list(sprites)
        self._flags = None

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[arcade.Sprite]:
        return iter(self.items)

    def draw(self) -> None:
        flags = tuple(s.visible for s in self.items)
        if flags != self._flags:
            self._flags = flags
            self._list.clear()
            self._list.extend([s for s in self.items if s.visible])
        self._list.draw()


def shrink_to(text: arcade.Text, room: float) -> bool:
    """Write ``text`` smaller, a point at a time and never below the smallest font,
    until it is at most ``room`` wide (a translation may be longer); whether it fits."""
    while text.content_width > room and text.font_size > theme.MIN_FONT:
        text.font_size = max(theme.MIN_FONT, text.font_size - 1)
    return text.content_width <= room


class Layer:
    """Plates and texts drawn together, plates first."""

    def __init__(self) -> None:
        self.plates = SpriteSet()
        self.batch = pyglet.graphics.Batch()
        self.texts: list[arcade.Text] = []

    def text(
        self,
        value: str,
        x: float,
        y: float,
        size: float = 14,
        colour: Colour = theme.WHITE,
        *,
        anchor_x: str = "left",
        anchor_y: str = "baseline",
        bold: bool = False,
        width: int | None = None,
        multiline: bool = False,
        align: str = "left",
    ) -> arcade.Text:
        """A text of this layer in the table's font (never smaller than
        :data:`~atout.ui.window.theme.MIN_FONT`)."""
        size = max(size, theme.MIN_FONT)
        label = arcade.Text(
            value,
            x,
            y,
            colour,
            font_size=size,
            font_name=theme.FONT,
            anchor_x=anchor_x,
            anchor_y=anchor_y,
            bold=bold,
            width=width,
            multiline=multiline,
            align=align,
            batch=self.batch,
        )
        self.texts.append(label)
        return label

    def plate(
        self,
        rect: arcade.Rect,
        fill: Colour,
        outline: Colour | None = None,
        radius: int = 12,
        outline_width: int = 2,
    ) -> arcade.Sprite:
        """A rounded rectangle filling ``rect``."""
        sprite = arcade.Sprite(
            plate_texture(rect.width, rect.height, fill, outline, radius, outline_width)
        )
        sprite.position = (rect.x, rect.y)
        self.plates.append(sprite)
        return sprite

    def draw(self) -> None:
        self.plates.draw()
        self.batch.draw()


def plate_texture(
    width: float,
    height: float,
    fill: Colour,
    outline: Colour | None = None,
    radius: int = 12,
    outline_width: int = 2,
) -> arcade.Texture:
    return rounded_texture(
        int(width), int(height), radius, fill, outline, outline_width if outline else 0
    )


def set_plate(
    sprite: arcade.Sprite,
    rect: arcade.Rect,
    fill: Colour,
    outline: Colour | None = None,
    radius: int = 12,
    outline_width: int = 2,
) -> None:
    """Give a plate a new size, place or colour (textures are cached by all of them)."""
    texture = plate_texture(rect.width, rect.height, fill, outline, radius, outline_width)
    if sprite.texture is not texture:
        sprite.texture = texture
        sprite.scale = 1.0
    sprite.position = (rect.x, rect.y)


class _PaintedFlag:
    """A button's ``visible``, ``enabled``, ``hover`` or ``selected``: held in the
    attribute of the same name with a leading underscore; the button is painted again
    when it changes."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = f"_{name}"

    def __get__(self, button: Button, owner: type | None = None) -> bool:
        value: bool = getattr(button, self.attr)
        return value

    def __set__(self, button: Button, value: bool) -> None:
        if getattr(button, self.attr) != value:
            setattr(button, self.attr, value)
            button._paint()


class Button:
    """A rounded button with a label on a :class:`Layer`; ``action`` runs on a click.

    A disabled button is drawn grey and ignores clicks; ``hover`` and ``selected`` light
    it.  Set ``visible`` to show or hide it.  A label longer than the button (a
    translation is often longer than the English) is written smaller, down to the
    smallest font, so that it stays inside.
    """

    def __init__(
        self,
        layer: Layer,
        label: str,
        x: float,
        y: float,
        width: int,
        height: int,
        action: Callable[[], None],
        *,
        size: float = 14,
        colour: Colour = theme.BUTTON,
        hover_colour: Colour = theme.BUTTON_HOVER,
        text_colour: Colour = theme.BUTTON_TEXT,
        name: str = "",
        fit: bool = False,
    ) -> None:
        self.action = action
        self.colour = colour
        self.hover_colour = hover_colour
        self.name = name or label
        self._visible = True
        self._enabled = True
        self._hover = False
        self._selected = False
        self.label = layer.text(
            label, x, y, size, text_colour, anchor_x="center", anchor_y="center", bold=True
        )
        self.font_size = size
        """The label's font size when it fits (see :meth:`_fit_label`)."""
        if fit:
            width = max(width, quantize(self.label.content_width + 34))
        self.rect = arcade.XYWH(x, y, width, height)
        self.plate = layer.plate(self.rect, colour, (255, 255, 255, 90), 9, 2)
        self._fit_label()
        self._paint()

    def _fit_label(self) -> None:
        """Write the label smaller (not below the smallest font) until it fits inside."""
        label = self.label
        if label.font_size != self.font_size:
            label.font_size = self.font_size
        shrink_to(label, self.rect.width - 12)

    def _paint(self) -> None:
        if not self._enabled:
            fill = theme.BUTTON_OFF
        elif self._hover or self._selected:
            fill = self.hover_colour
        else:
            fill = self.colour
        outline = theme.GOLD if self._selected else (255, 255, 255, 90)
        set_plate(self.plate, self.rect, fill, outline, 9, 2)
        self.plate.visible = self._visible
        self.label.visible = self._visible

    visible = _PaintedFlag()
    enabled = _PaintedFlag()
    hover = _PaintedFlag()
    selected = _PaintedFlag()

    def move_to(self, x: float, y: float) -> None:
        """Put the button's middle at ``(x, y)``."""
        self.rect = arcade.XYWH(x, y, self.rect.width, self.rect.height)
        self.label.x, self.label.y = x, y
        self._paint()

    def set_colour(self, colour: Colour) -> None:
        self.colour = colour
        self._paint()

    @property
    def center(self) -> tuple[float, float]:
        """The middle of the button (where a test clicks)."""
        return self.rect.x, self.rect.y

    def set_label(self, value: str) -> None:
        if self.label.text != value:
            self.label.text = value
            self._fit_label()

    def hit(self, x: float, y: float) -> bool:
        """Whether a click at ``(x, y)`` is on this (visible, enabled) button."""
        return self._visible and self._enabled and self.rect.point_in_rect((x, y))


class ButtonRow:
    """Buttons that are clicked and hovered together."""

    def __init__(self, buttons: list[Button] | None = None) -> None:
        self.buttons: list[Button] = list(buttons or [])

    def add(self, button: Button) -> Button:
        self.buttons.append(button)
        return button

    def click(self, x: float, y: float) -> bool:
        """Run the action of the button under ``(x, y)``; ``True`` when one was hit."""
        for b in self.buttons:
            if b.hit(x, y):
                b.action()
                return True
        return False

    def hover(self, x: float, y: float) -> None:
        for b in self.buttons:
            b.hover = b.hit(x, y)

    def find(self, name: str) -> Button | None:
        """The visible button called ``name`` (its label unless given one)."""
        for b in self.buttons:
            if b.visible and b.name == name:
                return b
        return None


class Toast:
    """A message on the table that goes after a few seconds (why a card is refused,
    what a bot announced)."""

    def __init__(self, layer: Layer, x: float, y: float, max_width: float = 940) -> None:
        self.x, self.y = x, y
        self.max_width = max_width
        """The widest the message's plate may be (a long message is written smaller)."""
        self.message = ""
        self.until = 0.0
        self.label = layer.text(
            "", x, y, 15, theme.WHITE, anchor_x="center", anchor_y="center", bold=True
        )
        self.plate = layer.plate(
            arcade.XYWH(x, y, 200, 40), theme.TOAST, (255, 255, 255, 60), 12, 1
        )
        self.label.visible = self.plate.visible = False

    def show(self, message: str, now: float, seconds: float = theme.TOAST_TIME) -> None:
        self.message = message
        self.label.text = message
        self.until = now + seconds
        size = 15
        self.label.font_size = size
        while self.label.content_width + 44 > self.max_width and size > theme.MIN_FONT:
            size -= 1
            self.label.font_size = size
        width = min(int(self.max_width), quantize(self.label.content_width + 44, 20))
        set_plate(
            self.plate,
            arcade.XYWH(self.x, self.y, width, 40),
            theme.TOAST,
            (255, 255, 255, 60),
            12,
            1,
        )

    def visible(self, now: float) -> bool:
        return bool(self.message) and now < self.until

    def hide(self) -> None:
        """Take the message away now (a panel opens where it is)."""
        self.until = 0.0
        self.label.visible = self.plate.visible = False

    def update(self, now: float) -> None:
        """Show or hide the message for the time ``now``."""
        shown = self.visible(now)
        if self.label.visible != shown:
            self.label.visible = shown
        self.plate.visible = shown
