"""The four-player double-dummy solver plays the engine's rules: its legal cards are the
deal's move rule's, its values are exact (checked against a plain minimax that asks the
engine's compiled rules, on thousands of small endgames, under the shipped contracts and
house rules of play, a plugin's sans-atout and tout-atout contracts, and plugins that
change an obligation; and against the same minimax remembered at trick starts on four-
and five-card endgames, deep enough for every part of the search to act: transposition
bounds, the lead hints and the reordered follows a solver keeps from one position to the
next), and its depth-limited mode stays within the points in play."""

from __future__ import annotations

import functools
import math
import random
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest
from atout.core import Contract
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import cards_of
from atout.core.cards import SUITS
from atout.core.engine import Deal
from atout.core.model import Action
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.search import belote_dd
from atout.plugins.search.belote_dd import BeloteDD
from atout.plugins.search.belote_dd import SearchTimeout
from atout.plugins.search.rules import CardRules
from atout.plugins.search.rules import MoveAsker
from atout.plugins.search.rules import scratch_state
from atout.plugins.search.rules import trick_code
from helpers import PlayMinimax
from helpers import shipped_engine
from obligations import NoAceDiscard
from obligations import NoTrumpLead
from obligations import engine_with_rule

OPTIONS = [
    {"undertrump": "not-on-partner", "must_head_trick": False, "must_trump_partner": False},
    {"undertrump": "always", "must_head_trick": False, "must_trump_partner": False},
    {"undertrump": "not-on-partner", "must_head_trick": True, "must_trump_partner": False},
    {"undertrump": "not-on-partner", "must_head_trick": False, "must_trump_partner": True},
    {"undertrump": "always", "must_head_trick": True, "must_trump_partner": True},
]


def sans_tout_plugin() -> ModuleType:
    """The example plugin's hooks (the test is skipped where it is not installed)."""
    return pytest.importorskip("atout_sans_tout_atout.plugin")


@functools.cache
def sans_tout_engine() -> Engine:
    return engine_with_rule(sans_tout_plugin())


@functools.cache
def obligation_engine(name: str) -> Engine:
    return engine_with_rule(NoTrumpLead() if name == "no-trump-lead" else NoAceDiscard())


class Rig(PlayMinimax):
    """One contract's rules as the engine compiled them, asked directly (no solver code):
    the move rule through a DealState, the trick winner and points from the tables."""

    def __init__(self, engine: Engine, contract: Contract, options: dict[str, Any]) -> None:
        rules = engine.make_rules("belote", options)
        self.contract = contract
        state = DealState("belote", rules, 4, 2, 0, Layout(hands=(0, 0, 0, 0)))
        state.contract = contract
        state.phase = "play"
        super().__init__(engine.play_rules("belote", rules, contract), state)
        self.solver = BeloteDD(
            CardRules.of(self.play),
            state=scratch_state(4, 2, 1, "belote", rules, contract),
        )

    def minimax(self, hands: list[int], leader: int, trick: list[int]) -> int:
        """Team 0's points by plain minimax over the engine's rules."""
        return self.points(hands, leader, trick, 0)

    def remembered(
        self, hands: list[int], leader: int, trick: list[int], memo: dict[tuple[int, ...], int]
    ) -> int:
        """Team 0's points by the same minimax, each trick start's value remembered in
        ``memo`` (by the hands and the leader): fast enough for four- and five-card
        endgames, and still no solver code."""
        pts = self.play.points
        if len(trick) == 4:
            _, ws = self.winner(leader, trick)
            last = not any(hands)
            gain = sum(pts[c] for c in trick) + (self.play.values.last_trick if last else 0)
            mine = gain if ws % 2 == 0 else 0
            return mine + (0 if last else self.remembered(hands, ws, [], memo))
        key = (*hands, leader)
        if not trick and key in memo:
            return memo[key]
        seat = (leader + len(trick)) % 4
        values = []
        for c in cards_of(self.legal(hands, leader, trick)):
            h2 = list(hands)
            h2[seat] &= ~(1 << c)
            values.append(self.remembered(h2, leader, [*trick, c], memo))
        v = max(values) if seat % 2 == 0 else min(values)
        if not trick:
            memo[key] = v
        return v

    def position(self, rng: random.Random, tricks: int) -> tuple[list[int], int, list[int]]:
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
            seat = (leader + len(trick)) % 4
            c = rng.choice(cards_of(self.legal(hands, leader, trick)))
            hands[seat] &= ~(1 << c)
            trick.append(c)
        return hands, leader, trick


