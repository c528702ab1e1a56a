"""La Coinche (belote contrée) for four players, as docs/rules.md states it ("La Coinche").

Registered through atout's ``atout.plugins`` entry point like any third-party plugin, and
written only through the public hooks: the hooks the family shares are
:class:`~atout.plugins.family.BeloteFamily`'s; what La Coinche does not share with
four-player Belote is here, in :class:`CoincheRules` (the auction, the contracts sans
atout and tout atout, the scoring by the contract's value and level), which the
two-player form (:mod:`atout.plugins.coinche_decouverte`) shares too.

Bids are texts, as records and the protocol keep them: ``"80 H"`` to ``"160 S"`` (a
value and a strain), ``"capot H"``, ``"90 sans-atout"``, ``"contre"``, ``"surcontre"``
and ``"pass"``; hook ``atout_describe_bid`` says what each means in parts, so that front
ends lay the auction out and say it in a person's language without knowing the game.
The contract the auction makes carries the value (250 for capot) and the level (1, 2
contré, 4 surcontré): ``Contract(taker, trump, strain, value, level)``, which the
scoring reads (hook ``atout_deal_scorer``), so the bots and the review value a deal
exactly as it is scored.
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from typing import Any
from typing import NamedTuple

from atout.core import hookimpl
from atout.core.cards import SUITS
from atout.core.cards import CardSet
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_OTHER
from atout.core.model import BID_PASS
from atout.core.model import BID_REDOUBLE
from atout.core.model import BiddingStep
from atout.core.model import BidInfo
from atout.core.model import CardValues
from atout.core.model import Contract
from atout.core.model import DealEnd
from atout.core.model import DealScore
from atout.core.model import DealScorer
from atout.core.model import Declaration
from atout.core.model import Layout
from atout.core.model import MoveRule
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.state import DealState
from atout.core.text import N_
from atout.core.text import Message

from . import belote
from . import common
from .family import BeloteFamily
from .family import family_game
from .tables import LAST_TRICK_BONUS
from .tables import SANS_ATOUT_POINTS
from .tables import TOUT_ATOUT_POINTS
from .tables import beats_table
from .tables import card_points
from .tables import rank_points
from .tables import tout_atout_beats

GAME = "coinche"

PASS = common.PASS
CONTRE = "contre"
SURCONTRE = "surcontre"
CAPOT = "capot"
SANS_ATOUT = "sans-atout"
TOUT_ATOUT = "tout-atout"
STRAINS = (*SUITS, SANS_ATOUT, TOUT_ATOUT)
"""Every strain a contract may be played in: the four suits, then the two switches."""
VALUES = tuple(range(80, 161, 10))
"""The values a bid may promise, lowest first; capot is above them all."""
CAPOT_VALUE = 250
"""What a capot contract is worth (its value in the scoring)."""
FALLEN_POINTS = 160
"""What the defenders score, besides the contract's value, when the takers fall."""

OFFERS: dict[str, tuple[str, ...]] = {
    "off": (),
    "both": (SANS_ATOUT, TOUT_ATOUT),
    SANS_ATOUT: (SANS_ATOUT,),
    TOUT_ATOUT: (TOUT_ATOUT,),
}
"""The strains besides the suits each value of option ``sans_tout_atout`` offers."""


# --- the bids --------------------------------------------------------------------------------


def bid_text(value: int | None, strain: str) -> str:
    """The text of a contract bid: ``"80 H"``, ``"capot sans-atout"`` (``None``: capot)."""
    return f"{CAPOT if value is None else value} {strain}"


@functools.lru_cache(maxsize=1024)
def describe(bid: str) -> BidInfo:
    """What a bid text means (hook ``atout_describe_bid``); a text that is no bid of La
    Coinche is ``other``."""
    if bid == PASS:
        return BidInfo(BID_PASS)
    if bid == CONTRE:
        return BidInfo(BID_DOUBLE)
    if bid == SURCONTRE:
        return BidInfo(BID_REDOUBLE)
    head, _, strain = bid.partition(" ")
    if strain not in STRAINS or not (head == CAPOT or (head.isdigit() and int(head) in VALUES)):
        return BidInfo(BID_OTHER)
    capot = head == CAPOT
    value = CAPOT_VALUE if capot else int(head)
    trump = SUITS.index(strain) if strain in SUITS else None
    return BidInfo(BID_CONTRACT, value, capot, strain, trump)


