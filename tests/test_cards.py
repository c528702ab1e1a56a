"""docs/rules.md, "Cards": the text form of a card, the orders and the points.

The orders and points are asked of the engine exactly as a deal asks them (the compiled
play rules of a Belote contract), so a wrong table in the plugin fails here.
"""

from __future__ import annotations

import pytest
from atout.core import FULL_DECK
from atout.core import CardParseError
from atout.core import Contract
from atout.core import Engine
from atout.core import card_str
from atout.core import cards_of
from atout.core import make_card
from atout.core import parse_card
from atout.core import parse_cards
from atout.core import parse_suit
from atout.core.cards import CLUBS
from atout.core.cards import HEARTS
from atout.core.cards import JACK
from atout.core.cards import SEVEN
from atout.core.cards import SPADES
from atout.core.cards import TEN
from helpers import cards
from helpers import shipped_engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


TRUMP_HIGH_TO_LOW = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_HIGH_TO_LOW = ["A", "10", "K", "Q", "J", "9", "8", "7"]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def compiled(engine: Engine, trump: str):
    """The per-card rules of a four-player deal with ``trump`` as trump."""
    rules = engine.default_rules("belote")
    return engine.play_rules("belote", rules, Contract(0, parse_suit(trump), trump))


# --- text forms ----------------------------------------------------------------------


def test_card_text_is_rank_then_suit_letter() -> None:
    assert card_str(make_card(HEARTS, JACK)) == "JH"
    assert card_str(make_card(SPADES, TEN)) == "10S"
    assert card_str(make_card(CLUBS, SEVEN)) == "7C"


def test_every_card_text_reads_back_to_the_same_card() -> None:
    texts = [card_str(c) for c in range(32)]
    assert len(set(texts)) == 32
    assert [parse_card(t) for t in texts] == list(range(32))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("J♥", "JH"),
        ("10♠", "10S"),
        ("TS", "10S"),
        ("jh", "JH"),
        ("10s", "10S"),
        ("ts", "10S"),
        (" 7c ", "7C"),
        ("a♦", "AD"),
        ("Q♡", "QH"),
    ],
)
def test_card_input_accepts_symbols_t_for_ten_and_lower_case(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "J", "X", "1S", "11H", "JX", "JHH", "10", "H J", "♥J"])
def test_a_bad_card_text_gives_an_error_quoting_it_and_the_accepted_forms(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    message = str(info.value)
    assert repr(text) in message
    assert "JH" in message and "10S" in message


def test_a_card_given_twice_in_a_hand_is_an_error_naming_it() -> None:
    with pytest.raises(CardParseError, match="card JH is given twice"):
        parse_cards("JH 9H jh")


def test_a_hand_text_reads_spaces_or_commas() -> None:
    assert parse_cards("JH, 9H 10S") == parse_cards(["JH", "9H", "10S"])
    assert cards_of(parse_cards("JH, 9H 10S")) == tuple(
        sorted(map(parse_card, ["JH", "9H", "10S"]))
    )


def test_the_pack_has_32_cards_in_four_suits_of_ranks_7_to_ace() -> None:
    assert len(cards_of(FULL_DECK)) == 32
    assert {card_str(c)[:-1] for c in range(32)} == set(PLAIN_HIGH_TO_LOW)
    assert {card_str(c)[-1] for c in range(32)} == set("CDHS")


# --- orders ----------------------------------------------------------------------------


@pytest.mark.parametrize("trump", ["C", "D", "H", "S"])
def test_trump_order_is_j_9_a_10_k_q_8_7(engine: Engine, trump: str) -> None:
    beats = compiled(engine, trump).beats
    order = [parse_card(r + trump) for r in TRUMP_HIGH_TO_LOW]
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert beats[low] >> high & 1, f"{card_str(high)} must beat {card_str(low)}"
            assert not beats[high] >> low & 1, f"{card_str(low)} must not beat {card_str(high)}"


@pytest.mark.parametrize("suit", ["C", "D", "S"])
def test_plain_order_is_a_10_k_q_j_9_8_7(engine: Engine, suit: str) -> None:
    beats = compiled(engine, "H").beats
    order = [parse_card(r + suit) for r in PLAIN_HIGH_TO_LOW]
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert beats[low] >> high & 1, f"{card_str(high)} must beat {card_str(low)}"
            assert not beats[high] >> low & 1


def test_any_trump_beats_any_plain_card_and_a_plain_card_never_beats_a_trump(
    engine: Engine,
) -> None:
    beats = compiled(engine, "H").beats
    trumps, plain = (
        cards("7H 8H 9H 10H JH QH KH AH"),
        FULL_DECK & ~cards("7H 8H 9H 10H JH QH KH AH"),
    )
    for c in cards_of(plain):
        assert beats[c] & trumps == trumps
    for t in cards_of(trumps):
        assert beats[t] & plain == 0


def test_a_card_of_another_plain_suit_never_takes_the_lead(engine: Engine) -> None:
    beats = compiled(engine, "H").beats
    assert beats[parse_card("7S")] & cards("AC AD") == 0


# --- points ----------------------------------------------------------------------------


@pytest.mark.parametrize("trump", ["C", "D", "H", "S"])
def test_card_points_of_trumps_and_plain_suits(engine: Engine, trump: str) -> None:
    points = compiled(engine, trump).values.points
    for suit in "CDHS":
        table = TRUMP_POINTS if suit == trump else PLAIN_POINTS
        for rank, value in table.items():
            assert points[parse_card(rank + suit)] == value, rank + suit


@pytest.mark.parametrize("trump", ["C", "D", "H", "S"])
def test_card_points_total_152_and_the_last_trick_adds_10_to_make_162(
    engine: Engine, trump: str
) -> None:
    values = compiled(engine, trump).values
    assert sum(values.points) == 152
    assert values.last_trick == 10
    assert sum(values.points) + values.last_trick == 162
