"""Belote Découverte for two players, as docs/rules.md states it ("Belote Découverte").

The only source is the German pagat.com page (seed ``001``); the options marked
``published`` come from other published Découverte rules.  Registered through atout's
``atout.plugins`` entry point like any third-party plugin; the hooks the family shares
are :class:`~atout.plugins.family.BeloteFamily`'s, the rest :class:`Decouverte`'s.  Seat
0 is South, seat 1 is North; each seat is its own team (team = seat).

The rules, hook by hook:

* **Deal** (``atout_deal``): every deal is shuffled with the match's ``rng``.  The pack
  is dealt in the seed's order: pack positions 0-3 face down to the non-dealer's near row,
  4-7 face down to the dealer's near row, 8-11 face down to the non-dealer's far row,
  12-15 face down to the dealer's far row, then 16-31 in the same pattern face up, each
  face-up card covering the face-down card dealt to the same place.  Each seat has eight
  piles ``(up, down)``: positions 0-3 its near row, 4-7 its far row.  The face-up cards
  are the seat's playable cards (``hands``); the face-down ones are nobody's to see.
* **Bidding** on the last card dealt (the dealer's last face-up card, far-row position 7):
  round 1 take or pass on its suit, round 2 another suit or pass, the non-dealer first in
  each round.  The taker does *not* take that card: it stays the dealer's.  Both pass
  twice: redeal, and the other player deals.
* **Play**: only face-up cards can be played; the Belote obligations are judged on them
  (:class:`~atout.plugins.common.BeloteMoves`; with two seats the other seat is never a
  partner, so the "partner is winning" relief never applies).  After each trick every
  face-down card no longer covered is turned face up (``atout_end_of_trick``).
  Option ``reveal_on_lead``: the leader's covered card is turned at once when the lead is
  played, before the opponent answers (``atout_card_played``).
* **Scoring**: card points and dix de der, 162 a deal.  The taker fails with 81 or fewer
  (more generally: unless the taker's total beats the opponent's, which with nothing
  declared means 82 or more); then the opponent scores all 162.  Otherwise both score
  their points.  Option ``capot_bonus``: what winning all 16 tricks adds (0 by default,
  50 in the published variant).  Match to ``target`` (1000).

Decisions where the seed is silent (also in ``docs/decouverte.md``):

* **Declarations** (option ``declarations = "on"``) are judged from each player's eight
  face-up cards when the play starts (the only cards a player knows), announced when the
  player plays to the first trick, and compared as in four-player Belote: only the player
  with the single best declaration scores (all of) his; an exact tie goes to the
  non-dealer (first in rotation).  A capot player loses his declarations.
* **Belote-rebelote** (option ``belote_rebelote``) must not reveal a face-down card, which
  even its owner does not know.  The trump king and queen score 20 for the player who plays
  both of them (each player plays exactly his own sixteen cards, so this is the player
  they were dealt to).  On playing the first of them he says "belote" only if the other
  lies face up among his playable cards at that moment; otherwise he says nothing then,
  and "belote-rebelote" when he plays the second (after saying "belote" he says
  "rebelote").  Nothing is ever said about a card still face down.
* With declarations or belote-rebelote counting, the contract test compares totals:
  the taker makes it with strictly more than the opponent (the seed's "81 or fewer
  fails" is this test when nothing is declared).  When the taker fails the opponent
  scores 162 plus every declaration of both players plus his own belote; the taker
  keeps his belote (as in four-player Belote's default).
* **Winner deals** (option ``dealer_rule = "winner"``): the winner of a deal is the taker
  when he made it, else the opponent.  A redeal always passes the deal to the other
  player, as the seed says.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from atout.core import hookimpl
from atout.core.cards import KING
from atout.core.cards import QUEEN
from atout.core.cards import Card
from atout.core.cards import card_str
from atout.core.cards import make_card
from atout.core.cards import mask_of
from atout.core.model import Announcement
from atout.core.model import CardPlayed
from atout.core.model import Contract
from atout.core.model import DealEnd
from atout.core.model import DealScore
from atout.core.model import Declaration
from atout.core.model import EndOfTrick
from atout.core.model import Layout
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.model import Trick
from atout.core.state import DealState
from atout.core.text import N_
from atout.core.text import Message
from atout.core.text import SeatWord

from . import common
from .family import BeloteFamily
from .family import family_game

GAME = "decouverte"
SEAT_NAMES = ("South", "North")
TRICKS = 16
BELOTE_POINTS = 20

# Pack positions of the deal, in the seed's order (docs/decouverte.md, "The layout").  For each pile
# position 0..7 of a seat: (pack index of the face-up card, pack index of the face-down).
NON_DEALER_PILES = tuple((16 + i, i) for i in range(4)) + tuple((24 + i, 8 + i) for i in range(4))
DEALER_PILES = tuple((20 + i, 4 + i) for i in range(4)) + tuple((28 + i, 12 + i) for i in range(4))
TURNUP_INDEX = 31
"""The last card dealt: the dealer's last face-up card (far row, position 7)."""
PILES = len(DEALER_PILES)
"""The piles of each seat's field."""