class Auction(NamedTuple):
    """Where an auction stands, read from its bids: the last contract bid (its seat and
    what it is), whether it is doubled or redoubled, and the passes since the last bid
    that was not a pass."""

    seat: int | None
    bid: BidInfo | None
    doubled: bool
    redoubled: bool
    passes: int


def read_auction(bids: list[tuple[int, str]]) -> Auction:
    """The :class:`Auction` after ``bids``."""
    seat: int | None = None
    last: BidInfo | None = None
    doubled = redoubled = False
    passes = 0
    for who, text in bids:
        info = describe(text)
        if info.kind == BID_PASS:
            passes += 1
            continue
        passes = 0
        if info.kind == BID_CONTRACT:
            seat, last, doubled, redoubled = who, info, False, False
        elif info.kind == BID_DOUBLE:
            doubled = True
        elif info.kind == BID_REDOUBLE:
            redoubled = True
    return Auction(seat, last, doubled, redoubled, passes)


def strains(rules: Rules) -> tuple[str, ...]:
    """The strains the auction offers: the four suits, and sans atout and tout atout when
    option ``sans_tout_atout`` switches them on."""
    return (*SUITS, *OFFERS.get(str(rules.get("sans_tout_atout", "off")), ()))


def auction_bids(rules: Rules, state: DealState) -> list[str]:
    """The bids the seat to act may make (docs/rules.md, "La Coinche", "The auction"):
    every contract above the last one (a higher value, capot above 160) unless a
    *contre* stands and option ``bid_after_contre`` is off; *contre* for an opponent of
    the last bidder; *surcontre* for the last bidder's side once doubled; pass."""
    a = read_auction(state.bids)
    seat = state.turn
    out: list[str] = []
    if not a.doubled or rules.get("bid_after_contre", False):
        if a.bid is None:
            values: list[int | None] = [*VALUES, None]
        elif a.bid.capot:
            values = []
        else:
            assert a.bid.value is not None
            values = [v for v in VALUES if v > a.bid.value] + [None]
        out = [bid_text(v, s) for v in values for s in strains(rules)]
    if a.seat is not None:
        same_side = state.team_of[seat] == state.team_of[a.seat]
        if not a.doubled and not same_side:
            out.append(CONTRE)
        if a.doubled and not a.redoubled and same_side:
            out.append(SURCONTRE)
    out.append(PASS)
    return out


def auction_step(rules: Rules, state: DealState) -> BiddingStep:
    """What follows a bid: a *surcontre* ends the auction at once; after a bid (or a
    *contre*) every other seat passing in a row ends it; every seat passing with no bid
    is a redeal; otherwise the next seat speaks."""
    seat, _ = state.bids[-1]
    a = read_auction(state.bids)
    bidding_round = (len(state.bids) - 1) // state.seats + 1
    if a.bid is None:
        if a.passes >= state.seats:
            return BiddingStep(redeal=True, round=bidding_round)
        return BiddingStep(next_seat=state.next_seat(seat), round=bidding_round)
    if a.redoubled or a.passes >= state.seats - 1:
        assert a.seat is not None
        level = 4 if a.redoubled else 2 if a.doubled else 1
        name = a.bid.strain
        contract = Contract(a.seat, a.bid.trump, name, a.bid.value, level)
        return BiddingStep(contract=contract, round=bidding_round)
    return BiddingStep(next_seat=state.next_seat(seat), round=bidding_round)


# --- play under sans atout and tout atout -----------------------------------------------------


def contract_moves(rules: Rules, contract: Contract) -> MoveRule:
    """The play obligations under ``contract``: Belote's under its trump (sans atout is
    Belote's with no trump: follow suit, else any card), or tout atout's."""
    if contract.name == TOUT_ATOUT:
        return common.ToutAtoutMoves()
    return common.make_moves(rules, contract.trump)


def contract_beats(contract: Contract) -> tuple[CardSet, ...]:
    """Which card takes which under ``contract``."""
    if contract.name == TOUT_ATOUT:
        return tout_atout_beats()
    return beats_table(contract.trump)


