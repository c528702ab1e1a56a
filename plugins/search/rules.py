"""What every search shares: the rules of the deal as tables, a deadline, the deal's outcome.

A search bot never carries a copy of a rule.  It asks the engine for the deal's compiled
play rules (:meth:`atout.core.Engine.play_rules`: the move rule, the trick-winner table
and the card values that the rule plugins answered for this contract) and turns them
into the tables a search reads in its inner loop (:class:`CardRules`).  So a contract
that a third-party plugin defines (sans-atout, tout-atout, a house rule that changes an
obligation) is searched exactly as the shipped ones are.

The score of a deal comes the same way: a search that ends a deal in its head describes
the end (:class:`~atout.core.model.DealEnd`: each team's card points, declarations,
belote-rebelote, capot) and asks the game's own scoring, compiled once per deal (hook
``atout_deal_scorer``), what the score sheet would say (:func:`deal_outcome`).  No bot
writes a scoring rule again, so a plugin's scoring is valued as the game scores it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from atout.core.cards import FULL_DECK
from atout.core.cards import SUIT_MASKS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.engine import Engine
from atout.core.engine import PlayRules
from atout.core.model import Contract
from atout.core.model import DealEnd
from atout.core.model import DealScorer
from atout.core.model import Layout
from atout.core.model import MoveRule
from atout.core.model import Rules
from atout.core.state import PLAY
from atout.core.state import DealState

INF = 1 << 20
"""A bound beyond any score a deal can reach (integer, so bounds stay exact)."""


Value = TypeVar("Value", int, float)
"""A search value: the exact solvers' integer points or the chance solver's utility."""


def window(lo: Value, hi: Value, alpha: Value, beta: Value) -> tuple[Value | None, Value, Value]:
    """A position's proven bounds ``[lo, hi]`` (a transposition table's entry) met with
    the window ``(alpha, beta)`` of a fail-soft alpha-beta search: the value to return
    at once (a bound outside the window, or the exact value), else ``None``, and the
    window narrowed to the bounds.  The Découverte solvers' probe of their tables (the
    four-player solver writes it out in its inner loop, where the call costs more)."""
    if lo >= beta:
        return lo, alpha, beta
    if hi <= alpha:
        return hi, alpha, beta
    if lo == hi:
        return lo, alpha, beta
    return None, lo if lo > alpha else alpha, hi if hi < beta else beta


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


@functools.cache
def _installed_engine() -> Engine:
    return Engine()


def default_engine(engine: Engine | None = None) -> Engine:
    """``engine``, or (for a bot built without one) the engine of the installed
    plugins, built once."""
    return engine if engine is not None else _installed_engine()


def deal_scorer(
    engine: Engine | None, game: str, rules: Rules, contract: Contract
) -> DealScorer | None:
    """The game's scoring of a deal by how it ends (hook ``atout_deal_scorer``), asked
    once per engine, game, rules and contract (and again when the plugins change)."""
    engine = default_engine(engine)
    return _scorer(engine, engine.pm.generation, game, rules, contract)


@functools.lru_cache(maxsize=1024)
def _scorer(
    engine: Engine, generation: int, game: str, rules: Rules, contract: Contract
) -> DealScorer | None:
    return engine.hooks.deal_scorer(game=game, rules=rules, contract=contract)


@dataclass(frozen=True)
class DealPoints:
    """How a deal ends as a search counts it, for the score sheet (:func:`deal_outcome`):
    the team asked about ends with ``mine`` of the ``total`` card points of the deal
    (the last trick's bonus included: :attr:`CardRules.total` of the deal's rules), and
    the teams' declarations are ``decl`` (per team), of which ``belote`` are
    belote-rebelote (the scoring treats them apart)."""

    mine: int
    decl: Sequence[int]
    total: int
    belote: Sequence[int] = (0, 0)


def deal_outcome(
    rules: Rules,
    game: str,
    team: int,
    takers: int,
    points: DealPoints,
    engine: Engine | None = None,
    contract: Contract | None = None,
) -> tuple[bool | None, float]:
    """Whether the takers make the contract (``None``: neither, a tie held over) and
    the deal's score difference, ``team`` minus the other, when the deal ends with
    ``points`` (``team``'s card points, both teams' declarations), the contract
    (``contract``, else a contract of the team ``takers``) being the team ``takers``'s
    (in Découverte a team is a player).

    The game's own scoring decides (:func:`deal_scorer`); the search only says how the
    deal ends: a team with every card point is taken for capot (the solvers count
    points, not tricks).  A game that gives no scorer is valued by its card points.
    ``tests/test_expert_utility.py`` holds the answers equal to the game's scoring of
    played deals under every scoring option."""
    if contract is None:
        contract = Contract(takers, None, "")
    scorer = deal_scorer(engine, game, rules, contract)
    return _outcome(
        scorer, team, points.mine, tuple(points.decl), points.total, tuple(points.belote)
    )


@functools.lru_cache(maxsize=1 << 16)
def _outcome(
    scorer: DealScorer | None,
    team: int,
    my_cards: int,
    decl: tuple[int, ...],
    deal_points: int,
    belote: tuple[int, ...],
) -> tuple[bool | None, float]:
    other = 1 - team
    cards = [0, 0]
    cards[team] = my_cards
    cards[other] = deal_points - my_cards
    if scorer is None:
        return cards[team] > cards[other], float(cards[team] - cards[other])
    capot = next((t for t in (0, 1) if cards[t] >= deal_points), None)
    plain = (decl[0] - belote[0], decl[1] - belote[1])
    result = scorer(DealEnd((cards[0], cards[1]), capot, plain, belote))
    return result.made, float(result.score[team] - result.score[other])


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

    @property
    def trump_suit(self) -> int | None:
        """The one trump suit, when the trumps are exactly one suit and each of them
        beats every card of the other suits (a suit contract); else ``None`` (no trump,
        every suit trump, or a trump set a plugin made up).  A search may then take it
        that the highest live trumps win whatever they meet."""
        return _trump_suit(self.trump_mask, self.beats)


@cache
def _trump_suit(trump_mask: CardSet, beats: tuple[CardSet, ...]) -> int | None:
    for s in range(4):
        if trump_mask == SUIT_MASKS[s]:
            plain = [x for x in range(32) if x >> 3 != s]
            trumps = [t for t in range(32) if t >> 3 == s]
            if all(beats[x] & trump_mask == trump_mask for x in plain) and not any(
                beats[t] & ~trump_mask for t in trumps
            ):
                return s
    return None


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


# --- asking the deal's move rule from inside a search -------------------------------------


def trick_code(trick: Sequence[Card]) -> int:
    """The cards of a trick packed into one int in play order, 6 bits a card (the card
    plus one, so that a trick's length can be read back), the first card highest: a key
    for remembering legal sets (:class:`MoveAsker`); 0 is the empty trick."""
    code = 0
    for c in trick:
        code = code << 6 | (c + 1)
    return code


def trick_of_code(code: int) -> list[Card]:
    """The cards of a trick packed by :func:`trick_code`, in play order."""
    out: list[Card] = []
    while code:
        out.append((code & 63) - 1)
        code >>= 6
    out.reverse()
    return out


def scratch_state(
    seats: int,
    teams: int,
    direction: int = 1,
    game: str = "",
    rules: Rules | None = None,
    contract: Contract | None = None,
) -> DealState:
    """A :class:`DealState` in the play, with no cards yet, for asking a move rule about
    positions a search makes up (its hands, trick and turn are set before each question).

    Give the deal's ``game``, ``rules`` and ``contract`` when they are known: a move rule
    that is not :attr:`~atout.core.model.MoveRule.trick_local` may read them."""
    state = DealState(
        game,
        rules if rules is not None else Rules(game, {}),
        seats,
        teams,
        0,
        Layout(hands=(0,) * seats),
        direction,
    )
    state.contract = contract
    state.phase = PLAY
    return state


class MoveAsker:
    """The deal's move rule as a search asks it: through a scratch state, and remembered
    when the rule is :attr:`~atout.core.model.MoveRule.trick_local`.

    ``memo`` maps ``hand | trick_code(trick) << 32`` to the legal cards of the seat that
    holds ``hand`` before ``trick``; a search may read it directly in its inner loop and
    call :meth:`ask` on a miss.  At a table whose teams are fixed (partners sit
    ``teams`` seats apart), the trick's order of cards says whether its winning seat is
    the partner of the seat to play, so hand and trick are the whole key of a
    trick-local rule's answer.  For any other rule nothing is remembered and every
    question is asked with the whole position: every hand, the trick, its leader, its
    winning card and seat, the cards played (``FULL_DECK`` less the hands).  The past
    tricks, won cards and points of the scratch state are the ones the caller set
    (those of the position the search started from).
    """

    __slots__ = ("direction", "local", "memo", "rule", "seats", "state")

    LIMIT = 1 << 21
    """The memo is emptied when it holds this many answers (it lives as long as its search)."""

    def __init__(self, rule: MoveRule, state: DealState) -> None:
        self.rule = rule
        self.state = state
        self.local = bool(rule.trick_local)
        self.memo: dict[int, CardSet] = {}
        self.seats = state.seats
        self.direction = state.direction

    def ask(
        self,
        hands: Sequence[CardSet],
        seat: int,
        code: int,
        win: Card,
        win_seat: int,
    ) -> CardSet:
        """The legal cards of ``seat`` holding ``hands[seat]`` before the trick of
        ``code`` (:func:`trick_code`), whose winning card ``win`` was played by
        ``win_seat`` (both -1 for an empty trick); remembered when trick-local."""
        return self.ask_trick(hands, seat, trick_of_code(code), code, win, win_seat)

    def ask_trick(
        self,
        hands: Sequence[CardSet],
        seat: int,
        trick: list[Card],
        code: int,
        win: Card,
        win_seat: int,
    ) -> CardSet:
        """:meth:`ask` for a search that holds the trick as a list of cards as well as
        its ``code`` (:func:`trick_code`): the same answer, remembered the same way.
        For a trick-local rule it sets only what such a rule may read (no decoding of
        the trick, no cards played), which is what makes it cheaper in an inner loop;
        :meth:`ask` decodes the trick and comes here."""
        st = self.state
        hand = hands[seat]
        st.hands = list(hands)
        st.turn = seat
        st.leader = (seat - len(trick) * self.direction) % self.seats
        st.trick = trick
        st.win_card = win
        st.win_seat = win_seat
        if not self.local:
            held = 0
            for h in hands:
                held |= h
            st.played = FULL_DECK & ~held
        legal: CardSet = self.rule.legal(st)
        if not legal or legal & ~hand:
            raise ValueError(
                f"the move rule {type(self.rule).__name__} answered {legal:#x} for a seat "
                f"holding {hand:#x}: a legal set is a non-empty part of the hand"
            )
        if not self.local:
            return legal
        memo = self.memo
        if len(memo) >= self.LIMIT:
            memo.clear()
        memo[hand | code << 32] = legal
        return legal
