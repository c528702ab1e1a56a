"""The four-player double-dummy solver: its legal moves are BeloteMoves', its values are
exact (checked against a plain minimax on thousands of small endgames), and its
depth-limited mode stays within the points in play."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import pytest
from atout.core import Contract, DealState, Layout, Rules, cards_of
from atout.plugins.bots.belote_dd import BeloteDD, SearchTimeout
from atout.plugins.common import BeloteMoves
from atout.plugins.tables import beats_table, card_points

OPTIONS = [
    {"undertrump": "not-on-partner", "must_head_trick": False, "must_trump_partner": False},
    {"undertrump": "always", "must_head_trick": False, "must_trump_partner": False},
    {"undertrump": "not-on-partner", "must_head_trick": True, "must_trump_partner": False},
    {"undertrump": "not-on-partner", "must_head_trick": False, "must_trump_partner": True},
    {"undertrump": "always", "must_head_trick": True, "must_trump_partner": True},
]


@functools.cache
def solver(trump: int, undertrump: str, head: bool, partner: bool) -> BeloteDD:
    """One solver per trump and rules (its table stays valid across positions)."""
    return BeloteDD(trump, undertrump=undertrump, must_head_trick=head, must_trump_partner=partner)


def solver_for(trump: int, opts: dict[str, object]) -> BeloteDD:
    return solver(
        trump,
        str(opts["undertrump"]),
        bool(opts["must_head_trick"]),
        bool(opts["must_trump_partner"]),
    )


def _state(hands: Sequence[int], trump: int, leader: int, trick: Sequence[int]) -> DealState:
    """A DealState in the play, for asking BeloteMoves."""
    st = DealState("belote", Rules("belote", {}), 4, 2, 0, Layout(hands=tuple(hands)))
    st.contract = Contract(0, trump, "x")
    st.phase = "play"
    st.leader = leader
    st.trick = list(trick)
    st.turn = (leader + len(trick)) % 4
    beats = beats_table(trump)
    if trick:
        win, ws = trick[0], leader
        for i, c in enumerate(trick[1:], 1):
            if beats[win] >> c & 1:
                win, ws = c, (leader + i) % 4
        st.win_card, st.win_seat = win, ws
    return st


def random_position(
    rng: random.Random, tricks: int, moves: BeloteMoves
) -> tuple[list[int], int, list[int]]:
    """Hands of ``tricks`` cards each, then 0-3 cards played legally to a trick."""
    pack = list(range(32))
    rng.shuffle(pack)
    hands = [0] * 4
    for s in range(4):
        for c in pack[s * tricks : (s + 1) * tricks]:
            hands[s] |= 1 << c
    leader = rng.randrange(4)
    trick: list[int] = []
    for _ in range(rng.randrange(4)):
        st = _state(hands, moves.trump if moves.trump is not None else 0, leader, trick)
        st.hands = list(hands)
        seat = st.turn
        c = rng.choice(cards_of(moves.legal(st)))
        hands[seat] &= ~(1 << c)
        trick.append(c)
    return hands, leader, trick


def minimax(moves: BeloteMoves, hands: list[int], leader: int, trick: list[int], trump: int) -> int:
    """Team 0's points by plain minimax, with BeloteMoves for the legal cards."""
    pts = card_points(trump)
    beats = beats_table(trump)
    k = len(trick)
    if k == 4:
        win, ws = trick[0], leader
        for i, c in enumerate(trick[1:], 1):
            if beats[win] >> c & 1:
                win, ws = c, (leader + i) % 4
        gain = sum(pts[c] for c in trick) + (10 if not any(hands) else 0)
        mine = gain if ws % 2 == 0 else 0
        return mine + (minimax(moves, hands, ws, [], trump) if any(hands) else 0)
    st = _state(hands, trump, leader, trick)
    seat = st.turn
    values = []
    for c in cards_of(moves.legal(st)):
        h2 = list(hands)
        h2[seat] &= ~(1 << c)
        values.append(minimax(moves, h2, leader, [*trick, c], trump))
    return max(values) if seat % 2 == 0 else min(values)


def test_legal_moves_match_belote_moves_on_random_positions() -> None:
    rng = random.Random(5)
    checked = 0
    for i in range(4000):
        opts = OPTIONS[i % len(OPTIONS)]
        trump = rng.randrange(4)
        moves = BeloteMoves(trump, **opts)  # type: ignore[arg-type]
        dd = solver_for(trump, opts)
        hands, leader, trick = random_position(rng, rng.randint(1, 8), moves)
        st = _state(hands, trump, leader, trick)
        seat = st.turn
        assert dd.legal(hands[seat], seat, trick, st.win_seat if trick else leader) == (
            moves.legal(st)
        ), (hands, leader, trick, opts)
        checked += 1
    assert checked == 4000


