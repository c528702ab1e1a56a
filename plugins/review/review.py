"""The review of a deal: what every decision was worth, from the deciding seat's view.

A review replays a deal record with the engine and, at each decision, values every legal
action from the :class:`~atout.core.views.View` of the seat that made it (never the
deal's state), with the solvers of the search library (:mod:`atout.plugins.search`):

* **Découverte, play**: the expected final score difference of each legal card for the
  seat that plays it (its deal score minus the opponent's, as :func:`.score_utility`
  counts it), the face-down cards still unseen being chance for both players.  Exact
  (the chance-aware :class:`.ChanceSolver`) always in the last :data:`EXACT_TRICKS`
  tricks, and earlier when few face-down cards are unseen and the search ends within
  the budget; else estimated on layouts sampled from the unseen face-down cards, each
  solved exactly once few tricks remain (played on by the fast :class:`.Policy` before
  that), with the sample count and a 95% interval that covers the sampling's noise and
  a measured bound of its bias (:data:`PLAY_BIAS`: the layouts are solved as if both
  players saw them).
* **Découverte, bidding**: each bid's value for the bidder, estimated on sampled layouts
  (both sides play the policy, the last tricks solved exactly), the two rounds of
  bidding solved as a small game on the means (a redeal is worth 0), as the expert bids.
* **Four-player, play**: two values per legal card: the *double-dummy* value (exact, all
  four hands known: what the card was worth had the seat seen every hand; this one
  alone reads the deal's true hands) and the *single-dummy* estimate from the seat's
  information (hands sampled consistent with its view and the play so far, as the
  expert samples them, each solved by the double-dummy solver; in the first two tricks
  three tricks deep with the solver's estimate beyond).  Values are the deal's score
  difference for the seat's team (:func:`.deal_utility`).
* **Four-player, bidding**: each bid made on layouts of the cards the bidder has not
  seen, the bidding carried on as the expert bids, the contract reached valued by the
  double-dummy solver two tricks deep with its estimate beyond (a redeal is worth 0).
* **La Coinche, bidding** (four players, and two on Découverte's piles): each legal bid
  (some forty: values, strains, capot, contre, surcontre) made on the same layouts of
  the cards the bidder has not seen (four players, :func:`.auction_deal` as the expert
  draws them; two, the face-down cards), the auction carried on by the greedy bot, the
  contract reached scored by the game's own scoring at its value and level (no
  contract: 0); each taker and strain played once a layout (four players, double dummy
  two tricks deep with the capot searched to the end, :func:`.strain_points`; two, the
  policy with the last six tricks solved, :func:`.contract_points`).

The loss of an action is the best value less the value of the action taken (zero for a
forced action).  A loss estimated by sampling is reported only when it is proved: every
action is valued on the same samples, the loss is cross-fitted (the best action picked
on one half of the samples, its difference with the action taken measured on the other:
:func:`paired_loss`) and counts when the 95% interval of these paired differences lies
above zero (with at least :data:`PROOF_SAMPLES` samples); otherwise the decision is
*within noise* and reports no loss (its raw
estimate and interval are kept).  The :class:`Summary` adds the points each side lost, the biggest
mistakes, and where the contract was decided: the first card after which its outcome,
with best play from there (double-dummy in four-player Belote; in Découverte exact over
the face-down cards, or certain from the points already won), stayed what it finally was.

A review runs as a generator (:meth:`DealReview.decisions`): a front end runs it on a
worker thread, shows each :class:`Decision` as it comes (progress), and stops it by
closing the generator or through the ``cancel`` callable, which the sampling loops read
too (:class:`ReviewCancelled`).  With ``ReviewOptions(samples=N)`` every decision draws a
fixed number of samples from a random source seeded by the decision's number; with
``exact_budget=0`` too (the exact searches run to their end) the review is reproducible.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from atout.core import Contract
from atout.core import Engine
from atout.core.cards import FULL_DECK
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.engine import Deal
from atout.core.errors import AtoutError
from atout.core.errors import RecordError
from atout.core.model import Action
from atout.core.model import Layout
from atout.core.records import deal_from_record
from atout.core.records import iter_record_deals
from atout.core.state import DealState
from atout.core.views import View

from ..bots.basic import GreedyBot
from ..bots.basic import team_of
from ..bots.belote_expert import AUCTION_KINDS
from ..bots.belote_expert import HORIZONS
from ..bots.belote_expert import auction_deal
from ..bots.belote_expert import deal_declarations
from ..bots.belote_expert import deal_utility
from ..bots.belote_expert import read_auction
from ..bots.belote_expert import read_play
from ..bots.belote_expert import sample_hands
from ..bots.belote_expert import strain_points
from ..bots.decouverte_expert import DecouverteExpert
from ..bots.decouverte_expert import contract_points
from ..bots.decouverte_expert import known_declarations
from ..bots.decouverte_expert import position_from_view
from ..bots.decouverte_expert import read_piles
from ..search.belote_dd import BeloteDD
from ..search.declared import belote_points
from ..search.declared import declaration_points
from ..search.declared import layout_declarations
from ..search.declared import unseen_belote
from ..search.decouverte import CACHE_LIMIT
from ..search.decouverte import ChanceSolver
from ..search.decouverte import DealRules
from ..search.decouverte import KnownSolver
from ..search.decouverte import Policy
from ..search.decouverte import Position
from ..search.decouverte import Tables
from ..search.decouverte import determinize
from ..search.decouverte import flat_below
from ..search.decouverte import legal_cards
from ..search.decouverte import outcomes
from ..search.decouverte import score_utility
from ..search.decouverte import tables_for
from ..search.decouverte import to_move
from ..search.rules import DealPoints
from ..search.rules import SearchTimeout
from ..search.rules import deal_outcome
from ..search.stats import BiasBound
from ..search.stats import halves_interval
from ..search.stats import interval
from ..search.stats import widened

BID_HORIZON = 6
"""The four-player bidding's solves stop at trick starts where each hand holds this many
cards or fewer (two tricks searched, the solver's estimate beyond)."""

PROOF_SAMPLES = 10
"""The fewest samples that may prove a sampled loss: a value often swings between two
outcomes (the contract made or failed, 160 points apart), and fewer samples miss a
one-in-five failure too often (a quarter of the time with six) for their interval to
be trusted."""

EXACT_TRICKS = 7
"""With this many tricks left or fewer, every Découverte card is valued exactly by the
chance-aware search, whatever the number of face-down cards still unseen, and the search
runs to its end (no time limit: at most about a second, with six unseen cards)."""

PLAY_BIAS = BiasBound(floor=12.0, scale=0.25)
"""How far the sampled value of a Découverte card may be from its exact value
(:func:`sampled_play` solves each layout as if both players saw it, which they do not):
its 95% interval is widened by this much on each side.  Measured on some 500 positions
with eight and nine tricks left where both are known: the intervals of the samples
alone held the exact value 85 to 92% of the time, widened 97 to 99% (12 to 40 samples;
docs/experiments.md, ``tests/test_review_intervals.py``)."""

PLAY_LOSS_BIAS = BiasBound(floor=8.0, scale=0.2)
"""The same for the loss of the card taken (:func:`paired_loss`), of the widest spread
among the cards' samples: its interval held the exact loss 80 to 90% of the time,
widened 97 to 99%."""

EXACT = "exact"
SAMPLED = "sampled"
FORCED = "forced"
UNVALUED = "unvalued"


Estimate = float | list[float]
"""An action's value: exact (a number), or its values on the samples (shared by every
action of the decision, so that differences are paired)."""


class ReviewCancelled(Exception):
    """Raised inside a review when its ``cancel`` callable says stop."""


@dataclass(frozen=True)
class ReviewOptions:
    """How hard a review works.

    ``budget``: CPU seconds of sampling per decision (``time.process_time``, read
    between samples: the same work on a loaded machine as on an idle one);
    ``exact_budget``: wall-clock seconds a Découverte exact search may take before it
    gives way to sampling (the solvers' deadline; 0: no limit, for reproducible reviews
    of small positions);
    ``samples``: a fixed number of samples per decision instead of the clock
    (reproducible); ``min_samples``/``max_samples`` bound the timed sampling; ``seed``
    seeds every decision's random source (with the decision's number).
    """

    budget: float = 0.25
    exact_budget: float = 0.6
    samples: int | None = None
    min_samples: int = 12
    max_samples: int = 300
    seed: int = 0


DEFAULT_OPTIONS = ReviewOptions()
"""The options of a review given none (the terminal's ``review``, the bench)."""


@dataclass(frozen=True)
class Valued:
    """One legal action and what it is worth to the deciding seat.

    ``value``: the expected final score difference (the seat's side minus the other) if
    this action is taken and both sides play on well (``None``: not valued); ``low`` and
    ``high``: its 95% interval when estimated by sampling; ``dd``: four-player only, its
    double-dummy value (every hand known)."""

    action: str
    value: float | None
    low: float | None = None
    high: float | None = None
    dd: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form (``docs/review.md``)."""
        out: dict[str, Any] = {"action": self.action, "value": _round(self.value)}
        if self.low is not None and self.high is not None:
            out["interval"] = [_round(self.low), _round(self.high)]
        if self.dd is not None:
            out["dd"] = _round(self.dd)
        return out


@dataclass(frozen=True)
class Decision:
    """One decision of the deal, reviewed from the deciding seat's view.

    ``step`` is the action's number in the deal (1 = the first bid); ``trick`` the trick
    it belongs to (0 in the bidding); ``legal`` every legal action with its value;
    ``method`` how the values were found (``exact``, ``sampled``, ``forced``: a single
    legal action, ``unvalued``); ``best`` names the best action (the highest value; ties:
    the action taken).  ``loss`` is the loss *reported*: exact, the best value less the
    value of ``action``; sampled, the cross-fitted estimate ``raw_loss``
    (:func:`paired_loss`) when ``best`` is not the action taken, at least
    :data:`PROOF_SAMPLES` samples were drawn and the 95% interval of its paired
    differences, ``loss_interval``, lies above zero, else 0 (when ``best`` is
    another action, ``within_noise`` says that the loss estimated was not proved);
    ``dd_loss``/``dd_best`` the loss and best card by double dummy (four-player play).  ``settled`` is the contract's outcome (``"made"``,
    ``"failed"``) when it was proved certain, with best play, right after this action;
    ``None`` when it was not (or not proved)."""

    deal: int
    step: int
    seat: int
    phase: str
    trick: int
    action: str
    legal: tuple[Valued, ...]
    method: str
    samples: int = 0
    loss: float = 0.0
    loss_interval: tuple[float, float] | None = None
    raw_loss: float | None = None
    within_noise: bool = False
    best: str | None = None
    dd_loss: float | None = None
    dd_best: str | None = None
    settled: str | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The JSON form: one line of ``atout review --json`` (``docs/review.md``)."""
        out: dict[str, Any] = {
            "deal": self.deal,
            "step": self.step,
            "seat": self.seat,
            "phase": self.phase,
            "trick": self.trick,
            "legal": [v.to_json() for v in self.legal],
            "action": self.action,
            "best": self.best,
            "loss": _round(self.loss),
            "loss_interval": (
                [_round(x) for x in self.loss_interval] if self.loss_interval is not None else None
            ),
            "raw_loss": _round(self.raw_loss),
            "within_noise": self.within_noise,
            "method": self.method,
            "exact": self.method in (EXACT, FORCED),
            "samples": self.samples,
        }
        if self.dd_loss is not None:
            out["dd_loss"] = _round(self.dd_loss)
            out["dd_best"] = self.dd_best
        out["settled"] = self.settled
        return out


