"""More of the table: the redeal, the end of a match, l'arrêt, the speed, a resized
window, and ``atout play`` on a machine without a display."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import arcade
import pytest
from atout.core import CLAIM
from atout.core import Action
from atout.core import Engine
from atout.core import Rules
from atout.core import View
from atout.plugins.bots.basic import RandomBot
from atout.ui import cli
from atout.ui import savegame
from atout.ui.cards_text import HUMAN
from atout.ui.rules import resolve_rules
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.start_view import StartView
from atout.ui.window.table import Table
from atout.ui.window.table_decouverte import DecouverteLayout
from ui_helpers import click
from ui_helpers import click_button
from ui_helpers import human_to_act
from ui_helpers import pump

pytestmark = pytest.mark.ui


def start(app: App, game: str = "decouverte", seed: int = 5, **setup: Any) -> Table:
    chosen = Setup(game=game, bot="random", seed=seed, **setup)
    return app.start_match(
        chosen, resolve_rules(app.engine, chosen.game, chosen.pack, chosen.target)
    )


class Passer:
    """Passes in every bidding round, plays at random."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)

    def choose(self, view: View) -> Action:
        if view.phase == "bidding":
            return Action.bid("pass")
        return self.inner.choose(view)


def test_everybody_passing_twice_deals_again(
    window: arcade.Window, engine: Engine, data_home: Path
) -> None:
    def factory(game: str, seat: int, rules: Rules, seed: int) -> Any:
        return Passer(seed)

    app = App(window, engine, speed=0.25, bot_factory=factory)
    try:
        table = start(app, seed=41)
        first = table.deal
        for _ in range(4):
            pump(table, lambda: human_to_act(table) or table.stage != "play")
            if table.stage != "play":
                break
            click_button(app, table.input.bid_buttons.find("bid:pass"))
        pump(table, lambda: table.stage == "redeal")
        assert "passed twice" in table.toast.message
        pump(table, lambda: table.stage == "play" and table.deal is not first)
        assert first is not None and table.deal is not None
        assert table.deal.view(HUMAN).dealer != first.view(HUMAN).dealer
        assert len(table.match.history) == 0
    finally:
        app.leave_table()
        app.shutdown()


def test_the_end_of_the_match_shows_the_winner_and_offers_a_new_match(
    app: App, data_home: Path
) -> None:
    table = start(app, seed=7, target=100)
    rng = random.Random(7)
    for _ in range(300):
        pump(table, lambda: human_to_act(table) or table.stage != "play", dt=0.3)
        if table.stage != "play":
            break
        view = table.view
        assert view is not None
        if view.phase == "bidding":
            click_button(app, table.input.bid_buttons.find("bid:take"))
        else:
            card = rng.choice([c for c in range(32) if view.legal >> c & 1])
            click(app, table.board.cards[card].center_x, table.board.cards[card].center_y)
    pump(table, lambda: table.stage == "match_over")
    result = table.match.result
    assert result is not None
    shown = [t.text for t in table.deal_panel.texts]
    assert any("match" in t and ("win" in t or "drawn" in t) for t in shown)
    assert not savegame.has_saved_match()  # a finished match is not offered to Continue
    table.on_draw()
    click_button(app, table.deal_panel.buttons.find("new-match"))
    fresh = app.window.current_view
    assert isinstance(fresh, Table) and fresh is not table
    assert fresh.match.result is None and fresh.match.rules["target"] == 100


def test_larret_is_offered_and_claimed_with_its_button(app: App) -> None:
    for seed in range(30):
        table = start(app, game="belote", seed=seed, pack="arret")
        rng = random.Random(seed)
        for _ in range(120):
            pump(table, lambda t=table: human_to_act(t) or t.stage != "play", dt=0.3)
            view = table.view
            if table.stage != "play" or view is None:
                break
            if view.can_claim:
                assert table.claim_button.visible
                click_button(app, table.claim_button)
                assert table.deal is not None and table.deal.actions[-1] == (HUMAN, CLAIM)
                return
            assert not table.claim_button.visible
            if view.phase == "bidding":
                click_button(app, table.input.bid_buttons.find("bid:take"))
            else:
                card = rng.choice([c for c in range(32) if view.legal >> c & 1])
                click(app, table.board.cards[card].center_x, table.board.cards[card].center_y)
    pytest.fail("l'arrêt was never offered to the person in 30 seeded deals")


def test_the_speed_button_cycles_and_is_remembered(app: App, data_home: Path) -> None:
    table = start(app)
    before = app.speed_name
    click_button(app, table.speed_button)
    assert app.speed_name != before
    assert savegame.load_settings()["speed"] == app.speed_name
    assert table.speed_button.label.text == f"Speed: {app.speed_name}"


