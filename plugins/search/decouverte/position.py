"""Découverte's positions as the searches see them: the rules of a deal (:class:`DealRules`),
the tables compiled from them (:class:`Tables`), the lean :class:`Position`, and stepping it
(:func:`legal_cards`, :func:`successors`, :func:`play_known`, :func:`hide`).

See :mod:`atout.plugins.search.decouverte` for how the solvers use them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache

from atout.core import Contract
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Rules
from atout.core.cards import SUITS
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.state import PLAY

from ..rules import CardRules
from ..rules import default_engine

GAME = "decouverte"
TRICKS = 16
CACHE_LIMIT = 200_000
"""Entries a memo of :class:`Tables` holds before it starts afresh (bounded memory)."""


CLOCK_EVERY = 512
"""Expanded nodes between two readings of the clock (:class:`~atout.plugins.search.rules.Deadline`)."""


# --- the rules of a deal ------------------------------------------------------------------


@dataclass(frozen=True)
class DealRules:
    """The rules of one Découverte deal, as the engine compiled them for its contract.

    ``cards`` holds the move rule, the trick-winner table and the card values that the
    rule plugins answered (:meth:`atout.core.Engine.play_rules`, read through
    :class:`~atout.plugins.search.rules.CardRules`): the solvers search exactly those, so a contract a
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
    (default: :func:`~atout.plugins.search.rules.default_engine`).  The options are set on the game's defaults
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
        # a led card's face-down card may turn at once (the rules' reveal_on_lead)
        reveal = pos.rules.reveal_on_lead
        if reveal and card in under:
            hands[L] |= 1 << under.pop(card)
        elif reveal and pos.covers >> card & 1:
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
