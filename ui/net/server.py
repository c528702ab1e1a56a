"""The table server: tables of people and bots over websockets, the server authoritative.

Each table is one :class:`~atout.core.session.Session` whose seats are all ``remote``:
a client claims a seat with the table's code and the seat's secret token and sends
intentions; the session (the engine) checks every action.  Each connection is sent only
its seat's events (:func:`~atout.core.session.for_seat`) and view; a spectator only
public ones.  A seat nobody holds is played by the table's bot (the host's level): an
open seat as soon as the table starts, a seat whose player dropped once the grace period
is over; the player takes it back by reconnecting with its token.

Every table follows a save file in the data folder (``Session.attach``): written after
every action, atomically, so a server killed at any moment restarts with every table
where it was (:meth:`TableServer.load_tables`), and the clients reconnect on their own.

Threads: the event loop never blocks on a search nor on the disk.  Every change to a
table (an action, with its save written and forced to disk) runs in a worker thread
while the table's lock is held; bots think in a second, smaller pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import ClassVar
from typing import TypeVar

from atout.core import Action
from atout.core import Engine
from atout.core import View
from atout.core.cards import RANK_NAMES
from atout.core.cards import RANKS
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import card_str
from atout.core.cards import parse_card
from atout.core.errors import AtoutError
from atout.core.errors import IllegalMoveError
from atout.core.savefile import SaveFile
from atout.core.session import REMOTE
from atout.core.session import Event
from atout.core.session import Player
from atout.core.session import Session
from atout.core.views import Bot
from websockets.asyncio.server import Server
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from . import protocol as p

log = logging.getLogger("atout.net")

T = TypeVar("T")
Handler = Callable[["TableServer", "Conn", dict[str, Any], Any], Awaitable[dict[str, Any] | None]]
"""A message's handler: the server, the connection, the message and its ref; the reply."""

SAVE_SUFFIX = ".table"
"""A table's save file is ``<data>/<CODE>.table`` (a session save file)."""

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes avoid the letters people confuse (I, O, 0, 1)."""

MAX_BACKLOG = 1000
"""Messages waiting for one client beyond which the server cuts it off."""

CLOSE_REPLACED = 4001
"""Close code: the seat was claimed by another connection with its token."""

# seat states as the ``players`` message tells them
OPEN, PERSON_HERE, AWAY, BOT_PLAYS = "open", "person", "away", "bot"


# --- cards named in a text --------------------------------------------------------------

_CARD_TEXT = re.compile(r"\b(10|[789TJQKA])([CDHS])\b")
_CARD_WORDS = re.compile(
    r"\b(?:the\s+)?(7|8|9|10|jack|queen|king|ace)\s+of\s+(clubs|diamonds|hearts|spades)\b",
    re.IGNORECASE,
)


def cards_named(text: str) -> CardSet:
    """Every card ``text`` names (``JH``, ``10S``, ``the jack of hearts``)."""
    mask = 0
    for rank, suit in _CARD_TEXT.findall(text):
        mask |= 1 << parse_card(rank + suit)
    for rank, suit in _CARD_WORDS.findall(text):
        mask |= 1 << (SUIT_NAMES.index(suit.lower()) * 8 + RANK_NAMES.index(rank.lower()))
    return mask


def redact(text: str, allowed: CardSet) -> str:
    """``text`` with every card it names that is not in ``allowed`` replaced by "a
    card": an error message never tells a seat a card it may not know."""

    def keep(card: Card, said: str) -> str:
        return said if allowed >> card & 1 else "a card"

    def text_sub(m: re.Match[str]) -> str:
        rank = "10" if m.group(1) == "T" else m.group(1)
        return keep(SUITS.index(m.group(2)) * 8 + RANKS.index(rank), m.group(0))

    def words_sub(m: re.Match[str]) -> str:
        suit = SUIT_NAMES.index(m.group(2).lower())
        return keep(suit * 8 + RANK_NAMES.index(m.group(1).lower()), m.group(0))

    return _CARD_WORDS.sub(words_sub, _CARD_TEXT.sub(text_sub, text))


# --- saving --------------------------------------------------------------------------------


