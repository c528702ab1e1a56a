"""docs/rules.md, "Scoring a deal" and "Match" for four players.

Each deal below is written trick by trick (cards in play order; the dealer is seat 3, so
seat 0 leads the first trick and each trick's winner leads the next).  ``play_out``
derives the hands from the tricks, finds the declarations, checks every card against the
play rules and scores the deal.  Trump is hearts throughout: J 20, 9 14, A 11, 10 10,
K 4, Q 3; a plain suit is worth 30 (A 11, 10 10, K 4, Q 3, J 2).  Team 0 is seats 0
and 2, team 1 seats 1 and 3.
"""

from __future__ import annotations

import random

import pytest
from atout.core import DealScore
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core import Match
from helpers import GAME
from helpers import play_out
from helpers import random_choice
from helpers import shipped_engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


# Team 0 takes the trumps (62), the clubs and diamonds (60) and the last trick's 10;
# seat 1 takes the spades (30): 132 against 30.
MADE = [
    "JH 7H 8H 10H",  # seat 0 wins 30
    "9H AH KH QH",  # seat 0 wins 32
    "7S AS 8S 9S",  # seat 1 wins 11
    "10S KS QS JS",  # seat 1 wins 19
    "7C AC 8C 9C",  # seat 2 wins 11
    "10C KC QC JC",  # seat 2 wins 19
    "7D 8D AD 9D",  # seat 0 wins 11
    "10D KD QD JD",  # seat 0 wins 19 + 10
]

# The same deal with the king and queen of trumps in seat 1's hand (belote-rebelote).
MADE_BELOTE = [
    "JH KH 8H 10H",
    "9H QH 7H AH",
    *MADE[2:],
]

# 81 points each: team 0 takes the trumps (62) and 10-K-Q-J of spades (19); team 1 the
# rest (71) and the last trick (10).
TIE = [
    "JH 7H 8H 10H",  # seat 0, 30
    "9H AH KH QH",  # seat 0, 32
    "7S AS 8S 9S",  # seat 1, 11
    "JS 10S KS QS",  # seat 2, 19
    "7C AC 8C 9C",  # seat 3, 11
    "10C KC QC JC",  # seat 3, 19
    "AD 7D 8D 9D",  # seat 3, 11
    "10D KD QD JD",  # seat 3, 19 + 10
]

# Seat 1 holds 9-10-J of clubs (a tierce, 20).  Team 0 takes 92, team 1 70.
TIERCE = [
    "JH 7H 8H 10H",  # seat 0, 30
    "9H AH KH QH",  # seat 0, 32
    "AS 7S 8S 9S",  # seat 0, 11
    "10S JS KS QS",  # seat 0, 19
    "7C 9C 8C AC",  # seat 3, 11
    "AD 7D 8D 9D",  # seat 3, 11
    "10D KD 10C QD",  # seat 3, 27 (seat 1 has no diamond and no trump left)
    "JD KC JC QC",  # seat 3, 11 + 10
]

# Seat 1 holds 9-10-J-Q of clubs (a quarte, 50).  Team 0 takes 92, team 1 70.
QUARTE = [
    *TIERCE[:5],
    "AD 7D 10C QD",  # seat 3, 24
    "10D KD JC 9D",  # seat 3, 16
    "JD KC QC 8D",  # seat 3, 9 + 10
]

# Team 0 takes all eight tricks.  Team 1 holds belote-rebelote (seat 1: K and Q of
# hearts) and the best declaration, 7-8-9 of diamonds (seat 3).
CAPOT = [
    "JH KH 7H 8H",
    "9H QH 10H AH",
    "AS 7S 8S 9S",
    "10S JS KS QS",
    "AC 7C 8C 9C",
    "10C JC KC 7D",
    "AD JD QD 8D",
    "10D KD QC 9D",
]

# The same capot, but seat 2 (team 0) holds J-Q-K of clubs, better than 7-8-9 of diamonds.
CAPOT_TEAM0_TIERCE = [
    *CAPOT[:4],
    "AC 7C JC 9C",
    "10C 8C KC 7D",
    *CAPOT[6:],
]


