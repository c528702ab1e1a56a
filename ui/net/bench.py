"""The table server's figures for ``atout bench``: actions a second and their delay.

One server (``atout serve``, started here, with its default number of worker processes
or ``--server-workers``) holds many tables; every seat of
every table is a bot client in this process, connected through a real socket, playing a
random legal action as soon as the server gives it the turn.  ``server_actions_per_s``
is the number of actions the server took (checked by the engine, saved to disk, sent to
every seat of the table) per second of wall-clock time; ``server_action_p95_ms`` the 95th
percentile of the delay between a client sending its action and receiving the server's
answer to it.  In that first window every client acts the moment it gets the turn, so
every table always has one action in flight: the delay is the number of tables divided
by the rate (Little's law: 200 tables at 2,000 actions a second wait 100 ms on average),
whatever the server does.  A second window therefore offers the tables a set rate
(:data:`PACED_RATE` in all, each table's actions spaced evenly) and measures the delay
at that rate: ``server_paced_p95_ms`` (and ``server_paced_actions_per_s``, the rate
reached).  ``server_cpu_ms_per_action`` is the server process's CPU time per action
(all its threads, and its worker processes' when it runs several) and
``server_clients_cpu_ms_per_action`` the bot clients' (this
process): what one action costs, whatever else runs on the machine.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable
from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any

from atout.core import Engine
from atout.core.errors import AtoutError

from .botclient import Picker
from .botclient import SeatRun
from .botclient import create
from .botclient import play_seat
from .runner import tune_gc
from .server import MAX_TABLES

if TYPE_CHECKING:
    from atout.ui.commands.bench_measures import BenchContext


def random_picker(seed: int) -> Picker:
    """A random legal action read from a view's wire form, as the server listed them
    (the bench's clients cost what a client must: no :class:`View` is built)."""
    rng = random.Random(seed)

    def pick(view: dict[str, Any]) -> dict[str, Any]:
        actions: list[dict[str, Any]] = [{"kind": "bid", "bid": b} for b in view["legal_bids"]]
        actions += [{"kind": "play", "card": c} for c in view["legal"]]
        if view["can_claim"]:
            actions.append({"kind": "claim"})
        return rng.choice(actions)

    return pick


LONG_MATCH = 100_000
"""The bench's matches are played to this many points: none ends within its windows."""

PACED_RATE = 2000.0
"""Actions a second the tables are offered in all in the paced window."""


class Pacer:
    """Spaces each table's actions: one is sent no sooner than :attr:`interval` seconds
    after the table's previous one (0: at once)."""

    def __init__(self) -> None:
        self.interval = 0.0
        self._next: dict[str, float] = {}

    def for_table(self, table: str) -> Callable[[], Awaitable[None]]:
        async def wait() -> None:
            if self.interval <= 0.0:
                return
            now = asyncio.get_running_loop().time()
            at = self._next.get(table, now)
            if at > now:
                await asyncio.sleep(at - now)
            self._next[table] = max(at, now) + self.interval

        return wait


async def _run_tables(
    url: str, engine: Engine, tables: int, seconds: float, server_cpu: Callable[[], float]
) -> dict[str, Any]:
    games: tuple[str, ...] = tuple(g for g in ("belote", "decouverte") if g in engine.games)
    games = games or tuple(engine.games)
    made = []
    for i in range(tables):
        game = games[i % len(games)]
        rules = (
            engine.make_rules(game, {"target": LONG_MATCH})
            if "target" in engine.rule_options(game)
            else engine.default_rules(game)
        )
        made.append((rules, await create(url, rules, seed=i + 1)))
    go = asyncio.Event()
    joined: set[tuple[str, int]] = set()
    seated = sum(len(answer["tokens"]) for _, answer in made)

    def seen(key: tuple[str, int]) -> Any:
        def on_frame(msg: dict[str, Any], text: str) -> None:
            if msg.get("type") == "update":
                joined.add(key)

        return on_frame

    records = [SeatRun() for _, answer in made for _ in answer["tokens"]]
    pacer = Pacer()
    runs = [
        asyncio.create_task(
            play_seat(
                url,
                answer["table"],
                token,
                rules,
                None,
                on_frame=seen((answer["table"], s)),
                pick=random_picker(i * 10 + s),
                pace=pacer.for_table(answer["table"]),
                deadline=2 * seconds + 120.0,
                go=go,
                run=records[k],
            )
        )
        for k, (i, s, rules, answer, token) in enumerate(
            (i, s, rules, answer, token)
            for i, (rules, answer) in enumerate(made)
            for s, token in enumerate(answer["tokens"])
        )
    ]
    for _ in range(1200):  # every client connected and seated (at most a minute)
        if len(joined) >= seated:
            break
        await asyncio.sleep(0.05)
    cpu = server_cpu()
    own = time.process_time()
    started = time.perf_counter()
    go.set()
    await asyncio.sleep(seconds)  # the window: every action answered within it counts
    elapsed = time.perf_counter() - started
    used = server_cpu() - cpu
    clients_used = time.process_time() - own
    latencies = sorted(ms for r in records for ms in r.latencies_ms)
    # the paced window: the same tables, each offered PACED_RATE / tables actions a second
    pacer.interval = tables / PACED_RATE
    await asyncio.sleep(min(1.0, seconds))  # the actions in flight are answered
    marks = [len(r.latencies_ms) for r in records]
    paced_started = time.perf_counter()
    await asyncio.sleep(seconds)
    paced_elapsed = time.perf_counter() - paced_started
    paced = sorted(ms for r, m in zip(records, marks, strict=True) for ms in r.latencies_ms[m:])
    for task in runs:
        task.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    if not latencies or not paced:
        raise AtoutError("the server bench took no action")
    return {
        "server_actions_per_s": round(len(latencies) / elapsed, 1),
        "server_action_p95_ms": round(_p95(latencies), 2),
        "server_action_median_ms": round(latencies[len(latencies) // 2], 2),
        "server_tables": tables,
        "server_clients": len(runs),
        "server_cpu_ms_per_action": round(used * 1000.0 / len(latencies), 3),
        "server_clients_cpu_ms_per_action": round(clients_used * 1000.0 / len(latencies), 3),
        "server_paced_rate": PACED_RATE,
        "server_paced_actions_per_s": round(len(paced) / paced_elapsed, 1),
        "server_paced_p95_ms": round(_p95(paced), 2),
        "server_paced_median_ms": round(paced[len(paced) // 2], 2),
    }


def _p95(sorted_ms: list[float]) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(0.95 * len(sorted_ms)))]


def process_cpu(pid: int) -> float:
    """The CPU seconds process ``pid`` has used (every thread), 0.0 where ``/proc`` is
    not there to tell."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a server's workers), read from ``/proc``."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        if len(fields) > 1 and fields[1] == str(pid):
            found.append(int(entry))
    return found


def server_cpu(pid: int) -> float:
    """The CPU seconds a server has used: its process's and its workers'."""
    return process_cpu(pid) + sum(process_cpu(child) for child in children_of(pid))


def measure_server(ctx: BenchContext) -> dict[str, Any]:
    """200 tables (half four-player, half Découverte) of bot clients on one server
    process for 10 seconds as fast as they go, then 10 seconds paced (``--quick``: 10
    tables, 1.5 seconds each)."""
    tables = ctx.size(200, 10)
    seconds = ctx.size(10.0, 1.5)
    with tempfile.TemporaryDirectory(prefix="atout-bench-") as data:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "atout.ui.cli",
                "serve",
                "--port",
                "0",
                "--data",
                data,
                "--per-address",  # every table's clients are here, at one address
                str(MAX_TABLES),  # as many as any worker may hold: the bench measures speed
                *(["--workers", str(ctx.server_workers)] if ctx.server_workers else []),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if "listening on" not in line:
                raise AtoutError("the table server did not start for the bench")
            port = int(line.split("listening on ", 1)[1].split(",", 1)[0].rsplit(":", 1)[1])
            url = f"ws://127.0.0.1:{port}"
            # the clients stand for many processes, which would not pause together
            thresholds = gc.get_threshold()
            tune_gc()
            try:
                figures = asyncio.run(
                    _run_tables(url, ctx.engine, tables, seconds, lambda: server_cpu(proc.pid))
                )
                figures["server_workers"] = len(children_of(proc.pid)) or 1
                return figures
            finally:
                gc.unfreeze()
                gc.set_threshold(*thresholds)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
            if proc.stdout is not None:
                proc.stdout.close()