@dataclass(frozen=True)
class Summary:
    """The deal as a whole: its score, the points each side lost by its decisions (the
    losses reported, :class:`Decision`: by the seat's information; four-player also by
    double dummy), the biggest mistakes, and the decision whose action decided the
    contract (see :class:`DealReview`)."""

    deal: int
    game: str
    taker: int | None
    outcome: str | None
    score: tuple[int, ...] | None
    lost: tuple[float, ...]
    dd_lost: tuple[float, ...] | None
    mistakes: tuple[Decision, ...]
    decided: Decision | None
    decisions: int
    seconds: float
    within_noise: int = 0
    """How many sampled decisions had another action valued higher than the one taken
    by a margin within noise (reported as no loss)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the last line of ``atout review --json``."""
        out: dict[str, Any] = {
            "summary": True,
            "deal": self.deal,
            "game": self.game,
            "taker": self.taker,
            "outcome": self.outcome,
            "score": list(self.score) if self.score is not None else None,
            "lost": [_round(x) for x in self.lost],
            "mistakes": [
                {
                    "step": d.step,
                    "seat": d.seat,
                    "trick": d.trick,
                    "action": d.action,
                    "best": d.best,
                    "loss": _round(d.loss),
                }
                for d in self.mistakes
            ],
            "decided": (
                {
                    "step": self.decided.step,
                    "seat": self.decided.seat,
                    "trick": self.decided.trick,
                    "action": self.decided.action,
                    "outcome": self.decided.settled,
                }
                if self.decided is not None
                else None
            ),
            "decisions": self.decisions,
            "within_noise": self.within_noise,
            "seconds": round(self.seconds, 3),
        }
        if self.dd_lost is not None:
            out["dd_lost"] = [_round(x) for x in self.dd_lost]
        return out


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def paired_loss(
    values: dict[str, list[float]], action: str
) -> tuple[float, tuple[float, float] | None]:
    """The loss of ``action`` estimated without the bias of a best picked on the same
    samples, and its 95% interval (``None`` for fewer than two samples).

    ``values`` holds every action's values on the same samples (paired).  The best of
    the means of noisy values is biased upward (even among equal actions one looks
    best), so the loss is *cross-fitted*: the samples are split in two halves (even and
    odd), the best action is picked on one half (ties: the action taken) and its paired
    difference with ``action`` measured on the other half, each way; the loss is the
    mean of these differences, an unbiased estimate that may be negative, and its
    interval is theirs (:func:`~atout.plugins.search.stats.halves_interval`).  When both
    halves pick the same action (a clear best) this is that action's paired difference
    over all the samples."""
    taken = values[action]
    n = len(taken)
    if n < 2:
        top = max(values, key=lambda a: (values[a][0] if n else 0.0, a == action))
        return ((values[top][0] - taken[0]) if n else 0.0), None
    halves = (range(0, n, 2), range(1, n, 2))

    def pick(half: range) -> str:
        sums = {a: sum(v[i] for i in half) for a, v in values.items()}
        return max(sums, key=lambda a: (sums[a], a == action))

    diffs = [0.0] * n
    for chosen_on, measured_on in ((halves[0], halves[1]), (halves[1], halves[0])):
        best = values[pick(chosen_on)]
        for i in measured_on:
            diffs[i] = best[i] - taken[i]
    mean, low, high = halves_interval(diffs, halves)
    return mean, (low, high)


