"""What a four-player view's announcements say: the declarations read back from them.

The carrés and sequences a seat announced are shown on the table with their cards; the
bots read them back here into points and comparison keys (the official values of
docs/rules.md, "Declarations"), to count what a deal is worth to each team
(:func:`declaration_points`) and to know that a claim is sure
(:func:`~.basic.sure_claim`).  Nothing here decides a rule: the scorer does, through
its hook; this is a bot's reckoning of what is already public.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from atout.core.cards import ACE
from atout.core.cards import JACK
from atout.core.cards import KING
from atout.core.cards import NINE
from atout.core.cards import QUEEN
from atout.core.cards import SUIT_MASKS
from atout.core.cards import TEN
from atout.core.cards import CardSet
from atout.core.cards import cards_of
from atout.core.cards import make_card
from atout.core.views import View

CARRE_POINTS = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
CARRE_ORDER = {JACK: 6, NINE: 5, ACE: 4, TEN: 3, KING: 2, QUEEN: 1}
SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100}
BELOTE_WORDS = ("belote", "rebelote", "belote-rebelote")
BELOTE_POINTS = 20
"""What belote-rebelote scores (docs/rules.md), in both games."""


def _team(view: View, seat: int) -> int:
    return seat % view.teams


@dataclass(frozen=True)
class Shown:
    """A declaration some seat announced: its cards, points and comparison key."""

    seat: int
    cards: CardSet
    points: int
    rank: tuple[int, ...]


def announced_declarations(view: View) -> list[Shown]:
    """The declarations (carrés, sequences) announced so far, read back from the
    announcements' cards; belote words are not declarations here."""
    out: list[Shown] = []
    trump = view.trump
    for a in view.announcements:
        if a.text in BELOTE_WORDS or a.cards.bit_count() < 3:
            continue
        cards = a.cards
        ranks = {c & 7 for c in cards_of(cards)}
        if len(ranks) == 1 and cards.bit_count() == 4:
            r = ranks.pop()
            out.append(Shown(a.seat, cards, CARRE_POINTS.get(r, 0), (2, CARRE_ORDER.get(r, 0))))
            continue
        length = cards.bit_count()
        top = max(c & 7 for c in cards_of(cards))
        is_trump = int(trump is not None and bool(cards & SUIT_MASKS[trump]))
        out.append(
            Shown(
                a.seat,
                cards,
                SEQUENCE_POINTS.get(min(length, 5), 0),
                (1, min(length, 5), top, is_trump),
            )
        )
    return out


def belote_cards(trump: int) -> CardSet:
    """The trump king and queen, the cards of belote-rebelote."""
    return (1 << make_card(trump, KING)) | (1 << make_card(trump, QUEEN))


def belote_said(view: View) -> list[bool]:
    """Per team, whether one of its seats has said belote (or belote-rebelote)."""
    out = [False] * view.teams
    for a in view.announcements:
        if a.text in ("belote", "belote-rebelote"):
            out[_team(view, a.seat)] = True
    return out


def played_by(view: View) -> list[CardSet]:
    """Per seat, the cards it has played in this deal (the current trick included)."""
    out = [0] * view.seats
    for t in view.tricks:
        for seat, c in zip(t.seats(view.seats, view.direction), t.cards, strict=True):
            out[seat] |= 1 << c
    for seat, c in view.trick:
        out[seat] |= 1 << c
    return out


def unseen_belote(view: View) -> tuple[CardSet, tuple[int, ...]]:
    """The trump king and queen (as a card set) when belote-rebelote may still lie in a
    hidden hand, and the seats that may hold it; ``(0, ())`` when it cannot: no trump, no
    declarations, belote already announced, or this seat holding one of the two cards.
    A layout giving one of those seats both cards scores its team 20 more than
    :func:`declaration_points` counts (:func:`layout_declarations`): the holder announces
    it when it plays them."""
    trump = view.trump
    if trump is None or view.rules.get("declarations", "on") == "none":
        return 0, ()
    kq = belote_cards(trump)
    if view.hand & kq or any(belote_said(view)):
        return 0, ()
    return kq, tuple(s for s in range(view.seats) if s != view.seat)


def layout_declarations(
    view: View,
    hands: Sequence[CardSet],
    decl: Sequence[int],
    belote: Sequence[int],
    unseen: tuple[CardSet, tuple[int, ...]] | None = None,
) -> tuple[list[int], list[int]]:
    """``decl`` and ``belote`` (:func:`declaration_points`, :func:`belote_points`) with
    the belote-rebelote that the full layout ``hands`` gives a hidden seat: 20 more for
    the team of a seat of :func:`unseen_belote` holding both cards.  ``unseen`` is
    :func:`unseen_belote` of ``view`` when the caller already has it."""
    kq, seats = unseen if unseen is not None else unseen_belote(view)
    decl, belote = list(decl), list(belote)
    for s in seats:
        if hands[s] & kq == kq:
            decl[_team(view, s)] += BELOTE_POINTS
            belote[_team(view, s)] += BELOTE_POINTS
            break
    return decl, belote


def declaration_points(view: View) -> list[int]:
    """Per team, the declaration points that would count on what is shown now: the
    combinations (:func:`combination_points`) and belote-rebelote
    (:func:`belote_points`)."""
    return [a + b for a, b in zip(combination_points(view), belote_points(view), strict=True)]


def combination_points(view: View) -> list[int]:
    """Per team, the points of the combinations announced (tierce, carré...) that would
    count on what is shown now: only the team with the best declaration scores (all of)
    its own."""
    out = [0] * view.teams
    decls = announced_declarations(view)
    if decls and view.rules.get("declarations", "on") == "on":
        if view.rules.get("declaration_comparison", "official") == "kind-by-kind":
            kinds: dict[tuple[int, ...], list[Shown]] = {}
            for d in decls:
                kinds.setdefault(d.rank[:1] if d.rank[0] == 2 else d.rank[:2], []).append(d)
            for group in kinds.values():
                best = max(group, key=lambda d: d.rank)
                for d in group:
                    if _team(view, d.seat) == _team(view, best.seat):
                        out[_team(view, d.seat)] += d.points
        else:
            best = max(decls, key=lambda d: d.rank)
            for d in decls:
                if _team(view, d.seat) == _team(view, best.seat):
                    out[_team(view, d.seat)] += d.points
    return out


def belote_points(view: View) -> list[int]:
    """Per team, the belote-rebelote points :func:`declaration_points` counts: the team
    that announced it, or this seat's own team when it holds both cards.  The scoring
    treats them apart (a team that fails its contract keeps its belote by default)."""
    out = [0] * view.teams
    trump = view.trump
    if trump is not None and view.rules.get("declarations", "on") != "none":
        mine = view.hand & belote_cards(trump) == belote_cards(trump)
        for t, said in enumerate(belote_said(view)):
            if said or (mine and t == _team(view, view.seat)):
                out[t] += BELOTE_POINTS
    return out
