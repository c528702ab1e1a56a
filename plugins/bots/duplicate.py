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

**Where the pairs are played.** In this process, in ``jobs`` local processes, or on the
workers of a Dask scheduler (:class:`Cluster`, atout's ``cluster`` extra), by one runner
(:func:`play_jobs`) on a ``concurrent.futures`` executor: every pair carries its rules,
seeds and plugin lists, so the results are the same wherever it is played, and a pair
lost with its worker is played again or named, never dropped.  Dask is imported only
when a cluster is asked for.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import BrokenExecutor
from concurrent.futures import CancelledError
from concurrent.futures import Executor
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait
from contextlib import AbstractContextManager
from contextlib import contextmanager
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import TypedDict
from typing import Unpack

from atout.core.engine import Deal
from atout.core.engine import Engine
from atout.core.engine import Match
from atout.core.errors import AtoutError
from atout.core.errors import UnknownNameError
from atout.core.limits import LimitError
from atout.core.limits import check_host
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


def seated_margin(first: Sequence[int], second: Sequence[int]) -> float:
    """A's margin over one deal played twice: the team scores ``first`` with A on team 0
    and ``second`` with A on team 1, A's team minus the other, averaged over the two."""
    return ((first[0] - first[1]) + (second[1] - second[0])) / 2


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
        return seated_margin(*self.scores)


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


def play_pair(engine: Engine, rules: Rules, job: PairJob) -> PairResult:
    """The pair ``job`` describes under ``rules`` (the job's, as ``engine`` builds them):
    deal ``job.index`` of the run, played with A on team 0 and then with A on team 1.

    ``job.bidding_only``: both seatings are bid first; when their auctions are the same
    the pair is a tie, not played (see the module's text)."""
    game = job.game
    info = engine.game(game)
    deal_seed = job.seed * SEED_STRIDE + job.index
    times: dict[str, list[float]] = {}
    seatings = []
    for a_team in (0, 1):
        names = [job.a if s % info.teams == a_team else job.b for s in range(info.seats)]
        bots = [
            make_bot(
                engine, name, game, rules, seed=deal_seed * 8 + s + 4 * a_team, think=job.think
            )
            for s, name in enumerate(names)
        ]
        match = Match(engine, game, rules, seed=deal_seed)
        choose = _chooser(match, bots, names, times)
        deal, auction = bid_deal(match, choose)
        seatings.append((match, deal, choose, auction))
    if job.bidding_only and seatings[0][3] == seatings[1][3]:
        return PairResult(job.index, ((), ()), None, times)
    scores: list[tuple[int, ...]] = []
    results: list[DealScore] = []
    for match, deal, choose, _ in seatings:
        deal = finish_deal(match, deal, choose)
        assert deal.score is not None
        scores.append(tuple(deal.score.score))
        results.append(deal.score)
    return PairResult(job.index, (scores[0], scores[1]), (results[0], results[1]), times)


# --- running many pairs, in local processes or on a Dask cluster -----------------------
#
# The pairs go to a ``concurrent.futures`` executor: a ProcessPoolExecutor on this
# machine, or the executor of a Dask distributed client (``pip install atout[cluster]``)
# whose workers run on other machines.  The runner below is the same for both: a job
# carries everything a worker needs (the rules' values, and the plugin lists it builds
# its engine with), results come back in any order and are put in index order.


class ClusterError(AtoutError):
    """The pairs cannot be played where asked: no scheduler at the address, the extra
    not installed, workers of another atout version, or pairs lost with their workers."""


DEFAULT_SCHEDULER_PORT = 8786
"""The port ``dask scheduler`` listens on unless told otherwise."""
SCHEDULER_SCHEMES = ("tcp", "tls")
"""The schemes an address of a scheduler may start with (``tcp://`` when none)."""
LOST_TRIES = 3
"""How many times a pair may be lost with a dying local worker process before the run
stops and names it (a Dask scheduler retries on its own, see ``allowed-failures``)."""


@dataclass(frozen=True)
class Cluster:
    """Where to play the pairs instead of local processes: a Dask scheduler.

    ``address`` is handed to Dask as it is (:func:`parse_scheduler` checks what a person
    typed; an in-process cluster's ``inproc://`` address works too).

    ``timeout``: seconds to reach the scheduler; ``worker_wait``: seconds for a first
    worker to join it (the run stops with a clear message past either).
    """

    address: str
    timeout: float = 10.0
    worker_wait: float = 60.0


def parse_scheduler(text: str) -> str:
    """The address of a Dask scheduler, ``[tcp://|tls://]HOST[:PORT]`` (port
    :data:`DEFAULT_SCHEDULER_PORT` when none), written out in full (``tcp://HOST:PORT``);
    anything else is a :class:`ClusterError` that says what is allowed."""
    allowed = (
        f"give the address `dask scheduler` prints: [tcp://|tls://]HOST[:PORT], e.g. "
        f"tcp://192.168.1.5:{DEFAULT_SCHEDULER_PORT} (port {DEFAULT_SCHEDULER_PORT} when "
        "none, an IPv6 address in brackets)"
    )
    scheme, sep, rest = text.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", scheme
    where, colon, port = rest.rpartition(":")
    if not colon or "]" in port:  # no port, or the end of a bracketed IPv6 address
        where, port = rest, str(DEFAULT_SCHEDULER_PORT)
    bracketed = where.startswith("[") and where.endswith("]")
    host = where[1:-1] if bracketed else where
    try:
        check_host(host)
    except LimitError as exc:
        raise ClusterError(f"scheduler {text!r:.80}: {exc}; {allowed}") from None
    if (
        (":" in host and not bracketed)
        or scheme not in SCHEDULER_SCHEMES
        or not port.isdigit()
        or not 0 < int(port) < 65536
    ):
        raise ClusterError(f"scheduler {text!r:.80}: {allowed}")
    return f"{scheme}://{where}:{int(port)}"


@dataclass(frozen=True)
class PairJob:
    """What a worker receives for one pair: everything :func:`play_pair` needs, the
    rules as their values and pack name (rebuilt by the worker's engine), the plugins
    that engine loads and disables, and the caller's version of atout."""

    game: str
    values: dict[str, Any]
    pack: str
    a: str
    b: str
    index: int
    seed: int
    think: float
    bidding_only: bool
    plugins: tuple[str, ...]
    disable: tuple[str, ...]
    atout: str
    """The caller's atout version: a worker of another one refuses the pair."""


@functools.cache
def atout_version() -> str:
    """The version of atout installed here (looked up once: a few milliseconds)."""
    from importlib.metadata import version

    return version("atout")


_ENGINES = threading.local()
"""A worker's engines by plugin lists, one set per thread (a Dask worker may run pairs
in several threads)."""


def worker_engine(plugins: Sequence[str], disable: Sequence[str]) -> Engine:
    """The engine of this worker for these plugin lists, built on first use."""
    from atout.core import make_plugin_manager

    engines: dict[tuple[tuple[str, ...], tuple[str, ...]], Engine] | None = getattr(
        _ENGINES, "engines", None
    )
    if engines is None:
        engines = _ENGINES.engines = {}
    key = (tuple(plugins), tuple(disable))
    if key not in engines:
        engines[key] = Engine(make_plugin_manager(plugins=plugins, disable=disable))
    return engines[key]


def _worker_pair(job: PairJob) -> PairResult:
    """Play one pair in a worker, under the caller's rules rebuilt by the worker's own
    engine (an option that no plugin of the worker knows fails here, by name).  A
    worker of another atout version than the caller's refuses it (a worker may join a
    cluster after the run started, past :func:`_check_versions`)."""
    here = atout_version()
    if here != job.atout:
        raise ClusterError(
            f"the worker on {socket.gethostname()} has atout {here}, this run atout "
            f"{job.atout}; install atout {job.atout} on every worker's machine"
        )
    engine = worker_engine(job.plugins, job.disable)
    rules = engine.make_rules(job.game, job.values, job.pack)
    return play_pair(engine, rules, job)


WORKERS_LOOKED_UP = 5.0
"""Seconds between two looks at how many threads a cluster's workers have (workers may
join while the pairs are played: they get pairs as soon as they are seen)."""


@dataclass(frozen=True)
class Pool:
    """An open executor of pairs, as :func:`play_jobs` uses it."""

    executor: Executor
    capacity: Callable[[], int]
    """How many pairs its workers play at once (asked again as pairs come back: a
    cluster's workers may come and go)."""
    lost: tuple[type[BaseException], ...]
    """The exceptions that say a pair was lost with its worker, not failed by itself."""
    gone: Callable[[], bool] = lambda: False
    """Whether the executor's scheduler has stopped: then whatever a pair's future
    raises (Dask's executor may fail its own bookkeeping while it stops) says the pair
    was cancelled, not that the pair failed."""


@contextmanager
def _local_executor(jobs: int) -> Iterator[Pool]:
    """``jobs`` worker processes on this machine (forked where the system can: nothing
    imported again)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with ProcessPoolExecutor(jobs, mp_context=ctx) as executor:
        yield Pool(executor, lambda: jobs, (BrokenExecutor,))


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's own log lines and those of its network library, tornado (a worker lost, a
    reconnection given up, with tracebacks) kept off the screen while the pairs are played: what they mean reaches the person
    as one message of this module.  The loggers' levels are put back afterwards."""
    names = [
        n
        for n in ["distributed", "tornado", *logging.root.manager.loggerDict]
        if n.split(".")[0] in ("distributed", "tornado")
    ]
    loggers = [logging.getLogger(n) for n in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


@contextmanager
def _cluster_executor(cluster: Cluster) -> Iterator[Pool]:
    """The executor of a Dask client connected to ``cluster`` and the threads of its
    workers; the client is closed on the way out."""
    address = cluster.address
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            f"scheduler {address}: playing the pairs on a Dask cluster needs atout's cluster "
            "extra: pip install atout[cluster]"
        ) from None
    with _dask_quiet():
        yield from _connected(distributed, cluster)


def _connected(dask: Any, cluster: Cluster) -> Iterator[Pool]:
    """The body of :func:`_cluster_executor` (``dask``: the ``distributed`` module,
    untyped): connect, wait for a worker, check the versions, hand out the executor,
    close the client."""
    address = cluster.address
    try:
        client = dask.Client(address, timeout=cluster.timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError):
        raise ClusterError(
            f"scheduler {address}: no Dask scheduler answered within {cluster.timeout:g} s; "
            "start one with `dask scheduler` and give the address it prints, "
            f"[tcp://|tls://]HOST[:PORT] (port {DEFAULT_SCHEDULER_PORT} when none)"
        ) from None
    try:
        try:
            client.wait_for_workers(1, timeout=cluster.worker_wait)
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"scheduler {address}: no worker joined it within {cluster.worker_wait:g} s; "
                f"start workers on the other machines with `dask worker {address}`"
            ) from exc
        watch = WorkerWatch(client, address)
        with client.get_executor(pure=False) as executor:
            yield Pool(
                executor,
                watch.threads,
                (dask.KilledWorker,),
                lambda: client.status != "running",
            )
    finally:
        client.close()


