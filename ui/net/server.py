"""The table server: tables of people and bots over websockets, the server authoritative.

Each table (:mod:`atout.ui.net.tables`) is one :class:`~atout.core.session.Session` whose
seats are all ``remote``: a client claims a seat with the table's code and the seat's
secret token and sends intentions; the session (the engine) checks every action.  Each
connection is sent only its seat's events (:func:`~atout.core.session.for_seat`) and view;
a spectator only public ones.  A seat nobody holds is played by the table's bot (the
host's level): an open seat as soon as the table starts, a seat whose player dropped once
the grace period is over; the player takes it back by reconnecting with its token.

Every table follows a save file in the data folder, so a server killed at any moment
restarts with every table where it was (:meth:`TableServer.load_tables`), and the clients
reconnect on their own.  A finished table nobody is connected to is put away after the
linger period; a late client has it read back from its save file.

Threads: the event loop never waits for a search nor for the disk.  A change to a table
runs on the loop while the table's lock is held: the engine's check, the action's save
line (one small ``write``), the messages handed to the sockets.  The deal's whole-file
writes run in worker threads (a deal's start awaited before anyone is told of it, a
deal's end in the background, its last line written first), the forcing of the action
lines to disk in the syncer's threads (:class:`~atout.ui.net.saves.Syncer`), and bots
think in a pool of their own.

This module holds the server's life and its connections (hello, the message rate, reading
and dispatching each message); the messages' handlers are :mod:`atout.ui.net.messages`,
what runs the tables :mod:`atout.ui.net.tablerunner`.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import socket
import time
from collections.abc import Callable
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from typing import cast

from atout.core import Engine
from websockets.asyncio.server import Server
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from . import protocol as p
from .messages import Elsewhere
from .messages import TableMessages
from .saves import SYNC_INTERVAL
from .saves import Syncer
from .tablerunner import log_failure
from .tables import LINGER
from .tables import UNSTARTED_TTL
from .tables import Conn
from .tables import Table

log = logging.getLogger("atout.net")

CLOSE_POLICY = 1008
"""Close code: a connection over the message rate, or silent (no ``hello``) for
:data:`~atout.ui.net.protocol.HELLO_TIMEOUT` seconds."""

MAX_TABLES = 2000
"""Tables in play (match not over) a server holds at most; beyond, ``create`` is
answered ``full`` until one ends or expires."""

MAX_CREATED_PER_CONNECTION = 20
"""Tables one connection may create in its life (``table-limit`` beyond)."""

MAX_OPEN_PER_ADDRESS = 50
"""Tables in play (match not over) created from one network address at once
(``table-limit`` beyond)."""

EXPIRY_CHECK = 60.0
"""Seconds between two sweeps of the tables not started in time (each ``create``
sweeps too)."""

# --- the server ----------------------------------------------------------------------------


def _address_of(ws: ServerConnection) -> str:
    """The client's network address (without its port), "" when unknown."""
    try:
        where = ws.remote_address
    except (AttributeError, OSError):
        return ""
    if isinstance(where, tuple) and where and isinstance(where[0], str):
        return where[0]
    return ""


