"""The signals French club players make with their cards (appel direct), as one model.

Four-player Belote leaves a seat one free choice that says something: the card it
throws when it has none of the suit led and its partner is winning the trick (it need
not trump), and the card a defender leads.  Club players agree what those choices mean
(``docs/bots.md``, *Signals*, names the sources); this module is that agreement, written
once and used both ways:

* **making** them: :func:`conventional_cards` is the set of cards the convention allows
  in a signalling situation (:func:`situation`); the expert plays one of them when the
  search finds it as good as its best card, within a tolerance, and the scripted
  partner (:class:`~.basic.GreedyBot` with ``signals``) always does;
* **reading** them: :func:`signal_events` lists the signals the deal's cards made so
  far, and :func:`world_weight` is how likely a sampled layout makes them, a seat
  being taken to follow the convention except with odds :data:`EPSILON` (an
  epsilon-mixture: no layout the view allows gets weight zero, a person may not know
  the convention).  The expert weighs each sampled layout by it (importance weights):
  it never looks at a hidden card, it only finds some layouts likelier than others.

The convention, for a contract with one trump suit (none is read or made otherwise):

* **the first discard on the partner's trick** (a plain card of another suit than the
  one led, thrown while the partner wins the trick) is a signal about its suit:
  a **call** with an ace (it shows the ten too) or a picture, king, queen or jack (it
  shows the ace, or the ten with a guard, or a suit the discard leaves void while the
  seat still holds a trump to ruff it); a **refusal** with a ten (it denies the ace) or
  a low card, 7, 8 or 9 ("nothing here": no ace, no guarded ten).  A seat with a suit to
  call calls it; one with none refuses in a suit it does not want;
* **a defender's first lead** of a plain suit asks for that suit back: the ace, or a
  card of a suit in which the leader keeps the ten, or its last card of a suit it can
  ruff now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from atout.core.cards import ACE
from atout.core.cards import EIGHT
from atout.core.cards import JACK
from atout.core.cards import KING
from atout.core.cards import NINE
from atout.core.cards import QUEEN
from atout.core.cards import SEVEN
from atout.core.cards import SUIT_MASKS
from atout.core.cards import TEN
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import make_card
from atout.core.views import View

from ..search.rules import CardRules
from .plays import deal_plays
from .plays import deal_tricks
from .plays import played_since

DISCARD = "discard"
"""A seat's first discard on a trick its partner wins."""
LEAD = "lead"
"""A defender's first lead."""
CALL = "call"
REFUSAL = "refusal"

EPSILON = 0.15
"""The odds that a seat plays any card it may rather than the convention's: the weight of
a layout never falls to zero, and a partner who signals otherwise (or not at all) only
makes the reading weaker, never wrong about what the view proves."""

CALL_RANKS = frozenset({ACE, KING, QUEEN, JACK})
"""The ranks whose discard calls its suit (the others refuse it)."""
PICTURES = (KING, QUEEN, JACK)
LOW_RANKS = (NINE, EIGHT, SEVEN)
"""9, 8, 7: the ranks of a refusal that says nothing but "nothing here"."""


def _bit(suit: int, rank: int) -> CardSet:
    return 1 << make_card(suit, rank)


def meaning(card: Card) -> str:
    """What a discard of ``card`` on the partner's trick says of its suit: :data:`CALL`
    (an ace or a picture) or :data:`REFUSAL` (a ten or a low card)."""
    return CALL if card & 7 in CALL_RANKS else REFUSAL


def wants(hand: CardSet, suit: int, trumps: CardSet) -> bool:
    """Whether a seat holding ``hand`` (before its discard) has ``suit`` to call: its
    ace, or its ten with another card of the suit, or a single card of the suit (the
    discard leaves a void) and a trump to ruff it."""
    cards = hand & SUIT_MASKS[suit]
    if cards & _bit(suit, ACE):
        return True
    if cards & _bit(suit, TEN) and cards.bit_count() >= 2:
        return True
    return cards.bit_count() == 1 and bool(hand & trumps)


def conventional_discards(hand: CardSet, discards: CardSet, trumps: CardSet) -> CardSet:
    """The cards of ``discards`` (the plain cards the seat may throw) that the
    convention plays from ``hand``: the calls of the suits it wants (a picture; the ace
    when it holds the ten too), else the refusals of the suits it does not want (a low
    card, or the ten), else any of ``discards`` (the convention has nothing to say)."""
    calls = 0
    refusals = 0
    for s in range(4):
        mine = discards & SUIT_MASKS[s]
        if not mine:
            continue
        if wants(hand, s, trumps):
            for r in PICTURES:
                calls |= mine & _bit(s, r)
            if hand & _bit(s, TEN):
                calls |= mine & _bit(s, ACE)
        else:
            for r in (TEN, *LOW_RANKS):
                refusals |= mine & _bit(s, r)
    return calls or refusals or discards


def conventional_leads(hand: CardSet, legal: CardSet, trumps: CardSet) -> CardSet:
    """The plain cards of ``legal`` a defender's first lead may be under the convention:
    an ace, a card of a suit whose ten it keeps, or its last card of a suit while it
    holds a trump; all of ``legal`` when it has none of those."""
    out = 0
    for s in range(4):
        mine = legal & SUIT_MASKS[s] & ~trumps
        if not mine:
            continue
        out |= mine & _bit(s, ACE)
        held = hand & SUIT_MASKS[s]
        if held & _bit(s, TEN):
            out |= mine & ~_bit(s, TEN)
        if held.bit_count() == 1 and hand & trumps:
            out |= mine
    return out or legal


