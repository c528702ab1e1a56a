"""Four-player Belote, as docs/rules.md states it, with every variation a pack may switch.

Registered through atout's ``atout.plugins`` entry point like any third-party plugin.
The hooks the family shares are :class:`~atout.plugins.family.BeloteFamily`'s; this
module holds what is the four-player game's own (:class:`Belote`).  Seats 0..3 sit in anticlockwise order (South, East, North, West); partners are opposite
(team = seat % 2).  With the default anticlockwise direction the seat after the dealer,
``dealer + 1``, is the dealer's right: first in rotation.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from atout.core import hookimpl
from atout.core.cards import KING
from atout.core.cards import QUEEN
from atout.core.cards import Card
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.cards import make_card
from atout.core.model import DealEnd
from atout.core.model import DealScore
from atout.core.model import Declaration
from atout.core.model import Layout
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.state import DealState
from atout.core.text import N_

from . import common
from .family import BeloteFamily
from .family import family_game

GAME = "belote"
SEAT_NAMES = ("South", "East", "North", "West")

BELOTE_POINTS = 20
FIRST_HAND = 5
"""The cards of each hand during the bidding."""
STOCK = 12
"""The cards dealt after the bidding, the turn-up first."""
MAX_HELD = 64
"""The most ties a record's ``carry_in`` may hold over (ties in a row)."""
MAX_HELD_POINTS = 10_000
"""The most points one held-over tie may carry (far above any deal's)."""


def options() -> list[RuleOption]:
    """Every variation of the four-player game (docs/packs.md's table), with its default."""
    return [
        common.choice_option(
            "direction",
            N_("Direction"),
            N_("Direction of deal, bidding and play."),
            {"anticlockwise": N_("Anticlockwise"), "clockwise": N_("Clockwise")},
            "000 002",
        ),
        common.choice_option(
            "deal_packets",
            N_("Deal packets"),
            N_("First deal packets: 3 then 2, 2 then 3, or the dealer's choice each deal."),
            {"3-2": N_("3 then 2"), "2-3": N_("2 then 3"), "dealer": N_("Dealer's choice")},
            "000 002",
        ),
        common.choice_option(
            "between_deals",
            N_("Between deals"),
            N_("Between deals: gather the tricks and cut (never shuffle), or shuffle."),
            {"gather-and-cut": N_("Gather and cut"), "shuffle": N_("Shuffle")},
            "000 002",
        ),
        common.choice_option(
            "declarations",
            N_("Declarations"),
            N_("Declarations: all, only belote-rebelote (tournament), or none at all."),
            {"on": N_("All"), "belote-only": N_("Belote only"), "none": N_("None")},
            "000 002 003",
        ),
        common.choice_option(
            "declarations_shown",
            N_("Declarations shown"),
            N_("When declarations are shown: on playing to the first trick, or as soon as held."),
            {"first-trick": N_("At the first trick"), "when-held": N_("When held")},
            "000 002",
        ),
        common.choice_option(
            "declaration_comparison",
            N_("Declarations compared"),
            N_(
                "Only the team with the single best declaration scores (official), or kind by "
                "kind: where both teams declared a kind only the higher counts (a German club's rules)."
            ),
            {"official": N_("Official"), "kind-by-kind": N_("Kind by kind")},
            "000 002 003",
        ),
        common.flag_option(
            "belote_king_first",
            N_("Belote: king first"),
            N_("Belote-rebelote counts only if the king is played before the queen."),
            False,
            "000 002",
        ),
        common.choice_option(
            "dedans_belote",
            N_("Belote when dedans"),
            N_(
                "When the takers are dedans, belote-rebelote stays with the team that held it, "
                "or goes to the opponents."
            ),
            {"keeps": N_("Kept"), "to-opponents": N_("To the opponents")},
            "000 002",
        ),
        common.flag_option(
            "contract_counts_declarations",
            N_("Contract counts declarations"),
            N_("The contract test counts declarations; false: card points only (81 makes it)."),
            True,
            "000 002",
        ),
        common.choice_option(
            "tie",
            N_("A tie"),
            N_("A tie: the takers make it, fail, the points wait in abeyance, or litige."),
            {
                "takers-make": N_("Takers make it"),
                "takers-fail": N_("Takers fail"),
                "abeyance": N_("Abeyance"),
                "litige": N_("Litige"),
            },
            "000 002 003",
        ),
        common.choice_option(
            "undertrump",
            N_("Undertrump"),
            N_(
                "On ne pisse pas sur le partenaire (not-on-partner), or on est toujours obligé "
                "de pisser (always)."
            ),
            {"not-on-partner": N_("Not on the partner"), "always": N_("Always")},
            "000 002",
        ),
        common.number_option(
            "rounding",
            N_("Rounding"),
            N_("Round each deal's scores to a multiple of 5 or 10 (0: none)."),
            0,
            (0, 10),
            "000 002",
        ),
        common.flag_option(
            "capot_keeps_declarations",
            N_("Capot keeps declarations"),
            N_(
                "A capot defending team keeps its declarations (the takers are then dedans "
                "only if the defenders took a trick)."
            ),
            False,
            "000 002",
        ),
        common.number_option(
            "capot_bonus",
            N_("Capot bonus"),
            N_("What a capot adds to the 162 points (90: 252 in all)."),
            90,
            (0, 1000),
            "000 002 003",
        ),
        common.flag_option(
            "arret",
            N_("L'arrêt"),
            N_(
                "L'arrêt: a player who has just won a trick may stop the match, claiming the target."
            ),
            False,
            "000 002",
        ),
        *common.match_end_options("teams", "000 002 003", "000 002"),
        common.flag_option(
            "must_head_trick",
            N_("Must head the trick"),
            N_("Must head the trick in a plain suit too (Stichpflicht, as a German club plays)."),
            False,
            "003",
        ),
        common.flag_option(
            "must_trump_partner",
            N_("Must trump over the partner"),
            N_(
                "Must trump when void even if the partner is winning; a lower trump is then "
                "allowed (a German club's rules)."
            ),
            False,
            "003",
        ),
    ]