class WorkerWatch:
    """The workers of a cluster, looked at again every :data:`WORKERS_LOOKED_UP`
    seconds while the pairs are played: how many threads they have (a worker that
    joins gets pairs), and each new worker's atout checked before it gets many (one
    without atout could not even read a pair: Dask would wait for it for ever)."""

    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address
        self.known: set[str] = set()
        self.count = 0
        self.looked = 0.0
        self.look()

    def look(self) -> None:
        """Count the threads and check the workers not seen before."""
        nthreads: dict[str, int] = self.client.nthreads()
        new = sorted(set(nthreads) - self.known)
        if new:
            _check_versions(self.client, self.address, new)
            self.known.update(new)
        self.count = sum(nthreads.values())
        self.looked = time.monotonic()

    def threads(self) -> int:
        """How many pairs the workers play at once (looked at again when it is time)."""
        if time.monotonic() - self.looked > WORKERS_LOOKED_UP:
            self.look()
        return self.count


def _check_versions(client: Any, address: str, workers: Sequence[str] | None = None) -> None:
    """Stop with one message when a worker (of ``workers``, default all) has no atout or
    another version than this machine's: its pairs would fail, or be played by other
    rules or bots."""
    from importlib.metadata import version

    here = atout_version()
    there: dict[str, Any] = client.run(
        version, "atout", workers=list(workers) if workers else None, on_error="return"
    )
    other = {w: v for w, v in there.items() if v != here}
    if other:
        worker, found = sorted(other.items())[0]
        what = f"atout {found}" if isinstance(found, str) else "no atout"
        raise ClusterError(
            f"scheduler {address}: worker {worker} has {what}, this machine atout {here}; "
            f"install atout {here} on every worker's machine"
        )


