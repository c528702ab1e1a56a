"""Every variation a house-rule pack may switch changes play in the engine (docs/packs.md,
"Variations every pack must be able to switch", and the Découverte variations).

Each test sets up a position or a whole deal where the variation changes the outcome
and asserts the difference against the default rules.  Whole four-player deals are
written trick by trick (cards in play order; the dealer's right leads the first trick,
each trick's winner the next); the hands are those the tricks imply, the declarations
are found from them as in a dealt deal, and the engine checks every card on the way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import pytest
from atout.core import CLAIM
from atout.core import FULL_DECK
from atout.core import Action
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import card_str
from atout.core import cards_of
from atout.core import parse_card
from atout.core import parse_cards
from atout.core import parse_suit
from atout.core.records import deal_from_record

BELOTE = "belote"
DECOUVERTE = "decouverte"


# --- helpers ---------------------------------------------------------------------------------


def texts(mask: int) -> set[str]:
    return {card_str(c) for c in cards_of(mask)}


def written_deal(
    engine: Engine,
    tricks: Sequence[str],
    rules: Mapping[str, Any] | None = None,
    trump: str = "H",
    taker: int = 0,
    dealer: int = 3,
    carry_in: Any = None,
) -> Deal:
    """Play a four-player deal written trick by trick and return it, scored."""
    game_rules = engine.make_rules(BELOTE, rules or {})
    beats = engine.play_rules(BELOTE, game_rules, Contract(taker, parse_suit(trump), trump)).beats
    direction = -1 if game_rules["direction"] == "clockwise" else 1
    leader = (dealer + direction) % 4
    plays: list[tuple[int, int]] = []
    for trick in tricks:
        cards = [parse_card(t) for t in trick.split()]
        win, winner = cards[0], leader
        for i, c in enumerate(cards):
            seat = (leader + i * direction) % 4
            plays.append((seat, c))
            if i and beats[win] >> c & 1:
                win, winner = c, seat
        leader = winner
    hands = [0, 0, 0, 0]
    for seat, c in plays:
        hands[seat] |= 1 << c
    record: dict[str, Any] = {
        "format": "atout-deal",
        "version": 1,
        "game": BELOTE,
        "rules": dict(rules or {}),
        "dealer": dealer,
        "layout": {"hands": [[card_str(c) for c in cards_of(h)] for h in hands]},
        "start": {
            "contract": {"taker": taker, "trump": trump},
            "leader": (dealer + direction) % 4,
        },
        "actions": [{"seat": seat, "play": card_str(c)} for seat, c in plays],
    }
    if carry_in is not None:
        record["carry_in"] = carry_in
    deal = deal_from_record(engine, record, "written deal")
    assert deal.score is not None, "a written deal is played to its end"
    return deal


def position(
    engine: Engine,
    hands: Sequence[str],
    rules: Mapping[str, Any] | None = None,
    trump: str = "H",
    leader: int = 0,
    trick: str = "",
    taker: int = 0,
    dealer: int | None = None,
    declarations: bool = False,
) -> Deal:
    """A four-player deal in its play set up by hand: ``hands[s]`` is what seat ``s``
    holds now; ``trick`` lists the cards already played from ``leader`` on (given back
    to their seats and played through the engine)."""
    game_rules = engine.make_rules(BELOTE, rules or {})
    direction = -1 if game_rules["direction"] == "clockwise" else 1
    trick_cards = [parse_card(t) for t in trick.split()]
    masks = [parse_cards(h) for h in hands]
    for i, c in enumerate(trick_cards):
        masks[(leader + i * direction) % 4] |= 1 << c
    if dealer is None:
        dealer = (leader - direction) % 4
    state = DealState(BELOTE, game_rules, 4, 2, dealer, Layout(hands=tuple(masks)), direction)
    state.contract = Contract(taker, parse_suit(trump), trump)
    state.phase = "play"
    state.leader = state.turn = leader
    state.extra["declarations"] = declarations
    deal = engine.deal_from_state(state)
    for c in trick_cards:
        deal.play(c)
    return deal


def legal(engine: Engine, hands: Sequence[str], trick: str, **rules: Any) -> set[str]:
    """The legal cards of the seat to play in a position (trump hearts, seat 0 leads)."""
    return texts(position(engine, hands, rules, trick=trick).legal_cards())


def random_choice(rng: random.Random) -> Callable[[Deal], Action]:
    """A chooser that takes a uniformly random legal action."""
    return lambda deal: rng.choice(deal.legal_actions())


def lowest_card(deal: Deal) -> Action:
    """A fixed choice: the legal action with the lowest card (or the first bid)."""
    actions = deal.legal_actions()
    plays = [a for a in actions if a.kind == "play"]
    return min(plays, key=lambda a: a.value) if plays else actions[0]


def match_over(engine: Engine, game: str, scores: tuple[int, int], **rules: Any) -> Any:
    return engine.call(
        "atout_match_over",
        game=game,
        rules=engine.make_rules(game, rules),
        scores=scores,
        history=[],
    )


# Whole deals found once with a seeded random search and written down here.  Trump is
# hearts, seat 0 takes, seat 3 deals, so seat 0 leads the first trick.

TIE_81_81 = (  # no declarations at all; each team takes 81
    "10S JH JS 7S",
    "7D AH JD 9D",
    "9S QH KS 10D",
    "10C 9C KC AC",
    "QS 7C AS KH",
    "9H 8H 8C 7H",
    "KD 10H AD 8D",
    "8S JC QC QD",
)

TIE_CARDS_DEFENDERS_TIERCE = (  # 81-81 in card points; seat 1 (a defender) has a tierce
    "KH JH 10H 7H",
    "9S AS 10S JC",
    "JS KS 8H 8S",
    "9H 8C QH AC",
    "8D 10D KD QD",
    "7C KC 10C QC",
    "AD JD 7D 9D",
    "QS AH 9C 7S",
)

CAPOT_DEFENDERS_TIERCE = (  # the takers win every trick; seat 1 holds a tierce
    "7S 10S AS JS",
    "JC AC QH 10C",
    "JH 7D AH 8H",
    "QS QC KS 8S",
    "KC 7C 8D 8C",
    "9H KH 7H JD",
    "10H 9D 10D QD",
    "KD 9S AD 9C",
)

QUARTE_AND_TIERCES = (  # seat 0: tierce, quarte, belote; seat 1: a higher tierce
    "KD 7D 10D 8D",
    "9S 8S JH QS",
    "KH 9H 7S 8H",
    "AS JS 10S AH",
    "JD 7H AD 10H",
    "7C QH JC AC",
    "9D KS 9C 10C",
    "QD QC KC 8C",
)

QUEEN_BEFORE_KING = (  # seat 3 holds the belote and plays the queen of hearts first
    "JS 8S QS 7S",
    "7H QH AH 9H",
    "KC 7C 9C 8C",
    "8H 10H KH QC",
    "10C JC AC JH",
    "AS 9S 10D 10S",
    "7D QD 8D JD",
    "AD KD 9D KS",
)

TAKERS_TIERCE_AND_BELOTE = (  # seat 2 (a taker) has a tierce and the belote; made
    "8C QC 9H JC",
    "KH JH AC 8H",
    "7C 10C 7H AH",
    "AD KD 9D 7D",
    "9S AS JS 7S",
    "8D 10S QD JD",
    "10D 10H QS 8S",
    "QH 9C KC KS",
)

TAKERS_BELOTE_DEDANS = (  # seat 0 (the taker) holds the belote and goes dedans
    "QH 9H 8H 7H",
    "JC 9C 10C 10H",
    "KS 7S AS 10S",
    "8S AC JS JH",
    "AH QS 8D KH",
    "KC 7C 8C 9S",
    "AD QD 7D 10D",
    "JD QC KD 9D",
)


# --- direction of play ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("direction", "bidders", "next_dealer"),
    [("anticlockwise", [1, 2, 3, 0], 1), ("clockwise", [3, 2, 1, 0], 3)],
)
def test_clockwise_changes_who_bids_deals_and_leads_next(
    engine: Engine, direction: str, bidders: list[int], next_dealer: int
) -> None:
    rules = engine.make_rules(BELOTE, {"direction": direction})
    match = Match(engine, BELOTE, rules, seed=5, dealer=0)
    deal = match.next_deal()
    pack = deal.state.layout.pack_order
    assert deal.state.layout.hands[bidders[0]] >> pack[0] & 1, "first packet to the next seat"
    seen = []
    for _ in range(4):
        seen.append(deal.turn)
        deal.bid("pass")
    assert seen == bidders
    deal.bid("take" if "take" in deal.legal_bids() else deal.legal_bids()[0])
    assert deal.state.leader == bidders[0], "the next seat after the dealer leads"
    order = []
    for _ in range(4):
        order.append(deal.turn)
        deal.play(min(cards_of(deal.legal_cards())))
    assert order == bidders, "the play goes round the table in the same direction"
    while not deal.is_over:
        deal.apply(lowest_card(deal))
    match.end_deal(deal)
    assert match.dealer == next_dealer


def test_clockwise_rotation_decides_equal_declarations(engine: Engine) -> None:
    """Equal sequences: the one earliest in rotation wins, and rotation follows the
    direction.  Seats 1 and 3 hold equal tierces (spades and diamonds, neither trump)."""
    hands = ["7C 9C JC JH", "AS KS QS 7H", "10C KC AC 8H", "AD KD QD 9H"]
    results = {}
    for direction in ("anticlockwise", "clockwise"):
        deal = position(engine, hands, {"direction": direction}, dealer=0, declarations=True)
        tierces = [d for d in deal.state.declarations if d.kind == "tierce"]
        assert sorted(d.seat for d in tierces) == [1, 3]
        best = max(tierces, key=lambda d: d.rank)
        results[direction] = best.seat
    # dealer 0: anticlockwise the order is 1 2 3 0, clockwise 3 2 1 0
    assert results == {"anticlockwise": 1, "clockwise": 3}


# --- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("packets", "first", "second"), [("3-2", 3, 2), ("2-3", 2, 3)])
def test_deal_packets_3_2_or_2_3(engine: Engine, packets: str, first: int, second: int) -> None:
    rules = engine.make_rules(BELOTE, {"deal_packets": packets})
    deal = engine.new_deal(BELOTE, rules, 3, random.Random(9))
    pack = deal.state.layout.pack_order
    hands = deal.state.layout.hands
    # seat 0 is the dealer's right: the first packet of each round
    mine = pack[0:first] + pack[4 * first : 4 * first + second]
    assert hands[0] == sum(1 << c for c in mine)
    assert deal.state.turnup == pack[20]


def test_deal_packets_at_the_dealers_choice_uses_both_forms(engine: Engine) -> None:
    rules = engine.make_rules(BELOTE, {"deal_packets": "dealer"})
    forms = set()
    for seed in range(20):
        layout = engine.new_deal(BELOTE, rules, 3, random.Random(seed)).state.layout
        pack = layout.pack_order
        three_two = sum(1 << c for c in pack[0:3] + pack[12:14])
        two_three = sum(1 << c for c in pack[0:2] + pack[8:11])
        assert layout.hands[0] in (three_two, two_three)
        forms.add("3-2" if layout.hands[0] == three_two else "2-3")
    assert forms == {"3-2", "2-3"}


@pytest.mark.parametrize("between", ["gather-and-cut", "shuffle"])
def test_between_deals_gather_and_cut_or_shuffle(engine: Engine, between: str) -> None:
    rules = engine.make_rules(BELOTE, {"between_deals": between})
    match = Match(engine, BELOTE, rules, seed=21)
    rng = random.Random(4)
    while True:
        deal = match.play_deal(lambda d: rng.choice(d.legal_actions()))
        if len(deal.state.tricks) == 8:
            break
    gathered = [c for t in deal.state.tricks for c in t.cards]
    pack = list(match.next_deal().state.layout.pack_order)
    rotations = [gathered[k:] + gathered[:k] for k in range(32)]
    assert (pack in rotations) == (between == "gather-and-cut")


# --- declarations ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "kinds", "points"),
    [("on", {"tierce", "belote"}, 40), ("belote-only", {"belote"}, 20), ("none", set(), 0)],
)
def test_declarations_on_belote_only_or_none(
    engine: Engine, mode: str, kinds: set[str], points: int
) -> None:
    deal = written_deal(engine, TAKERS_TIERCE_AND_BELOTE, {"declarations": mode})
    assert {d.kind for d in deal.state.declarations} == kinds
    assert deal.score is not None
    assert deal.score.declaration_points == (points, 0)
    assert deal.score.card_points == (99, 63)
    assert deal.score.score == (99 + points, 63)


def test_declarations_shown_as_soon_as_held_are_in_the_view_before_any_card(
    engine: Engine,
) -> None:
    hands = ["7C 8C 9C JH", "AS KS QS 7H", "10C KC AC 8H", "8D 9D 10D 9H"]
    by_mode = {}
    for shown in ("first-trick", "when-held"):
        deal = position(engine, hands, {"declarations_shown": shown}, declarations=True)
        view = deal.view(0)
        assert not view.trick, "no card has been played yet"
        by_mode[shown] = ([a.text for a in view.announcements if a.seat == 1], view.shown[1])
    assert by_mode["first-trick"] == ([], 0)
    said, shown_cards = by_mode["when-held"]
    assert len(said) == 1 and "tierce" in said[0]
    assert texts(shown_cards) == {"AS", "KS", "QS"}


def test_declarations_compared_kind_by_kind(engine: Engine) -> None:
    official = written_deal(engine, QUARTE_AND_TIERCES)
    kinds = written_deal(engine, QUARTE_AND_TIERCES, {"declaration_comparison": "kind-by-kind"})
    assert official.score is not None and kinds.score is not None
    # seat 0: tierce 20 + quarte 50 + belote 20; seat 1: a higher tierce
    assert official.score.declaration_points == (90, 0), "the quarte is the best: all of team 0"
    assert kinds.score.declaration_points == (70, 20), "team 1's tierce beats team 0's tierce"


def test_belote_king_first(engine: Engine) -> None:
    default = written_deal(engine, QUEEN_BEFORE_KING)
    king_first = written_deal(engine, QUEEN_BEFORE_KING, {"belote_king_first": True})
    assert default.score is not None and king_first.score is not None
    assert default.score.declaration_points == (0, 20)
    assert king_first.score.declaration_points == (0, 0), "the queen came first: no belote"
    assert default.score.score[1] == king_first.score.score[1] + 20


@pytest.mark.parametrize(("mode", "expected"), [("keeps", (20, 162)), ("to-opponents", (0, 182))])
def test_belote_when_dedans_stays_or_goes_to_the_opponents(
    engine: Engine, mode: str, expected: tuple[int, int]
) -> None:
    deal = written_deal(engine, TAKERS_BELOTE_DEDANS, {"dedans_belote": mode})
    assert deal.score is not None and deal.score.made is False
    assert deal.score.score == expected


# --- the contract test and ties ------------------------------------------------------------------


def test_card_points_only_81_makes_the_contract(engine: Engine) -> None:
    default = written_deal(engine, TIE_CARDS_DEFENDERS_TIERCE)
    cards_only = written_deal(
        engine, TIE_CARDS_DEFENDERS_TIERCE, {"contract_counts_declarations": False}
    )
    assert default.score is not None and cards_only.score is not None
    assert default.score.card_points == (81, 81)
    assert default.score.declaration_points == (0, 20)
    assert default.score.made is False, "81 against 81 + 20: dedans"
    assert default.score.score == (0, 182)
    assert cards_only.score.made is True, "81 card points make it"
    assert cards_only.score.score == (81, 101)


@pytest.mark.parametrize(
    ("tie", "made", "score", "held"),
    [
        ("takers-make", True, (81, 81), None),
        ("takers-fail", False, (0, 162), None),
        ("abeyance", None, (0, 0), [{"kind": "abeyance", "takers": 0, "points": [81, 81]}]),
        ("litige", None, (0, 81), [{"kind": "litige", "takers": 0, "points": 81}]),
    ],
)
def test_each_tie_rule(
    engine: Engine, tie: str, made: bool | None, score: tuple[int, int], held: Any
) -> None:
    deal = written_deal(engine, TIE_81_81, {"tie": tie})
    assert deal.score is not None
    assert deal.score.card_points == (81, 81) and deal.score.declaration_points == (0, 0)
    assert deal.score.made is made
    assert deal.score.score == score
    assert (deal.score.carry or {}).get("held") == held


@pytest.mark.parametrize(
    ("tie", "next_deal", "bonus"),
    [
        # the former takers (team 0) win the next deal: each team gets its 81
        ("abeyance", TAKERS_TIERCE_AND_BELOTE, (81, 81)),
        # the former takers go dedans next: their opponents get all 162
        ("abeyance", TAKERS_BELOTE_DEDANS, (0, 162)),
        # litige: whoever wins the next deal gets the takers' 81
        ("litige", TAKERS_TIERCE_AND_BELOTE, (81, 0)),
        ("litige", TAKERS_BELOTE_DEDANS, (0, 81)),
    ],
)
def test_abeyance_and_litige_carry_points_into_the_next_deal(
    engine: Engine, tie: str, next_deal: Sequence[str], bonus: tuple[int, int]
) -> None:
    rules = {"tie": tie}
    tied = written_deal(engine, TIE_81_81, rules)
    assert tied.score is not None and tied.score.carry
    plain = written_deal(engine, next_deal, rules)
    after = written_deal(engine, next_deal, rules, carry_in=tied.score.carry)
    assert plain.score is not None and after.score is not None
    got = tuple(a - p for a, p in zip(after.score.score, plain.score.score, strict=True))
    assert got == bonus
    assert not (after.score.carry or {}).get("held"), "the held points are paid out once"


def test_the_match_hands_the_carry_to_the_next_deal(engine: Engine) -> None:
    """Through a Match: a tied deal's held points reach the next deal, which pays them."""
    rules = engine.make_rules(BELOTE, {"tie": "abeyance"})
    for seed in range(500):
        match = Match(engine, BELOTE, rules, seed=seed)
        rng = random.Random(seed)
        tied = match.play_deal(random_choice(rng))
        assert tied.score is not None
        if tied.score.carry:
            break
    else:
        raise AssertionError("no tie in 500 seeded deals")
    assert tied.score.outcome == "abeyance" and tied.score.score == (0, 0)
    following = match.play_deal(random_choice(rng))
    assert following.state.carry_in == tied.score.carry
    assert following.score is not None
    if following.score.made is not None:
        assert any("abeyance" in note for note in following.score.notes)
        held = sum(tied.score.carry["held"][0]["points"])
        assert sum(following.score.score) >= held, "the held points are paid out"


