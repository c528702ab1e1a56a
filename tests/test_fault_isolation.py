"""A broken plugin gives one clear error naming it, and never a corrupted match.

Each bad plugin is a file written into ``tmp_path`` and loaded as ``--plugin`` loads it:
through :func:`~atout.core.pluginmanager.make_plugin_manager` for the engine API, and on
the command line of ``atout`` in a subprocess for the terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core import PluginError
from atout.core import make_plugin_manager
from atout.core.records import match_from_record
from atout.plugins import family

HEADER = """\
from dataclasses import replace
from atout.core import hookimpl
from atout.core.model import Layout, MoveRule
"""

RAISES_IN_HOOK = """
@hookimpl(tryfirst=True)
def atout_legal_moves(game, rules, contract):
    raise RuntimeError("the rule book is missing")
"""

RAISES_IN_ITS_MOVE_RULE = """
class Broken(MoveRule):
    def legal(self, state):
        return {}[state.turn]

@hookimpl(tryfirst=True)
def atout_legal_moves(game, rules, contract):
    return Broken()
"""

UNKNOWN_ARGUMENT = """
@hookimpl
def atout_legal_moves(game, rules, contract, seat):
    return None
"""

UNKNOWN_HOOK = """
@hookimpl
def atout_legal_move(game, rules, contract):
    return None
"""

CARD_NOT_IN_HAND = """
class Generous(MoveRule):
    def legal(self, state):
        return state.hands[state.turn] | 1 << 31

@hookimpl(tryfirst=True)
def atout_legal_moves(game, rules, contract):
    return Generous()
"""

DEALS_31_CARDS = """
@hookimpl(wrapper=True)
def atout_deal(game, rules, dealer, rng, previous):
    layout = yield
    first = layout.hands[0]
    return replace(layout, hands=(first & (first - 1), *layout.hands[1:]))
"""

SCORE_DOES_NOT_ADD_UP = """
@hookimpl(wrapper=True)
def atout_score_deal(game, rules, state):
    score = yield
    points = score.card_points
    return replace(score, card_points=(points[0] + 5, *points[1:]))
"""


def bad_plugin(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return str(path)


def engine_with_file(path: str) -> Engine:
    return Engine(make_plugin_manager(plugins=[path]))


def take_and_play(engine: Engine, game: str = "belote", seed: int = 3) -> Match:
    """Start a match, take on the first bid, and play the lowest legal card to the end."""
    match = Match(engine, game, seed=seed)
    deal = match.next_deal()
    deal.bid("take")
    while not deal.is_over:
        legal = deal.legal_cards()
        deal.play((legal & -legal).bit_length() - 1)
    return match


# --- the engine API ------------------------------------------------------------------------


def test_a_plugin_raising_in_a_hook_is_named_with_the_hook(tmp_path: Path) -> None:
    engine = engine_with_file(bad_plugin(tmp_path, "raising", RAISES_IN_HOOK))
    with pytest.raises(PluginError) as caught:
        take_and_play(engine)
    error = caught.value
    assert (error.plugin, error.hook) == ("raising", "atout_legal_moves")
    assert str(error) == (
        "plugin 'raising' failed in hook atout_legal_moves: RuntimeError: the rule book is missing"
    )


def test_a_plugin_whose_move_rule_raises_later_is_named_with_the_hook(tmp_path: Path) -> None:
    engine = engine_with_file(bad_plugin(tmp_path, "fragile", RAISES_IN_ITS_MOVE_RULE))
    with pytest.raises(PluginError) as caught:
        take_and_play(engine)
    error = caught.value
    assert (error.plugin, error.hook) == ("fragile", "atout_legal_moves")
    assert "plugin 'fragile' failed in its answer to atout_legal_moves: KeyError" in str(error)


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_a_failure_in_a_hook_the_family_shares_names_the_game_that_failed(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both games answer atout_trick_winner with the one method of their common base, so
    the code alone cannot say whose answer failed: the plugin is the game's."""

    def no_table(trump: int | None) -> tuple[int, ...]:
        raise LookupError(f"no trick table for trump {trump}")

    monkeypatch.setattr(family, "beats_table", no_table)
    engine = Engine(make_plugin_manager())
    with pytest.raises(PluginError) as caught:
        take_and_play(engine, game)
    error = caught.value
    assert (error.plugin, error.hook) == (game, "atout_trick_winner")
    assert str(error).startswith(f"plugin {game!r} failed in hook atout_trick_winner: LookupError")


