"""Playing from the keyboard: the arrows move a frame over the playable cards (or the
bid buttons), Enter plays the framed card (or makes the bid), H then Enter plays the
hint."""

from __future__ import annotations

import arcade
import pytest
from atout.ui.cards_text import HUMAN
from atout.ui.window.app import App
from atout.ui.window.board import FOCUS_COLOUR
from atout.ui.window.gallery import person_to
from atout.ui.window.gallery import run_until
from atout.ui.window.gallery import start
from atout.ui.window.table import Table
from ui_helpers import press

pytestmark = pytest.mark.ui


def to_play(table: Table) -> None:
    while not person_to(table, "play"):
        assert run_until(table, lambda: person_to(table, "bidding") or person_to(table, "play"))
        view = table.view
        if view is not None and view.phase == "bidding":
            table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])


def played(table: Table, card: int) -> bool:
    view = table.view
    assert view is not None
    return any(c == card for _, c in view.trick) or any(card in t.cards for t in view.tricks)


def test_the_arrows_frame_the_playable_cards_and_enter_plays_the_framed_one(app: App) -> None:
    for game in ("decouverte", "belote"):
        table = start(app, game)
        to_play(table)
        cards = table.input.focus_cards()
        assert cards, "the person has cards to play"
        press(app, arcade.key.RIGHT)
        assert table.input.focus == cards[0]
        assert (cards[0], FOCUS_COLOUR) in table.board.ring_cards()
        press(app, arcade.key.LEFT)
        assert table.input.focus == cards[-1]  # round the row
        press(app, arcade.key.RIGHT)
        if len(cards) > 1:
            press(app, arcade.key.RIGHT)
            assert table.input.focus == cards[1]
            assert (cards[0], FOCUS_COLOUR) not in table.board.ring_cards()
        chosen = table.input.focus
        assert chosen is not None
        press(app, arcade.key.RETURN)
        assert played(table, chosen)
        assert table.input.focus is None  # no longer the person's turn: no frame
        app.leave_table()


def test_the_arrows_move_over_the_bids_and_enter_makes_the_framed_one(app: App) -> None:
    table = start(app, "belote")
    assert run_until(table, lambda: person_to(table, "bidding"))
    view = table.view
    assert view is not None
    press(app, arcade.key.LEFT)  # from the end: pass
    assert table.input.bid_focus == view.legal_bids[-1] == "pass"
    selected = [b.name for b in table.input.bid_buttons.buttons if b.selected]
    assert selected == ["bid:pass"]
    press(app, arcade.key.RETURN)
    view = table.view
    assert view is not None
    assert (HUMAN, "pass") in view.bids


def test_h_then_enter_plays_the_hint(app: App) -> None:
    app.hint_bot = "greedy"
    table = start(app, "decouverte")
    to_play(table)
    press(app, arcade.key.H)
    assert run_until(table, lambda: table.hint is not None, frames=400)
    hint = table.hint
    assert hint is not None and hint.kind == "play"
    assert table.input.focus == hint.value
    press(app, arcade.key.RETURN)
    assert played(table, hint.value)