# --- reading a record ------------------------------------------------------------------


def record_deals(
    engine: Engine, data: dict[str, Any], source: str = "record"
) -> list[dict[str, Any]]:
    """The deal records of a deal or match record, each checked by replaying the whole
    record with the engine (:class:`~atout.core.errors.RecordError` on any problem)."""
    list(iter_record_deals(engine, data, source))
    if data.get("format") == "atout-match":
        deals = data.get("deals")
        assert isinstance(deals, list)
        return [d for d in deals if isinstance(d, dict)]
    return [data]


def choose_deal(
    engine: Engine, data: dict[str, Any], number: int | None, source: str = "record"
) -> tuple[int, dict[str, Any]]:
    """The deal to review: the ``number``-th (from 1) of the record, or its last deal
    with an action when ``number`` is ``None``."""
    deals = record_deals(engine, data, source)
    if number is None:
        played = [i for i, d in enumerate(deals, start=1) if d.get("actions")]
        number = played[-1] if played else len(deals)
    if not 1 <= number <= len(deals):
        raise RecordError(f"{source}: no deal {number} (the record holds {len(deals)})")
    return number, deals[number - 1]


# --- the review ---------------------------------------------------------------------------


class _Rounds:
    """The sampling rounds of one decision: the number of samples the options fix, else
    as many as the CPU budget allows (at least ``min_samples``, at most
    ``max_samples``).  ``check`` runs before each round (a cancel); ``done`` counts the
    rounds begun."""

    def __init__(self, options: ReviewOptions, check: Callable[[], None]) -> None:
        fixed = options.samples
        self.fixed = fixed is not None
        self.limit = fixed if fixed is not None else options.max_samples
        self.least = fixed if fixed is not None else options.min_samples
        self.deadline = time.process_time() + options.budget
        self.check = check
        self.done = 0

    def __iter__(self) -> _Rounds:
        return self

    def __next__(self) -> int:
        n = self.done
        if n >= self.limit or (
            n >= self.least and (self.fixed or time.process_time() >= self.deadline)
        ):
            raise StopIteration
        self.check()
        self.done = n + 1
        return n


