"""The start screen's rows of buttons and its measures: a row of buttons as wide as their
labels, the room a description needs, the pack list's buttons and arrows, New match,
Continue and With people, the games with a table and the pack chosen first for a game.

Module-level functions that build widgets from the callbacks they call, so they know
nothing of :class:`~atout.ui.window.start_view.StartView`.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import arcade
from atout.core import Engine
from atout.core.packs import PackInfo

from ..i18n import _
from ..messages import origin_words
from ..messages import shown_pack
from . import theme
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer

PACK_PITCH = 38.0
"""The height of a row of the pack list (as many rows show as the window has room for;
the arrows page through the rest)."""
DESCRIPTION = 12


GAME_ORDER = ("decouverte", "belote")
SEATS_WITH_TABLES = (2, 4)
"""The numbers of seats the window has a table for."""


def playable_games(engine: Engine) -> list[str]:
    """The games the window has a table for, Découverte and Belote first."""
    games = engine.games
    playable = [g for g, info in games.items() if info.seats in SEATS_WITH_TABLES]
    return sorted(playable, key=lambda g: (GAME_ORDER.index(g) if g in GAME_ORDER else 9, g))


def default_pack(packs: list[PackInfo], game: str) -> str:
    """The pack chosen first for ``game``: the one named after it, or ``official``."""
    usable = [p.name for p in packs if p.usable and p.game == game]
    for name in (game, "official"):
        if name in usable:
            return name
    return ""


def fitted_row(
    layer: Layer,
    row: ButtonRow,
    x: float,
    y: float,
    size: tuple[int, int],
    gap: float,
    buttons: Sequence[tuple[str, Callable[[], None], str]],
    room: float | None = None,
) -> int:
    """A row of buttons from ``x`` at height ``y``, each at least ``size`` (width,
    height) and as wide as its label (``(label, action, name)``), ``gap`` apart; with
    ``room``, a button that would run past ``x + room`` starts a new row below (one
    ``height`` and ``gap`` lower).  The number of rows laid out."""
    width, height = size
    left, rows = x, 1
    for label, action, name in buttons:
        button = Button(layer, label, x, y, width, height, action, size=13, name=name, fit=True)
        if room is not None and x > left and x + button.rect.width > left + room:
            x, y, rows = left, y - height - gap, rows + 1
        button.move_to(x + button.rect.width / 2, y)
        x += button.rect.width + gap
        row.add(button)
    return rows


def tallest(texts: Sequence[str], width: float) -> float:
    """The height of the tallest of ``texts`` wrapped at ``width`` in the views'
    description font (room is kept for the longest, so nothing below moves)."""
    probe = Layer()
    heights = [
        probe.text(t, 0, 0, DESCRIPTION, width=int(width), multiline=True).content_height
        for t in texts
    ]
    return max([DESCRIPTION * 1.6, *heights])


def pack_label(p: PackInfo) -> str:
    """A pack's button's label: its title (else its name), where it comes from unless
    shipped, ``(!)`` when it cannot be used."""
    label = shown_pack(p.title, p.origin) or (Path(p.name).name if p.origin == "file" else p.name)
    if p.origin != "shipped":
        label += f"  ({origin_words(p.origin)})"
    if not p.usable:
        label += "  (!)"
    return label


def pack_buttons(
    shown: Sequence[PackInfo],
    place: tuple[float, float, float],
    chosen: str,
    click: Callable[[PackInfo], None],
) -> tuple[Layer, ButtonRow]:
    """The buttons of one page of the pack list (``place``: their middle across, the first
    one's height, their width), the ``chosen`` pack's selected, a pack that cannot be used
    greyed; ``click(pack)`` on a click."""
    x, top, width = place
    layer = Layer()
    row = ButtonRow()
    for i, p in enumerate(shown):
        button = Button(
            layer,
            pack_label(p),
            x,
            top - i * PACK_PITCH,
            int(width),
            32,
            partial(click, p),
            size=12,
            colour=theme.BUTTON if p.usable else theme.BUTTON_OFF,
            name=f"pack:{p.name}",
        )
        button.selected = p.name == chosen
        row.add(button)
    return layer, row


def add_page_arrows(
    layer: Layer,
    row: ButtonRow,
    x: float,
    top: float,
    bottom: float,
    page: Callable[[int], None],
) -> None:
    """The pack list's arrows at ``x``: up at ``top``, down at ``bottom``."""
    row.add(
        Button(
            layer,
            "▲",
            x,
            top,
            40,
            30,
            lambda: page(-1),
            size=12,
            name="packs-up",
        )
    )
    row.add(
        Button(
            layer,
            "▼",
            x,
            bottom,
            40,
            30,
            lambda: page(1),
            size=12,
            name="packs-down",
        )
    )


MAIN = (theme.GREEN_OK, theme.GREEN_OK_HOVER)
"""The colours of the button that Enter presses."""
OTHER = (theme.AMBER, theme.AMBER_HOVER)
"""The colours of the other of New match and Continue."""
PLAIN = (theme.BUTTON, theme.BUTTON_HOVER)
"""The colours of With people (and of any button without colours of its own)."""


def add_match_buttons(
    layer: Layer,
    row: ButtonRow,
    mid: float,
    new_match: Callable[[], None],
    continue_match: Callable[[], None],
    with_people: Callable[[], None],
) -> None:
    """New match, Continue and With people, all at ``mid`` (:func:`place_match_buttons`
    puts them in a row)."""
    buttons = (
        (_("New match  (Enter)"), 270, new_match, 16, MAIN, "new"),
        (_("Continue  (C)"), 270, continue_match, 16, OTHER, "continue"),
        (_("With people  (P)"), 230, with_people, 15, PLAIN, "people"),
    )
    for label, width, action, size, (colour, hover), name in buttons:
        row.add(
            Button(
                layer,
                label,
                mid,
                54,
                width,
                50,
                action,
                size=size,
                colour=colour,
                hover_colour=hover,
                name=name,
            )
        )


def place_match_buttons(row: ButtonRow, mid: float, saved: bool, practice: bool = False) -> None:
    """When a match is saved, Continue in the middle, green, pressed by Enter, New match
    at its right (key N); else New match in the middle, green, pressed by Enter.  With
    people at the left of the middle one."""
    named = {b.name: b for b in row.buttons}
    new, people, later = named["new"], named["people"], named["continue"]
    later.visible = saved
    first, second = (later, new) if saved else (new, later)
    first.colour, first.hover_colour = MAIN
    second.colour, second.hover_colour = OTHER
    what = _("New practice match") if practice else _("New match")
    new.set_label(f"{what}  ({'N' if saved else _('Enter')})")
    later.set_label(_("Continue  (Enter)"))
    shift = 0.0 if saved else 125.0
    first.move_to(mid + shift, 54)
    people.move_to(mid + shift - 270, 54)
    second.move_to(mid + 270, 54)


DIALOG = (250, 246, 232, 255)
VEIL = (0, 0, 0, 150)
DIALOG_EDGE = theme.PANEL_EDGE


class Dialog:
    """A panel over the start view: a title, lines of text and buttons.  While it is
    open it takes every click and key; ``enter`` is what Enter does (``None``:
    nothing), Esc closes it."""

    def __init__(
        self,
        name: str,
        screen: tuple[float, float],
        size: tuple[float, float],
        title: str,
        close: Callable[[], None],
    ) -> None:
        w, h = screen
        self.name = name
        self.rect = arcade.XYWH(w / 2, h / 2, *size)
        """The panel (the screen around it is veiled)."""
        rect = self.rect
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.enter: Callable[[], None] | None = None
        self.close = close
        self.layer.plate(arcade.LRBT(0, w, 0, h), VEIL, None, 0, 0)
        self.layer.plate(rect, DIALOG, DIALOG_EDGE, 16, 3)
        self.layer.text(title, rect.x, rect.top - 40, 18, theme.INK, anchor_x="center", bold=True)

    def text(self, value: str, x: float, y: float, width: float, size: float = 13) -> arcade.Text:
        """Lines of ``value`` from ``(x, y)`` down, wrapped at ``width``."""
        return self.layer.text(
            value, x, y, size, theme.INK, width=int(width), multiline=True, anchor_y="top"
        )

    def button(
        self,
        label: str,
        x: float,
        y: float,
        size: tuple[int, int],
        action: Callable[[], None],
        name: str,
        colour: tuple[int, int, int, int] = theme.BUTTON,
    ) -> Button:
        return self.buttons.add(
            Button(
                self.layer,
                label,
                x,
                y,
                size[0],
                size[1],
                action,
                size=13,
                colour=colour,
                name=name,
                fit=True,
            )
        )

    def draw(self) -> None:
        self.layer.draw()
