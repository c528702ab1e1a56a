"""The four-player bots play the rules in force, whoever wrote them.

A plugin's contracts (the example plugin's sans-atout and tout-atout) are searched by the
expert as the shipped ones are, and plugins that change a play obligation (see
``tests/obligations.py``) never see a bot propose a card they forbid.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import parse_card
from atout.core.cards import SUIT_MASKS
from atout.core.cards import SUITS
from atout.core.cards import parse_cards
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.bots.basic import RandomBot
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.plugins.bots.belote_expert import infer_constraints
from atout.plugins.search.belote_dd import BeloteDD
from obligations import Narrowed
from obligations import NoAceDiscard
from obligations import NoTrumpLead
from obligations import engine_with_rule


def sans_tout_plugin() -> ModuleType:
    """The example plugin's hooks (the tests are skipped where it is not installed)."""
    return pytest.importorskip("atout_sans_tout_atout.plugin")


@pytest.fixture(scope="module")
def eng() -> Engine:
    return engine_with_rule(sans_tout_plugin())


def random_hands(rng: random.Random) -> list[int]:
    """Four 8-card hands of a shuffled pack."""
    pack = list(range(32))
    rng.shuffle(pack)
    return [sum(1 << c for c in pack[s * 8 : (s + 1) * 8]) for s in range(4)]


def deal_under(
    engine: Engine, contract: Contract, hands: list[int], open_hands: bool, rules: Any
) -> Deal:
    """A four-player deal at its first trick under ``contract`` (South, seat 0, leads)."""
    state = DealState("belote", rules, 4, 2, 3, Layout(hands=tuple(hands), open_hands=open_hands))
    state.contract = contract
    state.phase = "play"
    state.leader = state.turn = 0
    return engine.deal_from_state(state)


def test_the_expert_finds_the_double_dummy_best_card_under_sans_atout(eng: Engine) -> None:
    """Five tricks into a sans-atout deal (open hands, so the layout is known), South
    leads from AC QH KH.  Cashing the ace of clubs, as the greedy bot does, gives the
    hearts away; the queen of hearts first is worth 27 points more."""
    rules = eng.make_rules("belote", {"sans_tout_atout": "both"})
    start = [
        "AC KD JH QH KH AH 10S QS",
        "8C 9C AD 7H 8H 10H 7S KS",
        "10C JC 7D 10D JD QD 9S AS",
        "7C QC KC 8D 9D 9H 8S JS",
    ]
    contract = Contract(0, None, "sans-atout")
    deal = deal_under(eng, contract, [parse_cards(h) for h in start], True, rules)
    plays = "AH 8H QD 9H JH 7H AS 9D QS KS 9S 8S AD 7D 8D KD 7S JC JS 10S"
    for text in plays.split():
        deal.play(parse_card(text))
    assert deal.turn == 0
    view = deal.view(0)
    solver = BeloteDD.for_contract(eng, "belote", rules, contract)
    values = solver.move_values(list(deal.state.hands), 0, (), None, 0)
    best = max(values, key=lambda c: values[c])
    assert best == parse_card("QH") and values[best] == 56
    greedy = GreedyBot(0, eng).card(view)
    assert greedy == parse_card("AC") and values[greedy] == 29
    expert = BeloteExpert(rules, engine=eng, samples=2)
    assert expert.play(view) == best
    assert expert.last_info["nodes"] > 0


@pytest.mark.parametrize("name", ["sans-atout", "tout-atout"])
def test_the_expert_searches_a_plugins_contract(eng: Engine, name: str) -> None:
    """Every choice of the expert under the plugin's contract is a search: sampled
    layouts solved, trick starts expanded, time spent (it used to play greedy at once)."""
    rules = eng.make_rules("belote", {"sans_tout_atout": "both"})
    rng = random.Random(len(name))
    hands = random_hands(rng)
    deal = deal_under(eng, Contract(1, None, name), hands, False, rules)
    bots = [BeloteExpert(rules, seed=s, engine=eng, samples=3) for s in range(4)]
    searched = 0
    while not deal.is_over:
        view = deal.view(deal.turn)
        bot = bots[deal.turn]
        bot.last_info = {}
        action = bot.choose(view)
        assert action in deal.legal_actions()
        if bot.last_info:
            assert bot.last_info["samples"] == 3 and bot.last_info["seconds"] > 0
            # (the last two tricks are worked out without expanding a trick start)
            if view.hand.bit_count() >= 3:
                assert bot.last_info["nodes"] > 0
                searched += 1
        deal.apply(action)
    assert searched >= 10