# --- dealing ------------------------------------------------------------------------------


def gathered_pack(previous: DealState) -> list[Card]:
    """The pack after a deal: the tricks gathered in the order they were played, or, for
    a deal that was passed out, the hands gathered seat by seat with the rest on top."""
    if previous.tricks:
        pack = [c for t in previous.tricks for c in t.cards]
    else:
        pack = []
        for seat in range(previous.seats):
            pack.extend(cards_of(previous.hands[seat]))
        pack.extend(previous.stock)
    return pack


def cut(pack: list[Card], rng: random.Random) -> list[Card]:
    """Cut the pack: at least three cards in each part."""
    at = rng.randint(3, len(pack) - 3)
    return pack[at:] + pack[:at]


def deal(rules: Rules, dealer: int, rng: random.Random, previous: DealState | None) -> Layout:
    """The first deal from a shuffled pack, the others from the gathered and cut one
    (or shuffled, by option); the packets 3-2, 2-3 or the dealer's choice; the next
    card turned up."""
    if previous is None or rules["between_deals"] == "shuffle":
        pack = list(range(32))
        rng.shuffle(pack)
    else:
        pack = cut(gathered_pack(previous), rng)
    packets = rules["deal_packets"]
    if packets == "dealer":
        packets = rng.choice(("3-2", "2-3"))
    first, second = (3, 2) if packets == "3-2" else (2, 3)
    direction = -1 if rules["direction"] == "clockwise" else 1
    order = [(dealer + direction * (i + 1)) % 4 for i in range(4)]
    hands = [0] * 4
    pos = 0
    for size in (first, second):
        for seat in order:
            for c in pack[pos : pos + size]:
                hands[seat] |= 1 << c
            pos += size
    stock = tuple(pack[pos:])
    return Layout(hands=tuple(hands), stock=stock, turnup=stock[0], pack_order=tuple(pack))


def complete_deal(rules: Rules, state: DealState) -> None:
    """The taker receives the turn-up; 3 more cards to the others and 2 to the taker,
    dealt from the dealer's right round to the dealer."""
    assert state.contract is not None
    stock = state.stock
    taker = state.contract.taker
    state.hands[taker] |= 1 << stock[0]
    pos = 1
    seat = state.dealer
    for _ in range(4):
        seat = state.next_seat(seat)
        n = 2 if seat == taker else 3
        for c in stock[pos : pos + n]:
            state.hands[seat] |= 1 << c
        pos += n
    state.stock = []


