"""The window's switch of the bots' signals: on the start view's Bots row for a game with
partners (and in the Settings panel), kept in the settings file, and given to the bots
the window starts, in the bot process as in the window, and to a table it hosts."""

from __future__ import annotations

import arcade
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.ui import savegame
from atout.ui.savegame import Setup
from atout.ui.settings import SIGNALS
from atout.ui.window.app import App
from atout.ui.window.botproc import hint_spec
from atout.ui.window.botproc import seat_spec
from atout.ui.window.driver import MatchDriver
from atout.ui.window.net_table import NetDriver
from atout.ui.window.start_people import PeopleView
from atout.ui.window.start_view import StartView
from ui_helpers import click_button
from ui_helpers import press


def switch_label(view: StartView) -> str:
    """The switch's label, ``""`` when it is not shown."""
    switch = view.buttons.find("signals")  # a visible button
    return switch.label.text if switch is not None else ""


def test_the_switch_is_shown_where_the_bots_are_chosen_for_a_game_with_partners(
    app: App,
) -> None:
    view = app.show_start()
    click_button(app, view.buttons.find("game:belote"))
    assert switch_label(view) == "Signals: on"
    click_button(app, view.buttons.find("game:coinche"))
    assert switch_label(view) == "Signals: on"
    click_button(app, view.buttons.find("game:decouverte"))
    assert switch_label(view) == ""  # two players: no partner to signal to
    click_button(app, view.buttons.find("game:belote"))
    click_button(app, view.buttons.find("signals"))
    assert switch_label(view) == "Signals: off"
    assert savegame.load_settings()[SIGNALS] is False
    press(app, arcade.key.S)  # the Settings panel shows the same setting
    assert view.dialog is not None
    panel = view.dialog.buttons.find(f"switch:{SIGNALS}")
    assert panel is not None and panel.label.text == "Off"
    texts = " ".join(t.text for t in view.dialog.layer.texts)
    assert "Bots signal (appel direct)" in texts
    click_button(app, panel)
    assert savegame.load_settings()[SIGNALS] is True
    press(app, arcade.key.ESCAPE)
    assert switch_label(view) == "Signals: on"


def test_the_bots_of_a_match_started_with_the_signals_off_neither_make_nor_read_them(
    app: App,
) -> None:
    view = app.show_start()
    click_button(app, view.buttons.find("game:belote"))
    click_button(app, view.buttons.find("bot:expert"))
    click_button(app, view.buttons.find("signals"))
    click_button(app, view.buttons.find("new"))
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver)
    session = table.driver.session
    assert table.setup.bot == "expert"  # the start view's choice stays the bot's name
    for seat in (1, 2, 3):
        spec = seat_spec(session, seat)  # what the bot process is sent
        assert spec is not None and spec.name == "expert:signals=off"
        made = spec.make(app.engine)
        assert isinstance(made, BeloteExpert) and not made.signals and not made.read_signals
        here = session.bot(seat)  # the window's own, when the process cannot answer
        assert isinstance(here, BeloteExpert) and not here.signals
    assert table.driver.seat_tags()[1] == "Expert"  # the plate names the level only
    hint = hint_spec(session)  # the H key's bot does not read signals nobody makes
    assert hint.name == "expert:signals=off"
    hinter = hint.make(app.engine)
    assert isinstance(hinter, BeloteExpert) and not hinter.read_signals
    session.hint_question(0)  # the window's own hint bot, made from the same spec
    app.leave_table()
    again = app.continue_match()
    assert isinstance(again.driver, MatchDriver)
    assert hint_spec(again.driver.session).name == "expert:signals=off"


def test_with_the_signals_on_the_casual_bots_signal_too(app: App) -> None:
    view = app.show_start()
    click_button(app, view.buttons.find("game:belote"))
    click_button(app, view.buttons.find("bot:greedy"))
    click_button(app, view.buttons.find("new"))
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver)
    spec = seat_spec(table.driver.session, 2)
    assert spec is not None and spec.name == "greedy:signals=on"
    made = spec.make(app.engine)
    assert isinstance(made, GreedyBot) and made.signals


def test_a_bad_value_in_the_settings_file_is_said_on_the_start_view(app: App) -> None:
    savegame.save_settings({SIGNALS: "maybe", "four_colour": True})
    again = App(app.window, app.engine, speed=0.25)
    try:
        view = again.show_start()
        assert view.message.text.startswith("settings.json: bot_signals is true or false")
        assert savegame.setting(again.settings, "four_colour")  # the rest is kept
        click_button(again, view.buttons.find("game:belote"))
        assert switch_label(view) == "Signals: on"
        click_button(again, view.buttons.find("signals"))
        assert savegame.load_settings() == {SIGNALS: False, "four_colour": True}
        assert view.message.text == ""  # mended: the line goes
    finally:
        again.leave_table()
        again.shutdown()


def test_a_table_hosted_with_the_signals_off_plays_its_empty_seats_without_them(
    app: App,
) -> None:
    savegame.save_settings({SIGNALS: False})
    app.settings[SIGNALS] = False
    start = app.show_start()
    start.preselect(Setup(game="belote", bot="expert"))
    click_button(app, start.buttons.find("people"))
    view = app.window.current_view
    assert isinstance(view, PeopleView)
    view.values["port"] = "0"  # any free port
    click_button(app, view.buttons.find("people:host"))
    assert view.connecting is not None and view.connecting.wait(20), "no answer from the server"
    for _ in range(20):
        view.on_update(0.05)
        if isinstance(getattr(app.window.current_view, "driver", None), NetDriver):
            break
    table = app.window.current_view
    assert isinstance(table.driver, NetDriver), view.message.text
    link = table.driver.link
    assert link.table.bot_level == "expert:signals=off"  # what the server was asked for
    shown = " ".join(t.text for t in table.driver.lobby.texts)
    assert "played by the Expert bot" in shown  # the level, in words


def test_the_command_lines_bot_spec_chooses_the_level_and_the_switch(app: App) -> None:
    view = app.show_start()
    view.preselect(Setup(game="belote", bot="expert:signals=off"))  # atout play --bot ...
    assert view.setup.bot == "expert" and switch_label(view) == "Signals: off"
    click_button(app, view.buttons.find("new"))
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver)
    assert table.driver.session.players[1].bot == "expert:signals=off"
