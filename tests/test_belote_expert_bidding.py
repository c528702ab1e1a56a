"""The four-player expert's bidding and what it reads from the bidding: the count that
models a seat's bids, the samples weighed by it (a seat that passed on the turn-up
rarely holds its strong trumps, the taker holds them), the deals the bidding's search
samples, and a plugin's contracts searched like the suits."""

from __future__ import annotations

import random
import statistics

import pytest
from atout.core import Action
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import View
from atout.core.cards import SUIT_MASKS
from atout.core.cards import parse_cards
from atout.plugins.bots.basic import hand_strength
from atout.plugins.bots.belote_expert import BID_THRESHOLD
from atout.plugins.bots.belote_expert import DECLARATION_WEIGHT
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.plugins.bots.belote_expert import bid_contracts
from atout.plugins.bots.belote_expert import bidding_deal
from atout.plugins.bots.belote_expert import bids_fit
from atout.plugins.bots.belote_expert import held_declarations
from atout.plugins.bots.belote_expert import infer_constraints
from atout.plugins.bots.belote_expert import sample_hands
from helpers import shipped_engine
from obligations import engine_with_rule


@pytest.fixture(scope="module")
def eng() -> Engine:
    return shipped_engine()


def bidding_deal_at(engine: Engine, rules_values: dict[str, str], hand_text: str) -> Deal:
    """A four-player deal in its bidding, dealer West (seat 3), South (seat 0) to bid
    first with ``hand_text``; the turn-up is the seven of spades."""
    rules = engine.make_rules("belote", rules_values)
    mine = parse_cards(hand_text)
    turnup = parse_cards("7S")
    rest = [c for c in range(32) if not (mine | turnup) >> c & 1]
    random.Random(4).shuffle(rest)
    hands = [mine] + [sum(1 << c for c in rest[5 * i : 5 * i + 5]) for i in range(3)]
    stock = (turnup.bit_length() - 1, *rest[15:])
    layout = Layout(hands=tuple(hands), stock=stock, turnup=stock[0])
    state = DealState("belote", rules, 4, 2, 3, layout)
    return engine.deal_from_state(state)


def play_view_after(engine: Engine, seed: int, bids: list[str]) -> tuple[Deal, View]:
    """The first view in the play of the first deal of ``Match(seed)`` after the bids
    ``bids`` (in seat order from the dealer's right), of the first seat not the taker."""
    rules = engine.default_rules("belote")
    deal = Match(engine, "belote", rules, seed=seed).next_deal()
    for bid in bids:
        deal.apply(Action.bid(bid))
    assert deal.state.contract is not None
    while deal.turn == deal.state.contract.taker:
        deal.apply(deal.legal_actions()[0])
    return deal, deal.view(deal.turn)


# --- the count that models a seat's bids ---------------------------------------------------


def test_bids_fit_reads_passes_and_takes_by_the_count(eng: Engine) -> None:
    _, view = play_view_after(eng, 3, ["pass", "take"])
    passer, taker = view.bids[0][0], view.bids[1][0]
    trump = view.turnup >> 3 if view.turnup is not None else 0
    strong = SUIT_MASKS[trump] & ~(1 << (view.turnup or 0))
    strong_five = sum(1 << c for c in _cards(strong)[:5])
    a, b, c = (s for s in range(4) if s != trump)
    weak_five = sum(1 << (s * 8 + r) for s, r in ((a, 0), (a, 1), (b, 0), (b, 1), (c, 0)))
    assert hand_strength(strong_five | 1 << view.turnup, trump) >= BID_THRESHOLD
    assert not bids_fit(view, passer, strong_five)  # passed with a hand it would take with
    assert bids_fit(view, passer, weak_five)
    assert bids_fit(view, taker, strong_five)
    assert not bids_fit(view, taker, weak_five)  # took with a hand it would pass


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


# --- samples weighed by the bidding ------------------------------------------------------------


def test_samples_give_the_taker_trumps_and_the_passers_weak_ones(eng: Engine) -> None:
    """Over many samples, with the bids read the round-one passers' count in the
    turn-up's suit is lower and the taker's trumps more, than without; and no sample
    ever breaks a proved constraint."""
    _, view = play_view_after(eng, 11, ["pass", "pass", "take"])
    assert view.contract is not None and view.turnup is not None
    trump = view.contract.trump
    assert trump is not None
    taker = view.contract.taker
    passers = [s for s, b in view.bids if b == "pass" and s != view.seat]
    forbid = infer_constraints(view, eng)
    counts: dict[bool, tuple[float, float]] = {}
    for use_bids in (False, True):
        rng = random.Random(2)
        pass_counts = []
        taker_trumps = []
        for _ in range(300):
            hands = sample_hands(view, rng, forbid, engine=eng, use_bids=use_bids)
            for s in range(4):
                if s != view.seat:
                    assert hands[s] & forbid[s] == 0
                    assert hands[s] & view.hand == 0
            pass_counts += [hand_strength(hands[s], trump) for s in passers]
            taker_trumps.append((hands[taker] & SUIT_MASKS[trump]).bit_count())
        counts[use_bids] = (statistics.fmean(pass_counts), statistics.fmean(taker_trumps))
    assert counts[True][0] < counts[False][0] - 3
    assert counts[True][1] > counts[False][1]