@dataclass
class DealReview:
    """The review of one deal record (a deal record, or one deal of a match record).

    ``engine`` replays it and compiles its rules; ``seats`` (default: every seat) are the
    seats whose decisions are valued (the others are replayed only); ``cancel`` is asked
    between samples and decisions.  Iterate :meth:`decisions`, then read
    :meth:`summary`.
    """

    engine: Engine
    record: dict[str, Any]
    options: ReviewOptions = field(default_factory=lambda: DEFAULT_OPTIONS)
    seats: frozenset[int] | None = None
    number: int = 1
    source: str = "record"
    cancel: Callable[[], bool] | None = None
    reviewed: list[Decision] = field(default_factory=list)
    final: Deal | None = None
    _dd: dict[tuple[int, int, int | None, str], BeloteDD] = field(default_factory=dict)
    _sd: dict[tuple[int, int, int | None, str, int], BeloteDD] = field(default_factory=dict)
    _chance: dict[tuple[DealRules, int, tuple[float, ...]], ChanceSolver] = field(
        default_factory=dict
    )
    _clock: float = 0.0

    @property
    def total(self) -> int:
        """How many decisions :meth:`decisions` yields (a progress bar's end)."""
        actions = self.record.get("actions") or []
        return sum(
            1
            for a in actions
            if isinstance(a, dict) and (self.seats is None or a.get("seat") in self.seats)
        )

    def _check(self) -> None:
        if self.cancel is not None and self.cancel():
            raise ReviewCancelled

    def _rounds(self) -> _Rounds:
        """The sampling rounds of one decision (see :class:`_Rounds`)."""
        return _Rounds(self.options, self._check)

    def decisions(self) -> Iterator[Decision]:
        """Replay the deal and yield each reviewed decision as soon as it is valued."""
        start = time.process_time()
        stripped = dict(self.record)
        stripped["actions"] = []
        stripped.pop("result", None)
        deal = deal_from_record(self.engine, stripped, self.source)
        full = deal_from_record(self.engine, self.record, self.source)
        self.reviewed = []
        for step, (seat, action) in enumerate(full.actions, start=1):
            self._check()
            if self.seats is None or seat in self.seats:
                t0 = time.process_time()
                d = self._decide(deal, step, seat, action)
                d = _with_seconds(d, time.process_time() - t0)
                self.reviewed.append(d)
                yield d
            deal.apply(action)
        self.final = deal
        self._clock = time.process_time() - start

    def run(self) -> Summary:
        """Review every decision at once; the summary."""
        for _ in self.decisions():
            pass
        return self.summary()

    def _rng(self, step: int) -> random.Random:
        return random.Random(f"{self.options.seed}:{self.number}:{step}")

    def _decide(self, deal: Deal, step: int, seat: int, action: Action) -> Decision:
        view = deal.view(seat)
        phase = view.phase
        trick = len(view.tricks) + 1 if phase == "play" else 0
        base = Decision(self.number, step, seat, phase, trick, str(action), (), UNVALUED)
        try:
            return self._value(deal, view, base, action)
        except (AtoutError, ValueError, KeyError, IndexError):
            # A view the solvers do not model (a plugin's game, a rule they cannot read):
            # the decision is listed, not valued.
            return base

    def _value(self, deal: Deal, view: View, base: Decision, action: Action) -> Decision:
        legal = view.legal_actions()
        phase = view.phase
        if action.kind == "claim" or not legal:
            return base
        if len(legal) == 1:
            if phase == "play" and view.seats == 4:
                return self._belote_play(deal, view, base, action, forced=True)
            d = _forced(base, legal[0])
            if phase == "play":
                return _settled(d, self._decouverte_settled(view, action.value))
            return d
        if phase == "bidding" and self._by_values(view):
            return self._auction_bid(view, base)
        if view.game == "decouverte" or view.seats == 2:
            if phase == "bidding":
                return self._decouverte_bid(view, base, action)
            return self._decouverte_play(view, base, action)
        if phase == "play":
            return self._belote_play(deal, view, base, action)
        return self._belote_bid(view, base)

    # --- Découverte ----------------------------------------------------------------------

    def _decouverte_play(self, view: View, base: Decision, action: Action) -> Decision:
        pos = position_from_view(view, self.engine)
        legal = view.legal & legal_cards(pos)
        total = pos.rules.cards.total
        utility = score_utility(total, view.rules, *known_declarations(view), engine=self.engine)
        played = action.value
        values: dict[int, Estimate] | None = None
        if exact_feasible(pos):
            solver = self._chance_solver(pos, utility)
            try:
                exact = solver.move_values(pos, window=False)
            except SearchTimeout:
                exact = None
            if exact is not None:
                values = {c: exact[c] for c in cards_of(legal)}
        settled = self._decouverte_settled(view, played)
        if values is None:
            rng = self._rng(base.step)
            return estimate_play(base, pos, legal, utility, rng, self._rounds(), settled)
        return _finish(base, {card_str(c): v for c, v in values.items()}, EXACT, 0, settled)

    def _chance_solver(self, pos: Position, utility: Sequence[float]) -> ChanceSolver:
        """The exact chance-aware solver of ``pos`` maximising ``utility``, its deadline
        set: none with :data:`EXACT_TRICKS` tricks left or fewer (the value must be
        exact), else the options' ``exact_budget``.

        One solver serves every decision of the deal with the same rules, taker and
        utility, its table of positions kept: the positions a decision searched come
        back at the next ones.  Its covers are those of the first decision it served:
        a cover stays one until it is played, so a later position's covers are those
        same cards still in play (checked; else a new solver)."""
        key = (pos.rules, pos.taker, tuple(utility))
        solver = self._chance.get(key)
        in_play = pos.hands[0] | pos.hands[1] | (1 << pos.led if pos.led is not None else 0)
        if solver is None or solver.covers & in_play != pos.covers or len(solver.tt) > CACHE_LIMIT:
            solver = ChanceSolver(tables_for(pos.rules), pos.covers, pos.taker, utility)
            self._chance[key] = solver
        budget = self.options.exact_budget
        late = pos.tricks_left <= EXACT_TRICKS
        solver.deadline.set(time.perf_counter() + budget if budget > 0 and not late else 0.0)
        return solver

    def _decouverte_settled(self, view: View, played: int) -> str | None:
        """The contract's outcome when it is certain right after ``played``, with best
        play by the side it favours from there: ``"made"``, ``"failed"`` or ``None`` (not
        certain, or not proved within the budget).  Certain from the points already won,
        or by the exact chance-aware search of the outcome itself (the taker maximising
        the probability of making it, the opponent minimising it: certain when that
        probability is 1 or 0)."""
        if view.contract is None:
            return None
        try:
            pos = position_from_view(view, self.engine)
        except ValueError:
            return None
        if pos.led is not None and pos.tricks_left == 1:
            return None  # the last card: the deal's score says it (see the summary)
        total = pos.rules.cards.total
        taker = pos.taker
        if 2 * pos.points[taker] > total:
            return "made"
        if 2 * pos.points[1 - taker] >= total:
            return "failed"
        if not exact_feasible(pos) or pos.tricks_left > EXACT_TRICKS:
            return None
        made = [1.0 if 2 * x > total else 0.0 for x in range(total + 1)]
        solver = self._chance_solver(pos, made)
        if not legal_cards(pos) >> played & 1:
            return None
        # Only the card played, and only whether its probability is 0 or 1: one search
        # within (eps, 1 - eps), whose fail-soft result proves either bound.
        eps = 1e-9
        sign = 1.0 if to_move(pos) == taker else -1.0
        a, b = sorted((sign * eps, sign * (1.0 - eps)))
        try:
            p = sign * solver.card_value(pos, played, a, b)
        except SearchTimeout:
            return None
        if p >= 1.0 - eps:
            return "made"
        if p <= eps:
            return "failed"
        return None

    def _decouverte_bid(self, view: View, base: Decision, action: Action) -> Decision:
        if view.turnup is None:
            return base
        hands, covers, _ = read_piles(view)
        pool = FULL_DECK & ~hands[0] & ~hands[1]
        proposed = view.turnup >> 3
        legal = list(view.legal_bids)
        contracts: dict[tuple[int, int | str], DealRules] = {
            (taker, trump): DealRules.of(
                self.engine, view.rules, Contract(taker, trump, SUITS[trump])
            )
            for taker in (0, 1)
            for trump in range(4)
        }
        others = [b for b in legal if b not in ("take", "pass") and b not in SUITS]
        if others:
            asker = DecouverteExpert(view.rules, engine=self.engine)
            for bid in others:
                for s in (0, 1):
                    contract = asker.contract_of(view, s, bid)
                    if contract is not None:
                        contracts[s, bid] = DealRules.of(self.engine, view.rules, contract)
        start = Position(
            rules=contracts[0, proposed],
            taker=0,
            leader=1 - view.dealer,
            hands=(hands[0], hands[1]),
            covers=covers,
            pool=pool,
        )
        vec = self._contract_samples(start, contracts, self._rng(base.step))
        n = len(next(iter(vec.values())))
        zero = [0.0] * n
        first = 1 - view.dealer
        Key = Callable[[Sequence[float]], float]

        def seat_of(i: int) -> int:
            return first if i % 2 == 0 else 1 - first

        def take_vec(i: int, key: Key) -> list[float]:
            seat = seat_of(i)
            own = [vec[seat, b] for b in others if (seat, b) in vec]
            if i < 2:
                options = [vec[seat, proposed], *own]
            else:
                options = [vec[seat, s] for s in range(4) if s != proposed] + own
            return max(options, key=key)

        def pass_vec(i: int, key: Key) -> list[float]:
            # After the fourth pass the deal is redealt: worth nothing to either.
            return zero if i >= 3 else [-x for x in best_vec(i + 1, key)]

        def best_vec(i: int, key: Key) -> list[float]:
            return max(take_vec(i, key), pass_vec(i, key), key=key)

        def on(half: range) -> Key:
            return lambda v: sum(v[j] for j in half)

        def pass_value(i: int) -> list[float]:
            """Passing's values, the later bids chosen on one half of the samples and
            valued on the other, each way: a choice made on the samples it is valued
            on picks the luckiest option and makes passing look worse than it is."""
            if n < 2:
                return pass_vec(i, on(range(n)))
            out = [0.0] * n
            halves = (range(0, n, 2), range(1, n, 2))
            for chosen_on, valued_on in ((halves[0], halves[1]), (halves[1], halves[0])):
                v = pass_vec(i, on(chosen_on))
                for j in valued_on:
                    out[j] = v[j]
            return out

        k = len(view.bids)
        seat = view.seat
        values: dict[str, Estimate] = {}
        for bid in legal:
            if bid == "take":
                v = vec[seat, proposed]
            elif bid == "pass":
                v = pass_value(k)
            elif bid in SUITS:
                v = vec[seat, SUITS.index(bid)]
            elif (seat, bid) in vec:
                v = vec[seat, bid]
            else:
                continue
            values[bid] = v
        return _finish(base, values, SAMPLED, n, None)

    def _contract_samples(
        self,
        start: Position,
        contracts: dict[tuple[int, int | str], DealRules],
        rng: random.Random,
    ) -> dict[tuple[int, int | str], list[float]]:
        """Per contract, the taker's score difference on each sampled layout (both sides
        play the policy; the last six tricks are solved exactly).  Every contract meets
        the same layouts."""
        out: dict[tuple[int, int | str], list[float]] = {k: [] for k in contracts}
        tables: dict[int, list[float]] = {}  # one scoring: the view's rules
        for _ in self._rounds():
            layout = determinize(start, rng)
            for key, (mine, total) in contract_points(layout, contracts, 6).items():
                table = tables.get(total)
                if table is None:
                    table = tables[total] = score_utility(
                        total, contracts[key].rules, engine=self.engine
                    )
                out[key].append(table[mine])
        return out

    # --- an auction by values (La Coinche) -------------------------------------------------

    def _by_values(self, view: View) -> bool:
        """Whether the bidding of ``view`` is an auction by values (La Coinche, for four
        or two): no card proposed, and bids the game describes as contracts with a
        value, *contre* or *surcontre* (hook ``atout_describe_bid``), as the bots tell
        it."""
        return view.turnup is None and any(
            self.engine.describe_bid(view.game, view.rules, b).kind in AUCTION_KINDS
            for b in view.legal_bids
        )

    def _auction_bid(self, view: View, base: Decision) -> Decision:
        """Each legal bid of an auction by values, valued for the bidder's side on
        layouts of the cards it has not seen, every bid on the same layouts (paired).

        Four players: the other hands dealt as the expert deals them
        (:func:`.auction_deal`: consistent with the view and the other seats' bids,
        :func:`.bidders_fit`).  Two (Découverte Coinche): the face-down cards dealt
        to the covers (:func:`.determinize`).  On each layout the bid is made, the
        auction carried on by the greedy bot for every seat (the bidder later too,
        :meth:`.GreedyBot.bid`), and the contract reached valued by the game's own
        scoring at its value and level (doubled, redoubled, capot; no contract: 0).
        The play of each contract's taker and strain is valued once a layout, whatever
        the bids that reach it: four players, double dummy to :data:`BID_HORIZON` cards
        a hand with the solver's estimate beyond, searched to the end near a capot
        (:func:`.strain_points`); two, both sides playing the policy with the last six
        tricks solved exactly (:func:`.contract_points`), as the experts bid."""
        legal = list(view.legal_bids)
        rng = self._rng(base.step)
        bidder = GreedyBot(0, self.engine)
        if view.seats == 4 and view.teams == 2:
            sample = self._auction_layout_four(view, rng)
        elif view.seats == 2 and len(view.piles) == 2:
            sample = self._auction_layout_two(view, rng)
        else:
            return base
        per: dict[str, list[float]] = {b: [] for b in legal}
        rounds = self._rounds()
        for _ in rounds:
            layout, value_of = sample()
            played: dict[tuple[int, str], Callable[[Contract], float]] = {}
            for bid in legal:
                contract = self._auction_end(view, layout, bid, bidder)
                if contract is None:
                    per[bid].append(0.0)  # no contract: the deal is dealt again
                    continue
                key = (contract.taker, contract.name)
                score = played.get(key)
                if score is None:
                    score = played[key] = value_of(contract)
                per[bid].append(score(contract))
        return _finish(base, dict(per), SAMPLED, rounds.done, None)

    def _auction_end(
        self, view: View, layout: Layout, bid: str, bidder: GreedyBot
    ) -> Contract | None:
        """The contract the auction of ``view`` reaches on the sampled ``layout`` when
        the bidder makes ``bid`` and every seat bids on as ``bidder`` does (the engine
        judges every bid); ``None`` when it ends with none."""
        state = DealState(
            view.game, view.rules, view.seats, view.teams, view.dealer, layout, view.direction
        )
        deal = self.engine.deal_from_state(state)
        for _, said in view.bids:
            deal.bid(said)
        deal.bid(bid)
        while deal.phase == "bidding":
            deal.bid(bidder.bid(deal.view(deal.turn)))
        return deal.state.contract if deal.phase == "play" else None

    def _auction_layout_four(
        self, view: View, rng: random.Random
    ) -> Callable[[], tuple[Layout, Callable[[Contract], Callable[[Contract], float]]]]:
        """Four players: a sampler of layouts (:func:`.auction_deal`), each with the
        valuing of a contract's play on it (see :meth:`_auction_bid`)."""
        team = team_of(view, view.seat)
        leader = (view.dealer + view.direction) % view.seats
        deadline = self.options.samples is None

        def sample() -> tuple[Layout, Callable[[Contract], Callable[[Contract], float]]]:
            hands = auction_deal(view, rng, self.engine)
            limit = time.perf_counter() + self.options.budget if deadline else None

            def value_of(play: Contract) -> Callable[[Contract], float]:
                solver = self._horizon_solver(view, play, BID_HORIZON)
                points, _ = strain_points(solver, hands, leader, team, limit)
                if len(solver.tt) > 400_000:
                    solver.clear()
                decl, belote = deal_declarations(self.engine, view, play, hands)
                end = DealPoints(points, decl, solver.rules.total, belote)
                takers = team_of(view, play.taker)

                def score(contract: Contract) -> float:
                    return deal_outcome(
                        view.rules, view.game, team, takers, end, self.engine, contract
                    )[1]

                return score

            return Layout(hands=tuple(hands)), value_of

        return sample

    def _auction_layout_two(
        self, view: View, rng: random.Random
    ) -> Callable[[], tuple[Layout, Callable[[Contract], Callable[[Contract], float]]]]:
        """Two players (Découverte Coinche): a sampler of layouts of the face-down cards
        (:func:`.determinize`), each with the valuing of a contract's play on it (see
        :meth:`_auction_bid`)."""
        hands, covers, _ = read_piles(view)
        start = Position(
            rules=DealRules.of(self.engine, view.rules, Contract(0, 0, SUITS[0])),
            taker=0,
            leader=1 - view.dealer,
            hands=(hands[0], hands[1]),
            covers=covers,
            pool=FULL_DECK & ~hands[0] & ~hands[1],
        )
        utilities: dict[tuple[int, int | None, int], list[float]] = {}

        def sample() -> tuple[Layout, Callable[[Contract], Callable[[Contract], float]]]:
            position = determinize(start, rng)
            under = dict(position.under)
            layout = Layout(
                hands=(hands[0], hands[1]),
                piles=tuple(
                    tuple(
                        (p.top, under[p.top] if p.covered and p.top is not None else None)
                        for p in row
                    )
                    for row in view.piles
                ),
            )

            def value_of(play: Contract) -> Callable[[Contract], float]:
                rules = DealRules.of(self.engine, view.rules, play)
                mine, total = contract_points(position, {0: rules}, 6)[0]
                sign = 1.0 if play.taker == view.seat else -1.0

                def score(contract: Contract) -> float:
                    key = (total, contract.value, contract.level)
                    table = utilities.get(key)
                    if table is None:
                        table = utilities[key] = score_utility(
                            total, view.rules, engine=self.engine, contract=contract
                        )
                    return sign * table[mine]

                return score

            return layout, value_of

        return sample

    # --- four-player ---------------------------------------------------------------------

    def _belote_play(
        self, deal: Deal, view: View, base: Decision, action: Action, forced: bool = False
    ) -> Decision:
        contract = view.contract
        if contract is None or view.seats != 4 or view.teams != 2:
            return base
        team = team_of(view, view.seat)
        decl = declaration_points(view)
        belote = belote_points(view)
        trick = tuple(c for _, c in view.trick)
        leader = view.trick[0][0] if view.trick else view.seat
        past = view.points[team]
        dd_solver = self._dd_solver(view, contract)
        total = dd_solver.rules.total
        moves = list(cards_of(view.legal))
        played = action.value
        # Double dummy: the one place that reads the deal's true hands.
        hands = list(deal.state.hands)
        dd_points = dd_solver.move_values(hands, leader, trick, moves, team)
        if len(dd_solver.tt) > 400_000:
            dd_solver.clear()
        true_decl, true_belote = layout_declarations(view, hands, decl, belote)
        dd = {
            c: deal_utility(view, DealPoints(past + v, true_decl, total, true_belote), self.engine)
            for c, v in dd_points.items()
        }
        settled = _belote_outcome(
            view, DealPoints(past + dd_points[played], true_decl, total, true_belote), self.engine
        )
        if forced:
            d = _forced(base, Action.play(played))
            return Decision(
                **{
                    **_fields(d),
                    "legal": (Valued(card_str(played), None, dd=dd[played]),),
                    "dd_loss": 0.0,
                    "dd_best": card_str(played),
                    "settled": settled,
                }
            )
        sd, n, method = self._single_dummy(
            view, moves, leader, trick, team, past, (decl, belote), total, base.step
        )
        values = {card_str(c): sd[c] for c in moves}
        d = _finish(base, values, method, n, settled)
        best_dd = max(moves, key=lambda c: (dd[c], c == played))
        legal_v = tuple(
            Valued(v.action, v.value, v.low, v.high, dd=dd[_card_of(v.action, moves)])
            for v in d.legal
        )
        return Decision(
            **{
                **_fields(d),
                "legal": legal_v,
                "dd_loss": dd[best_dd] - dd[played],
                "dd_best": card_str(best_dd),
            }
        )

    def _belote_bid(self, view: View, base: Decision) -> Decision:
        """Each legal bid's value for the bidder's team, on layouts of the cards it has
        not seen dealt at random (its own five cards and the turn-up kept): the bid is
        made on the sampled deal, the other seats (and the bidder later) bid on as the
        expert does (:meth:`.GreedyBot.bid`), and the contract reached is valued by the
        double-dummy solver searching the first tricks (:data:`BID_HORIZON`) with its
        estimate beyond; a redeal is worth 0.  Every bid meets the same layouts."""
        if view.turnup is None:
            return base
        rng = self._rng(base.step)
        prior = list(self.record.get("actions", []))[: base.step - 1]
        skeleton = {k: v for k, v in self.record.items() if k not in ("actions", "result", "start")}
        sizes = [len(h) for h in self.record["layout"]["hands"]]
        stock_size = len(self.record["layout"].get("stock", []))
        unseen = [c for c in cards_of(FULL_DECK & ~view.hand & ~(1 << view.turnup))]
        bidder = GreedyBot(0, self.engine)
        per: dict[str, list[float]] = {b: [] for b in view.legal_bids}
        rounds = self._rounds()
        for _ in rounds:
            rng.shuffle(unseen)
            rest = iter(unseen)
            hands = [
                cards_of(view.hand) if s == view.seat else [next(rest) for _ in range(sizes[s])]
                for s in range(view.seats)
            ]
            stock = [view.turnup] + [next(rest) for _ in range(stock_size - 1)]
            layout = {
                "hands": [[card_str(c) for c in h] for h in hands],
                "stock": [card_str(c) for c in stock],
                "turnup": card_str(view.turnup),
            }
            for bid in per:
                record = {
                    **skeleton,
                    "layout": layout,
                    "actions": [*prior, {"seat": view.seat, "bid": bid}],
                }
                per[bid].append(self._bid_outcome(record, view.seat, bidder))
        return _finish(base, dict(per), SAMPLED, rounds.done, None)

    def _bid_outcome(self, record: dict[str, Any], seat: int, bidder: GreedyBot) -> float:
        """The score difference for ``seat``'s team of a sampled deal bid on from
        ``record`` by ``bidder`` and played double dummy (the first tricks searched)."""
        deal = deal_from_record(self.engine, record, self.source)
        while deal.phase == "bidding":
            deal.apply(Action.bid(bidder.bid(deal.view(deal.turn))))
        contract = deal.state.contract
        if contract is None or deal.phase != "play":
            return 0.0  # passed out: redealt
        view = deal.view(seat)
        solver = self._dd_solver(view, contract).with_horizon(BID_HORIZON)
        team = team_of(view, seat)
        total = solver.rules.total
        points = solver.value(list(deal.state.hands), deal.state.leader, (), team)
        decl, belote = layout_declarations(
            view, deal.state.hands, declaration_points(view), belote_points(view)
        )
        return deal_utility(view, DealPoints(points, decl, total, belote), self.engine)

    def _dd_solver(self, view: View, contract: Contract) -> BeloteDD:
        """The double-dummy solver of ``contract`` (one per contract and direction, its
        tables kept across the review's decisions)."""
        key = (view.direction, contract.taker, contract.trump, contract.name)
        s = self._dd.get(key)
        if s is None:
            s = BeloteDD.for_contract(self.engine, view.game, view.rules, contract, view.direction)
            self._dd[key] = s
        return s

    def _horizon_solver(self, view: View, contract: Contract, horizon: int) -> BeloteDD:
        """The solver of ``contract`` that stops at ``horizon`` (:meth:`_dd_solver`'s,
        one per contract, direction and horizon, its tables kept across decisions)."""
        key = (view.direction, contract.taker, contract.trump, contract.name, horizon)
        solver = self._sd.get(key)
        if solver is None:
            solver = self._sd[key] = self._dd_solver(view, contract).with_horizon(horizon)
        return solver

    def _single_dummy(
        self,
        view: View,
        moves: list[Card],
        leader: int,
        trick: tuple[Card, ...],
        team: int,
        past: int,
        declared: tuple[list[int], list[int]],
        total: int,
        step: int,
    ) -> tuple[dict[Card, Estimate], int, str]:
        """Each legal card's single-dummy values for the seat (on hands sampled from its
        view, the same for every card, each solved double dummy), the samples drawn, and
        the method.  ``declared`` is the declarations and belote the view counts; a
        sample's hidden belote-rebelote is added to them (:func:`layout_declarations`)."""
        rng = self._rng(step)
        tricks_left = view.hand.bit_count()
        horizon = HORIZONS.get((tricks_left, not view.trick), 0)
        contract = view.contract
        assert contract is not None
        solver = self._horizon_solver(view, contract, horizon)
        reading = read_play(view, self.engine)
        auction = read_auction(view, self.engine)
        unseen = unseen_belote(view)
        per: dict[Card, list[float]] = {c: [] for c in moves}
        rounds = self._rounds()
        for _ in rounds:
            hands = sample_hands(
                view, rng, reading.forbid, engine=self.engine, hints=reading.hints, auction=auction
            )
            values = solver.move_values(hands, leader, trick, moves, team)
            decl, belote = layout_declarations(view, hands, *declared, unseen)
            for c, v in values.items():
                end = DealPoints(past + v, decl, total, belote)
                per[c].append(deal_utility(view, end, self.engine))
            if len(solver.tt) > 400_000:
                solver.clear()
        return {c: per[c] for c in moves}, rounds.done, SAMPLED

    # --- the summary ---------------------------------------------------------------------

    def summary(self) -> Summary:
        """The deal's summary (after :meth:`decisions` ran to its end)."""
        deal = self.final
        game = str(self.record.get("game", ""))
        decisions = self.reviewed
        sides = 2
        lost = [0.0] * sides
        dd_lost = [0.0] * sides
        has_dd = False
        for d in decisions:
            lost[d.seat % sides] += d.loss
            if d.dd_loss is not None:
                has_dd = True
                dd_lost[d.seat % sides] += d.dd_loss
        # A reported loss is exact or proved (not sampling noise: see Decision).
        mistakes = sorted((d for d in decisions if d.loss > 0.5), key=lambda d: -d.loss)[:3]
        taker: int | None = None
        outcome: str | None = None
        score: tuple[int, ...] | None = None
        decided: Decision | None = None
        if deal is not None:
            contract = deal.state.contract
            taker = contract.taker if contract is not None else None
            if deal.score is not None:
                score = tuple(deal.score.score)
                outcome = deal.score.outcome
                final = "made" if deal.score.made else "failed"
                plays = [d for d in decisions if d.phase == "play"]
                # The last card of the deal settles it; before that, walk back while
                # each card left the outcome proved as it finally was.
                for i in range(len(plays) - 1, -1, -1):
                    d = plays[i]
                    last = i == len(plays) - 1 and d.step == len(deal.actions)
                    if not last and d.settled != final:
                        break
                    decided = d
                if decided is not None and decided.settled is None:
                    decided = Decision(**{**_fields(decided), "settled": final})
        return Summary(
            self.number,
            game,
            taker,
            outcome,
            score,
            tuple(lost),
            tuple(dd_lost) if has_dd else None,
            tuple(mistakes),
            decided,
            len(decisions),
            self._clock,
            sum(1 for d in decisions if d.within_noise),
        )