def score(engine: Engine, tricks: list[str], taker: int, **rules: object) -> DealScore:
    deal = play_out(engine, tricks, trump="H", taker=taker, rules=rules)
    assert deal.score is not None
    return deal.score


def declared(engine: Engine, tricks: list[str]) -> list[tuple[int, str, int]]:
    deal = play_out(engine, tricks, trump="H", taker=0)
    return sorted((d.seat, d.kind, d.points) for d in deal.state.declarations)


# --- card points -----------------------------------------------------------------------------


def test_the_last_trick_adds_10_dix_de_der(engine: Engine) -> None:
    deal = play_out(engine, MADE, trump="H", taker=0)
    tricks = deal.state.tricks
    assert [t.points for t in tricks] == [30, 32, 11, 19, 11, 19, 11, 19 + 10]
    assert sum(t.points for t in tricks) == 162


def test_the_deals_written_here_declare_what_their_comments_say(engine: Engine) -> None:
    assert declared(engine, MADE) == []
    assert declared(engine, TIE) == []
    assert declared(engine, MADE_BELOTE) == [(1, "belote", 20)]
    assert declared(engine, TIERCE) == [(1, "tierce", 20)]
    assert declared(engine, QUARTE) == [(1, "quarte", 50)]
    assert declared(engine, CAPOT) == [(1, "belote", 20), (3, "tierce", 20)]
    assert declared(engine, CAPOT_TEAM0_TIERCE) == [
        (1, "belote", 20),
        (2, "tierce", 20),
        (3, "tierce", 20),
    ]


# --- made ------------------------------------------------------------------------------------


def test_takers_with_more_points_make_it_and_both_teams_score_what_they_took(
    engine: Engine,
) -> None:
    result = score(engine, MADE, taker=0)
    assert (result.outcome, result.made) == ("made", True)
    assert result.card_points == (132, 30)
    assert result.score == (132, 30)


@pytest.mark.parametrize("taker", [0, 1, 2, 3])
def test_takers_with_as_many_points_as_the_other_team_make_it(engine: Engine, taker: int) -> None:
    result = score(engine, TIE, taker=taker)
    assert result.card_points == (81, 81)
    assert (result.outcome, result.made) == ("made", True)
    assert result.score == (81, 81)


def test_a_made_deal_scores_each_teams_declarations_with_its_points(engine: Engine) -> None:
    # Team 0 takes with 92 against team 1's 70 + tierce 20 = 90.
    result = score(engine, TIERCE, taker=0)
    assert result.made is True
    assert result.score == (92, 90)


def test_declarations_count_towards_making_the_contract(engine: Engine) -> None:
    # Team 1 takes 70 card points against 92, but its quarte (50) makes 120 > 92.
    result = score(engine, QUARTE, taker=1)
    assert result.card_points == (92, 70)
    assert (result.outcome, result.made) == ("made", True)
    assert result.score == (92, 120)


def test_with_the_card_points_only_option_the_declarations_do_not_make_the_contract(
    engine: Engine,
) -> None:
    result = score(engine, QUARTE, taker=1, contract_counts_declarations=False)
    assert (result.outcome, result.made) == ("dedans", False)


# --- dedans ----------------------------------------------------------------------------------


def test_dedans_the_opponents_score_162_and_the_takers_nothing(engine: Engine) -> None:
    result = score(engine, MADE, taker=1)
    assert (result.outcome, result.made) == ("dedans", False)
    assert result.score == (162, 0)


def test_dedans_the_opponents_also_score_the_takers_declarations(engine: Engine) -> None:
    # Team 1 takes and holds the tierce: 70 + 20 = 90 < 92.  Team 0 scores 162 + 20.
    result = score(engine, TIERCE, taker=1)
    assert (result.outcome, result.made) == ("dedans", False)
    assert result.score == (162 + 20, 0)


def test_dedans_the_opponents_score_162_plus_their_own_declarations(engine: Engine) -> None:
    # Team 0 takes: 92 against team 1's 70 + quarte 50 = 120.  Team 1 scores 162 + 50.
    result = score(engine, QUARTE, taker=0)
    assert (result.outcome, result.made) == ("dedans", False)
    assert result.score == (0, 162 + 50)


