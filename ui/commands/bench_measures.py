"""The measures of ``atout bench`` (:mod:`atout.ui.commands.bench`): what a measure may
use (:class:`BenchContext`), and the built-in figures: deal throughput, the solvers'
times, the expert bot's decision times and the duplicate matches.
"""

from __future__ import annotations

import functools
import importlib
import random
import statistics
import time
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import TypeVar

from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import Rules
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import iter_cards
from atout.core.cards import mask_of
from atout.core.state import PLAY
from atout.plugins.bots.duplicate import Cluster
from atout.plugins.bots.duplicate import run_duplicate
from atout.plugins.bots.mixed import parse_spec
from atout.plugins.bots.mixed import spec_games
from atout.plugins.search.stats import percentile

GAMES = ("belote", "decouverte", "coinche", "coinche-decouverte")
"""The games the bot measures (decision times, duplicate matches) play, each when it is
registered; the throughput and solver figures are Belote's and Découverte's."""
_N = TypeVar("_N", int, float)


@dataclass
class BenchContext:
    """What a measure may use: the engine, the run's size and options, and a progress
    callback (``progress(done, total)``) for long measures."""

    engine: Engine
    quick: bool = False
    jobs: int = 1
    seed: int = 0
    think: float = 0.0
    deals: int | None = None
    games: tuple[str, ...] = GAMES
    duplicates: tuple[tuple[str, str], ...] = ()
    bidding_only: bool = False
    """Score the duplicate pairs that bid alike as ties, unplayed (``--bidding-only``)."""
    rules: dict[str, Rules] = field(default_factory=dict)
    """The rules of the duplicate matches by game (``--pack``); a game not here plays
    its default rules."""
    plugins: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    server_workers: int | None = None
    """The worker processes of the server measure's ``atout serve`` (``--server-workers``;
    ``None``: its default)."""
    cluster: Cluster | None = None
    """The Dask scheduler that plays the duplicate pairs (``--scheduler``); ``None``:
    ``jobs`` processes on this machine."""
    progress: Callable[[int, int], None] = field(default=lambda done, total: None)

    def size(self, default: _N, quick: _N) -> _N:
        """``quick`` in a smoke run, else ``default``."""
        return quick if self.quick else default

    def has_game(self, game: str) -> bool:
        """Whether ``game`` is registered and selected for this run."""
        return game in self.games and game in self.engine.games


# --- throughput: random deals through the public engine API ----------------------------


def _play_out(deal: Deal, rng: random.Random) -> None:
    """Play the 32 cards of ``deal`` at random through :meth:`Deal.play_out`: each card
    uniformly among the legal ones (the digits of one big random number in the mixed
    radix of the numbers of legal cards, a bias under 2**-90); the last card scores
    the deal."""
    r = rng.getrandbits(192)

    def choose(legal: CardSet) -> Card:
        nonlocal r
        r, k = divmod(r, legal.bit_count())
        while k:
            legal &= legal - 1
            k -= 1
        return (legal & -legal).bit_length() - 1

    deal.play_out(choose)
    if deal.score is None:
        raise RuntimeError("a benchmark deal did not end after 32 cards")


def _contracts(seats: int) -> list[Contract]:
    """Every suit contract of a game with ``seats`` takers (contracts are values: one
    object each serves every deal)."""
    return [Contract(taker, trump, SUITS[trump]) for taker in range(seats) for trump in range(4)]


def belote_deals(
    engine: Engine, seconds: float, seed: int = 1, declarations: bool = False
) -> tuple[int, float]:
    """Random four-player deals through the public API for about ``seconds`` of CPU time:
    a set-up position (a seeded shuffled pack dealt 8 by 8, a random trump and taker;
    with ``declarations`` the declarations are found and announced as in a full deal),
    every card by ``Deal.play_out()`` (a uniformly random legal card each time), then the
    scoring.  Returns the deals played and the CPU seconds."""
    rules = engine.default_rules("belote")
    info = engine.game("belote")
    contracts = _contracts(info.seats)
    rng = random.Random(seed)
    rnd = rng.random
    pack = list(range(32))

    def one_deal() -> None:
        pack.sort(key=lambda _c: rnd())
        hands = (
            mask_of(pack[0:8]),
            mask_of(pack[8:16]),
            mask_of(pack[16:24]),
            mask_of(pack[24:32]),
        )
        dealer = int(rnd() * 4)
        state = DealState("belote", rules, info.seats, info.teams, dealer, Layout(hands=hands))
        state.contract = contracts[int(rnd() * len(contracts))]
        state.phase = PLAY
        state.leader = state.turn = (dealer + 1) % 4
        state.extra["declarations"] = declarations
        _play_out(engine.deal_from_state(state), rng)

    return _for_cpu_seconds(seconds, one_deal)


