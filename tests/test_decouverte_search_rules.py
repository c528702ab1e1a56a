"""The Découverte search plays the rules in force: a plugin's contracts (the example's
sans-atout and tout-atout) and a house rule that changes a play obligation.

The references are plain: expectiminimax over every legal card and every draw of the
pool (:func:`brute_force` of ``test_decouverte_search``), on positions whose rules the
engine compiled with the plugins installed.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from collections.abc import Sequence
from dataclasses import replace

import pytest
from atout.core import Contract
from atout.core import Engine
from atout.core import hookimpl
from atout.core.cards import SUIT_MASKS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import cards_of
from atout.core.model import MoveRule
from atout.core.model import Rules
from atout.core.state import DealState
from atout.plugins.bots.decouverte_expert import DecouverteExpert
from atout.plugins.bots.decouverte_expert import position_from_view
from atout.plugins.search import decouverte as ds
from atout.testing import engine_with
from test_decouverte_search import brute_force

GAME = "decouverte"


def move_values(pos: ds.Position, utility: Sequence[float]) -> dict[int, float]:
    """The exact value of each legal card for the seat to move (the taker's expected
    utility, negated for the opponent), by brute force."""
    sign = 1.0 if ds.to_move(pos) == pos.taker else -1.0
    return {
        c: sign * sum(p * brute_force(q, utility) for p, q in ds.successors(pos, c))
        for c in cards_of(ds.legal_cards(pos))
    }


def endgames(rules: ds.DealRules, seed: int, tricks: int) -> Generator[ds.Position, None, None]:
    """Random real positions between tricks under ``rules``, ``tricks`` tricks left."""
    rng = random.Random(seed)
    while True:
        start = ds.deal(rng, trump=None)
        start = ds.Position(rules, rules.contract.taker, start.leader, start.hands, start.under)
        yield ds.hide(ds.random_play(start, rng, 2 * (ds.TRICKS - tricks)))


# --- a plugin's contracts -------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "tricks"), [("sans-atout", 4), ("tout-atout", 3)])
def test_expert_finds_the_best_card_of_a_plugin_contract(
    installed_engine: Engine, contract: str, tricks: int
) -> None:
    """Under the example plugin's contract the bot picks a best card of the exact search
    of that contract, in endgames where the naive card, the best card of the game the
    shipped tables describe (no trump, classic card values), loses under the contract's
    rules.  (Sans-atout differs from that game only in the ace's value, so such endgames
    are rarer there: four tricks are searched, two endgames are enough.)"""
    pytest.importorskip("atout_sans_tout_atout")
    rules = installed_engine.make_rules(GAME, {"sans_tout_atout": "both"})
    real = ds.DealRules.of(installed_engine, rules, Contract(0, None, contract))
    assert real.cards.total == 162
    classic = ds.deal_rules(None, taker=0, engine=installed_engine)
    utility = ds.score_utility(real.cards.total)
    found = 0
    wanted = 2 if contract == "sans-atout" else 3
    for _, pos in zip(range(400), endgames(real, seed=7, tricks=tricks), strict=False):
        values = move_values(pos, utility)
        best = max(values.values())
        naive = max(
            move_values(replace(pos, rules=classic), ds.points_utility(200)).items(),
            key=lambda item: (item[1], -item[0]),
        )[0]
        if values[naive] >= best - 1e-9:
            continue
        bot = DecouverteExpert(rules, seed=0, samples=4, engine=installed_engine)
        card = bot.best_card(pos)
        assert bot.last_info["method"] == "exact"
        assert values[card] == pytest.approx(best, abs=1e-9), pos.describe()
        assert values[card] > values[naive]
        found += 1
        if found == wanted:
            break
    assert found == wanted


# --- a house rule that changes an obligation ----------------------------------------------------


class NoTrumpLead(MoveRule):
    """The house rule: a player holding a plain card may not lead a trump; everything
    else is the game's own rule (``inner``)."""

    free_lead = False

    def __init__(self, inner: MoveRule, trumps: CardSet, local: bool) -> None:
        self.inner = inner
        self.trumps = trumps
        self.trick_local = local

    def legal(self, state: DealState) -> CardSet:
        cards = self.inner.legal(state)
        if not state.trick and cards & ~self.trumps:
            return cards & ~self.trumps
        return cards

    def explain(self, state: DealState, card: Card) -> str:
        if not state.trick:
            return "no trump lead while holding a plain card (house rule)"
        return self.inner.explain(state, card)


class NoTrumpLeadPlugin:
    """Wraps the game's move rule with :class:`NoTrumpLead` (``local``: whether the
    wrapped rule says it is trick-local, so that a search remembers its answers)."""

    def __init__(self, local: bool) -> None:
        self.local = local

    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        inner = yield
        if game != GAME or inner is None or contract.trump is None:
            return inner
        return NoTrumpLead(inner, SUIT_MASKS[contract.trump], self.local)


@pytest.fixture(scope="module", params=[True, False], ids=["trick-local", "asked-every-time"])
def house_engine(request: pytest.FixtureRequest) -> Engine:
    return engine_with(NoTrumpLeadPlugin(request.param))


