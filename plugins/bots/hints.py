"""A hint that says why: the expert's action with a one-line reason.

A hint is the bot's :class:`~atout.core.model.Action` with its ``reason`` set
(:func:`with_reason`; the action compares equal to the plain one, is played like it,
hashes like it): what the search knows about the choice, in one line a player reads,
e.g. ``"wins 14 points; 12 points better than A♥"``. A reason is
a :class:`~atout.core.text.Message` (the English line, with its message id and
parameters): the front end shows it in the person's language.

:func:`play_reason` builds it from the view and the search's values of the cards: a
reason class read from the position (the only card allowed, wins the trick's points,
takes the lead, gives points to the partner, keeps the master trump, leads a master
card, ...), then the value difference to the next best card.  :func:`bid_reason` says what the
bidding's values (or the count) said.  Only the view and the engine's compiled rules of
the deal are read: a hint never knows more than its seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TypeVar

from atout.core import Engine
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import cards_of
from atout.core.model import Action
from atout.core.text import N_
from atout.core.text import CardSign
from atout.core.text import Message
from atout.core.text import Param
from atout.core.text import SuitWord
from atout.core.views import View

from .basic import played_cards

SAME = 1.0
"""Below this many points of difference two cards are "about as good"."""


A = TypeVar("A", bound=Action)


def with_reason(action: A, reason: str) -> A:
    """``action`` saying ``reason`` (its :attr:`~atout.core.model.Action.reason`): the
    same action, equal to and hashed like it."""
    return replace(action, reason=reason)


BOTH = N_("{reason}; {margin}")
"""A reason and the gap to the next best action, in one line (the front end keeps the
reason alone where room is short; a language writes its own separator)."""


def play_reason(
    view: View,
    card: int,
    values: Mapping[int, float] | None,
    engine: Engine,
) -> str:
    """Why ``card`` is the one to play in ``view``, in one line: the reason class, then
    the value difference to the next best card of ``values`` (the seat's expected score
    by card, higher better; ``None`` or one card: no difference to tell)."""
    legal = cards_of(view.legal)
    if len(legal) == 1:
        return Message("the only card you may play")
    contract = view.contract
    if contract is None:
        return ""
    rules = engine.play_rules(view.game, view.rules, contract)
    beats = rules.beats
    points = rules.points
    trump = contract.trump
    what = _reason_class(view, card, beats, points, trump)
    margin = _margin(card, values)
    if what and margin:
        return Message(BOTH, reason=what, margin=margin)
    return what or margin


def _reason_class(
    view: View, card: int, beats: tuple[int, ...], points: tuple[int, ...], trump: int | None
) -> Message:
    mine = view.hand
    others = 0xFFFFFFFF & ~played_cards(view) & ~mine
    trump_mask = 0xFF << (trump * 8) if trump is not None else 0
    # the master trump: a trump no card left outside this hand beats
    masters = [
        c
        for c in cards_of(mine & trump_mask)
        if not any(beats[c] >> o & 1 for o in cards_of(others & trump_mask))
    ]
    keeps = bool(masters) and card not in masters
    if view.trick:
        winner_seat, winner = view.trick[0]
        for seat, c in view.trick[1:]:
            if beats[winner] >> c & 1:
                winner_seat, winner = seat, c
        trick_points = sum(points[c] for _, c in view.trick) + points[card]
        last = len(view.trick) == view.seats - 1
        partner = view.teams < view.seats and winner_seat % view.teams == view.seat % view.teams
        if beats[winner] >> card & 1:
            if last:
                if trick_points:
                    return Message("wins {points} points", points=trick_points)
                return Message("wins the trick")
            if card >> 3 == trump and winner >> 3 != trump:
                return Message("trumps to take the lead")
            return Message("takes the lead in the trick")
        if partner:
            if points[card]:
                return Message(
                    "gives {points} points to your partner, who is winning", points=points[card]
                )
            return Message("leaves the trick to your partner")
        if keeps:
            return Message("keeps your master trump")
        if points[card] == 0:
            return Message("loses the trick without giving points")
        return Message("gives only {points} points to a lost trick", points=points[card])
    # leading
    higher_out = any(beats[card] >> o & 1 for o in cards_of(others & (0xFF << ((card >> 3) * 8))))
    suit = SuitWord(card >> 3)
    if card >> 3 == trump:
        if not higher_out:
            return Message("leads a trump no one can beat")
        return Message("leads trump")
    if not higher_out:
        return Message("leads a master card in {suit}", suit=suit)
    if keeps:
        return Message("keeps your master trump")
    if points[card] == 0:
        return Message("leads low in {suit}", suit=suit)
    return Message("leads {suit}", suit=suit)


def _margin(card: int, values: Mapping[int, float] | None) -> str:
    if not values or card not in values or len(values) < 2:
        return ""
    best = values[card]
    rest = [(v, c) for c, v in values.items() if c != card]
    value, other = max(rest, key=lambda vc: (vc[0], -vc[1]))
    gap = best - value
    return _gap(gap, CardSign(other))


def bid_reason(view: View, bid: str, values: Mapping[str, float] | None) -> str:
    """Why ``bid``: the value it has against the next best bid (``values``: each bid's
    expected score for the seat), else nothing."""
    if not values or bid not in values or len(values) < 2:
        return ""
    rest = [(v, b) for b, v in values.items() if b != bid]
    value, other = max(rest)
    gap = values[bid] - value
    return _gap(gap, bid_words(other, view))


def _gap(gap: float, other: Param) -> Message:
    """``12 points better than A♥``, ``about as good as pass``: a gap in points to the
    next best action ``other`` (a card or a bid)."""
    if gap < SAME:
        return Message("about as good as {other}", other=other)
    n = round(gap)
    if n == 1:
        return Message("{points} point better than {other}", points=n, other=other)
    return Message("{points} points better than {other}", points=n, other=other)


def bid_words(bid: str, view: View) -> str:
    """A bid in words: ``take ♣``, ``pass``, ``name ♥``."""
    if bid == "take" and view.turnup is not None:
        return Message("take {suit}", suit=SUIT_SYMBOLS[view.turnup >> 3])
    if len(bid) == 1 and bid in "CDHS":
        return Message("name {suit}", suit=SUIT_SYMBOLS["CDHS".index(bid)])
    if bid == "pass":
        return Message("pass")
    return bid


__all__ = ["bid_reason", "bid_words", "play_reason", "with_reason"]
