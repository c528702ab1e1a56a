"""The Belote card tables shared by the rule plugins and the bots.

Ranks are indexed 7 8 9 10 J Q K A (0..7), as in :mod:`atout.core.cards`.  The tables
here are the rules of card order and card value of the Belote family (docs/rules.md, "Cards"),
and of La Coinche's contracts sans atout and tout atout (docs/rules.md, "La Coinche").
"""

from __future__ import annotations

from functools import cache

from atout.core.cards import SUIT_MASKS
from atout.core.cards import CardSet

# Trump order, low to high: 7 8 Q K 10 A 9 J.
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)
# Plain order, low to high: 7 8 9 J Q K 10 A.
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
# Points by rank under the two switched contracts of La Coinche (the federation's tables:
# each suit worth 38, the pack 152, 162 a deal with the last trick's 10).
SANS_ATOUT_POINTS = (0, 0, 0, 10, 2, 3, 4, 19)
TOUT_ATOUT_POINTS = (0, 0, 9, 5, 14, 1, 3, 6)
LAST_TRICK_BONUS = 10
DECK_POINTS = 152
DEAL_POINTS = 162


@cache
def card_points(trump: int | None) -> tuple[int, ...]:
    """The points of each card 0..31 when ``trump`` is trump (``None``: no trump)."""
    return tuple((TRUMP_POINTS if c >> 3 == trump else PLAIN_POINTS)[c & 7] for c in range(32))


@cache
def rank_points(points: tuple[int, ...]) -> tuple[int, ...]:
    """The points of each card 0..31 when every suit counts ``points`` by rank (under
    sans atout, :data:`SANS_ATOUT_POINTS`; under tout atout, :data:`TOUT_ATOUT_POINTS`)."""
    return tuple(points[c & 7] for c in range(32))


def strength(card: int, trump: int | None) -> int:
    """The rank of ``card`` within its suit under ``trump`` (higher wins)."""
    return (TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH)[card & 7]


def higher_in_suit(card: int, order: tuple[int, ...]) -> CardSet:
    """The cards of ``card``'s suit above it when its suit ranks in ``order`` (a strength
    by rank index, such as :data:`TRUMP_STRENGTH`)."""
    first = card & ~7
    mine = order[card & 7]
    mask = 0
    for r in range(8):
        if order[r] > mine:
            mask |= 1 << (first + r)
    return mask


@cache
def beats_table(trump: int | None) -> tuple[CardSet, ...]:
    """``beats[c]``: the cards that take the lead from ``c`` when ``c`` is winning a trick.

    Higher cards of the same suit, and every trump when ``c`` is not a trump.
    """
    trump_mask = SUIT_MASKS[trump] if trump is not None else 0
    return tuple(
        higher_in_suit(c, TRUMP_STRENGTH)
        if c >> 3 == trump
        else higher_in_suit(c, PLAIN_STRENGTH) | trump_mask
        for c in range(32)
    )


@cache
def tout_atout_beats() -> tuple[CardSet, ...]:
    """``beats[c]`` under tout atout: the higher cards of ``c``'s suit in trump order
    (J 9 A 10 K Q 8 7); no suit takes another."""
    return tuple(higher_in_suit(c, TRUMP_STRENGTH) for c in range(32))


def best_of(mask: CardSet, trump: int | None) -> int:
    """The strongest card of a non-empty ``mask`` of one suit."""
    best, best_s = -1, -1
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        s = strength(c, trump)
        if s > best_s:
            best, best_s = c, s
        mask ^= low
    return best
