"""docs/rules.md, "Declarations" and "Belote-rebelote" for four players.

What a hand declares is asked of the engine's ``atout_declarations`` hook on a set-up
deal; which team scores is read from the score of a whole deal played out from the
hands (the cards nobody names are dealt by ``complete_hands`` so that they make no
declaration of their own).
"""

from __future__ import annotations

import pytest
from atout.core import Deal
from atout.core import Declaration
from atout.core import Engine
from atout.core import cards_of
from atout.core.records import deal_from_record
from helpers import GAME
from helpers import cards
from helpers import complete_hands
from helpers import deal_record
from helpers import deal_with_hands
from helpers import play_lowest
from helpers import position
from helpers import shipped_engine
from helpers import texts


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


def declared(
    engine: Engine, hand: str, trump: str | None = "H", seat: int = 0
) -> list[Declaration]:
    """What ``hand`` (8 cards, at ``seat``) declares, found by the rule plugins."""
    hands = ["", "", "", ""]
    hands[seat] = hand
    deal = position(engine, hands, trump=trump, leader=0)
    answers = engine.call("atout_declarations", game=GAME, rules=deal.state.rules, state=deal.state)
    return [d for answer in answers for d in answer or ()]


def kinds(decls: list[Declaration]) -> list[tuple[str, int]]:
    return sorted((d.kind, d.points) for d in decls)


def scored(
    engine: Engine, partial: list[str], trump: str = "H", dealer: int = 3, taker: int = 0
) -> Deal:
    """Play out a deal from hands holding at least the named cards; the deal must not
    end in a capot (which would change who keeps declarations)."""
    deal = play_lowest(
        deal_with_hands(engine, complete_hands(partial, trump), trump, taker, dealer)
    )
    assert deal.score is not None and deal.score.capot is None
    return deal


def found(deal: Deal) -> list[tuple[int, str, int]]:
    return sorted((d.seat, d.kind, d.points) for d in deal.state.declarations)


# --- carrés ----------------------------------------------------------------------------------


def test_carre_of_jacks_is_worth_200(engine: Engine) -> None:
    assert kinds(declared(engine, "JC JD JH JS 7C 9D 7S AD", trump="H")) == [("carré", 200)]


def test_carre_of_nines_is_worth_150(engine: Engine) -> None:
    assert kinds(declared(engine, "9C 9D 9H 9S 7C JD 7S AD", trump="H")) == [("carré", 150)]


@pytest.mark.parametrize("rank", ["A", "10", "K", "Q"])
def test_carre_of_aces_tens_kings_or_queens_is_worth_100(engine: Engine, rank: str) -> None:
    four = " ".join(rank + s for s in "CDHS")
    assert kinds(declared(engine, f"{four} 7C 7D 9H 9S", trump="S")) == [("carré", 100)]


@pytest.mark.parametrize("rank", ["8", "7"])
def test_carre_of_eights_or_sevens_counts_nothing(engine: Engine, rank: str) -> None:
    four = " ".join(rank + s for s in "CDHS")
    assert declared(engine, f"{four} JC 10D KH AS", trump="D") == []


def test_carre_is_declared_whatever_the_trump(engine: Engine) -> None:
    for trump in "CDHS":
        assert kinds(declared(engine, "JC JD JH JS 7C 9D 7S 8D", trump=trump)) == [("carré", 200)]


# --- sequences -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("run", "name", "points"),
    [
        ("7S 8S 9S", "tierce", 20),
        ("JS QS KS AS", "quarte", 50),
        ("9S 10S JS QS KS", "quinte", 100),
    ],
)
def test_a_sequence_of_3_4_or_5_scores_20_50_or_100(
    engine: Engine, run: str, name: str, points: int
) -> None:
    filler = ["7C", "9C", "JC", "KC", "7D", "9D", "JD", "KD"][: 8 - len(run.split())]
    assert kinds(declared(engine, " ".join([run, *filler]), trump="H")) == [(name, points)]


@pytest.mark.parametrize(
    "run",
    [
        "7S 8S 9S 10S JS QS",
        "7S 8S 9S 10S JS QS KS",
        "8S 9S 10S JS QS KS AS",
        "7S 8S 9S 10S JS QS KS AS",
    ],
)
def test_a_sequence_longer_than_5_counts_as_a_quinte(engine: Engine, run: str) -> None:
    filler = ["7C", "9D"][: 8 - len(run.split())]
    decls = declared(engine, " ".join([run, *filler]), trump="H")
    assert kinds(decls) == [("quinte", 100)]