# --- play obligations ----------------------------------------------------------------------------


def test_toujours_pisser_must_undertrump_on_the_partner(engine: Engine) -> None:
    # seat 0 leads clubs, seat 1 trumps with the jack, seat 2 follows; seat 3 is void in
    # clubs with two low trumps: its partner (seat 1) holds the trick with a trump
    hands = ["", "", "", "7H 8H AS KD"]
    trick = "7C JH 8C"
    assert legal(engine, hands, trick) == {"7H", "8H", "AS", "KD"}
    assert legal(engine, hands, trick, undertrump="always") == {"7H", "8H"}


def test_toujours_pisser_still_lets_you_overtrump_or_discard_when_you_can_overtrump(
    engine: Engine,
) -> None:
    # able to overtrump the partner's trump: both rules allow the higher trump or a
    # discard, and neither allows the lower trump
    hands = ["", "", "", "JH 7H AS"]
    trick = "7C 9H 8C"
    assert legal(engine, hands, trick) == {"JH", "AS"}
    assert legal(engine, hands, trick, undertrump="always") == {"JH", "AS"}
    deal = position(engine, hands, {"undertrump": "always"}, trick=trick)
    assert "undertrump" in (deal.explain(parse_card("7H")) or "")


def test_must_head_the_trick_in_a_plain_suit(engine: Engine) -> None:
    hands = ["", "7C AC 8H", "", ""]
    assert legal(engine, hands, "KC") == {"7C", "AC"}
    assert legal(engine, hands, "KC", must_head_trick=True) == {"AC"}
    # unable to head it, any card of the suit will do
    assert legal(engine, ["", "7C 8C 8H", "", ""], "KC", must_head_trick=True) == {"7C", "8C"}


