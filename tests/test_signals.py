"""The club players' signals (``plugins/bots/signals.py``): what the convention plays, how
the expert and the scripted partner make the signals, and how the expert reads them, only
through the weights of its sampled layouts (never by looking at a hidden card)."""

from __future__ import annotations

import random

import pytest
from atout.core import Engine
from atout.core import card_str
from atout.core.engine import Deal
from atout.core.errors import UnknownNameError
from atout.core.records import deal_from_record
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.bots.basic import card_tables
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.plugins.bots.belote_expert import sample_hands
from atout.plugins.bots.mixed import PartnersBot
from atout.plugins.bots.mixed import bot_settings
from atout.plugins.bots.mixed import make_bot
from atout.plugins.bots.signals import CALL
from atout.plugins.bots.signals import DISCARD
from atout.plugins.bots.signals import EPSILON
from atout.plugins.bots.signals import LEAD
from atout.plugins.bots.signals import REFUSAL
from atout.plugins.bots.signals import conventional_cards
from atout.plugins.bots.signals import conventional_discards
from atout.plugins.bots.signals import conventional_leads
from atout.plugins.bots.signals import likelihood
from atout.plugins.bots.signals import meaning
from atout.plugins.bots.signals import played_from
from atout.plugins.bots.signals import signal_events
from atout.plugins.bots.signals import world_weight
from helpers import card
from helpers import cards
from helpers import first_trick_record
from helpers import position
from helpers import shipped_engine
from helpers import texts

HEARTS = cards("7H 8H 9H 10H JH QH KH AH")


@pytest.fixture(scope="module")
def eng() -> Engine:
    return shipped_engine()


# --- the convention -------------------------------------------------------------------------


def test_an_ace_or_a_picture_calls_and_a_ten_or_a_low_card_refuses() -> None:
    assert {meaning(card(c)) for c in ("AC", "KC", "QD", "JS")} == {CALL}
    assert {meaning(card(c)) for c in ("10C", "9D", "8S", "7H")} == {REFUSAL}


def test_a_seat_calls_the_suit_of_its_ace_with_a_picture() -> None:
    hand = cards("AC KC 7C QD 8D 9H")
    discards = hand & ~HEARTS
    assert texts(conventional_discards(hand, discards, HEARTS)) == {"KC"}


def test_an_ace_is_a_call_only_with_the_ten_behind_it() -> None:
    hand = cards("AC 10C 8C QD 8D 9H")
    discards = hand & ~HEARTS
    assert texts(conventional_discards(hand, discards, HEARTS)) == {"AC"}


def test_a_guarded_ten_or_a_singleton_with_a_trump_left_is_worth_a_call() -> None:
    hand = cards("10C JC 8C KD 8D 9H")
    assert texts(conventional_discards(hand, hand & ~HEARTS, HEARTS)) == {"JC"}
    # the king of diamonds alone: discarding it leaves a void the seat can ruff
    hand = cards("KD 9C 8C 9H")
    assert texts(conventional_discards(hand, hand & ~HEARTS, HEARTS)) == {"KD"}


def test_with_nothing_to_call_a_seat_refuses_with_a_low_card_or_a_ten() -> None:
    hand = cards("KC QC 8C 10D 7S")
    assert texts(conventional_discards(hand, hand, HEARTS)) == {"8C", "10D", "7S"}
    # a suit worth a call without a picture to call it with is neither called nor refused
    hand = cards("KC QC 8C 10D 7D 9H")
    assert texts(conventional_discards(hand, hand & ~HEARTS, HEARTS)) == {"8C"}


def test_a_defenders_first_lead_asks_back_for_the_suit_of_its_ace_or_kept_ten() -> None:
    hand = cards("AD 10C 8C 7S 9S 9H")
    legal = hand & ~HEARTS
    assert texts(conventional_leads(hand, legal, HEARTS)) == {"AD", "8C"}
    # nothing to ask for: the convention says nothing of the lead
    hand = cards("KC 8C 7S 9S 9H")
    assert conventional_leads(hand, hand & ~HEARTS, HEARTS) == hand & ~HEARTS


# --- a deal with one signal: South's partner North refuses clubs ------------------------------

HANDS = [
    "AS KS QS AD KD QD JD 7H",
    "7S 8S 9S 10D 9D 8D 7D 8H",
    "7C KC AC 9H 10H JH QH KH",
    "10S JS 8C 9C 10C JC QC AH",
]
"""South (0) leads the ace of spades, West (1, the taker) follows, North (2) has no spade
and throws the 7 of clubs on its partner's ace (though it holds the ace of clubs and the
king: the convention would call clubs with the king), East follows."""