@pytest.mark.parametrize(
    "hand",
    [
        "10C JC QC 7D 9D JH KH AS",
        "8D 9D 10D 7C 9C JH KH AS",
        "QH KH AH 7C 9C JD KD 9S",
        "9S 10S JS 7C 9C JD KD AH",
    ],
)
def test_sequences_follow_a_k_q_j_10_9_8_7_in_every_suit(engine: Engine, hand: str) -> None:
    assert kinds(declared(engine, hand, trump=None)) == [("tierce", 20)]


@pytest.mark.parametrize("cards_text", ["9H 10H AH", "JH 9H AH", "KH AH 7H", "10C JC QD"])
def test_cards_out_of_the_sequence_order_are_no_sequence(engine: Engine, cards_text: str) -> None:
    assert declared(engine, f"{cards_text} 7S 9S JS KD 7D", trump="C") == []


def test_a_card_is_never_in_two_declarations(engine: Engine) -> None:
    # The jack of hearts could make a carré or complete 10-J-Q-K of hearts, not both.
    decls = declared(engine, "JC JD JH JS 10H QH KH 7C", trump="S")
    assert kinds(decls) == [("carré", 200)]
    used = 0
    for d in decls:
        assert not used & d.cards
        used |= d.cards


def test_each_hand_declares_its_best_combination_of_carres_and_sequences(
    engine: Engine,
) -> None:
    # Queens carré (100) + 9-10-J of hearts (20) = 120 beats the quinte 9..K (100).
    decls = declared(engine, "9H 10H JH QH KH QC QD QS", trump="S")
    assert kinds(decls) == [("carré", 100), ("tierce", 20)]
    assert texts(next(d.cards for d in decls if d.kind == "tierce")) == {"9H", "10H", "JH"}


def test_two_sequences_in_one_hand_are_both_declared(engine: Engine) -> None:
    decls = declared(engine, "7C 8C 9C JD QD KD AD 9S", trump="H")
    assert kinds(decls) == [("quarte", 50), ("tierce", 20)]


# --- belote-rebelote -------------------------------------------------------------------------


def test_trump_king_and_queen_in_one_hand_make_belote_rebelote_worth_20(engine: Engine) -> None:
    decls = declared(engine, "KH QH 7C 9C JD 8S 10S AD", trump="H")
    assert kinds(decls) == [("belote", 20)]
    assert decls[0].cards == cards("KH QH")


def test_king_and_queen_of_a_plain_suit_are_no_belote(engine: Engine) -> None:
    assert declared(engine, "KH QH 7C 9C JD 8S 10S AD", trump="S") == []


def test_trump_king_and_queen_in_different_hands_are_no_belote(engine: Engine) -> None:
    deal = position(engine, ["KH 7C", "QH 8C", "", ""], trump="H", leader=0)
    answers = engine.call("atout_declarations", game=GAME, rules=deal.state.rules, state=deal.state)
    assert [d for a in answers for d in a or ()] == []


def test_belote_cards_may_also_be_in_a_sequence(engine: Engine) -> None:
    decls = declared(engine, "JH QH KH 7C 9C JD 8S AD", trump="H")
    assert kinds(decls) == [("belote", 20), ("tierce", 20)]


# --- which team scores -----------------------------------------------------------------------


def test_only_the_team_with_the_best_declaration_scores_all_of_its_declarations(
    engine: Engine,
) -> None:
    # Team 0: quarte (seat 0) and a low tierce (seat 2); team 1: a tierce to the ace,
    # better than seat 2's but worse than the quarte.  Team 0 scores 50 + 20.
    deal = scored(engine, ["7C 8C 9C 10C", "QS KS AS", "7D 8D 9D", ""])
    assert found(deal) == [(0, "quarte", 50), (1, "tierce", 20), (2, "tierce", 20)]
    assert deal.score is not None
    assert deal.score.declaration_points == (70, 0)


def test_a_carre_beats_any_sequence(engine: Engine) -> None:
    # Team 1 holds a quinte and a tierce (120); team 0's carré of queens (100) is best.
    deal = scored(engine, ["", "7D 8D 9D 10D JD", "QC QD QH QS", "7S 8S 9S"])
    assert found(deal) == [(1, "quinte", 100), (2, "carré", 100), (3, "tierce", 20)]
    assert deal.score is not None
    assert deal.score.declaration_points == (100, 0)


def test_a_longer_sequence_beats_a_shorter_one_with_a_higher_top(engine: Engine) -> None:
    deal = scored(engine, ["QS KS AS", "7C 8C 9C 10C", "", ""])
    assert found(deal) == [(0, "tierce", 20), (1, "quarte", 50)]
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 50)


def test_sequences_of_equal_length_the_higher_top_card_wins(engine: Engine) -> None:
    # Seat 0 is first in rotation, but seat 1's tierce to the king beats the queen.
    deal = scored(engine, ["10C JC QC", "JD QD KD", "", ""])
    assert found(deal) == [(0, "tierce", 20), (1, "tierce", 20)]
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 20)


