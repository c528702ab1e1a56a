"""The cards a deal's view shows played, in their order, as the bots read them.

The play's reading (:func:`~.belote_expert.read_play`), the play model
(:mod:`.inference`) and the signals' weights (:mod:`.signals`) all ask one question of
the past: which cards each seat played from some card of the deal on, to turn a sampled
hand of now into the hand the seat held then.  It is answered here, once.
"""

from __future__ import annotations

from collections.abc import Sequence

from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.views import View


def deal_tricks(view: View) -> list[tuple[int, tuple[Card, ...]]]:
    """The deal's tricks as ``view`` shows them, the current one included: (its leader,
    its cards in play order)."""
    tricks: list[tuple[int, tuple[Card, ...]]] = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    return tricks


def deal_plays(
    view: View, tricks: Sequence[tuple[int, tuple[Card, ...]]]
) -> list[tuple[int, int, int, Card]]:
    """Every card of ``tricks`` (:func:`deal_tricks`) in its order: (the trick's number
    from 0, the card's place in the trick, the seat that played it, the card)."""
    return [
        (ti, i, (leader + i * view.direction) % view.seats, c)
        for ti, (leader, cards) in enumerate(tricks)
        for i, c in enumerate(cards)
    ]


def played_since(plays: Sequence[tuple[int, int, int, Card]], seats: int) -> list[list[CardSet]]:
    """Per card of ``plays`` (:func:`deal_plays`), per seat, the cards the seat played
    from that card on (that card included): what a sampled hand of now adds up to, to
    be the seat's hand then."""
    out: list[list[CardSet]] = [[]] * len(plays)
    later = [0] * seats
    for k in range(len(plays) - 1, -1, -1):
        seat, c = plays[k][2], plays[k][3]
        later[seat] |= 1 << c
        out[k] = list(later)
    return out


__all__ = ["deal_plays", "deal_tricks", "played_since"]
