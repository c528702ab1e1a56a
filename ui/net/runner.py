"""The table server run in the background or until cancelled: :class:`ServerThread` (a
server in a thread of its own, how tests run one), :func:`host_table` (how the terminal and
the window host a table and sit at it) and :func:`serve_forever` (``atout serve``).

``atout serve`` stops cleanly on :data:`STOP_SIGNALS` (Ctrl-C, ``kill``, a service
manager, the terminal closed): the signal only asks, and the server stops between two of
its steps, every table saved; a front stops its workers and waits for them."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import json
import signal
import socket
import threading
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Protocol
from typing import TypeVar

from atout.core import Engine
from atout.core.errors import AtoutError

from ..i18n import _
from .address import TableOrder
from .client import Client
from .client import RemoteTable
from .client import create_table
from .front import LOAD_EVERY
from .front import Front
from .front import channel_messages
from .front import frames_from_json
from .front import handoff
from .server import TableServer

T = TypeVar("T")

CLOSE_TABLE_CLOSED = 4002
"""Close code: the table was closed for good (its host left, taking the server with
them); a client closed with it does not reconnect."""


class ServerThread:
    """A :class:`TableServer` running in a background thread with its own event loop:
    how the terminal (and the window) host a table, and how tests run a server.

    ``start()`` returns once the server listens (``port`` is then known); ``stop()``
    closes it and joins the thread.
    """

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stopped: asyncio.Event | None = None
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="atout-server", daemon=True)

    @property
    def port(self) -> int:
        return self.server.port

    def start(self, timeout: float = 30.0) -> ServerThread:
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the table server did not start")
        if self._failure is not None:
            raise self._failure
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        finally:
            self.loop.close()

    async def _main(self) -> None:
        self._stopped = asyncio.Event()
        try:
            await self.server.start()
        except BaseException as exc:
            self._failure = exc
            self._ready.set()
            return
        self._ready.set()
        await self._stopped.wait()
        await self.server.stop()

    def call(self, fn: Callable[[], T], timeout: float = 30.0) -> T:
        """Run ``fn`` on the server's loop thread and return its result (tests read a
        table's state this way)."""

        async def run() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def close_tables(self, reason: str, timeout: float = 10.0) -> None:
        """Close the connection of every player and watcher of the server's tables with
        :data:`CLOSE_TABLE_CLOSED` and ``reason``: their clients stop and say why,
        instead of reconnecting for minutes to a server about to stop."""

        async def close_all() -> None:
            conns = []
            for table in self.server.tables.values():
                conns += [s.conn for s in table.seats if s.conn is not None]
                conns += list(table.watchers)
            await asyncio.gather(
                *(c.ws.close(CLOSE_TABLE_CLOSED, reason) for c in conns), return_exceptions=True
            )

        if self.loop.is_closed() or not self._thread.is_alive():
            return
        with contextlib.suppress(RuntimeError, TimeoutError):
            asyncio.run_coroutine_threadsafe(close_all(), self.loop).result(timeout)

    def stop(self, timeout: float = 30.0) -> None:
        stopped = self._stopped
        if stopped is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(stopped.set)
        self._thread.join(timeout)


GC_THRESHOLDS = (50_000, 20, 100)
"""The collector's thresholds in a process that serves many tables (Python's own are
700, 10, 10)."""


def tune_gc() -> None:
    """Make the garbage collector's pauses rare in a process that holds many tables.

    With Python's default thresholds the collector traces the whole heap of every table
    often, and each pause holds up every action in flight: at 2,000 actions a second over
    200 tables the 95th percentile delay was 58–93 ms with them, 29–42 ms with these
    (alternating runs of ``atout bench --only server`` on an idle 2-core machine).  What
    exists now (the engine, the resumed tables) is frozen out of the collections."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that stop ``atout serve`` cleanly: Ctrl-C, ``kill`` (and a service
manager's stop), the terminal closed."""


@contextlib.contextmanager
def stop_on_signals(stop: asyncio.Event) -> Iterator[list[int]]:
    """While the block runs on the running loop, each of :data:`STOP_SIGNALS` sets
    ``stop`` instead of killing the process or raising wherever it stands (Python's
    Ctrl-C raises :class:`KeyboardInterrupt` in the middle of any step, a save's or a
    worker's start included): the server then stops between two steps, nothing half
    done, and a second signal while it stops changes nothing.  Yields the signals
    received, the first first; the handlers there were before are put back after.  Off
    the main thread, or where the loop takes no signal handler, nothing changes."""
    loop = asyncio.get_running_loop()
    received: list[int] = []

    def asked(number: int) -> None:
        received.append(number)
        stop.set()

    before: dict[int, Any] = {}
    for number in STOP_SIGNALS:
        handler = signal.getsignal(number)
        try:
            loop.add_signal_handler(number, asked, number)
        except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
            continue
        before[number] = handler
    try:
        yield received
    finally:
        for number, handler in before.items():
            loop.remove_signal_handler(number)
            with contextlib.suppress(ValueError, TypeError, OSError):
                signal.signal(number, signal.SIG_DFL if handler is None else handler)