def hands_problem(layout: Layout, cards: int, phase: str) -> str | None:
    """What is wrong with a hand-written layout whose hands do not all hold ``cards``
    cards as ``phase`` (the bidding, the auction) starts, or ``None``."""
    for seat, hand in enumerate(layout.hands):
        if hand.bit_count() != cards:
            return f"hands: seat {seat} holds {hand.bit_count()} cards; the {phase} starts with {cards}"
    return None


# --- declarations ------------------------------------------------------------------------


def rotation_index(seat: int, dealer: int, direction: int) -> int:
    """0 for the first in rotation (the dealer's right), 3 for the dealer."""
    return ((seat - dealer) * direction - 1) % 4


def find_declarations(rules: Rules, state: DealState) -> list[Declaration]:
    """The declarations of every seat (docs/rules.md, "Declarations"), including belote."""
    mode = rules["declarations"]
    if mode == "none":
        return []
    trump = state.trump
    announce = "start" if rules["declarations_shown"] == "when-held" else "first-play"
    out = []
    for seat in range(4):
        hand = state.hands[seat]
        if mode == "on":
            rot = rotation_index(seat, state.dealer, state.direction)
            out += common.hand_declarations(hand, seat, trump, 3 - rot, announce)
        if trump is not None:
            kq = (1 << make_card(trump, KING)) | (1 << make_card(trump, QUEEN))
            if hand & kq == kq:
                out.append(
                    Declaration(
                        seat,
                        "belote",
                        kq,
                        BELOTE_POINTS,
                        (),
                        "cards",
                        ("belote", "rebelote"),
                        "belote-rebelote",
                    )
                )
    return out


# --- scoring ---------------------------------------------------------------------------------


def declaration_points(rules: Rules, state: DealState) -> tuple[list[int], list[int]]:
    """Per team: the declarations that score (after comparing), and belote-rebelote."""
    decl = [0, 0]
    belote = [0, 0]
    others = [d for d in state.declarations if d.kind != "belote"]
    for d in state.declarations:
        if d.kind == "belote" and belote_counts(rules, state, d):
            belote[d.seat % 2] += d.points
    if not others:
        return decl, belote
    if rules["declaration_comparison"] == "kind-by-kind":
        for kind in {d.kind for d in others}:
            of_kind = common.best_side_points([d for d in others if d.kind == kind], state.team_of)
            decl = [decl[t] + of_kind[t] for t in (0, 1)]
    else:
        decl = common.best_side_points(others, state.team_of)
    return decl, belote


def belote_counts(rules: Rules, state: DealState, d: Declaration) -> bool:
    """Belote-rebelote scores, unless the king must come first and the queen did."""
    if not rules["belote_king_first"]:
        return True
    order = [c for t in state.tricks for c in t.cards if d.cards >> c & 1]
    return bool(order) and order[0] & 7 == KING


def score_deal(rules: Rules, state: DealState) -> DealScore:
    """Score a four-player deal (docs/rules.md, "Scoring a deal", and its variations):
    the deal's end as :func:`settle` scores it, then what earlier deals held over and a
    claim (l'arrêt)."""
    assert state.contract is not None
    takers = state.contract.taker % 2
    cards = state.team_points()
    decl, belote = declaration_points(rules, state)
    claim = state.extra.get("claim")
    carry_in: dict[str, Any] = dict(state.carry_in or {})
    if claim is not None and len(state.tricks) < 8:
        return _score_claim(rules, state, cards, decl, belote, carry_in)
    capot = 0 if state.tricks_won(0) == 8 else 1 if state.tricks_won(1) == 8 else None
    result = _settle(
        rules, takers, DealEnd((cards[0], cards[1]), capot, tuple(decl), tuple(belote))
    )
    if not carry_in and claim is None:  # nothing held over, no claim: the common case
        return common.rounded(result, rules.number("rounding"))
    tie = result.outcome in ("abeyance", "litige")
    notes = list(result.notes)
    winner = _deal_winner(result.made, takers) if not tie else None
    score = common.pay_held(carry_in, winner, list(result.score), notes)
    carry: dict[str, Any] = dict(result.carry or {})
    if carry_in.get("held") and tie:
        carry["held"] = carry_in["held"] + carry["held"]
    if claim is not None:
        _claim_result(rules, state, score, result.made, carry)
    result = replace(result, score=tuple(score), carry=carry or None, notes=tuple(notes))
    return common.rounded(result, rules.number("rounding"))


