"""The table's U key with a fair undo: a misclick comes back, a card whose answer the
person has seen does not (the toast says why), and a practice match says on its score
sheet that its undo is free."""

from __future__ import annotations

import random

import arcade
from atout.core import Engine
from atout.ui.rules import resolve_rules
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.driver import MatchDriver
from atout.ui.window.side_bar import PRACTICE_MARK
from atout.ui.window.table import Table
from ui_helpers import human_to_act
from ui_helpers import press
from ui_helpers import pump


def start(app: App, seed: int, practice: bool = False) -> Table:
    setup = Setup(game="decouverte", bot="random", seed=seed, practice=practice)
    table = app.start_match(setup, resolve_rules(app.engine, setup.game, setup.pack, None))
    assert isinstance(table.driver, MatchDriver)
    return table


def to_the_persons_card(table: Table, rng: random.Random) -> None:
    """Bid at random until the person is to play a card."""
    pump(table, lambda: human_to_act(table))
    while table.view is not None and table.view.phase == "bidding":
        table.driver.human_bid(rng.choice(table.view.legal_bids))
        pump(table, lambda: human_to_act(table))


def legal_card(table: Table) -> int:
    view = table.view
    assert view is not None and view.phase == "play"
    return min(c for c in range(32) if view.legal >> c & 1)


def test_u_after_the_bot_answered_says_why_and_takes_nothing_back(app: App) -> None:
    table = start(app, seed=19)
    to_the_persons_card(table, random.Random(5))
    table.driver.click_card(legal_card(table))
    pump(table, lambda: human_to_act(table) or table.stage != "play")
    assert table.stage == "play" and table.deal is not None
    actions = list(table.deal.actions)
    reason = table.driver.session.undo_refusal(0)
    assert reason is not None and reason.startswith("undo refused: ")
    press(app, arcade.key.U)
    assert table.toast.message == f"U{reason[1:]}."
    assert table.deal is not None and table.deal.actions == actions


def test_u_before_anyone_answered_takes_the_card_back(app: App) -> None:
    """A card the person leads, pressed back before the bot answered: nothing was
    revealed, so it comes back."""
    rng = random.Random(7)
    for seed in range(40, 80):
        table = start(app, seed=seed)
        to_the_persons_card(table, rng)
        view = table.view
        assert view is not None
        if view.trick or view.rules.get("reveal_on_lead"):
            continue  # not a lead: the trick ends with it and turns cards
        table.driver.click_card(legal_card(table))
        assert table.view is not None and table.view.trick  # played, not yet answered
        press(app, arcade.key.U)
        assert table.toast.message == "Your last card is taken back."
        assert table.view == view
        return
    raise AssertionError("the person never led a trick")


def test_a_practice_match_says_so_and_keeps_it_when_continued(
    app: App, window: arcade.Window, engine: Engine
) -> None:
    plain = start(app, seed=3)
    plain.on_draw()
    assert PRACTICE_MARK not in [t.text for t in plain.sheet.texts]
    table = start(app, seed=3, practice=True)
    pump(table, lambda: human_to_act(table))
    table.on_draw()
    assert PRACTICE_MARK in [t.text for t in table.sheet.texts]
    app.leave_table()
    again = App(window, engine, speed=0.25)
    try:
        resumed = again.continue_match()
        assert isinstance(resumed.driver, MatchDriver) and resumed.driver.session.practice
        assert resumed.setup.practice
        resumed.on_draw()
        assert PRACTICE_MARK in [t.text for t in resumed.sheet.texts]
    finally:
        again.leave_table()
        again.shutdown()
