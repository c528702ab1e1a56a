"""The exact solver of a fully known Découverte layout (:class:`KnownSolver`,
:func:`solve_known`): fail-soft alpha-beta over whole tricks with a transposition table,
driven by MTD(f)."""

from __future__ import annotations

from collections.abc import Callable

from atout.core.cards import cards_of

from ..rules import window
from .alphabeta import NOTHING_FLAT
from .alphabeta import TrickSearch
from .alphabeta import proven
from .alphabeta import shift_flat
from .policy import Policy
from .policy import playout
from .position import CACHE_LIMIT
from .position import Position
from .position import Tables
from .position import tables_for

KnownSearch = Callable[[int, int, int, int, int, int], int]
"""``ab(hL, hF, hidden, R, alpha, beta)``: the known solver's alpha-beta."""


# --- the exact solver of a fully known layout ---------------------------------------------


class KnownSolver:
    """Exact solver of a fully known layout: every face-down card is known.

    The value of a position between tricks is the card points (last-trick bonus
    included) its leader wins from the remaining tricks under optimal play by both.
    One solver serves one layout (one map of face-down cards); its transposition table
    (``tt``: the leader's and the follower's hands -> bounds and best lead) persists
    between calls, so solving many positions of one layout (the children of a root, a
    threshold search) reuses the work.
    """

    def __init__(self, tables: Tables, under: dict[int, int] | None = None) -> None:
        self.tables = tables
        self.under_bits = [0] * 32
        self.cover_mask = 0
        for cover, down in (under or {}).items():
            self.under_bits[cover] = 1 << down
            self.cover_mask |= 1 << cover
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.exact: dict[int, int] = {}
        self.core = TrickSearch(tables, self.cover_mask)
        self.deadline = self.core.deadline
        self.search: KnownSearch = self._make_search()
        self.policy: Policy | None = None

    def _make_search(self) -> KnownSearch:
        t = self.tables
        pts = t.pts
        beats = t.beats
        follow = t.follow
        known_follow = t.memos()[0]
        free = t.free_lead
        may_lead = t.may_lead
        lead_order = self.core.leads
        replies = self.core.replies
        tick = self.deadline.tick
        under = self.under_bits
        tt = self.tt
        tt_get = tt.get
        last_two: dict[int, int] = {}
        last_two_get = last_two.get
        big = 1 << 20

        def two(hL: int, hF: int, R: int) -> int:
            """The last two tricks, solved outright: the leader's points."""
            best = -1
            for c in cards_of(hL if free else may_lead(hL)):
                c2 = (hL ^ (1 << c) | under[c]).bit_length() - 1
                bc = beats[c]
                pc = pts[c]
                worst = big
                for r in cards_of(known_follow(hF | c << 32) or follow(hF, c)):
                    r2 = (hF ^ (1 << r) | under[r]).bit_length() - 1
                    p = pc + pts[r]
                    if bc >> r & 1:
                        v = R - p if beats[r2] >> c2 & 1 else 0
                    else:
                        v = p if beats[c2] >> r2 & 1 else R
                    if v < worst:
                        worst = v
                if worst > best:
                    best = worst
            return best

        def ab(hL: int, hF: int, hid: int, R: int, alpha: int, beta: int) -> int:
            """Fail-soft alpha-beta: the leader's points from here, within (alpha, beta).
            Which seat leads does not matter: the hands, the cards beneath and the
            points left decide the value (and ``hid`` follows from the hands)."""
            n = (hL | hF | hid).bit_count()
            if n <= 4:
                if n == 2:
                    # The last trick: one card each, both face up.
                    return 0 if beats[hL.bit_length() - 1] >> (hF.bit_length() - 1) & 1 else R
                # The last two tricks depend on the hands alone (what lies face down
                # is what the hands cover): remembered, as each search meets them again.
                key = hL | hF << 32
                v = last_two_get(key)
                if v is None:
                    if len(last_two) >= CACHE_LIMIT:
                        last_two.clear()
                    v = last_two[key] = two(hL, hF, R)
                return v
            if alpha >= R:
                return R
            if beta <= 0:
                return 0
            key = hL | hF << 32
            e = tt_get(key)
            bm = -1
            lo = 0
            hi = R
            if e is not None:
                lo, hi, bm = e
                cut, alpha, beta = window(lo, hi, alpha, beta)
                if cut is not None:
                    return cut
            tick()
            rem = hL | hF | hid
            best = -big
            best_move = -1
            a0 = alpha
            # The table's best lead first, then sure winners, then the cheapest.
            for c in lead_order(hL, hF, rem, bm):
                # the card leaves the hand and the card beneath it (``d``, 0 for none)
                # joins it, face up
                d = under[c]
                hL2 = hL ^ (1 << c) | d
                hid2 = hid ^ d
                pc = pts[c]
                bc = beats[c]
                worst = big
                for r in replies(hF, c, rem):
                    d = under[r]
                    hF2 = hF ^ (1 << r) | d
                    hid3 = hid2 ^ d
                    p = pc + pts[r]
                    Rc = R - p
                    b = beta if beta < worst else worst
                    if bc >> r & 1:
                        v = Rc - ab(hF2, hL2, hid3, Rc, Rc - b, Rc - alpha)
                    else:
                        v = p + ab(hL2, hF2, hid3, Rc, alpha - p, b - p)
                    if v < worst:
                        worst = v
                        if worst <= alpha:
                            break
                if worst > best:
                    best = worst
                    best_move = c
                    if best >= beta:
                        break
                    if best > alpha:
                        alpha = best
            lo, hi = proven(best, a0, beta, lo, hi)
            tt[key] = (lo, hi, best_move)
            return best

        return ab

    def value(
        self,
        hL: int,
        hF: int,
        hid: int,
        leader: int,
        R: int,
        guess: int = -1,
        flat: tuple[int, int] = NOTHING_FLAT,
    ) -> int:
        """The exact points the leader wins from here (``R``: the points left, last-trick
        bonus included), by null-window searches from ``guess``.

        Without a guess, the points :class:`Policy` wins for the leader when both sides
        play it: closer to the value than half of ``R`` (on early sampled layouts of the
        expert, 6.2 searches for each value not already in the table, instead of 10.0).
        From there, MTD(f): each search asks one point past the bound the last one
        proved; but the fail-soft bounds often move a point at a time (up to 30
        searches for one value), so the step doubles with each result in a row on one
        side, and once results have come from both sides the bracket is halved.

        ``flat`` is a range of values the caller does not tell apart (the taker's
        failures, on the score sheet: see :func:`flat_below`): once the value is proved
        within it the search stops and returns a value of the range, maybe not the exact
        one.

        On 15 early decisions of the expert (40 samples each, 3,720 values) the stepping
        took the searches from 17,031 to 13,435 and the flat range to 12,642."""
        if not hL:
            return 0
        key = hL | hF << 32
        ex = self.exact.get(key)
        if ex is not None:
            return ex
        e = self.tt.get(key)
        lo, hi = (0, R) if e is None else (e[0], e[1])
        if lo == hi:
            return lo
        ab = self.search
        a, b = flat
        if a <= lo and hi <= b:
            return lo
        if not 0 <= guess <= R:
            if self.policy is None:
                self.policy = Policy(self.tables)
            guess = playout(self.policy, self.under_bits, hL, hF, hid, leader, R)
        if a <= guess <= b:  # first ask on which side of the range the value lies
            guess = b + 1 if a <= lo else a
        g = min(max(guess, lo), hi)
        beta = g + 1 if g == lo else g
        run = 0  # results in a row on one side, signed
        turned = False
        while True:
            g = ab(hL, hF, hid, R, beta - 1, beta)
            if g < beta:
                hi = g
                turned = turned or run > 0
                run = run - 1 if run < 0 else -1
            else:
                lo = g
                turned = turned or run < 0
                run = run + 1 if run > 0 else 1
            if lo >= hi:
                break
            if a <= lo and hi <= b:
                return lo
            # MTD(f)'s next step, one point past the bound, doubled on each result in a
            # row on the same side: fail-soft bounds alone often close in a point at a
            # time (up to 30 searches for one value).
            if turned:
                beta = (lo + hi + 1) // 2
            elif run > 0:
                beta = min(lo + (1 << (run - 1)), hi)
            else:
                beta = max(hi + 1 - (1 << (-run - 1)), lo + 1)
        self.exact[key] = lo
        return lo

    def best_lead(self, hL: int, hF: int, hid: int, leader: int, R: int) -> int:
        """A best lead of the leader (after :meth:`value`), from the table."""
        self.value(hL, hF, hid, leader, R)
        e = self.tt.get(hL | hF << 32)
        return e[2] if e is not None else -1


