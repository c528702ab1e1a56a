"""The guided first deal of Découverte: a seeded match on the ordinary table whose coach
says what each step asks and why; and the hint's reason in the table's message."""

from __future__ import annotations

import argparse

import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import Play
from atout.core.cards import cards_of
from atout.ui import savegame
from atout.ui.cards_text import HUMAN
from atout.ui.cards_text import show_card
from atout.ui.hint_text import hint_line
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.gallery import start
from atout.ui.window.guided import GUIDED_SEED
from atout.ui.window.guided import GuidedDriver
from atout.ui.window.guided import start_guided
from atout.ui.window.table import Table
from layout import drawn
from layout import inside
from layout import problems
from layout import rect_box
from layout import text_box
from ui_helpers import click_button
from ui_helpers import human_to_act
from ui_helpers import pump
from ui_helpers import step

pytestmark = pytest.mark.ui


def coach(table: Table) -> str:
    driver = table.driver
    assert isinstance(driver, GuidedDriver) and driver.coach_text is not None
    return driver.coach_text.text


def test_the_guided_deal_explains_each_step_through_a_whole_deal(app: App) -> None:
    """From the start view's button: the piles and the proposed card, taking, the
    cards you may play and the engine's reason for one you may not, a card turned, and
    the count at the end; the words always inside the coach's panel."""
    app.speed = 0.0
    start_view = app.show_start()
    click_button(app, start_view.buttons.find("guided"))
    table = app.window.current_view
    assert isinstance(table, Table) and isinstance(table.driver, GuidedDriver)
    assert table.driver.session.match.seed == GUIDED_SEED
    pump(table, lambda: human_to_act(table))
    view = table.view
    assert view is not None and view.phase == "bidding" and view.turnup is not None
    words = coach(table)
    assert "eight piles" in words and "face-down" in words
    assert show_card(view.turnup) in words and "Take" in words
    table.driver.human_bid("take")
    pump(table, lambda: human_to_act(table))
    assert "You lead" in coach(table) and "J 9 A 10 K Q 8 7" in coach(table)
    seen_reason = seen_turn = False
    while table.stage == "play":
        pump(table, lambda: human_to_act(table) or table.stage != "play")
        if table.stage != "play":
            break
        view = table.driver.session.view(HUMAN)
        words = coach(table)
        box = rect_box(table.driver.coach_box)
        text = table.driver.coach_text
        assert text is not None and inside(text_box(text), box), words
        refused = [c for c in cards_of(view.hand) if not view.legal >> c & 1]
        if refused:
            reason = table.driver.session.explain(refused[0])
            assert reason is not None and f"Why not {show_card(refused[0])}? " in words
            assert reason in words
            seen_reason = True
        if "Turned:" in words:
            seen_turn = True
        # play the lowest card: the opponent then leads some tricks
        card = min(cards_of(view.legal), key=lambda c: (c & 7 in (2, 4), c & 7))
        table.driver.apply(HUMAN, Action.play(card))
    pump(table, lambda: table.stage in ("deal_over", "match_over"))
    words = coach(table)
    assert "The count:" in words and "The taker needed 82" in words
    assert seen_reason and seen_turn


def test_the_guided_deal_never_touches_the_saved_match(app: App) -> None:
    """A match in progress is saved; the guided deal does not follow the save file, so
    Continue still finds the match left."""
    table = start(app, "decouverte")
    step(table)
    app.leave_table()
    saved = savegame.saved_match_path().read_bytes()
    guided = start_guided(app)
    pump(guided, lambda: human_to_act(guided))
    guided.driver.human_bid("pass")
    step(guided)
    app.leave_table()
    assert savegame.saved_match_path().read_bytes() == saved


def test_the_hint_says_why_in_the_tables_message(app: App) -> None:
    """The expert's hint shows with its reason on the table's message line."""
    app.hint_bot = "expert"
    table = start_guided(app)
    pump(table, lambda: human_to_act(table))
    table.driver.human_bid("take")
    pump(table, lambda: human_to_act(table))
    table.driver.ask_hint()
    job = table.driver.hint_job
    assert job is not None and job.wait(60)
    step(table)
    hint = table.hint
    assert hint is not None and hint.kind == "play"
    message = table.toast.message
    head = f"Hint: play {show_card(hint.value)} — "
    reason = getattr(hint, "reason", "")
    assert reason and message.startswith(head)
    said = message[len(head) :]
    # the whole reason, or where room is short its first part ("wins 14 points")
    assert said == reason or (said == reason.split("; ")[0] and len(hint_line(hint)) > 50)
    table.driver.apply(HUMAN, hint)  # the position moves on: the hint's line goes with it
    assert not table.toast.visible(table.clock)


def test_a_long_hint_stays_clear_of_the_seats_at_the_four_player_table(app: App) -> None:
    """The message line of a long hint is made to fit between the seats' names and the
    dealer's mark (laid out by the layout rules of tests/ui/layout.py)."""
    table = start(app, "belote")
    pump(table, lambda: human_to_act(table))
    view = table.view
    assert view is not None
    if view.phase == "bidding":
        table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])
        pump(
            table,
            lambda: human_to_act(table) and table.view is not None and table.view.phase == "play",
        )
    for _ in range(20):  # the bubbles of the bidding go
        step(table)
    view = table.view
    assert view is not None
    card = cards_of(view.legal)[0]
    table.hint = Play(
        card, reason="gives 10 points to your partner, who is winning; 12 points better than 10♥"
    )
    table.driver.show_hint_line(view)
    table.refresh_highlights()
    table.on_draw()
    found = [p for p in problems(drawn(table, table.frame)) if "Hint:" in p]
    assert not found, found


def test_atout_play_guided_opens_the_window_on_the_guided_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from atout.ui.commands import play

    calls: list[tuple[Setup | None, bool]] = []

    def fake_run(engine: Engine, setup: Setup | None, guided: bool = False) -> int:
        calls.append((setup, guided))
        return 0

    monkeypatch.setattr("atout.ui.display.display_problem", lambda: None)
    monkeypatch.setattr("atout.ui.window.app.run", fake_run)
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    assert play.run(parser.parse_args(["--guided"]), Engine()) == 0
    assert calls == [(None, True)]