def settle(rules: Rules, takers: int, end: DealEnd) -> DealScore:
    """The score of a deal the team ``takers`` took that ends as ``end``: the one
    scoring rule of the game, for a played deal (:func:`score_deal`) and for a search
    that ends a deal in its head (``atout_deal_scorer``)."""
    return common.rounded(_settle(rules, takers, end), rules.number("rounding"))


def _settle(rules: Rules, takers: int, end: DealEnd) -> DealScore:
    """:func:`settle` before rounding (the points earlier deals held over are added to
    the unrounded score)."""
    defenders = 1 - takers
    deal_points = sum(end.card_points)
    cards = list(end.card_points)
    decl = list(end.declarations or (0, 0))
    belote = list(end.belote or (0, 0))
    capot = end.capot
    total_check = deal_points
    if capot is not None:
        cards[capot] += rules.number("capot_bonus")
        total_check = deal_points + rules.number("capot_bonus")
    held_decl = list(decl)
    if capot is not None and not rules["capot_keeps_declarations"]:
        decl[1 - capot] = 0
    total = [cards[t] + decl[t] + belote[t] for t in (0, 1)]
    if rules["contract_counts_declarations"]:
        mine, theirs = total[takers], total[defenders]
    else:
        mine, theirs = cards[takers], cards[defenders]
    notes: list[str] = []
    outcome: str
    score = [0, 0]
    carry: dict[str, Any] = {}
    if capot == takers:
        made: bool | None = True
    elif capot == defenders:
        made = False
    else:
        made = mine > theirs or (mine == theirs and rules["tie"] == "takers-make")
    tie = capot is None and mine == theirs and rules["tie"] in ("abeyance", "litige")
    if tie:
        made = None
        if rules["tie"] == "abeyance":
            outcome = "abeyance"
            carry["held"] = [{"kind": "abeyance", "takers": takers, "points": list(total)}]
            notes.append(N_("a tie: the points wait in abeyance for the next deal"))
        else:
            outcome = "litige"
            score[defenders] = total[defenders]
            carry["held"] = [{"kind": "litige", "takers": takers, "points": total[takers]}]
            notes.append(N_("litige: the takers' points go to whoever wins the next deal"))
    elif made:
        outcome = "capot" if capot is not None else "made"
        score = list(total)
    else:
        outcome = "dedans" if capot != defenders else "capot"
        keep = rules["dedans_belote"] == "keeps"
        base = deal_points + rules.number("capot_bonus") if capot == defenders else deal_points
        score[defenders] = base + held_decl[0] + held_decl[1] + belote[defenders]
        if keep:
            score[takers] = belote[takers]
        else:
            score[defenders] += belote[takers]
        if capot == defenders:
            notes.append(N_("the takers are capot"))
    return common.family_score(
        cards, decl, belote, score, outcome, made, capot, notes, total_check, carry or None
    )


def _deal_winner(made: bool | None, takers: int) -> int | None:
    if made is None:
        return None
    return takers if made else 1 - takers


def _score_claim(
    rules: Rules,
    state: DealState,
    cards: list[int],
    decl: list[int],
    belote: list[int],
    carry_in: dict[str, Any],
) -> DealScore:
    """A defender's claim (l'arrêt) ends the deal at once: the tricks so far are counted."""
    seat, _ = state.extra["claim"]
    team = seat % 2
    counted = [cards[t] + decl[t] + belote[t] for t in (0, 1)]
    prior = state.extra.get("match_scores", (0, 0))
    right = prior[team] + counted[team] >= rules["target"]
    winner = team if right else 1 - team
    carry = {"match_over": {"winner": winner, "reason": _claim_reason(right)}}
    notes = [N_("l'arrêt")]
    return common.family_score(
        cards, decl, belote, counted, "arret", None, None, notes, None, carry
    )