def options() -> list[RuleOption]:
    """Every switch of Découverte a house-rule pack may set, with its default."""
    return [
        common.flag_option(
            "reveal_on_lead",
            N_("Reveal on lead"),
            N_(
                "The leader turns the card under the led card at once, before the opponent answers."
            ),
            False,
            "001",
        ),
        common.flag_option(
            "belote_rebelote",
            N_("Belote rebelote"),
            N_(
                "Trump king and queen played by one player score 20 (never announced from a "
                "face-down card)."
            ),
            False,
            "001",
        ),
        common.choice_option(
            "declarations",
            N_("Declarations"),
            N_(
                "Declarations (carrés, sequences) from each player's eight face-up cards when "
                "the play starts, compared as in four-player Belote: none, or on."
            ),
            {"none": N_("None"), "on": N_("All")},
            "001",
        ),
        common.choice_option(
            "dealer_rule",
            N_("Next dealer"),
            N_("Who deals next: the players alternate, or the winner of the previous deal deals."),
            {"alternate": N_("Alternate"), "winner": N_("The winner")},
            "published",
        ),
        common.number_option(
            "capot_bonus",
            N_("Capot bonus"),
            N_("Points added for winning all sixteen tricks (the published variant: 50)."),
            0,
            (0, 1000),
            "published",
        ),
        *common.match_end_options("players", "001", "001"),
    ]


# --- dealing ------------------------------------------------------------------------------


_PACK = range(32)


def layout_from_pack(pack: list[Card] | tuple[Card, ...], dealer: int) -> Layout:
    """Lay out a 32-card ``pack`` (in dealing order) as the seed says, ``dealer`` dealing.

    The slices are the seed's rows (see :data:`NON_DEALER_PILES`, :data:`DEALER_PILES`):
    each seat's pile ``i`` is ``(up, down)``, near row first.
    """
    p = tuple(pack)
    non_dealer_up = p[16:20] + p[24:28]
    dealer_up = p[20:24] + p[28:32]
    non_dealer_row = tuple(zip(non_dealer_up, p[0:4] + p[8:12], strict=True))
    dealer_row = tuple(zip(dealer_up, p[4:8] + p[12:16], strict=True))
    non_dealer_hand = mask_of(non_dealer_up)
    dealer_hand = mask_of(dealer_up)
    if dealer:
        hands, piles = (non_dealer_hand, dealer_hand), (non_dealer_row, dealer_row)
    else:
        hands, piles = (dealer_hand, non_dealer_hand), (dealer_row, non_dealer_row)
    return Layout(hands, piles, (), p[TURNUP_INDEX], True, p)


