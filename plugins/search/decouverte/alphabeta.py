"""The one search core both of Découverte's exact solvers run on (:class:`TrickSearch`):
the trick as they search it, move generation and ordering, the time limit, and the
bounds a fail-soft result proves (:func:`proven`); and the ranges of values a search
need not tell apart (:func:`flat_below`, :func:`shift_flat`)."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence

from ..rules import Deadline
from ..rules import Value
from .position import CLOCK_EVERY
from .position import Tables

NOTHING_FLAT = (1, 0)
"""An empty range of values: every value told apart (see :meth:`KnownSolver.value`)."""


# --- the search core both exact solvers run on ------------------------------------------------


class TrickSearch:
    """What the known-layout and chance solvers share: the trick as a search reads it.

    Both solvers search whole tricks (a lead, then the answer) with fail-soft alpha-beta
    and a table of value bounds; they differ only in what follows a trick (face-down
    cards turned from a known layout, or drawn from the pool) and in what a value means
    (the leader's points, or the taker's expected utility).  This core holds the rest,
    once: the deal's :class:`Tables`, the cards that cover no face-down card
    (``lone``, for merging equivalent cards), the time limit
    (``deadline``, a :class:`~atout.plugins.search.rules.Deadline` counting expanded positions) and the
    move generation with its ordering:

    * :attr:`leads` ``(hL, hF, rem, bm)``: the leads in search order, generated lazily:
      the table's best lead ``bm`` (when >= 0) before anything else is computed, then the
      merged legal leads as :meth:`Tables.leads` orders them;
    * :attr:`replies` ``(hF, c, rem)``: the follower's legal answers to ``c``, merged and
      ordered (:meth:`Tables.answers`).

    ``rem`` is every card not yet played, the led card included.  :func:`proven` is the
    bound a result proves, merged with the table's.
    """

    __slots__ = ("deadline", "leads", "lone", "replies", "tables")

    def __init__(self, tables: Tables, covers: int, deadline: Deadline | None = None) -> None:
        self.tables = tables
        self.lone = ~covers
        self.deadline = deadline if deadline is not None else Deadline(0.0, CLOCK_EVERY)
        self.leads: Callable[[int, int, int, int], Iterator[int]]
        self.replies: Callable[[int, int, int], tuple[int, ...]]
        self.leads, self.replies = self._make_moves()

    def _make_moves(
        self,
    ) -> tuple[
        Callable[[int, int, int, int], Iterator[int]], Callable[[int, int, int], tuple[int, ...]]
    ]:
        t = self.tables
        follow = t.follow
        free = t.free_lead
        may_lead = t.may_lead
        lone = self.lone
        keep = ~lone
        # The tables' memos, read inline (a call less per answer, as the loops need);
        # only a miss asks the tables' method (once, as the memos fill for the deal).
        known_follow, known_merge, known_leads, known_answers = t.memos()

        def leads(hL: int, hF: int, rem: int, bm: int) -> Iterator[int]:
            if bm >= 0:
                yield bm
            moves = hL if free else may_lead(hL)
            m = known_merge(moves & lone | rem << 32)
            moves = moves & keep | m if m is not None else t.merge(moves, lone, rem)
            for c in known_leads(moves | hF << 32) or t.leads(moves, hF):
                if c != bm:
                    yield c

        def replies(hF: int, c: int, rem: int) -> tuple[int, ...]:
            resp = known_follow(hF | c << 32) or follow(hF, c)
            if resp & (resp - 1):
                m = known_merge(resp & lone | rem << 32)
                resp = resp & keep | m if m is not None else t.merge(resp, lone, rem)
            return known_answers(resp | c << 32) or t.answers(resp, c)

        return leads, replies


def proven(best: Value, a0: Value, beta: Value, lo: Value, hi: Value) -> tuple[Value, Value]:
    """The bounds (lo, hi) of a position's value once a fail-soft search within
    (``a0``, ``beta``) returned ``best``, merged with the bounds known before."""
    if best <= a0:
        return lo, best if best < hi else hi
    if best >= beta:
        return best if best > lo else lo, hi
    return best, best


def flat_below(utility: Sequence[float]) -> int:
    """The taker's final points below which ``utility`` is the same (0 if none): with
    the score sheet, every failed contract is worth the same, whatever its points."""
    k = 1
    while k < len(utility) and utility[k] == utility[0]:
        k += 1
    return k if k > 1 else 0


def shift_flat(flat: tuple[int, int], got: int, R: int, leads: bool) -> tuple[int, int]:
    """A range ``flat`` of someone's final points, as the range of values of a position
    worth ``R`` to its leader: that someone has ``got`` points already and ``leads`` it
    (its value is theirs) or not (it is the opponent's)."""
    a, b = flat
    if leads:
        return a - got, b - got
    return R - (b - got), R - (a - got)
