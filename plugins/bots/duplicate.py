"""Duplicate matches between two bots: every deal played twice with the seats swapped.

Luck is the cards; playing each deal once with bot A on team 0 and once with A on team 1
cancels most of it, so a small difference in skill shows with few deals (the duplicate
scoring of bridge tournaments).  For deal ``k`` of a run with seed ``s`` both plays start
from the first deal of ``Match(seed=s * 1_000_003 + k)``: the same shuffled pack, the
same dealer.  A pass-out redeals inside that match, so both plays stay comparable.

The result of a pair is the difference A minus B of the deal scores, averaged over the
two plays.  :func:`run_duplicate` reports the mean difference per deal with its 95%
confidence interval over the pairs (normal approximation), the pairs won, lost and tied,
and "matches": each seating's deal scores taken in order and summed into matches to the
rules' target (the game's own end-of-match rule decides), counted per bot.

A bot is named by a spec (:mod:`.mixed`): a registered bot's name, or
``PLAYER+BIDDER-bids`` for one that bids as ``BIDDER`` and plays as ``PLAYER``.  A match
of ``expert`` against ``expert+greedy-bids`` measures the expert's bidding alone.

**Bidding only.** When A and B play the cards with the same bot and differ only in their
bidding, a pair whose two seatings bid exactly alike (every seat the same bids, pass-outs
included) reaches the same contract with the same players in every seat: its expected
result is 0 whatever the luck of the play.  With ``bidding_only`` such a pair is scored
0 without being played, and only the pairs whose auctions differ are played on from the
end of their bidding.  The mean is the same in expectation; the noise of the play in the
tied pairs is gone, and so is their cost (most deals bid alike when two bidders differ
by a little).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from atout.core.engine import Deal
from atout.core.engine import Engine
from atout.core.engine import Match
from atout.core.errors import UnknownNameError
from atout.core.model import Action
from atout.core.model import DealScore
from atout.core.model import MatchResult
from atout.core.model import Rules
from atout.core.state import BIDDING
from atout.core.state import REDEAL

from ..search.stats import normal_interval
from ..search.stats import percentile
from .mixed import make_bot
from .mixed import parse_spec

SEED_STRIDE = 1_000_003


@dataclass
class PairResult:
    """One deal played twice: the team scores of each play and the bots' think times."""

    index: int
    scores: tuple[tuple[int, ...], tuple[int, ...]]
    """The deal's score per team, first with A on team 0, then with A on team 1 (empty
    when the pair was not played)."""
    deal_scores: tuple[DealScore, DealScore] | None
    """The two plays' deal scores (``None`` when the pair was not played)."""
    times: dict[str, list[float]] = field(default_factory=dict)
    """Seconds per decision, by bot name."""

    @property
    def played(self) -> bool:
        """``False`` for a pair of a bidding-only match whose two seatings bid alike: a
        tie, not played out."""
        return self.deal_scores is not None

    @property
    def diff(self) -> float:
        """A minus B, averaged over the two plays (0 for a pair not played)."""
        if not self.played:
            return 0.0
        first, second = self.scores
        return ((first[0] - first[1]) + (second[1] - second[0])) / 2