def test_must_trump_even_when_the_partner_is_winning(engine: Engine) -> None:
    # seat 0 leads the ace of clubs, seat 1 follows; seat 2 (seat 0's partner) is void
    hands = ["", "", "7H AS KD", ""]
    assert legal(engine, hands, "AC 7C") == {"7H", "AS", "KD"}
    assert legal(engine, hands, "AC 7C", must_trump_partner=True) == {"7H"}
    # over the partner's trump a lower trump is allowed
    hands = ["", "", "7H JH AS", ""]
    assert legal(engine, ["", "", "7H AS", "9H"], "AC 7C", must_trump_partner=True) == {"7H"}
    assert legal(engine, hands, "AC 7C", must_trump_partner=True) == {"7H", "JH"}


# --- scoring -----------------------------------------------------------------------------------------


def test_rounding_to_10(engine: Engine) -> None:
    exact = written_deal(engine, TAKERS_TIERCE_AND_BELOTE)
    rounded = written_deal(engine, TAKERS_TIERCE_AND_BELOTE, {"rounding": 10})
    five = written_deal(engine, TAKERS_TIERCE_AND_BELOTE, {"rounding": 5})
    assert exact.score is not None and rounded.score is not None and five.score is not None
    assert exact.score.score == (139, 63)
    assert rounded.score.score == (140, 60)
    assert five.score.score == (140, 65)