def piles_problem(layout: Layout) -> str | None:
    """What is wrong with a hand-written layout whose piles are not whole as the bidding
    starts (each seat's :data:`PILES` piles, each a face-up and a face-down card), or
    ``None``."""
    for seat, row in enumerate(layout.piles):
        if len(row) != PILES or any(up is None or down is None for up, down in row):
            return f"piles: seat {seat} needs {PILES} piles, each a face-up and a face-down card"
    return None


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 32 cards in a uniformly random order drawn from ``rng``.

    Sorting by one random float per card is a uniform shuffle (two of the 32 floats
    are equal with probability about 2**-44) and costs a third of
    :meth:`random.Random.shuffle`.
    """
    rnd = rng.random
    return sorted(_PACK, key=lambda _: rnd())


def deal(rules: Rules, dealer: int, rng: random.Random, previous: DealState | None) -> Layout:
    """Shuffle (every deal) and lay out the piles in the seed's order."""
    return layout_from_pack(shuffled_pack(rng), dealer)


def complete_deal(rules: Rules, state: DealState) -> None:
    """Nothing more is dealt: the taker does not take the proposal card."""


def deal_winner(rules: Rules, state: DealState) -> int | None:
    """The seat that won a scored deal: the taker if he made it, else the opponent."""
    if state.contract is None or len(state.tricks) < TRICKS:
        return None
    score = score_deal(rules, state)
    taker = state.contract.taker
    return taker if score.made else 1 - taker


def next_dealer(rules: Rules, state: DealState, redeal: bool) -> int:
    """The other player deals, unless the winner of the deal deals (``dealer_rule``)."""
    other = 1 - state.dealer
    if redeal or rules["dealer_rule"] == "alternate":
        return other
    winner = deal_winner(rules, state)
    return other if winner is None else winner


# --- declarations ------------------------------------------------------------------------


def find_declarations(rules: Rules, state: DealState) -> list[Declaration]:
    """Carrés and sequences in each player's face-up cards, when the option is on.

    Judged on ``state.hands`` as the play starts: the eight face-up cards, the only ones a
    player knows.  The rank key is four-player Belote's, with the non-dealer first in
    rotation for the last tie-break.  Belote-rebelote is not a declaration here (see
    :func:`belote_announcer`): the engine would announce it from the first card.
    """
    if rules["declarations"] != "on":
        return []
    out = []
    for seat in (0, 1):
        first_in_rotation = int(seat != state.dealer)
        hand = state.hands[seat]
        out += common.hand_declarations(hand, seat, state.trump, first_in_rotation, "first-play")
    return out


# --- play ------------------------------------------------------------------------------------


def turn_uncovered(state: DealState, trick: Trick) -> None:
    """After a trick, turn face up every face-down card no longer covered.

    The cards just played are the only covers that left, so only their face-down cards
    can have been uncovered: two dictionary pops and a few mask operations.  A face-down
    card that a hand-written position left without a cover (``state.loose``) is turned
    after the first trick too.
    """
    under = state.under
    first, second = trick.cards
    down = under.pop(first, None)
    if down is not None:
        leader = trick.leader
        state.hidden[leader] ^= 1 << down
        state.hands[leader] |= 1 << down
    down = under.pop(second, None)
    if down is not None:
        other = 1 - trick.leader
        state.hidden[other] ^= 1 << down
        state.hands[other] |= 1 << down
    if state.loose:
        _turn_loose(state)


def _turn_loose(state: DealState) -> None:
    """Turn the face-down cards that lie under no face-up card."""
    for seat in (0, 1):
        loose = state.hidden[seat] & state.loose
        if loose:
            state.hidden[seat] ^= loose
            state.hands[seat] |= loose
    state.loose = 0


def reveal_led(state: DealState, seat: int, card: Card) -> None:
    """Option ``reveal_on_lead``: the card under a led card is turned at once."""
    if len(state.trick) == 1:
        down = state.under.pop(card, None)
        if down is not None:
            b = 1 << down
            state.hidden[seat] ^= b
            state.hands[seat] |= b