def test_equal_sequences_the_trump_sequence_wins(engine: Engine) -> None:
    # Equal tierces to the king; seat 0 is earlier in rotation, seat 1's is in trumps
    # (and is also belote-rebelote: 20 + 20 for team 1).
    deal = scored(engine, ["JC QC KC", "JH QH KH", "", ""], trump="H")
    assert found(deal) == [(0, "tierce", 20), (1, "belote", 20), (1, "tierce", 20)]
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 40)


@pytest.mark.parametrize(("dealer", "winner_team"), [(3, 1), (0, 1), (1, 0), (2, 1)])
def test_equal_sequences_neither_in_trumps_the_earliest_in_rotation_wins(
    engine: Engine, dealer: int, winner_team: int
) -> None:
    # Seat 1 and seat 2 hold equal tierces to the king; who is earlier in rotation
    # (after the dealer) depends on the dealer, not on the seat number.
    deal = scored(engine, ["", "JC QC KC", "JD QD KD", ""], trump="S", dealer=dealer)
    assert found(deal) == [(1, "tierce", 20), (2, "tierce", 20)]
    assert deal.score is not None
    expected = [0, 0]
    expected[winner_team] = 20
    assert deal.score.declaration_points == tuple(expected)


def test_a_higher_carre_value_wins_nines_over_aces(engine: Engine) -> None:
    deal = scored(engine, ["AC AD AH AS", "9C 9D 9H 9S", "", ""], trump="D")
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 150)


def test_carres_of_equal_value_compare_in_the_order_a_10_k_q(engine: Engine) -> None:
    # A decision where the rule texts are silent (docs/rules.md, "Decisions"): equal-valued carrés rank A, 10, K, Q
    # (their trump order); the ace carré of seat 1 beats seat 0's kings.
    deal = scored(engine, ["KC KD KH KS", "AC AD AH AS", "", ""], trump="D")
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 100)
    deal = scored(engine, ["QC QD QH QS", "10C 10D 10H 10S", "", ""], trump="D")
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 100)


def test_belote_rebelote_scores_for_its_team_whatever_else_is_declared(engine: Engine) -> None:
    # Team 1 has the best declaration (a quarte); team 0's belote still scores its 20.
    deal = scored(engine, ["KH QH", "7C 8C 9C 10C", "7D 8D 9D", ""], trump="H")
    assert deal.score is not None
    assert deal.score.declaration_points == (20, 50)


# --- announcements ---------------------------------------------------------------------------


def test_declarations_are_announced_when_the_seat_plays_its_first_card(engine: Engine) -> None:
    deal = deal_with_hands(engine, complete_hands(["", "7C 8C 9C", "", ""], "H"), "H")
    assert deal.view(0).announcements == ()
    deal.play(cards_of(deal.legal_cards())[0])
    assert deal.turn == 1
    assert deal.view(0).announcements == (), "nothing is shown before seat 1 plays"
    assert deal.view(0).shown[1] == 0
    deal.play(cards_of(deal.legal_cards())[0])
    view = deal.view(0)
    assert [(a.seat, a.text) for a in view.announcements] == [(1, "tierce to the 9 of clubs")]
    still_held = cards("7C 8C 9C") & deal.state.hands[1]
    assert view.shown[1] == still_held, "the others see the declared cards still held"


CAPOT_WITH_BELOTE = [
    "JH 10H QH 7H",
    "9H AH KH 8H",
    "AS KS JS 8S",
    "10S QS 9S 7S",
    "AC KC JC 8C",
    "10C QC 9C 7C",
    "AD KD JD 8D",
    "10D QD 9D 7D",
]


def test_belote_is_said_on_the_first_card_played_and_rebelote_on_the_second(
    engine: Engine,
) -> None:
    # Seat 2 holds the king and queen of hearts (trump): queen in trick 1, king in trick 2.
    record = deal_record(engine, CAPOT_WITH_BELOTE, trump="H")
    actions = record["actions"]
    said = []
    for n in range(len(actions) + 1):
        deal = deal_from_record(engine, {**record, "actions": actions[:n]})
        said.append([(a.seat, a.text) for a in deal.view(1).announcements])
    queen = next(i for i, a in enumerate(actions) if a["play"] == "QH") + 1
    king = next(i for i, a in enumerate(actions) if a["play"] == "KH") + 1
    assert said[queen - 1] == []
    assert said[queen] == [(2, "belote")]
    assert said[king - 1] == [(2, "belote")]
    assert said[king] == [(2, "belote"), (2, "rebelote")]
    assert said[-1] == said[king]