class TableServer(TableMessages):
    """The websocket table server.  ``data``: the folder of the tables' save files
    (``None``: tables are not saved).  ``grace``: seconds a dropped player's seat waits
    before a bot plays it.  ``max_tables``, ``max_per_connection``, ``max_per_address``:
    the limits on the tables created (:data:`MAX_TABLES` and the others);
    ``unstarted_ttl``: seconds a table may wait for its start; ``hello_timeout``: seconds
    a connection has to say hello; ``clock``: the wall clock that dates the tables
    (tests hand in their own); ``slot`` and ``workers``: which of the server's worker
    processes this one is, and how many there are (:mod:`atout.ui.net.front`; a worker
    holds the tables whose code names it)."""

    def __init__(
        self,
        engine: Engine,
        data: Path | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        grace: float = 30.0,
        max_tables: int = MAX_TABLES,
        io_workers: int = 8,
        bot_workers: int = 2,
        sync_interval: float = SYNC_INTERVAL,
        linger: float = LINGER,
        max_per_connection: int = MAX_CREATED_PER_CONNECTION,
        max_per_address: int = MAX_OPEN_PER_ADDRESS,
        unstarted_ttl: float = UNSTARTED_TTL,
        hello_timeout: float = p.HELLO_TIMEOUT,
        clock: Callable[[], float] = time.time,
        slot: int = 0,
        workers: int = 1,
    ) -> None:
        self.engine = engine
        self.data = data
        self.host = host
        self.port = port
        self.grace = grace
        self.max_tables = max_tables
        self.linger = linger
        self.max_per_connection = max_per_connection
        self.max_per_address = max_per_address
        self.unstarted_ttl = unstarted_ttl
        self.hello_timeout = hello_timeout
        self.clock = clock
        self.slot = slot
        self.workers = workers
        self._adopted: set[ServerConnection] = set()
        self.hand_back: Callable[[int, dict[str, Any]], None] | None = None
        """How a worker hands a connection back to the front, to be moved to the worker
        of another table (``None``: this server holds every table)."""
        self.tables: dict[str, Table] = {}
        self.io = ThreadPoolExecutor(io_workers, thread_name_prefix="atout-table")
        self.syncer = Syncer(sync_interval) if data is not None else None
        self.thinkers = ThreadPoolExecutor(bot_workers, thread_name_prefix="atout-bot")
        self._server: Server | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self._closing: set[asyncio.Task[None]] = set()
        self.closed: collections.OrderedDict[str, str] = collections.OrderedDict()
        self.problems: list[str] = []
        """The save files that could not be resumed at start, one line each."""

    # --- life --------------------------------------------------------------------------

    async def start(self, listen: bool = True) -> None:
        """Resume the saved tables and listen (``self.port`` is the port bound; a
        worker process does not listen: it is handed its connections, :meth:`adopt`)."""
        if self.data is not None:
            self.data.mkdir(parents=True, exist_ok=True)
            await asyncio.get_running_loop().run_in_executor(self.io, self.load_tables)
        if self.syncer is not None:
            self.syncer.start()
        if listen:
            self._server = await serve(
                self._handle,
                self.host,
                self.port,
                max_size=p.MAX_FRAME,
                compression=None,
                max_queue=64,
                close_timeout=2,
            )
            sockets = list(self._server.sockets)
            if sockets:
                self.port = sockets[0].getsockname()[1]
        loop = asyncio.get_running_loop()
        for table in self.tables.values():
            if table.started:
                self._later(loop, self.grace, table)
        self._sweep(loop)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remove the tables not started in time now and every :data:`EXPIRY_CHECK`
        seconds."""

        def fire() -> None:
            self._timers.discard(handle)
            self.expire_unstarted()
            self._sweep(loop)

        handle = loop.call_later(EXPIRY_CHECK, fire)
        self._timers.add(handle)

    async def stop(self) -> None:
        """Stop listening, close every connection, let the workers finish."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        await asyncio.gather(
            *(ws.close(1001) for ws in list(self._adopted)), return_exceptions=True
        )
        for timer in self._timers:
            timer.cancel()
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
        self.io.shutdown(wait=True)
        for table in self.tables.values():
            table.session.detach()
        if self.syncer is not None:
            self.syncer.stop()
        self.thinkers.shutdown(wait=False, cancel_futures=True)

    # --- a connection ------------------------------------------------------------------

    async def adopt(
        self,
        sock: socket.socket,
        first: list[str | bytes],
        hello: bool,
        rest: bytes = b"",
        created: int = 0,
        budget: float | None = None,
    ) -> None:
        """Take over a connection the front process accepted (:mod:`atout.ui.net.front`):
        ``sock``, whose websocket handshake is done, the messages the front read from it
        (``first``: those it did not answer itself, read here before the socket's) and
        whether the client said hello there; ``rest``: the bytes it read after them;
        ``created`` and ``budget``: the tables it created and its message budget, when it
        moves from another worker (:meth:`move`).  The connection is then this process's
        as if it had been accepted here."""
        loop = asyncio.get_running_loop()

        async def run(ws: ServerConnection) -> None:
            self._adopted.add(ws)
            try:
                ws.start_keepalive()
                async with ws:
                    await self._handle(ws, first, hello, created, budget)
            except Exception as exc:
                log_failure("an adopted connection failed", exc)
            finally:
                self._adopted.discard(ws)
                ws.transport.abort()

        protocol = ServerProtocol(state=State.OPEN, max_size=p.MAX_FRAME)
        ws = ServerConnection(protocol, cast(Server, _Adopter(run)), close_timeout=2, max_queue=64)
        ws.request = Request("/", Headers())  # the handshake made at the front
        ws.request_rcvd.set_result(None)
        await loop.connect_accepted_socket(lambda: ws, sock)
        if rest:
            ws.data_received(rest)

    async def move(self, conn: Conn, raw: str | bytes, ref: Any) -> dict[str, Any] | None:
        """Hand ``conn``, whose message ``raw`` names a table of another worker, back to
        the front, which hands it to that worker with this message (a second ``join``
        moves a connection, whatever worker holds its table).  The connection leaves its
        table here first, and what it was sent reaches its socket before the socket
        moves.  ``None`` once moved; the answer to ``raw`` when it cannot move (a message
        it sent after ``raw`` is already read, or the front is gone)."""
        ws = conn.ws
        transport = ws.transport
        sock = transport.get_extra_info("socket")
        if self.hand_back is None or sock is None:
            return p.error(p.NO_TABLE, "no such table on this server", ref)
        transport.pause_reading()
        await self._leave_table(conn)
        for _ in range(500):  # at most 5 s for what it was sent to leave
            if not conn.backlog and conn.writer is None and not transport.get_write_buffer_size():
                break
            await asyncio.sleep(0.01)
        pending = ws.recv_messages.frames.queue
        if pending or conn.backlog or transport.get_write_buffer_size():
            transport.resume_reading()
            return p.error(
                p.BAD_MESSAGE, "this connection cannot move to that table now: connect again", ref
            )
        said = {
            "hello": True,
            "first": [raw],
            "rest": bytes(ws.protocol.reader.buffer),
            "created": conn.created,
            "budget": conn.budget,
        }
        fd = os.dup(sock.fileno())
        try:
            self.hand_back(fd, said)
        except OSError:  # the front is gone, or the channel full: it stays here
            transport.resume_reading()
            return p.error(p.BAD_MESSAGE, "this connection cannot move now: connect again", ref)
        finally:
            os.close(fd)
        conn.cut = True  # nothing more is sent from here
        transport.abort()
        return None

    async def _handle(
        self,
        ws: ServerConnection,
        first: list[str | bytes] | None = None,
        hello: bool = False,
        created: int = 0,
        budget: float | None = None,
    ) -> None:
        conn = Conn(ws, address=_address_of(ws), hello=hello, created=created)
        if budget is not None:
            conn.budget = min(float(p.BURST), budget)

        def silent() -> None:
            if not conn.hello:
                self._close(conn, CLOSE_POLICY, "no hello")

        timer = asyncio.get_running_loop().call_later(self.hello_timeout, silent)
        closing: asyncio.Task[None] | None = None

        async def take(raw: str | bytes) -> None:
            nonlocal closing
            if closing is not None:
                return  # read on (and drop) until the client answers the close
            if not conn.spend():
                conn.refused += 1
                if conn.refused >= p.FLOOD_CLOSE:
                    closing = asyncio.create_task(ws.close(1008, "too many messages"))
                    return
                self._send(conn, p.error(p.FLOOD, "too many messages: slow down"))
                await asyncio.sleep(0)
                return
            if conn.budget >= p.BURST / 2:
                conn.refused = 0  # the client slowed down: its past flood is forgiven
            reply = await self._message(conn, raw)
            if reply is not None:
                self._send(conn, reply)
            if conn.backlog:
                await asyncio.sleep(0)  # let the writer send before reading on

        try:
            for raw in first or ():
                await take(raw)
            async for raw in ws:
                await take(raw)
        except ConnectionClosed:
            pass
        finally:
            timer.cancel()
            if conn.writer is not None:
                conn.writer.cancel()
            await self._gone(conn)

    async def _message(self, conn: Conn, raw: str | bytes) -> dict[str, Any] | None:
        """Read one message and answer it: the reply, or ``None`` when the answer was
        sent otherwise (updates).  Nothing a client sends can raise out of here."""
        if isinstance(raw, bytes):
            return p.error(p.BAD_MESSAGE, "messages are JSON text frames, not binary")
        if len(raw) > p.MAX_MESSAGE:
            return p.error(p.TOO_LARGE, f"a message is at most {p.MAX_MESSAGE} characters")
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):
            return p.error(p.BAD_JSON, "not JSON")
        ref = p.ref_of(msg)
        if not isinstance(msg, dict):
            return p.error(p.BAD_MESSAGE, "a message is a JSON object with a type", ref)
        kind = msg.get("type")
        try:
            named = isinstance(kind, str) and (kind == "hello" or kind in self._handlers)
            p.check_values(msg, str(kind) if named else "message")
            p.check_ref(msg)
            if kind == "hello":
                return self._hello(conn, msg)
            if not conn.hello:
                raise p.ProtocolError(p.NOT_HELLO, "say hello first (with the protocol version)")
            handler = self._handlers.get(kind) if isinstance(kind, str) else None
            if handler is None:
                known = ", ".join(sorted(["hello", *self._handlers]))
                raise p.ProtocolError(
                    p.UNKNOWN_TYPE, f"unknown message type; the types are: {known}"
                )
            return await handler(self, conn, msg, ref)
        except Elsewhere:
            return await self.move(conn, raw, ref)
        except p.ProtocolError as exc:
            return p.error(exc.code, exc.message, ref)
        except Exception as exc:  # a fault of ours: logged here, never shown in detail
            log_failure(f"a {kind!r} message failed", exc)
            return p.error(p.INTERNAL, "the server failed on this message; nothing changed", ref)

    def _hello(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any]:
        out = welcome(msg)
        conn.hello = True
        return out


