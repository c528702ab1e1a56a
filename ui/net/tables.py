"""The tables of the table server: each table's state (its session, seats and watchers,
the bots of the empty seats), what each connection is sent, and its save file.

Every table follows a save file in the data folder (``Session.attach``): written after
every action, atomically, so a server killed at any moment restarts with every table
where it was (:meth:`TableRunner.load_tables`), and the clients reconnect on their own.
The writes wait for the table's change to be done on the event loop, then run in a
worker thread (:class:`DeferredSaveFile`).  :class:`TableRunner` runs the tables: their
saves, the timers of the dropped seats, the bots and the deals.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import time
from collections.abc import Callable
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
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
from atout.core.cards import parse_card
from atout.core.errors import AtoutError
from atout.core.savefile import SaveFile
from atout.core.session import Event
from atout.core.session import Session
from atout.core.views import Bot
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from . import protocol as p

log = logging.getLogger("atout.net")

T = TypeVar("T")

SAVE_SUFFIX = ".table"
"""A table's save file is ``<data>/<CODE>.table`` (a session save file)."""

MAX_BACKLOG = 1000
"""Messages waiting for one client beyond which the server cuts it off."""

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

    server: TableRunner
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
    """The save file, written in a worker thread after each change (:meth:`TableRunner._change`)."""

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
    _timers: set[asyncio.TimerHandle]

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
