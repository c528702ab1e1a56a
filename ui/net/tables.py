"""The tables of the table server: each table's state (its session, seats and watchers,
the bots of the empty seats) and what each connection is sent.

Every table follows a save file in the data folder (``Session.attach``): each action's
line is written before anyone is told of it, so a server killed at any moment restarts
with every table where it was, and the clients reconnect on their own.  How the tables
are run (their save files resumed at start, the timers of the dropped seats, the bots and
the deals, the queue of each connection, finished tables put away) is
:mod:`atout.ui.net.tablerunner`; how the saves are written (group commit, the deal's
whole-file writes in a worker thread) is :mod:`atout.ui.net.saves`.
"""

from __future__ import annotations

import asyncio
import collections
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol

from atout.core import View
from atout.core.model import MatchResult
from atout.core.session import Event
from atout.core.session import Session
from atout.core.text import Message
from atout.core.views import Bot
from websockets.asyncio.server import ServerConnection

from . import protocol as p
from .saves import DeferredSaveFile
from .saves import Syncer
from .saves import defer_saves

encode = json.JSONEncoder(separators=(",", ":")).encode
"""JSON text as the server sends it: compact (no spaces), ASCII."""

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes avoid the letters people confuse (I, O, 0, 1)."""

MAX_WORKERS = 16
"""Worker processes a server runs its tables on at most (``atout serve --workers``)."""


def worker_of(code: str, workers: int) -> int:
    """The worker process (0 to ``workers - 1``) that holds table ``code``: its first
    letter names it, so that a ``join`` is routed by its code alone and a restarted
    worker finds its tables by their file names.  A code that names no table of any
    worker (not a code) goes to worker 0, which says so."""
    index = CODE_LETTERS.find(code[:1]) if code else -1
    return index % workers if index >= 0 else 0


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


class TableHost(Protocol):
    """What a table needs of the server that runs it
    (:class:`~atout.ui.net.tablerunner.TableRunner`)."""

    @property
    def syncer(self) -> Syncer | None:
        """Forces the action lines to disk (``None``: tables are not saved)."""

    @property
    def grace(self) -> float:
        """Seconds a dropped player's seat waits before a bot plays it."""


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

    server: TableHost
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
    thread after the change (:meth:`~atout.ui.net.tablerunner.TableRunner._change`)."""
    idle_since: float = field(init=False, default=0.0)
    """Since when a finished table has had nobody connected (:meth:`~atout.ui.net.tablerunner.TableRunner.settle`)."""

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


def result_json(result: MatchResult) -> dict[str, Any]:
    """How the match ended, as an update tells it: the winner, the reason in English
    and, when the rule plugin wrote it as a message naming no card, the message (its id
    and parameters) for each client to say in its own language."""
    out: dict[str, Any] = {"winner": result.winner, "reason": result.reason}
    reason = result.reason
    if isinstance(reason, Message) and not reason.cards():
        out["message"] = reason.to_json()
    return out
