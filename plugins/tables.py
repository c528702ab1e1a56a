"""The Belote card tables shared by the rule plugins and the bots.

Ranks are indexed 7 8 9 10 J Q K A (0..7), as in :mod:`atout.core.cards`.  The tables
here are the rules of card order and card value of the Belote family (docs/rules.md, "Cards").
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
LAST_TRICK_BONUS = 10
DECK_POINTS = 152
DEAL_POINTS = 162


@cache
def card_points(trump: int | None) -> tuple[int, ...]:
    """The points of each card 0..31 when ``trump`` is trump (``None``: no trump)."""
    return tuple((TRUMP_POINTS if c >> 3 == trump else PLAIN_POINTS)[c & 7] for c in range(32))


def strength(card: int, trump: int | None) -> int:
    """The rank of ``card`` within its suit under ``trump`` (higher wins)."""
    return (TRUMP_STRENGTH if card >> 3 == trump else PLAIN_STRENGTH)[card & 7]


@cache
def beats_table(trump: int | None) -> tuple[CardSet, ...]:
    """``beats[c]``: the cards that take the lead from ``c`` when ``c`` is winning a trick.

    Higher cards of the same suit, and every trump when ``c`` is not a trump.
    """
    out = []
    trump_mask = SUIT_MASKS[trump] if trump is not None else 0
    for c in range(32):
        suit = c >> 3
        mine = strength(c, trump)
        mask = 0
        for r in range(8):
            other = suit * 8 + r
            if strength(other, trump) > mine:
                mask |= 1 << other
        if suit != trump:
            mask |= trump_mask
        out.append(mask)
    return tuple(out)


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
