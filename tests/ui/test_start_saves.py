"""No match is ever lost from the window: every way of starting a match keeps the match
saved before aside (byte for byte), Continue is the start view's main button, New match
asks first, and a kept match can be continued from the start view."""

from __future__ import annotations

from pathlib import Path

import arcade
import pytest
from atout.ui import savegame
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.app import run
from atout.ui.window.driver import MatchDriver
from atout.ui.window.start_people import PeopleView
from atout.ui.window.start_view import StartView
from atout.ui.window.table import Table
from ui_helpers import click_button
from ui_helpers import press


def saved_table(app: App, seed: int, game: str = "decouverte", tricks: int = 1) -> Table:
    """A match against random bots, ``tricks`` tricks into its first deal, saved."""
    rules = app.engine.default_rules(game)
    table = app.start_match(Setup(game=game, bot="random", seed=seed), rules)
    assert isinstance(table.driver, MatchDriver)
    table.driver.autoplay_to(trick=tricks)
    assert savegame.has_saved_match()
    return table


def saved_bytes() -> bytes:
    return savegame.saved_match_path().read_bytes()


def kept_bytes() -> list[bytes]:
    """The files of the kept matches, the last kept first."""
    return [k.path.read_bytes() for k in savegame.kept_matches()]


def start_view(app: App) -> StartView:
    view = app.show_start()
    view.on_draw()
    return view


def current_table(app: App) -> Table:
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver), f"no table shown but {table!r}"
    return table


# --- Continue is the main button -------------------------------------------------------------


def test_enter_on_the_start_view_continues_the_saved_match(app: App) -> None:
    table = saved_table(app, seed=31)
    actions = list(table.deal.actions) if table.deal else []
    before = saved_bytes()
    view = start_view(app)
    continue_button = view.buttons.find("continue")
    new_button = view.buttons.find("new")
    assert continue_button is not None and new_button is not None
    assert continue_button.label.text == "Continue  (Enter)"
    assert new_button.label.text == "New match  (N)"
    press(app, arcade.key.ENTER)
    resumed = current_table(app)
    assert resumed is not table and resumed.match.seed == 31
    assert resumed.deal is not None and list(resumed.deal.actions) == actions
    assert saved_bytes() == before
    assert savegame.kept_matches() == []


def test_enter_starts_a_new_match_when_none_is_saved(app: App) -> None:
    view = start_view(app)
    new_button = view.buttons.find("new")
    assert new_button is not None and new_button.label.text == "New match  (Enter)"
    assert view.buttons.find("continue") is None
    press(app, arcade.key.ENTER)
    current_table(app)
    assert savegame.kept_matches() == []


# --- New match asks, then keeps the saved match ------------------------------------------------


def test_new_match_asks_first_and_keeps_the_saved_match(app: App) -> None:
    saved_table(app, seed=32)
    before = saved_bytes()
    view = start_view(app)
    click_button(app, view.buttons.find("new"))
    assert app.window.current_view is view, "New match started without asking"
    assert view.dialog is not None and view.dialog.name == "confirm"
    view.on_draw()
    press(app, arcade.key.ESCAPE)  # changed their mind: nothing moved
    assert view.dialog is None and saved_bytes() == before and savegame.kept_matches() == []
    press(app, arcade.key.N)
    assert view.dialog is not None and view.dialog.name == "confirm"
    click_button(app, view.dialog.buttons.find("confirm-new"))
    table = current_table(app)
    assert table.match.seed != 32 or saved_bytes() != before
    assert kept_bytes() == [before]


def test_new_match_without_the_question_still_keeps_the_saved_match(app: App) -> None:
    saved_table(app, seed=33)
    before = saved_bytes()
    view = start_view(app)
    click_button(app, view.buttons.find("settings"))
    assert view.dialog is not None and view.dialog.name == "settings"
    view.on_draw()
    click_button(app, view.dialog.buttons.find("switch:confirm_new"))
    assert savegame.load_settings()["confirm_new"] is False
    press(app, arcade.key.ESCAPE)
    press(app, arcade.key.N)
    current_table(app)
    assert kept_bytes() == [before]