# --- helpers --------------------------------------------------------------------------------


def exact_feasible(pos: Position) -> bool:
    """Whether the exact chance-aware search is tried in ``pos``: always with
    :data:`EXACT_TRICKS` tricks or fewer left (whatever the unseen face-down cards; run
    to its end, see :meth:`DealReview._decouverte_play`), and earlier while few
    face-down cards are unseen (its cost grows with both; within the options'
    ``exact_budget``)."""
    n = pos.tricks_left
    pool = pos.pool.bit_count()
    if not pool or n <= EXACT_TRICKS:
        return True
    return pool <= {8: 4, 9: 3}.get(n, 0)


def sampled_play(
    pos: Position,
    legal: int,
    utility: Sequence[float],
    rng: random.Random,
    rounds: Iterable[object],
) -> tuple[dict[int, list[float]], int]:
    """Each card of ``legal``'s values for the seat to move in ``pos`` (the taker's
    ``utility``, negated for the opponent) on layouts of the unseen face-down cards
    drawn from the pool, one layout a round of ``rounds`` (the same layouts for every
    card: paired), and how many layouts.

    Each layout is solved as if both players saw it (exactly once few tricks are left,
    the fast :class:`.Policy` before that); a lead's answer is the one the opponent
    prefers on average over the layouts, as it does not see them either.  Equivalent
    cards share their representative's values."""
    t = tables_for(pos.rules)
    sign = 1.0 if to_move(pos) == pos.taker else -1.0
    rem = pos.remaining | (1 << pos.led if pos.led is not None else 0)
    reps = t.merge(legal, ~pos.covers, rem)
    moves = list(cards_of(reps))
    policy = Policy(t)
    solve_at = 9 if pos.tricks_left <= 9 else 7
    per: dict[int, dict[int, list[float]]] = {m: {} for m in moves}
    below = flat_below(utility)  # failed contracts: all worth the same
    n = 0
    for _ in rounds:
        layout = determinize(pos, rng)
        solver = KnownSolver(t, dict(layout.under))
        for m in moves:
            for r, final in outcomes(
                layout, m, policy, solver.under_bits, solver, solve_at, below
            ).items():
                per[m].setdefault(r, []).append(utility[final])
        n += 1
    out: dict[int, list[float]] = {}
    for m in moves:
        samples = min(per[m].values(), key=lambda v: sign * sum(v))
        out[m] = [sign * x for x in samples]
    for c in cards_of(legal & ~reps):
        out[c] = out[_representative(c, reps, t)]
    return out, n