def test_the_bidding_sample_deals_whole_hands_with_the_turnup_to_this_seat(
    eng: Engine,
) -> None:
    deal = bidding_deal_at(eng, {}, "JS 9S AS 10S KH")
    view = deal.view(0)
    turnup = view.turnup
    assert turnup is not None
    rng = random.Random(1)
    for _ in range(50):
        hands = bidding_deal(view, rng)
        assert hands is not None
        assert [h.bit_count() for h in hands] == [8, 8, 8, 8]
        assert hands[0] & view.hand == view.hand and hands[0] >> turnup & 1
        assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 32) - 1


# --- the expert's bids ------------------------------------------------------------------------


def test_the_expert_takes_a_strong_hand_and_passes_a_weak_one(eng: Engine) -> None:
    strong = bidding_deal_at(eng, {}, "JS 9S AS 10S KH")
    expert = BeloteExpert(eng.default_rules("belote"), seed=1, engine=eng, samples=16)
    assert expert.bid(strong.view(0)) == "take"
    assert expert.bid_values(strong.view(0))["take"] > 0
    weak = bidding_deal_at(eng, {}, "8C 7D 8D 7H 8H")
    assert expert.bid(weak.view(0)) == "pass"


def test_the_expert_takes_from_a_lower_count_than_the_greedy_bot(eng: Engine) -> None:
    """Jack and eight of spades with the seven turned up, an ace aside: 57 by the count,
    taken by the expert (from 56), passed by the greedy bot (from 62)."""
    view = bidding_deal_at(eng, {}, "JS 8S AC 7D 7H").view(0)
    assert view.turnup is not None
    assert hand_strength(view.hand | 1 << view.turnup, 3) == 57
    rules = eng.default_rules("belote")
    assert BeloteExpert(rules, engine=eng).bid(view) == "take"
    assert eng.bot("greedy", "belote", rules).choose(view) == Action.bid("pass")


@pytest.mark.parametrize(
    ("declarations", "held", "bid"),
    [("on", 20, "take"), ("belote-only", 0, "pass"), ("none", 0, "pass")],
)
def test_the_expert_counts_the_declarations_it_holds(
    eng: Engine, declarations: str, held: int, bid: str
) -> None:
    """Jack and eight of spades with the seven turned up, king-queen-jack of diamonds: 47
    by the count, 57 with half the tierce's 20 points, so the expert takes; where the
    rules score no tierce it passes, and the greedy bot never counts it."""
    values = {"declarations": declarations}
    view = bidding_deal_at(eng, values, "JS 8S KD QD JD").view(0)
    assert view.turnup is not None
    assert hand_strength(view.hand | 1 << view.turnup, 3) == 47
    rules = eng.make_rules("belote", values)
    assert held_declarations(view, bid_contracts(view, eng)["take"], eng) == held
    expert = BeloteExpert(rules, engine=eng)
    assert expert.greedy.bid_score(view, 3) == 47 + DECLARATION_WEIGHT * held
    assert expert.bid(view) == bid
    expert.greedy.declaration_weight = 0.0
    assert expert.bid(view) == "pass"
    assert eng.bot("greedy", "belote", rules).choose(view) == Action.bid("pass")


def test_held_declarations_leave_belote_to_the_count(eng: Engine) -> None:
    """Belote (trump king and queen) is in the count already (10): it adds nothing more."""
    view = bidding_deal_at(eng, {}, "KS QS 9H 7C 10D").view(0)
    assert held_declarations(view, bid_contracts(view, eng)["take"], eng) == 0


def test_bid_contracts_ask_the_bidding_rule_of_every_offered_bid(eng: Engine) -> None:
    view = bidding_deal_at(eng, {}, "JS 9S AS 10S KH").view(0)
    assert bid_contracts(view, eng) == {"take": Contract(0, 3, "S")}


def test_the_expert_searches_and_bids_a_plugins_contract() -> None:
    """With the example plugin's sans-atout and tout-atout offered, their contracts are
    valued by search under their compiled rules, and four aces bid sans-atout."""
    plugin = pytest.importorskip("atout_sans_tout_atout.plugin")
    eng = engine_with_rule(plugin)
    values = {"sans_tout_atout": "both"}
    deal = bidding_deal_at(eng, values, "AC AD AH AS 10D")
    view = deal.view(0)
    contracts = bid_contracts(view, eng)
    assert contracts["sans-atout"] == Contract(0, None, "sans-atout")
    assert contracts["tout-atout"] == Contract(0, None, "tout-atout")
    expert = BeloteExpert(eng.make_rules("belote", values), seed=2, engine=eng, samples=16)
    bid = expert.bid(view)
    assert set(expert.last_info["values"]) >= {"sans-atout", "tout-atout"}
    assert bid == "sans-atout"
    assert expert.last_info["values"]["sans-atout"] > 0
