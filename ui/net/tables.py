"""The tables of the table server: each table's state (its session, seats and watchers,
the bots of the empty seats), what each connection is sent, and its save file.

Every table follows a save file in the data folder (``Session.attach``): each action's
line is written before anyone is told of it, so a server killed at any moment restarts
with every table where it was (:meth:`TableRunner.load_tables`), and the clients
reconnect on their own.  How the saves are written (group commit, the deal's whole-file
writes in a worker thread) is :mod:`atout.ui.net.saves`.  :class:`TableRunner` runs the tables: their saves, the
timers of the dropped seats, the bots and the deals, and puts finished tables away.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import time
import traceback
from collections.abc import Callable
from collections.abc import Iterable
from concurrent.futures import Future
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import TypeVar

from atout.core import Action
from atout.core import Engine
from atout.core import View
from atout.core.errors import AtoutError
from atout.core.model import MatchResult
from atout.core.session import Event
from atout.core.session import Session
from atout.core.text import Message
from atout.core.views import Bot
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from . import protocol as p
from .saves import DeferredSaveFile
from .saves import Syncer
from .saves import defer_saves

log = logging.getLogger("atout.net")

T = TypeVar("T")

encode = json.JSONEncoder(separators=(",", ":")).encode
"""JSON text as the server sends it: compact (no spaces), ASCII."""

SAVE_SUFFIX = ".table"
"""A table's save file is ``<data>/<CODE>.table`` (a session save file)."""

LINGER = 300.0
"""Seconds a finished table stays in memory once nobody is connected to it (its save
file stays on disk)."""

CLOSED_KEPT = 10_000
"""How many put-away tables without a save file the server still knows the end of."""

UNSTARTED_TTL = 3600.0
"""Seconds a table that has not started lives after its creation; then it is removed,
its save file too (it holds no deal), also when a restart reads it back."""

MAX_BACKLOG = 1000
"""Messages waiting for one client beyond which the server cuts it off."""

REDEAL_OUTCOME = "redeal"
"""The ``outcome`` of a passed-out deal's ``result`` in a deal record."""

# seat states as the ``players`` message tells them
OPEN, PERSON_HERE, AWAY, BOT_PLAYS = "open", "person", "away", "bot"

# --- tables --------------------------------------------------------------------------------


@dataclass(eq=False)
class Conn:
    """One client connection: whether it said hello, the table and seat it holds, and
    its message budget (a token bucket)."""

    ws: ServerConnection
    hello: bool = False
    table: Table | None = None
    seat: int | None = None
    budget: float = float(p.BURST)
    refilled: float = field(default_factory=time.monotonic)
    refused: int = 0
    backlog: collections.deque[str] = field(default_factory=collections.deque)
    """Messages waiting for the socket to take them (it is full), sent by ``writer``."""
    writer: asyncio.Task[None] | None = None
    cut: bool = False
    address: str = ""
    """The client's network address (the limits on the tables an address creates)."""
    created: int = 0
    """Tables this connection created."""

    def spend(self) -> bool:
        """Take one message from the budget; ``False``: over the rate (refuse it)."""
        now = time.monotonic()
        self.budget = min(float(p.BURST), self.budget + (now - self.refilled) * p.RATE)
        self.refilled = now
        if self.budget >= 1.0:
            self.budget -= 1.0
            return True
        return False


@dataclass(eq=False)
class Seat:
    """A seat of a table: its secret token, who holds it, since when it is empty."""

    token: str
    name: str = ""
    conn: Conn | None = None
    held_once: bool = False
    away_since: float = 0.0