class _Service(Protocol):
    """What runs until stopped: a table server or a front."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


S = TypeVar("S", bound=_Service)


async def _until_stopped(service: S, ready: Callable[[S], None] | None, tune: bool) -> int | None:
    """Start ``service`` (and tune the collector when ``tune``), say it is ready, and run
    it until one of :data:`STOP_SIGNALS` comes or the task is cancelled; then stop it.
    A signal during the start is acted on once the start is done (a start is not
    stopped half way).  Returns the signal that stopped it (``None``: cancelled)."""
    stop = asyncio.Event()
    with stop_on_signals(stop) as received:
        await service.start()
        try:
            if tune:
                tune_gc()
            if ready is not None:
                ready(service)
            await stop.wait()
        finally:
            await service.stop()
    return received[0] if received else None


async def serve_forever(
    server: TableServer, ready: Callable[[TableServer], None] | None = None
) -> int | None:
    """Run ``server`` until a signal stops it, or until cancelled (``atout serve``), with
    the collector tuned for a process of many tables (:func:`tune_gc`).  Returns the
    signal that stopped it, if one did."""
    return await _until_stopped(server, ready, tune=True)


async def serve_worker(
    server: TableServer, channel: socket.socket, ready: Callable[[TableServer], None] | None = None
) -> None:
    """Run ``server`` as a worker process of a front (:mod:`atout.ui.net.front`) until
    the front goes (its ``channel`` closes) or a signal stops it (:func:`stop_on_signals`:
    a service manager may signal every process of the server): resume its tables, say so
    to the front, then take over each connection the front hands over, and say now and
    then how many tables it holds (the front sends a ``create`` to the worker with the
    fewest)."""
    gone = asyncio.Event()
    with stop_on_signals(gone):
        await _work(server, channel, gone, ready)


async def _work(
    server: TableServer,
    channel: socket.socket,
    gone: asyncio.Event,
    ready: Callable[[TableServer], None] | None,
) -> None:
    """The worker of :func:`serve_worker` until ``gone`` is set (also when its
    ``channel`` to the front closes); then its tables are saved and it stops."""
    loop = asyncio.get_running_loop()
    await server.start(listen=False)
    tune_gc()
    if ready is not None:
        ready(server)
    channel.setblocking(False)
    adopting: set[asyncio.Task[None]] = set()

    def say(what: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # a full channel: the next report will do
            channel.send(json.dumps(what).encode())

    def handed() -> None:
        for data, fds in channel_messages(channel, 1 << 20):
            if not data and not fds:
                loop.remove_reader(channel)
                gone.set()
                return
            for fd in fds:
                sock = socket.socket(fileno=fd)
                try:
                    said = json.loads(data)
                    first = frames_from_json(said["first"])
                    rest = base64.b64decode(said["rest"])
                    hello = bool(said["hello"])
                    created = int(said.get("created") or 0)
                    budget = said.get("budget")
                    budget = None if budget is None else float(budget)
                except (ValueError, KeyError, TypeError):
                    sock.close()
                    continue
                task = loop.create_task(
                    server.adopt(sock, first, hello, rest, created=created, budget=budget)
                )
                adopting.add(task)
                task.add_done_callback(adopting.discard)

    def report() -> None:
        say({"tables": len(server.tables)})
        handle[0] = loop.call_later(LOAD_EVERY, report)

    def hand_back(fd: int, said: dict[str, Any]) -> None:
        raw = said["first"]
        socket.send_fds(
            channel,
            [handoff(raw, said["rest"], True, said["created"], said["budget"])],
            [fd],
        )

    server.hand_back = hand_back
    say({"ready": True, "tables": len(server.tables), "problems": server.problems})
    handle = [loop.call_later(LOAD_EVERY, report)]
    loop.add_reader(channel, handed)
    try:
        await gone.wait()
    finally:
        handle[0].cancel()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(channel)
        channel.close()
        await server.stop()


async def front_forever(front: Front, ready: Callable[[Front], None] | None = None) -> int | None:
    """Run the front of a server of several worker processes until a signal stops it,
    or until cancelled (``atout serve --workers N``); returns the signal, if one did."""
    return await _until_stopped(front, ready, tune=False)


EVERYWHERE = ("0.0.0.0", "", "::")
"""Listening addresses that mean every network of the machine."""


def lan_address() -> str:
    """This machine's address as other machines on its network reach it (the address
    of the interface that would route outwards; no packet is sent), else its name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return socket.gethostname()


@dataclass
class Hosted:
    """A table hosted here: its server in the background, the host's seat at it (seat 0),
    the server's answer to the table's creation (``table``, ``host``, ``tokens``) and the
    ``address`` (``HOST:PORT``) the other players reach."""

    server: ServerThread
    table: RemoteTable
    made: dict[str, Any]
    address: str

    @property
    def join_address(self) -> str:
        """What the others type to join: ``HOST:PORT/TABLE``."""
        return f"{self.address}/{self.made['table']}"

    def close(self, reason: str) -> None:
        """The host leaves: every other player and watcher is told the table closed
        (``reason``), then the host's connection closes and the server stops."""
        self.server.close_tables(reason)
        self.table.close()
        self.server.stop()


def host_table(
    engine: Engine, order: TableOrder, listen: tuple[str, int], data: Path | None = None
) -> Hosted:
    """Start a table server in the background on ``listen`` (host and port, as ``--listen
    HOST:PORT`` reads them; port 0: any free port), create the table ``order`` asks for,
    and take seat 0 for its host.  A port that cannot be had is one
    :class:`~atout.core.errors.AtoutError`; nothing is left running then."""
    address, port = listen
    try:
        server = ServerThread(TableServer(engine, data, host=address, port=port)).start()
    except OSError as exc:
        raise AtoutError(
            _("cannot host on {host}:{port}: {why}").format(
                host=address, port=port, why=exc.strerror or exc
            )
        ) from None
    everywhere = address in EVERYWHERE
    try:
        client = Client(f"ws://{'127.0.0.1' if everywhere else address}:{server.port}").start()
        try:
            made = create_table(client, order.rules, bot=order.bot, seed=order.seed)
            table = RemoteTable(client, made["table"], made["tokens"][0], order.name or "Host")
        except BaseException:
            client.close()
            raise
    except BaseException:
        server.stop()
        raise
    shared = lan_address() if everywhere else address
    return Hosted(server, table, made, f"{shared}:{server.port}")