def decouverte_deals(engine: Engine, seconds: float, seed: int = 1) -> tuple[int, float]:
    """Random Découverte deals through the public API for about ``seconds`` of CPU
    time: the deal (``Engine.new_deal``: shuffle and piles), a random contract, the
    play by ``Deal.play_out()`` (a uniformly random legal card each time) with the turns
    of the face-down cards, then the scoring."""
    rules = engine.default_rules("decouverte")
    contracts = _contracts(2)
    rng = random.Random(seed)
    rnd = rng.random

    def one_deal() -> None:
        deal = engine.new_deal("decouverte", rules, int(rnd() * 2), rng)
        deal.state.contract = contracts[int(rnd() * len(contracts))]
        deal.start_play(declarations=True)
        _play_out(deal, rng)

    return _for_cpu_seconds(seconds, one_deal)


def _for_cpu_seconds(seconds: float, one_deal: Callable[[], None]) -> tuple[int, float]:
    """Play ``one_deal()`` in batches of 50 until ``seconds`` of CPU time have passed
    (the clock is read once a batch); returns the deals played and the CPU seconds."""
    n = 0
    cpu = time.process_time
    start = cpu()
    end = start + seconds
    while True:
        for _ in range(50):
            one_deal()
        n += 50
        now = cpu()
        if now >= end:
            return n, now - start


WINDOWS = 5
"""Throughput is measured in this many equal windows of CPU time and the best one is the
figure, as :mod:`timeit` takes the best of its repeats: a slower window measures the
other programs sharing the machine, not the engine.  The mean is reported beside it."""


def _throughput(
    key: str, run: Callable[[float, int], tuple[int, float]], seconds: float, seed: int
) -> dict[str, Any]:
    """``key`` (deals per CPU second, the best of :data:`WINDOWS` windows of
    ``seconds / WINDOWS`` each), ``key_mean`` and ``key_windows``."""
    rates = []
    for w in range(WINDOWS):
        n, secs = run(seconds / WINDOWS, seed + w)
        rates.append(n / secs)
    return {
        key: round(max(rates)),
        f"{key}_mean": round(statistics.fmean(rates)),
        f"{key}_windows": [round(r) for r in rates],
    }


def measure_belote_deals(ctx: BenchContext) -> dict[str, Any]:
    if not ctx.has_game("belote"):
        return {}
    engine = ctx.engine
    belote_deals(engine, 0.05)  # warm up: imports, caches
    return {
        **_throughput(
            "belote_deals_per_s",
            lambda secs, seed: belote_deals(engine, secs, seed),
            ctx.size(3.0, 0.3),
            ctx.seed + 1,
        ),
        **_throughput(
            "belote_deals_per_s_with_declarations",
            lambda secs, seed: belote_deals(engine, secs, seed, declarations=True),
            ctx.size(2.0, 0.2),
            ctx.seed + 101,
        ),
    }


def measure_decouverte_deals(ctx: BenchContext) -> dict[str, Any]:
    if not ctx.has_game("decouverte"):
        return {}
    engine = ctx.engine
    decouverte_deals(engine, 0.05)
    return _throughput(
        "decouverte_deals_per_s",
        lambda secs, seed: decouverte_deals(engine, secs, seed),
        ctx.size(3.0, 0.3),
        ctx.seed + 1,
    )


# --- solvers ------------------------------------------------------------------------------


def _timed(items: Sequence[Any], solve: Callable[[Any], Any], ctx: BenchContext) -> list[float]:
    """CPU milliseconds of ``solve`` on each item, reporting progress."""
    out = []
    for i, item in enumerate(items):
        start = time.process_time()
        solve(item)
        out.append((time.process_time() - start) * 1000)
        ctx.progress(i + 1, len(items))
    return out


def _stats(prefix: str, ms: Sequence[float]) -> dict[str, Any]:
    return {
        f"{prefix}_ms_median": round(statistics.median(ms), 2),
        f"{prefix}_ms_p95": round(percentile(ms, 95), 2),
        f"{prefix}_count": len(ms),
    }


