"""The words and symbols both front ends show for cards and seats (atout.ui.cards_text)."""

from __future__ import annotations

from atout.core import Engine
from atout.core import card_str
from atout.core import parse_card
from atout.core.cards import HEARTS
from atout.core.cards import SPADES
from atout.core.cards import SUIT_SYMBOLS
from atout.ui.cards_text import HUMAN
from atout.ui.cards_text import capital
from atout.ui.cards_text import seat_name
from atout.ui.cards_text import show_card
from atout.ui.cards_text import show_cards
from atout.ui.cards_text import suit_label
from atout.ui.cards_text import suit_order
from atout.ui.cards_text import team_long_name


def test_a_card_is_its_text_form_with_the_suit_symbol() -> None:
    for card in range(32):
        assert show_card(card) == card_str(card)[:-1] + SUIT_SYMBOLS[card >> 3]
    assert show_card(parse_card("JH")) == "J♥"
    assert show_card(parse_card("10S")) == "10♠"


def test_a_hand_is_sorted_by_suit_trumps_first_then_by_rank() -> None:
    hand = sum(1 << parse_card(c) for c in ("7H", "AS", "JC", "10S", "8D"))
    assert show_cards(hand) == "10♠ A♠ 7♥ J♣ 8♦"
    assert show_cards(hand, trump=HEARTS) == "7♥ 10♠ A♠ J♣ 8♦"
    assert suit_order() == "SHCD"
    assert suit_order(SPADES) == "SHCD"
    assert suit_order(HEARTS) == "HSCD"


def test_suits_and_notes_in_words() -> None:
    assert suit_label(HEARTS) == "♥ hearts"
    assert capital("dedans: the takers score nothing") == "Dedans: the takers score nothing"
    assert capital("") == ""


def test_the_person_is_you_and_teams_are_named_by_their_players(engine: Engine) -> None:
    belote = engine.game("belote")
    assert seat_name(belote, HUMAN) == "You"
    assert [team_long_name(belote, t) for t in range(2)] == ["You & North", "East & West"]
    decouverte = engine.game("decouverte")
    assert [team_long_name(decouverte, t) for t in range(2)] == ["You", "North"]
