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
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from typing import ClassVar

from atout.core import Engine
from atout.core.cards import card_str
from atout.core.cards import parse_card
from atout.core.errors import AtoutError
from atout.core.errors import IllegalMoveError
from atout.core.limits import LimitError
from atout.core.limits import check_name
from atout.core.limits import check_seed
from atout.core.session import REMOTE
from atout.core.session import SCORE
from atout.core.session import Event
from atout.core.session import Player
from atout.core.session import Session
from atout.core.text import Message
from websockets.asyncio.server import Server
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from . import protocol as p
from .redact import redact
from .saves import SYNC_INTERVAL
from .saves import Syncer
from .saves import defer_saves
from .tables import LINGER
from .tables import SAVE_SUFFIX
from .tables import UNSTARTED_TTL
from .tables import Conn
from .tables import Seat
from .tables import Table
from .tables import TableRunner
from .tables import log_failure

log = logging.getLogger("atout.net")

Handler = Callable[["TableServer", "Conn", dict[str, Any], Any], Awaitable[dict[str, Any] | None]]
"""A message's handler: the server, the connection, the message and its ref; the reply."""

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes avoid the letters people confuse (I, O, 0, 1)."""

CLOSE_REPLACED = 4001
"""Close code: the seat was claimed by another connection with its token."""

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


class TableServer(TableRunner):
    """The websocket table server.  ``data``: the folder of the tables' save files
    (``None``: tables are not saved).  ``grace``: seconds a dropped player's seat waits
    before a bot plays it.  ``max_tables``, ``max_per_connection``, ``max_per_address``:
    the limits on the tables created (:data:`MAX_TABLES` and the others);
    ``unstarted_ttl``: seconds a table may wait for its start; ``hello_timeout``: seconds
    a connection has to say hello; ``clock``: the wall clock that dates the tables
    (tests hand in their own)."""

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

    async def start(self) -> None:
        """Resume the saved tables and listen (``self.port`` is the port bound)."""
        if self.data is not None:
            self.data.mkdir(parents=True, exist_ok=True)
            await asyncio.get_running_loop().run_in_executor(self.io, self.load_tables)
        if self.syncer is not None:
            self.syncer.start()
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

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Conn(ws, address=_address_of(ws))

        def silent() -> None:
            if not conn.hello:
                self._close(conn, CLOSE_POLICY, "no hello")

        timer = asyncio.get_running_loop().call_later(self.hello_timeout, silent)
        try:
            closing: asyncio.Task[None] | None = None
            async for raw in ws:
                if closing is not None:
                    continue  # read on (and drop) until the client answers the close
                if not conn.spend():
                    conn.refused += 1
                    if conn.refused >= p.FLOOD_CLOSE:
                        closing = asyncio.create_task(ws.close(1008, "too many messages"))
                        continue
                    self._send(conn, p.error(p.FLOOD, "too many messages: slow down"))
                    await asyncio.sleep(0)
                    continue
                if conn.budget >= p.BURST / 2:
                    conn.refused = 0  # the client slowed down: its past flood is forgiven
                reply = await self._message(conn, raw)
                if reply is not None:
                    self._send(conn, reply)
                if conn.backlog:
                    await asyncio.sleep(0)  # let the writer send before reading on
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
        except p.ProtocolError as exc:
            return p.error(exc.code, exc.message, ref)
        except Exception as exc:  # a fault of ours: logged here, never shown in detail
            log_failure(f"a {kind!r} message failed", exc)
            return p.error(p.INTERNAL, "the server failed on this message; nothing changed", ref)

    def _hello(self, conn: Conn, msg: dict[str, Any]) -> dict[str, Any]:
        version = p.field_of(msg, "version", int)
        if version != p.VERSION:
            raise p.ProtocolError(
                p.VERSION_ERROR, f"this server speaks protocol version {p.VERSION}, not {version}"
            )
        conn.hello = True
        out: dict[str, Any] = {"type": "welcome", "version": p.VERSION, "server": "atout"}
        if (ref := p.ref_of(msg)) is not None:
            out["ref"] = ref
        return out

    def _table(self, msg: dict[str, Any]) -> Table:
        code = p.field_of(msg, "table", str).upper()
        table = self.tables.get(code)
        if table is None:
            if code in self.closed:
                raise p.ProtocolError(p.CLOSED, self.closed[code] + "; the table is closed")
            raise p.ProtocolError(p.NO_TABLE, f"no table {code!r} on this server")
        return table

    async def _table_or_saved(self, msg: dict[str, Any]) -> Table:
        """The table ``msg`` names; a finished table put away from memory is read back
        from its save file (its clients see how the match ended)."""
        code = p.field_of(msg, "table", str).upper()
        if code not in self.tables and code not in self.closed and self.data is not None:
            if len(self.tables) >= self.max_tables:
                raise p.ProtocolError(p.FULL, f"this server holds {self.max_tables} tables")
            saved = await self._work(lambda: self.saved_table(code))
            if saved is not None:
                table = self.tables.setdefault(code, saved)
                if table is not saved:
                    saved.session.detach()
                else:
                    self.settle(table)  # put away again once its late client leaves
        return self._table(msg)

    def _seated(self, conn: Conn) -> tuple[Table, int]:
        if conn.table is None or conn.seat is None:
            raise p.ProtocolError(p.NOT_SEATED, "join a table with a seat's token first")
        return conn.table, conn.seat

    # --- the messages ------------------------------------------------------------------

    async def _create(self, conn: Conn, msg: dict[str, Any], ref: Any) -> dict[str, Any]:
        game = p.field_of(msg, "game", str)
        values = p.field_of(msg, "rules", dict, {})
        pack = p.field_of(msg, "pack", str, "")
        bot = p.field_of(msg, "bot", str, "greedy")
        seed = p.field_of(msg, "seed", (int, type(None)), None)
        if seed is not None:
            try:
                check_seed(seed)
            except LimitError as exc:
                raise p.ProtocolError(p.BAD_MESSAGE, f"create: seed: {exc}") from None
        self._may_create(conn)
        try:
            self.engine.game(game)
            rules = self.engine.make_rules(game, values, pack)
            self.engine.bot(bot, game, rules)
        except AtoutError as exc:
            raise p.ProtocolError(p.BAD_RULES, str(exc)) from None
        code = self._new_code()
        seats_n = self.engine.game(game).seats
        seats = [Seat(secrets.token_hex(10)) for _ in range(seats_n)]
        host = secrets.token_hex(10)
        session = Session(self.engine, game, rules, players=[Player(REMOTE)] * seats_n, seed=seed)
        table = Table(
            self,
            code,
            session,
            host,
            seats,
            bot,
            started=False,
            created=self.clock(),
            address=conn.address,
        )
        self.tables[code] = table
        if self.data is not None:
            path = self.data / (code + SAVE_SUFFIX)
            try:
                async with table.lock:
                    await self._work(lambda: session.attach(path, table.meta()))
                    table.file = defer_saves(session, self.syncer)
            except BaseException:  # no file, no table: nothing half made stays
                del self.tables[code]
                session.detach()
                raise
        conn.created += 1
        out = {
            "type": "created",
            "table": code,
            "host": host,
            "tokens": [s.token for s in seats],
            "seats": seats_n,
        }
        if ref is not None:
            out["ref"] = ref
        return out

    def _may_create(self, conn: Conn) -> None:
        """Refuse a ``create`` over a limit: the connection's (:attr:`max_per_connection`
        tables in its life), its address's (:attr:`max_per_address` tables in play at
        once) or the server's (:attr:`max_tables` in play; the tables not started in
        time are removed first, so a flood of them never keeps others out for long)."""
        if conn.created >= self.max_per_connection:
            raise p.ProtocolError(
                p.TABLE_LIMIT,
                f"a connection creates at most {self.max_per_connection} tables",
            )
        self.expire_unstarted()
        in_play = [t for t in self.tables.values() if t.session.result is None]
        if conn.address and (
            sum(t.address == conn.address for t in in_play) >= self.max_per_address
        ):
            raise p.ProtocolError(
                p.TABLE_LIMIT,
                f"an address holds at most {self.max_per_address} tables in play at once; "
                f"a table not started expires after {self.unstarted_ttl:g} s",
            )
        if len(in_play) >= self.max_tables:
            raise p.ProtocolError(
                p.FULL,
                f"this server holds its {self.max_tables} tables: try again later (a "
                f"table not started expires after {self.unstarted_ttl:g} s)",
            )

    def _close(self, conn: Conn, code: int, reason: str) -> None:
        """Close ``conn`` with ``code`` without waiting for it."""
        closing = asyncio.get_running_loop().create_task(conn.ws.close(code, reason))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    def _new_code(self) -> str:
        """A code no table has, in memory or put away (its save file kept)."""
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            if code in self.tables or code in self.closed:
                continue
            if self.data is not None and (self.data / (code + SAVE_SUFFIX)).exists():
                continue
            return code

    async def _join(self, conn: Conn, msg: dict[str, Any], ref: Any) -> None:
        table = await self._table_or_saved(msg)
        token = p.field_of(msg, "token", (str, type(None)), None)
        try:
            name = check_name(p.field_of(msg, "name", str, ""))
        except LimitError as exc:
            raise p.ProtocolError(p.BAD_MESSAGE, f"join: name: {exc}") from None
        seat: int | None = None
        if token is not None:
            for i, s in enumerate(table.seats):
                if hmac.compare_digest(s.token.encode(), token.encode()):
                    seat = i
            if seat is None:
                raise p.ProtocolError(p.BAD_TOKEN, "this token holds no seat of this table")
        await self._leave_table(conn)
        async with table.lock:
            replaced: Conn | None = None
            if seat is None:
                table.watchers.add(conn)
            else:
                s = table.seats[seat]
                replaced, s.conn = s.conn, conn
                s.held_once = True
                if name and name != s.name:
                    s.name = name
                    table.session.meta["names"] = [x.name for x in table.seats]
                    table.session.players = tuple(Player(REMOTE, x.name) for x in table.seats)
            conn.table, conn.seat = table, seat
            session = table.session
            joined: dict[str, Any] = {
                "type": "joined",
                "table": table.code,
                "seat": seat,
                "game": session.game,
                "title": session.info.title,
                "seats": session.seats,
                "teams": session.info.teams,
                "seat_names": [session.info.seat_name(i) for i in range(session.seats)],
                "rules": p.rules_to_json(session.rules),
                "bot": table.bot,
                "scored": [
                    Event(SCORE, deal=i + 1, score=score).to_json()
                    for i, score in enumerate(session.match.history)
                ],
            }
            if ref is not None:
                joined["ref"] = ref
            update = table.update(seat, [])
            self._send(conn, joined)
            self._send(conn, update)
            if replaced is not None and replaced is not conn:
                replaced.table = replaced.seat = None
                self._close(replaced, CLOSE_REPLACED, "the seat was claimed again")
            self._maybe_start(table)  # before the seat list, which says it started
            await self._tell_players(table)
        self.kick(table)

    async def _start(self, conn: Conn, msg: dict[str, Any], ref: Any) -> dict[str, Any]:
        table = self._table(msg)
        host = p.field_of(msg, "host", str)
        if not hmac.compare_digest(table.host.encode(), host.encode()):
            raise p.ProtocolError(p.NOT_HOST, "only the table's host (its host token) starts it")
        if not table.started:
            async with table.lock:
                table.start()
                await self._tell_players(table)
        self.kick(table)
        out: dict[str, Any] = {"type": "started", "table": table.code}
        if ref is not None:
            out["ref"] = ref
        return out

    def _maybe_start(self, table: Table) -> None:
        """A table starts by itself once every seat is held."""
        if not table.started and all(s.conn is not None for s in table.seats):
            table.start()

    async def _act(self, conn: Conn, msg: dict[str, Any], ref: Any) -> None:
        table, held = self._seated(conn)
        seat = p.field_of(msg, "seat", int)
        deal = p.field_of(msg, "deal", int)
        step = p.field_of(msg, "step", int)
        action = p.action_from_json(msg.get("action"))
        if seat != held:
            raise p.ProtocolError(p.NOT_YOUR_SEAT, f"you hold seat {held}, not seat {seat}")
        async with table.lock:
            if table.seats[held].conn is not conn:
                raise p.ProtocolError(p.NOT_SEATED, "this connection no longer holds the seat")
            if not table.started or table.session.deal is None:
                raise p.ProtocolError(p.NOT_STARTED, "the table has not started")
            if (deal, step) != table.step():
                raise p.ProtocolError(
                    p.STALE,
                    f"this action answers deal {deal} step {step}; the table is at deal "
                    f"{table.step()[0]} step {table.step()[1]}",
                )
            session = table.session
            if session.to_act != seat:
                raise p.ProtocolError(p.NOT_YOUR_TURN, "it is not your turn")

            def apply() -> list[tuple[Conn, str]] | str:
                try:
                    events = session.act(seat, action)
                except IllegalMoveError as exc:
                    allowed = session.view(seat).known_cards()
                    if action.kind == "play":
                        allowed |= 1 << action.value
                    return redact(str(exc), allowed)
                return table.fan_out(events, conn, ref)

            sent = await self._change(table, apply)
            if isinstance(sent, str):
                raise p.ProtocolError(p.ILLEGAL, sent)
            for target, text in sent:
                self._send(target, text)
        self.kick(table)

    async def _explain(self, conn: Conn, msg: dict[str, Any], ref: Any) -> dict[str, Any]:
        table, seat = self._seated(conn)
        text = p.field_of(msg, "card", str)
        try:
            card = parse_card(text)
        except ValueError as exc:
            raise p.ProtocolError(p.BAD_MESSAGE, f"explain: {exc}") from None
        async with table.lock:
            session = table.session

            def why() -> str | None:
                if session.to_act != seat:
                    return Message("it is not your turn")
                reason = session.explain(card)
                if reason is None:
                    return None
                known = session.view(seat).known_cards() | 1 << card
                if isinstance(reason, Message) and reason.cards() & ~known == 0:
                    return reason  # names no card the seat may not know
                return redact(reason, known)

            reason = why()
        out: dict[str, Any] = {"type": "explained", "card": card_str(card), "reason": reason}
        if isinstance(reason, Message):  # so that each client says it in its language
            out["message"] = reason.to_json()
        if ref is not None:
            out["ref"] = ref
        return out

    async def _record(self, conn: Conn, msg: dict[str, Any], ref: Any) -> dict[str, Any]:
        table = conn.table
        if table is None:
            raise p.ProtocolError(p.NOT_SEATED, "join a table first")
        async with table.lock:
            record = table.record()
        out = {"type": "record", "table": table.code, "record": record}
        if ref is not None:
            out["ref"] = ref
        return out

    async def _leave(self, conn: Conn, msg: dict[str, Any], ref: Any) -> dict[str, Any]:
        table = conn.table
        await self._leave_table(conn, at_once=True)
        out: dict[str, Any] = {"type": "left", "table": None if table is None else table.code}
        if ref is not None:
            out["ref"] = ref
        return out

    _handlers: ClassVar[dict[str, Handler]] = {
        "create": _create,
        "join": _join,
        "start": _start,
        "act": _act,
        "explain": _explain,
        "record": _record,
        "leave": _leave,
    }

    # --- leaving -----------------------------------------------------------------------

    async def _gone(self, conn: Conn) -> None:
        await self._leave_table(conn)

    async def _leave_table(self, conn: Conn, at_once: bool = False) -> None:
        """``conn`` leaves its table: a seat it held waits the grace period (at once:
        none) before the bot plays it."""
        table, seat = conn.table, conn.seat
        conn.table = conn.seat = None
        if table is None:
            return
        table.watchers.discard(conn)
        if seat is None:
            self.settle(table)
            return
        s = table.seats[seat]
        if s.conn is not conn:
            return
        s.conn = None
        s.away_since = time.monotonic() - (self.grace if at_once else 0.0)
        async with table.lock:
            await self._tell_players(table)
        loop = asyncio.get_running_loop()
        self._later(loop, 0.0 if at_once else self.grace, table)
        self.settle(table)