def _seat_of_played(state: DealState, card: Card) -> int | None:
    """The seat that played ``card`` (in a finished trick or the current one), if any."""
    for t in state.tricks:
        if card in t.cards:
            return t.leader if t.cards[0] == card else 1 - t.leader
    if card in state.trick:
        return state.leader if state.trick[0] == card else 1 - state.leader
    return None


def belote_announcer(trump: int) -> CardPlayed:
    """The callback that says belote, rebelote or belote-rebelote without revealing a
    face-down card (see the module docstring)."""
    king = make_card(trump, KING)
    queen = make_card(trump, QUEEN)

    def announce(state: DealState, seat: int, card: Card) -> None:
        if card != king and card != queen:
            return
        other = queen if card == king else king
        if state.played >> other & 1:
            if _seat_of_played(state, other) != seat:
                return
            said_first = any(
                a.seat == seat and a.text == "belote" and a.cards >> other & 1
                for a in state.announcements
            )
            text = "rebelote" if said_first else "belote-rebelote"
            state.announcements.append(Announcement(seat, text, 1 << card, len(state.tricks)))
        elif state.hands[seat] >> other & 1:
            state.announcements.append(Announcement(seat, "belote", 1 << card, len(state.tricks)))

    return announce


def card_played(rules: Rules, contract: Contract) -> CardPlayed | None:
    """What happens after each card (``atout_card_played``): a led card's face-down
    card turned at once (``reveal_on_lead``) and belote said (``belote_rebelote``): one
    callback, or both in turn."""
    steps: list[Callable[[DealState, int, Card], None]] = []
    if rules["reveal_on_lead"]:
        steps.append(reveal_led)
    if rules["belote_rebelote"] and contract.trump is not None:
        steps.append(belote_announcer(contract.trump))
    if not steps:
        return None
    if len(steps) == 1:
        return steps[0]
    first, second = steps

    def both(state: DealState, seat: int, card: Card) -> None:
        first(state, seat, card)
        second(state, seat, card)

    return both


# --- scoring ---------------------------------------------------------------------------------


def belote_points(rules: Rules, state: DealState) -> list[int]:
    """Per seat: 20 for the player who played both the trump king and queen (option)."""
    if not rules["belote_rebelote"]:
        return [0, 0]
    out = [0, 0]
    trump = state.trump
    if trump is None:
        return out
    king = _seat_of_played(state, make_card(trump, KING))
    if king is not None and king == _seat_of_played(state, make_card(trump, QUEEN)):
        out[king] = BELOTE_POINTS
    return out


def declaration_points(state: DealState) -> list[int]:
    """Per seat: the declarations that score, compared as in four-player Belote (only
    the player with the single best declaration scores all of his)."""
    if not state.declarations:  # the default: no call in the deal loop
        return [0, 0]
    return common.best_side_points(state.declarations, state.team_of)


def score_deal(rules: Rules, state: DealState) -> DealScore:
    """Score a Découverte deal (docs/rules.md, "Scoring and the match", with the options):
    the deal's end as :func:`settle` scores it."""
    assert state.contract is not None
    capot: int | None = None
    if len(state.tricks) == TRICKS and not (state.won[0] and state.won[1]):
        capot = 0 if state.won[0] else 1  # the other won no trick
    end = DealEnd(
        tuple(state.points),
        capot,
        tuple(declaration_points(state)),
        tuple(belote_points(rules, state)),
    )
    return settle(rules, state.contract.taker, end)


# The notes of a scored deal are made once for each set of points and then reused: a
# Message costs more to build than the rest of the scoring, which the searches run at
# every deal's end they imagine.


@functools.lru_cache(maxsize=1024)
def _dedans_note(points: int) -> Message:
    """The note of a taker who fails with no declaration counted: 81 or fewer."""
    return Message("the taker has {points} points, 81 or fewer: dedans", points=points)


@functools.lru_cache(maxsize=1024)
def _outscored_note(points: int, other: int) -> Message:
    """The note of a taker who fails with declarations counted: not more than the other."""
    return Message(
        "the taker has {points}, not more than the opponent's {other}: dedans",
        points=points,
        other=other,
    )