@functools.cache
def suit_rig(trump: int, options: tuple[tuple[str, Any], ...] = ()) -> Rig:
    return Rig(shipped_engine(), Contract(0, trump, SUITS[trump]), dict(options))


def rig_for(trump: int, opts: dict[str, Any]) -> Rig:
    return suit_rig(trump, tuple(sorted(opts.items())))


@functools.cache
def plugin_rig(name: str, trump: int) -> Rig:
    """A rig under a plugin's contract (``sans-atout``, ``tout-atout``) or obligation."""
    if name in ("sans-atout", "tout-atout"):
        return Rig(sans_tout_engine(), Contract(0, None, name), {"sans_tout_atout": "both"})
    return Rig(obligation_engine(name), Contract(0, trump, SUITS[trump]), {})


PLUGIN_RULES = ["sans-atout", "tout-atout", "no-trump-lead", "no-ace-discard"]


def test_legal_moves_are_the_move_rules_on_random_positions() -> None:
    rng = random.Random(5)
    checked = 0
    for i in range(4000):
        rig = rig_for(rng.randrange(4), OPTIONS[i % len(OPTIONS)])
        hands, leader, trick = rig.position(rng, rng.randint(1, 8))
        assert rig.solver.legal(hands, leader, trick) == rig.legal(hands, leader, trick), (
            hands,
            leader,
            trick,
        )
        checked += 1
    assert checked == 4000


@pytest.mark.parametrize("name", PLUGIN_RULES)
def test_legal_moves_are_a_plugins_move_rules(name: str) -> None:
    rng = random.Random(8)
    for _ in range(600):
        rig = plugin_rig(name, rng.randrange(4))
        hands, leader, trick = rig.position(rng, rng.randint(1, 8))
        assert rig.solver.legal(hands, leader, trick) == rig.legal(hands, leader, trick)


@pytest.mark.parametrize("opts", OPTIONS)
def test_values_equal_brute_force_minimax_on_small_endgames(opts: dict[str, Any]) -> None:
    rng = random.Random(hash(tuple(opts.values())) & 0xFFFF)
    for _ in range(500):
        rig = rig_for(rng.randrange(4), opts)
        hands, leader, trick = rig.position(rng, rng.choice((1, 2, 2, 3)))
        want = rig.minimax(list(hands), leader, list(trick))
        dd = rig.solver
        assert dd.value(hands, leader, trick) == want
        total = dd.remaining_points(hands, trick)
        assert dd.value(hands, leader, trick, team=1) == total - want


@pytest.mark.parametrize("name", PLUGIN_RULES)
def test_values_equal_brute_force_minimax_under_a_plugins_rules(name: str) -> None:
    rng = random.Random(len(name))
    seen_other_values = False
    for _ in range(300):
        rig = plugin_rig(name, rng.randrange(4))
        hands, leader, trick = rig.position(rng, rng.choice((1, 2, 3)))
        want = rig.minimax(list(hands), leader, list(trick))
        assert rig.solver.value(hands, leader, trick) == want
        seen_other_values |= rig.solver.remaining_points(hands, trick) != want
    assert seen_other_values


def test_a_plugins_contract_is_solved_with_its_own_card_values() -> None:
    """Under sans-atout an ace is worth 19 and the jack 2: one trick, the ace led."""
    rig = plugin_rig("sans-atout", 0)
    ace, jack = 7, 4  # AC, JC
    hands = [1 << ace, 1 << jack, 1 << 8, 1 << 9]  # 7D, 8D: nothing else to follow
    assert rig.solver.value(hands, 0) == 19 + 2 + 10
    tout = plugin_rig("tout-atout", 0)
    # tout-atout: the jack (14) beats the ace (6) of its suit
    assert tout.solver.value(hands, 0) == 0
    assert tout.solver.value(hands, 0, team=1) == 14 + 6 + 10