def test_a_hook_with_an_argument_the_spec_does_not_give_is_refused_at_load(tmp_path: Path) -> None:
    path = bad_plugin(tmp_path, "extra_arg", UNKNOWN_ARGUMENT)
    with pytest.raises(PluginError) as caught:
        make_plugin_manager(plugins=[path])
    assert str(caught.value) == (
        "plugin 'extra_arg' refused: its atout_legal_moves takes seat, which the hook does "
        "not give (it gives game, rules, contract)"
    )
    assert caught.value.hook == "atout_legal_moves"


def test_a_misspelt_hook_is_refused_at_load_with_the_hook_it_meant(tmp_path: Path) -> None:
    path = bad_plugin(tmp_path, "typo", UNKNOWN_HOOK)
    with pytest.raises(PluginError) as caught:
        make_plugin_manager(plugins=[path])
    assert str(caught.value) == (
        "plugin 'typo' refused: atout_legal_move is not an atout hook "
        "(did you mean atout_legal_moves?)"
    )


def test_a_legal_set_with_a_card_not_in_hand_is_caught(tmp_path: Path) -> None:
    engine = engine_with_file(bad_plugin(tmp_path, "generous", CARD_NOT_IN_HAND))
    match = Match(engine, "belote", seed=3)
    deal = match.next_deal()
    deal.bid("take")
    hand = deal.state.hands[deal.turn]
    assert not hand >> 31 & 1  # the ace of spades is elsewhere in this deal
    with pytest.raises(PluginError) as caught:
        deal.legal_cards()
    assert caught.value.hook == "atout_legal_moves"
    assert str(caught.value).startswith(
        f"the legal-move rule of belote offered AS to seat {deal.turn}, whose cards are "
    )
    assert deal.state.hands[deal.turn] == hand and not deal.state.trick


def test_a_deal_without_32_cards_is_caught_before_anyone_sees_it(tmp_path: Path) -> None:
    engine = engine_with_file(bad_plugin(tmp_path, "short", DEALS_31_CARDS))
    match = Match(engine, "belote", seed=3)
    with pytest.raises(PluginError) as caught:
        match.next_deal()
    assert caught.value.hook == "atout_deal"
    assert str(caught.value) == "atout_deal for belote dealt 31 cards; a deal must deal all 32 once"
    assert match.deals == []


def test_scores_that_do_not_add_up_are_caught_and_not_booked(tmp_path: Path) -> None:
    engine = engine_with_file(bad_plugin(tmp_path, "inflated", SCORE_DOES_NOT_ADD_UP))
    with pytest.raises(PluginError) as caught:
        take_and_play(engine, "decouverte")
    assert caught.value.hook == "atout_score_deal"
    message = str(caught.value)
    assert message.startswith("the score of this decouverte deal gives card points [")
    assert message.endswith("which add up to 167, not 162")


# --- the terminal: one line, and the match's record saved -----------------------------------


def run_atout(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ATOUT_DISABLE_PLUGINS"}
    return subprocess.run(
        [sys.executable, "-m", "atout.ui.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("name", "body", "error", "deals"),
    [
        (
            "raising",
            RAISES_IN_HOOK,
            "atout: plugin 'raising' failed in hook atout_legal_moves: RuntimeError: "
            "the rule book is missing",
            1,
        ),
        ("generous", CARD_NOT_IN_HAND, "atout: the legal-move rule of belote offered AS", 1),
        ("short", DEALS_31_CARDS, "atout: atout_deal for belote dealt 31 cards", 0),
    ],
)
def test_the_terminal_game_says_one_line_and_saves_the_record(
    tmp_path: Path, name: str, body: str, error: str, deals: int
) -> None:
    plugin = bad_plugin(tmp_path, name, body)
    record = tmp_path / "match.json"
    result = run_atout(
        "play", "belote", "--text", "--bot", "random", "--seed", "3", "--save", str(record),
        "--plugin", plugin,
        stdin="take\n",
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.startswith(error)
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f"The match record is saved in {record}" in result.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data["deals"]) == deals
    if deals:
        assert data["deals"][0]["actions"][0] == {"seat": 0, "bid": "take"}
    # The record replays without the bad plugin, as far as it goes.
    replayed = match_from_record(Engine(make_plugin_manager()), data, str(record))
    assert len(replayed.deals) == deals


def test_a_plugin_refused_at_load_is_one_line_on_the_command_line(tmp_path: Path) -> None:
    plugin = bad_plugin(tmp_path, "extra_arg", UNKNOWN_ARGUMENT)
    result = run_atout("plugins", "--plugin", plugin)
    assert result.returncode == 1
    assert result.stderr == (
        "atout: plugin 'extra_arg' refused: its atout_legal_moves takes seat, which the hook "
        "does not give (it gives game, rules, contract)\n"
    )
    assert result.stdout == ""
