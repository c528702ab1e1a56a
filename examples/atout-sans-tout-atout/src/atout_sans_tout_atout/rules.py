"""The card orders, card points and play obligations of the two contracts.

Ranks are indexed as in :mod:`atout.core.cards`: 7 8 9 10 J Q K A are 0..7, and a card
is ``suit * 8 + rank``.  The values are those of the French federation's coinche rules
(see the README):

=========  ==================================  ==================================
contract   order, high to low                  points
=========  ==================================  ==================================
sans atout A 10 K Q J 9 8 7 in every suit      A 19, 10 10, K 4, Q 3, J 2, others 0
tout atout J 9 A 10 K Q 8 7 in every suit      J 14, 9 9, A 6, 10 5, K 3, Q 1, 8 7 0
=========  ==================================  ==================================

Each suit is worth 38, the pack 152, and the last trick 10 more: 162 a deal under either
contract, as under a suit contract, so the games' own scoring needs no change.

Play: no suit ever trumps another.  Sans atout: follow suit if you can, otherwise play any
card; the highest card of the suit led wins.  Tout atout: every suit ranks as trump, so
you follow suit and, as on a trump lead, must beat the best card of the trick if you can
(whoever is winning it); void in the suit led you play any card (there is no other suit to
trump with); the highest card of the suit led wins.
"""

from __future__ import annotations

from functools import cache

from atout.core.cards import SUIT_MASKS
from atout.core.cards import SUIT_NAMES
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import card_name
from atout.core.model import CardValues
from atout.core.model import MoveRule
from atout.core.state import DealState

SANS_ATOUT = "sans-atout"
TOUT_ATOUT = "tout-atout"
CONTRACTS = (SANS_ATOUT, TOUT_ATOUT)
"""The bids this plugin adds, which are also the names of the contracts they make."""

LAST_TRICK = 10
"""Dix de der: the last trick's bonus, as in every Belote contract."""

# Strength within a suit, by rank index 7 8 9 10 J Q K A (higher wins).
STRENGTH = {
    SANS_ATOUT: (0, 1, 2, 6, 3, 4, 5, 7),  # A 10 K Q J 9 8 7
    TOUT_ATOUT: (0, 1, 6, 4, 7, 2, 3, 5),  # J 9 A 10 K Q 8 7
}
# Points by rank index 7 8 9 10 J Q K A.
POINTS = {
    SANS_ATOUT: (0, 0, 0, 10, 2, 3, 4, 19),
    TOUT_ATOUT: (0, 0, 9, 5, 14, 1, 3, 6),
}


@cache
def card_values(contract: str) -> CardValues:
    """What each card 0..31 is worth under ``contract``, and the last trick's bonus."""
    ranks = POINTS[contract]
    return CardValues(tuple(ranks[c & 7] for c in range(32)), LAST_TRICK)


@cache
def beats_table(contract: str) -> tuple[CardSet, ...]:
    """``beats[c]``: the cards that take a trick from ``c``: the higher cards of its own
    suit (no suit trumps another under either contract)."""
    strength = STRENGTH[contract]
    table = []
    for c in range(32):
        suit = c >> 3
        mask = 0
        for r in range(8):
            if strength[r] > strength[c & 7]:
                mask |= 1 << (suit * 8 + r)
        table.append(mask)
    return tuple(table)


class SansAtoutMoves(MoveRule):
    """Sans atout: follow suit if you can; otherwise any card.

    ``legal`` reads only the hand of the seat to play and the trick: ``trick_local``."""

    trick_local = True

    def legal(self, state: DealState) -> CardSet:
        hand = state.hands[state.turn]
        if not state.trick:
            return hand
        return hand & SUIT_MASKS[state.trick[0] >> 3] or hand

    def explain(self, state: DealState, card: Card) -> str:
        return f"must follow {SUIT_NAMES[state.trick[0] >> 3]} (sans atout)"


class ToutAtoutMoves(MoveRule):
    """Tout atout: follow suit and beat the best card of the trick if you can, whoever is
    winning it; void in the suit led, any card.

    ``legal`` reads only the hand of the seat to play, the trick and its winning card:
    ``trick_local``."""

    trick_local = True

    def __init__(self) -> None:
        self.beats = beats_table(TOUT_ATOUT)

    def legal(self, state: DealState) -> CardSet:
        hand = state.hands[state.turn]
        if not state.trick:
            return hand
        follow = hand & SUIT_MASKS[state.trick[0] >> 3]
        if not follow:
            return hand
        # No card of another suit can win, so the winning card is of the suit led.
        return follow & self.beats[state.win_card] or follow

    def explain(self, state: DealState, card: Card) -> str:
        led = state.trick[0] >> 3
        if card >> 3 != led:
            return f"must follow {SUIT_NAMES[led]} (tout atout)"
        return f"must beat {card_name(state.win_card)}: every suit is trump (tout atout)"
