"""Running the tables of the table server: their save files (resumed at start, written in
a worker thread after each change), the tables that never started, finished tables put
away, the queue of each connection, the bots and the deals (:class:`TableRunner`).  The
tables themselves are :mod:`atout.ui.net.tables`.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from typing import TypeVar

from atout.core import Action
from atout.core import Engine
from atout.core import View
from atout.core.errors import AtoutError
from atout.core.session import Session
from atout.core.views import Bot
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from . import protocol as p
from .saves import Syncer
from .tables import CLOSED_KEPT
from .tables import CODE_LETTERS
from .tables import MAX_BACKLOG
from .tables import SAVE_SUFFIX
from .tables import Conn
from .tables import Seat
from .tables import Table
from .tables import encode
from .tables import ended_text
from .tables import worker_of

log = logging.getLogger("atout.net")

T = TypeVar("T")

# --- running the tables --------------------------------------------------------------------


class TableRunner:
    """The tables of a server and what runs them: their save files (resumed at start,
    written in a worker thread after each change), the timers of the dropped seats, the
    bots and the deals, and the queue of each connection.  The
    :class:`~atout.ui.net.server.TableServer` is one, with the connections and the
    messages on top."""

    engine: Engine
    data: Path | None
    grace: float
    """Seconds a dropped player's seat waits before a bot plays it."""
    tables: dict[str, Table]
    io: ThreadPoolExecutor
    thinkers: ThreadPoolExecutor
    problems: list[str]
    syncer: Syncer | None
    """Forces the action lines to disk (``None``: tables are not saved)."""
    linger: float
    """Seconds a finished table stays in memory once nobody is connected to it."""
    closed: collections.OrderedDict[str, str]
    """The tables put away that no save file keeps: their code and how their match
    ended (the latest :data:`CLOSED_KEPT`)."""
    _timers: set[asyncio.TimerHandle]
    clock: Callable[[], float]
    """The wall clock (seconds since the epoch; tests hand in their own): when a table
    was created, when a table not started expires."""
    unstarted_ttl: float
    """Seconds a table not started lives (:data:`~atout.ui.net.tables.UNSTARTED_TTL`)."""
    slot: int
    """Which of the server's worker processes this is (0 when it runs alone)."""
    workers: int
    """How many worker processes the server runs its tables on (1: this one alone)."""

    def owns(self, code: str) -> bool:
        """Whether table ``code`` is this worker's (:func:`~atout.ui.net.tables.worker_of`)."""
        return worker_of(code, self.workers) == self.slot

    @property
    def own_letters(self) -> str:
        """The first letters of the codes of this worker's tables."""
        return "".join(c for c in CODE_LETTERS if self.owns(c))

    def load_tables(self) -> None:
        """Resume every table saved in the data folder (a file that cannot be resumed is
        named in :attr:`problems` and left as it is)."""
        assert self.data is not None
        for path in sorted(self.data.glob("*" + SAVE_SUFFIX)):
            if not self.owns(path.stem):
                continue  # another worker's table
            try:
                session = Session.resume(self.engine, path)
                meta = session.meta
                tokens = meta.get("tokens")
                host, bot, code = meta.get("host"), meta.get("bot"), meta.get("table")
                if (
                    not isinstance(tokens, list)
                    or len(tokens) != session.seats
                    or not all(isinstance(t, str) for t in tokens)
                    or not isinstance(host, str)
                    or not isinstance(bot, str)
                    or code != path.stem
                ):
                    raise AtoutError(f"{path}: not a table's save file")
            except AtoutError as exc:
                self.problems.append(str(exc))
                log.warning("%s", exc)
                continue
            if session.result is not None:
                session.detach()  # a finished match stays on disk until someone asks
                continue
            table = self._table_of(session, path)
            if self.expired(table):
                session.detach()
                path.unlink(missing_ok=True)
                log.info("table %s was not started in time: removed", code)
                continue
            self.tables[code] = table

    def _table_of(self, session: Session, path: Path) -> Table:
        """The table a resumed session's save file describes (checked by the caller)."""
        meta = session.meta
        now = time.monotonic()
        names = meta.get("names")
        if not isinstance(names, list) or len(names) != len(meta["tokens"]):
            names = [""] * len(meta["tokens"])
        seats = [
            Seat(t, name=n if isinstance(n, str) else "", held_once=True, away_since=now)
            for t, n in zip(meta["tokens"], names, strict=True)
        ]
        created = meta.get("created")
        if isinstance(created, bool) or not isinstance(created, int | float):
            created = self.clock()  # a save file written before tables expired
        return Table(
            self,
            path.stem,
            session,
            meta["host"],
            seats,
            meta["bot"],
            bool(meta.get("started")),
            created=float(created),
        )

    def saved_table(self, code: str) -> Table | None:
        """The finished table ``code`` put away from memory, read back from its save file
        (``None``: no such file, or not a finished table's).  Runs in a worker thread."""
        if self.data is None or not code.isalnum() or not code.isascii() or not self.owns(code):
            return None
        path = self.data / (code + SAVE_SUFFIX)
        if not path.is_file():
            return None
        try:
            session = Session.resume(self.engine, path)
        except AtoutError as exc:
            log.warning("%s", exc)
            return None
        meta = session.meta
        if session.result is None or not isinstance(meta.get("tokens"), list):
            session.detach()  # not one this server put away: left alone
            return None
        return self._table_of(session, path)

    # --- tables that never started -----------------------------------------------------

    def expired(self, table: Table) -> bool:
        """Whether ``table`` has not started and was created :attr:`unstarted_ttl` seconds
        ago or more."""
        return not table.started and self.clock() - table.created >= self.unstarted_ttl

    def expire_unstarted(self) -> int:
        """Remove every table that has not started in :attr:`unstarted_ttl` seconds: its
        clients are told (``closed``), its save file (which holds no deal) is deleted.
        How many were removed.  Runs on the loop: before each ``create`` and every
        minute."""
        gone = [t for t in self.tables.values() if self.expired(t)]
        for table in gone:
            del self.tables[table.code]
            if table.driver is not None:
                table.driver.cancel()
            text = encode(
                p.error(p.CLOSED, f"table {table.code} was not started in time: it is removed")
            )
            for conn in table.connections():
                conn.table = conn.seat = None
                self._send(conn, text)
            path = table.session.save_path
            table.session.detach()
            if path is not None:
                self.io.submit(path.unlink, missing_ok=True)
        return len(gone)

    # --- putting finished tables away ----------------------------------------------------

    def settle(self, table: Table) -> None:
        """A finished table nobody is connected to is put away after :attr:`linger`
        seconds (:meth:`_put_away`); called whenever a table may have become so."""
        if table.session.result is None or table.connected():
            return
        table.idle_since = time.monotonic()
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._timers.discard(handle)
            self._put_away(table)

        handle = loop.call_later(self.linger + 0.01, fire)
        self._timers.add(handle)

    def _put_away(self, table: Table) -> None:
        """Drop ``table`` from memory if its match is over, its save file written and
        nobody has been connected for :attr:`linger` seconds.  Its save file stays: a
        client that joins it later reads it back (:meth:`saved_table`); without a save
        file, a late client is told how the match ended (``closed``)."""
        if self.tables.get(table.code) is not table or table.connected():
            return
        if table.session.result is None or table.lock.locked():
            return
        if time.monotonic() - table.idle_since < self.linger:
            return
        if table.file is not None and table.file.pending:
            return
        del self.tables[table.code]
        if table.driver is not None:
            table.driver.cancel()
        table.session.detach()
        if table.file is None:
            self.closed[table.code] = ended_text(table)
            while len(self.closed) > CLOSED_KEPT:
                self.closed.popitem(last=False)

    def _later(self, loop: asyncio.AbstractEventLoop, delay: float, table: Table) -> None:
        def fire() -> None:
            self._timers.discard(handle)
            self.kick(table)

        handle = loop.call_later(delay + 0.01, fire)
        self._timers.add(handle)

    async def _work(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.io, fn)

    async def _change(self, table: Table, fn: Callable[[], T]) -> T:
        """Run ``fn``, a change to ``table``'s session, on the loop (it is quick: no
        search, no disk), then the save file's whole-file writes in a worker thread; the
        caller tells the clients only after this returns, so an action is in the file
        before anyone learns of it.  A write that must come first (a deal's start) is
        awaited; a deal's end, whose last line is already written, is left to the next
        deal's rewrite, which the table's driver makes at once (:meth:`kick`), or, when
        no deal follows, rewritten in the background, in order with the table's later
        writes.  The caller holds the table's lock."""
        result = fn()
        file = table.file
        if file is None:
            return result
        session = table.session
        if file.deferred and not (table.started and session.needs_deal):
            file.settle()  # no deal follows at once (the match is over): rewrite it now
        if file.urgent:
            await self._work(file.flush)
        elif file.pending:
            self.io.submit(file.flush).add_done_callback(_flushed)
        return result

    def _send(self, conn: Conn, msg: dict[str, Any] | str) -> None:
        """Send ``msg`` to ``conn`` without waiting: handed to its socket at once when
        the socket takes it, else queued for the connection's own writer task, so a
        table never waits for a slow client.  A client that lets :data:`MAX_BACKLOG`
        messages pile up is cut off."""
        if conn.cut:
            return
        text = msg if isinstance(msg, str) else encode(msg)
        ws = conn.ws
        if not conn.backlog and not ws.paused:
            if ws.protocol.state is State.OPEN:
                try:  # what ``ws.send`` does, without a task and a context a message
                    ws.protocol.send_text(text.encode())
                    ws.send_data()
                except Exception:  # the connection is failing: it is closed apart
                    log.debug("a send failed", exc_info=True)
            return  # a closing connection is sent nothing more
        if len(conn.backlog) >= MAX_BACKLOG:
            conn.cut = True
            conn.backlog.clear()
            log.warning("a client read nothing for %d messages: cut off", MAX_BACKLOG)
            transport = ws.transport
            if transport is not None:
                transport.abort()
            return
        conn.backlog.append(text)
        if conn.writer is None:
            conn.writer = asyncio.get_running_loop().create_task(self._write(conn))

    async def _write(self, conn: Conn) -> None:
        """Send ``conn``'s backlog in order (a message leaves it once sent, so nothing
        overtakes it), then end."""
        try:
            while conn.backlog:
                await conn.ws.send(conn.backlog[0])
                if conn.backlog:
                    conn.backlog.popleft()
        except ConnectionClosed:
            conn.backlog.clear()
        finally:
            conn.writer = None

    async def _tell_players(self, table: Table) -> None:
        text = encode(table.players_message())
        for conn in [s.conn for s in table.seats if s.conn is not None] + list(table.watchers):
            self._send(conn, text)

    # --- the bots and the deals --------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Let the table move on by itself (deal, bots) if it can: one driver task a
        table, started when none runs (and none at all when there is nothing to do: a
        person's turn; whoever changes the table kicks it again)."""
        session = table.session
        if session.result is not None:
            self.settle(table)
            return
        if not table.started:
            return
        if not session.needs_deal:
            seat = session.to_act
            if seat is None or not table.bot_plays(seat):
                return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        """Deal and play the bots' seats of ``table`` while it can move by itself.  A
        fault here is the server's, never a client's: it is logged (without what the
        table holds) and every client of the table is told, instead of the task dying
        in silence."""
        try:
            await self._drive_table(table)
        except Exception as exc:
            log_failure(f"table {table.code}: its deals and bots stopped", exc)
            text = encode(
                p.error(
                    p.INTERNAL,
                    "the server failed to go on with this table (its log says where); "
                    "every action you were told of is kept",
                )
            )
            for conn in table.connections():
                self._send(conn, text)

    async def _drive_table(self, table: Table) -> None:
        session = table.session
        for _ in range(100_000):  # bounded: a match has far fewer actions
            async with table.lock:
                if not table.started or session.result is not None:
                    break
                if session.needs_deal:
                    sent = await self._change(table, lambda: table.fan_out(session.next_deal()))
                    for target, text in sent:
                        self._send(target, text)
                    continue
                seat = session.to_act
                if seat is None or not table.bot_plays(seat):
                    break
                bot = table.bot_for(seat)
                version = session.version
                view = session.view(seat)
            answer = await asyncio.get_running_loop().run_in_executor(
                self.thinkers, _ask, bot, view
            )
            async with table.lock:
                if session.version != version or not table.bot_plays(seat):
                    continue

                def play(seat: int = seat, answer: object = answer) -> list[tuple[Conn, str]]:
                    return table.fan_out(session.bot_answer(seat, answer))

                sent = await self._change(table, play)
                for target, text in sent:
                    self._send(target, text)
        if session.result is not None:
            self.settle(table)


def _flushed(done: Future[None]) -> None:
    """A save file's background flush ended: a failure is logged (the lines stay)."""
    exc = done.exception()
    if exc is not None:
        log_failure("a deal's save could not be rewritten (its lines stay)", exc)


def log_failure(what: str, exc: BaseException) -> None:
    """Log a fault of the server: ``what`` failed, the exception's type and the lines of
    code it went through, never its text nor its arguments (a save file, a layout or a
    token may be in them: an encoding error holds the whole text it failed on)."""
    stack = "".join(traceback.format_tb(exc.__traceback__))
    log.error("%s: %s\n%s", what, type(exc).__name__, stack.rstrip())


def _ask(bot: Bot, view: View) -> object:
    """A bot's answer, or the exception it raised (the session then plays for it)."""
    try:
        action: Action = bot.choose(view)
        return action
    except Exception as exc:
        return exc
