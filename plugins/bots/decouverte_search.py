"""Search for Belote Découverte: exact solvers, sampling, and the benchmark's positions.

**The rules searched are the rules in force.**  Nothing here copies a rule of the game.
Every position carries its deal's rules (:class:`DealRules`), which the engine compiles
once per deal from the rule plugins (:meth:`atout.core.Engine.play_rules`, read through
:class:`~atout.plugins.bots.search.CardRules`): the move rule that says which cards are
legal, the trick-winner table, the card values and the last trick's bonus.  So a contract
a plugin defines (the example plugin's sans-atout and tout-atout) and a house rule that
changes an obligation are searched exactly as the engine plays them.

* **Legal cards** are the move rule's answers on a scratch :class:`~atout.core.DealState`
  holding the seat's hand and the led card (:meth:`Tables.follow`, :meth:`Tables.may_lead`).
  When the rule says it is trick-local (:attr:`~atout.core.model.MoveRule.trick_local`:
  it reads only the seat's hand, the trick and the teams; the shipped ``BeloteMoves`` is)
  its answers are remembered by hand and trick; otherwise it is asked every time.  A rule
  without a free lead (:attr:`~atout.core.model.MoveRule.free_lead` false) is asked for
  the leads too.
* **Trick winner and points** are the compiled table and values; the strength of a card
  within its suit and the trumps are derived from the table, and a deal's total (162, or
  130 for a contract of the shipped game that names no trump) from the values.
* **When a face-down card turns** is the structure of Découverte, not a play rule: at the
  end of the trick by default, and at once for the led card under the game's option
  ``reveal_on_lead``, which :class:`DealRules` reads from the deal's rule options (the
  only option the search reads itself).
* **Equivalent cards** (:meth:`Tables.merge`) assume the move rule treats alike two cards
  of one suit that no card still in play separates and that are worth the same: true of
  every rule decided by suits and by which card beats which (Belote's obligations, the
  example's contracts).

Découverte is a perfect-information game with chance: both players see every face-up
card, and the face-down cards are unknown to both (even to their owner) until the card
above them leaves.  The face-down cards still unseen form a public *pool*; given what
the players have seen, every assignment of the pool to the covered places is equally
likely, whoever played what (no player ever knew more than the other).  So:

* :class:`TrickSearch` is the **one search core** both exact solvers run on: the trick
  as they search it (a lead, then the answer, in one frame), with the move generation
  and ordering (the table's best lead, tried before the others are even generated; then
  leads the opponent cannot beat, richest first; then the cheapest; answers: winning
  ones richest first, then the cheapest; equivalent cards merged), the time limit, and
  the bounds a fail-soft result proves (:func:`proven`).  What is left to each solver is
  what differs: what follows a trick and what a value means.
* :class:`KnownSolver` solves a **fully known layout** (every face-down card known, as
  in a sampled layout or an analysis): fail-soft alpha-beta over whole tricks, a
  transposition table of value bounds keyed on the two hands and the leader, and the
  last two tricks solved outright.  The driver is MTD(f): null-window searches ("is the
  value at least v?") sharing the table.
* :class:`ChanceSolver` solves a **real position** exactly: expectiminimax whose chance
  nodes are the turns of face-down cards (a covering card leaves: the card beneath is
  drawn uniformly from the pool, without replacement; at the end of the trick, or at
  once for the leader under ``reveal_on_lead``).  Chance nodes are pruned with Ballard's
  Star1 (the bounds come from the card points still in play) and Star2 (each outcome is
  first probed with its best lead, a lower bound), positions between tricks and turns
  are memoized with their bounds, and a position whose pool is empty goes to one shared
  :class:`KnownSolver`.  It maximises the expectation of a *utility* of the taker's
  final card points: the points themselves (the benchmark's value), or the score sheet
  of the deal (:func:`score_utility`: what the bot plays for, so that the contract's
  boundary weighs what it weighs on the sheet).
* Before the last tricks, :func:`sampled_values` scores moves by perfect-information
  Monte Carlo: layouts drawn from the pool (:func:`determinize`), each solved exactly
  once few enough tricks remain and played by the fast :class:`Policy` until then; the
  samples may race the moves (:func:`race`), the moves proved worse sampled no more.

The solvers run on a lean state of a few ints: the face-up cards of the leader and of
the follower (card masks, :mod:`atout.core.cards`), the face-down cards, and the points.
:class:`Position` is the public form of that state, and :func:`successors` steps it (the
tests check both against the engine, with the shipped rules and with plugins).

Entry points for the benchmark (``atout bench``):

* :func:`known_positions` (seed, n; default 50 layouts with 8 tricks left) and
  :func:`solve_known` (a position -> the taker's final card points under optimal play);
* :func:`chance_positions` (seed, n; default 30 real positions with 7 tricks left) and
  :func:`expectimax_value` (a position -> the taker's expected final card points).

Both sets come from random deals (random trump, taker and first leader) played on by
random legal cards, under the rules an ``Engine()`` compiles for a default Découverte deal
of that contract (:func:`.default_engine`): they depend only on the seed as long as no
installed plugin changes the default game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from atout.core import Contract
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Rules
from atout.core.cards import SUIT_MASKS
from atout.core.cards import SUITS
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.state import PLAY

from .search import INF
from .search import CardRules
from .search import Deadline
from .search import deal_outcome
from .search import default_engine
from .search import percentile

GAME = "decouverte"
TRICKS = 16
CACHE_LIMIT = 200_000
"""Entries a memo of :class:`Tables` holds before it starts afresh (bounded memory)."""


Value = TypeVar("Value", int, float)
"""A search value: the known solver's integer points or the chance solver's utility."""

KnownSearch = Callable[[int, int, int, int, int, int], int]
"""``ab(hL, hF, hidden, R, alpha, beta)``: the known solver's alpha-beta."""
NOTHING_FLAT = (1, 0)
"""An empty range of values: every value told apart (see :meth:`KnownSolver.value`)."""
NodeSearch = Callable[[int, int, int, int, int, int, bool, bool, float, float], float]
"""``node(hL, hF, leader, pool, base, R, drawL, drawF, alpha, beta)``: a chance-search
position between tricks, the turns of the face-down cards ``drawL``/``drawF`` pending."""
LeadSearch = Callable[[int, int, int, int, int, int, int, float, float], float]
"""``lead(hL, hF, leader, card, pool, base, R, alpha, beta)``: the value of a lead."""


