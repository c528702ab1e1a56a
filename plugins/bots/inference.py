"""Policy-based inference: how likely a sampled layout makes every card the other seats
played, as a cheap model of their play judges it.

The four-player expert samples the hidden hands and solves each layout double-dummy
(:mod:`.belote_expert`).  A layout that gives a seat the ace it did not play on a rich
trick it could have taken is possible, but unlikely: few players duck so.  The best Skat
programs weigh their sampled worlds by such a model of each seat's play (policy-based
inference); this module is that model for the Belote family, and the one place where a
layout's weight is made:

* :class:`PlayModel` replays every card a hidden seat played, in its position then
  (the trick's cards so far, its winning card, the cards already played), with the hand
  the layout gives that seat *at that moment* (its sampled cards plus the cards it has
  played since).  The legal cards come from the deal's move rule (never a rule written
  again); each legal card gets a rule-of-thumb score in card points
  (:func:`card_scores`: win a rich trick with a sure card, smear on a partner's sure
  trick, keep points off the opponents' trick, lead a master) and the probability of
  the card played is a softmax of those scores at :data:`TEMPERATURE`, mixed with the
  uniform choice at :data:`EPSILON` (a person may play anything: no layout the view
  allows weighs 0);
* :class:`WorldWeights` multiplies that likelihood with the signals' (:mod:`.signals`):
  the expert's one weighting of a layout.

It never looks at a hidden card: it only finds some layouts likelier than others.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from atout.core.cards import FULL_DECK
from atout.core.cards import SUIT_MASKS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import cards_of
from atout.core.model import Contract
from atout.core.model import MoveRule
from atout.core.state import DealState
from atout.core.views import View

from ..search.rules import CardRules
from ..search.rules import scratch_state
from .plays import deal_plays
from .plays import deal_tricks
from .plays import played_since
from .signals import EPSILON as SIGNAL_EPSILON
from .signals import SignalEvent
from .signals import played_from
from .signals import signal_events
from .signals import world_weight

TEMPERATURE = 6.0
"""The softmax temperature of :class:`PlayModel`, in card points: a card the rules of
thumb score this much lower than another is played e (2.7) times less often (the
likeliest for the expert's own play, ``docs/experiments.md``)."""
EPSILON = 0.1
"""The odds that a seat plays any of its legal cards at random rather than as the
model says: no layout the view allows weighs 0."""
TRUMP_COST = 4.0
"""What spending a trump costs a seat in the model's scores (in card points): trumps
are kept for later tricks unless a trick is worth them."""
UNSURE = 0.75
"""The share of a trick's points a card that beats the trick but is no sure winner is
taken to bring."""
GIVE = 3.0
"""What a point thrown on the opponents' trick costs a seat in the model's scores:
players throw their cheapest card."""
SMEAR = 0.75
"""The share of its points a card thrown on the partner's sure trick is scored."""
UNSAFE = -0.5
"""The share of its points a card thrown on a trick the partner may still lose is
scored (a loss)."""
SUIT_LENGTH = 1.0
"""A lead's score per card the leader holds in its suit (a lead from a long suit)."""


@dataclass(slots=True)
class PastPlay:
    """One card a hidden seat played, in its position then: ``seat`` played ``card`` as
    the ``index``-th card of a trick whose cards before it were ``trick`` (winning card
    ``win`` of ``win_seat``, worth ``points``), after the cards ``played`` of the deal
    (those of the trick included); ``later`` is what the seat played from this card on
    (this card included), added to its sampled hand to make its hand then; ``ours``:
    the seat's partner wins the trick; ``last``: the seat plays last to it; ``takers``:
    the seat is of the taker's team; ``tricks``: how many tricks were finished before."""

    seat: int
    card: Card
    index: int
    trick: list[Card]
    win: Card
    win_seat: int
    points: int
    played: CardSet
    later: CardSet
    ours: bool
    last: bool
    takers: bool
    tricks: int
    memo: dict[CardSet, float] = field(default_factory=dict)


def view_state(view: View, contract: Contract) -> DealState:
    """A scratch state in the play with what ``view`` shows of the deal (game, rules,
    contract, dealer, bids, finished tricks), for asking the deal's rules about it."""
    st = scratch_state(view.seats, view.teams, view.direction, view.game, view.rules, contract)
    st.dealer = view.dealer
    st.turnup = view.turnup
    st.bids = list(view.bids)
    st.tricks = list(view.tricks)
    st.announcements = list(view.announcements)
    return st


def past_plays(view: View, tables: CardRules) -> list[PastPlay]:
    """Every card the seats whose hands ``view`` hides played this deal (finished tricks
    and the current one), each in its position then (:class:`PastPlay`)."""
    seats = view.seats
    contract = view.contract
    taker_team = contract.taker % view.teams if contract is not None else -1
    beats, pts = tables.beats, tables.points
    tricks = deal_tricks(view)
    flat = deal_plays(view, tricks)
    since = played_since(flat, seats)
    out: list[PastPlay] = []
    played = 0
    win, wseat, points = -1, -1, 0
    for k, (ti, i, seat, c) in enumerate(flat):
        if i == 0:
            win, wseat, points = -1, -1, 0
        if seat != view.seat and view.hands[seat] is None:
            ours = i > 0 and wseat % view.teams == seat % view.teams
            out.append(
                PastPlay(
                    seat,
                    c,
                    i,
                    list(tricks[ti][1][:i]),
                    win,
                    wseat,
                    points,
                    played,
                    since[k][seat],
                    ours,
                    i == seats - 1,
                    seat % view.teams == taker_team,
                    ti,
                )
            )
        if i == 0 or beats[win] >> c & 1:
            win, wseat = c, seat
        points += pts[c]
        played |= 1 << c
    return out


def card_scores(play: PastPlay, hand: CardSet, legal: CardSet, tables: CardRules) -> list[float]:
    """The rules of thumb's score, in card points, of each card of ``legal`` (in
    ascending order) for the seat of ``play`` holding ``hand`` then.

    Following: on its partner's sure trick (it plays last, or the trick's card is a
    master of its suit) a seat smears a rich plain card (:data:`SMEAR` of its points),
    on a trick its partner may lose it gives little (:data:`UNSAFE`); against the
    opponents it wins a trick with a sure winner (a master of its suit, or any winner
    when it plays last) for the trick's points, with an unsure one for :data:`UNSURE`
    of them, and else throws its cheapest card (a point given costs :data:`GIVE`).
    Leading: a master worth points, or a master trump for the taker's team; else a low
    card from a long suit (:data:`SUIT_LENGTH` a card).  A trump spent costs
    :data:`TRUMP_COST`.  The weights were fitted to the expert's own play
    (``docs/experiments.md``).
    """
    pts, beats, tm = tables.points, tables.beats, tables.trump_mask
    live = FULL_DECK & ~play.played & ~hand
    out: list[float] = []
    if play.index == 0:
        for x in cards_of(legal):
            suit = SUIT_MASKS[x >> 3]
            master = not beats[x] & suit & live
            trump = tm >> x & 1
            if master and trump:
                s = pts[x] + TRUMP_COST if play.takers and live & tm else -TRUMP_COST
            elif master and pts[x] > 0:
                s = float(pts[x])
            else:
                s = -pts[x] + SUIT_LENGTH * (hand & suit).bit_count() - TRUMP_COST * trump
            out.append(s)
        return out
    win = play.win
    if play.ours:
        safe = play.last or not beats[win] & SUIT_MASKS[win >> 3] & live
        share = SMEAR if safe else UNSAFE
        for x in cards_of(legal):
            out.append(share * pts[x] - TRUMP_COST * (tm >> x & 1))
        return out
    gain = play.points
    for x in cards_of(legal):
        trump = tm >> x & 1
        if beats[win] >> x & 1:
            sure = play.last or not beats[x] & SUIT_MASKS[x >> 3] & live
            s = gain + pts[x] if sure else UNSURE * (gain + pts[x]) - (1 - UNSURE) * pts[x]
        else:
            s = -GIVE * pts[x]
        out.append(s - TRUMP_COST * trump)
    return out


class PlayModel:
    """The likelihood of the cards the hidden seats played, given a sampled layout.

    Built once a decision from the view (:func:`past_plays`), with the deal's move rule
    asked through a scratch state of the view's deal (:func:`view_state`, whose past
    tricks, trick and turn it sets for each question); :meth:`weight` is then the product of the
    probabilities of every past play.  Each answer is remembered by the seat's hand then,
    so layouts that agree on it cost nothing more."""

    def __init__(
        self,
        view: View,
        tables: CardRules,
        temperature: float = TEMPERATURE,
        epsilon: float = EPSILON,
    ) -> None:
        if view.contract is None:
            raise ValueError("a play model reads a deal in its play (with a contract)")
        self.tables = tables
        self.rule: MoveRule = tables.moves
        self.state = view_state(view, view.contract)
        self.view = view
        self.temperature = temperature
        self.epsilon = epsilon
        self.plays = past_plays(view, tables)

    def _legal(self, play: PastPlay, hand: CardSet) -> CardSet:
        """The cards the deal's move rule let ``play``'s seat play holding ``hand``."""
        if play.index == 0 and self.rule.free_lead:
            return hand
        st = self.state
        view = self.view
        hands = [0] * view.seats
        hands[play.seat] = hand
        st.hands = hands
        st.tricks = list(view.tricks[: play.tricks])
        st.turn = play.seat
        st.leader = (play.seat - play.index * view.direction) % view.seats
        st.trick = list(play.trick)
        st.win_card, st.win_seat = play.win, play.win_seat
        st.played = play.played
        return self.rule.legal(st) & hand

    def likelihood(self, play: PastPlay, hand: CardSet) -> float:
        """The probability that ``play``'s seat, holding ``hand`` then (the card played
        included), played its card: the softmax of :func:`card_scores` over its legal
        cards at :attr:`temperature`, mixed with the uniform choice at :attr:`epsilon`."""
        memo = play.memo.get(hand)
        if memo is not None:
            return memo
        legal = self._legal(play, hand)
        # the card played was legal then, whatever a rule that reads more of the deal
        # than the scratch state holds (the other hands) answers here
        legal |= 1 << play.card
        n = legal.bit_count()
        if n == 1:
            p = 1.0
        else:
            scores = card_scores(play, hand, legal, self.tables)
            top = max(scores)
            t = self.temperature
            exps = [math.exp((s - top) / t) for s in scores]
            mine = exps[(legal & ((1 << play.card) - 1)).bit_count()]
            p = (1.0 - self.epsilon) * mine / sum(exps) + self.epsilon / n
        play.memo[hand] = p
        return p

    def weight(self, hands: Sequence[CardSet]) -> float:
        """The likelihood of every past play of a hidden seat under the layout
        ``hands`` (each hidden seat's unplayed cards)."""
        w = 1.0
        for play in self.plays:
            w *= self.likelihood(play, hands[play.seat] | play.later)
        return w


class WorldWeights:
    """The weight of a sampled layout, the one the expert averages its values with: the
    signals' likelihood (:func:`~.signals.world_weight`, when ``signals``) times the play
    model's (:class:`PlayModel`, when ``policy``); 1 when neither reads anything."""

    def __init__(
        self,
        view: View,
        tables: CardRules,
        *,
        signals: bool,
        policy: bool,
        temperature: float = TEMPERATURE,
        epsilon: float = EPSILON,
    ) -> None:
        self.events: list[SignalEvent] = [
            e
            for e in (signal_events(view, tables) if signals else [])
            if e.seat != view.seat and view.hands[e.seat] is None
        ]
        self.later = played_from(view, self.events)
        self.trumps = tables.trump_mask
        self.model = PlayModel(view, tables, temperature, epsilon) if policy else None

    @property
    def plays(self) -> int:
        """How many past plays the play model reads (0 without it)."""
        return len(self.model.plays) if self.model is not None else 0

    def weight(self, hands: Sequence[CardSet]) -> float:
        """The weight of the layout ``hands``: never 0 for a layout the view allows."""
        w = world_weight(self.events, hands, self.later, self.trumps, SIGNAL_EPSILON)
        if self.model is not None:
            w *= self.model.weight(hands)
        return w


__all__ = [
    "EPSILON",
    "TEMPERATURE",
    "PastPlay",
    "PlayModel",
    "WorldWeights",
    "card_scores",
    "past_plays",
    "view_state",
]
