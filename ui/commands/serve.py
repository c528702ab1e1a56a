"""``atout serve``: run a table server (people and bots over the network).

The server resumes every table saved in its data folder, then listens; clients create
tables and join them (``atout play --join HOST:PORT/TABLE --token TOKEN``).  The protocol
is documented in ``docs/protocol.md``.  Stop it with Ctrl-C, SIGTERM or SIGHUP: it stops
cleanly, its workers first (:data:`~atout.ui.net.runner.STOP_SIGNALS`); every table is
saved after every action anyway, so even a server killed outright loses nothing, and a
restart resumes every table where it was.

With ``--workers N`` (two by default on Linux, :data:`DEFAULT_WORKERS`) the tables run on
N worker processes behind the one listening socket (:mod:`atout.ui.net.front`); each
worker is this command again, with the same options and ``--worker`` (not shown in the
help) naming its slot and its channel to the front.  ``--workers 1`` runs the tables in
the process that listens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from atout.core import Engine
from atout.core.text import Message
from atout.ui import arguments
from atout.ui.i18n import _
from atout.ui.i18n import ngettext
from atout.ui.net.front import Front
from atout.ui.net.protocol import DEFAULT_PORT
from atout.ui.net.runner import front_forever
from atout.ui.net.runner import serve_forever
from atout.ui.net.runner import serve_worker
from atout.ui.net.server import MAX_OPEN_PER_ADDRESS
from atout.ui.net.server import MAX_TABLES
from atout.ui.net.server import TableServer
from atout.ui.net.tables import LINGER
from atout.ui.net.tables import MAX_WORKERS
from atout.ui.paths import data_dir
from atout.ui.safe_text import printable

DEFAULT_WORKERS = 2 if sys.platform.startswith("linux") else 1
"""Worker processes ``atout serve`` runs its tables on unless told: two on Linux (at 200
tables and 2,000 actions a second, two workers answered in about half the delay of one
process, docs/benchmarks.md), one where a process cannot hand a connection to another
(1: the tables run in the process that listens)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # each option: its flag, how its value is read, its default, the name its help gives
    # the value (None: the flag's), its help
    options: list[tuple[str, Callable[[str], Any], Any, str | None, str]] = [
        (
            "--host",
            arguments.host,
            "127.0.0.1",
            None,
            _("the address to listen on (default 127.0.0.1; 0.0.0.0 for every network)"),
        ),
        (
            "--port",
            arguments.port,
            DEFAULT_PORT,
            None,
            _("the port (default {port}; 0: any free port)").format(port=DEFAULT_PORT),
        ),
        (
            "--data",
            str,
            None,
            "DIR",
            _("the folder of the tables' save files (default: DATA_DIR/tables)"),
        ),
        (
            "--grace",
            arguments.wait,
            30.0,
            "SECONDS",
            _("how long a dropped player's seat waits before a bot plays it (default 30)"),
        ),
        (
            "--linger",
            arguments.wait,
            LINGER,
            "SECONDS",
            _(
                "how long a finished table nobody watches stays in memory before it is put "
                "away (its save file stays; default {seconds})"
            ).format(seconds=f"{LINGER:g}"),
        ),
        (
            "--per-address",
            arguments.whole(1, MAX_TABLES, Message("a count of tables")),
            MAX_OPEN_PER_ADDRESS,
            "N",
            _(
                "how many tables in play the clients of one network address may have "
                "created at once (default {count}; raise it when many people share one "
                "address, as behind a proxy)"
            ).format(count=MAX_OPEN_PER_ADDRESS),
        ),
        (
            "--workers",
            arguments.whole(1, MAX_WORKERS, Message("a count of processes")),
            DEFAULT_WORKERS,
            "N",
            _(
                "how many processes run the tables, behind the one port (default {count}; "
                "1: the process that listens runs them; more use more cores, about one per "
                "core, each table on one of them, found by its code)"
            ).format(count=DEFAULT_WORKERS),
        ),
    ]
    for flag, read, default, metavar, help in options:
        parser.add_argument(flag, type=read, default=default, metavar=metavar, help=help)
    parser.add_argument("--worker", type=worker_slot, default=None, help=argparse.SUPPRESS)