CLOCK_EVERY = 512
"""Expanded nodes between two readings of the clock (:class:`~.search.Deadline`)."""


# --- the rules of a deal ------------------------------------------------------------------


@dataclass(frozen=True)
class DealRules:
    """The rules of one Découverte deal, as the engine compiled them for its contract.

    ``cards`` holds the move rule, the trick-winner table and the card values that the
    rule plugins answered (:meth:`atout.core.Engine.play_rules`, read through
    :class:`~.search.CardRules`): the solvers search exactly those, so a contract a
    plugin defines, or a house rule that changes an obligation, is searched as it is
    played.  ``rules`` (the deal's rule options) and ``contract`` fill the scratch state
    the move rule is asked on.  ``reveal_on_lead`` says *when* a face-down card is
    turned, which is the structure of the game rather than a play rule: it is the
    Découverte option of that name (``rules["reveal_on_lead"]``), read here and nowhere
    else.
    """

    rules: Rules
    contract: Contract
    cards: CardRules
    reveal_on_lead: bool

    @classmethod
    def of(cls, engine: Engine, rules: Rules, contract: Contract) -> DealRules:
        """The search rules of a deal of ``rules`` played under ``contract``."""
        play = engine.play_rules(rules.game, rules, contract)
        return cls(rules, contract, CardRules.of(play), bool(rules.get("reveal_on_lead", False)))

    @property
    def trump(self) -> int | None:
        """The contract's trump suit (``None`` when it names none)."""
        return self.contract.trump


def deal_rules(
    trump: int | None, taker: int = 0, engine: Engine | None = None, **options: bool
) -> DealRules:
    """The rules of a default Découverte deal taken by ``taker`` in ``trump`` (``None``:
    a contract naming no trump), with the rule ``options`` given, compiled by ``engine``
    (default: :func:`.default_engine`).  The options are set on the game's defaults
    without the engine's check, so that a test may switch an obligation the game's
    plugin honours without offering it (``must_head_trick``)."""
    eng = default_engine(engine)
    base = eng.default_rules(GAME)
    rules = Rules(GAME, {**base, **options}, base.pack) if options else base
    name = SUITS[trump] if trump is not None else "none"
    return DealRules.of(eng, rules, Contract(taker, trump, name))


# --- tables -------------------------------------------------------------------------------