@dataclass(frozen=True, slots=True)
class SignalEvent:
    """One signal a seat made: ``card``, the ``index``-th card of the deal, in a
    :data:`DISCARD` situation (``led``: the suit led) or a :data:`LEAD`."""

    seat: int
    card: Card
    kind: str
    index: int
    led: int = -1


def _team(view: View, seat: int) -> int:
    return seat % view.teams


def signal_events(view: View, tables: CardRules) -> list[SignalEvent]:
    """The signals the deal's cards made so far, in play order: each seat's first
    discard on its partner's trick, each defender's first lead (of a plain card).  None
    under a contract without one trump suit."""
    contract = view.contract
    if contract is None or tables.trump_suit is None or view.seats != 4:
        return []
    trumps = tables.trump_mask
    beats = tables.beats
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    takers = _team(view, contract.taker)
    discarded: set[int] = set()
    led: set[int] = set()
    out: list[SignalEvent] = []
    index = 0
    for leader, cards in tricks:
        win, wseat = -1, -1
        suit = cards[0] >> 3 if cards else -1
        for i, c in enumerate(cards):
            seat = (leader + i * view.direction) % view.seats
            if i == 0:
                if seat not in led and _team(view, seat) != takers and not trumps >> c & 1:
                    out.append(SignalEvent(seat, c, LEAD, index))
                led.add(seat)
                win, wseat = c, seat
            else:
                partner_wins = wseat != seat and _team(view, wseat) == _team(view, seat)
                plain_discard = c >> 3 != suit and not trumps >> c & 1
                if partner_wins and plain_discard and seat not in discarded:
                    discarded.add(seat)
                    out.append(SignalEvent(seat, c, DISCARD, index, suit))
                if beats[win] >> c & 1:
                    win, wseat = c, seat
            index += 1
    return out


def situation(view: View, tables: CardRules) -> str | None:
    """The signal the seat to play in ``view`` may make now: :data:`DISCARD` (its first
    discard on its partner's trick, having none of the suit led), :data:`LEAD` (a
    defender's first lead), or ``None``."""
    contract = view.contract
    if contract is None or tables.trump_suit is None or view.seats != 4:
        return None
    me = view.seat
    if not view.trick:
        if _team(view, me) == _team(view, contract.taker):
            return None
        if any(t.leader == me for t in view.tricks):
            return None
        return LEAD
    suit = view.trick[0][1] >> 3
    if view.hand & SUIT_MASKS[suit]:
        return None
    win, wseat = view.trick[0][1], view.trick[0][0]
    for s, c in view.trick[1:]:
        if tables.beats[win] >> c & 1:
            win, wseat = c, s
    if _team(view, wseat) != _team(view, me):
        return None
    if any(e.seat == me and e.kind == DISCARD for e in signal_events(view, tables)):
        return None
    return DISCARD


def conventional_cards(view: View, tables: CardRules) -> CardSet:
    """The legal cards the convention plays in the seat's signalling :func:`situation`
    (0 when there is none, or when the convention leaves every card alike)."""
    kind = situation(view, tables)
    trumps = tables.trump_mask
    if kind == DISCARD:
        suit = view.trick[0][1] >> 3
        discards = view.legal & ~trumps & ~SUIT_MASKS[suit]
        chosen = conventional_discards(view.hand, discards, trumps)
        return 0 if chosen == discards else chosen
    if kind == LEAD:
        legal = view.legal & ~trumps
        chosen = conventional_leads(view.hand, legal, trumps)
        return 0 if chosen == legal else chosen
    return 0


def likelihood(event: SignalEvent, hand: CardSet, trumps: CardSet, epsilon: float) -> float:
    """How likely a seat holding ``hand`` then (the card included) made ``event``: the
    convention's card with odds ``1 - epsilon`` shared among its cards, any card it
    could have played in the situation with odds ``epsilon`` shared among them."""
    if event.kind == DISCARD:
        options = hand & ~trumps & ~SUIT_MASKS[event.led]
        conv = conventional_discards(hand, options, trumps)
    else:
        options = hand & ~trumps
        conv = conventional_leads(hand, options, trumps)
    n = options.bit_count()
    if n == 0:
        return 1.0
    p = epsilon / n
    if conv >> event.card & 1:
        p += (1.0 - epsilon) / conv.bit_count()
    return p


def world_weight(
    events: Sequence[SignalEvent],
    hands: Sequence[CardSet],
    later: Sequence[Sequence[CardSet]],
    trumps: CardSet,
    epsilon: float = EPSILON,
) -> float:
    """The weight of a sampled layout ``hands`` (each hidden seat's unplayed cards):
    the product, over the ``events`` of hidden seats, of their :func:`likelihood` given
    the hand the seat held then, its sampled cards plus ``later[i][seat]``, the cards
    it played from the ``i``-th event's card on."""
    w = 1.0
    for e, after in zip(events, later, strict=True):
        w *= likelihood(e, hands[e.seat] | after[e.seat], trumps, epsilon)
    return w


def played_from(view: View, events: Sequence[SignalEvent]) -> list[list[CardSet]]:
    """Per event, per seat, the cards the seat played from the event's card on (that
    card included): what a sampled hand adds up to for :func:`world_weight`."""
    since = played_since(deal_plays(view, deal_tricks(view)), view.seats)
    return [since[e.index] for e in events]


__all__ = [
    "CALL",
    "DISCARD",
    "EPSILON",
    "LEAD",
    "REFUSAL",
    "SignalEvent",
    "conventional_cards",
    "conventional_discards",
    "conventional_leads",
    "likelihood",
    "meaning",
    "played_from",
    "signal_events",
    "situation",
    "wants",
    "world_weight",
]