def test_move_values_are_the_values_after_each_card() -> None:
    rng = random.Random(11)
    for i in range(150):
        rig = rig_for(rng.randrange(4), OPTIONS[0]) if i % 3 else plugin_rig("tout-atout", 0)
        dd = rig.solver
        hands, leader, trick = rig.position(rng, 3)
        seat = (leader + len(trick)) % 4
        values = dd.move_values(hands, leader, trick)
        assert set(values) == set(cards_of(rig.legal(hands, leader, trick)))
        team = seat % 2
        best = max(values.values())
        assert dd.value(hands, leader, trick, team=team) == best
        for c, v in values.items():
            h2 = list(hands)
            h2[seat] &= ~(1 << c)
            want = rig.minimax(h2, leader, [*trick, c])
            total = dd.remaining_points(hands, trick)
            assert v == (want if team == 0 else total - want)


def test_at_least_agrees_with_the_exact_value() -> None:
    rng = random.Random(3)
    for _ in range(100):
        rig = rig_for(rng.randrange(4), OPTIONS[0])
        dd = BeloteDD(rig.solver.rules)
        hands, leader, trick = rig.position(rng, 3)
        v = dd.value(hands, leader, trick)
        assert dd.at_least(hands, leader, trick, 0, v)
        assert not dd.at_least(hands, leader, trick, 0, v + 1)
        other = dd.remaining_points(hands, trick) - v
        assert dd.at_least(hands, leader, trick, 1, other)
        assert not dd.at_least(hands, leader, trick, 1, other + 1)


def deal_hands(seed: int) -> list[int]:
    rng = random.Random(seed)
    pack = list(range(32))
    rng.shuffle(pack)
    return [sum(1 << c for c in pack[i * 8 : (i + 1) * 8]) for i in range(4)]


def test_a_full_deal_value_is_within_the_deal_and_stable() -> None:
    hands = deal_hands(7)
    rules = rig_for(2, OPTIONS[0]).solver.rules
    v0 = BeloteDD(rules).value(hands, 1)
    assert 0 <= v0 <= 162
    assert BeloteDD(rules).value(hands, 1, team=1) == 162 - v0
    # the leader's best lead is worth exactly the position's value
    values = BeloteDD(rules).move_values(hands, 1)
    assert max(values.values()) == 162 - v0


def test_a_full_deal_under_a_plugins_contract_is_solved() -> None:
    hands = deal_hands(12)
    for name in ("sans-atout", "tout-atout"):
        rules = plugin_rig(name, 0).solver.rules
        v0 = BeloteDD(rules).value(hands, 0)
        assert 0 <= v0 <= rules.total == 162
        assert BeloteDD(rules).value(hands, 0, team=1) == 162 - v0


def test_horizon_estimates_stay_within_the_points_in_play() -> None:
    rng = random.Random(9)
    for i in range(30):
        rig = rig_for(rng.randrange(4), OPTIONS[0]) if i % 2 else plugin_rig("sans-atout", 0)
        dd = rig.solver.with_horizon(5)
        hands, leader, trick = rig.position(rng, 8)
        total = dd.remaining_points(hands, trick)
        for v in dd.move_values(hands, leader, trick).values():
            assert 0 <= v <= total


@functools.cache
def greedy_horizon_positions(deals: int) -> dict[int, list[tuple[BeloteDD, list[int], int]]]:
    """Trick starts with five and with four cards a hand (the expert's horizons) from
    greedy play of seeded deals, by cards a hand: the solver of each deal's contract, the
    hands and the leader."""
    engine = shipped_engine()
    rules = engine.default_rules("belote")
    solvers: dict[int, BeloteDD] = {}
    found: dict[int, list[tuple[BeloteDD, list[int], int]]] = {5: [], 4: []}
    for d in range(deals):
        match = Match(engine, "belote", rules, seed=7000 + d)
        bots = [GreedyBot(d * 4 + s, engine) for s in range(4)]

        def choose(deal: Deal, bots: list[GreedyBot] = bots) -> Action:
            view = deal.view(deal.turn)
            hands = list(deal.state.hands)
            contract = view.contract
            cards = hands[0].bit_count()
            start = view.phase == "play" and not view.trick and cards in found
            if start and contract is not None and all(h.bit_count() == cards for h in hands):
                solver = solvers.get(contract.trump)
                if solver is None:
                    solver = solvers[contract.trump] = BeloteDD.for_contract(
                        engine, "belote", rules, contract
                    )
                found[cards].append((solver, hands, deal.turn))
            return bots[deal.turn].choose(view)

        match.play_deal(choose)
    return found