class Tables:
    """The per-deal tables of the search: card points, which card beats which, the legal
    cards on the lean state, move ordering and equivalent-card merging.

    Everything comes from the deal's compiled rules (:class:`DealRules`).  The legal
    cards are the move rule's answers on a scratch :class:`~atout.core.DealState` (the
    seat's hand, the led card; see :meth:`follow`), remembered by hand and trick when the
    rule is trick-local (:attr:`~atout.core.model.MoveRule.trick_local`) and asked every
    time otherwise.  One instance per deal rules, shared by every search of them (see
    :func:`tables_for`): its memos fill once and serve every solve.
    """

    __slots__ = (
        "_answers",
        "_eq",
        "_follow",
        "_leads",
        "_merged",
        "_openers",
        "_scratch",
        "beats",
        "deal",
        "free_lead",
        "local",
        "moves",
        "order",
        "pts",
        "strength",
        "trump_mask",
    )

    def __init__(self, deal: DealRules) -> None:
        cards = deal.cards
        self.deal = deal
        self.moves = cards.moves
        self.free_lead = cards.moves.free_lead
        self.local = cards.moves.trick_local
        self.pts: tuple[int, ...] = cards.points
        self.beats: tuple[int, ...] = cards.beats
        self.strength: tuple[int, ...] = cards.strength
        self.trump_mask = cards.trump_mask
        # Per suit, its ranks from the weakest to the strongest under these rules.
        st = cards.strength
        self.order: tuple[tuple[int, ...], ...] = tuple(
            tuple(r for _, r in sorted((st[s * 8 + r], r) for r in range(8))) for s in range(4)
        )
        self._scratch = _scratch_state(deal)
        self._follow: dict[int, int] = {}
        self._openers: dict[int, int] = {}
        self._eq: dict[int, int] = {}
        self._merged: dict[int, int] = {}
        self._leads: dict[int, tuple[int, ...]] = {}
        self._answers: dict[int, tuple[int, ...]] = {}

    def follow(self, hand: int, led: int) -> int:
        """The cards of ``hand`` the follower may play on the led card ``led``."""
        k = hand | led << 32
        v = self._follow.get(k)
        if v is None:
            v = self._ask(hand, led)
            if self.local:
                if len(self._follow) >= CACHE_LIMIT:
                    self._follow.clear()
                self._follow[k] = v
        return v

    def memos(
        self,
    ) -> tuple[
        Callable[[int], int | None],
        Callable[[int], int | None],
        Callable[[int], tuple[int, ...] | None],
        Callable[[int], tuple[int, ...] | None],
    ]:
        """The lookups of the memos of :meth:`follow` (key ``hand | led << 32``),
        :meth:`merge` (key ``(cands & lone) | rem << 32``, value the kept lone cards),
        :meth:`leads` (key ``moves | hF << 32``) and :meth:`answers` (key ``resp | c <<
        32``), for inner loops that read them without a call; ``None`` when not
        remembered (then call the method)."""
        return self._follow.get, self._merged.get, self._leads.get, self._answers.get

    def may_lead(self, hand: int) -> int:
        """The cards of ``hand`` the leader may lead (all of them under a rule with a
        free lead)."""
        if self.free_lead:
            return hand
        v = self._openers.get(hand)
        if v is None:
            v = self._ask(hand, -1)
            if self.local:
                if len(self._openers) >= CACHE_LIMIT:
                    self._openers.clear()
                self._openers[hand] = v
        return v

    def _ask(self, hand: int, led: int) -> int:
        """The move rule's answer for seat 0 holding ``hand``, seat 1 having led ``led``
        (-1: seat 0 leads)."""
        state = self._scratch
        state.hands[0] = hand
        state.turn = 0
        if led < 0:
            state.trick = []
            state.leader = 0
            state.win_card = state.win_seat = -1
        else:
            state.trick = [led]
            state.leader = state.win_seat = 1
            state.win_card = led
        return self.moves.legal(state) & hand

    def merge(self, cands: int, lone: int, rem: int) -> int:
        """``cands`` with equivalent cards merged (the weakest of each group kept).

        Two candidate cards are equivalent when they are of one suit, adjacent in that
        suit's order among ``rem`` (every card not yet played, the card on the table and
        the unknown face-down cards included: nothing can fall between them), equal in
        points, and both in ``lone`` (covering no face-down card, so that playing either
        turns nothing different).  Swapping two such cards changes no trick's winner
        and no score, so one of them needs searching.  (Cards of *different* players
        are never merged, nor are face-down cards still to be drawn: those can meet in
        one trick, where their order decides it.)
        """
        lc = cands & lone
        k = lc | rem << 32
        v = self._merged.get(k)
        if v is None:
            v = 0
            eq = self._eq
            for s in (0, 8, 16, 24):
                lb = lc >> s & 255
                if lb & (lb - 1):
                    k2 = s << 16 | (rem >> s & 255) << 8 | lb
                    m = eq.get(k2)
                    if m is None:
                        m = eq[k2] = self._merge_suit(s >> 3, rem >> s & 255, lb)
                    v |= m << s
                else:
                    v |= lb << s
            if len(self._merged) >= CACHE_LIMIT:
                self._merged.clear()
            self._merged[k] = v
        return cands & ~lone | v

    def leads(self, moves: int, hF: int) -> tuple[int, ...]:
        """The leads ``moves`` against the follower's ``hF`` in search order: first the
        leads the follower cannot beat (the richest first: cash them), then the others
        (the cheapest first)."""
        k = moves | hF << 32
        v = self._leads.get(k)
        if v is None:
            pts = self.pts
            beats = self.beats
            known = self._follow.get
            # Sort keys packed in one integer, (rank << 5) | card, decoded after the sort.
            order = []
            for c in cards_of(moves):
                resp = known(hF | c << 32) or self.follow(hF, c)
                order.append((100 - pts[c] if resp & beats[c] else 200 + pts[c]) << 5 | c)
            order.sort(reverse=True)
            v = tuple([x & 31 for x in order])
            if len(self._leads) >= CACHE_LIMIT:
                self._leads.clear()
            self._leads[k] = v
        return v

    def answers(self, resp: int, c: int) -> tuple[int, ...]:
        """The answers ``resp`` to the lead ``c`` in search order: the winning ones (the
        richest first), then the losing ones (the cheapest first)."""
        k = resp | c << 32
        v = self._answers.get(k)
        if v is None:
            pts = self.pts
            bc = self.beats[c]
            wins = sorted(cards_of(resp & bc), key=pts.__getitem__, reverse=True)
            loses = sorted(cards_of(resp & ~bc), key=pts.__getitem__)
            v = tuple(wins + loses)
            if len(self._answers) >= CACHE_LIMIT:
                self._answers.clear()
            self._answers[k] = v
        return v

    def _merge_suit(self, suit: int, rem: int, lone: int) -> int:
        pts = self.pts
        keep = 0
        prev = -1
        for r in self.order[suit]:
            if not rem >> r & 1:
                continue
            if lone >> r & 1:
                p = pts[suit * 8 + r]
                if prev == p:
                    continue
                keep |= 1 << r
                prev = p
            else:
                prev = -1
        return keep


def _scratch_state(deal: DealRules) -> DealState:
    """A two-seat play state of the deal's rules and contract, for asking its move rule
    (each seat its own team, as in Découverte)."""
    state = DealState(GAME, deal.rules, 2, 2, 1, Layout(hands=(0, 0)))
    state.phase = PLAY
    state.contract = deal.contract
    return state


@lru_cache(maxsize=64)
def tables_for(deal: DealRules) -> Tables:
    """The shared :class:`Tables` of a deal's rules."""
    return Tables(deal)