def play_jobs(
    pools: Callable[[], AbstractContextManager[Pool]],
    jobs: Sequence[PairJob],
    progress: Callable[[int], None] | None = None,
    where: str = "worker processes",
) -> list[PairResult]:
    """Play every job on the pool that ``pools()`` opens, a few per worker in flight, ``progress(done)`` after each, and return the
    results in index order.

    A pair lost with its worker is never dropped.  When a local process dies its pool
    breaks, every pair in flight with it: a fresh pool plays those pairs again one at a
    time, so that a pair that kills its worker is known, and one lost so
    :data:`LOST_TRIES` times stops the run with a :class:`ClusterError` naming it.  A
    Dask scheduler plays a lost pair again on another worker by itself; a pair it gives
    up on (``KilledWorker``) stops the run the same way.  An error of a pair itself (a
    rule, a plugin) is raised as it is.  The run returns every pair or raises.
    """
    todo = {job.index: job for job in jobs}
    results: dict[int, PairResult] = {}
    lost: dict[int, int] = {}
    suspects: set[int] = set()
    while todo:
        with pools() as pool:
            queue = deque(sorted(suspects & todo.keys()))
            queue.extend(sorted(todo.keys() - suspects))
            flying: dict[Future[PairResult], int] = {}
            broken = False
            try:
                while (queue or flying) and not broken:
                    room = 1 if suspects & todo.keys() else 4 * max(1, pool.capacity())
                    while queue and len(flying) < room:
                        index = queue.popleft()
                        flying[pool.executor.submit(_worker_pair, todo[index])] = index
                    done, _pending = wait(flying, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=flying.__getitem__):
                        index = flying[future]
                        try:
                            result = future.result()
                        except pool.lost as exc:
                            if not isinstance(exc, BrokenExecutor):
                                lost[index] = LOST_TRIES  # the scheduler has retried it
                            elif len(flying) == 1:
                                lost[index] = lost.get(index, 0) + 1
                            else:
                                suspects.update(flying.values())
                            broken = True
                            break
                        except ImportError as exc:  # a module a worker does not have
                            raise ClusterError(
                                f"the {where} cannot load what pair {index} needs: {exc}; "
                                f"install atout {todo[index].atout} and what the run's plugins "
                                "need on every machine that plays pairs"
                            ) from None
                        except Exception as exc:
                            if not isinstance(exc, CancelledError) and not pool.gone():
                                raise  # the pair's own error: a rule, a plugin
                            raise ClusterError(
                                f"the {where} cancelled pair {index} after {len(results)} of "
                                f"{len(jobs)} pairs (the scheduler stopped, or this machine "
                                "lost it); run again"
                            ) from None
                        del flying[future]
                        results[index] = result
                        del todo[index]
                        suspects.discard(index)
                        if progress:
                            progress(len(results))
            finally:
                for future in flying:
                    future.cancel()
        given_up = sorted(i for i, n in lost.items() if n >= LOST_TRIES and i in todo)
        if given_up:
            raise ClusterError(
                f"pair {given_up[0]} was lost with the {where} that played it "
                f"{lost[given_up[0]]} time(s): a worker died while playing it (out of memory, "
                f"killed, or a plugin that crashes); {len(results)} of {len(jobs)} pairs "
                "played, none counted; see the workers' logs"
            )
    return [results[job.index] for job in sorted(jobs, key=lambda j: j.index)]


