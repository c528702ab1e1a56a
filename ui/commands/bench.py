"""``atout bench``: the figures that say whether the engine, the solvers and the bots are
fast and strong enough.

Each figure is one :class:`Measure` in :data:`MEASURES`: a name, a title, and a function
that takes a :class:`BenchContext` and returns a dict of keys for the JSON object.  To add
a figure (the UI's ``ui_fps``, say), append a ``Measure`` whose function is a callable or
a ``"module:function"`` text (imported only when the measure runs, so a heavy import
such as arcade costs nothing to the other measures).  The built-in measures and the
context are in :mod:`atout.ui.commands.bench_measures`.

Throughput and solver times are process CPU time (``time.process_time``): they are the
cost on one core, and they stay meaningful when other programs share the machine.  A
bot's decision time is wall-clock time, the delay a player sees.

``atout bench --json`` prints one JSON object; without ``--json`` a progress bar goes to
stderr and a table to stdout.  ``--quick`` is a smoke run (the tests use it);
``--duplicate A,B --deals N`` runs only a duplicate match between two bots (with
``--bidding-only`` when they play alike and bid differently: pairs that bid alike are
ties, unplayed), and
``--pack NAME_OR_FILE`` plays the duplicate matches under a pack's house rules (with
``--plugin`` for a rule plugin that is not installed): the other figures always measure
the default rules, so that they stay comparable from one run to the next.
The bots' figures (decision times, duplicate matches) cover every game of
:data:`~atout.ui.commands.bench_measures.GAMES`, La Coinche and Découverte Coinche too
(``--game coinche``, or a Coinche pack).
``--scheduler ADDRESS`` plays the duplicate pairs on the workers of a Dask scheduler
instead of ``--jobs`` local processes (the ``cluster`` extra; same results, same output).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from atout.core import Engine
from atout.core import Rules
from atout.core.errors import UnknownNameError
from atout.core.text import Message
from atout.plugins.bots.duplicate import Cluster
from atout.plugins.bots.duplicate import ClusterError
from atout.plugins.bots.duplicate import parse_scheduler
from atout.ui import arguments
from atout.ui.commands.bench_measures import GAMES
from atout.ui.commands.bench_measures import BenchContext
from atout.ui.commands.bench_measures import measure_belote_dd
from atout.ui.commands.bench_measures import measure_belote_deals
from atout.ui.commands.bench_measures import measure_bot_decisions
from atout.ui.commands.bench_measures import measure_decouverte_deals
from atout.ui.commands.bench_measures import measure_decouverte_solvers
from atout.ui.commands.bench_measures import measure_duplicates
from atout.ui.i18n import _
from atout.ui.net.tables import MAX_WORKERS
from atout.ui.rules import print_warning
from atout.ui.rules import resolve_rules
from atout.ui.safe_text import printable

# --- the table of measures ----------------------------------------------


@dataclass(frozen=True)
class Measure:
    """One figure of the benchmark: ``run(context)`` returns the JSON keys it sets."""

    name: str
    title: str
    run: Callable[[BenchContext], dict[str, Any]] | str

    def function(self) -> Callable[[BenchContext], dict[str, Any]]:
        """The measuring function (a ``"module:function"`` text is imported now)."""
        if isinstance(self.run, str):
            module, _colon, attr = self.run.partition(":")
            func: Callable[[BenchContext], dict[str, Any]] = getattr(
                importlib.import_module(module), attr
            )
            return func
        return self.run


MEASURES: list[Measure] = [
    Measure("belote_deals", "four-player deals per second", measure_belote_deals),
    Measure("decouverte_deals", "Découverte deals per second", measure_decouverte_deals),
    Measure("decouverte_solvers", "Découverte exact solvers", measure_decouverte_solvers),
    Measure("belote_dd", "four-player double-dummy solves", measure_belote_dd),
    Measure("bot_decisions", "expert decision times", measure_bot_decisions),
    Measure("duplicate", "duplicate matches", measure_duplicates),
    Measure("review", "reviews of whole deals", "atout.ui.commands.review:bench_review"),
    Measure(
        "review_endgames",
        "the review's exact endgames",
        "atout.ui.commands.bench_measures:measure_review_endgames",
    ),
    Measure("ui_fps", "the Arcade table's frames per second", "atout.ui.window.app:bench_ui_fps"),
    Measure(
        "ui_bot_thinking",
        "the table's frames while a bot thinks on a busy machine",
        "atout.ui.window.measures:bench_bot_thinking",
    ),
    Measure(
        "ui_first_frame",
        "the window's start, to the first drawn start view",
        "atout.ui.window.measures:bench_first_frame",
    ),
    Measure("server", "table server actions per second", "atout.ui.net.bench:measure_server"),
]
"""Every figure, in the order they run.  Append a :class:`Measure` to add one."""


# --- the command --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument("--quick", action="store_true", help=_("a small smoke run"))
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help=_("processes for the work that splits (duplicate matches); default: one per core"),
    )
    parser.add_argument(
        "--duplicate",
        metavar="A,B",
        help=_(
            "run only a duplicate match between the bots A and B (every deal played "
            "twice with the seats swapped)"
        ),
    )
    parser.add_argument(
        "--deals",
        type=arguments.whole(1, 1_000_000, Message("a number of deal pairs")),
        metavar="N",
        help=_("deal pairs of each duplicate match"),
    )
    parser.add_argument(
        "--bidding-only",
        action="store_true",
        help=_(
            "with --duplicate A,B where A and B play the cards alike and bid differently "
            "(e.g. expert,expert+greedy-bids): a pair whose two seatings bid alike is a tie, "
            "not played"
        ),
    )
    parser.add_argument(
        "--scheduler",
        type=_scheduler,
        metavar="ADDRESS",
        help=_(
            "play the duplicate pairs on the workers of a Dask scheduler, e.g. "
            "tcp://192.168.1.5:8786, instead of --jobs processes here "
            "(pip install atout[cluster])"
        ),
    )
    parser.add_argument(
        "--pack",
        metavar="NAME_OR_FILE",
        help=_(
            "play the duplicate matches under a house-rule pack (its game only); "
            "with --duplicate or --only duplicate"
        ),
    )
    parser.add_argument(
        "--game",
        choices=(*GAMES, "all"),
        default="all",
        help=_("measure one game only (default: all)"),
    )
    parser.add_argument(
        "--only",
        metavar="NAMES",
        help=_("run only these measures (comma-separated: {names})").format(
            names=", ".join(m.name for m in MEASURES)
        ),
    )
    arguments.add_think(parser, _("the bots' time budget per decision (0: their default)"))
    parser.add_argument(
        "--seed", type=arguments.seed, default=0, help=_("the seed of the deal sets")
    )
    parser.add_argument(
        "--server-workers",
        type=arguments.whole(1, MAX_WORKERS, Message("a count of processes")),
        metavar="N",
        help=_("the server measure: how many processes run its tables (atout serve --workers)"),
    )


class Progress:
    """A one-line progress bar on stderr: ``[#####.....] 3/6 title 12/20``."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self.index = 0
        self.title = ""

    def start(self, index: int, title: str) -> None:
        self.index = index
        self.title = title
        self.update(0, 0)

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        frac = (self.index + (done / total if total else 0.0)) / max(1, self.total)
        width = 30
        filled = int(frac * width)
        bar = "#" * filled + "." * (width - filled)
        detail = f" {done}/{total}" if total else ""
        line = f"\r[{bar}] {self.index + 1}/{self.total} {self.title}{detail}"
        sys.stderr.write(line[:120].ljust(100))
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()


def _scheduler(text: str) -> str:
    """``--scheduler``: the address of a Dask scheduler, checked as
    :func:`~atout.plugins.bots.duplicate.parse_scheduler` checks it."""
    try:
        return parse_scheduler(text)
    except ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parse_pair(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise UnknownNameError(
            Message(
                "--duplicate {value}: write two bot names separated by a comma, e.g. expert,greedy",
                value=repr(text),
            )
        )
    return parts[0], parts[1]


def selected(args: argparse.Namespace) -> list[Measure]:
    """The measures this run makes."""
    if args.duplicate:
        return [m for m in MEASURES if m.name == "duplicate"]
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        known = {m.name for m in MEASURES}
        for n in names:
            if n not in known:
                raise UnknownNameError(
                    Message(
                        "--only {value}: unknown measure; the measures are: {measures}",
                        value=repr(n),
                        measures=", ".join(sorted(known)),
                    )
                )
        return [m for m in MEASURES if m.name in names]
    return list(MEASURES)


def run(args: argparse.Namespace, engine: Engine) -> int:
    if args.jobs < 1:
        raise UnknownNameError(Message("--jobs {value}: give at least 1 process", value=args.jobs))
    if args.bidding_only and not args.duplicate:
        raise UnknownNameError(
            Message(
                "--bidding-only compares two bidders: give them with --duplicate A,B "
                "(e.g. expert,expert+greedy-bids)"
            )
        )
    if args.deals is not None and args.deals < 1:
        raise UnknownNameError(
            Message("--deals {value}: give at least 1 deal pair", value=args.deals)
        )
    measures = selected(args)
    if args.scheduler and not any(m.name == "duplicate" for m in measures):
        raise UnknownNameError(
            Message(
                "--scheduler {value}: a cluster plays only the duplicate matches; "
                "add --duplicate A,B or --only duplicate",
                value=args.scheduler,
            )
        )
    games = GAMES if args.game == "all" else (args.game,)
    rules: dict[str, Rules] = {}
    if args.pack:
        if any(m.name != "duplicate" for m in measures):
            raise UnknownNameError(
                Message(
                    "--pack {value}: a pack changes only the duplicate matches; "
                    "add --duplicate A,B or --only duplicate",
                    value=repr(args.pack),
                )
            )
        pack_rules = resolve_rules(
            engine, None if args.game == "all" else args.game, args.pack, warn=print_warning
        )
        games = (pack_rules.game,)
        rules[pack_rules.game] = pack_rules
    ctx = BenchContext(
        engine=engine,
        quick=args.quick,
        jobs=args.jobs,
        seed=args.seed,
        think=args.think,
        deals=args.deals,
        games=games,
        duplicates=(_parse_pair(args.duplicate),) if args.duplicate else (),
        bidding_only=args.bidding_only,
        rules=rules,
        plugins=tuple(getattr(args, "plugin", None) or ()),
        disable=tuple(getattr(args, "disable_plugin", None) or ()),
        server_workers=args.server_workers,
        cluster=Cluster(args.scheduler) if args.scheduler else None,
    )
    progress = Progress(len(measures), enabled=not args.json)
    ctx.progress = progress.update
    result: dict[str, Any] = {}
    started = time.perf_counter()
    try:
        for i, m in enumerate(measures):
            progress.start(i, m.title)
            result.update(m.function()(ctx))
    finally:
        progress.close()  # an error's one line is not written after the bar
    result["machine"] = machine()
    result["bench_seconds"] = round(time.perf_counter() - started, 1)
    result["quick"] = args.quick
    if args.json:
        print(printable(json.dumps(result, ensure_ascii=False)))
    else:
        print(printable(table(result), keep_newlines=True))
    return 0


def machine() -> dict[str, Any]:
    """Where the figures were measured."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_1min": round(load, 2) if load is not None else None,
    }


def _rows(result: dict[str, Any]) -> Iterator[tuple[str, str]]:
    for key, value in result.items():
        if key == "duplicate":
            for game, matches in value.items():
                for name, r in matches.items():
                    played = (
                        f" ({r['deals_played']} played, the others bid alike)"
                        if r.get("bidding_only")
                        else ""
                    )
                    yield (
                        f"duplicate {game} {name}",
                        f"{r['mean']:+.1f} points/deal (95% CI {r['ci95_low']:+.1f} .. "
                        f"{r['ci95_high']:+.1f}) over {r['deals']} pairs{played}; deals "
                        f"won/lost {r['deals_won']}/{r['deals_lost']}, matches won/lost "
                        f"{r['matches_won']}/{r['matches_lost']}",
                    )
        elif isinstance(value, dict):
            text = ", ".join(f"{k} {v}" for k, v in value.items())
            yield key, text
        else:
            yield key, str(value)


def table(result: dict[str, Any]) -> str:
    """The figures as a readable two-column table."""
    rows = list(_rows(result))
    width = max((len(k) for k, _value in rows), default=10)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