# --- positions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A Découverte position on the lean state the solvers read.

    ``hands[s]`` holds seat ``s``'s face-up (playable) cards; the card already led in
    the current trick, if any, is ``led`` (played by ``leader``) and is in neither
    hand.  Face-down cards are either *known* (``under``: ``(cover, face-down)`` pairs,
    a fully known layout) or *unknown*: ``covers`` is the set of cards that lie on an
    unknown face-down card (the led card included while its card waits to be turned),
    and ``pool`` the unknown face-down cards (as many as ``covers``).  ``points`` are the
    card points each seat has won so far; ``taker`` took the contract.  ``rules`` are
    the deal's rules (:class:`DealRules`: its contract, the plugins' play rules, when
    face-down cards turn).
    """

    rules: DealRules
    taker: int
    leader: int
    hands: tuple[int, int]
    under: tuple[tuple[int, int], ...] = ()
    covers: int = 0
    pool: int = 0
    led: int | None = None
    points: tuple[int, int] = (0, 0)

    @property
    def trump(self) -> int | None:
        """The contract's trump suit (``None`` when it names none)."""
        return self.rules.trump

    @property
    def reveal_on_lead(self) -> bool:
        """Whether a led card's face-down card turns at once (the Découverte option)."""
        return self.rules.reveal_on_lead

    @property
    def remaining(self) -> int:
        """Every card not yet played (the led card excluded)."""
        mask = self.hands[0] | self.hands[1] | self.pool
        for _, down in self.under:
            mask |= 1 << down
        return mask

    @property
    def tricks_left(self) -> int:
        """Tricks not yet finished (the current one included)."""
        n = self.remaining.bit_count() + (self.led is not None)
        return n // 2

    @property
    def known(self) -> bool:
        """Whether every face-down card is known."""
        return not self.pool

    @property
    def points_left(self) -> int:
        """The points still to win: the cards not in finished tricks and the last-trick
        bonus."""
        cards = self.rules.cards
        pts = cards.points
        total = cards.last_trick + sum(pts[c] for c in cards_of(self.remaining))
        if self.led is not None:
            total += pts[self.led]
        return total

    def describe(self) -> str:
        """A readable one-line form (for failing tests and analysis)."""
        under = dict(self.under)

        def seat(s: int) -> str:
            items = []
            for c in cards_of(self.hands[s]):
                if c in under:
                    items.append(f"{card_str(c)}/{card_str(under[c])}")
                elif self.covers >> c & 1:
                    items.append(f"{card_str(c)}/?")
                else:
                    items.append(card_str(c))
            return " ".join(items)

        led = f" led {card_str(self.led)}" if self.led is not None else ""
        pool = f" pool {' '.join(card_str(c) for c in cards_of(self.pool))}" if self.pool else ""
        return (
            f"contract {self.rules.contract.name} taker {self.taker} leader {self.leader}{led} points {self.points}"
            f" | 0: {seat(0)} | 1: {seat(1)}{pool}"
        )


# --- the search core both exact solvers run on ------------------------------------------------