def first_trick(eng: Engine, discard: str = "7C") -> Deal:
    record = first_trick_record([cards(h) for h in HANDS], "H", taker=1, dealer=3, rules={})
    deal = deal_from_record(eng, record, "signals")
    for text in ("AS", "7S", discard, "10S"):
        deal.play(card(text))
    return deal


def test_the_first_discard_on_the_partners_trick_and_a_defenders_lead_are_signals(
    eng: Engine,
) -> None:
    view = first_trick(eng).view(0)
    events = signal_events(view, card_tables(view, eng))
    assert [(e.seat, card_str(e.card), e.kind) for e in events] == [
        (0, "AS", LEAD),
        (2, "7C", DISCARD),
    ]
    assert events[1].led == card("AS") >> 3


def test_a_low_discard_makes_the_layouts_with_the_ace_of_its_suit_unlikely(eng: Engine) -> None:
    """North's 7 of clubs refuses clubs: a layout giving North the ace and king of clubs
    (it would have called with the king) weighs less than one giving it neither."""
    view = first_trick(eng).view(0)
    tables = card_tables(view, eng)
    events = [e for e in signal_events(view, tables) if e.seat != view.seat]
    later = played_from(view, events)
    assert texts(later[0][2]) == {"7C"}
    with_ace = [0, cards("8S 9S 10D 9D 8D 7D 8H"), cards("KC AC 9H 10H JH QH KH"), 0]
    without = [0, cards("8S 9S 10D 9D 8D 7D 8H"), cards("KC 8C 9H 10H JH QH KH"), 0]
    low, high = (world_weight(events, h, later, tables.trump_mask) for h in (with_ace, without))
    assert low == pytest.approx(EPSILON / 3)
    assert high == pytest.approx((1 - EPSILON) / 2 + EPSILON / 3)
    assert high > 5 * low


def test_a_picture_discarded_makes_the_ace_of_its_suit_likely(eng: Engine) -> None:
    view = first_trick(eng, "KC").view(0)
    tables = card_tables(view, eng)
    event = next(e for e in signal_events(view, tables) if e.seat == 2)
    trumps = tables.trump_mask
    holding = likelihood(event, cards("KC 7C AC 9H"), trumps, EPSILON)
    lacking = likelihood(event, cards("KC 7C 8C 9H"), trumps, EPSILON)
    assert holding > 5 * lacking


def test_the_weighted_layouts_follow_the_convention(eng: Engine) -> None:
    """Among layouts sampled for South after North's refusal in clubs, the weighted share
    of those that give North the ace of clubs is well below the unweighted share."""
    view = first_trick(eng).view(0)
    tables = card_tables(view, eng)
    events = [e for e in signal_events(view, tables) if e.seat != view.seat]
    later = played_from(view, events)
    rng = random.Random(5)
    ace = card("AC")
    count = weight = with_ace = weighted_ace = 0.0
    for _ in range(300):
        hands = sample_hands(view, rng, engine=eng)
        w = world_weight(events, hands, later, tables.trump_mask)
        holds = hands[2] >> ace & 1
        count += 1
        weight += w
        with_ace += holds
        weighted_ace += w * holds
    assert weighted_ace / weight < 0.6 * (with_ace / count)


# --- making the signals ---------------------------------------------------------------------


def discard_position(eng: Engine, north: str) -> Deal:
    """North (2) to play on its partner's ace of spades, with no spade, at the first trick."""
    hands = [
        "KS 9C 8C JH 9H 10D 9D",
        "8S QS 7C 8H QH KC AD",
        north,
        "9S 10S KD QD 7H JS QC JD",
    ]
    return position(eng, hands, trump="H", taker=1, leader=0, trick="AS 7S")


def test_the_expert_refuses_with_a_low_card_rather_than_a_false_call(eng: Engine) -> None:
    """North holds nothing in clubs or diamonds: the queen of clubs is worth as much as
    the 7 of diamonds to the search but would call clubs; with signals the expert
    refuses with the 7 (or 8) of diamonds, without them it plays the queen."""
    view = discard_position(eng, "KD QC JC 8D 7D 9H 7H 8H").view(2)
    assert texts(conventional_cards(view, card_tables(view, eng))) == {"7D", "8D"}
    plain = BeloteExpert(engine=eng, samples=12, seed=1, signals=False)
    assert card_str(plain.play(view)) == "QC"
    expert = BeloteExpert(engine=eng, samples=12, seed=1)
    assert card_str(expert.play(view)) in {"7D", "8D"}
    info = expert.last_info
    assert 0 <= info["signal_cost"] <= expert.signal_tolerance


def test_the_expert_gives_up_a_signal_that_costs_more_than_its_tolerance(eng: Engine) -> None:
    """With the ace and ten of clubs, smearing the ten on the partner's ace is worth far
    more than the convention's call (ace or jack): the expert smears the ten."""
    view = discard_position(eng, "AC 10C JC 7D 8D AH 10H KH").view(2)
    assert texts(conventional_cards(view, card_tables(view, eng))) == {"AC", "JC"}
    expert = BeloteExpert(engine=eng, samples=12, seed=1)
    assert card_str(expert.play(view)) == "10C"
    assert expert.last_info["signal"] is None