def test_capot_keeps_declarations(engine: Engine) -> None:
    default = written_deal(engine, CAPOT_DEFENDERS_TIERCE)
    keeps = written_deal(engine, CAPOT_DEFENDERS_TIERCE, {"capot_keeps_declarations": True})
    assert default.score is not None and keeps.score is not None
    assert default.score.capot == 0 and default.score.made is True
    assert default.score.score == (252, 0), "a capot team loses its declarations"
    assert keeps.score.score == (252, 20), "the capot defenders keep their tierce"
    assert keeps.score.made is True, "the defenders took no trick: the takers are not dedans"


def test_capot_bonus(engine: Engine) -> None:
    default = written_deal(engine, CAPOT_DEFENDERS_TIERCE)
    hundred = written_deal(engine, CAPOT_DEFENDERS_TIERCE, {"capot_bonus": 100})
    assert default.score is not None and hundred.score is not None
    assert sum(default.score.card_points) == 252
    assert sum(hundred.score.card_points) == 262
    assert hundred.score.score[0] == default.score.score[0] + 10


# --- the end of a match ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", [BELOTE, DECOUVERTE])
def test_target(engine: Engine, game: str) -> None:
    assert match_over(engine, game, (600, 300)) is None
    result = match_over(engine, game, (600, 300), target=500)
    assert result is not None and result.winner == 0