def _representative(c: int, reps: int, t: Tables) -> int:
    """The kept card of ``c``'s group of equivalent cards: the nearest weaker kept card
    of its suit."""
    best, best_s = -1, -1
    for r in cards_of(reps & (0xFF << (c & ~7))):
        s = t.strength[r]
        if s < t.strength[c] and s > best_s:
            best, best_s = r, s
    return best


def _belote_outcome(
    view: View,
    points: DealPoints,
    engine: Engine,
) -> str:
    """``"made"`` or ``"failed"``: the contract's outcome if the deal ends with
    ``points`` (the seat's team's card points and the declarations; a tie held over
    counts as made: the takers lose nothing now)."""
    contract = view.contract
    assert contract is not None
    team, takers = team_of(view, view.seat), team_of(view, contract.taker)
    made, _ = deal_outcome(view.rules, view.game, team, takers, points, engine, contract)
    return "failed" if made is False else "made"


def _card_of(text: str, moves: Sequence[Card]) -> Card:
    for c in moves:
        if card_str(c) == text:
            return c
    raise KeyError(text)


def _fields(d: Decision) -> dict[str, Any]:
    return {f: getattr(d, f) for f in Decision.__dataclass_fields__}


def _with_seconds(d: Decision, seconds: float) -> Decision:
    return Decision(**{**_fields(d), "seconds": seconds})