@pytest.mark.parametrize("opts", OPTIONS)
def test_values_equal_brute_force_minimax_on_small_endgames(opts: dict[str, object]) -> None:
    rng = random.Random(hash(tuple(opts.values())) & 0xFFFF)
    for _ in range(500):
        trump = rng.randrange(4)
        moves = BeloteMoves(trump, **opts)  # type: ignore[arg-type]
        dd = solver_for(trump, opts)
        hands, leader, trick = random_position(rng, rng.choice((1, 2, 2, 3)), moves)
        want = minimax(moves, list(hands), leader, list(trick), trump)
        assert dd.value(hands, leader, trick) == want
        total = dd.remaining_points(hands, trick)
        assert dd.value(hands, leader, trick, team=1) == total - want


def test_move_values_are_the_values_after_each_card() -> None:
    rng = random.Random(11)
    for _ in range(150):
        trump = rng.randrange(4)
        moves = BeloteMoves(trump)
        dd = solver_for(trump, OPTIONS[0])
        hands, leader, trick = random_position(rng, 3, moves)
        seat = (leader + len(trick)) % 4
        values = dd.move_values(hands, leader, trick)
        st = _state(hands, trump, leader, trick)
        assert set(values) == set(cards_of(moves.legal(st)))
        team = seat % 2
        best = max(values.values())
        assert dd.value(hands, leader, trick, team=team) == best
        for c, v in values.items():
            h2 = list(hands)
            h2[seat] &= ~(1 << c)
            want = minimax(moves, h2, leader, [*trick, c], trump)
            total = dd.remaining_points(hands, trick)
            assert v == (want if team == 0 else total - want)


def test_at_least_agrees_with_the_exact_value() -> None:
    rng = random.Random(3)
    for _ in range(100):
        trump = rng.randrange(4)
        dd = BeloteDD(trump)
        hands, leader, trick = random_position(rng, 3, BeloteMoves(trump))
        v = dd.value(hands, leader, trick)
        assert dd.at_least(hands, leader, trick, 0, v)
        assert not dd.at_least(hands, leader, trick, 0, v + 1)
        other = dd.remaining_points(hands, trick) - v
        assert dd.at_least(hands, leader, trick, 1, other)
        assert not dd.at_least(hands, leader, trick, 1, other + 1)


def test_a_full_deal_value_is_within_the_deal_and_stable() -> None:
    rng = random.Random(7)
    pack = list(range(32))
    rng.shuffle(pack)
    hands = [sum(1 << c for c in pack[i * 8 : (i + 1) * 8]) for i in range(4)]
    dd = BeloteDD(2)
    v0 = dd.value(hands, 1)
    assert 0 <= v0 <= 162
    assert BeloteDD(2).value(hands, 1, team=1) == 162 - v0
    # the leader's best lead is worth exactly the position's value
    values = BeloteDD(2).move_values(hands, 1)
    assert max(values.values()) == 162 - v0


def test_horizon_estimates_stay_within_the_points_in_play() -> None:
    rng = random.Random(9)
    for _ in range(30):
        trump = rng.randrange(4)
        dd = BeloteDD(trump, horizon=5)
        hands, leader, trick = random_position(rng, 8, BeloteMoves(trump))
        total = dd.remaining_points(hands, trick)
        for v in dd.move_values(hands, leader, trick).values():
            assert 0 <= v <= total


def test_a_passed_deadline_stops_the_search() -> None:
    rng = random.Random(1)
    pack = list(range(32))
    rng.shuffle(pack)
    hands = [sum(1 << c for c in pack[i * 8 : (i + 1) * 8]) for i in range(4)]
    dd = BeloteDD(0)
    dd.set_deadline(1e-9)
    with pytest.raises(SearchTimeout):
        dd.value(hands, 0)


def test_bad_positions_are_refused_with_a_reason() -> None:
    dd = BeloteDD(0)
    with pytest.raises(ValueError, match="4 hands"):
        dd.value([1, 2, 4], 0)
    with pytest.raises(ValueError, match="do not fit"):
        dd.value([0b11, 0b100, 0b1000, 0b10000], 0)
    with pytest.raises(ValueError, match="two hands"):
        dd.value([1, 1, 2, 4], 0)
