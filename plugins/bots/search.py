"""What every search bot shares: the rules of the deal as tables, a deadline, statistics.

A search bot never carries a copy of a rule.  It asks the engine for the deal's compiled
play rules (:meth:`atout.core.Engine.play_rules`: the move rule, the trick-winner table
and the card values that the rule plugins answered for this contract) and turns them
into the tables a search reads in its inner loop (:class:`CardRules`).  So a contract
that a third-party plugin defines (sans-atout, tout-atout, a house rule that changes an
obligation) is searched exactly as the shipped ones are.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from atout.core.cards import SUIT_MASKS, CardSet
from atout.core.engine import PlayRules
from atout.core.model import MoveRule

INF = 1 << 20
"""A bound beyond any score a deal can reach (integer, so bounds stay exact)."""


class SearchTimeout(Exception):
    """Raised inside a search when its deadline has passed (:class:`Deadline`); the
    search's tables stay valid, so the caller can use what was found so far."""


class Deadline:
    """A time limit that a search checks cheaply: the clock is read every ``every``
    calls of :meth:`tick`, which raises :class:`SearchTimeout` once ``when`` (a
    ``time.perf_counter()`` value; 0 for none) has passed."""

    __slots__ = ("count", "every", "when")

    def __init__(self, when: float = 0.0, every: int = 1024) -> None:
        self.when = when
        self.every = every
        self.count = 0

    def set(self, when: float) -> None:
        """Stop at ``when`` (``time.perf_counter()`` seconds; 0: no limit)."""
        self.when = when
        self.count = 0

    def tick(self) -> None:
        """Count one unit of work; raise :class:`SearchTimeout` past the deadline."""
        self.count += 1
        if self.when and self.count % self.every == 0 and time.perf_counter() > self.when:
            raise SearchTimeout


def percentile(values: Sequence[float], pct: float) -> float:
    """The ``pct``-th percentile of ``values`` (nearest rank); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[k]


@dataclass(frozen=True)
class CardRules:
    """The play rules of one deal as a search reads them.

    ``moves`` is the deal's move rule (ask it for the legal cards; see
    :attr:`atout.core.model.MoveRule.trick_local` for when its answers may be
    remembered); ``beats[c]`` the cards that take the lead from ``c``; ``points[c]`` what
    ``c`` is worth; ``last_trick`` the last trick's bonus.  Derived from those:
    ``strength[c]`` is how many cards of its own suit ``c`` beats (0 for the lowest),
    ``trump_mask`` the cards that beat a card of another suit (the trumps; empty when no
    suit trumps another), and ``total`` the points of a whole deal.
    """

    moves: MoveRule
    beats: tuple[CardSet, ...]
    points: tuple[int, ...]
    last_trick: int
    strength: tuple[int, ...]
    trump_mask: CardSet
    total: int

    @classmethod
    def of(cls, play: PlayRules) -> CardRules:
        """The search tables of a deal's compiled play rules."""
        return _card_rules(play)


@cache
def _card_rules(play: PlayRules) -> CardRules:
    beats = play.beats
    strength = tuple(
        sum(1 for d in range(32) if d >> 3 == c >> 3 and d != c and beats[d] >> c & 1)
        for c in range(32)
    )
    trumps = 0
    for c in range(32):
        trumps |= beats[c] & ~SUIT_MASKS[c >> 3]
    points = tuple(play.points)
    return CardRules(
        moves=play.moves,
        beats=tuple(beats),
        points=points,
        last_trick=play.values.last_trick,
        strength=strength,
        trump_mask=trumps,
        total=sum(points) + play.values.last_trick,
    )