@pytest.mark.parametrize(("cards", "bound"), [(5, 17.5), (4, 16.0)])
def test_horizon_estimates_are_near_the_exact_values(cards: int, bound: float) -> None:
    """The depth-limited estimate is within ``bound`` points (root mean square) of the
    exact value on positions of real play.  Its powers were fitted to such values; on
    these positions (16.3 and 14.9 points off) the powers before the fit were 19.7 and
    17.5 points off."""
    errors = []
    for solver, hands, leader in greedy_horizon_positions(250)[cards]:
        errors.append(solver.estimate(hands, leader) - solver.value(hands, leader))
    assert len(errors) > 200
    assert (sum(e * e for e in errors) / len(errors)) ** 0.5 <= bound


def test_the_horizon_estimate_is_the_power_share_rounded_half_up() -> None:
    """The estimate, summed from tables in the search, is exactly its definition: the
    sure points of the top run of live trumps one team holds, plus the rest shared by
    the teams' powers (:data:`TRUMP_POWER` and the rest, as exact fractions), rounded
    half up; on 4,000 seeded positions of five and four cards a hand.  (Summed in
    floating point, about one position in 650 landed just under a half and was rounded
    down.)"""
    eng = shipped_engine()
    rules = eng.default_rules("belote")
    solvers = [
        BeloteDD.for_contract(eng, "belote", rules, Contract(0, t, SUITS[t])) for t in range(4)
    ]
    rng = random.Random(41)
    power = {
        True: [Fraction(str(p)) for p in belote_dd.TRUMP_POWER],
        False: [Fraction(str(p)) for p in belote_dd.PLAIN_POWER],
    }
    base = Fraction(str(belote_dd.BASE_POWER))
    lead = Fraction(str(belote_dd.LEAD_POWER))
    unit = Fraction(str(belote_dd.POWER_UNIT))
    for p in [*power[True], *power[False], base, lead]:
        assert (p / unit).denominator == 1, f"{p} is no whole multiple of POWER_UNIT"
    for n in range(4000):
        trump = n % 4
        solver = solvers[trump]
        cards = rng.sample(range(32), 4 * (5 - n % 2))
        k = len(cards) // 4
        hands = [sum(1 << c for c in cards[i * k : (i + 1) * k]) for i in range(4)]
        leader = rng.randrange(4)
        team = {c: i // k % 2 for i, c in enumerate(cards)}
        rem = solver.last_trick + sum(solver.points[c] for c in cards)
        trumps = sorted((c for c in cards if c // 8 == trump), key=lambda c: -solver.strength[c])
        run, side = 0, -1
        for c in trumps:
            holder = team[c]
            if side >= 0 and holder != side:
                break
            side = holder
            run += solver.points[c]
        sure = [run if side == 0 else 0, run if side == 1 else 0]
        team_power = [base, base]
        team_power[leader % 2] += lead
        for c in cards:
            team_power[team[c]] += power[c // 8 == trump][solver.strength[c]]
        share = (rem - sure[0] - sure[1]) * team_power[0] / sum(team_power)
        expected = sure[0] + math.floor(share + Fraction(1, 2))
        assert solver.estimate(hands, leader) == expected, (hands, leader, trump)


def test_a_passed_deadline_stops_the_search() -> None:
    dd = BeloteDD(rig_for(0, OPTIONS[0]).solver.rules)
    dd.set_deadline(1e-9)
    with pytest.raises(SearchTimeout):
        dd.value(deal_hands(1), 0)


def test_bad_positions_are_refused_with_a_reason() -> None:
    dd = BeloteDD(rig_for(0, OPTIONS[0]).solver.rules)
    with pytest.raises(ValueError, match="4 hands"):
        dd.value([1, 2, 4], 0)
    with pytest.raises(ValueError, match="do not fit"):
        dd.value([0b11, 0b100, 0b1000, 0b10000], 0)
    with pytest.raises(ValueError, match="two hands"):
        dd.value([1, 1, 2, 4], 0)


@pytest.mark.parametrize("opts", OPTIONS)
def test_values_equal_a_remembered_minimax_on_four_and_five_card_endgames(
    opts: dict[str, Any],
) -> None:
    """One solver per contract, kept from position to position as the bots keep it: its
    transposition table, lead hints and reordered follows never change a value."""
    rng = random.Random(40 + OPTIONS.index(opts))
    for i in range(60):
        rig = rig_for(rng.randrange(4), opts)
        hands, leader, trick = rig.position(rng, 5 if i % 6 == 0 else 4)
        want = rig.remembered(list(hands), leader, list(trick), {})
        assert rig.solver.value(hands, leader, trick) == want, (hands, leader, trick)


@pytest.mark.parametrize("name", PLUGIN_RULES)
def test_values_equal_a_remembered_minimax_under_a_plugins_rules(name: str) -> None:
    rng = random.Random(70 + len(name))
    for _ in range(25):
        rig = plugin_rig(name, rng.randrange(4))
        hands, leader, trick = rig.position(rng, 4)
        want = rig.remembered(list(hands), leader, list(trick), {})
        assert rig.solver.value(hands, leader, trick) == want, (hands, leader, trick)


def test_move_values_equal_a_remembered_minimax_on_four_card_endgames() -> None:
    """``move_values`` solves each card with the previous card's value as its guess
    (MTD(f) steps before the bisection): every value stays exact."""
    rng = random.Random(17)
    for i in range(30):
        rig = rig_for(rng.randrange(4), OPTIONS[i % len(OPTIONS)])
        hands, leader, trick = rig.position(rng, 4)
        seat = (leader + len(trick)) % 4
        team = seat % 2
        total = rig.solver.remaining_points(hands, trick)
        memo: dict[tuple[int, ...], int] = {}
        for c, v in rig.solver.move_values(hands, leader, trick).items():
            h2 = list(hands)
            h2[seat] &= ~(1 << c)
            want = rig.remembered(h2, leader, [*trick, c], memo)
            assert v == (want if team == 0 else total - want), (hands, leader, trick, c)


def test_a_guess_anywhere_gives_the_same_value() -> None:
    rng = random.Random(23)
    for _ in range(40):
        rig = rig_for(rng.randrange(4), OPTIONS[0])
        hands, leader, trick = rig.position(rng, 4)
        want = rig.solver.value(hands, leader, trick)
        total = rig.solver.remaining_points(hands, trick)
        for guess in (0, want - 3, want, want + 1, total):
            dd = BeloteDD(rig.solver.rules)
            assert dd.value(hands, leader, trick, guess=guess) == want


@pytest.mark.parametrize("name", ["shipped", "no-trump-lead", "no-ace-discard"])
def test_asking_with_the_trick_as_a_list_gives_the_rules_answer(name: str) -> None:
    """``MoveAsker.ask_trick`` (the solver's inner loop) answers what ``ask`` answers,
    for a trick-local rule and for one that is not."""
    rng = random.Random(31)
    for _ in range(400):
        rig = rig_for(rng.randrange(4), OPTIONS[4]) if name == "shipped" else plugin_rig(name, 1)
        hands, leader, trick = rig.position(rng, rng.randint(2, 8))
        if not trick:
            continue
        seat = (leader + len(trick)) % 4
        win, ws = rig.winner(leader, trick)
        asker = MoveAsker(rig.play.moves, scratch_state(4, 2, 1, "belote", None, rig.contract))
        asker.state.rules = rig.state.rules
        got = asker.ask_trick(hands, seat, list(trick), trick_code(trick), win, ws)
        assert got == rig.legal(hands, leader, trick)
        fresh = MoveAsker(rig.play.moves, asker.state)
        assert fresh.ask(hands, seat, trick_code(trick), win, ws) == got
        if asker.local:
            assert asker.memo[hands[seat] | trick_code(trick) << 32] == got
        else:
            assert not asker.memo