@dataclass(eq=False, repr=False)
class Table:
    """One table: a session, its seats and watchers, the bots of the empty seats."""

    server: TableRunner
    code: str
    session: Session
    host: str
    seats: list[Seat]
    bot: str
    started: bool
    created: float = 0.0
    """When the table was created (the server's clock, seconds since the epoch): a table
    not started :data:`UNSTARTED_TTL` seconds later is removed."""
    address: str = ""
    """The address of the client that created it ("" for a table read back from its save
    file)."""
    lock: asyncio.Lock = field(init=False, default_factory=asyncio.Lock)
    watchers: set[Conn] = field(init=False, default_factory=set)
    bots: dict[int, Bot] = field(init=False, default_factory=dict)
    driver: asyncio.Task[None] | None = field(init=False, default=None)
    file: DeferredSaveFile | None = field(init=False)
    """The save file: action lines written at once, whole-file writes in a worker
    thread after the change (:meth:`TableRunner._change`)."""
    idle_since: float = field(init=False, default=0.0)
    """Since when a finished table has had nobody connected (:meth:`TableRunner.settle`)."""

    def __post_init__(self) -> None:
        self.file = defer_saves(self.session, self.server.syncer)

    # --- who plays a seat ----------------------------------------------------------------

    def connected(self) -> bool:
        """Whether any client holds a seat of the table or watches it."""
        return bool(self.watchers) or any(s.conn is not None for s in self.seats)

    def seat_state(self, seat: int, now: float) -> str:
        s = self.seats[seat]
        if s.conn is not None:
            return PERSON_HERE
        if s.held_once and now < s.away_since + self.server.grace:
            return AWAY
        return BOT_PLAYS if self.started else OPEN

    def bot_plays(self, seat: int) -> bool:
        return self.started and self.seat_state(seat, time.monotonic()) == BOT_PLAYS

    def bot_for(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            match = self.session.match
            bot = self.bots[seat] = self.session.engine.bot(
                self.bot, match.game, match.rules, seed=match.seed + seat
            )
        return bot

    def players_message(self) -> dict[str, Any]:
        now = time.monotonic()
        return {
            "type": "players",
            "table": self.code,
            "started": self.started,
            "players": [
                {"seat": i, "name": s.name, "state": self.seat_state(i, now)}
                for i, s in enumerate(self.seats)
            ],
        }

    def start(self) -> None:
        """Start the table: the first deal is dealt and the bots play the empty seats (the
        flag reaches the save file with the deal)."""
        self.started = True
        self.session.meta["started"] = True

    def meta(self) -> dict[str, Any]:
        """What the save file keeps of the table besides its session (the players' names
        reach it with the next whole-file write)."""
        return {
            "table": self.code,
            "host": self.host,
            "tokens": [s.token for s in self.seats],
            "bot": self.bot,
            "started": self.started,
            "names": [s.name for s in self.seats],
            "created": self.created,
        }

    def connections(self) -> list[Conn]:
        """Every connection at the table: the seats held, then the watchers."""
        return [s.conn for s in self.seats if s.conn is not None] + list(self.watchers)

    # --- what each connection is sent (called with the lock held, in a worker) -------------

    def step(self) -> tuple[int, int]:
        """``(deal, step)``: the deal's number and how many actions it has seen; an
        ``act`` must name the pair it answers (an old action replayed is stale)."""
        deal = self.session.deal
        return self.session.deal_number, len(deal.actions) if deal is not None else 0

    def view_for(self, seat: int | None) -> View | None:
        session = self.session
        if session.deal is None:
            return None
        if seat is None:
            return p.public_view(session.view(0))
        return session.view(seat)

    def update(self, seat: int | None, events: list[Event], ref: Any = None) -> str:
        """The text of the ``update`` message for ``seat`` (``None``: a spectator)."""
        return self.updates([seat], events, seat, ref)[seat]

    def updates(
        self,
        seats: Iterable[int | None],
        events: list[Event],
        actor: int | None = None,
        ref: Any = None,
    ) -> dict[int | None, str]:
        """The text of the ``update`` message for each of ``seats`` (``None``: a
        spectator) after ``events``; the ``actor``'s carries ``ref``.

        What every seat is sent alike (the table's state, the public part of the view,
        the public events) is encoded once; each message is put together from the
        encoded parts, so an action costs one encoding of the table, not one a seat."""
        session = self.session
        deal, step = self.step()
        result = session.result
        head = encode(
            {
                "type": "update",
                "table": self.code,
                "deal": deal,
                "step": step,
                "to_act": session.to_act,
                "scores": list(session.scores),
                "deals_scored": session.deals_scored,
                "result": None if result is None else result_json(result),
                "started": self.started,
            }
        )[:-1]
        told = [(e, encode(e.to_json())) for e in events]
        public = ""
        out: dict[int | None, str] = {}
        for seat in seats:
            if seat in out:
                continue
            view = self.view_for(seat)
            if view is None:
                view_text = "null"
            else:
                if not public:
                    public = p.view_public_text(view)[1:]
                view_text = p.view_seat_text(view)[:-1] + "," + public
            said = ",".join(
                text for e, text in told if e.to is None or (seat is not None and e.to == seat)
            )
            tail = f',"ref":{encode(ref)}' if ref is not None and seat == actor else ""
            out[seat] = f'{head},"events":[{said}],"view":{view_text}{tail}}}'
        return out

    def fan_out(
        self, events: list[Event], actor: Conn | None = None, ref: Any = None
    ) -> list[tuple[Conn, str]]:
        """Every connection of the table with the text of its update (the actor's carries
        ``ref``)."""
        held = [s.conn for s in self.seats if s.conn is not None]
        seats: list[int | None] = [c.seat for c in held]
        if self.watchers:
            seats.append(None)
        texts = self.updates(seats, events, actor.seat if actor is not None else None, ref)
        out = [(c, texts[c.seat]) for c in held]
        if self.watchers:
            out.extend((w, texts[None]) for w in self.watchers)
        return out

    def record(self) -> dict[str, Any]:
        """The match record with only the finished deals, and the seed only once the
        match is over: nothing in it tells a card still in play or a deal to come.  Its
        players are the names the seats were joined with (a seat nobody ever took is
        its bot's)."""
        record = self.session.record()
        record["players"] = [
            {"kind": "remote", "name": seat.name, "bot": ""}
            if seat.held_once
            else {"kind": "bot", "name": "", "bot": self.bot}
            for seat in self.seats
        ]
        deals = self.session.match.deals
        if deals and not deals[-1].is_over:
            record["deals"] = record["deals"][:-1]
        if self.session.result is None:
            record.pop("seed", None)
            record["deals"] = [hide_passed_out(d) for d in record["deals"]]
        return record


def passed_out(deal: dict[str, Any]) -> bool:
    """Whether a deal record is a passed-out deal's (everybody passed: dealt again)."""
    result = deal.get("result")
    return isinstance(result, dict) and result.get("outcome") == REDEAL_OUTCOME


def hide_passed_out(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal record as a ``record`` reply may show it while the match goes on: a
    passed-out deal without its ``layout``.  Nobody saw its cards, and the next deal is
    dealt from them (gathered and cut): its hands, the stock's order and, in Découverte,
    every face-down card would tell the seats the deal in play.  Its bids, dealer and
    result stay (every seat saw them); the whole deal is sent once the match is over."""
    if not passed_out(deal):
        return deal
    return {key: value for key, value in deal.items() if key != "layout"}


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
    """Seconds a table not started lives (:data:`UNSTARTED_TTL`)."""

    def load_tables(self) -> None:
        """Resume every table saved in the data folder (a file that cannot be resumed is
        named in :attr:`problems` and left as it is)."""
        assert self.data is not None
        for path in sorted(self.data.glob("*" + SAVE_SUFFIX)):
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
        if self.data is None or not code.isalnum() or not code.isascii():
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


def ended_text(table: Table) -> str:
    """How ``table``'s match ended, in one sentence: its final scores and winner."""
    session = table.session
    result = session.result
    scores = " to ".join(str(x) for x in session.scores)
    if result is None:
        return f"table {table.code} was closed"
    teams = session.info.teams
    winner = "" if result.winner is None else f"; {team_name(session, result.winner, teams)} won"
    return f"the match at table {table.code} is over: {scores}{winner}"


def team_name(session: Session, team: int, teams: int) -> str:
    """A team as the seat names say it (``North and South``, ``East``)."""
    names = [session.info.seat_name(s) for s in range(session.seats) if s % teams == team]
    return " and ".join(names)


def _ask(bot: Bot, view: View) -> object:
    """A bot's answer, or the exception it raised (the session then plays for it)."""
    try:
        action: Action = bot.choose(view)
        return action
    except Exception as exc:
        return exc


def result_json(result: MatchResult) -> dict[str, Any]:
    """How the match ended, as an update tells it: the winner, the reason in English
    and, when the rule plugin wrote it as a message naming no card, the message (its id
    and parameters) for each client to say in its own language."""
    out: dict[str, Any] = {"winner": result.winner, "reason": result.reason}
    reason = result.reason
    if isinstance(reason, Message) and not reason.cards():
        out["message"] = reason.to_json()
    return out