def contract_values(contract: Contract) -> CardValues:
    """What the cards are worth under ``contract``: Belote's under a suit, the
    federation's tables under sans atout and tout atout; 162 a deal in every case."""
    if contract.name == SANS_ATOUT:
        return CardValues(rank_points(SANS_ATOUT_POINTS), LAST_TRICK_BONUS)
    if contract.name == TOUT_ATOUT:
        return CardValues(rank_points(TOUT_ATOUT_POINTS), LAST_TRICK_BONUS)
    return CardValues(card_points(contract.trump), LAST_TRICK_BONUS)


# --- scoring ---------------------------------------------------------------------------------


def settle(rules: Rules, contract: Contract, end: DealEnd) -> DealScore:
    """The score of a deal played under ``contract`` that ends as ``end`` (docs/rules.md,
    "La Coinche", "Scoring"), before what earlier deals held over: the one scoring rule
    of the game, for a played deal (:func:`score_deal`) and for a search that ends a deal
    in its head (``atout_deal_scorer``)."""
    return common.rounded(_settle(rules, contract, end), int(rules.get("rounding", 10)))


@functools.lru_cache(maxsize=1024)
def _dedans_note(points: int, value: int) -> Message:
    """The note of takers who fall short of their contract, made once for each pair of
    numbers and then reused (as Découverte's: the searches score many a deal's end)."""
    return Message(
        "the takers made {points} of the {value} they bid: dedans", points=points, value=value
    )


def _settle(rules: Rules, contract: Contract, end: DealEnd) -> DealScore:
    takers = contract.taker % 2
    defenders = 1 - takers
    value = contract.value if contract.value is not None else VALUES[0]
    level = contract.level
    cards = list(end.card_points)
    deal_points = sum(cards)
    decl = list(end.declarations or (0, 0))
    belote_pts = list(end.belote or (0, 0))
    capot = end.capot
    if capot is not None:
        decl[1 - capot] = 0  # a side that won no trick loses its declarations
    made_points = [cards[t] + decl[t] + belote_pts[t] for t in (0, 1)]
    if capot is not None:  # every trick: the capot's worth instead of the cards'
        made_points[capot] = int(rules["capot_points"]) + decl[capot] + belote_pts[capot]
    mine, theirs = made_points[takers], made_points[defenders]
    capot_contract = contract.value == CAPOT_VALUE
    notes: list[str] = []
    if capot_contract:
        made: bool | None = capot == takers
    else:
        made = mine >= value and mine > theirs
    litige = (
        not capot_contract
        and mine >= value
        and mine == theirs
        and level == 1
        and rules["tie"] == "litige"
    )
    score = [0, 0]
    carry: dict[str, Any] | None = None
    announced = rules["scoring"] == "announced"
    if litige:
        made = None
        outcome = "litige"
        score[defenders] = theirs
        held = value + mine
        carry = {"held": [{"kind": "litige", "takers": takers, "points": held}]}
        notes.append(N_("litige: the takers' points go to whoever wins the next deal"))
    elif level > 1:
        winner = takers if made else defenders
        base = value if announced else FALLEN_POINTS + value
        score[winner] = base * level + decl[0] + decl[1] + belote_pts[winner]
        score[1 - winner] = belote_pts[1 - winner]
        outcome = "made" if made else "dedans"
        notes.append(N_("contrée") if level == 2 else N_("surcontrée"))
    elif made:
        outcome = "capot" if capot == takers else "made"
        if announced:
            score[takers] = value + decl[takers] + belote_pts[takers]
            score[defenders] = belote_pts[defenders]
        else:
            score[takers] = value + mine
            score[defenders] = theirs
    else:
        outcome = "dedans"
        base = value if announced else FALLEN_POINTS + value
        score[defenders] = base + decl[0] + decl[1] + belote_pts[defenders]
        score[takers] = belote_pts[takers]
        if capot_contract:
            notes.append(N_("the capot was not made"))
        else:
            notes.append(_dedans_note(mine, value))
    return common.family_score(
        cards, decl, belote_pts, score, outcome, made, capot, notes, deal_points, carry
    )


def score_end(rules: Rules, state: DealState, end: DealEnd) -> DealScore:
    """Score a played deal that ended as ``end``: :func:`settle`, then the points an
    earlier litige held over, paid to this deal's winner (or held on by a new litige)."""
    assert state.contract is not None
    carry_in: dict[str, Any] = dict(state.carry_in or {})
    if not carry_in.get("held"):
        return settle(rules, state.contract, end)
    result = _settle(rules, state.contract, end)
    takers = state.contract.taker % 2
    notes = list(result.notes)
    if result.made is None:
        held = list(carry_in["held"]) + list((result.carry or {}).get("held", []))
        result = replace(result, carry={"held": held})
    else:
        winner = takers if result.made else 1 - takers
        score = common.pay_held(carry_in, winner, list(result.score), notes)
        result = replace(result, score=tuple(score), notes=tuple(notes))
    return common.rounded(result, int(rules.get("rounding", 10)))