@pytest.mark.parametrize("game", [BELOTE, DECOUVERTE])
def test_both_past_the_target_drawn_or_play_on(engine: Engine, game: str) -> None:
    drawn = match_over(engine, game, (1010, 1050))
    assert drawn is not None and drawn.winner is None
    on = match_over(engine, game, (1010, 1050), both_past_target="play-on")
    assert on is not None and on.winner == 1
    assert match_over(engine, game, (1050, 1050), both_past_target="play-on") is None


# --- l'arrêt -------------------------------------------------------------------------------------------


def arret_match(engine: Engine, seed: int, prior: int, stop_kind: str) -> tuple[Match, Deal, int]:
    """A match under l'arrêt with both teams at ``prior``; lowest cards are played until
    the first claim of the wanted kind is offered, and it is made.  Returns the match,
    the deal and the claimer's seat."""
    rules = engine.make_rules(BELOTE, {"arret": True})
    for s in range(seed, seed + 50):
        match = Match(engine, BELOTE, rules, seed=s)
        match.scores = [prior, prior]
        deal = match.next_deal()
        rng = random.Random(s)
        while not deal.is_over:
            actions = deal.legal_actions()
            if CLAIM in actions:
                assert deal.state.contract is not None
                takers = deal.state.contract.taker % 2
                kind = "play-on" if deal.turn % 2 == takers else "stop"
                if kind == stop_kind:
                    seat = deal.turn
                    deal.apply(CLAIM)
                    return match, deal, seat
                actions = [a for a in actions if a.kind != "claim"]
            deal.apply(rng.choice(actions))
        match.end_deal(deal)
    raise AssertionError("no claim of that kind was offered")