class DeferredSaveFile(SaveFile):
    """A table's save file whose writes wait for :meth:`flush`: the table's work (the
    engine, the messages) runs on the event loop, and only the disk's work (the write
    and the forcing to disk) runs in a worker thread, before anyone is told of the
    action."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._pending: list[Callable[[], None]] = []

    def write(self, data: dict[str, Any]) -> None:
        self._pending.append(functools.partial(SaveFile.write, self, data))

    def append_action(self, seat: int, action: Action) -> None:
        self._pending.append(functools.partial(SaveFile.append_action, self, seat, action))

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def flush(self) -> None:
        """Do the writes waiting, in order (in a worker thread)."""
        ops, self._pending = self._pending, []
        for op in ops:
            op()


def defer_saves(session: Session) -> DeferredSaveFile | None:
    """Make ``session``'s save file wait for :meth:`DeferredSaveFile.flush` (``None``:
    the session follows no save file)."""
    path = session.save_path
    if path is None:
        return None
    file = DeferredSaveFile(path)
    session.use_save_file(file)
    return file


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
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    cut: bool = False

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

    server: TableServer
    code: str
    session: Session
    host: str
    seats: list[Seat]
    bot: str
    started: bool
    lock: asyncio.Lock = field(init=False, default_factory=asyncio.Lock)
    watchers: set[Conn] = field(init=False, default_factory=set)
    bots: dict[int, Bot] = field(init=False, default_factory=dict)
    driver: asyncio.Task[None] | None = field(init=False, default=None)
    file: DeferredSaveFile | None = field(init=False)
    """The save file, written in a worker thread after each change (:meth:`TableServer._change`)."""

    def __post_init__(self) -> None:
        self.file = defer_saves(self.session)

    # --- who plays a seat ----------------------------------------------------------------

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
        return {
            "table": self.code,
            "host": self.host,
            "tokens": [s.token for s in self.seats],
            "bot": self.bot,
            "started": self.started,
        }

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
        head = json.dumps(
            {
                "type": "update",
                "table": self.code,
                "deal": deal,
                "step": step,
                "to_act": session.to_act,
                "scores": list(session.scores),
                "deals_scored": session.deals_scored,
                "result": None
                if result is None
                else {"winner": result.winner, "reason": result.reason},
                "started": self.started,
            }
        )[:-1]
        told = [(e, json.dumps(e.to_json())) for e in events]
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
                    public = json.dumps(p.view_public_json(view))[1:]
                view_text = json.dumps(p.view_seat_json(view))[:-1] + "," + public
            said = ",".join(
                text for e, text in told if e.to is None or (seat is not None and e.to == seat)
            )
            tail = f',"ref":{json.dumps(ref)}' if ref is not None and seat == actor else ""
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
        match is over: nothing in it tells a card still in play or a deal to come."""
        record = self.session.record()
        deals = self.session.match.deals
        if deals and not deals[-1].is_over:
            record["deals"] = record["deals"][:-1]
        if self.session.result is None:
            record.pop("seed", None)
        return record


# --- the server ----------------------------------------------------------------------------