def capot_team(state: DealState, tricks: int) -> int | None:
    """The team that won every one of the deal's ``tricks``, if one did."""
    for team in (0, 1):
        if state.tricks_won(team) == tricks:
            return team
    return None


# --- the shared frame of both forms ------------------------------------------------------------


def auction_options(sides: str, target_source: str) -> list[RuleOption]:
    """The switches both forms share: the contracts offered, the auction, the scoring and
    the match (its end said of ``sides``: ``"teams"`` at four, ``"players"`` at two)."""
    end = common.match_end_options(sides, target_source, target_source)
    end[0] = replace(end[0], default=2000)
    return [
        common.choice_option(
            "sans_tout_atout",
            N_("Sans atout, tout atout"),
            N_(
                "Which of the contracts sans atout (no trumps) and tout atout (all trumps) the "
                "auction offers besides the suits: off, both, sans-atout or tout-atout."
            ),
            dict(
                zip(
                    OFFERS, (N_("Off"), N_("Both"), N_("Sans atout"), N_("Tout atout")), strict=True
                )
            ),
            "ffb lacontree",
        ),
        common.flag_option(
            "bid_after_contre",
            N_("Bid after a contre"),
            N_(
                "A higher bid may still follow a contre (and cancels it); false: after a contre "
                "only surcontre or pass."
            ),
            False,
            "lacontree contree.org",
        ),
        common.choice_option(
            "scoring",
            N_("Scoring"),
            N_(
                "Made: the takers score the contract plus the points they made and the "
                "defenders their points (made-points); or only the contract (announced)."
            ),
            {"made-points": N_("Contract and points made"), "announced": N_("Contract only")},
            "contree.net",
        ),
        common.number_option(
            "capot_points",
            N_("Capot points"),
            N_("What the points of a side that wins every trick count for (instead of 162)."),
            250,
            (162, 1000),
            "contree.net",
        ),
        common.choice_option(
            "tie",
            N_("A tie"),
            N_(
                "The takers reach their contract with exactly the defenders' points (81 to 81): "
                "they fall, or litige (their points go to the winner of the next deal)."
            ),
            {"takers-fail": N_("Takers fail"), "litige": N_("Litige")},
            "contree.org",
        ),
        common.number_option(
            "rounding",
            N_("Rounding"),
            N_("Round each deal's scores to the nearest multiple (5 up); 0: none."),
            10,
            (0, 10),
            "lacontree contree.net",
        ),
        *end,
    ]


class CoincheRules(BeloteFamily):
    """What both forms of La Coinche answer alike and not as the rest of the family: the
    auction by value and strain with contre and surcontre, the contracts sans atout and
    tout atout, the scoring by the contract's value and level, and the description of a
    bid for the front ends."""

    def bid_options(self, rules: Rules, state: DealState) -> list[str]:
        return auction_bids(rules, state)

    def bidding_step(self, rules: Rules, state: DealState) -> BiddingStep:
        return auction_step(rules, state)

    def moves(self, rules: Rules, contract: Contract) -> MoveRule:
        return contract_moves(rules, contract)

    def beats(self, rules: Rules, contract: Contract) -> tuple[int, ...]:
        return contract_beats(contract)

    def card_values(self, rules: Rules, contract: Contract) -> CardValues:
        return contract_values(contract)

    def scorer(self, rules: Rules, contract: Contract) -> DealScorer:
        return functools.partial(settle, rules, contract)

    def settle(self, rules: Rules, takers: int, end: DealEnd) -> DealScore:
        """The family's scoring by the taking side alone cannot know the contract's value:
        La Coinche scores by :func:`settle` with the whole contract (see :meth:`scorer`);
        this is an 80 contract, undoubled, taken by ``takers``."""
        return settle(rules, Contract(takers, None, "", VALUES[0]), end)

    def complete_deal(self, rules: Rules, state: DealState) -> None:
        """Nothing more is dealt after the auction: every card was dealt before it."""

    def carry_in_problem(self, rules: Rules, carry_in: Any) -> str | None:
        """Points an earlier litige holds over: as four-player Belote's (a litige's)."""
        return belote.PLUGIN.carry_in_problem(rules, carry_in)

    @hookimpl
    def atout_describe_bid(self, game: str, rules: Rules, bid: str) -> BidInfo | None:
        return describe(bid) if game == self.game else None