class PairOptions(TypedDict, total=False):
    """The options of :func:`run_pairs` (and of :func:`run_duplicate`, which passes them
    on), each by keyword; left out, each has the default written beside it."""

    seed: int
    """The deals' seed (0)."""
    think: float
    """The bots' time budget of a decision in seconds (0: each bot's default)."""
    jobs: int
    """How many worker processes play the pairs (1: this process)."""
    progress: Callable[[int], None] | None
    """Called with the number of pairs played after each pair (``None``)."""
    plugins: Sequence[str]
    """The plugins the workers load beside the installed ones (none)."""
    disable: Sequence[str]
    """The plugins the workers leave out (none)."""
    bidding_only: bool
    """Whether a pair whose seatings bid alike is a tie, not played (``False``)."""
    cluster: Cluster | None
    """The Dask cluster whose workers play the pairs (``None``: this machine)."""


def run_pairs(
    engine: Engine,
    game: str,
    rules: Rules,
    a: str,
    b: str,
    deals: int,
    **options: Unpack[PairOptions],
) -> list[PairResult]:
    """Play ``deals`` pairs (in ``jobs`` processes when more than one, or on the Dask
    ``cluster`` when given), in index order; ``options`` are :class:`PairOptions`.

    ``progress(done)`` is called after each pair.  Workers build their own engine with
    the same ``plugins`` and ``disable`` lists as the caller's (give the caller's, so
    that a rule plugin's options and contracts exist there too; on a cluster a plugin
    named by its file must be at that path on the workers' machines too) and play under
    ``rules``: its values and pack name reach every worker.  The results are the same
    wherever the pairs are played.  ``bidding_only`` needs A and B to play the cards
    with the same bot (:func:`same_player`).
    """
    seed = options.get("seed", 0)
    think = options.get("think", 0.0)
    jobs = options.get("jobs", 1)
    progress = options.get("progress")
    plugins = options.get("plugins", ())
    disable = options.get("disable", ())
    bidding_only = options.get("bidding_only", False)
    cluster = options.get("cluster")
    for name in (a, b):
        make_bot(engine, name, game, rules)  # an unknown bot fails here, with the known names
    if bidding_only and not same_player(a, b):
        raise UnknownNameError(
            f"bidding only: {a!r} plays the cards as {parse_spec(a)[0]!r} and {b!r} as "
            f"{parse_spec(b)[0]!r}; the two bots must play alike and differ only in their "
            "bidding, e.g. expert,expert+greedy-bids"
        )
    values = rules.to_dict()
    lists = (tuple(plugins), tuple(disable), atout_version())
    job_list = [
        PairJob(game, values, rules.pack, a, b, i, seed, think, bidding_only, *lists)
        for i in range(deals)
    ]
    if cluster is None and (jobs <= 1 or deals < 2):
        out = []
        for job in job_list:
            out.append(play_pair(engine, rules, job))
            if progress:
                progress(job.index + 1)
        return out
    if cluster is not None:
        return play_jobs(
            lambda: _cluster_executor(cluster), job_list, progress, f"workers of {cluster.address}"
        )

    return play_jobs(lambda: _local_executor(jobs), job_list, progress)


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
    **options: Unpack[PairOptions],
) -> DuplicateResult:
    """A duplicate match of bot ``a`` against bot ``b`` over ``deals`` deal pairs, under
    ``rules`` (default: the game's default rules; a pack's rules play its house rules):
    the pairs :func:`run_pairs` plays with ``options`` (``seed``, ``think``, ``jobs``,
    ``progress``, ``plugins``, ``disable``, ``bidding_only``, ``cluster``), summarized.

    With ``jobs`` above one the pairs are played in worker processes: give ``plugins``
    and ``disable`` as ``engine`` was built, so that the rule plugins the rules need
    (their options, their contracts) are loaded there too; with ``cluster`` they are
    played by the workers of a Dask scheduler instead, with the same results.
    ``bidding_only``: a pair whose seatings bid alike is a tie, not played (A and B must
    play alike; see the module's text).
    """
    rules = rules if rules is not None else engine.default_rules(game)
    start = time.perf_counter()
    pairs = run_pairs(engine, game, rules, a, b, deals, **options)
    seconds = time.perf_counter() - start
    return summarize(engine, game, rules, a, b, pairs, seconds, options.get("bidding_only", False))