def worker_slot(text: str) -> tuple[int, int, int]:
    """``--worker SLOT/WORKERS/FD``: which worker this process is, of how many, and the
    file descriptor of its channel to the front."""
    try:
        slot, workers, fd = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError("SLOT/WORKERS/FD") from None
    if not (0 <= slot < workers <= MAX_WORKERS and fd >= 0):
        raise argparse.ArgumentTypeError("SLOT/WORKERS/FD")
    return slot, workers, fd


def worker_command(args: argparse.Namespace, data: Path) -> Callable[[int, int], list[str]]:
    """The command line of a worker process: this command with the same options."""

    def command(slot: int, fd: int) -> list[str]:
        argv = [sys.executable, "-m", "atout.ui.cli", "serve", "--data", str(data)]
        argv += ["--grace", repr(args.grace), "--linger", repr(args.linger)]
        argv += ["--per-address", str(args.per_address)]
        argv += ["--worker", f"{slot}/{args.workers}/{fd}"]
        for plugin in getattr(args, "plugin", None) or ():
            argv += ["--plugin", plugin]
        for name in getattr(args, "disable_plugin", None) or ():
            argv += ["--disable-plugin", name]
        return argv

    return command


def share(limit: int, workers: int) -> int:
    """A worker's share of a server-wide limit on tables (rounded up)."""
    return -(-limit // workers)


def table_server(
    args: argparse.Namespace, engine: Engine, data: Path, slot: int = 0, workers: int = 1
) -> TableServer:
    """The table server these options ask for: the one process's, or worker ``slot``'s of
    ``workers`` (which holds its share of the server's limits on tables, and listens
    nowhere: the front hands it its connections)."""
    return TableServer(
        engine,
        data,
        host=args.host,
        port=args.port,
        grace=args.grace,
        linger=args.linger,
        max_tables=share(MAX_TABLES, workers),
        max_per_address=share(args.per_address, workers),
        slot=slot,
        workers=workers,
    )


def run(args: argparse.Namespace, engine: Engine) -> int:
    data = Path(args.data) if args.data else data_dir() / "tables"
    logging.basicConfig(level=logging.WARNING, format="atout serve: %(message)s")
    if args.worker is not None:
        slot, workers, fd = args.worker
        try:
            channel = socket.socket(fileno=fd)
        except OSError as exc:  # run by hand: no front at the other end
            print(
                _("atout serve: --worker: {why}").format(why=exc.strerror or exc),
                file=sys.stderr,
            )
            return 1
        server = table_server(args, engine, data, slot, workers)
        with contextlib.suppress(KeyboardInterrupt):  # before the loop takes the signals
            asyncio.run(serve_worker(server, channel))
        return 0

    def say_ready(host: str, port: int, tables: int, problems: list[str]) -> None:
        for problem in problems:
            print(
                printable(_("atout serve: not resumed: {problem}").format(problem=problem)),
                file=sys.stderr,
            )
        print(
            printable(
                ngettext(
                    "atout serve: listening on {host}:{port}, {n} table resumed from {folder}",
                    "atout serve: listening on {host}:{port}, {n} tables resumed from {folder}",
                    tables,
                ).format(host=host, port=port, n=tables, folder=data)
            ),
            flush=True,
        )

    def ready(s: TableServer) -> None:
        say_ready(s.host, s.port, len(s.tables), s.problems)

    def front_ready(f: Front) -> None:
        say_ready(f.host, f.port, f.tables, f.problems)

    if args.workers > 1 and not sys.platform.startswith("linux"):
        print(
            _(
                "atout serve: --workers above 1 needs Linux (it hands connections between processes)"
            ),
            file=sys.stderr,
        )
        return 1
    try:
        if args.workers > 1:
            data.mkdir(parents=True, exist_ok=True)
            front = Front(worker_command(args, data), args.workers, args.host, args.port)
            signalled = asyncio.run(front_forever(front, front_ready))
        else:
            signalled = asyncio.run(serve_forever(table_server(args, engine, data), ready))
    except OSError as exc:
        print(
            printable(
                _("atout serve: cannot listen on {host}:{port}: {why}").format(
                    host=args.host, port=args.port, why=exc.strerror or exc
                )
            ),
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:  # Ctrl-C before the server took the signals
        signalled = signal.SIGINT
    if signalled is not None:
        print(_("atout serve: stopped"), file=sys.stderr)
    return 0