def test_no_claim_without_arret(engine: Engine) -> None:
    match = Match(engine, BELOTE, seed=8)
    rng = random.Random(8)
    for _ in range(3):
        deal = match.next_deal()
        while not deal.is_over:
            actions = deal.legal_actions()
            assert CLAIM not in actions
            deal.apply(rng.choice(actions))
        match.end_deal(deal)


def test_arret_offers_a_claim_only_right_after_winning_a_trick(engine: Engine) -> None:
    rules = engine.make_rules(BELOTE, {"arret": True})
    match = Match(engine, BELOTE, rules, seed=3)
    deal = match.next_deal()
    rng = random.Random(1)
    offers = 0
    while not deal.is_over:
        s = deal.state
        just_won = bool(s.tricks) and not s.trick and s.tricks[-1].winner == deal.turn
        claim = CLAIM in deal.legal_actions()
        assert claim == (just_won and s.phase == "play" and len(s.tricks) < 8)
        assert deal.view(deal.turn).can_claim == claim
        offers += claim
        deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind != "claim"]))
    assert offers > 0


@pytest.mark.parametrize(("prior", "claimer_wins"), [(999, True), (0, False)])
def test_arret_a_defenders_claim_stops_the_deal_right_wins_wrong_loses(
    engine: Engine, prior: int, claimer_wins: bool
) -> None:
    match, deal, seat = arret_match(engine, 30, prior, "stop")
    assert deal.is_over, "a defender's claim ends the deal at once"
    assert len(deal.state.tricks) < 8
    assert deal.score is not None and deal.score.outcome == "arret"
    team = seat % 2
    counted = deal.score.score[team]
    assert (
        counted
        == sum(t.points for t in deal.state.tricks if t.winner % 2 == team)
        + (deal.score.declaration_points[team])
    )
    assert (prior + counted >= 1000) == claimer_wins, "the position is as the case says"
    result = match.end_deal(deal)
    assert result is not None
    assert result.winner == (team if claimer_wins else 1 - team)
    assert "l'arrêt" in result.reason


