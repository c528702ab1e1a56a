"""What a person does at the table: the bid buttons, the keyboard's focus, clicks and keys.

A :class:`~atout.ui.window.table.Table` holds one :class:`TableInput`.  It owns the row of
one button per legal bid during the bidding, the card or bid the keyboard's focus is on
(the arrows move it, Enter plays it, a new hint takes it once), and the message that
another seat is to act after a click out of turn; it turns the table's clicks, pointer
moves and keys into the table's own actions and the driver's requests.  It computes no
rule: the legal bids and cards are the view's, the answers the driver's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import arcade
from atout.core import Action
from atout.core import View
from atout.core.model import BID_CONTRACT

from ..i18n import _
from .board import Board
from .host import Host
from .overlays import DealPanel
from .overlays import Overlay
from .panels import StatusPanel
from .review_view import ReviewMode
from .table_controls import GRID_AFTER
from .table_controls import build_bid_buttons
from .table_driver import Driver
from .table_layout import Layout
from .table_stage import Stage
from .widgets import ButtonRow
from .widgets import Layer
from .widgets import Toast

HELP_KEYS = (arcade.key.QUESTION, arcade.key.F1, arcade.key.SLASH)
"""The keys that open (or close) the help."""


class InputTable(Protocol):
    """What the input needs of its table (:class:`~atout.ui.window.table.Table`, which
    imports this module): what it shows, its parts, and the actions its keys take."""

    app: Host
    driver: Driver
    layout: Layout
    board: Board
    status_panel: StatusPanel
    toast: Toast
    buttons: ButtonRow
    overlay: Overlay
    deal_panel: DealPanel
    review: ReviewMode | None
    view: View | None
    hint: Action | None
    stage: Stage
    me: int
    clock: float

    def seat_name(self, seat: int) -> str: ...

    def busy(self) -> bool: ...

    def hurry(self) -> None: ...

    def sync_frame(self) -> None: ...

    def refresh_highlights(self) -> None: ...

    def open_overlay(self, name: str) -> None: ...

    def toggle_last_trick(self) -> None: ...

    def open_review(self) -> None: ...

    def toggle_unseen(self) -> None: ...


class TableInput:
    """The input of ``table`` (see the module's docstring)."""

    def __init__(self, table: InputTable) -> None:
        self.table = table
        self.bids = Layer()
        """The bid buttons' plates and texts (drawn once the cards are dealt)."""
        self.bid_buttons = ButtonRow()
        """One button per legal bid when the person is to bid."""
        self.focus: int | None = None
        """The card the keyboard's focus is on (arrows move it over the playable cards,
        Enter plays it); ``None``: no focus shown."""
        self.bid_focus: str | None = None
        """The bid whose button has the keyboard's focus during the bidding."""
        self.focused_hint: Action | None = None
        """The hint the focus last moved to (a new hint takes the focus once)."""
        self.waiting_on: tuple[str, int] | None = None
        """A message that another seat is to act, and that seat: it goes when the turn
        moves on (see :meth:`say_wait`)."""

    # --- the bid buttons --------------------------------------------------------------------

    def update_bid_buttons(self) -> None:
        """One button per legal bid when the person is to bid (their texts only describe
        the bids the engine lists)."""
        table = self.table
        view = table.view
        self.bids = Layer()
        self.bid_buttons = ButtonRow()
        if (
            view is None
            or table.stage != Stage.PLAY
            or view.turn != table.me
            or view.phase != "bidding"
        ):
            return
        # the bids as the engine describes them: an auction by values is laid out as a grid
        engine = table.app.engine
        described = [(b, engine.describe_bid(view.game, view.rules, b)) for b in view.legal_bids]
        grid = sum(i.kind == BID_CONTRACT for _, i in described) > GRID_AFTER
        layout = table.layout
        self.bid_buttons = build_bid_buttons(
            self.bids,
            view,
            layout.bid_grid_centre() if grid else layout.bid_area(),
            table.driver.human_bid,
            described,
            layout.bid_room(),
            layout.bid_grid_band(),
        )
        if self.bid_focus not in view.legal_bids:
            self.bid_focus = None
        self.show_bid_focus()
        # the person's own bid of the first round would stand by the buttons: it goes
        table.status_panel.hide_bubble(table.me)

    # --- the keyboard's focus -------------------------------------------------------------

    def follow_hint(self, my_turn: bool) -> None:
        """A new hint takes the focus (H then Enter plays it); the focus goes when its
        card may not be played now."""
        view = self.table.view
        hint = self.table.hint
        if hint is not None and hint is not self.focused_hint:
            self.focused_hint = hint
            if hint.kind == "play":
                self.focus = hint.value
            elif hint.kind == "bid":
                self.bid_focus = hint.value
                self.show_bid_focus()
        if self.focus is not None and (
            not my_turn or view is None or not view.legal >> self.focus & 1
        ):
            self.focus = None

    def focus_cards(self) -> list[int]:
        """The cards the person may play now, as the arrows visit them: left to right
        on the table, the upper one first where two lie one above the other."""
        table = self.table
        view = table.view
        if (
            view is None
            or table.stage != Stage.PLAY
            or view.turn != table.me
            or view.phase != "play"
            or table.busy()
        ):
            return []
        shown = table.board.shown
        cards = [c for c in range(32) if view.legal >> c & 1 and c in shown]
        return sorted(cards, key=lambda c: (round(shown[c].x), -shown[c].y))

    def move_focus(self, step: int) -> None:
        """An arrow: the focus moves ``step`` places over the bid buttons (the bidding)
        or the playable cards (the play); the first press shows it."""
        names = [b.name.removeprefix("bid:") for b in self.bid_buttons.buttons if b.visible]
        if names and not self.table.busy():
            at = names.index(self.bid_focus) if self.bid_focus in names else None
            start = (0 if step > 0 else len(names) - 1) if at is None else at + step
            self.bid_focus = names[start % len(names)]
            self.show_bid_focus()
            return
        cards = self.focus_cards()
        if not cards:
            return
        at = cards.index(self.focus) if self.focus in cards else None
        start = (0 if step > 0 else len(cards) - 1) if at is None else at + step
        self.focus = cards[start % len(cards)]
        self.table.refresh_highlights()

    def show_bid_focus(self) -> None:
        """Frame the button of the focused bid (and no other)."""
        for button in self.bid_buttons.buttons:
            button.selected = button.name == f"bid:{self.bid_focus}"

    def press_focus(self) -> None:
        """Enter: make the focused bid or play the focused card (with no focus yet,
        show it first)."""
        driver = self.table.driver
        names = [b.name.removeprefix("bid:") for b in self.bid_buttons.buttons if b.visible]
        if names and not self.table.busy():
            if self.bid_focus in names:
                driver.human_bid(self.bid_focus)
            else:
                self.move_focus(1)
            return
        if self.focus is not None and self.focus in self.focus_cards():
            driver.click_card(self.focus)
        else:
            self.move_focus(1)

    # --- a click out of turn ----------------------------------------------------------------

    def refuse_not_yet(self, view: View, seat: int | None) -> bool:
        """Say why a click on one of ``seat``'s cards plays nothing yet: the bidding comes
        first, or another seat is to play (both drivers refuse a card so, before they ask
        the engine or the server about it). True when it said so."""
        table = self.table
        if view.phase == "bidding":
            table.toast.show(_("The bidding comes first: take or pass."), table.clock)
            return True
        if view.turn != seat:
            self.say_wait(_("Wait: it is {name}'s turn.").format(name=table.seat_name(view.turn)))
            return True
        return False

    def say_wait(self, words: str) -> None:
        """Say that another seat is to act (a click out of turn): the message holds only
        while that seat's turn lasts, never beside a status line that says "Your turn"."""
        table = self.table
        table.toast.show(words, table.clock)
        if table.view is not None:
            self.waiting_on = (words, table.view.turn)

    def end_wait(self) -> None:
        """Take back the message of :meth:`say_wait` once that seat's turn is over (or
        the play is)."""
        table = self.table
        waiting = self.waiting_on
        if waiting is not None and (
            table.view is None or table.stage != Stage.PLAY or table.view.turn != waiting[1]
        ):
            self.waiting_on = None
            if table.toast.message == waiting[0]:
                table.toast.hide()

    # --- clicks and keys ----------------------------------------------------------------------

    def on_mouse_press(self, x: int, y: int) -> None:
        """A click: at the logical point it falls on, the panel over the table takes it,
        else the Review screen, else the end-of-deal panel, else the buttons, a card."""
        table = self.table
        table.sync_frame()
        lx, ly = table.app.to_logical(x, y)
        if table.overlay.is_open:
            if not table.overlay.buttons.click(lx, ly) and table.overlay.name != "menu":
                table.overlay.close()
            return
        if table.review is not None:
            table.review.on_click(lx, ly)
            return
        if table.stage.over:
            if not table.deal_panel.buttons.click(lx, ly):
                table.buttons.click(lx, ly)
            return
        if table.busy():
            table.hurry()
        if self.bid_buttons.click(lx, ly) or table.buttons.click(lx, ly):
            return
        hit = table.board.card_at(lx, ly)
        if hit is None:
            return
        kind, what = hit
        if kind == "card":
            table.driver.click_card(what)
        elif table.layout.is_own_back(what):
            table.toast.show(
                _("That card is face down: nobody may play it until it is turned."), table.clock
            )

    def on_mouse_motion(self, x: int, y: int) -> None:
        """The pointer moves: light the button under it."""
        table = self.table
        lx, ly = table.app.to_logical(x, y)
        rows = (table.buttons, self.bid_buttons, table.deal_panel.buttons, table.overlay.buttons)
        for row in rows:
            row.hover(lx, ly)

    def on_key_press(self, symbol: int) -> None:
        """A key: the Review screen's keys while it is open, else the table's."""
        table = self.table
        overlay = table.overlay
        k = arcade.key
        if table.review is not None and not overlay.is_open:
            if symbol in HELP_KEYS:
                table.open_overlay("help")
            else:
                table.review.on_key(symbol)
            return
        driver = table.driver
        keys: dict[int, Callable[[], None]] = {
            k.F: table.app.toggle_fullscreen,
            k.L: table.toggle_last_trick,
            k.H: driver.ask_hint,
            k.U: driver.undo,
            k.N: driver.next_deal_key,
            k.R: table.open_review,
            k.C: table.toggle_unseen,
        }
        if symbol == k.ESCAPE:
            if overlay.is_open:
                overlay.close()
            else:
                table.open_overlay("menu")
        elif symbol in HELP_KEYS:
            if overlay.name == "help":
                overlay.close()
            else:
                table.open_overlay("help")
        elif symbol in keys:
            keys[symbol]()
        elif overlay.is_open or table.stage != Stage.PLAY:
            return
        elif symbol in (k.RIGHT, k.DOWN):
            self.move_focus(1)
        elif symbol in (k.LEFT, k.UP):
            self.move_focus(-1)
        elif symbol in (k.RETURN, k.ENTER, k.NUM_ENTER):
            self.press_focus()


__all__ = ["HELP_KEYS", "InputTable", "TableInput"]