@dataclass
class DuplicateResult:
    """The summary of a duplicate match (the benchmark's ``duplicate`` entries)."""

    game: str
    a: str
    b: str
    deals: int
    mean: float
    ci95_low: float
    ci95_high: float
    deals_won: int
    deals_lost: int
    deals_tied: int
    matches_won: int
    matches_lost: int
    matches_drawn: int
    seconds: float
    decision_ms_p95: dict[str, float] = field(default_factory=dict)
    pack: str = ""
    """The pack the rules came from (``""``: the game's default rules)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Every rule option's value in the match: the run can be repeated from it."""
    bidding_only: bool = False
    """Whether pairs that bid alike in both seatings were scored 0 unplayed."""
    deals_played: int = 0
    """The pairs played out (all of them unless ``bidding_only``); the matches are
    counted over these."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = asdict(self)
        out["mean"] = round(self.mean, 2)
        out["ci95_low"] = round(self.ci95_low, 2)
        out["ci95_high"] = round(self.ci95_high, 2)
        out["seconds"] = round(self.seconds, 1)
        return out


def seats_of(engine: Engine, game: str, team: int) -> list[int]:
    """The seats of ``team`` in ``game`` (a seat's team is ``seat % teams``)."""
    info = engine.game(game)
    return [s for s in range(info.seats) if s % info.teams == team]


def _chooser(
    match: Match,
    bots: Sequence[Any],
    names: Sequence[str],
    times: dict[str, list[float]] | None,
) -> Callable[[Deal], Action]:
    """The seat to act's bot's action for its view (with the match's scores), its
    think time recorded by bot name."""
    clock = time.perf_counter

    def choose(deal: Deal) -> Action:
        seat = deal.turn
        view = deal.view(seat, scores=tuple(match.scores))
        start = clock()
        action: Action = bots[seat].choose(view)
        if times is not None:
            times.setdefault(names[seat], []).append(clock() - start)
        return action

    return choose


def bid_deal(match: Match, choose: Callable[[Deal], Action]) -> tuple[Deal, tuple[Any, ...]]:
    """Deal and bid until a deal leaves the bidding (a pass-out is redealt, as
    :meth:`Match.play_deal` does): that deal, and the auction that led to it (every
    bidding action with its seat, in order, :data:`REDEAL` between deals)."""
    auction: list[Any] = []
    while True:
        deal = match.next_deal()
        while not deal.is_over and deal.state.phase == BIDDING:
            seat = deal.turn
            action = choose(deal)
            auction.append((seat, action))
            deal.apply(action)
        if not deal.is_over:
            return deal, tuple(auction)
        match.end_deal(deal)
        if deal.state.phase != REDEAL:
            return deal, tuple(auction)
        auction.append(REDEAL)


def finish_deal(match: Match, deal: Deal, choose: Callable[[Deal], Action]) -> Deal:
    """Play ``deal`` (and any redeal after it) to its end; the deal that scored."""
    if deal.is_over:
        return deal
    while not deal.is_over:
        deal.apply(choose(deal))
    match.end_deal(deal)
    if deal.state.phase == REDEAL:
        return match.play_deal(choose)
    return deal


def same_player(a: str, b: str) -> bool:
    """Whether the bot specs ``a`` and ``b`` play the cards with the same bot (they
    may bid differently): what a bidding-only match needs."""
    return parse_spec(a)[0] == parse_spec(b)[0]


def play_pair(
    engine: Engine,
    game: str,
    rules: Rules,
    a: str,
    b: str,
    index: int,
    seed: int = 0,
    think: float = 0.0,
    bidding_only: bool = False,
) -> PairResult:
    """Deal ``index`` of the run, played with A on team 0 and then with A on team 1.

    ``bidding_only``: both seatings are bid first; when their auctions are the same the
    pair is a tie, not played (see the module's text)."""
    info = engine.game(game)
    deal_seed = seed * SEED_STRIDE + index
    times: dict[str, list[float]] = {}
    seatings = []
    for a_team in (0, 1):
        names = [a if s % info.teams == a_team else b for s in range(info.seats)]
        bots = [
            make_bot(engine, name, game, rules, seed=deal_seed * 8 + s + 4 * a_team, think=think)
            for s, name in enumerate(names)
        ]
        match = Match(engine, game, rules, seed=deal_seed)
        choose = _chooser(match, bots, names, times)
        deal, auction = bid_deal(match, choose)
        seatings.append((match, deal, choose, auction))
    if bidding_only and seatings[0][3] == seatings[1][3]:
        return PairResult(index, ((), ()), None, times)
    scores: list[tuple[int, ...]] = []
    results: list[DealScore] = []
    for match, deal, choose, _ in seatings:
        deal = finish_deal(match, deal, choose)
        assert deal.score is not None
        scores.append(tuple(deal.score.score))
        results.append(deal.score)
    return PairResult(index, (scores[0], scores[1]), (results[0], results[1]), times)


# --- running many pairs, in several processes if asked ----------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(plugins: Sequence[str], disable: Sequence[str]) -> None:
    from atout.core import make_plugin_manager

    _WORKER["engine"] = Engine(make_plugin_manager(plugins=plugins, disable=disable))


_Job = tuple[str, dict[str, Any], str, str, str, int, int, float, bool]
"""What a worker receives for one pair: the game, the rules' values and pack name, the
two bots, the pair's index, the run's seed, the bots' time budget and whether the match
is bidding-only."""


def _worker_pair(job: _Job) -> PairResult:
    """Play one pair in a worker, under the caller's rules rebuilt by the worker's own
    engine (an option that no plugin of the worker knows fails here, by name)."""
    game, values, pack, a, b, index, seed, think, bidding_only = job
    engine: Engine = _WORKER["engine"]
    rules = engine.make_rules(game, values, pack)
    return play_pair(engine, game, rules, a, b, index, seed, think, bidding_only)


def run_pairs(
    engine: Engine,
    game: str,
    rules: Rules,
    a: str,
    b: str,
    deals: int,
    seed: int = 0,
    think: float = 0.0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    plugins: Sequence[str] = (),
    disable: Sequence[str] = (),
    bidding_only: bool = False,
) -> list[PairResult]:
    """Play ``deals`` pairs (in ``jobs`` processes when more than one), in index order.

    ``progress(done)`` is called after each pair.  Worker processes build their own
    engine with the same ``plugins`` and ``disable`` lists as the caller's (give the
    caller's, so that a rule plugin's options and contracts exist there too) and play
    under ``rules``: its values and pack name reach every worker.  ``bidding_only``
    needs A and B to play the cards with the same bot (:func:`same_player`).
    """
    for name in (a, b):
        make_bot(engine, name, game, rules)  # an unknown bot fails here, with the known names
    if bidding_only and not same_player(a, b):
        raise UnknownNameError(
            f"bidding only: {a!r} plays the cards as {parse_spec(a)[0]!r} and {b!r} as "
            f"{parse_spec(b)[0]!r}; the two bots must play alike and differ only in their "
            "bidding, e.g. expert,expert+greedy-bids"
        )
    if jobs <= 1 or deals < 2:
        out = []
        for i in range(deals):
            out.append(play_pair(engine, game, rules, a, b, i, seed, think, bidding_only))
            if progress:
                progress(i + 1)
        return out
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    values = rules.to_dict()
    jobs_list: list[_Job] = [
        (game, values, rules.pack, a, b, i, seed, think, bidding_only) for i in range(deals)
    ]
    results: list[PairResult] = []
    with ctx.Pool(jobs, initializer=_init_worker, initargs=(list(plugins), list(disable))) as pool:
        for done, res in enumerate(pool.imap_unordered(_worker_pair, jobs_list), start=1):
            results.append(res)
            if progress:
                progress(done)
    results.sort(key=lambda r: r.index)
    return results


def count_matches(
    engine: Engine, game: str, rules: Rules, seating: Iterable[DealScore]
) -> list[MatchResult]:
    """The matches that ``seating``'s deal scores, taken in order, make: the running
    totals are handed to the game's ``atout_match_over`` rule after every deal, and a
    new match starts when one ends.  An unfinished last match is not counted."""
    info = engine.game(game)
    out: list[MatchResult] = []
    scores = [0] * info.teams
    history: list[DealScore] = []
    for score in seating:
        history.append(score)
        for t, p in enumerate(score.score):
            scores[t] += p
        result = engine.hooks.match_over(
            game=game, rules=rules, scores=tuple(scores), history=history
        )
        if result is not None:
            out.append(result)
            scores = [0] * info.teams
            history = []
    return out


def summarize(
    engine: Engine,
    game: str,
    rules: Rules,
    a: str,
    b: str,
    pairs: Sequence[PairResult],
    seconds: float,
    bidding_only: bool = False,
) -> DuplicateResult:
    """The :class:`DuplicateResult` of finished pairs (the matches counted over the
    pairs played)."""
    diffs = [p.diff for p in pairs]
    mean, low, high = normal_interval(diffs)
    won = sum(1 for d in diffs if d > 0)
    lost = sum(1 for d in diffs if d < 0)
    m_won = m_lost = m_drawn = 0
    for a_team in (0, 1):
        seating = (p.deal_scores[a_team] for p in pairs if p.deal_scores is not None)
        for result in count_matches(engine, game, rules, seating):
            if result.winner is None:
                m_drawn += 1
            elif result.winner == a_team:
                m_won += 1
            else:
                m_lost += 1
    times: dict[str, list[float]] = {}
    for p in pairs:
        for name, ts in p.times.items():
            times.setdefault(name, []).extend(ts)
    p95 = {name: round(percentile(ts, 95) * 1000, 2) for name, ts in times.items() if ts}
    return DuplicateResult(
        game,
        a,
        b,
        len(pairs),
        mean,
        low,
        high,
        won,
        lost,
        len(pairs) - won - lost,
        m_won,
        m_lost,
        m_drawn,
        seconds,
        p95,
        rules.pack,
        rules.to_dict(),
        bidding_only,
        sum(1 for p in pairs if p.played),
    )


def run_duplicate(
    engine: Engine,
    game: str,
    a: str,
    b: str,
    deals: int,
    rules: Rules | None = None,
    seed: int = 0,
    think: float = 0.0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    plugins: Sequence[str] = (),
    disable: Sequence[str] = (),
    bidding_only: bool = False,
) -> DuplicateResult:
    """A duplicate match of bot ``a`` against bot ``b`` over ``deals`` deal pairs, under
    ``rules`` (default: the game's default rules; a pack's rules play its house rules).

    With ``jobs`` above one the pairs are played in worker processes: give ``plugins``
    and ``disable`` as ``engine`` was built, so that the rule plugins the rules need
    (their options, their contracts) are loaded there too.  ``bidding_only``: a pair
    whose seatings bid alike is a tie, not played (A and B must play alike; see the
    module's text).
    """
    rules = rules if rules is not None else engine.default_rules(game)
    start = time.perf_counter()
    pairs = run_pairs(
        engine,
        game,
        rules,
        a,
        b,
        deals,
        seed,
        think,
        jobs,
        progress,
        plugins,
        disable,
        bidding_only,
    )
    return summarize(engine, game, rules, a, b, pairs, time.perf_counter() - start, bidding_only)