def test_the_scripted_partner_calls_the_suit_of_its_ace(eng: Engine) -> None:
    view = discard_position(eng, "AC KC 8C 7D 8D AH 10H KH").view(2)
    assert card_str(GreedyBot(0, eng).card(view)) != "KC"
    assert card_str(GreedyBot(0, eng, signals=True).card(view)) == "KC"


def test_no_signal_once_the_seat_has_made_its_first_discard(eng: Engine) -> None:
    deal = first_trick(eng)
    # South won the first trick and leads the king of spades: North discards again
    deal.play(card("KS"))
    deal.play(card("8S"))
    view = deal.view(2)
    assert conventional_cards(view, card_tables(view, eng)) == 0


# --- reading without looking ------------------------------------------------------------------


def test_the_experts_decision_is_the_same_whatever_the_hidden_cards(eng: Engine) -> None:
    """Two deals that differ only in West's and East's unplayed cards show South the same
    view; the expert (same seed) plays the same card with the same values in both."""
    swapped = list(HANDS)
    swapped[1] = "7S 8S 9S 10D 9D 8D 7D AH"
    swapped[3] = "10S JS 8C 9C 10C JC QC 8H"
    decisions = []
    for hands in (HANDS, swapped):
        record = first_trick_record([cards(h) for h in hands], "H", 1, 3, {})
        deal = deal_from_record(eng, record, "signals")
        for text in ("AS", "7S", "7C", "10S"):
            deal.play(card(text))
        view = deal.view(0)
        expert = BeloteExpert(engine=eng, samples=8, seed=3)
        decisions.append((view, expert.play(view), expert.last_info["values"]))
    assert decisions[0][0] == decisions[1][0]
    assert decisions[0][1:] == decisions[1][1:]


def test_the_expert_weighs_its_layouts_only_with_inference(eng: Engine) -> None:
    view = first_trick(eng).view(0)
    reading = BeloteExpert(engine=eng, samples=8, seed=3)
    reading.play(view)
    assert reading.last_info["signal_events"] == 1
    assert reading.last_info["effective_samples"] < 8
    blind = BeloteExpert(engine=eng, samples=8, seed=3, read_signals=False, infer=False)
    blind.play(view)
    assert blind.last_info["signal_events"] == 0
    assert blind.last_info["effective_samples"] == pytest.approx(8)


# --- the bot specs of the measures ---------------------------------------------------------------


def test_a_spec_sets_a_bots_settings(eng: Engine) -> None:
    rules = eng.make_rules("belote", {})
    assert bot_settings("expert:signals=off:inference=on") == (
        "expert",
        {"signals": False, "inference": True},
    )
    expert = make_bot(eng, "expert:signals=off", "belote", rules)
    assert isinstance(expert, BeloteExpert)
    assert not expert.signals and not expert.read_signals
    greedy = make_bot(eng, "greedy:signals=on", "belote", rules)
    assert isinstance(greedy, GreedyBot) and greedy.signals
    with pytest.raises(UnknownNameError, match="its settings are: infer, inference, signals"):
        make_bot(eng, "expert:loud=on", "belote", rules)
    with pytest.raises(UnknownNameError, match="on or off"):
        make_bot(eng, "expert:signals=maybe", "belote", rules)


def test_a_partnership_gives_each_team_one_seat_of_each_partner(eng: Engine) -> None:
    rules = eng.make_rules("belote", {})
    pair = make_bot(eng, "expert/greedy:signals=on", "belote", rules)
    assert isinstance(pair, PartnersBot)
    view = first_trick(eng).view(2)
    assert pair._bot(view) is pair.second
    assert pair._bot(first_trick(eng).view(1)) is pair.first


def test_the_scripted_partners_first_lead_as_a_defender_asks_for_its_tens_suit(
    eng: Engine,
) -> None:
    """West defends and leads first: greedily the lowest card of its longest suit (a
    diamond); with signals a club, the suit whose ten it keeps."""
    hands = [
        "JH 9H AC AD 10D AS 10S QS",
        "10C 8C 7D 8D 9D KS 7H 8H",
        "KC QC JC 9C 7C KD QD JD",
        "AH 10H KH QH 9S 8S 7S JS",
    ]
    view = position(eng, hands, trump="H", taker=0, leader=1).view(1)
    assert texts(conventional_cards(view, card_tables(view, eng))) == {"8C", "KS"}
    assert card_str(GreedyBot(0, eng).card(view)) == "7D"
    assert card_str(GreedyBot(0, eng, signals=True).card(view)) == "8C"
