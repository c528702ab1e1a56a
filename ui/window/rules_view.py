"""The Rules screen: the rules of the game being chosen or played, page by page.

The words and the pictures are :func:`atout.ui.rules_pages.rules_pages`' (the one text
the terminal's ``rules`` command prints too), for the rules in force: the start view's
game and pack, or the table's match.  Each page is drawn on one panel: its title, its
paragraphs wrapped to the panel, and its examples as rows of the table's own card faces
(a card that may be played lit, one that may not washed grey, with "yes" or "no" under
it; Découverte's piles as a card on a face-down card).  A page is laid out for the
window's logical size with the largest text and cards that fit, so every page reads
from 800x600 up.

←/→ (or Page Up/Down, or the buttons) turn the pages, Home/End go to the first or the
last, Esc (or Backspace, or *Back*) goes back to the view that opened the screen, as it
was.
"""

from __future__ import annotations

import arcade
from atout.core import Rules

from ..i18n import _
from ..messages import shown
from ..rules_model import Example
from ..rules_model import Page
from ..rules_pages import rules_pages
from . import theme
from .frame import Frame
from .host import Host
from .sprites import back_texture
from .sprites import face_texture
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer

MARGIN = 28.0
"""Logical pixels between the window's edge and the panel."""
PAD = 32.0
"""Between the panel's edge and what it holds."""
FOOT = 74.0
"""The height of the row of buttons at the bottom of the panel."""
SIZES: tuple[tuple[float, float], ...] = (
    (17, 118),
    (16, 104),
    (15, 92),
    (14, 80),
    (13, 70),
    (12, 62),
)
"""The text sizes (points) and card heights (logical pixels) tried, largest first: a
page is drawn with the first that fits its panel."""
GAP = 12.0
"""Between two blocks of a page."""