def belote_dd_positions(seed: int, n: int) -> list[tuple[list[int], int, int]]:
    """The seeded set of four-player full deals for the solver figure: hands dealt 8 by
    8 from a shuffled pack, a random trump and a random leader."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pack = list(range(32))
        rng.shuffle(pack)
        hands = [sum(1 << c for c in pack[i * 8 : (i + 1) * 8]) for i in range(4)]
        out.append((hands, rng.randrange(4), rng.randrange(4)))
    return out


def measure_belote_dd(ctx: BenchContext) -> dict[str, Any]:
    """CPU milliseconds of each exact solve of :func:`belote_dd_positions` (a fresh
    solver each), and the median number of trick starts each search expanded (a figure
    that does not depend on the machine's speed); then of each search of the same
    positions as the expert searches the first trick (to its horizon, the rest
    estimated: what one sampled layout of a first card costs)."""
    from atout.plugins.bots.belote_expert import HORIZONS
    from atout.plugins.search.belote_dd import BeloteDD

    positions = belote_dd_positions(2024 + ctx.seed, ctx.size(20, 2))
    rules = ctx.engine.default_rules("belote")
    nodes: list[int] = []

    def fresh_solver(trump: int) -> BeloteDD:
        contract = Contract(0, trump, SUITS[trump])
        return BeloteDD.for_contract(ctx.engine, "belote", rules, contract)

    def solve(p: tuple[list[int], int, int]) -> int:
        hands, trump, leader = p
        solver = fresh_solver(trump)
        value = solver.value(hands, leader)
        nodes.append(solver.nodes)
        return value

    def search(p: tuple[list[int], int, int]) -> int:
        hands, trump, leader = p
        return fresh_solver(trump).with_horizon(HORIZONS[(8, True)]).value(hands, leader)

    out = _stats("belote_dd_solve", _timed(positions, solve, ctx))
    out["belote_dd_nodes_median"] = statistics.median(nodes)
    out.update(_stats("belote_dd_horizon", _timed(positions, search, ctx)))
    return out


def measure_decouverte_solvers(ctx: BenchContext) -> dict[str, Any]:
    if not ctx.has_game("decouverte"):
        return {}
    try:
        search = importlib.import_module("atout.plugins.search.decouverte")
    except ImportError:
        return {}
    out: dict[str, Any] = {}
    known = getattr(search, "known_positions", None)
    solve_known = getattr(search, "solve_known", None)
    if known and solve_known:
        positions = known(2024 + ctx.seed, ctx.size(50, 5))
        out.update(_stats("decouverte_solve", _timed(positions, solve_known, ctx)))
    chance = getattr(search, "chance_positions", None)
    expectimax = getattr(search, "expectimax_value", None)
    if chance and expectimax:
        positions = chance(2024 + ctx.seed, ctx.size(30, 3))
        out.update(_stats("decouverte_expectimax", _timed(positions, expectimax, ctx)))
    return out


# --- the review ---------------------------------------------------------------------------

REVIEW_LATE_TRICKS = 7
"""The review's endgame figure times the decisions of the last seven tricks of a deal."""


def measure_review_endgames(ctx: BenchContext) -> dict[str, Any]:
    """``review_endgame_ms_median``/``_p95``: the CPU milliseconds of each decision the
    review values in the last :data:`REVIEW_LATE_TRICKS` tricks of seeded Découverte
    deals (12; 1 in a smoke run), where the review must be exact;
    ``review_endgame_exact_share``: the share of those decisions (forced ones aside)
    valued exactly.  The deals are played at random, except that a seat plays a card
    that covers no face-down card when it may: the endgames then keep many face-down
    cards unseen (up to six with seven tricks left), the review's hardest.  Each deal
    is reviewed whole with one sample a decision, so that the earlier, sampled
    decisions cost little; the late ones run with the default exact options."""
    if not ctx.has_game("decouverte") or "random" not in ctx.engine.bots:
        return {}
    from atout.core.records import deal_to_record
    from atout.plugins.review import DealReview
    from atout.plugins.review import ReviewOptions

    engine = ctx.engine
    game = "decouverte"
    rules = engine.default_rules(game)
    options = ReviewOptions(samples=1)
    ms: list[float] = []
    exact = valued = 0
    deals = ctx.size(12, 1)
    for d in range(deals):
        seed = 8000 + ctx.seed * 1000 + d
        rng = random.Random(seed)
        match = Match(engine, game, rules, seed=seed)
        bidder = engine.bot("random", game, rules, seed=seed)
        deal = match.next_deal()
        while deal.score is None:
            while not deal.is_over:
                view = deal.view(deal.turn)
                if view.phase != "play":
                    deal.apply(bidder.choose(view))
                    continue
                covering = {p.top for row in view.piles for p in row if p.covered}
                legal = [c for c in iter_cards(view.legal) if c not in covering]
                deal.play(rng.choice(legal or list(iter_cards(view.legal))))
            if deal.score is None:
                match.end_deal(deal)
                deal = match.next_deal()
        last = deal.state.tricks_per_deal - REVIEW_LATE_TRICKS + 1
        for decision in DealReview(engine, deal_to_record(deal, seed), options).decisions():
            if decision.phase != "play" or decision.trick < last:
                continue
            ms.append(decision.seconds * 1000)
            if decision.method != "forced":
                valued += 1
                exact += decision.method == "exact"
        ctx.progress(d + 1, deals)
    out = _stats("review_endgame", ms)
    out["review_endgame_exact_share"] = round(exact / valued, 3) if valued else None
    return out


# --- bots -----------------------------------------------------------------------------------


def decision_times(
    engine: Engine, game: str, bot: str, deals: int, seed: int, think: float, ctx: BenchContext
) -> list[float]:
    """Wall-clock seconds of every decision of ``bot`` playing every seat of ``deals``
    seeded deals (bidding included; a forced single action is not a decision)."""
    rules = engine.default_rules(game)
    seats = engine.game(game).seats
    times: list[float] = []
    for d in range(deals):
        match = Match(engine, game, rules, seed=seed + d)
        bots = [
            engine.bot(bot, game, rules, seed=seed * 8 + d * 4 + s, think=think)
            for s in range(seats)
        ]

        def choose(deal: Any, match: Match = match, bots: list[Any] = bots) -> Any:
            view = deal.view(deal.turn, scores=tuple(match.scores))
            actions = view.legal_actions()
            if len(actions) == 1:
                return actions[0]
            start = time.perf_counter()
            action = bots[deal.turn].choose(view)
            times.append(time.perf_counter() - start)
            return action

        match.play_deal(choose)
        ctx.progress(d + 1, deals)
    return times


def measure_bot_decisions(ctx: BenchContext) -> dict[str, Any]:
    p95: dict[str, float] = {}
    median: dict[str, float] = {}
    count: dict[str, int] = {}
    for game in GAMES:
        if not ctx.has_game(game) or "expert" not in ctx.engine.bots:
            continue
        if game not in ctx.engine.bots["expert"].games:
            continue
        think = 0.05 if ctx.quick else ctx.think
        times = decision_times(
            ctx.engine, game, "expert", ctx.size(2, 1), 7000 + ctx.seed, think, ctx
        )
        ms = [t * 1000 for t in times]
        p95[game] = round(percentile(ms, 95), 1)
        median[game] = round(statistics.median(ms), 1) if ms else 0.0
        count[game] = len(ms)
    return {
        "bot_decision_ms_p95": p95,
        "bot_decision_ms_median": median,
        "bot_decision_count": count,
    }


def _report(ctx: BenchContext, total: int, done: int) -> None:
    ctx.progress(done, total)


DEFAULT_DUPLICATES = (("expert", "greedy"), ("greedy", "random"))


def measure_duplicates(ctx: BenchContext) -> dict[str, Any]:
    out: dict[str, dict[str, Any]] = {}
    pairs = ctx.duplicates or DEFAULT_DUPLICATES
    for game in GAMES:
        if not ctx.has_game(game):
            continue
        for a, b in pairs:
            # a bot spec: a name, or PLAYER+BIDDER-bids (an unknown name fails here)
            if game not in spec_games(ctx.engine, a) or game not in spec_games(ctx.engine, b):
                continue
            strong = "expert" in (*parse_spec(a), *parse_spec(b))
            if ctx.deals is not None:
                deals = ctx.deals
            elif strong:
                deals = ctx.size(20, 1)
            else:
                deals = ctx.size(500, 5)
            think = 0.05 if ctx.quick and strong else ctx.think
            result = run_duplicate(
                ctx.engine,
                game,
                a,
                b,
                deals,
                seed=ctx.seed,
                rules=ctx.rules.get(game),
                think=think,
                jobs=ctx.jobs,
                progress=functools.partial(_report, ctx, deals),
                plugins=ctx.plugins,
                disable=ctx.disable,
                bidding_only=ctx.bidding_only,
                cluster=ctx.cluster,
            )
            out.setdefault(game, {})[f"{a}-vs-{b}"] = result.to_json()
    return {"duplicate": out}
