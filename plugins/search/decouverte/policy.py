"""The fast playout policy of Découverte (:class:`Policy`, :func:`playout`): how a
sampled layout is played on until few enough tricks remain to solve it exactly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from atout.core.cards import SUIT_MASKS
from atout.core.cards import cards_of

from .alphabeta import NOTHING_FLAT
from .alphabeta import shift_flat
from .position import Tables

if TYPE_CHECKING:
    from .known import KnownSolver  # only named in annotations: known.py imports this module

# --- a fast policy and playouts -------------------------------------------


class Policy:
    """A fast one-trick heuristic on the lean state, for playouts and the bidding.

    The leader cashes a card the follower cannot beat (the most points first), else
    leads its cheapest card (plain before trump, a covering card before a lone one, to
    turn a new card).  Among the cards the follower cannot beat, trumps come first while
    the follower holds a trump (drawing them saves the leader's plain winners from being
    trumped) and last once it holds none (a master trump then stays a sure way back to
    the lead).  The follower wins when it can (following suit with its richest winner,
    trumping with its lowest trump) and otherwise throws its cheapest card.
    """

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        t = tables
        trumps = t.trump_mask
        self._st = [t.strength[c] + (8 if trumps >> c & 1 else 0) for c in range(32)]
        # Lead key of a card that can be beaten: cheap, plain and weak first.
        self._low = [
            -(4 * t.pts[c] + (40 if trumps >> c & 1 else 0) + self._st[c]) for c in range(32)
        ]

    def lead(self, hL: int, hF: int, covers: int) -> int:
        """The card the leader plays from ``hL`` against the follower's ``hF``."""
        t = self.tables
        pts = t.pts
        beats = t.beats
        follow = t.follow
        low = self._low
        trumps = t.trump_mask
        # The base of a sure trump lead: above the plain ones while the follower holds a
        # trump, below every other lead once it holds none.
        sure_trump = 1500 if hF & trumps else -5000
        best = -1
        best_sc = -(1 << 30)
        for c in cards_of(t.may_lead(hL)):
            resp = follow(hF, c)
            if resp & beats[c]:
                sc = low[c] + (2 if covers >> c & 1 else 0)
            else:
                m = 99
                for r in cards_of(resp):
                    if pts[r] < m:
                        m = pts[r]
                sc = (sure_trump if trumps >> c & 1 else 1000) + pts[c] + m
            if sc > best_sc:
                best, best_sc = c, sc
        return best

    def answer(self, hF: int, c: int) -> int:
        """The follower's card from ``hF`` on the led card ``c``."""
        t = self.tables
        legal = t.follow(hF, c)
        wins = legal & t.beats[c]
        st = self._st
        pts = t.pts
        best = -1
        if wins:
            if wins & SUIT_MASKS[c >> 3] and not t.trump_mask >> c & 1:
                best_sc = -(1 << 30)
                for r in cards_of(wins):
                    sc = pts[r] * 16 - st[r]
                    if sc > best_sc:
                        best, best_sc = r, sc
                return best
            best_sc = 99
            for r in cards_of(wins):
                if st[r] < best_sc:
                    best, best_sc = r, st[r]
            return best
        best_sc = 1 << 30
        for r in cards_of(legal):
            sc = pts[r] * 64 + st[r]
            if sc < best_sc:
                best, best_sc = r, sc
        return best


def playout(
    policy: Policy,
    under: Sequence[int],
    hL: int,
    hF: int,
    hid: int,
    L: int,
    R: int,
    solver: KnownSolver | None = None,
    solve_at: int = 0,
    flat: tuple[int, int] = NOTHING_FLAT,
) -> int:
    """The points the leader ``L`` of a fully known position wins from here when both
    play ``policy``; once ``solve_at`` tricks or fewer remain the rest is solved exactly
    by ``solver`` (built for the same layout), to the precision ``flat`` asks (a range of
    the result not told apart, see :meth:`KnownSolver.value`).  ``under[c]`` is the bit
    of the card beneath ``c`` (0 for none)."""
    t = policy.tables
    pts = t.pts
    beats = t.beats
    me = L
    got = 0
    covers = 0
    for c in range(32):
        if under[c]:
            covers |= 1 << c
    while hL:
        if solver is not None and (hL | hF | hid).bit_count() <= 2 * solve_at:
            v = solver.value(hL, hF, hid, L, R, flat=shift_flat(flat, got, R, me == L))
            return got + (v if me == L else R - v)
        c = policy.lead(hL, hF, covers)
        r = policy.answer(hF, c)
        # each card leaves its hand, and the card beneath it (0 for none) joins it
        dc = under[c]
        dr = under[r]
        hL = hL ^ (1 << c) | dc
        hF = hF ^ (1 << r) | dr
        hid ^= dc | dr
        p = pts[c] + pts[r]
        if not (hL | hF | hid):
            p = R
        R -= p
        if beats[c] >> r & 1:
            hL, hF, L = hF, hL, 1 - L
        if me == L:
            got += p
    return got