def test_arret_a_takers_claim_plays_the_deal_out_and_must_make_it(engine: Engine) -> None:
    outcomes: set[bool] = set()
    for seed in range(40, 400, 20):
        match, deal, seat = arret_match(engine, seed, 999, "play-on")
        assert not deal.is_over, "a taker's claim plays the deal out"
        rng = random.Random(seed)
        while not deal.is_over:
            deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind != "claim"]))
        assert len(deal.state.tricks) == 8
        assert deal.score is not None and deal.score.made is not None
        team = seat % 2
        result = match.end_deal(deal)
        assert result is not None
        if deal.score.made:
            assert result.winner == team, "made, and at the target: the claim is right"
        else:
            assert deal.score.score[team] == 0, "no points of this deal count"
            assert result.winner == 1 - team, "not made: the claimers lose"
        outcomes.add(deal.score.made)
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}, "both a made and a failed claim were judged"


# --- Découverte ------------------------------------------------------------------------------------------

# Seat 0 holds every heart (trump), the aces and tens of the other suits and two kings:
# whatever the order of play, with seat 0 leading it wins every trick.
STRONG_UP = "7H 8H 9H 10H JH QH KH AH"
STRONG_DOWN = "AC AD AS 10C 10D 10S KC KD"
WEAK_UP = "7C 8C 9C JC QC 7D 8D 9D"
WEAK_DOWN = "JD QD 7S 8S 9S JS QS KS"