def test_dedans_belote_rebelote_stays_with_the_takers(engine: Engine) -> None:
    # Team 1 takes with 30 + belote 20 against 132: dedans, but keeps its belote.
    result = score(engine, MADE_BELOTE, taker=1)
    assert (result.outcome, result.made) == ("dedans", False)
    assert result.score == (162, 20)


def test_dedans_belote_rebelote_goes_to_the_opponents_when_the_pack_says_so(
    engine: Engine,
) -> None:
    result = score(engine, MADE_BELOTE, taker=1, dedans_belote="to-opponents")
    assert result.score == (162 + 20, 0)


def test_belote_rebelote_counts_for_the_defenders_in_a_made_deal(engine: Engine) -> None:
    result = score(engine, MADE_BELOTE, taker=0)
    assert result.made is True
    assert result.score == (132, 30 + 20)


# --- capot -----------------------------------------------------------------------------------


def test_capot_the_takers_score_252_and_the_defenders_lose_declarations_but_not_belote(
    engine: Engine,
) -> None:
    result = score(engine, CAPOT, taker=0)
    assert (result.outcome, result.capot, result.made) == ("capot", 0, True)
    assert result.card_points == (252, 0)
    assert result.score == (252, 20), "team 1 loses its tierce, keeps its belote"


def test_capot_the_winning_team_scores_252_plus_its_declarations(engine: Engine) -> None:
    result = score(engine, CAPOT_TEAM0_TIERCE, taker=0)
    assert result.capot == 0
    assert result.score == (252 + 20, 20)


def test_takers_capot_the_opponents_score_252_plus_the_declarations_of_both_teams(
    engine: Engine,
) -> None:
    # Team 1 takes, wins no trick; its tierce goes to team 0, its belote stays.
    result = score(engine, CAPOT, taker=1)
    assert (result.outcome, result.capot, result.made) == ("capot", 0, False)
    assert result.score == (252 + 20, 20)


def test_the_capot_bonus_replaces_the_dix_de_der(engine: Engine) -> None:
    deal = play_out(engine, CAPOT, trump="H", taker=0)
    assert sum(t.points for t in deal.state.tricks) == 162
    assert deal.score is not None and deal.score.card_points[0] == 162 + 90 == 252


# --- match -----------------------------------------------------------------------------------


def match_over(engine: Engine, scores: tuple[int, int], **rules: object):
    return engine.call(
        "atout_match_over",
        game=GAME,
        rules=engine.make_rules(GAME, rules),
        scores=scores,
        history=[DealScore((81, 81), (0, 0), (81, 81), "made")],
    )


def test_the_match_goes_on_below_1000(engine: Engine) -> None:
    assert match_over(engine, (999, 998)) is None


@pytest.mark.parametrize(("scores", "winner"), [((1000, 400), 0), ((700, 1012), 1)])
def test_the_first_team_to_reach_1000_wins(
    engine: Engine, scores: tuple[int, int], winner: int
) -> None:
    result = match_over(engine, scores)
    assert result is not None and result.winner == winner


def test_both_teams_reaching_1000_on_the_same_deal_is_a_draw(engine: Engine) -> None:
    result = match_over(engine, (1000, 1150))
    assert result is not None and result.winner is None
    assert "drawn" in result.reason


def test_both_past_the_target_with_play_on_the_higher_total_wins(engine: Engine) -> None:
    result = match_over(engine, (1000, 1150), both_past_target="play-on")
    assert result is not None and result.winner == 1


def test_a_match_ends_when_a_team_reaches_the_target_and_no_deal_follows(
    engine: Engine,
) -> None:
    rules = engine.make_rules(GAME, {"target": 200})
    match = Match(engine, GAME, rules, seed=5)
    rng = random.Random(5)
    while match.result is None:
        match.play_deal(random_choice(rng))
    reached = [t for t, s in enumerate(match.scores) if s >= 200]
    before = [s - d for s, d in zip(match.scores, match.history[-1].score, strict=True)]
    assert reached and max(before) < 200, "the match ended on the first deal reaching 200"
    assert match.result.winner == (reached[0] if len(reached) == 1 else None)
    with pytest.raises(IllegalMoveError, match="the match is over"):
        match.next_deal()
