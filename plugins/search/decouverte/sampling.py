"""Perfect-information Monte Carlo for Découverte: layouts drawn from the pool
(:func:`determinize`), moves valued on them (:func:`sampled_values`, :func:`outcomes`),
and the racing that stops sampling the moves proved worse (:func:`race`,
:func:`survivors`)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import replace

from atout.core.cards import cards_of

from .alphabeta import flat_below
from .alphabeta import shift_flat
from .known import KnownSolver
from .known import solve_known
from .policy import Policy
from .policy import playout
from .position import Position
from .position import legal_cards
from .position import play_known
from .position import tables_for
from .position import to_move


def determinize(pos: Position, rng: random.Random) -> Position:
    """A fully known layout drawn from a real position: the pool dealt at random to the
    covers (every assignment equally likely, as the rules make them)."""
    if not pos.pool:
        return pos
    pool = list(cards_of(pos.pool))
    rng.shuffle(pool)
    return replace(
        pos,
        under=pos.under + tuple(zip(cards_of(pos.covers), pool, strict=True)),
        covers=0,
        pool=0,
    )


def sampled_values(
    pos: Position,
    moves: Sequence[int],
    utility: Sequence[float],
    rng: random.Random,
    deadline: float,
    min_samples: int = 4,
    max_samples: int = 400,
    solve_at: int = 9,
    racing: bool = False,
    cap: float = math.inf,
) -> tuple[dict[int, float], int]:
    """The value (the taker's mean utility) of each of ``moves`` of the seat to move,
    over layouts sampled from ``pos``: a one-trick chance-aware search whose leaves are
    sampled layouts.

    Every move meets the same samples (common random numbers).  In each sampled layout,
    fully known, the position after the trick is solved exactly when ``solve_at`` tricks
    or fewer remain; earlier, both sides play :class:`Policy` until then and the rest is
    solved.  When the move is a lead, the opponent's answer is chosen on the *mean* over
    the samples, as the opponent, who does not see the face-down cards either, must
    choose it (not answer by answer in each layout, which would let it see them).

    With ``racing``, the samples race the moves: every four samples from the eighth,
    the answers the opponent is proved to like less than its best one and then the
    moves proved worse than the best one leave the race (:func:`race`), so that the
    later samples go to the moves still in doubt.  Sampling stops at ``max_samples``,
    at ``deadline`` (``time.perf_counter``) once ``min_samples`` are in, at ``cap``
    once one is in (a loaded machine), and when racing leaves one move.  Returns the
    values of the moves still in the race (every move without racing) and the number
    of samples.
    """
    t = tables_for(pos.rules)
    policy = Policy(t)
    mover = to_move(pos)
    sign = 1.0 if mover == pos.taker else -1.0
    below = flat_below(utility)
    # values[m][r]: the utility on each sample after the move m and the answer r (-1: the
    # move ends the trick), for the moves and answers still in the race.
    values: dict[int, dict[int, list[float]]] = {m: {} for m in moves}
    alive = list(moves)
    n = 0
    while n < max_samples:
        now = time.perf_counter()
        if n and (now >= cap or (n >= min_samples and now >= deadline)):
            break
        layout = determinize(pos, rng)
        solver = KnownSolver(t, dict(layout.under))
        bits = solver.under_bits
        for m in alive:
            per = values[m]
            # The answers still in the race (every legal answer on the first sample).
            answers = sum(1 << r for r in per if r >= 0) if n else -1
            for r, final in outcomes(
                layout, m, policy, bits, solver, solve_at, below, answers
            ).items():
                per.setdefault(r, []).append(utility[final])
        n += 1
        if racing and n >= max(min_samples, 8) and n % 4 == 0:
            alive = race(values, alive, sign)
            if len(alive) == 1:
                break
    out = {}
    for m in alive:
        samples = _answered(values[m], sign)
        out[m] = sum(samples) / n
    return out, n


def race(values: dict[int, dict[int, list[float]]], alive: list[int], sign: float) -> list[int]:
    """The moves of ``alive`` still in the race after dropping, from ``values`` (see
    :func:`sampled_values`), every answer the opponent is proved to like less than its
    best one and then every move proved worse than the best one (:func:`survivors`);
    the dropped answers are deleted from ``values``."""
    for m in alive:
        per = values[m]
        if len(per) > 1:
            keep = survivors({r: [-sign * x for x in v] for r, v in per.items()})
            for r in [r for r in per if r not in keep]:
                del per[r]
    keep = survivors({m: [sign * x for x in _answered(values[m], sign)] for m in alive})
    return [m for m in alive if m in keep]


def survivors(values: dict[int, list[float]], z: float = 3.0) -> set[int]:
    """The keys of ``values`` (samples, higher is better, the same samples for every
    key) not proved worse than the key with the best mean: worse by more than ``z``
    standard errors of the paired differences, or by the same margin on every sample."""
    best = max(values, key=lambda k: sum(values[k]))
    vb = values[best]
    n = len(vb)
    keep = {best}
    for k, vk in values.items():
        if k == best:
            continue
        diffs = [a - b for a, b in zip(vb, vk, strict=True)]
        mu = sum(diffs) / n
        var = sum((d - mu) ** 2 for d in diffs) / (n - 1)
        if mu > 0 and mu * mu * n > z * z * var:
            continue
        keep.add(k)
    return keep


def _answered(per_answer: dict[int, list[float]], sign: float) -> list[float]:
    """The samples of a move under the answer the opponent prefers on average (the
    lowest mean for the taker's opponent, the highest for the taker)."""
    return min(per_answer.values(), key=lambda v: sign * sum(v))


def outcomes(
    pos: Position,
    m: int,
    policy: Policy,
    bits: Sequence[int],
    solver: KnownSolver,
    solve_at: int,
    below: int = 0,
    answers: int = -1,
) -> dict[int, int]:
    """The taker's final card points after the seat to move plays ``m`` in a fully
    known position (a sampled layout): by the opponent's answer when ``m`` is a lead
    (those of its legal answers in the card set ``answers``; else under the key -1);
    the rest is solved exactly when ``solve_at`` tricks or fewer are left, and before
    that both sides play ``policy`` until then.  ``bits`` are ``solver.under_bits``.
    Final points below ``below`` need not be exact (:func:`flat_below`).  See
    :func:`sampled_values` (the expert) and the review, which both sample with it."""
    nxt = play_known(pos, m)
    replies = [-1] if pos.led is not None else list(cards_of(legal_cards(nxt) & answers))
    solved = pos.tricks_left <= solve_at
    out: dict[int, int] = {}
    for r in replies:
        after = nxt if r < 0 else play_known(nxt, r)
        if solved:
            out[r] = solve_known(after, solver, below)
        else:
            out[r] = _played_out(after, policy, bits, solver, solve_at, below)
    return out


def _played_out(
    pos: Position,
    policy: Policy,
    bits: Sequence[int],
    solver: KnownSolver,
    solve_at: int,
    below: int,
) -> int:
    """The taker's final card points of a fully known position between tricks: both
    play ``policy`` until ``solve_at`` tricks are left, the rest solved (see
    :func:`outcomes`)."""
    taker = pos.taker
    hid = 0
    for _, d in pos.under:
        hid |= 1 << d
    L = pos.leader
    R = pos.points_left
    flat = shift_flat((0, below - 1), pos.points[taker], R, taker == L)
    got = playout(policy, bits, pos.hands[L], pos.hands[1 - L], hid, L, R, solver, solve_at, flat)
    mine = got if taker == L else R - got
    return pos.points[taker] + mine