class RulesView(arcade.View):
    """The rules of ``rules.game`` under ``rules``, paged; ``back`` is the view shown
    again when the screen closes."""

    def __init__(self, app: Host, rules: Rules, back: arcade.View) -> None:
        super().__init__(app.window)
        self.app = app
        self.rules = rules
        self.back = back
        self.pages: list[Page] = rules_pages(app.engine, rules)
        self.title = shown(app.engine.game(rules.game).title)
        self.index = 0
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.cards: list[tuple[int | None, arcade.Rect]] = []
        """The cards of the page's examples and where they are drawn."""
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.panel = arcade.LRBT(0, 0, 0, 0)
        self.content_bottom = 0.0
        """How low the page's blocks reach (above the row of buttons when they fit)."""
        self.frame: Frame = app.fit()
        self.show_page(0)

    # --- pages ------------------------------------------------------------------------------

    def show_page(self, index: int) -> None:
        """Lay out page ``index`` (kept within the pages) for the window's size."""
        self.index = max(0, min(index, len(self.pages) - 1))
        self.frame = self.app.fit()
        for text_size, card_h in SIZES:
            if self._build(text_size, card_h) or (text_size, card_h) == SIZES[-1]:
                break

    def turn(self, step: int) -> None:
        self.show_page(self.index + step)

    def close(self) -> None:
        """Back to the view that opened the screen."""
        self.window.show_view(self.back)

    def _build(self, text_size: float, card_h: float) -> bool:
        """Lay the page out with text of ``text_size`` points and cards ``card_h`` high;
        ``False`` when it does not fit above the buttons."""
        w, h = self.frame.width, self.frame.height
        layer = Layer()
        row = ButtonRow()
        self.cards = []
        sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.panel = arcade.LRBT(MARGIN, w - MARGIN, MARGIN, h - MARGIN)
        layer.plate(self.panel, theme.PANEL, theme.PANEL_EDGE, 18, 3)
        page = self.pages[self.index]
        left = MARGIN + PAD
        inner = w - 2 * (MARGIN + PAD)
        y = h - MARGIN - 30
        layer.text(
            _("The rules of {game}").format(game=self.title),
            left,
            y,
            13,
            theme.INK_SOFT,
            anchor_y="center",
        )
        layer.text(
            f"{self.index + 1} / {len(self.pages)}",
            w - MARGIN - PAD,
            y,
            13,
            theme.INK_SOFT,
            anchor_x="right",
            anchor_y="center",
        )
        y -= 26
        heading = layer.text(
            page.title, left, y, text_size + 8, theme.INK, anchor_y="top", bold=True
        )
        y -= heading.content_height + GAP
        for block in page.blocks:
            if isinstance(block, Example):
                y = self._example(layer, sprites, block, left, inner, y, text_size, card_h)
            else:
                text = layer.text(
                    block,
                    left,
                    y,
                    text_size,
                    theme.INK,
                    width=int(inner),
                    multiline=True,
                    anchor_y="top",
                )
                y -= text.content_height
            y -= GAP
        self.content_bottom = y + GAP
        self._footer(layer, row)
        self.layer, self.buttons, self.sprites = layer, row, sprites
        return self.content_bottom >= MARGIN + FOOT

    def _example(
        self,
        layer: Layer,
        sprites: arcade.SpriteList[arcade.Sprite],
        example: Example,
        left: float,
        inner: float,
        top: float,
        text_size: float,
        card_h: float,
    ) -> float:
        """A row of cards with their labels, the caption at their right; the bottom."""
        card_w = card_h * theme.CARD_W / theme.CARD_H
        stacked = example.stacked
        shown = [c for c in example.cards if c is not None] if stacked else list(example.cards)
        step = card_w + (18 if stacked else 8)
        x = left + 12 + card_w / 2
        mid = top - card_h / 2 - 4
        words = list(example.labels)
        allowed = list(example.allowed)
        if allowed and not words:
            words = ["yes" if ok else "no" for ok in allowed]
        label_size = max(theme.MIN_FONT, text_size - 2)
        below = label_size + 12 if words else 0.0
        for i, card in enumerate(shown):
            if card is None:
                texture = back_texture()
            elif stacked:
                texture = face_texture(card, covered=True)
            elif allowed:
                texture = face_texture(card, lit=allowed[i], dim=not allowed[i])
            else:
                texture = face_texture(card)
            sprite = arcade.Sprite(texture, scale=card_h / theme.CARD_H)
            sprite.position = (x, mid)
            sprites.append(sprite)
            self.cards.append((card, arcade.XYWH(x, mid, card_w, card_h)))
            if words:
                colour = theme.INK if not allowed or allowed[i] else theme.RED
                layer.text(
                    words[i],
                    x,
                    top - card_h - 10,
                    label_size,
                    colour,
                    anchor_x="center",
                    anchor_y="top",
                    bold=bool(allowed),
                )
            x += step
        caption_x = x - card_w / 2 + 16
        caption_w = left + inner - caption_x
        caption = layer.text(
            example.caption,
            caption_x,
            top - 4,
            text_size,
            theme.INK,
            width=int(caption_w),
            multiline=True,
            anchor_y="top",
        )
        return min(top - card_h - 8 - below, top - 4 - caption.content_height)

    def _footer(self, layer: Layer, row: ButtonRow) -> None:
        w = self.frame.width
        y = MARGIN + FOOT / 2
        last = len(self.pages) - 1
        back = row.add(
            Button(
                layer,
                _("Back  Esc"),
                w - MARGIN - PAD - 80,
                y,
                160,
                44,
                self.close,
                size=14,
                name="back",
            )
        )
        prev = row.add(
            Button(
                layer,
                _("←  Previous"),
                w / 2 - 110,
                y,
                190,
                44,
                lambda: self.turn(-1),
                size=14,
                name="previous",
            )
        )
        nxt = row.add(
            Button(
                layer,
                _("Next  →"),
                w / 2 + 110,
                y,
                190,
                44,
                lambda: self.turn(1),
                size=14,
                name="next",
            )
        )
        prev.enabled = self.index > 0
        nxt.enabled = self.index < last
        back.selected = False

    # --- events --------------------------------------------------------------------------------

    def on_draw(self) -> None:
        self.app.begin_frame()
        self.sync_frame()
        self.layer.plates.draw()
        self.sprites.draw()
        self.layer.batch.draw()

    def sync_frame(self) -> None:
        """Lay the page out again if the window's size changed."""
        if self.app.frame != self.frame:
            self.show_page(self.index)

    def on_resize(self, width: int, height: int) -> None:
        self.app.fit()
        self.sync_frame()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.buttons.hover(*self.app.to_logical(x, y))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.sync_frame()
        self.buttons.click(*self.app.to_logical(x, y))

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol in (k.RIGHT, k.PAGEDOWN, k.SPACE):
            self.turn(1)
        elif symbol in (k.LEFT, k.PAGEUP):
            self.turn(-1)
        elif symbol == k.HOME:
            self.show_page(0)
        elif symbol == k.END:
            self.show_page(len(self.pages) - 1)
        elif symbol in (k.ESCAPE, k.BACKSPACE):
            self.close()
        elif symbol == k.F:
            self.app.toggle_fullscreen()


def show_rules(app: Host, rules: Rules, back: arcade.View) -> RulesView:
    """Show the Rules screen of ``rules`` over the window; Esc shows ``back`` again."""
    view = RulesView(app, rules, back)
    app.window.show_view(view)
    return view


def open_table_rules() -> None:
    """The Rules screen of the match on the window's table (the help panel's button):
    the table's rules, and Esc goes back to the table as it was."""
    table = arcade.get_window().current_view
    app: Host | None = getattr(table, "app", None)
    match = getattr(table, "match", None)
    if table is None or app is None or match is None:
        return
    overlay = getattr(table, "overlay", None)
    if overlay is not None:
        overlay.close()
    show_rules(app, match.rules, table)