class TableServer:
    """The websocket table server.  ``data``: the folder of the tables' save files
    (``None``: tables are not saved).  ``grace``: seconds a dropped player's seat waits
    before a bot plays it."""

    def __init__(
        self,
        engine: Engine,
        data: Path | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        grace: float = 30.0,
        max_tables: int = 2000,
        io_workers: int = 32,
        bot_workers: int = 2,
    ) -> None:
        self.engine = engine
        self.data = data
        self.host = host
        self.port = port
        self.grace = grace
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.io = ThreadPoolExecutor(io_workers, thread_name_prefix="atout-table")
        self.thinkers = ThreadPoolExecutor(bot_workers, thread_name_prefix="atout-bot")
        self._server: Server | None = None
        self._timers: set[asyncio.TimerHandle] = set()
        self._closing: set[asyncio.Task[None]] = set()
        self.problems: list[str] = []
        """The save files that could not be resumed at start, one line each."""

    # --- life --------------------------------------------------------------------------

    async def start(self) -> None:
        """Resume the saved tables and listen (``self.port`` is the port bound)."""
        if self.data is not None:
            self.data.mkdir(parents=True, exist_ok=True)
            await asyncio.get_running_loop().run_in_executor(self.io, self.load_tables)
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
            table.session.detach()
        self.io.shutdown(wait=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)

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
            now = time.monotonic()
            seats = [Seat(t, held_once=True, away_since=now) for t in tokens]
            self.tables[code] = Table(
                self, code, session, host, seats, bot, bool(meta.get("started"))
            )

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
        search, no disk), then the save file's writes in a worker thread; the caller
        tells the clients only after this returns, so an action is on disk before anyone
        learns of it.  The caller holds the table's lock."""
        result = fn()
        file = table.file
        if file is not None and file.pending:
            await self._work(file.flush)
        return result

    # --- a connection ------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        conn = Conn(ws)
        writer = asyncio.get_running_loop().create_task(self._write(conn))
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
                if not conn.outbox.empty():
                    await asyncio.sleep(0)  # let the writer send before reading on
        except ConnectionClosed:
            pass
        finally:
            writer.cancel()
            await self._gone(conn)

    def _send(self, conn: Conn, msg: dict[str, Any] | str) -> None:
        """Queue ``msg`` for ``conn``: its own writer task sends the queue in order, so a
        table never waits for a slow client.  A client that lets :data:`MAX_BACKLOG`
        messages pile up is cut off."""
        if conn.outbox.qsize() >= MAX_BACKLOG:
            if not conn.cut:
                conn.cut = True
                log.warning("a client read nothing for %d messages: cut off", MAX_BACKLOG)
                transport = conn.ws.transport
                if transport is not None:
                    transport.abort()
            return
        conn.outbox.put_nowait(msg if isinstance(msg, str) else json.dumps(msg))

    async def _write(self, conn: Conn) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                text = await conn.outbox.get()
                await conn.ws.send(text)

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
        except Exception:  # a fault of ours: logged here, never shown in detail
            log.exception("message %r failed", kind)
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
            raise p.ProtocolError(p.NO_TABLE, f"no table {code!r} on this server")
        return table

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
        if len(self.tables) >= self.max_tables:
            raise p.ProtocolError(p.FULL, f"this server holds {self.max_tables} tables: no more")
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
        table = Table(self, code, session, host, seats, bot, started=False)
        self.tables[code] = table
        if self.data is not None:
            path = self.data / (code + SAVE_SUFFIX)
            async with table.lock:
                await self._work(lambda: session.attach(path, table.meta()))
                table.file = defer_saves(session)
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

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(6))
            if code not in self.tables:
                return code

    async def _join(self, conn: Conn, msg: dict[str, Any], ref: Any) -> None:
        table = self._table(msg)
        token = p.field_of(msg, "token", (str, type(None)), None)
        name = p.field_of(msg, "name", str, "")
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
                if name:
                    s.name = name
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
            }
            if ref is not None:
                joined["ref"] = ref
            update = table.update(seat, [])
            self._send(conn, joined)
            self._send(conn, update)
            if replaced is not None and replaced is not conn:
                replaced.table = replaced.seat = None
                closing = asyncio.get_running_loop().create_task(
                    replaced.ws.close(CLOSE_REPLACED, "the seat was claimed again")
                )
                self._closing.add(closing)
                closing.add_done_callback(self._closing.discard)
            await self._tell_players(table)
        self._maybe_start(table)
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
                    return "it is not your turn"
                reason = session.explain(card)
                if reason is None:
                    return None
                return redact(reason, session.view(seat).known_cards() | 1 << card)

            reason = why()
        out = {"type": "explained", "card": card_str(card), "reason": reason}
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

    async def _tell_players(self, table: Table) -> None:
        text = json.dumps(table.players_message())
        for conn in [s.conn for s in table.seats if s.conn is not None] + list(table.watchers):
            self._send(conn, text)

    # --- the bots and the deals --------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Let the table move on by itself (deal, bots) if it can: one driver task a
        table, started when none runs."""
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        session = table.session
        for _ in range(100_000):  # bounded: a match has far fewer actions
            async with table.lock:
                if not table.started or session.result is not None:
                    return
                if session.needs_deal:
                    sent = await self._change(table, lambda: table.fan_out(session.next_deal()))
                    for target, text in sent:
                        self._send(target, text)
                    continue
                seat = session.to_act
                if seat is None or not table.bot_plays(seat):
                    return
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


def _ask(bot: Bot, view: View) -> object:
    """A bot's answer, or the exception it raised (the session then plays for it)."""
    try:
        action: Action = bot.choose(view)
        return action
    except Exception as exc:
        return exc


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

    def stop(self, timeout: float = 30.0) -> None:
        stopped = self._stopped
        if stopped is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(stopped.set)
        self._thread.join(timeout)


async def serve_forever(
    server: TableServer, ready: Callable[[TableServer], None] | None = None
) -> None:
    """Run ``server`` until cancelled (``atout serve``)."""
    await server.start()
    if ready is not None:
        ready(server)
    try:
        await asyncio.Future()
    finally:
        await server.stop()
