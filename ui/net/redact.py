"""Cards named in a text, and a text with the cards a seat may not know taken out: what
keeps a hidden card out of an error message the server sends (and what the leak tests
look for on the wire)."""

from __future__ import annotations

import re

from atout.core.cards import RANK_NAMES
from atout.core.cards import RANKS
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import parse_card

_CARD_TEXT = re.compile(r"\b(10|[789TJQKA])([CDHS])\b")
_CARD_WORDS = re.compile(
    r"\b(?:the\s+)?(7|8|9|10|jack|queen|king|ace)\s+of\s+(clubs|diamonds|hearts|spades)\b",
    re.IGNORECASE,
)


def cards_named(text: str) -> CardSet:
    """Every card ``text`` names (``JH``, ``10S``, ``the jack of hearts``)."""
    mask = 0
    for rank, suit in _CARD_TEXT.findall(text):
        mask |= 1 << parse_card(rank + suit)
    for rank, suit in _CARD_WORDS.findall(text):
        mask |= 1 << (SUIT_NAMES.index(suit.lower()) * 8 + RANK_NAMES.index(rank.lower()))
    return mask


def redact(text: str, allowed: CardSet) -> str:
    """``text`` with every card it names that is not in ``allowed`` replaced by "a
    card": an error message never tells a seat a card it may not know."""

    def keep(card: Card, said: str) -> str:
        return said if allowed >> card & 1 else "a card"

    def text_sub(m: re.Match[str]) -> str:
        rank = "10" if m.group(1) == "T" else m.group(1)
        return keep(SUITS.index(m.group(2)) * 8 + RANKS.index(rank), m.group(0))

    def words_sub(m: re.Match[str]) -> str:
        suit = SUIT_NAMES.index(m.group(2).lower())
        return keep(suit * 8 + RANK_NAMES.index(m.group(1).lower()), m.group(0))

    return _CARD_WORDS.sub(words_sub, _CARD_TEXT.sub(text_sub, text))