def test_the_expert_searches_the_first_two_tricks_to_a_horizon_and_the_rest_exactly(
    eng: Engine,
) -> None:
    """Three tricks deep in the first two tricks (five cards a hand at the horizon in the
    first, four in the second), to the end from the third: what ``HORIZONS`` says."""
    rules = eng.make_rules("belote", {})
    rng = random.Random(16)
    depths: dict[int, set[int]] = {}
    for _ in range(3):
        hands = random_hands(rng)
        trump = rng.randrange(4)
        deal = deal_under(eng, Contract(rng.randrange(4), trump, SUITS[trump]), hands, False, rules)
        bot = BeloteExpert(rules, seed=1, engine=eng, samples=2)
        while not deal.is_over:
            view = deal.view(deal.turn)
            if view.hand.bit_count() < 5:
                break
            bot.last_info = {}
            action = bot.choose(view)
            if bot.last_info:
                depths.setdefault(view.hand.bit_count(), set()).add(bot.last_info["horizon"])
            deal.apply(action)
    assert depths == {8: {5}, 7: {4}, 6: {0}, 5: {0}}


def binding(deal: Deal, engine: Engine) -> bool:
    """Whether the obligation plugin forbids, now, a card the game's own rule allows."""
    state = deal.state
    assert state.contract is not None
    rule = engine.play_rules("belote", state.rules, state.contract).moves
    assert isinstance(rule, Narrowed)
    return rule.base(state) != rule.legal(state)


@pytest.mark.parametrize("plugin", [NoTrumpLead, NoAceDiscard])
def test_no_bot_proposes_a_card_a_plugin_forbids(plugin: Callable[[], object]) -> None:
    engine = engine_with_rule(plugin())
    rules = engine.default_rules("belote")
    decisions = forbidding = 0
    for seed in range(6):
        match = Match(engine, "belote", rules, seed=300 + seed)
        bots: list[Any] = [
            BeloteExpert(rules, seed=seed, engine=engine, samples=2),
            GreedyBot(seed, engine),
            BeloteExpert(rules, seed=seed + 1, engine=engine, samples=2),
            GreedyBot(seed + 1, engine),
        ]

        def choose(deal: Deal, bots: list[Any] = bots) -> Any:
            nonlocal decisions, forbidding
            action = bots[deal.turn].choose(deal.view(deal.turn))
            assert action in deal.legal_actions(), (action, deal.legal_actions())
            if deal.phase == "play":
                decisions += 1
                forbidding += binding(deal, engine)
            return action

        match.play_deal(choose)
    assert decisions >= 144
    assert forbidding >= 5, "the plugin's rule should have forbidden cards in these deals"


def test_a_trump_lead_that_a_plugin_forbids_with_a_plain_card_proves_only_trumps() -> None:
    """Under "no trump lead while holding another suit", South leading a trump shows
    that South holds nothing but trumps: the expert reads it from the move rule."""
    engine = engine_with_rule(NoTrumpLead())
    hands = [
        "7H 8H 9H 10H JH QH KH AH",
        "7C 8C 9C 10C JC QC KC AC",
        "7D 8D 9D 10D JD QD KD AD",
        "7S 8S 9S 10S JS QS KS AS",
    ]
    rules = engine.default_rules("belote")
    deal = deal_under(engine, Contract(0, 2, "H"), [parse_cards(h) for h in hands], False, rules)
    deal.play(parse_card("JH"))
    view = deal.view(1)
    forbid = infer_constraints(view, engine)
    plain = view.unseen & ~SUIT_MASKS[2]
    assert plain and forbid[0] & view.unseen == plain
    assert forbid[2] == forbid[3] == 0


def plugin_engine(name: str) -> tuple[Engine, dict[str, Any]]:
    """An engine and rule options for a plugin rule: one of the two obligations, or the
    example plugin's contracts offered in the bidding."""
    if name == "no-trump-lead":
        return engine_with_rule(NoTrumpLead()), {}
    if name == "no-ace-discard":
        return engine_with_rule(NoAceDiscard()), {}
    return engine_with_rule(sans_tout_plugin()), {"sans_tout_atout": "both"}


@pytest.mark.parametrize("name", ["no-trump-lead", "no-ace-discard", "sans-tout-atout"])
def test_what_the_expert_infers_under_a_plugins_rules_never_excludes_the_true_cards(
    name: str,
) -> None:
    """Soundness of the reading of the play under rules the bots do not know: over random
    deals, no card a seat really holds is ever inferred absent."""
    engine, options = plugin_engine(name)
    rules = engine.make_rules("belote", options)
    checked = inferred = 0
    contracts: set[str] = set()

    def choose(deal: Deal, bots: list[RandomBot]) -> Any:
        nonlocal checked, inferred
        view = deal.view(deal.turn)
        if view.phase == "play" and view.contract is not None:
            contracts.add(view.contract.name)
            forbid = infer_constraints(view, engine)
            for s in range(4):
                assert not forbid[s] & deal.state.hands[s], (s, forbid[s], deal.state.hands[s])
                inferred += forbid[s].bit_count()
            checked += 1
        return bots[deal.turn].choose(view)

    for seed in range(30):
        match = Match(engine, "belote", rules, seed=500 + seed)
        bots = [RandomBot(seed * 4 + s) for s in range(4)]
        match.play_deal(lambda deal, bots=bots: choose(deal, bots))
    assert checked > 300 and inferred > 0
    if name == "sans-tout-atout":
        assert {"sans-atout", "tout-atout"} <= contracts
