"""Whether the bots signal, as a person chooses it: a bot spec's settings made by the
engine wherever a bot is named (the terminal's ``--bot``, a network table's bots, a
saved match), the setting ``bot_signals`` kept in the settings file and written into the
spec of the bots of a game with partners.  The window's switch is in
tests/ui/test_signals_switch.py."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core.errors import AtoutError
from atout.core.errors import UnknownNameError
from atout.core.session import Session
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.bots.basic import RandomBot
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.ui import savegame
from atout.ui import terminal_match
from atout.ui.cli import main
from atout.ui.net.client import Client
from atout.ui.net.client import create_table
from atout.ui.net.runner import ServerThread
from atout.ui.net.server import TableServer
from atout.ui.rules_pages import rules_pages
from atout.ui.savegame import Setup
from atout.ui.settings import SIGNALS
from atout.ui.settings import settings_problem
from atout.ui.settings import signals_spec


def test_the_engine_makes_a_bot_with_the_settings_its_spec_names(engine: Engine) -> None:
    rules = engine.default_rules("belote")
    quiet = engine.bot("expert:signals=off", "belote", rules)
    assert isinstance(quiet, BeloteExpert) and not quiet.signals and not quiet.read_signals
    plain = engine.bot("expert", "belote", rules)
    assert isinstance(plain, BeloteExpert) and plain.signals and plain.read_signals
    loud = engine.bot("greedy:signals=on", "belote", rules)
    assert isinstance(loud, GreedyBot) and loud.signals
    assert engine.bot_switches("expert", "belote") == {"signals": True, "inference": None, "infer": False}
    assert engine.bot_switches("random") == {}


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("expert:signals=maybe", "write a setting as NAME:SETTING=on or off"),
        ("expert:signals", "write a setting as NAME:SETTING=on or off"),
        ("expert:loud=on", "expert has no setting 'loud'; its settings are: infer, inference, signals"),
        ("random:signals=off", "random has no setting 'signals'; its settings are: none"),
        ("nobody:signals=off", "unknown bot 'nobody' for belote"),
    ],
)
def test_a_bad_spec_is_one_clear_error(engine: Engine, spec: str, says: str) -> None:
    with pytest.raises(UnknownNameError, match=says):
        engine.bot(spec, "belote", engine.default_rules("belote"))


def test_the_setting_goes_into_the_spec_of_the_bots_of_a_game_with_partners(
    engine: Engine,
) -> None:
    assert signals_spec(engine, "expert", "belote", False) == "expert:signals=off"
    assert signals_spec(engine, "expert", "coinche", False) == "expert:signals=off"
    assert signals_spec(engine, "expert", "belote", True) == "expert"  # its default
    assert signals_spec(engine, "greedy", "belote", True) == "greedy:signals=on"
    assert signals_spec(engine, "greedy", "belote", False) == "greedy"
    assert signals_spec(engine, "random", "belote", False) == "random"  # has no signals
    assert signals_spec(engine, "greedy", "decouverte", True) == "greedy"  # no partners
    named = "expert:signals=on"
    assert signals_spec(engine, named, "belote", False) == named  # the spec's own choice


def test_the_setting_is_kept_and_an_old_settings_file_means_on(tmp_path: Path) -> None:
    assert savegame.setting(savegame.load_settings(), SIGNALS)  # no file: on
    savegame.save_settings({"four_colour": True})  # a file written before the setting
    assert savegame.setting(savegame.load_settings(), SIGNALS)
    savegame.save_settings({"four_colour": True, SIGNALS: False})
    settings = savegame.load_settings()
    assert settings[SIGNALS] is False and not savegame.setting(settings, SIGNALS)
    assert settings_problem(settings) == ""


def test_a_bad_value_is_refused_in_one_line_and_nothing_else_is_lost() -> None:
    text = json.dumps({"four_colour": True, SIGNALS: "maybe", "speed": "fast"})
    savegame.settings_path().parent.mkdir(parents=True, exist_ok=True)
    savegame.settings_path().write_text(text)
    settings = savegame.load_settings()
    assert savegame.setting(settings, SIGNALS)  # the default, not a truthy string
    assert savegame.setting(settings, "four_colour") and settings["speed"] == "fast"
    assert settings_problem(settings) == (
        "settings.json: bot_signals is true or false, not 'maybe'; it is on until you "
        "change it in Settings."
    )
    assert savegame.settings_path().read_text() == text  # the file is left as it is


def test_a_match_started_with_the_signals_off_keeps_its_bots_so_when_resumed(
    engine: Engine,
) -> None:
    setup = Setup(game="belote", bot="expert", seed=4)
    session = savegame.start_session(engine, setup, engine.default_rules("belote"), signals=False)
    assert [p.bot for p in session.players[1:]] == ["expert:signals=off"] * 3
    for seat in (1, 2, 3):
        bot = session.bot(seat)
        assert isinstance(bot, BeloteExpert) and not bot.signals and not bot.read_signals
    session.detach()
    _setup, again = savegame.resume_session(engine)
    quiet = again.bot(2)
    assert isinstance(quiet, BeloteExpert) and not quiet.signals
    again.detach()


def test_the_terminal_game_takes_the_setting_and_the_bots_spec(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = Engine()  # the command's: every shipped plugin
    played = terminal_match.play_match

    def quit_at_once(*args: Any, **kw: Any) -> int:
        return played(*args, **{**kw, "inp": io.StringIO("quit\n"), "out": io.StringIO()})

    monkeypatch.setattr(terminal_match, "play_match", quit_at_once)

    def bots_of(*argv: str) -> list[str]:
        assert main(["play", "belote", "--text", "--seed", "5", *argv]) == 0
        session = Session.resume(engine, savegame.terminal_match_path())
        session.detach()
        return [p.bot for p in session.players[1:]]

    assert bots_of("--bot", "expert") == ["expert"] * 3
    savegame.save_settings({SIGNALS: False})
    assert bots_of("--bot", "expert", "--continue") == ["expert"] * 3  # as it was made
    assert bots_of("--bot", "expert") == ["expert:signals=off"] * 3
    savegame.save_settings({})
    assert bots_of("--bot", "expert:signals=off") == ["expert:signals=off"] * 3
    assert bots_of() == ["greedy:signals=on"] * 3
    savegame.save_settings({SIGNALS: "maybe"})
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert bots_of("--bot", "expert") == ["expert"] * 3  # the default, and said
    said = sys.stderr.getvalue()
    assert said.startswith("settings.json: bot_signals is true or false, not 'maybe'")


def test_a_network_table_plays_its_empty_seats_with_the_bot_its_host_named() -> None:
    engine = Engine()
    thread = ServerThread(TableServer(engine, None)).start()
    try:
        host = Client(f"ws://127.0.0.1:{thread.port}").start()
        made = create_table(host, engine.default_rules("belote"), bot="expert:signals=off")
        table = thread.server.tables[made["table"]]
        bot = thread.call(lambda: table.bot_for(1))
        assert isinstance(bot, BeloteExpert) and not bot.signals and not bot.read_signals
        with pytest.raises(AtoutError, match="on or off"):
            create_table(host, engine.default_rules("belote"), bot="expert:signals=maybe")
        made = create_table(host, engine.default_rules("decouverte"), bot="random")
        plain = thread.call(lambda: thread.server.tables[made["table"]].bot_for(1))
        assert isinstance(plain, RandomBot)
        host.close()
    finally:
        thread.stop()


def test_the_signals_page_says_where_a_person_turns_them_off(engine: Engine) -> None:
    pages = rules_pages(engine, engine.default_rules("belote"))
    (page,) = [p for p in pages if p.title.startswith("Signals")]
    said = " ".join(str(b) for b in page.blocks)
    for where in ("switch beside Bots on the start screen", "Settings", "bot_signals"):
        assert where in said
    assert "--bot expert:signals=off" in said