def test_the_search_follows_a_changed_obligation_exactly(house_engine: Engine) -> None:
    """Both solvers under the house rule equal the brute force under it, and the rule
    does forbid some leads in these positions."""
    rng = random.Random(17)
    forbidden = 0
    for i in range(120):
        rules = ds.deal_rules(i % 4, taker=i % 2, engine=house_engine)
        pos = ds.deal(rng, trump=i % 4, engine=house_engine)
        pos = replace(pos, rules=rules, taker=i % 2)
        pos = ds.random_play(pos, rng, 2 * (ds.TRICKS - 2 - i % 2))
        hand = pos.hands[pos.leader]
        forbidden += ds.legal_cards(pos) != hand
        assert ds.solve_known(pos) == brute_force(pos), pos.describe()
        hidden = ds.hide(pos)
        assert ds.expectimax_value(hidden) == pytest.approx(brute_force(hidden), abs=1e-9)
    assert forbidden > 10


def test_the_playout_policy_keeps_the_house_rule(house_engine: Engine) -> None:
    """The fast policy of the playouts leads and answers only cards the rules allow."""
    rng = random.Random(23)
    refused = 0
    for i in range(300):
        pos = ds.random_play(ds.deal(rng, trump=i % 4, engine=house_engine), rng, rng.randrange(30))
        t = ds.tables_for(pos.rules)
        policy = ds.Policy(t)
        hand = pos.hands[ds.to_move(pos)]
        legal = ds.legal_cards(pos)
        if pos.led is None:
            card = policy.lead(hand, pos.hands[1 - pos.leader], 0)
            refused += legal != hand
        else:
            card = policy.answer(hand, pos.led)
        assert legal >> card & 1, pos.describe()
    assert refused > 10


def test_expert_never_proposes_a_card_the_house_rule_forbids(house_engine: Engine) -> None:
    """The expert plays both seats of seeded deals under the house rule: every card the
    search reads as legal is what the engine allows, and every action it proposes is
    legal without falling back.  (Each deal stops before its last trick, a forced one:
    the search is what is tested, not the scoring.)"""
    rules = house_engine.default_rules(GAME)
    decisions = 0
    trump_leads_refused = 0
    for seed in range(7):
        bots = [
            DecouverteExpert(rules, seed=seed * 2 + s, samples=2, engine=house_engine)
            for s in (0, 1)
        ]
        rng = random.Random(seed)
        deal = house_engine.new_deal(GAME, rules, seed % 2, rng)
        while not deal.is_over and len(deal.state.tricks) < ds.TRICKS - 1:
            seat = deal.turn
            view = deal.view(seat)
            legal = deal.legal_actions()
            if deal.phase == "play":
                assert ds.legal_cards(position_from_view(view, house_engine)) == view.legal
                hand = deal.state.hands[seat]
                trump_leads_refused += not deal.state.trick and view.legal != hand
            action = bots[seat].choose(view)
            assert action in legal, (action, legal)
            assert "fallback" not in bots[seat].last_info, bots[seat].last_info
            decisions += len(legal) > 1
            deal.apply(action)
    assert decisions >= 150
    assert trump_leads_refused > 0


# --- bidding a plugin's contract ------------------------------------------------------------------

ACES_AND_TENS = [
    [
        ("AS", "7C"),
        ("AH", "8C"),
        ("AD", "9C"),
        ("AC", "JC"),
        ("10S", "QC"),
        ("10H", "KC"),
        ("10D", "7D"),
        ("10C", "8D"),
    ],
    [
        ("7S", "KS"),
        ("8S", "QS"),
        ("9S", "JS"),
        ("7H", "KH"),
        ("8H", "QH"),
        ("9H", "JH"),
        ("9D", "JD"),
        ("QD", "KD"),
    ],
]


def test_expert_bids_a_plugin_contract_that_suits_its_layout(installed_engine: Engine) -> None:
    """Seat 0 shows the four aces and the four tens, and no trump of the proposed
    diamonds worth holding: under the example plugin it bids sans-atout, the contract
    those cards win, which the rules (``atout_bidding_step``) say it would take."""
    pytest.importorskip("atout_sans_tout_atout")
    from atout.core import DealState
    from atout.core import Layout
    from atout.core.cards import parse_card

    rules = installed_engine.make_rules(GAME, {"sans_tout_atout": "both"})
    rows = tuple(tuple((parse_card(u), parse_card(d)) for u, d in row) for row in ACES_AND_TENS)
    hands = tuple(sum(1 << u for u, _ in row) for row in rows)
    layout = Layout(hands=hands, piles=rows, turnup=rows[1][7][0], open_hands=True)
    deal = installed_engine.deal_from_state(DealState(GAME, rules, 2, 2, 1, layout))
    view = deal.view(deal.turn)
    assert view.seat == 0 and "sans-atout" in view.legal_bids
    bot = DecouverteExpert(rules, seed=3, samples=6, engine=installed_engine)
    assert bot.choose(view).value == "sans-atout"
    bids = bot.last_info["bids"]
    assert isinstance(bids, dict) and set(bids) == set(view.legal_bids)
