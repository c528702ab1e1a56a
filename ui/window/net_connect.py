"""Reaching a table on a server from the window: joining one, or hosting one from here.

Connecting blocks (a server may answer slowly, or not at all), so the window never does
it in a frame: :class:`Connecting` runs :func:`join` or :func:`host` in a thread of its
own and the start screen asks it, each frame, whether it is done.  What comes out is a
:class:`NetLink`: the :class:`~atout.ui.net.client.RemoteTable` of the seat taken, and
for a hosted table the server running in the background and what to share with the
others.  The network code itself is :mod:`atout.ui.net` (the terminal uses the same).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from atout.core import Engine
from atout.core.errors import AtoutError
from atout.ui.net.address import TableOrder
from atout.ui.net.address import parse_address
from atout.ui.net.client import Client
from atout.ui.net.client import NetworkError
from atout.ui.net.client import RemoteTable
from atout.ui.net.runner import ServerThread
from atout.ui.net.runner import host_table

from ..i18n import _

LISTEN = "0.0.0.0"
"""Where a hosted table listens: every interface, so that others on the network reach it."""


@dataclass
class NetLink:
    """A seat (or a spectator's place) at a table on a server, and what the window needs
    to show about it."""

    table: RemoteTable
    server: ServerThread | None = None
    """The server this window started (a hosted table), stopped when the table is left."""
    host_token: str | None = None
    """The host's secret (a hosted table): it starts the table before every seat is held."""
    address: str = ""
    """``HOST:PORT/TABLE`` as the others type it."""
    tokens: list[str] = field(default_factory=list)
    """Each seat's token (a hosted table: shared with the person who takes the seat)."""

    def close(self) -> None:
        """Close the connection and stop the server this window started (if any)."""
        self.table.close()
        if self.server is not None:
            # the guests are told the table closed for good, instead of reconnecting
            self.server.close_tables("the host closed the table")
            self.server.stop()
            self.server = None


def split_join_text(text: str) -> tuple[str, str | None]:
    """What a person types to join: ``HOST:PORT/TABLE``, then the seat's token if they
    have one (``--token TOKEN`` as on the command line is read too); no token: watch."""
    words = text.replace("--token", " ").split()
    if not words:
        raise AtoutError(_("type the table's address: HOST:PORT/TABLE, then your seat's token"))
    if len(words) > 2:
        raise AtoutError(_("type the table's address, then your seat's token, and nothing else"))
    return words[0], words[1] if len(words) == 2 else None


def join(text: str, name: str) -> NetLink:
    """Take the seat of the token in ``text`` (see :func:`split_join_text`) at the table
    it names; any problem is one :class:`~atout.core.errors.AtoutError` that says it."""
    address, token = split_join_text(text)
    try:
        where = parse_address(address)
    except ValueError as exc:
        raise AtoutError(str(exc)) from None
    client = Client(where.url).start()
    try:
        table = RemoteTable(client, where.table, token, name)
    except BaseException:
        client.close()
        raise
    return NetLink(table, address=f"{where.host}:{where.port}/{where.table}")


def host(
    engine: Engine, order: TableOrder, listen: tuple[str, int], data: Path | None = None
) -> NetLink:
    """Start a table server in the background on ``listen`` (host and port; port 0: any
    free port), create the table ``order`` asks for, and take seat 0 for its host."""
    hosted = host_table(engine, order, listen, data)
    return NetLink(
        hosted.table,
        server=hosted.server,
        host_token=str(hosted.made["host"]),
        address=hosted.join_address,
        tokens=[str(t) for t in hosted.made["tokens"]],
    )


class Connecting:
    """``connect()`` run in a background thread: :attr:`done` once it returned or failed,
    then :attr:`link` or :attr:`error` (its words)."""

    def __init__(self, connect: Callable[[], NetLink]) -> None:
        self.link: NetLink | None = None
        self.error = ""
        self.cancelled = False
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._connect = connect
        self._thread = threading.Thread(target=self._run, name="atout-connect", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            link = self._connect()
        except (AtoutError, NetworkError, OSError, TimeoutError) as exc:
            self.error = str(exc) or type(exc).__name__
        except Exception as exc:  # a server's unexpected answer: say it, never crash the window
            self.error = f"{type(exc).__name__}: {exc}"
        else:
            with self._lock:
                kept = not self.cancelled
                if kept:
                    self.link = link
            if not kept:  # nobody waits for it any more
                link.close()
        self._done.set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds (the tests); whether it is done."""
        return self._done.wait(timeout)

    def cancel(self) -> None:
        """Nobody waits any more: a connection made later is closed at once."""
        with self._lock:
            self.cancelled = True
            link, self.link = self.link, None
        if link is not None:
            link.close()