def _known_state(pos: Position) -> tuple[int, int, int, dict[int, int]]:
    """The hands of the leader and follower, the face-down mask and the map of a known
    position."""
    if pos.pool or pos.covers:
        raise ValueError("a position with unknown face-down cards needs expectimax_value")
    under = dict(pos.under)
    hid = 0
    for down in under.values():
        hid |= 1 << down
    return pos.hands[pos.leader], pos.hands[1 - pos.leader], hid, under


def solve_known(pos: Position, solver: KnownSolver | None = None, below: int = 0) -> int:
    """The taker's final card points (won so far plus the rest under optimal play by
    both, last-trick bonus included) of a fully known position.

    ``pos`` may be between tricks or after a lead (``pos.led``).  ``solver`` may be a
    :class:`KnownSolver` built for this layout, to share its table across calls.  Final
    points below ``below`` need not be exact (see :func:`flat_below`): the result is
    then some value below it.
    """
    hL, hF, hid, under = _known_state(pos)
    t = tables_for(pos.rules)
    s = solver if solver is not None else KnownSolver(t, under)
    L = pos.leader
    R = pos.points_left
    taker = pos.taker
    got = pos.points[taker]
    flat = (0, below - 1)
    if pos.led is None:
        f = s.value(hL, hF, hid, L, R, flat=shift_flat(flat, got, R, taker == L))
        mine = f if taker == L else R - f
        return got + mine
    # After a lead: the follower picks the answer that leaves the leader least.
    c = pos.led
    if c in under:
        hL |= 1 << under[c]
        hid ^= 1 << under[c]
    best = -1
    for r in cards_of(t.follow(hF, c)):
        hF2 = hF ^ (1 << r)
        hid2 = hid
        if r in under:
            hF2 |= 1 << under[r]
            hid2 ^= 1 << under[r]
        p = t.pts[c] + t.pts[r]
        Rc = R - p
        if not hL and not hF2 and not hid2:
            vL = R if not t.beats[c] >> r & 1 else 0
        elif t.beats[c] >> r & 1:
            F = 1 - L
            sub = shift_flat(flat, got + (p if taker == F else 0), Rc, taker == F)
            vL = Rc - s.value(hF2, hL, hid2, F, Rc, flat=sub)
        else:
            sub = shift_flat(flat, got + (p if taker == L else 0), Rc, taker == L)
            vL = p + s.value(hL, hF2, hid2, L, Rc, flat=sub)
        vF = R - vL
        best = max(best, vF)
    mine = R - best if pos.taker == L else best
    return pos.points[pos.taker] + mine