def _claim_reason(right: bool) -> str:
    return (
        N_("l'arrêt: the claim was right")
        if right
        else N_("l'arrêt: the claim was wrong, the other side wins")
    )


def _claim_result(
    rules: Rules, state: DealState, score: list[int], made: bool | None, carry: dict[str, Any]
) -> None:
    """A taker's claim: the deal is played out; it must be made and reach the target."""
    seat, _ = state.extra["claim"]
    team = seat % 2
    prior = state.extra.get("match_scores", (0, 0))
    right = bool(made) and prior[team] + score[team] >= rules["target"]
    if not made:
        score[team] = 0
    carry["match_over"] = {"winner": team if right else 1 - team, "reason": _claim_reason(right)}


# --- the plugin ------------------------------------------------------------------------------


class Belote(BeloteFamily):
    """Four-player Belote: what it does not share with the rest of the family (the deal
    in packets with a turn-up, the declarations and their comparison, the scoring with
    its variations, and l'arrêt)."""

    info = family_game(
        GAME,
        N_("Belote"),
        SEAT_NAMES,
        N_("Classic four-player Belote: two teams of partners, a turn-up to bid on."),
    )
    options = staticmethod(options)
    deal = staticmethod(deal)
    complete_deal = staticmethod(complete_deal)
    declarations = staticmethod(find_declarations)
    score_deal = staticmethod(score_deal)
    settle = staticmethod(settle)

    def layout_problem(self, rules: Rules, layout: Layout, dealer: int) -> str | None:
        """The bidding starts with 5 cards a hand and the 12 others in the stock, the
        turn-up first (docs/rules.md, "The table and the deal")."""
        short = hands_problem(layout, FIRST_HAND, "bidding")
        if short is not None:
            return short
        if len(layout.stock) != STOCK:
            return f"stock: {len(layout.stock)} cards; the bidding starts with {STOCK}"
        if layout.turnup != layout.stock[0]:
            shown = "none" if layout.turnup is None else card_str(layout.turnup)
            return f"turnup: the turn-up is the stock's first card, {card_str(layout.stock[0])}, not {shown}"
        return None

    def carry_in_problem(self, rules: Rules, carry_in: Any) -> str | None:
        """Points held over by a tie (``tie: abeyance`` or ``litige``): ``{"held": [...]}``,
        each ``{"kind": "abeyance", "takers": TEAM, "points": [A, B]}`` or ``{"kind":
        "litige", "takers": TEAM, "points": N}``, points within a match's reach."""
        if not isinstance(carry_in, dict) or set(carry_in) - {"held"}:
            return 'expected {"held": [...]}, the points a tie holds over'
        held = carry_in.get("held", [])
        if not isinstance(held, list) or len(held) > MAX_HELD:
            return f"held: expected a list of at most {MAX_HELD} ties"
        for i, item in enumerate(held):
            if not isinstance(item, dict) or set(item) != {"kind", "takers", "points"}:
                return f'held[{i}]: expected {{"kind", "takers", "points"}}'
            if item["kind"] not in ("abeyance", "litige"):
                return f"held[{i}].kind: abeyance or litige"
            if item["takers"] not in (0, 1) or isinstance(item["takers"], bool):
                return f"held[{i}].takers: a team, 0 or 1"
            points = item["points"] if item["kind"] == "abeyance" else [item["points"]]
            if not isinstance(points, list) or len(points) != (
                2 if item["kind"] == "abeyance" else 1
            ):
                return f"held[{i}].points: two numbers for abeyance, one for litige"
            if any(
                isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= MAX_HELD_POINTS
                for p in points
            ):
                return f"held[{i}].points: whole numbers from 0 to {MAX_HELD_POINTS}"
        return None

    @hookimpl
    def atout_can_claim(self, game: str, rules: Rules, state: DealState, seat: int) -> str | None:
        """L'arrêt (option ``arret``): until someone claims, a defender's claim stops the
        deal at once and a taker's side must still play it out."""
        if game != self.game or not rules["arret"] or "claim" in state.extra:
            return None
        taker_side = state.contract is not None and state.contract.taker % 2 == seat % 2
        return "play-on" if taker_side else "stop"


PLUGIN = Belote()
"""The game's plugin object; this module, which the entry point names, publishes its hooks."""
globals().update(PLUGIN.hooks())
