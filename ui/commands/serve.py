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
from atout.ui.i18n import _
from atout.ui.i18n import ngettext
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
        help=_("the address to listen on (default 127.0.0.1; 0.0.0.0 for every network)"),
    )
    parser.add_argument(
        "--port",
        type=arguments.port,
        default=DEFAULT_PORT,
        help=_("the port (default {port}; 0: any free port)").format(port=DEFAULT_PORT),
    )
    parser.add_argument(
        "--data",
        default=None,
        metavar="DIR",
        help=_("the folder of the tables' save files (default: DATA_DIR/tables)"),
    )
    parser.add_argument(
        "--grace",
        type=arguments.wait,
        default=30.0,
        metavar="SECONDS",
        help=_("how long a dropped player's seat waits before a bot plays it (default 30)"),
    )
    parser.add_argument(
        "--linger",
        type=arguments.wait,
        default=LINGER,
        metavar="SECONDS",
        help=_(
            "how long a finished table nobody watches stays in memory before it is put "
            "away (its save file stays; default {seconds})"
        ).format(seconds=f"{LINGER:g}"),
    )
    parser.add_argument(
        "--per-address",
        type=arguments.whole(1, MAX_TABLES, "a count of tables"),
        default=MAX_OPEN_PER_ADDRESS,
        metavar="N",
        help=_(
            "how many tables in play the clients of one network address may have created "
            "at once (default {count}; raise it when many people share one address, as "
            "behind a proxy)"
        ).format(count=MAX_OPEN_PER_ADDRESS),
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
            print(
                printable(_("atout serve: not resumed: {problem}").format(problem=problem)),
                file=sys.stderr,
            )
        print(
            printable(
                ngettext(
                    "atout serve: listening on {host}:{port}, {n} table resumed from {folder}",
                    "atout serve: listening on {host}:{port}, {n} tables resumed from {folder}",
                    len(s.tables),
                ).format(host=s.host, port=s.port, n=len(s.tables), folder=data)
            ),
            flush=True,
        )

    try:
        asyncio.run(serve_forever(server, ready))
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
    except KeyboardInterrupt:
        print(_("atout serve: stopped"), file=sys.stderr)
    return 0