def test_the_menus_new_match_asks_first_and_keeps_the_match_in_play(app: App) -> None:
    table = saved_table(app, seed=34, tricks=2)
    before = saved_bytes()
    press(app, arcade.key.ESCAPE)
    assert table.overlay.name == "menu"
    table.on_draw()
    click_button(app, table.overlay.buttons.find("new-match"))
    view = app.window.current_view
    assert isinstance(view, StartView), "the menu's New match started without asking"
    assert view.dialog is not None and view.dialog.name == "confirm"
    assert saved_bytes() == before and savegame.kept_matches() == []
    view.on_draw()
    click_button(app, view.dialog.buttons.find("confirm-new"))
    fresh = current_table(app)
    assert fresh is not table
    assert kept_bytes() == [before]


def test_two_people_at_one_screen_keep_the_saved_match(app: App) -> None:
    saved_table(app, seed=35)
    before = saved_bytes()
    view = start_view(app)
    click_button(app, view.buttons.find("people"))
    people = app.window.current_view
    assert isinstance(people, PeopleView)
    people.on_draw()
    click_button(app, people.buttons.find("people:play"))
    table = current_table(app)
    assert table.you is None  # two people at the screen
    assert kept_bytes() == [before]


def test_a_match_started_straight_from_the_command_line_keeps_the_saved_match(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``run(start=True)`` (a match opened without the start view) starts it through the
    app as every other way does: the saved match is kept."""
    saved_table(app, seed=36)
    before = saved_bytes()
    app.leave_table()
    opened: list[App] = []
    monkeypatch.setattr("atout.ui.window.app.display_problem", lambda: None)
    monkeypatch.setattr("atout.ui.window.app.make_window", lambda: app.window)
    monkeypatch.setattr("atout.ui.window.app.App", lambda *a, **k: opened.append(app) or app)
    monkeypatch.setattr(arcade, "run", lambda: None)
    monkeypatch.setattr(app, "shutdown", lambda: None)
    assert run(app.engine, Setup(game="decouverte", bot="random", seed=37), start=True) == 0
    assert opened == [app]
    assert current_table(app).match.seed == 37
    assert kept_bytes() == [before]


def test_a_save_that_cannot_be_moved_aside_stops_the_new_match(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_table(app, seed=38)
    before = saved_bytes()
    view = start_view(app)
    monkeypatch.setattr(savegame, "set_aside", lambda path=None, label="": None)
    press(app, arcade.key.N)
    assert view.dialog is not None
    press(app, arcade.key.ENTER)
    assert app.window.current_view is view
    assert "cannot be moved aside" in view.message.text
    assert saved_bytes() == before


# --- the kept matches ----------------------------------------------------------------------------


def test_a_kept_match_is_continued_from_the_start_view(app: App) -> None:
    first = saved_table(app, seed=41)
    first_actions = list(first.deal.actions) if first.deal else []
    first_bytes = saved_bytes()
    saved_table(app, seed=42, game="belote")
    second_bytes = saved_bytes()
    assert kept_bytes() == [first_bytes]
    view = start_view(app)
    kept_button = view.buttons.find("kept")
    assert kept_button is not None and "(1)" in kept_button.label.text
    click_button(app, kept_button)
    dialog = view.dialog
    assert dialog is not None and dialog.name == "kept"
    view.on_draw()
    assert any("Belote Découverte" in t.text for t in dialog.layer.texts)
    (path,) = [k.path for k in savegame.kept_matches()]
    click_button(app, dialog.buttons.find(f"kept:{path.name}"))
    table = current_table(app)
    assert table.match.seed == 41 and table.driver.session.game == "decouverte"
    assert table.deal is not None and list(table.deal.actions) == first_actions
    assert saved_bytes() == first_bytes
    assert kept_bytes() == [second_bytes]  # the one saved then is kept in its turn


def test_the_kept_button_shows_only_when_a_match_is_kept(app: App, data_home: Path) -> None:
    view = start_view(app)
    assert view.buttons.find("kept") is None
    press(app, arcade.key.K)
    assert view.dialog is None


def test_enter_after_typing_a_seed_asks_for_a_new_match_with_it(app: App) -> None:
    saved_table(app, seed=43)
    before = saved_bytes()
    view = start_view(app)
    click_button(app, view.buttons.find("seed"))
    app.window.dispatch_event("on_text", "4343")
    app.window.dispatch_events()
    press(app, arcade.key.ENTER)
    assert view.dialog is not None and view.dialog.name == "confirm"
    press(app, arcade.key.ENTER)
    assert current_table(app).match.seed == 4343
    assert kept_bytes() == [before]