def _settled(d: Decision, settled: str | None) -> Decision:
    return Decision(**{**_fields(d), "settled": settled})


def _forced(base: Decision, only: Action) -> Decision:
    return Decision(
        **{
            **_fields(base),
            "legal": (Valued(str(only), None),),
            "method": FORCED,
            "best": str(only),
        }
    )


def estimate_play(
    base: Decision,
    pos: Position,
    legal: int,
    utility: Sequence[float],
    rng: random.Random,
    rounds: Iterable[object],
    settled: str | None = None,
) -> Decision:
    """The review's estimate of a Découverte play decision ``base`` in ``pos`` (the
    cards ``legal`` to the seat to move, valued by ``utility``), on layouts sampled
    from the unseen face-down cards (:func:`sampled_play`, one a round of ``rounds``):
    each card's mean and the loss of the card taken, their 95% intervals widened by
    :data:`PLAY_BIAS` and :data:`PLAY_LOSS_BIAS` (:func:`_finish`)."""
    values, n = sampled_play(pos, legal, utility, rng, rounds)
    estimates: dict[str, Estimate] = {card_str(c): v for c, v in values.items()}
    return _finish(base, estimates, SAMPLED, n, settled, (PLAY_BIAS, PLAY_LOSS_BIAS))


def _finish(
    base: Decision,
    values: dict[str, Estimate],
    method: str,
    samples: int,
    settled: str | None,
    bias: tuple[BiasBound, BiasBound] | None = None,
) -> Decision:
    """The decision with its values, best action and loss.  A sampled value (a list of
    per-sample values, the samples shared by every action) gets its mean and 95%
    interval, widened by ``bias`` (:class:`~atout.plugins.search.stats.BiasBound`, of
    the values and of the loss) when the samples are not draws of the value itself; the
    loss of a sampled decision is reported only when proved (:func:`paired_loss`,
    :class:`Decision`), its interval widened by the loss's bias bound of the widest
    spread of the decision's samples."""
    means: dict[str, float] = {}
    legal: list[Valued] = []
    for a, v in values.items():
        if isinstance(v, list):
            est = interval(v)
            if bias is not None:
                est = widened(est, bias[0].margin(v))
            mean, low, high = est
            legal.append(Valued(a, mean, low, high))
        else:
            mean = float(v)
            legal.append(Valued(a, mean))
        means[a] = mean
    best = max(means, key=lambda a: (means[a], a == base.action))  # ties: the action taken
    loss = 0.0
    raw: float | None = None
    loss_interval: tuple[float, float] | None = None
    noise = False
    sampled = {a: v for a, v in values.items() if isinstance(v, list)}
    if base.action in sampled and len(sampled) == len(values):
        # Estimated: a loss is reported only when proved (see :class:`Decision`).
        raw, loss_interval = paired_loss(sampled, base.action)
        if bias is not None and loss_interval is not None:
            _, low, high = widened((raw, *loss_interval), bias[1].margin(*sampled.values()))
            loss_interval = (low, high)
        proved = (
            best != base.action
            and samples >= PROOF_SAMPLES
            and loss_interval is not None
            and loss_interval[0] > 0
        )
        loss = raw if proved else 0.0
        noise = best != base.action and not proved
    elif base.action in means:
        loss = max(0.0, means[best] - means[base.action])
    return Decision(
        **{
            **_fields(base),
            "legal": tuple(legal),
            "method": method,
            "samples": samples,
            "loss": loss,
            "loss_interval": loss_interval,
            "raw_loss": raw,
            "within_noise": noise,
            "best": best,
            "settled": settled,
        }
    )


def review_record(
    engine: Engine,
    data: dict[str, Any],
    number: int | None = None,
    options: ReviewOptions | None = None,
    seats: Sequence[int] | None = None,
    source: str = "record",
    cancel: Callable[[], bool] | None = None,
) -> DealReview:
    """The review of deal ``number`` of a deal or match record (default: its last deal
    with an action), ready to run (:meth:`DealReview.decisions`)."""
    n, deal_data = choose_deal(engine, data, number, source)
    return DealReview(
        engine,
        deal_data,
        options if options is not None else DEFAULT_OPTIONS,
        frozenset(seats) if seats is not None else None,
        n,
        source,
        cancel,
    )
