"""The table's input: what a click and a key do on the table.

Module-level functions over the parts of the table they read, known as a protocol
(:class:`InputTable`), so this module imports nothing of
:mod:`~atout.ui.window.table_base` (no import cycle, not even for the type checker).
"""

from __future__ import annotations

from typing import Protocol

import arcade

from ..i18n import _
from .board import Board
from .host import Host
from .overlays import DealPanel
from .overlays import Overlay
from .review_view import ReviewMode
from .widgets import ButtonRow
from .widgets import Toast


class InputTable(Protocol):
    """What the input reads and calls on the table
    (:class:`~atout.ui.window.table_base.TableView` gives it)."""

    app: Host
    board: Board
    overlay: Overlay
    deal_panel: DealPanel
    review: ReviewMode | None
    buttons: ButtonRow
    bid_buttons: ButtonRow
    stage: str
    clock: float
    toast: Toast

    def busy(self) -> bool: ...
    def hurry(self) -> None: ...
    def click_card(self, card: int) -> None: ...
    def is_own_back(self, key: str) -> bool: ...
    def open_overlay(self, name: str) -> None: ...
    def toggle_last_trick(self) -> None: ...
    def ask_hint(self) -> None: ...
    def undo(self) -> None: ...
    def next_deal_key(self) -> None: ...
    def open_review(self) -> None: ...
    def move_focus(self, step: int) -> None: ...
    def press_focus(self) -> None: ...
    def toggle_unseen(self) -> None: ...


def mouse_press(table: InputTable, lx: float, ly: float) -> None:
    """A click at the logical point (``lx``, ``ly``)."""
    if table.overlay.is_open:
        if not table.overlay.buttons.click(lx, ly) and table.overlay.name != "menu":
            table.overlay.close()
        return
    if table.review is not None:
        table.review.on_click(lx, ly)
        return
    if table.stage in ("deal_over", "match_over"):
        if not table.deal_panel.buttons.click(lx, ly):
            table.buttons.click(lx, ly)
        return
    if table.busy():
        table.hurry()
    if table.bid_buttons.click(lx, ly) or table.buttons.click(lx, ly):
        return
    hit = table.board.card_at(lx, ly)
    if hit is None:
        return
    kind, what = hit
    if kind == "card":
        table.click_card(what)
    elif table.is_own_back(what):
        table.toast.show(
            _("That card is face down: nobody may play it until it is turned."), table.clock
        )


def mouse_motion(table: InputTable, lx: float, ly: float) -> None:
    """The pointer moves to the logical point (``lx``, ``ly``): light the button under it."""
    rows = (table.buttons, table.bid_buttons, table.deal_panel.buttons, table.overlay.buttons)
    for row in rows:
        row.hover(lx, ly)


def key_press(table: InputTable, symbol: int) -> None:
    """A key: the Review screen's keys while it is open, else the table's."""
    k = arcade.key
    if table.review is not None and not table.overlay.is_open:
        if symbol in (k.QUESTION, k.F1, k.SLASH):
            table.open_overlay("help")
        else:
            table.review.on_key(symbol)
        return
    if symbol == k.ESCAPE:
        if table.overlay.is_open:
            table.overlay.close()
        else:
            table.open_overlay("menu")
    elif symbol in (k.QUESTION, k.F1, k.SLASH):
        if table.overlay.name == "help":
            table.overlay.close()
        else:
            table.open_overlay("help")
    elif symbol == k.F:
        table.app.toggle_fullscreen()
    elif symbol == k.L:
        table.toggle_last_trick()
    elif symbol == k.H:
        table.ask_hint()
    elif symbol == k.U:
        table.undo()
    elif symbol == k.N:
        table.next_deal_key()
    elif symbol == k.R:
        table.open_review()
    elif symbol == k.C:
        table.toggle_unseen()
    elif table.overlay.is_open or table.stage != "play":
        return
    elif symbol in (k.RIGHT, k.DOWN):
        table.move_focus(1)
    elif symbol in (k.LEFT, k.UP):
        table.move_focus(-1)
    elif symbol in (k.RETURN, k.ENTER, k.NUM_ENTER):
        table.press_focus()