class TrickSearch:
    """What the known-layout and chance solvers share: the trick as a search reads it.

    Both solvers search whole tricks (a lead, then the answer) with fail-soft alpha-beta
    and a table of value bounds; they differ only in what follows a trick (face-down
    cards turned from a known layout, or drawn from the pool) and in what a value means
    (the leader's points, or the taker's expected utility).  This core holds the rest,
    once: the deal's :class:`Tables`, the cards that cover no face-down card
    (``lone``, for merging equivalent cards), the time limit
    (``deadline``, a :class:`~.search.Deadline` counting expanded positions) and the
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
        merge = t.merge
        ordered = t.leads
        answers = t.answers
        free = t.free_lead
        may_lead = t.may_lead
        lone = self.lone
        keep = ~lone
        # The tables' memos, read inline (a call less per answer, as the loops need).
        known_follow, known_merge, known_leads, known_answers = t.memos()

        def leads(hL: int, hF: int, rem: int, bm: int) -> Iterator[int]:
            if bm >= 0:
                yield bm
            moves = hL if free else may_lead(hL)
            m = known_merge(moves & lone | rem << 32)
            moves = moves & keep | m if m is not None else merge(moves, lone, rem)
            for c in known_leads(moves | hF << 32) or ordered(moves, hF):
                if c != bm:
                    yield c

        def replies(hF: int, c: int, rem: int) -> tuple[int, ...]:
            resp = known_follow(hF | c << 32) or follow(hF, c)
            if resp & (resp - 1):
                m = known_merge(resp & lone | rem << 32)
                resp = resp & keep | m if m is not None else merge(resp, lone, rem)
            return known_answers(resp | c << 32) or answers(resp, c)

        return leads, replies


def proven(best: Value, a0: Value, beta: Value, lo: Value, hi: Value) -> tuple[Value, Value]:
    """The bounds (lo, hi) of a position's value once a fail-soft search within
    (``a0``, ``beta``) returned ``best``, merged with the bounds known before."""
    if best <= a0:
        return lo, best if best < hi else hi
    if best >= beta:
        return best if best > lo else lo, hi
    return best, best


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
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            tick()
            rem = hL | hF | hid
            best = -big
            best_move = -1
            a0 = alpha
            # The table's best lead first, then sure winners, then the cheapest.
            for c in lead_order(hL, hF, rem, bm):
                hL2 = hL ^ (1 << c)
                hid2 = hid
                d = under[c]
                if d:
                    hL2 |= d
                    hid2 ^= d
                pc = pts[c]
                bc = beats[c]
                worst = big
                for r in replies(hF, c, rem):
                    hF2 = hF ^ (1 << r)
                    hid3 = hid2
                    d = under[r]
                    if d:
                        hF2 |= d
                        hid3 ^= d
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


# --- the exact chance-aware solver (expectiminimax) ---------------------------------------


def points_utility(total: int = 162) -> list[float]:
    """The utility whose expectation is the taker's expected card points, in a deal worth
    ``total``."""
    return [float(x) for x in range(total + 1)]


def score_utility(
    total: int = 162,
    rules: Rules | None = None,
    decl: Sequence[int] = (0, 0),
    belote: Sequence[int] = (0, 0),
    engine: Engine | None = None,
) -> list[float]:
    """The taker's deal score minus the opponent's, by the taker's final card points
    ``x`` in a deal worth ``total`` (162; 130 without a trump suit).

    Under the default rules (``rules`` ``None``): made (more than the opponent: 82 or
    more of 162), ``x - (total - x)``; failed, the opponent scores all ``total``.  Its
    expectation is what the score sheet gains in a deal, so a search that maximises it
    plays for the contract near the boundary: one point across 81/82 is worth 164 on the
    sheet.  With the deal's ``rules`` and the declarations already known (``decl``, the
    taker's and the opponent's, ``belote`` of them belote-rebelote), the deal is scored
    as the game scores it (:func:`~.search.deal_outcome`: a pack's capot bonus, the
    declarations moving the contract's threshold).
    """
    if rules is None:
        rules = default_engine(engine).default_rules(GAME)
    return [
        deal_outcome(rules, GAME, 0, 0, x, decl, total, belote, engine)[1] for x in range(total + 1)
    ]


class ChanceSolver:
    """Exact expectiminimax of a real Découverte position (face-down cards unknown).

    The value of a position is the expectation of ``utility[taker's final card points]``
    when the taker maximises it and the opponent minimises it, the face-down cards being
    drawn uniformly from the pool as their covers leave.  Internally every node returns
    the value seen by the player to move (negamax: the taker's expectation, negated for
    the opponent).  ``tt`` maps a position between tricks (both hands, the pool, the
    leader, the turns still pending, and the taker's points so far unless the utility is
    the plain points) to bounds and the best lead; positions without unknown cards go to
    one shared :class:`KnownSolver`.  One solver serves one deal: its covers never change.
    """

    def __init__(
        self,
        tables: Tables,
        covers: int,
        taker: int,
        utility: Sequence[float] | None = None,
    ) -> None:
        self.tables = tables
        self.covers = covers
        self.taker = taker
        self.linear = utility is None
        self.utility: list[float] = (
            list(utility) if utility is not None else points_utility(tables.deal.cards.total)
        )
        self.reveal_on_lead = tables.deal.reveal_on_lead
        self.known = KnownSolver(tables)
        self.core = TrickSearch(tables, covers, self.known.deadline)
        self.deadline = self.core.deadline
        self.tt: dict[int, tuple[float, float, int]] = {}
        self.node: NodeSearch
        self.lead: LeadSearch
        self.node, self.lead = self._make_search()

    def _make_search(self) -> tuple[NodeSearch, LeadSearch]:
        t = self.tables
        pts = t.pts
        beats = t.beats
        lead_order = self.core.leads
        replies = self.core.replies
        cov0 = self.covers
        taker = self.taker
        U = self.utility
        linear = self.linear
        reveal = self.reveal_on_lead
        exact = self.known.value
        tick = self.deadline.tick
        tt = self.tt
        tt_get = tt.get

        # The table (``tt``): a position between tricks -> (lo, hi, best lead).  Its key
        # holds both hands, the pool, the leader (bit 96), the turns still pending (bits
        # 97 and 98: a chance node, see ``turn``) and, unless the utility is linear, the
        # points won so far (from bit 99).  The bounds are the taker's, less ``base``
        # when the utility is linear (so that one entry serves every past); ``recall``
        # reads them and the end of ``node`` writes them.  (``node`` and ``probe`` build
        # the key inline: a helper call there costs ~2% of the search.)

        def recall(e: tuple[float, float, int], L: int, base: int) -> tuple[float, float, int]:
            """The table's entry ``e`` in the view of ``L``: its bounds and best lead."""
            tlo, thi, bm = e
            if linear:
                tlo += base
                thi += base
            if taker != L:
                return -thi, -tlo, bm
            return tlo, thi, bm

        def node(
            hL: int,
            hF: int,
            L: int,
            pool: int,
            base: int,
            R: int,
            dL: bool,
            dF: bool,
            alpha: float,
            beta: float,
        ) -> float:
            """A position between tricks, ``L`` to lead, once the face-down cards of the
            covers that left in the last trick are turned (``dL``: the leader's, ``dF``:
            the follower's; while one is pending this is a chance node, see ``turn``):
            its value for ``L``.  Trick starts and chance nodes share the table's
            bounds, its tightening and its store (with the best lead at trick starts)."""
            if not pool:
                s = 1.0 if taker == L else -1.0
                if not hL:
                    return s * U[base]
                f = exact(hL, hF, 0, L, R)
                return s * U[base + (f if taker == L else R - f)]
            drawing = dL or dF
            if drawing and pool.bit_count() == 1:
                if dL:
                    return node(hL | pool, hF, L, 0, base, R, False, False, alpha, beta)
                return node(hL, hF | pool, L, 0, base, R, False, False, alpha, beta)
            # The bounds of any value here: all the points left lost, or all won.
            if taker == L:
                slo, shi = U[base], U[base + R]
            else:
                slo, shi = -U[base + R], -U[base]
            if alpha >= shi:
                return shi
            if beta <= slo:
                return slo
            lo = slo
            hi = shi
            # A chance node is met again under other windows: its bounds are kept too.
            key = hL | hF << 32 | pool << 64 | L << 96
            if drawing:
                key |= dL << 97 | dF << 98
            if not linear:
                key |= base << 99
            e = tt_get(key)
            bm = -1
            if e is not None:
                tlo, thi, bm = recall(e, L, base)
                if tlo > lo:
                    lo = tlo
                if thi < hi:
                    hi = thi
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            a0 = alpha
            if drawing:
                best = turn(hL, hF, L, pool, base, R, dL, dF, -1, alpha, beta, slo, shi)
                best_move = -1
            else:
                tick()
                best = -INF
                best_move = -1
                # The table's best lead first: often enough for a cutoff, before the
                # other leads are even generated.
                for c in lead_order(hL, hF, hL | hF | pool, bm):
                    v = lead(hL, hF, L, c, pool, base, R, alpha, beta)
                    if v > best:
                        best = v
                        best_move = c
                        if best >= beta:
                            break
                        if best > alpha:
                            alpha = best
            lo, hi = proven(best, a0, beta, lo, hi)
            if taker != L:
                lo, hi = -hi, -lo
            if linear:
                lo -= base
                hi -= base
            tt[key] = (lo, hi, best_move)
            return best

        def lead(
            hL: int,
            hF: int,
            L: int,
            c: int,
            pool: int,
            base: int,
            R: int,
            alpha: float,
            beta: float,
        ) -> float:
            """The leader's value of leading ``c``."""
            if cov0 >> c & 1:
                if reveal:
                    return lead_draw(hL ^ (1 << c), hF, L, c, pool, base, R, alpha, beta)
                return respond(hL ^ (1 << c), hF, L, c, True, pool, base, R, alpha, beta)
            return respond(hL ^ (1 << c), hF, L, c, False, pool, base, R, alpha, beta)

        def lead_draw(
            hL2: int,
            hF: int,
            L: int,
            c: int,
            pool: int,
            base: int,
            R: int,
            alpha: float,
            beta: float,
        ) -> float:
            """``reveal_on_lead``: the led card's face-down card is drawn before the answer."""
            if pool.bit_count() == 1:
                return respond(hL2 | pool, hF, L, c, False, 0, base, R, alpha, beta)
            # The bounds of any outcome (as in node).
            if taker == L:
                lo, hi = U[base], U[base + R]
            else:
                lo, hi = -U[base + R], -U[base]
            return turn(hL2, hF, L, pool, base, R, True, False, c, alpha, beta, lo, hi)

        def respond(
            hL2: int,
            hF: int,
            L: int,
            c: int,
            drawL: bool,
            pool: int,
            base: int,
            R: int,
            alpha: float,
            beta: float,
        ) -> float:
            """After the lead ``c``: the follower answers; the value for the leader."""
            F = 1 - L
            bc = beats[c]
            pc = pts[c]
            worst: float = INF
            for r in replies(hF, c, hL2 | hF | pool | 1 << c):
                hF2 = hF ^ (1 << r)
                drawF = cov0 >> r & 1 == 1
                p = pc + pts[r]
                if not (hL2 | hF2 | pool):
                    p += R - pc - pts[r]  # the last trick: its cards and the bonus
                R2 = R - p
                b = beta if beta < worst else worst
                if bc >> r & 1:
                    v = -node(
                        hF2,
                        hL2,
                        F,
                        pool,
                        base + p if taker == F else base,
                        R2,
                        drawF,
                        drawL,
                        -b,
                        -alpha,
                    )
                else:
                    v = node(
                        hL2,
                        hF2,
                        L,
                        pool,
                        base + p if taker == L else base,
                        R2,
                        drawL,
                        drawF,
                        alpha,
                        b,
                    )
                if v < worst:
                    worst = v
                    if worst <= alpha:
                        break
            return worst

        def turn(
            hW: int,
            hO: int,
            W: int,
            pool: int,
            base: int,
            R: int,
            dW: bool,
            dO: bool,
            led: int,
            alpha: float,
            beta: float,
            lo: float,
            hi: float,
        ) -> float:
            """A chance node: the mean value for ``W`` over the cards of ``pool`` a turn
            may show (each as likely), each outcome's value known to lie in [lo, hi].

            The turn is the face-down card of the led card ``led`` (``reveal_on_lead``;
            each outcome is then answered, ``respond``), or, ``led`` being -1, at
            the end of a trick won by ``W``, the winner's (``dW``) or the other's
            (``dO``); when both turn, the winner's first, each outcome being a chance
            node of the other's.  Star1 prunes every kind: once the outcomes seen and
            the bounds of the rest decide the mean against the window, it stops.  A
            trick's last turn is Star2: each outcome is first probed with its first
            lead only (a lower bound: its leader may do better), which may already
            reach beta, and the lower bounds then tighten Star1.
            """
            n = pool.bit_count()
            total = 0.0
            na = n * alpha
            nb = n * beta
            rest = n
            xs = cards_of(pool)
            # g: each outcome's lower bound (Star2), rem_g: those of the outcomes to come.
            g: list[float] | None = None
            rem_g = 0.0
            if led < 0 and not (dW and dO):
                g = [lo] * n
                rem_g = n * lo
                if nb < n * hi:
                    got = 0.0
                    for i, x in enumerate(xs):
                        xb = 1 << x
                        rest -= 1
                        ap = na - got - rest * hi
                        bp = nb - got - rest * lo
                        if dW:
                            v = probe(hW | xb, hO, W, pool ^ xb, base, R, lo, ap, bp)
                        else:
                            v = probe(hW, hO | xb, W, pool ^ xb, base, R, lo, ap, bp)
                        if v > ap and v > lo:
                            g[i] = v
                        got += g[i]
                        if got + rest * lo >= nb:
                            return (got + rest * lo) / n
                    rem_g = got
                    rest = n
            for i, x in enumerate(xs):
                xb = 1 << x
                rest -= 1
                if g is None:
                    rem_g = rest * lo
                else:
                    rem_g -= g[i]
                a = na - total - rest * hi
                b = nb - total - rem_g
                if led >= 0:
                    v = respond(hW | xb, hO, W, led, False, pool ^ xb, base, R, a, b)
                elif dW:
                    v = node(hW | xb, hO, W, pool ^ xb, base, R, False, dO, a, b)
                else:
                    v = node(hW, hO | xb, W, pool ^ xb, base, R, False, False, a, b)
                total += v
                if total + rest * hi <= na:
                    return (total + rest * hi) / n
                if total + rem_g >= nb:
                    return (total + rem_g) / n
            return total / n

        def probe(
            hL: int,
            hF: int,
            L: int,
            pool: int,
            base: int,
            R: int,
            lo: float,
            alpha: float,
            beta: float,
        ) -> float:
            """A lower bound of ``node(...)`` (turns done) from its first lead alone (or
            from the table), searched within (alpha, beta); ``lo`` when it proves
            nothing (``lo``: the least value of any position, see ``node``)."""
            if not pool:
                return node(hL, hF, L, pool, base, R, False, False, alpha, beta)
            key = hL | hF << 32 | pool << 64 | L << 96  # node's key, no turn pending
            if not linear:
                key |= base << 99
            e = tt_get(key)
            bm = -1
            if e is not None:
                tlo, thi, bm = recall(e, L, base)
                if tlo > lo:
                    lo = tlo
                if lo >= beta or tlo == thi:
                    return lo
            if bm < 0:
                bm = next(lead_order(hL, hF, hL | hF | pool, -1))
            v = lead(hL, hF, L, bm, pool, base, R, alpha, beta)
            return v if v > alpha and v > lo else lo

        return node, lead

    # --- roots ---------------------------------------------------------------------------

    def _root(self, pos: Position) -> tuple[int, int, int, int, int]:
        if pos.under:
            raise ValueError("the chance solver takes unknown face-down cards (covers and pool)")
        L = pos.leader
        return pos.hands[L], pos.hands[1 - L], L, pos.points[self.taker], pos.points_left

    def move_values(self, pos: Position, window: bool = True) -> dict[int, float]:
        """The value of each playable card for the player to move (the taker's expected
        utility, negated for the opponent).

        With ``window`` (the default) only the best card's value is exact: each other
        card is first tested against the best so far with a null window ("is it
        better?") and searched exactly only when it is; the values of cards that are not
        better are upper bounds, which is all a choice needs, kept a hair below the best
        value found before them: a fail-soft bound often equals that value, and a card
        no better than the best must not tie with it (a choice among ties could take
        the worse card).  Equivalent cards get their representative's value.
        """
        hL, hF, L, base, R = self._root(pos)
        t = self.tables
        pool = pos.pool
        covers = self.covers
        mover_hand = pos.hands[to_move(pos)]
        if pos.led is None:
            cands = t.may_lead(hL)
            reps = t.merge(cands, ~covers, hL | hF | pool)
            moves = list(t.leads(reps, hF))
        else:
            cands = t.follow(mover_hand, pos.led)
            reps = t.merge(cands, ~covers, hL | hF | pool | 1 << pos.led)
            moves = list(cards_of(reps))

        def search(m: int, alpha: float, beta: float) -> float:
            if pos.led is None:
                return float(self.lead(hL, hF, L, m, pool, base, R, alpha, beta))
            return self._answer_root(pos, m, base, R, alpha, beta)

        out: dict[int, float] = {}
        best: float = -INF
        for m in moves:
            if best == -INF or not window:
                v = search(m, -INF, INF)
            else:
                eps = 1e-9 * (1.0 + abs(best))
                v = search(m, best, best + eps)
                v = search(m, v, INF) if v > best else min(v, best - eps)
            out[m] = v
            best = max(best, v)
        # Equivalent cards share their representative's value.
        for c in cards_of(cands & ~reps):
            out[c] = out[_representative(c, reps, t, pos)]
        return out

    def _answer_root(
        self, pos: Position, r: int, base: int, R: int, alpha: float, beta: float
    ) -> float:
        """The follower's value (window ``alpha``, ``beta``) of answering ``r`` to the
        led card of ``pos``."""
        pts = self.tables.pts
        taker = self.taker
        L = pos.leader
        F = 1 - L
        c = pos.led
        assert c is not None
        hL = pos.hands[L]
        hF2 = pos.hands[F] ^ (1 << r)
        pool = pos.pool
        drawL = self.covers >> c & 1 == 1
        drawF = self.covers >> r & 1 == 1
        p = pts[c] + pts[r]
        if not (hL | hF2 | pool):
            p = R
        R2 = R - p
        if self.tables.beats[c] >> r & 1:
            return float(
                self.node(
                    hF2,
                    hL,
                    F,
                    pool,
                    base + p if taker == F else base,
                    R2,
                    drawF,
                    drawL,
                    alpha,
                    beta,
                )
            )
        return -float(
            self.node(
                hL, hF2, L, pool, base + p if taker == L else base, R2, drawL, drawF, -beta, -alpha
            )
        )

    def value(self, pos: Position) -> float:
        """The exact value of ``pos``: the expectation of the taker's utility."""
        vals = self.move_values(pos)
        best = max(vals.values())
        mover = pos.leader if pos.led is None else 1 - pos.leader
        return best if mover == self.taker else -best


def _representative(c: int, reps: int, t: Tables, pos: Position) -> int:
    """The kept card of ``c``'s group of equivalent cards: the nearest weaker kept card
    of its suit."""
    suit = c >> 3
    strength = t.strength
    best, best_s = -1, -1
    for r in cards_of(reps & SUIT_MASKS[suit]):
        s = strength[r]
        if s < strength[c] and s > best_s:
            best, best_s = r, s
    return best


def expectimax_value(pos: Position, utility: Sequence[float] | None = None) -> float:
    """The exact expected final card points of the taker (won so far plus the rest)
    under optimal play by both, the unknown face-down cards turning as chance.

    With ``utility`` (a list indexed by the taker's final card points), the expectation
    of that utility instead.  A fully known position (no pool) is solved exactly.
    """
    if not pos.pool and not pos.covers:
        v = solve_known(pos)
        return float(v) if utility is None else utility[v]
    solver = ChanceSolver(tables_for(pos.rules), pos.covers, pos.taker, utility)
    return solver.value(pos)


# --- stepping a position --------------------------------------------------------------------


def to_move(pos: Position) -> int:
    """The seat to play in ``pos``."""
    return pos.leader if pos.led is None else 1 - pos.leader


def legal_cards(pos: Position) -> int:
    """The cards the seat to move may play (the obligations of
    deal's move rule, :meth:`Tables.follow`)."""
    t = tables_for(pos.rules)
    if pos.led is None:
        return t.may_lead(pos.hands[pos.leader])
    return t.follow(pos.hands[1 - pos.leader], pos.led)


def successors(pos: Position, card: int) -> list[tuple[float, Position]]:
    """The positions after the seat to move plays ``card``, with their probabilities.

    Known face-down cards turn deterministically; an unknown one is drawn from the pool
    (each card equally likely; the leader's before the follower's when both covers
    left).  ``card`` must be legal (:func:`legal_cards`).
    """
    under = dict(pos.under)
    hands = list(pos.hands)
    L = pos.leader
    if pos.led is None:
        hands[L] ^= 1 << card
        if pos.reveal_on_lead and card in under:
            hands[L] |= 1 << under.pop(card)
        elif pos.reveal_on_lead and pos.covers >> card & 1:
            out = []
            n = pos.pool.bit_count()
            for x in cards_of(pos.pool):
                h = list(hands)
                h[L] |= 1 << x
                out.append(
                    (
                        1.0 / n,
                        replace(
                            pos,
                            hands=(h[0], h[1]),
                            led=card,
                            covers=pos.covers ^ 1 << card,
                            pool=pos.pool ^ 1 << x,
                            under=tuple(under.items()),
                        ),
                    )
                )
            return out
        return [
            (1.0, replace(pos, hands=(hands[0], hands[1]), led=card, under=tuple(under.items())))
        ]
    t = tables_for(pos.rules)
    F = 1 - L
    c = pos.led
    hands[F] ^= 1 << card
    winner = F if t.beats[c] >> card & 1 else L
    points = list(pos.points)
    gain = t.pts[c] + t.pts[card]
    covers = pos.covers
    draws = []
    for seat, played in ((L, c), (F, card)):
        if played in under:
            hands[seat] |= 1 << under.pop(played)
        elif covers >> played & 1:
            covers ^= 1 << played
            draws.append(seat)
    if not (hands[0] | hands[1] | pos.pool) and not under:
        gain += t.deal.cards.last_trick
    points[winner] += gain
    base = replace(
        pos,
        hands=(hands[0], hands[1]),
        under=tuple(under.items()),
        covers=covers,
        led=None,
        leader=winner,
        points=(points[0], points[1]),
    )
    outs: list[tuple[float, Position]] = [(1.0, base)]
    for seat in draws:
        nxt = []
        for prob, p in outs:
            n = p.pool.bit_count()
            for x in cards_of(p.pool):
                h = list(p.hands)
                h[seat] |= 1 << x
                nxt.append((prob / n, replace(p, hands=(h[0], h[1]), pool=p.pool ^ 1 << x)))
        outs = nxt
    return outs


def play_known(pos: Position, card: int) -> Position:
    """The position after ``card`` in a fully known position."""
    (out,) = successors(pos, card)
    return out[1]


def hide(pos: Position) -> Position:
    """The real position of a fully known one: its face-down cards become unknown."""
    covers = 0
    pool = 0
    for cover, down in pos.under:
        covers |= 1 << cover
        pool |= 1 << down
    return replace(pos, under=(), covers=covers, pool=pool)


def deal(
    rng: random.Random, trump: int | None = -1, engine: Engine | None = None, **options: bool
) -> Position:
    """A random Découverte deal as a fully known position: eight piles a seat (a face-up
    card on a face-down one), a random trump (unless given), taker and first leader,
    under the rules ``engine`` (default: :func:`.default_engine`) compiles for that
    contract with the rule ``options`` given (see :func:`deal_rules`)."""
    pack = list(range(32))
    rng.shuffle(pack)
    hands = [0, 0]
    under = []
    for s in (0, 1):
        for i in range(8):
            up, down = pack[16 + 8 * s + i], pack[8 * s + i]
            hands[s] |= 1 << up
            under.append((up, down))
    tr = rng.randrange(4) if trump == -1 else trump
    taker = rng.randrange(2)
    leader = rng.randrange(2)
    rules = deal_rules(tr, taker, engine, **options)
    return Position(rules, taker, leader, (hands[0], hands[1]), tuple(under))


def random_play(pos: Position, rng: random.Random, cards: int) -> Position:
    """Play ``cards`` random legal cards from a fully known position."""
    for _ in range(cards):
        pos = play_known(pos, rng.choice(cards_of(legal_cards(pos))))
    return pos


def known_positions(seed: int = 2024, n: int = 50, tricks_left: int = 8) -> list[Position]:
    """The benchmark's fully known layouts: ``n`` positions between tricks with
    ``tricks_left`` tricks to play, each reached from a random deal (random trump, taker
    and leader) by random legal moves; every face-down card known.  Fixed by ``seed``."""
    rng = random.Random(seed)
    return [random_play(deal(rng), rng, 2 * (TRICKS - tricks_left)) for _ in range(n)]


def chance_positions(seed: int = 2024, n: int = 30, tricks_left: int = 7) -> list[Position]:
    """The benchmark's real positions: ``n`` positions between tricks with ``tricks_left``
    tricks to play, reached like :func:`known_positions`, whose face-down cards are
    unknown (a pool).  Fixed by ``seed``."""
    rng = random.Random(seed)
    return [hide(random_play(deal(rng), rng, 2 * (TRICKS - tricks_left))) for _ in range(n)]


# --- a fast policy, playouts, and sampled layouts -------------------------------------------


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
        hL ^= 1 << c
        hF ^= 1 << r
        d = under[c]
        if d:
            hL |= d
            hid ^= d
        d = under[r]
        if d:
            hF |= d
            hid ^= d
        p = pts[c] + pts[r]
        if not (hL | hF | hid):
            p = R
        R -= p
        if beats[c] >> r & 1:
            hL, hF, L = hF, hL, 1 - L
        if me == L:
            got += p
    return got


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


# --- timing the solvers ------------------------------------------------------------------------


def time_solvers(seed: int = 2024, known: int = 50, chance: int = 30) -> dict[str, float]:
    """Time both exact solvers on the benchmark's position sets: milliseconds per
    position of :func:`solve_known` on ``known_positions(seed, known)`` and of
    :func:`expectimax_value` on ``chance_positions(seed, chance)`` (median and 95th
    percentile), one fresh solver per position."""
    out: dict[str, float] = {}
    sets: tuple[tuple[str, list[Position], Callable[[Position], float]], ...] = (
        ("decouverte_solve_ms", known_positions(seed, known), solve_known),
        ("decouverte_expectimax_ms", chance_positions(seed, chance), expectimax_value),
    )
    for name, positions, solve in sets:
        ms = []
        for pos in positions:
            start = time.perf_counter()
            solve(pos)
            ms.append((time.perf_counter() - start) * 1000)
        out[f"{name}_median"] = round(percentile(ms, 50), 2)
        out[f"{name}_p95"] = round(percentile(ms, 95), 2)
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(time_solvers()))