def welcome(msg: dict[str, Any]) -> dict[str, Any]:
    """The answer to a ``hello`` (checked as every message is): ``welcome``, or a
    :class:`~atout.ui.net.protocol.ProtocolError` for another protocol version."""
    version = p.field_of(msg, "version", int)
    if version != p.VERSION:
        raise p.ProtocolError(
            p.VERSION_ERROR, f"this server speaks protocol version {p.VERSION}, not {version}"
        )
    out: dict[str, Any] = {"type": "welcome", "version": p.VERSION, "server": "atout"}
    if (ref := p.ref_of(msg)) is not None:
        out["ref"] = ref
    return out


def answer_hello(raw: str | bytes) -> dict[str, Any] | None:
    """What the server answers ``raw`` when it is a ``hello`` (checked as
    :meth:`TableServer._message` checks it: ``welcome`` or an error); ``None`` when it is
    any other message (the front process hands those to a worker)."""
    if isinstance(raw, bytes) or len(raw) > p.MAX_MESSAGE:
        return None
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        return None
    try:
        p.check_values(msg, "hello")
        p.check_ref(msg)
        return welcome(msg)
    except p.ProtocolError as exc:
        return p.error(exc.code, exc.message, p.ref_of(msg))


class _Adopter:
    """What a websocket connection needs of its server when it was accepted by the front
    process (:meth:`TableServer.adopt`): the handler it runs, and its set of handler
    tasks (which keeps the task alive)."""

    def __init__(self, handler: Callable[[ServerConnection], Coroutine[Any, Any, None]]) -> None:
        self.handler = handler
        self.handler_tasks: set[asyncio.Task[None]] = set()