def decouverte_deal(
    engine: Engine, rules: Mapping[str, Any] | None = None, dealer: int = 1, taker: int = 0
) -> Deal:
    """A Découverte deal set up by hand (trump hearts), before the first card."""
    rows = []
    for up, down in ((STRONG_UP, STRONG_DOWN), (WEAK_UP, WEAK_DOWN)):
        rows.append([{"up": u, "down": d} for u, d in zip(up.split(), down.split(), strict=True)])
    record = {
        "format": "atout-deal",
        "version": 1,
        "game": DECOUVERTE,
        "rules": dict(rules or {}),
        "dealer": dealer,
        "layout": {"hands": [[], []], "piles": rows, "open_hands": True},
        "start": {"contract": {"taker": taker, "trump": "H"}, "leader": 1 - dealer},
        "actions": [],
    }
    return deal_from_record(engine, record, "written Découverte deal")


def finish(deal: Deal) -> Deal:
    while not deal.is_over:
        deal.apply(lowest_card(deal))
    return deal


def test_decouverte_reveal_on_lead_turns_the_card_at_once(engine: Engine) -> None:
    views = {}
    for reveal in (False, True):
        deal = decouverte_deal(engine, {"reveal_on_lead": reveal})
        deal.play(parse_card("7H"))  # seat 0 leads the 7 of hearts, over the ace of clubs
        views[reveal] = deal.view(1).piles[0][0]
    assert views[False].top is None and views[False].covered, "still face down"
    assert views[True].top == parse_card("AC") and not views[True].covered


def test_decouverte_belote_rebelote_counts(engine: Engine) -> None:
    default = finish(decouverte_deal(engine))
    belote = finish(decouverte_deal(engine, {"belote_rebelote": True}))
    assert default.score is not None and belote.score is not None
    assert default.score.declaration_points == (0, 0)
    assert belote.score.declaration_points == (20, 0)
    assert belote.score.score[0] == default.score.score[0] + 20
    assert any(a.text in ("belote", "belote-rebelote") for a in belote.state.announcements)
    assert not default.state.announcements


def test_decouverte_declarations_on(engine: Engine) -> None:
    default = finish(decouverte_deal(engine))
    declared = finish(decouverte_deal(engine, {"declarations": "on"}))
    assert default.score is not None and declared.score is not None
    assert default.score.declaration_points == (0, 0)
    assert declared.score.declaration_points[0] > 0, "eight hearts face up: a quinte at least"


def test_decouverte_capot_bonus(engine: Engine) -> None:
    default = finish(decouverte_deal(engine))
    bonus = finish(decouverte_deal(engine, {"capot_bonus": 50}))
    assert default.score is not None and bonus.score is not None
    assert default.score.capot == 0 and bonus.score.capot == 0
    assert default.score.score == (162, 0)
    assert bonus.score.score == (212, 0)
    assert len(bonus.state.tricks) == 16 and bonus.state.played == FULL_DECK


def test_decouverte_winner_of_the_deal_deals_next(engine: Engine) -> None:
    dealers = {}
    for rule in ("alternate", "winner"):
        rules = {"dealer_rule": rule}
        deal = finish(decouverte_deal(engine, rules, dealer=0, taker=0))
        assert deal.score is not None and deal.score.made, "the strong dealer made it"
        dealers[rule] = engine.decide(
            "atout_next_dealer",
            game=DECOUVERTE,
            rules=engine.make_rules(DECOUVERTE, rules),
            state=deal.state,
            redeal=False,
        )
    assert dealers == {"alternate": 1, "winner": 0}
