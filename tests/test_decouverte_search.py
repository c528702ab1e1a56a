"""The Découverte search: the lean state against the engine, the move generator against
BeloteMoves, both solvers against brute force, and the expert bot on real views.

Every loop is seeded; the brute-force references are written here, plainly: minimax over
every legal card, and at each turn of a face-down card the average over every card of
the pool.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Sequence
from typing import Any

import pytest
from atout.core import Engine
from atout.core.cards import cards_of
from atout.core.cards import parse_card
from atout.core.cards import parse_cards
from atout.core.model import Contract
from atout.core.model import Layout
from atout.core.model import Rules
from atout.core.state import PLAY
from atout.core.state import DealState
from atout.core.views import View
from atout.plugins.bots import decouverte_expert as de
from atout.plugins.bots.decouverte_expert import DecouverteExpert
from atout.plugins.bots.decouverte_expert import bid_options
from atout.plugins.bots.decouverte_expert import estimate_contracts
from atout.plugins.bots.decouverte_expert import position_from_view
from atout.plugins.common import BeloteMoves
from atout.plugins.search import decouverte as ds
from atout.plugins.search.decouverte import sampling

GAME = "decouverte"


# --- references -----------------------------------------------------------------------------


def brute_force(pos: ds.Position, utility: Sequence[float] | None = None) -> float:
    """The taker's expected final utility (default: card points) by plain expectiminimax:
    every legal card, every draw of the pool, no pruning, no table."""
    if pos.led is None and not pos.remaining:
        x = pos.points[pos.taker]
        return float(x) if utility is None else utility[x]
    mover = ds.to_move(pos)
    values = [
        sum(p * brute_force(q, utility) for p, q in ds.successors(pos, c))
        for c in cards_of(ds.legal_cards(pos))
    ]
    return max(values) if mover == pos.taker else min(values)


def endgame(rng: random.Random, tricks: int, **options: bool) -> ds.Position:
    """A random fully known position with ``tricks`` tricks left (between tricks or, one
    time in three, after the lead)."""
    trump = rng.choice([0, 1, 2, 3, 0, 1, 2, 3, None])
    start = ds.deal(rng, trump=trump, **options)
    return ds.random_play(start, rng, 2 * (ds.TRICKS - tricks) + (rng.random() < 1 / 3))


def belote_state(pos: ds.Position) -> DealState:
    """The engine's state of a lean position, for BeloteMoves."""
    state = DealState(GAME, Rules(GAME, {}), 2, 2, 1 - pos.leader, Layout(hands=pos.hands))
    state.phase = PLAY
    state.contract = pos.rules.contract
    state.leader = pos.leader
    state.turn = ds.to_move(pos)
    if pos.led is not None:
        state.trick = [pos.led]
        state.win_card = pos.led
        state.win_seat = pos.leader
    return state


