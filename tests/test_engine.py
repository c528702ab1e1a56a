"""The engine around four-player Belote: the game it registers, its default rules, the
per-deal compiled rules, fault isolation, and the separation of core from the rules."""

from __future__ import annotations

import ast
import os
import pickle
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core import Match
from atout.core import PluginError
from atout.core import UnknownNameError
from atout.core import cards_of
from atout.core import hookimpl
from atout.core import make_plugin_manager
from helpers import GAME
from helpers import random_choice
from helpers import shipped_engine
from helpers import third_party_plugins

CORE = Path(__file__).resolve().parent.parent / "core"


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


def fresh_engine() -> Engine:
    """An engine of its own, for tests that register plugins or watch hook calls."""
    return Engine(make_plugin_manager(disable=third_party_plugins()))


def test_belote_is_a_four_seat_two_team_game_worth_162(engine: Engine) -> None:
    info = engine.game(GAME)
    assert (info.seats, info.teams, info.total_points) == (4, 2, 162)
    assert info.seat_names == ("South", "East", "North", "West")


def test_an_unknown_game_names_the_games_there_are(engine: Engine) -> None:
    with pytest.raises(UnknownNameError, match=r"unknown game 'skat'.*belote"):
        engine.game("skat")


# docs/packs.md, "The options": each default.
RULES_MD_DEFAULTS: dict[str, Any] = {
    "direction": "anticlockwise",
    "deal_packets": "3-2",
    "between_deals": "gather-and-cut",
    "declarations": "on",
    "declarations_shown": "first-trick",
    "belote_king_first": False,
    "contract_counts_declarations": True,
    "tie": "takers-make",
    "undertrump": "not-on-partner",
    "rounding": 0,
    "capot_keeps_declarations": False,
    "arret": False,
    "target": 1000,
    "both_past_target": "draw",
    "must_head_trick": False,
    "must_trump_partner": False,
    "capot_bonus": 90,
    "declaration_comparison": "official",
    "dedans_belote": "keeps",
}


def test_the_default_rules_are_those_of_rules_md(engine: Engine) -> None:
    rules = engine.default_rules(GAME)
    assert {k: rules[k] for k in RULES_MD_DEFAULTS} == RULES_MD_DEFAULTS


def test_rules_survive_a_pickle_into_another_process(engine: Engine) -> None:
    # A process pool hands rules to its workers pickled; string hashes differ between
    # processes, so the rules must rebuild their hash there, not carry this one's.
    rules = engine.default_rules("decouverte")
    code = (
        "import pickle, sys\n"
        "r = pickle.loads(sys.stdin.buffer.read())\n"
        "print(r.game, r.reveal_on_lead, hash(r) == hash(type(r)(r.game, dict(r), r.pack)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(rules),
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "random"},
    ).stdout.decode()
    assert out.split() == ["decouverte", str(rules.reveal_on_lead), "True"]
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_a_rule_option_with_a_bad_value_says_what_is_allowed(engine: Engine) -> None:
    with pytest.raises(UnknownNameError, match="'undertrump' must be one of not-on-partner"):
        engine.make_rules(GAME, {"undertrump": "never"})
    with pytest.raises(UnknownNameError, match="unknown rule option 'trumps'"):
        engine.make_rules(GAME, {"trumps": "H"})


def test_the_play_asks_no_hook_per_card() -> None:
    """Pluggy at the seams, plain code in the loops: once the play has started, the only
    hook a deal asks is the scoring at its end."""
    pm = make_plugin_manager(disable=third_party_plugins())
    calls: Counter[str] = Counter()
    pm.add_hookcall_monitoring(lambda name, impls, kw: calls.update([name]), lambda *a: None)
    engine = Engine(pm)
    rng = random.Random(2)
    for seed in range(5):
        match = Match(engine, GAME, seed=seed)
        deal = match.next_deal()
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase != "play":
            continue
        calls.clear()
        while not deal.is_over:
            deal.play(rng.choice(cards_of(deal.legal_cards())))
        assert calls == Counter({"atout_score_deal": 1})


def test_the_per_card_rules_are_compiled_once_per_rules_and_contract(engine: Engine) -> None:
    rules = engine.default_rules(GAME)
    from atout.core import Contract

    first = engine.play_rules(GAME, rules, Contract(0, 2, "H"))
    assert engine.play_rules(GAME, rules, Contract(0, 2, "H")) is first
    assert engine.play_rules(GAME, rules, Contract(0, 3, "S")) is not first


class Faulty:
    """A plugin whose scoring raises."""

    @staticmethod
    @hookimpl
    def atout_score_deal(game: str, rules: Any, state: Any) -> Any:
        raise ZeroDivisionError("boom")


def test_a_plugin_that_raises_is_named_with_its_hook() -> None:
    engine = fresh_engine()
    engine.pm.register(Faulty(), name="faulty-scorer")
    rng = random.Random(0)
    match = Match(engine, GAME, seed=0)
    with pytest.raises(PluginError) as info:
        match.play_deal(random_choice(rng))
    assert info.value.plugin == "faulty-scorer"
    assert info.value.hook == "atout_score_deal"
    assert "ZeroDivisionError: boom" in str(info.value)


class WrongTotal:
    """A plugin whose deal scores do not add up to the card points of a deal."""

    @staticmethod
    @hookimpl(tryfirst=True)
    def atout_score_deal(game: str, rules: Any, state: Any) -> Any:
        from atout.core import DealScore

        return DealScore((100, 100), (0, 0), (100, 100), "made", total_check=162)


def test_the_engine_checks_that_a_deals_card_points_add_up() -> None:
    engine = fresh_engine()
    engine.pm.register(WrongTotal(), name="wrong-total")
    match = Match(engine, GAME, seed=1)
    with pytest.raises(PluginError, match="add up to 200, not 162"):
        match.play_deal(random_choice(random.Random(1)))


def test_a_match_is_repeatable_from_its_seed(engine: Engine) -> None:
    def play(seed: int) -> list[Any]:
        match = Match(engine, GAME, seed=seed)
        rng = random.Random(seed)
        for _ in range(3):
            match.play_deal(random_choice(rng))
        return [(d.actions, d.score) for d in match.deals]

    assert play(9) == play(9)
    assert play(9) != play(10)


def test_a_deal_cannot_start_before_the_last_one_ends(engine: Engine) -> None:
    match = Match(engine, GAME, seed=1)
    match.next_deal()
    with pytest.raises(IllegalMoveError, match="the current deal is not finished"):
        match.next_deal()


def test_the_match_dealer_starts_at_the_last_seat_so_seat_0_bids_first(engine: Engine) -> None:
    match = Match(engine, GAME, seed=1)
    deal = match.next_deal()
    assert deal.state.dealer == 3 and deal.turn == 0


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            prefix = "." * node.level
            found.add(prefix + (node.module or ""))
    return found


def test_core_imports_neither_the_plugins_nor_the_ui() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert files
    for path in files:
        for name in imports_of(path):
            assert not name.startswith(("atout.plugins", "atout.ui", "..plugins", "..ui")), (
                f"{path.name} imports {name}"
            )
            assert name.split(".")[0] not in ("plugins", "ui", "arcade"), (
                f"{path.name} imports {name}"
            )


def test_every_test_named_in_docs_rules_exists() -> None:
    """docs/rules.md names, after each rule, the test that checks it: keep them true."""
    import re

    doc = (CORE.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    defined = set()
    for path in (CORE.parent / "tests").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)", path.read_text("utf-8"), re.M))
    assert len(named) > 80
    assert named - defined == set()
