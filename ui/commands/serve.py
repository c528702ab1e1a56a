"""``atout serve``: run a table server (people and bots over the network).

The server resumes every table saved in its data folder, then listens; clients create
tables and join them (``atout play --join HOST:PORT/TABLE --token TOKEN``).  The protocol
is documented in ``docs/protocol.md``.  Stop it with Ctrl-C: every table is saved after
every action, so nothing is lost, and a restart resumes every table where it was.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from atout.core import Engine
from atout.ui import arguments
from atout.ui.net.protocol import DEFAULT_PORT
from atout.ui.net.runner import serve_forever
from atout.ui.net.server import MAX_OPEN_PER_ADDRESS
from atout.ui.net.server import MAX_TABLES
from atout.ui.net.server import TableServer
from atout.ui.net.tables import LINGER
from atout.ui.paths import data_dir
from atout.ui.safe_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        type=arguments.host,
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1; 0.0.0.0 for every network)",
    )
    parser.add_argument(
        "--port",
        type=arguments.port,
        default=DEFAULT_PORT,
        help=f"the port (default {DEFAULT_PORT}; 0: any free port)",
    )
    parser.add_argument(
        "--data",
        default=None,
        metavar="DIR",
        help="the folder of the tables' save files (default: DATA_DIR/tables)",
    )
    parser.add_argument(
        "--grace",
        type=arguments.wait,
        default=30.0,
        metavar="SECONDS",
        help="how long a dropped player's seat waits before a bot plays it (default 30)",
    )
    parser.add_argument(
        "--linger",
        type=arguments.wait,
        default=LINGER,
        metavar="SECONDS",
        help="how long a finished table nobody watches stays in memory before it is put "
        f"away (its save file stays; default {LINGER:g})",
    )
    parser.add_argument(
        "--per-address",
        type=arguments.whole(1, MAX_TABLES, "a count of tables"),
        default=MAX_OPEN_PER_ADDRESS,
        metavar="N",
        help="how many tables in play the clients of one network address may have created "
        f"at once (default {MAX_OPEN_PER_ADDRESS}; raise it when many people share one "
        "address, as behind a proxy)",
    )


def run(args: argparse.Namespace, engine: Engine) -> int:
    data = Path(args.data) if args.data else data_dir() / "tables"
    logging.basicConfig(level=logging.WARNING, format="atout serve: %(message)s")
    server = TableServer(
        engine,
        data,
        host=args.host,
        port=args.port,
        grace=args.grace,
        linger=args.linger,
        max_per_address=args.per_address,
    )

    def ready(s: TableServer) -> None:
        for problem in s.problems:
            print(printable(f"atout serve: not resumed: {problem}"), file=sys.stderr)
        print(
            printable(
                f"atout serve: listening on {s.host}:{s.port}, {len(s.tables)} table(s) "
                f"resumed from {data}"
            ),
            flush=True,
        )

    try:
        asyncio.run(serve_forever(server, ready))
    except OSError as exc:
        print(
            printable(
                f"atout serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
            ),
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print("atout serve: stopped", file=sys.stderr)
    return 0
