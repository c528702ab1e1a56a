"""Rules shared by the Belote family's games: the play obligations, the two-round
bidding on a proposed suit, the declarations and their comparison, and the end of a
match.

Both the four-player game and Découverte use these; a house-rule option switches a part
of them (docs/packs.md, "The options").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from atout.core.cards import ACE
from atout.core.cards import JACK
from atout.core.cards import KING
from atout.core.cards import NINE
from atout.core.cards import QUEEN
from atout.core.cards import RANK_MASKS
from atout.core.cards import SUIT_MASKS
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUITS
from atout.core.cards import TEN
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import card_str
from atout.core.cards import make_card
from atout.core.model import BiddingStep
from atout.core.model import Contract
from atout.core.model import DealScore
from atout.core.model import Declaration
from atout.core.model import MatchResult
from atout.core.model import MoveRule
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.state import DealState
from atout.core.text import N_
from atout.core.text import CardWord
from atout.core.text import Message
from atout.core.text import SuitWord

from .tables import beats_table
from .tables import tout_atout_beats

PASS = "pass"
TAKE = "take"


class BeloteMoves(MoveRule):
    """The Belote play obligations under one trump (docs/rules.md, "Play").

    Follow suit; on a trump lead beat the highest trump whoever wins; void in a plain suit
    trump unless the partner is winning, overtrump an opponent's trump and undertrump if
    unable; whenever a trump is played beat the trumps in the trick if possible.  The
    options switch the variations: ``undertrump`` ("not-on-partner" or "always"),
    ``must_head_trick`` and ``must_trump_partner`` (the club rules of seed 003).
    """

    free_lead = True
    trick_local = True

    def __init__(
        self,
        trump: int | None,
        undertrump: str = "not-on-partner",
        must_head_trick: bool = False,
        must_trump_partner: bool = False,
    ) -> None:
        self.trump = trump
        self.trump_mask = SUIT_MASKS[trump] if trump is not None else 0
        self.beats = beats_table(trump)
        self.always_pisser = undertrump == "always"
        self.head = must_head_trick
        self.trump_partner = must_trump_partner

    def legal(self, state: DealState) -> CardSet:
        seat = state.turn
        hand = state.hands[seat]
        trick = state.trick
        if not trick:
            return hand
        led = trick[0] >> 3
        follow = hand & SUIT_MASKS[led]
        win = state.win_card
        if led == self.trump:
            if follow:
                return follow & self.beats[win] or follow
            return hand
        if follow:
            if self.head and win >> 3 == led:
                return follow & self.beats[win] or follow
            return follow
        tm = self.trump_mask
        trumps = hand & tm
        if not trumps:
            return hand
        higher = trumps & self.beats[win]
        w = state.win_seat
        if w != seat and state.team_of[w] == state.team_of[seat]:
            if self.trump_partner:
                return trumps
            if self.always_pisser and win >> 3 == self.trump:
                return higher | (hand & ~tm) if higher else trumps
            return (hand & ~tm) | (higher or trumps)
        return higher or trumps

    def explain(self, state: DealState, card: Card) -> str:
        seat = state.turn
        hand = state.hands[seat]
        trick = state.trick
        win = state.win_card
        led = trick[0] >> 3
        suit = card >> 3
        follow = hand & SUIT_MASKS[led]
        if follow and suit != led:
            return Message("must follow {suit}", suit=SuitWord(led))
        if follow:
            if led == self.trump:
                return Message("must beat {card}", card=CardWord(win))
            return Message("must head the trick: beat {card} (house rule)", card=CardWord(win))
        trumps = hand & self.trump_mask
        higher = trumps & self.beats[win]
        w = state.win_seat
        partner = w != seat and state.team_of[w] == state.team_of[seat]
        if partner and self.trump_partner:
            return Message("must trump, even though your partner is winning (house rule)")
        if partner and self.always_pisser and win >> 3 == self.trump:
            if higher and suit == self.trump:
                return Message(
                    "may not undertrump your partner's {card}: overtrump or discard",
                    card=CardWord(win),
                )
            return Message("must undertrump (on est toujours obligé de pisser)")
        if higher and win >> 3 == self.trump:
            return Message("must overtrump {card}", card=CardWord(win))
        if win >> 3 == self.trump:
            return Message("must trump: you cannot beat {card}, so undertrump", card=CardWord(win))
        return Message("must trump")


def make_moves(rules: Rules, trump: int | None) -> BeloteMoves:
    """The play obligations for ``trump`` with the house-rule options of ``rules``."""
    return BeloteMoves(
        trump,
        undertrump=rules.text("undertrump", "not-on-partner"),
        must_head_trick=bool(rules.get("must_head_trick", False)),
        must_trump_partner=bool(rules.get("must_trump_partner", False)),
    )


class ToutAtoutMoves(MoveRule):
    """Tout atout: every suit is played as trump: follow suit and beat the best card of
    the trick if you can, whoever is winning it; void in the suit led, any card (no other
    suit can win).  ``legal`` reads only the hand and the trick: ``trick_local``."""

    free_lead = True
    trick_local = True

    def __init__(self) -> None:
        self.beats = tout_atout_beats()

    def legal(self, state: DealState) -> CardSet:
        hand = state.hands[state.turn]
        if not state.trick:
            return hand
        follow = hand & SUIT_MASKS[state.trick[0] >> 3]
        if not follow:
            return hand
        return follow & self.beats[state.win_card] or follow

    def explain(self, state: DealState, card: Card) -> str:
        led = state.trick[0] >> 3
        if card >> 3 != led:
            return Message("must follow {suit}", suit=SuitWord(led))
        return Message("must beat {card} (tout atout)", card=CardWord(state.win_card))


# --- bidding on a proposed suit --------------------------------------------------------


def proposal_bids(state: DealState) -> list[str]:
    """Round 1: take the proposed suit or pass; round 2: name another suit or pass."""
    assert state.turnup is not None, "the deal has no turned-up card to bid on"
    if len(state.bids) < state.seats:
        return [TAKE, PASS]
    proposed = state.turnup >> 3
    return [SUITS[s] for s in range(4) if s != proposed] + [PASS]


def proposal_step(state: DealState) -> BiddingStep:
    """After a bid: a take or a named suit ends the bidding; two rounds of passes redeal."""
    assert state.turnup is not None, "the deal has no turned-up card to bid on"
    seat, bid = state.bids[-1]
    n = len(state.bids)
    if bid == TAKE:
        trump = state.turnup >> 3
        return BiddingStep(contract=Contract(seat, trump, SUITS[trump]), round=1)
    if bid != PASS:
        trump = SUITS.index(bid)
        return BiddingStep(contract=Contract(seat, trump, SUITS[trump]), round=2)
    if n >= 2 * state.seats:
        return BiddingStep(redeal=True, round=2)
    return BiddingStep(next_seat=state.next_seat(seat), round=1 if n < state.seats else 2)


def describe_bid(bid: str) -> str:
    """A bid in words: ``"H"`` is "hearts"."""
    if bid in SUITS:
        return SUIT_NAMES[SUITS.index(bid)]
    return bid


# --- declarations: carrés and sequences ------------------------------------------------

CARRE_POINTS = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
# Carrés compare by value, and equal values in trump order: J 9 A 10 K Q.
CARRE_ORDER = {JACK: 6, NINE: 5, ACE: 4, TEN: 3, KING: 2, QUEEN: 1}
SEQUENCE_POINTS = {3: 20, 4: 50, 5: 100}
SEQUENCE_NAMES = {3: "tierce", 4: "quarte", 5: "quinte"}
SEQUENCE_TEXTS = {3: N_("tierce to {card}"), 4: N_("quarte to {card}"), 5: N_("quinte to {card}")}
"""A sequence announced, by its length: ``{card}`` is its top card (the front ends say it
in their language)."""
CARRE_TEXTS = {
    JACK: N_("carré of jacks"),
    NINE: N_("carré of nines"),
    ACE: N_("carré of aces"),
    TEN: N_("carré of tens"),
    KING: N_("carré of kings"),
    QUEEN: N_("carré of queens"),
}
"""A carré announced, by its rank."""


@cache
def sequence_text(length: int, top: Card) -> Message:
    """What a sequence of ``length`` cards up to ``top`` is announced as ("tierce to the
    king of hearts").  Made once for each of the 60 sequences and then reused: building a
    :class:`~atout.core.text.Message` costs more than finding the sequence, and a deal
    with declarations finds several."""
    return Message(SEQUENCE_TEXTS[length], card=CardWord(top))


def sequences(mask: CardSet) -> list[tuple[int, CardSet, int]]:
    """The sequences of 3 or more in ``mask``: (counted length, cards, top card).

    Sequences run A K Q J 10 9 8 7, the rank index order; a run longer than 5 counts as
    its top five cards.
    """
    out = []
    for suit in range(4):
        bits = mask >> (suit * 8) & 0xFF
        r = 0
        while r < 8:
            if not bits >> r & 1:
                r += 1
                continue
            start = r
            while r < 8 and bits >> r & 1:
                r += 1
            length = r - start
            if length >= 3:
                run = 0
                for k in range(start, r):
                    run |= 1 << make_card(suit, k)
                out.append((min(length, 5), run, make_card(suit, r - 1)))
    return out


def combinations_of(hand: CardSet) -> list[tuple[str, CardSet, int, tuple[int, ...], str]]:
    """The best set of declarations in an 8-card hand, no card in two of them, each as
    ``(kind, cards, points, rank, text)``.

    Tries every choice of carrés and takes the sequences in the cards left; keeps the
    choice worth most (a carré preferred on equal points).
    """
    carres = [r for r in CARRE_POINTS if hand & RANK_MASKS[r] == RANK_MASKS[r]]
    best: list[tuple[str, CardSet, int, tuple[int, ...], str]] = []
    best_points = -1
    for pick in range(1 << len(carres)):
        chosen = [r for i, r in enumerate(carres) if pick >> i & 1]
        used = 0
        found: list[tuple[str, CardSet, int, tuple[int, ...], str]] = []
        for r in chosen:
            used |= RANK_MASKS[r]
            found.append(
                (
                    "carré",
                    RANK_MASKS[r],
                    CARRE_POINTS[r],
                    (2, CARRE_ORDER[r]),
                    CARRE_TEXTS[r],
                )
            )
        for length, run, top in sequences(hand & ~used):
            found.append(
                (
                    SEQUENCE_NAMES[length],
                    run,
                    SEQUENCE_POINTS[length],
                    (1, length, top & 7),
                    sequence_text(length, top),
                )
            )
        points = sum(f[2] for f in found)
        if points > best_points or (points == best_points and len(chosen) > 0):
            best, best_points = found, points
    return best


def hand_declarations(
    hand: CardSet, seat: int, trump: int | None, precedence: int, announce: str
) -> list[Declaration]:
    """The carrés and sequences ``seat`` declares from ``hand`` (docs/rules.md, "Declarations").

    Each one's rank compares it with the others' declarations: carré above sequence, then
    length or carré value, the top card, a trump sequence above a plain one, and last
    ``precedence`` (higher for a seat earlier in rotation).  ``announce`` is when it is
    shown (:class:`~atout.core.model.Declaration`).
    """
    out = []
    for kind, cards, points, rank, text in combinations_of(hand):
        is_trump = int(kind != "carré" and trump is not None and cards & SUIT_MASKS[trump] != 0)
        full_rank = (*rank, is_trump, precedence)
        out.append(Declaration(seat, kind, cards, points, full_rank, announce, (), text))
    return out


def best_side_points(declarations: Sequence[Declaration], side_of: Sequence[int]) -> list[int]:
    """Per side (team, or player alone): the points of ``declarations`` that score under
    the official comparison: the side with the single best declaration scores all of its
    own, the other none.  ``side_of[seat]`` is the seat's side."""
    out = [0, 0]
    if declarations:
        best = side_of[max(declarations, key=lambda d: d.rank).seat]
        for d in declarations:
            if side_of[d.seat] == best:
                out[best] += d.points
    return out


# --- scoring helpers ---------------------------------------------------------------------


def round_score(points: int, step: int) -> int:
    """``points`` rounded to the nearest multiple of ``step`` (halves up); 0 keeps it."""
    if step <= 0:
        return points
    return (points + step // 2) // step * step


def family_score(
    cards: Sequence[int],
    decl: Sequence[int],
    belote: Sequence[int],
    score: Sequence[int],
    outcome: str,
    made: bool | None,
    capot: int | None,
    notes: Sequence[str],
    total_check: int | None,
    carry: Any = None,
) -> DealScore:
    """The :class:`~atout.core.model.DealScore` every scoring of the family ends with,
    from the lists of its two sides it worked on: the card points, the declaration
    points with belote-rebelote counted in (``decl`` and ``belote`` added side by side),
    the points on the sheet, and how the deal ended."""
    return DealScore(
        card_points=tuple(cards),
        declaration_points=(decl[0] + belote[0], decl[1] + belote[1]),
        score=tuple(score),
        outcome=outcome,
        made=made,
        capot=capot,
        carry=carry,
        notes=tuple(notes),
        total_check=total_check,
    )


def rounded(score: DealScore, step: int) -> DealScore:
    """``score`` with its sheet points rounded (docs/packs.md: rounding to 5 or 10)."""
    if step <= 0:
        return score
    from dataclasses import replace

    return replace(score, score=tuple(round_score(p, step) for p in score.score))


def pay_held(
    carry_in: dict[str, Any], winner: int | None, score: list[int], notes: list[str]
) -> list[int]:
    """Pay out the points earlier ties held over (``carry_in["held"]``: abeyance, litige)
    to ``winner``, the team that won this deal, noting each payment in ``notes``; the
    four-player games share it."""
    if winner is None or not carry_in.get("held"):
        return score
    score = list(score)
    for held in carry_in["held"]:
        if held["kind"] == "abeyance":
            if winner == held["takers"]:
                score[0] += held["points"][0]
                score[1] += held["points"][1]
                notes.append(N_("the points held in abeyance go to both teams"))
            else:
                score[1 - held["takers"]] += sum(held["points"])
                notes.append(N_("the points held in abeyance go to the former takers' opponents"))
        else:
            score[winner] += held["points"]
            notes.append(N_("the litige points go to the winners of this deal"))
    return score


# --- rule options ---------------------------------------------------------------------
# Each game's options() lists its options with these, one call an option: the key, its
# name and description for a person (marked with N_), its values, and the rule texts it
# comes from (seed file ids, for the documentation).


def choice_option(
    key: str, title: str, description: str, choices: dict[str, str], source: str
) -> RuleOption:
    """An option that takes one of ``choices``: each value a pack writes, with its name
    for a person, in the order the front ends list them; the first is the default."""
    return RuleOption(
        key,
        "choice",
        next(iter(choices)),
        description,
        tuple(choices),
        source=source,
        title=title,
        choice_titles=tuple(choices.values()),
    )


def flag_option(key: str, title: str, description: str, default: bool, source: str) -> RuleOption:
    """An option that is on or off."""
    return RuleOption(key, "bool", default, description, source=source, title=title)


def number_option(
    key: str, title: str, description: str, default: int, bounds: tuple[int, int], source: str
) -> RuleOption:
    """A whole-number option, from ``bounds[0]`` to ``bounds[1]``."""
    low, high = bounds
    return RuleOption(
        key, "int", default, description, minimum=low, maximum=high, source=source, title=title
    )


def match_end_options(sides: str, target_source: str, both_source: str) -> list[RuleOption]:
    """The two options of a match's end that every game of the family has: the target,
    and what happens when ``sides`` (teams, players) both pass it on one deal."""
    both_past = (
        N_("Both teams past the target on one deal: drawn, or play on (higher total wins).")
        if sides == "teams"
        else N_("Both players past the target on one deal: drawn, or play on (higher total wins).")
    )
    return [
        number_option(
            "target",
            N_("Target"),
            N_("The score that wins the match."),
            1000,
            (1, 100000),
            target_source,
        ),
        choice_option(
            "both_past_target",
            N_("Both past the target"),
            both_past,
            {"draw": N_("Drawn"), "play-on": N_("Play on")},
            both_source,
        ),
    ]


def match_over(
    rules: Rules, scores: Sequence[int], history: Sequence[DealScore]
) -> MatchResult | None:
    """The end of a match: first to the target wins; both on one deal: drawn or play on."""
    if history and history[-1].carry and isinstance(history[-1].carry, dict):
        ended = history[-1].carry.get("match_over")
        if ended:
            return MatchResult(ended["winner"], ended["reason"])
    target = int(rules.get("target", 1000))
    reached = [t for t, s in enumerate(scores) if s >= target]
    if not reached:
        return None
    if len(reached) == 1:
        return MatchResult(reached[0], Message("reached {target}", target=target))
    if rules.get("both_past_target", "draw") == "draw":
        return MatchResult(
            None, Message("both reached {target} on the same deal: drawn", target=target)
        )
    best = max(scores)
    leaders = [t for t, s in enumerate(scores) if s == best]
    if len(leaders) == 1:
        return MatchResult(
            leaders[0], Message("both past {target}: the higher total wins", target=target)
        )
    return None


def cards_text(mask: CardSet) -> str:
    """A set of cards in text form."""
    out = []
    while mask:
        low = mask & -mask
        out.append(card_str(low.bit_length() - 1))
        mask ^= low
    return " ".join(out)