CAPOT_NOTES = tuple(
    Message("{seat} won every trick (capot)", seat=SeatWord(name)) for name in SEAT_NAMES
)
"""The note of a capot, by the seat that won every trick."""


def settle(rules: Rules, takers: int, end: DealEnd) -> DealScore:
    """The score of a deal the player ``takers`` took that ends as ``end`` (each player
    is his own team): the one scoring rule of the game, for a played deal
    (:func:`score_deal`) and for a search that ends a deal in its head
    (``atout_deal_scorer``)."""
    taker = takers
    opponent = 1 - taker
    deal_points = sum(end.card_points)
    cards = list(end.card_points)
    capot = end.capot
    total_check = deal_points
    if capot is not None:
        bonus = rules.number("capot_bonus")
        cards[capot] += bonus
        total_check = deal_points + bonus
    decl = list(end.declarations or (0, 0))
    held_decl = list(decl)
    if capot is not None:
        decl[1 - capot] = 0
    belote = list(end.belote or (0, 0))
    total = [cards[0] + decl[0] + belote[0], cards[1] + decl[1] + belote[1]]
    made = total[taker] > total[opponent]
    notes: list[str] = []
    score = [0, 0]
    if made:
        score = list(total)
        outcome = "capot" if capot is not None else "made"
    else:
        outcome = "capot" if capot == opponent else "dedans"
        base = total_check if capot == opponent else deal_points
        score[opponent] = base + held_decl[0] + held_decl[1] + belote[opponent]
        score[taker] = belote[taker]
        if total[taker] + total[opponent] == total_check:
            notes.append(_dedans_note(total[taker]))
        else:
            notes.append(_outscored_note(total[taker], total[opponent]))
    if capot is not None:
        notes.append(CAPOT_NOTES[capot])
    return common.family_score(cards, decl, belote, score, outcome, made, capot, notes, total_check)


# --- the plugin ------------------------------------------------------------------------------


class Decouverte(BeloteFamily):
    """Belote Découverte: what it does not share with the rest of the family (the piles,
    the face-down cards turned during the play, who deals next, the scoring)."""

    info = family_game(
        GAME,
        N_("Belote Découverte"),
        SEAT_NAMES,
        N_(
            "Belote for two: eight piles each, a face-down card under each face-up card, "
            "turned as the cards above them are played."
        ),
    )
    options = staticmethod(options)
    deal = staticmethod(deal)
    complete_deal = staticmethod(complete_deal)
    next_dealer = staticmethod(next_dealer)
    declarations = staticmethod(find_declarations)
    score_deal = staticmethod(score_deal)
    settle = staticmethod(settle)

    def layout_problem(self, rules: Rules, layout: Layout, dealer: int) -> str | None:
        """The seed: "the last card laid face up in the dealer's field decides the trump
        suit" (pile 8 of the dealer's row); every pile is whole when the bidding starts."""
        broken = piles_problem(layout)
        if broken is not None:
            return broken
        if len(layout.piles) <= dealer:
            return "piles: the bidding starts with every seat's piles"
        last = layout.piles[dealer][PILES - 1][0]
        assert last is not None
        if layout.turnup != last:
            shown = "none" if layout.turnup is None else card_str(layout.turnup)
            return (
                f"turnup: the proposed card is the dealer's last face-up card, "
                f"{card_str(last)}, not {shown}"
            )
        return None

    @hookimpl
    def atout_end_of_trick(self, game: str, rules: Rules, contract: Contract) -> EndOfTrick | None:
        return turn_uncovered if game == self.game else None

    @hookimpl
    def atout_card_played(self, game: str, rules: Rules, contract: Contract) -> CardPlayed | None:
        return card_played(rules, contract) if game == self.game else None


PLUGIN = Decouverte()
"""The game's plugin object; this module, which the entry point names, publishes its hooks."""
globals().update(PLUGIN.hooks())
