"""The messages a client sends the table server once it said hello, and their answers:
``create``, ``join``, ``start``, ``act``, ``explain``, ``record``, ``leave``
(:class:`TableMessages`), and a connection leaving its table.  Every message is checked
(what, where, what is allowed) before anything changes; the engine checks every action.
The connections themselves (hello, the message rate, reading and dispatching) are
:class:`~atout.ui.net.server.TableServer`'s.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any
from typing import ClassVar

from atout.core.cards import card_str
from atout.core.cards import parse_card
from atout.core.errors import AtoutError
from atout.core.errors import IllegalMoveError
from atout.core.limits import LimitError
from atout.core.limits import check_name
from atout.core.limits import check_seed
from atout.core.session import REMOTE
from atout.core.session import Player
from atout.core.session import ScoreEvent
from atout.core.session import Session
from atout.core.text import Message

from . import protocol as p
from .redact import redact
from .saves import defer_saves
from .tablerunner import TableRunner
from .tables import CODE_LETTERS
from .tables import SAVE_SUFFIX
from .tables import Conn
from .tables import Seat
from .tables import Table

log = logging.getLogger("atout.net")

Handler = Callable[["TableMessages", "Conn", dict[str, Any], Any], Awaitable[dict[str, Any] | None]]
"""A message's handler: the server, the connection, the message and its ref; the reply."""

CLOSE_REPLACED = 4001
"""Close code: the seat was claimed by another connection with its token."""


class Elsewhere(Exception):
    """A message names a table another worker process holds (:mod:`atout.ui.net.front`):
    the connection moves there (:meth:`~atout.ui.net.server.TableServer.move`)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class TableMessages(TableRunner):
    """The handlers of the messages after ``hello`` (:attr:`_handlers`, by type), on
    the tables a :class:`TableRunner` runs; :class:`~atout.ui.net.server.TableServer`
    reads each message and calls its handler."""

    max_tables: int
    """Tables in play the server holds at most."""
    max_per_connection: int
    """Tables one connection may create in its life."""
    max_per_address: int
    """Tables in play created from one network address at once."""
    _closing: set[asyncio.Task[None]]
    """The closings of connections under way (kept until they end)."""

    def _table(self, msg: dict[str, Any]) -> Table:
        code = p.field_of(msg, "table", str).upper()
        if not self.owns(code):
            raise Elsewhere(code)
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
        if not self.owns(code):
            raise Elsewhere(code)
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
            first = secrets.choice(self.own_letters)
            code = first + "".join(secrets.choice(CODE_LETTERS) for _ in range(5))
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
                    ScoreEvent(deal=i + 1, score=score).to_json()
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