# --- the four-player game ------------------------------------------------------------------------


PACKETS = {"3-2-3": (3, 2, 3), "3-3-2": (3, 3, 2), "2-3-3": (2, 3, 3), "4-4": (4, 4)}
"""The packets each value of option ``deal_packets`` deals, round by round."""


def options() -> list[RuleOption]:
    """Every variation of four-player La Coinche a pack may switch, with its default."""
    by_key = {o.key: o for o in belote.options()}
    return [
        by_key["direction"],
        common.choice_option(
            "deal_packets",
            N_("Deal packets"),
            N_("The packets each player receives, all eight cards dealt before the auction."),
            dict(
                zip(PACKETS, (N_("3, 2, 3"), N_("3, 3, 2"), N_("2, 3, 3"), N_("4, 4")), strict=True)
            ),
            "ffb contree.org nimbustier",
        ),
        by_key["between_deals"],
        common.choice_option(
            "declarations",
            N_("Declarations"),
            N_(
                "Declarations: only belote-rebelote, all (sequences and carrés, as in Belote), "
                "or none."
            ),
            {"belote-only": N_("Belote only"), "on": N_("All"), "none": N_("None")},
            "ffb contree.org",
        ),
        by_key["declarations_shown"],
        by_key["declaration_comparison"],
        by_key["belote_king_first"],
        by_key["undertrump"],
        *auction_options("teams", "ffb contree.net"),
    ]


def deal(rules: Rules, dealer: int, rng: random.Random, previous: DealState | None) -> Layout:
    """All eight cards to each seat before the auction, no card turned up: the first
    deal from a shuffled pack, the others from the gathered and cut one (or shuffled, by
    option), in the packets of option ``deal_packets``, from the dealer's right."""
    if previous is None or rules["between_deals"] == "shuffle":
        pack = list(range(32))
        rng.shuffle(pack)
    else:
        pack = belote.cut(belote.gathered_pack(previous), rng)
    direction = -1 if rules["direction"] == "clockwise" else 1
    order = [(dealer + direction * (i + 1)) % 4 for i in range(4)]
    hands = [0] * 4
    pos = 0
    for size in PACKETS[rules.text("deal_packets")]:
        for seat in order:
            for c in pack[pos : pos + size]:
                hands[seat] |= 1 << c
            pos += size
    return Layout(hands=tuple(hands), pack_order=tuple(pack))


def find_declarations(rules: Rules, state: DealState) -> list[Declaration]:
    """Belote-rebelote, and with ``declarations: on`` the sequences and carrés: four-player
    Belote's (none under sans atout or tout atout: belote needs a trump suit)."""
    return belote.find_declarations(rules, state)


def score_deal(rules: Rules, state: DealState) -> DealScore:
    """Score a four-player deal: the declarations compared as in Belote, then
    :func:`score_end`."""
    decl, belote_pts = belote.declaration_points(rules, state)
    end = DealEnd(tuple(state.team_points()), capot_team(state, 8), tuple(decl), tuple(belote_pts))
    return score_end(rules, state, end)


class Coinche(CoincheRules):
    """Four-player La Coinche: the deal of all eight cards before the auction, with
    Belote's declarations."""

    info = family_game(
        GAME,
        N_("La Coinche"),
        belote.SEAT_NAMES,
        N_(
            "Belote contrée for four: an auction from 80 to 160 or capot, contre and "
            "surcontre, every card dealt before it."
        ),
    )
    options = staticmethod(options)
    deal = staticmethod(deal)
    declarations = staticmethod(find_declarations)
    score_deal = staticmethod(score_deal)

    def layout_problem(self, rules: Rules, layout: Layout, dealer: int) -> str | None:
        """The auction starts with eight cards in every hand."""
        return belote.hands_problem(layout, 8, "auction")


PLUGIN = Coinche()
"""The game's plugin object; this module, which the entry point names, publishes its hooks."""
globals().update(PLUGIN.hooks())
