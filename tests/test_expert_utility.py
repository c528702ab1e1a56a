"""The score the experts play for is the score the game gives.

The experts and the review value a card by the deal's score difference it leads to
(:func:`deal_utility` for four players, :func:`score_utility` for Découverte, both from
:func:`deal_outcome`), computed from card points and the declarations known.  These
tests hold that value equal to the game's own scoring (``atout_score_deal``) on whole
deals: the hand-written deals of the scoring tests under every scoring option that
changes a deal's result, and thousands of seeded random deals of both games.  A sampled
layout's hidden belote-rebelote counts for the team that holds it
(:func:`layout_declarations`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from atout.core import Deal
from atout.core import Engine
from atout.plugins.bots.basic import team_of
from atout.plugins.bots.belote_expert import deal_outcome
from atout.plugins.bots.belote_expert import deal_utility
from atout.plugins.bots.decouverte_expert import DecouverteExpert
from atout.plugins.bots.decouverte_expert import known_declarations
from atout.plugins.search.declared import belote_points
from atout.plugins.search.declared import belote_said
from atout.plugins.search.declared import declaration_points
from atout.plugins.search.declared import layout_declarations
from atout.plugins.search.declared import unseen_belote
from atout.plugins.search.decouverte import score_utility
from atout.plugins.search.rules import DealPoints
from atout.testing.kit import play_random_deal
from helpers import GAME
from helpers import cards
from helpers import play_out
from helpers import position
from helpers import shipped_engine
from test_belote_scoring import CAPOT
from test_belote_scoring import CAPOT_TEAM0_TIERCE
from test_belote_scoring import MADE
from test_belote_scoring import MADE_BELOTE
from test_belote_scoring import QUARTE
from test_belote_scoring import TIE
from test_belote_scoring import TIERCE

DEAL_POINTS = 162

# Every option of the scoring that changes who scores what in one deal (ties held over
# are valued at nothing now, and are left out: their points wait for the next deal).
SCORINGS: list[dict[str, Any]] = [
    {},
    {"dedans_belote": "to-opponents"},
    {"capot_keeps_declarations": True},
    {"contract_counts_declarations": False},
    {"capot_bonus": 0},
    {"declarations": "belote-only"},
    {"declarations": "none"},
]


@pytest.fixture(scope="module")
def engine() -> Engine:
    return shipped_engine()


def assert_utility_is_the_score(deal: Deal, where: str) -> int:
    """For each seat, the utility of its team's card points is the deal's score
    difference; the number of seats checked (none when the deal was passed out, its tie
    is held over, or a team took every card point but not every trick: the solver counts
    points, not tricks, so the utility takes all the points for a capot)."""
    if deal.state.contract is None:
        return 0
    score = deal.score
    assert score is not None
    if score.made is None:
        return 0
    points = deal.state.team_points()
    if DEAL_POINTS in points and score.capot is None:
        return 0
    for seat in range(4):
        view = deal.view(seat)
        team = team_of(view, seat)
        decl = declaration_points(view)
        belote = belote_points(view)
        want = score.score[team] - score.score[1 - team]
        end = DealPoints(points[team], decl, DEAL_POINTS, belote)
        got = deal_utility(view, end)
        assert got == want, (
            f"{where}, seat {seat}: the expert values the end at {got}, the game scores "
            f"{want} ({score.outcome}, card points {score.card_points}, "
            f"declarations {score.declaration_points}, counted {decl} with belote {belote})"
        )
        made, _ = deal_outcome(
            view.rules,
            view.game,
            team,
            team_of(view, deal.state.contract.taker),
            end,
        )
        assert made == score.made, where
    return 4


@pytest.mark.parametrize(
    "rules", SCORINGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults"
)
@pytest.mark.parametrize("taker", [0, 1])
@pytest.mark.parametrize(
    "name", ["MADE", "MADE_BELOTE", "TIE", "TIERCE", "QUARTE", "CAPOT", "CAPOT_TEAM0_TIERCE"]
)
def test_the_expert_values_a_written_deal_as_the_game_scores_it(
    engine: Engine, name: str, taker: int, rules: dict[str, Any]
) -> None:
    tricks = {
        "MADE": MADE,
        "MADE_BELOTE": MADE_BELOTE,
        "TIE": TIE,
        "TIERCE": TIERCE,
        "QUARTE": QUARTE,
        "CAPOT": CAPOT,
        "CAPOT_TEAM0_TIERCE": CAPOT_TEAM0_TIERCE,
    }[name]
    deal = play_out(engine, tricks, trump="H", taker=taker, rules=rules)
    assert assert_utility_is_the_score(deal, f"{name}, taker {taker}, {rules}") == 4


def test_the_expert_values_random_deals_as_the_game_scores_them(engine: Engine) -> None:
    checked = 0
    failed_contracts = 0
    belote_dedans = 0
    for n in range(3000):
        rules = engine.make_rules(GAME, SCORINGS[n % len(SCORINGS)])
        deal = engine.new_deal(GAME, rules, n % 4, random.Random(n))
        play_random_deal(deal, seed=n)
        where = f"random deal {n} with {SCORINGS[n % len(SCORINGS)]}"
        if assert_utility_is_the_score(deal, where):
            checked += 1
            score = deal.score
            assert score is not None
            failed_contracts += score.made is False
            takers = deal.state.contract.taker % 2 if deal.state.contract else 0
            belote_dedans += score.made is False and any(
                d.kind == "belote" and d.seat % 2 == takers for d in deal.state.declarations
            )
    # the deals checked cover the cases that differ: failed contracts, a failing
    # taker's belote
    assert checked > 2000
    assert failed_contracts > 300
    assert belote_dedans > 20


def test_a_hidden_belote_counts_for_the_team_of_the_layout_that_holds_it(
    engine: Engine,
) -> None:
    deal = position(
        engine,
        ["JH 7C 8C", "AH 9C 10C", "KH QH AC", "7H 8H KC"],
        trump="H",
        taker=0,
        leader=0,
    )
    view = deal.view(0)
    kq, seats = unseen_belote(view)
    assert kq == cards("KH QH") and set(seats) == {1, 2, 3}
    hands = list(deal.state.hands)
    decl, belote = layout_declarations(view, hands, [0, 0], [0, 0])
    assert (decl, belote) == ([20, 0], [20, 0]), "the partner (seat 2) holds K-Q of trumps"
    hands[1], hands[2] = hands[2], hands[1]
    assert layout_declarations(view, hands, [0, 0], [0, 0]) == ([0, 20], [0, 20])
    # the seat holding the king sees no hidden belote; nor does anyone once it is said
    assert unseen_belote(deal.view(2)) == (0, ())
    none = engine.make_rules(GAME, {"declarations": "none"})
    quiet = position(engine, ["JH", "AH", "KH QH", "7H"], trump="H", rules=dict(none))
    assert unseen_belote(quiet.view(0)) == (0, ())


# Découverte: the default scoring, the shipped packs' belote-rebelote and capot bonus,
# and declarations.
DECOUVERTE_SCORINGS: list[dict[str, Any]] = [
    {},
    {"belote_rebelote": True},
    {"belote_rebelote": True, "capot_bonus": 50},
    {"declarations": "on", "belote_rebelote": True},
    {"declarations": "on", "capot_bonus": 50},
]


def test_the_decouverte_expert_values_random_deals_as_the_game_scores_them(
    engine: Engine,
) -> None:
    checked = failed = with_belote = 0
    for n in range(1500):
        options = DECOUVERTE_SCORINGS[n % len(DECOUVERTE_SCORINGS)]
        rules = engine.make_rules("decouverte", options)
        deal = engine.new_deal("decouverte", rules, n % 2, random.Random(n))
        play_random_deal(deal, seed=n)
        contract = deal.state.contract
        if contract is None:
            continue
        score = deal.score
        assert score is not None
        taker = contract.taker
        points = deal.state.points[taker]
        total = sum(deal.state.points)
        if total in deal.state.points and score.capot is None:
            continue  # every card point but not every trick: the utility sees a capot
        for seat in (0, 1):
            view = deal.view(seat)
            known = known_declarations(view)
            got = score_utility(total, rules, *known)[points]
            want = score.score[taker] - score.score[1 - taker]
            assert got == want, (
                f"Découverte deal {n} with {options}, seat {seat}: the expert values the "
                f"end at {got}, the game scores {want} ({score.outcome}, card points "
                f"{score.card_points}, declarations {score.declaration_points}, known {known})"
            )
        checked += 1
        failed += score.made is False
        with_belote += any(known_declarations(deal.view(0))[1])
    assert checked > 1000
    assert failed > 100
    assert with_belote > 50


def test_the_decouverte_default_scoring_is_the_plain_table(engine: Engine) -> None:
    rules = engine.default_rules("decouverte")
    for total in (162, 130):
        assert score_utility(total, rules) == score_utility(total)
    assert score_utility(162)[81] == -162 and score_utility(162)[82] == 2


def test_the_decouverte_expert_plays_for_the_packs_scoring(engine: Engine) -> None:
    """A capot bonus and a belote said move the values the expert searches."""
    bot = DecouverteExpert(engine=engine)
    exoty = engine.make_rules("decouverte", {"capot_bonus": 50, "belote_rebelote": True})
    plain = bot.utility(162)
    with_capot = bot.utility(162, exoty)
    assert with_capot[162] == plain[162] + 50 and with_capot[0] == plain[0] - 50
    assert with_capot[1:162] == plain[1:162]
    # the opponent said belote: the taker needs 92 (162 + 20 = 182, more than half)
    said = bot.utility(162, exoty, ((0, 20), (0, 20)))
    assert said[91] < 0 < said[92]
    assert said[100] == 100 - (62 + 20)


def test_a_decouverte_belote_counts_once_both_cards_are_known_to_be_one_players(
    engine: Engine,
) -> None:
    """Before it is said, a belote-rebelote counts from the moment both the trump king and
    queen are known to be one player's (face up among his cards, or played by him): he
    plays both, so the game scores it for him.  Whatever the expert counts at any point of
    a deal is what the game scores at its end."""
    rules = engine.make_rules("decouverte", {"belote_rebelote": True})
    early = unsaid_later = 0
    for n in range(600):
        deal = engine.new_deal("decouverte", rules, n % 2, random.Random(n))
        rng = random.Random(n)
        counted: list[set[int]] = []
        while not deal.is_over:
            if deal.phase == "play":
                view = deal.view(deal.turn)
                _, belote = known_declarations(view)
                said = any(belote_said(view))
                taker = view.contract.taker if view.contract else 0
                seats = {taker if i == 0 else 1 - taker for i, p in enumerate(belote) if p}
                counted.append(seats)
                early += bool(seats) and not said
            actions = [a for a in deal.legal_actions() if a.kind != "claim"]
            deal.apply(rng.choice(actions))
        if not counted:
            continue  # both passed twice: a redeal
        score = deal.score
        assert score is not None
        final = counted[-1]
        for seats in counted:
            assert seats <= final, f"deal {n}: counted {seats}, the deal ends with {final}"
        for seat in final:
            assert score.declaration_points[seat] >= 20, (
                f"deal {n}: belote counted for seat {seat}, the game scores "
                f"{score.declaration_points}"
            )
        unsaid_later += any(not s for s in counted) and bool(final)
    assert early > 50  # counted before a word was said
    assert unsaid_later > 10  # and not before both cards were known