def test_a_resized_window_lays_the_table_out_again_and_its_clicks_follow(app: App) -> None:
    """A window of 960x720 (4:3) gets a 1024x768 logical table drawn at 15/16, laid out
    for that shape (no bands above and below); the cards move to their new places and
    clicks land where the table now shows things.  (The headless window cannot change
    its size: the app draws on an offscreen surface of that size.)"""
    table = start(app, seed=12)
    assert isinstance(table.layout, DecouverteLayout)
    pump(table, lambda: human_to_act(table))
    before = table.layout.pile_xy(HUMAN, 0)
    try:
        app.render_offscreen((960, 720))
        table.on_draw()
        assert (app.frame.width, app.frame.height) == (1024, 768)
        assert app.frame.scale == pytest.approx(0.9375)
        px, py = table.layout.pile_xy(HUMAN, 0)
        assert (px, py) != before
        sprite = next(s for s in table.board.cards.values() if s.visible and s.center_x == px)
        assert sprite.center_y == py
        x, y = app.to_window(px, py)
        assert (x, y) == pytest.approx((px * 0.9375, py * 0.9375))
        assert app.to_logical(x, y) == pytest.approx((px, py))
        image = app.snapshot()
        assert image.size == (960, 720)
        # the card's white corner, 30 logical pixels left of the pile's middle
        corner = image.getpixel((int(x - 30 * 0.9375), int(720 - (y + 20 * 0.9375))))
        assert isinstance(corner, tuple) and min(corner) > 200
        button = table.input.bid_buttons.find("bid:pass")
        assert button is not None and table.deal is not None
        actions = len(table.deal.actions)
        wx, wy = app.to_window(*button.center)
        app.window.dispatch_event("on_mouse_press", wx, wy, arcade.MOUSE_BUTTON_LEFT, 0)
        app.window.dispatch_events()
        assert len(table.deal.actions) == actions + 1
    finally:
        app.render_offscreen(None)


def test_play_without_a_display_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("ARCADE_HEADLESS", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    code = cli.main(["play", "decouverte"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1 and "atout play --text" in err and "display" in err
    assert "Traceback" not in err


def test_the_frame_rate_measure_draws_a_table_and_reports_its_figures(
    window: arcade.Window, data_home: Path
) -> None:
    from atout.ui.window.app import measure_fps

    figures = measure_fps(frames=12)
    for suffix in ("", "_bot_thinking"):
        assert figures[f"ui_fps{suffix}"] > 0
        assert 0 < figures[f"ui_frame_p95_ms{suffix}"] <= figures[f"ui_frame_max_ms{suffix}"]
    assert not (data_home / "saved-match.json").exists()  # the measure writes nothing


def play_two_tricks_by_clicks(app: App, table: Table) -> None:
    """Take in the bidding and play the lowest legal card until two tricks are done."""
    for _ in range(60):
        pump(table, lambda t=table: human_to_act(t) or t.stage != "play", dt=0.3)
        view = table.view
        if view is None or table.stage != "play" or len(view.tricks) >= 2:
            break
        if view.phase == "bidding":
            click_button(app, table.input.bid_buttons.find("bid:take"))
        else:
            card = next(c for c in range(32) if view.legal >> c & 1)
            click(app, table.board.cards[card].center_x, table.board.cards[card].center_y)
    assert table.view is not None and table.view.tricks


def test_under_larret_the_table_hides_the_running_count(app: App) -> None:
    table = start(app, game="belote", seed=3, pack="arret")
    play_two_tricks_by_clicks(app, table)
    assert table.status_panel.points_text.text == "L'arrêt: keep count yourself"
    table.refresh_sheet()
    assert "?" in [t.text for t in table.sheet.texts]


def test_without_larret_the_table_shows_the_running_count(app: App) -> None:
    table = start(app, game="belote", seed=3)
    play_two_tricks_by_clicks(app, table)
    assert table.status_panel.points_text.text.startswith("Card points: ")


def test_a_save_that_cannot_be_resumed_is_kept_aside_with_a_message(
    app: App, data_home: Path
) -> None:
    table = start(app, seed=12)
    pump(table, lambda: human_to_act(table))
    app.leave_table()
    saved = savegame.saved_match_path()
    text = saved.read_text(encoding="utf-8")
    saved.write_text(text.replace('"version": 1', '"version": 99', 1), encoding="utf-8")
    view = app.continue_match()
    assert isinstance(view, StartView)
    message = view.message_text
    kept = sorted(data_home.glob("saved-match-unreadable-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == text.replace(
        '"version": 1', '"version": 99', 1
    )
    assert not saved.exists()
    assert "another version" in message and str(kept[0]) in message


def test_undo_goes_through_the_session_and_the_save_follows(
    app: App, window: arcade.Window, engine: Engine
) -> None:
    """After an undo, the save file stands at the undone position: Continue gives the
    position the undo gave, not the one before it (a practice match: the bots have
    answered the card)."""
    table = start(app, seed=31, practice=True)
    rng = random.Random(3)
    for _ in range(4):
        pump(table, lambda: human_to_act(table))
        view = table.view
        assert view is not None
        if view.phase == "play":
            break
        table.driver.human_bid(rng.choice(view.legal_bids))
    pump(table, lambda: human_to_act(table))
    view = table.view
    assert view is not None and view.phase == "play"
    card = min(c for c in range(32) if view.legal >> c & 1)
    table.driver.click_card(card)
    pump(table, lambda: human_to_act(table))
    table.driver.undo()
    assert table.view == view
    app.leave_table()
    again = App(window, engine, speed=0.25)
    try:
        resumed = again.continue_match()
        assert isinstance(resumed, Table) and resumed.view == view
    finally:
        again.leave_table()
        again.shutdown()