def random_bids(deal, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    while deal.phase == "bidding":
        deal.apply(rng.choice(deal.legal_actions()))


def lean_start(engine: Engine, state: DealState) -> ds.Position:
    """The lean, fully known position of an engine deal whose play just started."""
    assert state.contract is not None
    under = tuple(
        (up, down)
        for row in state.layout.piles
        for up, down in row
        if up is not None and down is not None
    )
    return ds.Position(
        rules=ds.DealRules.of(engine, state.rules, state.contract),
        taker=state.contract.taker,
        leader=state.leader,
        hands=(state.hands[0], state.hands[1]),
        under=under,
    )


# --- the lean state and the move generator ---------------------------------------------------


def test_follow_matches_belote_moves_on_random_positions() -> None:
    rng = random.Random(5)
    checked = 0
    for i in range(3000):
        head = i % 3 == 0
        pos = ds.random_play(
            ds.deal(rng, trump=rng.choice([0, 1, 2, 3, None]), must_head_trick=head),
            rng,
            rng.randrange(31),
        )
        rule = BeloteMoves(pos.trump, must_head_trick=head)
        assert ds.legal_cards(pos) == rule.legal(belote_state(pos)), pos.describe()
        checked += pos.led is not None
    assert checked > 1000  # answers, not only leads, were compared


@pytest.mark.parametrize("reveal", [False, True])
def test_lean_state_and_views_follow_the_engine(engine: Engine, reveal: bool) -> None:
    """Random deals through the engine: after every card the lean position has the
    engine's hands, points and legal cards, and the position read from the view of the
    seat to play is the lean position with its face-down cards unknown."""
    rng = random.Random(11)
    rules = engine.make_rules(GAME, {"reveal_on_lead": reveal})
    match_rng = random.Random(3)
    played = 0
    while played < 6:
        deal = engine.new_deal(GAME, rules, match_rng.randrange(2), match_rng)
        random_bids(deal, rng)
        if deal.is_over:
            continue
        played += 1
        state = deal.state
        pos = lean_start(engine, state)
        while not deal.is_over:
            assert pos.hands == tuple(state.hands)
            assert ds.legal_cards(pos) == deal.legal_cards()
            seen = position_from_view(deal.view(state.turn), engine)
            assert seen == ds.hide(pos), (seen.describe(), ds.hide(pos).describe())
            card = rng.choice(cards_of(deal.legal_cards()))
            deal.play(card)
            pos = ds.play_known(pos, card)
            won = [0, 0]
            for t in state.tricks:
                won[t.winner] += t.points
            assert pos.points == tuple(won)
        assert sum(pos.points) == 162


def test_merge_keeps_one_card_of_each_equivalent_group() -> None:
    t = ds.tables_for(ds.deal_rules(2))  # hearts trump: spades are plain
    rem = parse_cards("7S 8S 9S JS QS AH")
    # 7S 8S 9S: adjacent, no points: one is enough.  JS (2) and QS (3) differ in points.
    kept = t.merge(parse_cards("7S 8S 9S JS QS"), ~0, rem)
    assert kept == parse_cards("7S JS QS")
    # A card of the suit still in play between them keeps both.
    kept = t.merge(parse_cards("7S 9S"), ~0, parse_cards("7S 8S 9S"))
    assert kept == parse_cards("7S 9S")
    # A card covering a face-down card turns something different: never merged.
    kept = t.merge(parse_cards("7S 8S"), ~parse_cards("8S"), parse_cards("7S 8S"))
    assert kept == parse_cards("7S 8S")
    # Trump 7 and 8 are adjacent with no points: merged; the trump queen is not.
    kept = t.merge(parse_cards("7H 8H QH"), ~0, parse_cards("7H 8H QH KH"))
    assert kept == parse_cards("7H QH")


# --- the exact solver of known layouts --------------------------------------------------------


def test_known_solver_equals_brute_force_on_small_endgames() -> None:
    rng = random.Random(21)
    for i in range(2500):
        pos = endgame(rng, 2 + i % 2, must_head_trick=i % 7 == 0)
        assert ds.solve_known(pos) == brute_force(pos), pos.describe()


def test_known_solver_equals_brute_force_with_four_tricks_left() -> None:
    rng = random.Random(22)
    for _ in range(25):
        pos = endgame(rng, 4)
        assert ds.solve_known(pos) == brute_force(pos), pos.describe()


def test_known_solver_threshold_answers_agree_with_the_value() -> None:
    """The null-window searches MTD(f) relies on: "value >= v?" is answered right for
    every v around the value, whatever the table already holds."""
    for pos in ds.known_positions(seed=8, n=4, tricks_left=6):
        t = ds.tables_for(pos.rules)
        solver = ds.KnownSolver(t, dict(pos.under))
        hid = 0
        for _, d in pos.under:
            hid |= 1 << d
        L = pos.leader
        hL, hF, R = pos.hands[L], pos.hands[1 - L], pos.points_left
        value = solver.value(hL, hF, hid, L, R)
        for v in range(max(0, value - 12), value + 13):
            result = solver.search(hL, hF, hid, R, v - 1, v)
            assert (result >= v) == (value >= v)


def test_the_failures_the_score_sheet_does_not_tell_apart() -> None:
    """Below 82 of 162 (66 of 130) every final is a failed contract, worth the same."""
    assert ds.flat_below(ds.score_utility(162)) == 82
    assert ds.flat_below(ds.score_utility(130)) == 66
    assert ds.flat_below(ds.points_utility(162)) == 0


def test_a_flat_range_is_settled_without_the_exact_value() -> None:
    """Asked for final points only down to ``below`` (the score sheet's failures), the
    solver returns the exact points when they reach it and some points below it when
    not, on every side: the taker leading or not, between tricks or after a lead, with
    a fresh solver or one whose table already holds the position."""
    rng = random.Random(23)
    for i in range(240):
        pos = endgame(rng, 3 if i % 12 else 4)
        exact = int(brute_force(pos))
        shared = ds.KnownSolver(ds.tables_for(pos.rules), dict(pos.under))
        if i % 2:
            ds.solve_known(pos, shared)
        for below in (exact - 7, exact - 1, exact, exact + 1, exact + 9):
            for solver in (None, shared):
                got = ds.solve_known(pos, solver, below)
                if exact >= below:
                    assert got == exact, (pos.describe(), below)
                else:
                    assert got < below, (pos.describe(), below)


def test_solve_known_counts_points_so_far_for_the_taker() -> None:
    rng = random.Random(4)
    for _ in range(50):
        pos = endgame(rng, 2)
        total = sum(pos.points) + pos.points_left
        assert total == pos.rules.cards.total == (162 if pos.trump is not None else 130)
        assert (
            pos.points[pos.taker] <= ds.solve_known(pos) <= pos.points[pos.taker] + pos.points_left
        )


# --- the chance-aware solver -------------------------------------------------------------------


@pytest.mark.parametrize("reveal", [False, True])
def test_expectimax_equals_brute_force_expectation(reveal: bool) -> None:
    rng = random.Random(31 + reveal)
    score = ds.score_utility()
    for i in range(350):
        pos = ds.hide(endgame(rng, 2 + i % 3, reveal_on_lead=reveal))
        assert ds.expectimax_value(pos) == pytest.approx(brute_force(pos), abs=1e-9), pos.describe()
        got = ds.expectimax_value(pos, score)
        assert got == pytest.approx(brute_force(pos, score), abs=1e-9), pos.describe()


def test_expectimax_move_values_pick_a_best_move() -> None:
    """The root's choice is a best move of the brute force, for the side to move."""
    rng = random.Random(41)
    for _ in range(120):
        pos = ds.hide(endgame(rng, 3))
        solver = ds.ChanceSolver(ds.tables_for(pos.rules), pos.covers, pos.taker)
        values = solver.move_values(pos)
        best = max(values, key=values.__getitem__)
        mover = ds.to_move(pos)
        sign = 1 if mover == pos.taker else -1
        exact = {
            c: sign * sum(p * brute_force(q) for p, q in ds.successors(pos, c))
            for c in cards_of(ds.legal_cards(pos))
        }
        assert set(values) == set(exact)
        assert exact[best] == pytest.approx(max(exact.values()), abs=1e-9)
        assert values[best] == pytest.approx(max(exact.values()), abs=1e-9)


def test_known_layout_is_a_special_case_of_expectimax() -> None:
    rng = random.Random(51)
    for _ in range(20):
        pos = endgame(rng, 5)
        value = ds.solve_known(pos)
        assert ds.expectimax_value(pos) == value
        # The same layout after every face-down card was turned is solved the same way.
        assert ds.solve_known(pos) == value


def test_the_utility_of_the_score_sheet() -> None:
    score = ds.score_utility()
    assert score[81] == -162  # 81 fails: the opponent scores all 162
    assert score[82] == 2  # 82 makes: 82 - 80
    assert score[162] == 162
    no_trump = ds.score_utility(130)  # without a trump suit the cards are worth 130
    assert no_trump[65] == -130 and no_trump[66] == 2


# --- the benchmark's position sets -------------------------------------------------------------


def test_benchmark_position_sets_are_fixed_and_as_documented() -> None:
    known = ds.known_positions(seed=2024, n=50)
    assert len(known) == 50
    assert known == ds.known_positions(seed=2024, n=50)
    assert all(p.tricks_left == 8 and p.known and p.led is None for p in known)
    chance = ds.chance_positions(seed=2024, n=30)
    assert len(chance) == 30
    assert chance == ds.chance_positions(seed=2024, n=30)
    for p in chance:
        assert p.tricks_left == 7 and p.led is None and not p.under
        assert p.pool.bit_count() == p.covers.bit_count()
        assert p.covers & ~(p.hands[0] | p.hands[1]) == 0
        assert sum(p.points) + p.points_left == 162
    assert any(p.pool for p in chance)


# --- the expert bot ------------------------------------------------------------------------------


def _bot_deal(
    engine: Engine, rules: Rules, seed: int, expert_seat: int, bot: DecouverteExpert
) -> None:
    rng = random.Random(seed)
    deal = engine.new_deal(GAME, rules, seed % 2, rng)
    while not deal.is_over:
        seat = deal.turn
        legal = deal.legal_actions()
        if seat == expert_seat:
            action = bot.choose(deal.view(seat))
            assert action in legal, (action, legal)
            assert "fallback" not in bot.last_info, bot.last_info
        else:
            action = rng.choice(legal)
        deal.apply(action)


@pytest.mark.parametrize("reveal", [False, True])
def test_expert_only_plays_legal_actions(engine: Engine, reveal: bool) -> None:
    rules = engine.make_rules(GAME, {"reveal_on_lead": reveal})
    bot = DecouverteExpert(rules, seed=1, think=0.03, engine=engine)
    for seed in range(3):
        _bot_deal(engine, rules, 100 + seed + 10 * reveal, seed % 2, bot)


def _state_from_pack(pack: list[int], rules: Rules, play: bool) -> DealState:
    from atout.plugins.decouverte import layout_from_pack

    state = DealState(GAME, rules, 2, 2, 1, layout_from_pack(pack, dealer=1))
    if play:
        state.contract = Contract(0, pack[31] >> 3, "x")
        state.phase = PLAY
    return state


def test_expert_decides_from_the_view_alone(engine: Engine) -> None:
    """Two deals that differ only in where two face-down cards lie give the same views;
    the bot (same seed, fixed samples) answers them the same way, and what it reads of
    the hidden cards is only the pool of unseen ones."""
    rules = engine.make_rules(GAME, {})
    rng = random.Random(9)
    for trial in range(3):
        pack = list(range(32))
        rng.shuffle(pack)
        other = list(pack)
        other[0], other[13] = other[13], other[0]  # two face-down cards change places
        for play in (False, True):
            views: list[View] = []
            actions = []
            for p in (pack, other):
                deal = engine.deal_from_state(_state_from_pack(p, rules, play))
                view = deal.view(deal.turn)
                views.append(view)
                bot = DecouverteExpert(rules, seed=trial, samples=3, engine=engine)
                actions.append(bot.choose(view))
            assert views[0] == views[1]
            assert actions[0] == actions[1]
            assert actions[0] in views[0].legal_actions()
            if play:
                seen = position_from_view(views[0], engine)
                face_down = sum(1 << c for c in pack[:16])
                assert seen.pool == face_down
                assert not seen.under


def _bidding_view(engine: Engine, piles: list[list[tuple[str, str]]], bids: int) -> View:
    rules = engine.make_rules(GAME, {})
    rows = tuple(tuple((parse_card(u), parse_card(d)) for u, d in row) for row in piles)
    hands = tuple(sum(1 << u for u, _ in row) for row in rows)
    layout = Layout(hands=hands, piles=rows, turnup=rows[1][7][0], open_hands=True)
    state = DealState(GAME, rules, 2, 2, 1, layout)
    deal = engine.deal_from_state(state)
    for _ in range(bids):
        deal.bid("pass")
    return deal.view(deal.turn)


STRONG = [
    [
        ("JH", "7C"),
        ("9H", "8C"),
        ("AH", "9C"),
        ("10H", "10C"),
        ("KH", "JC"),
        ("QH", "QC"),
        ("AS", "KC"),
        ("AD", "AC"),
    ],
    [
        ("7D", "7S"),
        ("8D", "8S"),
        ("9D", "9S"),
        ("10D", "10S"),
        ("JD", "JS"),
        ("QD", "QS"),
        ("KD", "KS"),
        ("8H", "7H"),
    ],
]


def test_expert_takes_a_strong_layout_and_passes_a_hopeless_one(engine: Engine) -> None:
    # Seat 0 (first to bid) holds the six best hearts face up; hearts are proposed.
    view = _bidding_view(engine, STRONG, 0)
    assert view.seat == 0 and view.legal_bids == ("take", "pass")
    bot = DecouverteExpert(view.rules, seed=1, samples=6, engine=engine)
    assert bot.choose(view).value == "take"
    # Seat 1, after seat 0 passed, must not take hearts against those trumps.
    view = _bidding_view(engine, STRONG, 1)
    assert view.seat == 1
    bot = DecouverteExpert(view.rules, seed=1, samples=6, engine=engine)
    assert bot.choose(view).value == "pass"


def test_contract_estimates_favour_the_holder_of_the_trumps() -> None:
    rows = [[(parse_card(u), parse_card(d)) for u, d in row] for row in STRONG]
    hands = (sum(1 << u for u, _ in rows[0]), sum(1 << u for u, _ in rows[1]))
    base = ds.Position(
        ds.deal_rules(0),
        0,
        0,
        hands,
        covers=hands[0] | hands[1],
        pool=~(hands[0] | hands[1]) & 0xFFFFFFFF,
    )
    values = estimate_contracts(base, ds.score_utility(), random.Random(2), 6)
    assert values[0, 2] > 50 > values[1, 2]


def test_expert_plays_for_the_contract_not_the_points() -> None:
    """Taker with 75 points, three tricks left: leading JD wins more points on average
    (97.5) but makes the contract only half the time; leading 7D (on an unknown card)
    makes it always, with fewer points (90.5).  The bot plays for the contract."""
    pos = ds.Position(
        rules=ds.deal_rules(0, taker=1),
        taker=1,
        leader=1,
        hands=(parse_cards("9D 7H"), parse_cards("7D JD")),
        covers=parse_cards("7H 7D"),
        pool=parse_cards("JC AC"),
        points=(44, 75),
    )
    make = [1.0 if x >= 82 else 0.0 for x in range(163)]

    def value(card: str, utility: Sequence[float] | None) -> float:
        return sum(p * brute_force(q, utility) for p, q in ds.successors(pos, parse_card(card)))

    assert value("JD", None) > value("7D", None)  # the points say JD
    assert value("7D", make) == 1.0 > value("JD", make)  # the contract says 7D
    bot = DecouverteExpert(None, seed=0, samples=4)
    assert bot.best_card(pos) == parse_card("7D")
    assert bot.last_info["method"] == "exact"


def _contracts(mine: float, others: float, theirs: float) -> dict[tuple[int, int | str], float]:
    """Contract values for seat 0: ``mine`` in hearts (suit 2, the proposed suit in these
    tests), ``others`` in its other suits, ``theirs`` for every contract of seat 1."""
    values: dict[tuple[int, int | str], float] = {(1, s): theirs for s in range(4)}
    values.update({(0, s): others for s in range(4)})
    values[0, 2] = mine
    return values


def test_the_bidding_game_takes_a_marginal_contract_only_with_the_edge() -> None:
    """Seat 0 bids first (seat 1 deals); hearts are proposed.  Its heart contract is
    estimated at -10 and every other contract loses: passing leads to a redeal (0), so
    without an edge it passes; with an edge of 20 for its own play, the same contract is
    worth +10 to it and it takes."""
    values = _contracts(-10.0, -50.0, -40.0)
    plain = bid_options(values, ["take", "pass"], 0, 1, 0, 2)
    assert plain == {"take": -10.0, "pass": 0.0}
    edged = bid_options(values, ["take", "pass"], 0, 1, 0, 2, edge=20.0)
    assert edged == {"take": 10.0, "pass": 0.0}


def test_the_edge_makes_the_opponents_contract_worth_less_to_it() -> None:
    """Seat 0 speaks last in round 2 (three passes made): naming a suit other than the
    proposed hearts, or a redeal.  Seat 1's contracts (+15 to it) are past; seat 0's
    clubs, diamonds and spades at -12 are worth +8 with an edge of 20, better than the
    redeal."""
    values = _contracts(-30.0, -12.0, 15.0)
    legal = ["C", "D", "S", "pass"]
    plain = bid_options(values, legal, 0, 0, 3, 2)
    assert plain == {"C": -12.0, "D": -12.0, "S": -12.0, "pass": 0.0}
    edged = bid_options(values, legal, 0, 0, 3, 2, edge=20.0)
    assert edged == {"C": 8.0, "D": 8.0, "S": 8.0, "pass": 0.0}
    # First to speak in round 1 (seat 1 deals): passing lets seat 1 take hearts at +15,
    # so the pass is worth -15 to seat 0 without the edge.  With it, seat 1's hearts are
    # worth -5 to seat 1, still better for it than passing to seat 0's round-2 suits
    # (+8 to seat 0): the pass is worth +5 to seat 0.
    assert bid_options(values, ["take", "pass"], 0, 1, 0, 2)["pass"] == -15.0
    assert bid_options(values, ["take", "pass"], 0, 1, 0, 2, edge=20.0)["pass"] == 5.0


def test_sampling_stops_at_its_cap_even_short_of_its_minimum() -> None:
    """A decision's samples: at least ``min_samples`` once its deadline has passed, but
    only one once its cap has (a loaded machine must not hold a decision far past its
    budget); with neither passed, up to ``max_samples``."""
    rng = random.Random(4)
    start = ds.random_play(ds.deal(rng, trump=1), rng, 2 * 6)
    pos = ds.hide(start)
    assert pos.pool and pos.tricks_left == 10
    moves = list(cards_of(ds.legal_cards(pos)))
    utility = ds.score_utility()

    def count(deadline: float, cap: float) -> int:
        _, n = ds.sampled_values(
            pos, moves, utility, random.Random(1), deadline, 4, 6, solve_at=7, cap=cap
        )
        return n

    assert count(0.0, math.inf) == 4
    assert count(0.0, 0.0) == 1
    assert count(math.inf, math.inf) == 6


def test_survivors_are_the_keys_not_proved_worse_than_the_best() -> None:
    """A key leaves the race when the best key beats it by more than three standard
    errors of their paired differences, or by the same margin on every sample; a key
    within the noise, or equal to the best on every sample, stays."""
    best = [10.0, 12.0, 11.0, 9.0, 10.0, 11.0, 12.0, 10.0]
    values = {
        1: best,
        2: [b - 9 + (i % 3) for i, b in enumerate(best)],  # far worse, little noise
        3: [b + d for b, d in zip(best, [-3, 2, -2, 1, -2, 1, -1, 0], strict=True)],
        4: [b - 5 for b in best],  # worse by 5 on every sample
        5: list(best),  # the same on every sample
    }
    assert ds.survivors(values) == {1, 3, 5}
    # Key 3 is worse by 0.5 a sample, 0.8 standard errors: only a small z drops it.
    assert ds.survivors(values, z=0.5) == {1, 5}


def test_racing_spends_the_later_samples_on_the_moves_in_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With racing, a move or an answer proved worse leaves the race: it meets no later
    sample, and only the moves still in the race are valued; without racing every move
    and every answer meets every sample."""
    rng = random.Random(0)
    pos = ds.hide(ds.random_play(ds.deal(rng), rng, 2 * 6))
    assert pos.led is None and pos.pool
    moves = list(cards_of(ds.legal_cards(pos)))
    real = ds.outcomes
    met: dict[int, list[int]] = {}

    def spy(layout: ds.Position, m: int, *args: Any) -> dict[int, int]:
        out = real(layout, m, *args)
        seen = met.setdefault(m, [0, 0])
        seen[0] += 1
        seen[1] += len(out)
        return out

    monkeypatch.setattr(sampling, "outcomes", spy)
    utility = ds.score_utility()

    def run(racing: bool) -> tuple[dict[int, float], int]:
        met.clear()
        return ds.sampled_values(
            pos, moves, utility, random.Random(1), math.inf, 4, 40, 10, racing=racing
        )

    values, n = run(racing=False)
    assert n == 40 and set(values) == set(moves)
    answers = {m: met[m][1] // n for m in moves}
    assert all(met[m] == [n, n * answers[m]] for m in moves)
    values, n = run(racing=True)
    assert n == 40 and set(values) < set(moves)
    for m in moves:
        samples, replies = met[m]
        if m in values:
            assert samples == n
        else:  # left the race at a multiple of four samples, from the eighth
            assert 8 <= samples < n and samples % 4 == 0
        assert replies <= samples * answers[m]
    # Some answer left the race too: the opponent's worse replies were dropped.
    assert any(met[m][1] < met[m][0] * answers[m] for m in moves)


def test_sampled_layouts_are_solved_after_the_trick_from_ten_tricks_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where a sampled layout's policy playout stops: with 10 tricks left (the seventh
    trick) each layout is solved right after the trick, closer to the exact values than
    the policy playing the next trick first (docs/bots.md); with 11 or more the policy
    plays on until 8 tricks are left."""
    asked: list[int] = []
    real = de.sampled_values

    def spy(*args: Any, **kw: Any) -> Any:
        call = inspect.signature(real).bind(*args, **kw)
        call.apply_defaults()
        asked.extend((call.arguments["pos"].tricks_left, call.arguments["solve_at"]))
        return real(*args, **kw)

    monkeypatch.setattr(de, "sampled_values", spy)
    seen: dict[int, set[int]] = {}
    for seed in range(12):
        rng = random.Random(seed)
        for played in (12, 13, 10, 11, 4):
            pos = ds.hide(ds.random_play(ds.deal(rng), rng, played))
            bot = DecouverteExpert(None, seed=0, samples=2)
            if bot.exact_feasible(pos):
                continue
            asked.clear()
            bot.best_card(pos)
            if asked:
                seen.setdefault(asked[0], set()).add(asked[1])
    assert seen[10] == {10}
    assert seen[11] == {8}
    assert seen[14] == {8}
    old = DecouverteExpert(None, seed=0, samples=2)
    old.solve_after_trick = 9
    rng = random.Random(3)
    pos = ds.hide(ds.random_play(ds.deal(rng), rng, 12))
    assert pos.tricks_left == 10 and not old.exact_feasible(pos)
    asked.clear()
    old.best_card(pos)
    assert asked == [10, 8]


def test_the_best_card_is_chosen_when_a_bound_ties_with_it() -> None:
    """The taker (seat 1) needs 36 more points in the last three tricks; seat 0 leads.
    Leading AD fails the contract whatever the face-down cards (+162 for seat 0),
    leading 7C does not (+79).  The windowed search values 7C with a fail-soft bound,
    which met AD's exact value and, as the lower card, was chosen before: the bound is
    now kept below the best value, and the bot leads AD."""
    pos = ds.Position(
        rules=ds.deal_rules(0, taker=1),
        taker=1,
        leader=0,
        hands=(parse_cards("7C AD"), parse_cards("JH 7S")),
        covers=parse_cards("AD 7S"),
        pool=parse_cards("9C 7H"),
        points=(79, 46),
    )
    utility = ds.score_utility()
    exact = ds.ChanceSolver(ds.tables_for(pos.rules), pos.covers, 1, utility).move_values(
        pos, window=False
    )
    assert exact[parse_card("AD")] == 162.0 > exact[parse_card("7C")]
    windowed = ds.ChanceSolver(ds.tables_for(pos.rules), pos.covers, 1, utility).move_values(pos)
    assert windowed[parse_card("7C")] < windowed[parse_card("AD")] == 162.0
    bot = DecouverteExpert(None, seed=0, samples=4)
    assert bot.best_card(pos) == parse_card("AD")
    assert bot.last_info["method"] == "exact"


def test_the_playout_policy_draws_trumps_then_keeps_the_master_trump() -> None:
    """Hearts are trumps; the leader's jack of hearts and ace of spades are both sure
    winners.  While the follower holds a trump the policy leads the jack (drawing the
    trump saves the ace from being trumped later); once it holds none, the ace, and it
    keeps the master trump even over a card that loses (a sure way back to the lead)."""
    policy = ds.Policy(ds.tables_for(ds.deal_rules(2)))
    leader = parse_cards("JH AS 8C")
    assert policy.lead(leader, parse_cards("7H 7S 9C"), 0) == parse_card("JH")
    assert policy.lead(leader, parse_cards("8D 7S 9C"), 0) == parse_card("AS")
    assert policy.lead(parse_cards("JH 8C"), parse_cards("8D 9C"), 0) == parse_card("8C")
    # A sure trump still comes before a losing trump lead while the follower has trumps.
    assert policy.lead(parse_cards("JH 7H"), parse_cards("8H 9C"), 0) == parse_card("JH")


def _policy_then_solved(pos: ds.Position, policy: ds.Policy, solve_at: int) -> int:
    """The taker's final points of a fully known position between tricks: both play
    ``policy`` card by card until ``solve_at`` tricks are left, then solved exactly."""
    while pos.tricks_left > solve_at:
        covers = 0
        for cover, _ in pos.under:
            covers |= 1 << cover
        lead = policy.lead(pos.hands[pos.leader], pos.hands[1 - pos.leader], covers)
        pos = ds.play_known(pos, lead)
        pos = ds.play_known(pos, policy.answer(pos.hands[1 - pos.leader], lead))
    return ds.solve_known(pos)


def test_a_lead_is_answered_by_every_card_before_the_last_tricks_too() -> None:
    """In a sampled layout, a lead's outcomes are keyed by each legal answer of the
    opponent even when the policy plays on before the rest is solved, so the search
    chooses the answer on the mean over the layouts (the opponent does not see the
    face-down cards either), never by the policy; each outcome is that answer, then the
    policy until the last ``solve_at`` tricks, then the exact solution."""
    rng = random.Random(8)
    checked = 0
    for i in range(24):
        pos = ds.random_play(ds.deal(rng, trump=i % 4), rng, 2 * (ds.TRICKS - 11))
        t = ds.tables_for(pos.rules)
        policy = ds.Policy(t)
        solver = ds.KnownSolver(t, dict(pos.under))
        lead = rng.choice(cards_of(ds.legal_cards(pos)))
        out = ds.outcomes(pos, lead, policy, solver.under_bits, solver, solve_at=8)
        after = ds.play_known(pos, lead)
        assert set(out) == set(cards_of(ds.legal_cards(after)))
        for answer, final in out.items():
            assert final == _policy_then_solved(ds.play_known(after, answer), policy, 8)
        checked += len(out) > 1
        # An answer ends the trick: one outcome, the policy and the solver as above.
        answer = cards_of(ds.legal_cards(after))[0]
        (final,) = ds.outcomes(after, answer, policy, solver.under_bits, solver, 8).values()
        assert final == _policy_then_solved(ds.play_known(after, answer), policy, 8)
    assert checked >= 8
