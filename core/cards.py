"""The 32-card pack as ints and bitmasks, and the one text form of a card.

A card is an int ``0..31``: ``suit * 8 + rank`` where suits are ``C D H S`` (0..3) and
ranks are ``7 8 9 10 J Q K A`` (0..7).  A set of cards is an int bitmask with bit ``c``
set for card ``c``; a suit is the mask ``SUIT_MASKS[s]``.  This is the representation of
python-chess's square sets: set algebra is one machine operation, and a hand fits in an
int that hashes, compares and copies for free.

This module knows the *pack*, not any game: which card beats which, and what a card is
worth, are rules and live in the rule plugins.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator

Card = int
"""A card, ``0..31``."""

CardSet = int
"""A set of cards as a bitmask."""

SUITS = "CDHS"
"""The suit letters, in suit-index order: clubs, diamonds, hearts, spades."""

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
"""The rank names, in rank-index order."""

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("7", "8", "9", "10", "jack", "queen", "king", "ace")

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

NUM_CARDS = 32
FULL_DECK: CardSet = (1 << NUM_CARDS) - 1
SUIT_MASKS: tuple[CardSet, ...] = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASKS: tuple[CardSet, ...] = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))

_RANK_INPUT = {name: i for i, name in enumerate(RANKS)} | {"T": TEN}
_SUIT_INPUT = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
_SUIT_INPUT |= {"♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES}


CARD_TEXT_HELP = "write a card as rank then suit: JH, 10S, TS, 7C, J♥"


class CardParseError(ValueError):
    """Raised when a text is not a card or a suit in any accepted form."""


def make_card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3) and ``rank`` (0..7)."""
    return suit * 8 + rank


def suit_of(card: Card) -> int:
    """The suit index of ``card``."""
    return card >> 3


def rank_of(card: Card) -> int:
    """The rank index of ``card``."""
    return card & 7


def card_str(card: Card) -> str:
    """The text form of ``card``: ``"JH"``, ``"10S"``, ``"7C"``."""
    return RANKS[card & 7] + SUITS[card >> 3]


def card_name(card: Card) -> str:
    """The English name of ``card``: ``"the jack of hearts"``."""
    return f"the {RANK_NAMES[card & 7]} of {SUIT_NAMES[card >> 3]}"


def suit_str(suit: int) -> str:
    """The text form of a suit: ``"H"``."""
    return SUITS[suit]


def parse_suit(text: str) -> int:
    """Read a suit from its letter, symbol or English name (``H``, ``♥``, ``hearts``)."""
    t = text.strip()
    if t.upper() in _SUIT_INPUT:
        return _SUIT_INPUT[t.upper()]
    if t in _SUIT_INPUT:
        return _SUIT_INPUT[t]
    low = t.lower()
    for i, name in enumerate(SUIT_NAMES):
        if low in (name, name[:-1]):
            return i
    raise CardParseError(f"{text!r} is not a suit (use C, D, H, S or ♣ ♦ ♥ ♠)")


def parse_card(text: str) -> Card:
    """Read a card from its text form.

    Accepts ``JH``, ``10S``, ``TS``, ``7c``, ``J♥``, ``10♠`` (case and surrounding space
    do not matter).
    """
    t = text.strip()
    if len(t) < 2:
        raise CardParseError(f"{text!r} is not a card ({CARD_TEXT_HELP})")
    rank_part, suit_part = t[:-1].upper(), t[-1]
    suit = _SUIT_INPUT.get(suit_part.upper(), _SUIT_INPUT.get(suit_part))
    rank = _RANK_INPUT.get(rank_part)
    if suit is None or rank is None:
        raise CardParseError(f"{text!r} is not a card ({CARD_TEXT_HELP})")
    return suit * 8 + rank


def parse_cards(text: str | Iterable[str]) -> CardSet:
    """Read a set of cards from a space- or comma-separated text, or a list of texts."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    mask = 0
    for item in items:
        card = parse_card(item)
        if mask >> card & 1:
            raise CardParseError(f"card {card_str(card)} is given twice")
        mask |= 1 << card
    return mask


def bit(card: Card) -> CardSet:
    """The set holding only ``card``."""
    return 1 << card


def mask_of(cards: Iterable[Card]) -> CardSet:
    """The set of the given cards."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def popcount(mask: CardSet) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


def lowest(mask: CardSet) -> Card:
    """The lowest-numbered card of a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def _cards_of_byte(b: int) -> tuple[int, ...]:
    return tuple(i for i in range(8) if b >> i & 1)


_BYTE_CARDS = tuple(_cards_of_byte(b) for b in range(256))
_SUIT_BYTE_CARDS = tuple(
    tuple(tuple(s * 8 + i for i in _BYTE_CARDS[b]) for b in range(256)) for s in range(4)
)


def cards_of(mask: CardSet) -> tuple[Card, ...]:
    """The cards of ``mask`` in ascending order, as a tuple (table-driven, fast)."""
    return (
        _SUIT_BYTE_CARDS[0][mask & 0xFF]
        + _SUIT_BYTE_CARDS[1][mask >> 8 & 0xFF]
        + _SUIT_BYTE_CARDS[2][mask >> 16 & 0xFF]
        + _SUIT_BYTE_CARDS[3][mask >> 24 & 0xFF]
    )


def iter_cards(mask: CardSet) -> Iterator[Card]:
    """Iterate over the cards of ``mask`` in ascending order."""
    return iter(cards_of(mask))


def cards_str(mask: CardSet, sep: str = " ") -> str:
    """The text form of a set of cards, grouped by suit: ``"7C JC AH"``."""
    return sep.join(card_str(c) for c in cards_of(mask))


def sort_for_display(mask: CardSet, suit_order: str = "SHCD") -> list[Card]:
    """The cards of ``mask`` ordered as a player sorts a hand: by suit, then rank."""
    order = {SUITS.index(s): i for i, s in enumerate(suit_order)}
    return sorted(cards_of(mask), key=lambda c: (order[c >> 3], c & 7))
