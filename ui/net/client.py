"""The client side: a connection any front end can use, and a remote table.

:class:`Client` runs a websocket connection in a background thread with its own event
loop; the front end talks to it through thread-safe queues: :meth:`Client.send` from any
thread, :meth:`Client.poll` (never blocks: a window calls it every frame) or
:meth:`Client.get` (blocks up to a timeout: the terminal).  When the connection drops it
reconnects by itself, says hello again and joins its table again with its token.

:class:`RemoteTable` gives the terminal game what it needs of a table (the view, acting,
the events) over a :class:`Client`: it is to a server's table what a
:class:`~atout.core.session.Session` is to a local match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from typing import Any

from atout.core import Action
from atout.core import GameInfo
from atout.core import IllegalMoveError
from atout.core import Rules
from atout.core import View
from atout.core.cards import Card
from atout.core.cards import card_str
from atout.core.errors import AtoutError
from atout.core.model import DealScore
from atout.core.model import MatchResult
from atout.core.session import NOTICE
from atout.core.session import SCORE
from atout.core.session import Event
from atout.core.text import Message
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.exceptions import InvalidHandshake
from websockets.exceptions import InvalidURI

from ..cards_text import seat_word
from ..i18n import _
from ..i18n import pgettext
from . import protocol as p

CONNECTION = "connection"
"""The type of the messages the client itself adds to its queue: ``state`` is ``lost``
(the connection dropped; it is being made again), ``back`` (reconnected) or ``closed``
(given up, or closed by the server for good: ``reason`` says why)."""


class NetworkError(AtoutError):
    """The server cannot be reached, or answered with an error to a request."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


class Client:
    """A connection to a table server at ``url`` (``ws://host:port``), in a background
    thread.  ``reconnect_for``: seconds to keep trying after the connection drops."""

    def __init__(self, url: str, reconnect_for: float = 120.0) -> None:
        self.url = url
        self.reconnect_for = reconnect_for
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self._out: asyncio.Queue[str] | None = None
        self._join: dict[str, Any] | None = None
        self._closing = False
        self._ready = threading.Event()
        self._failure: str | None = None
        self._ws: ClientConnection | None = None
        self._thread = threading.Thread(target=self._run, name="atout-client", daemon=True)
        self._refs = 0
        self._lock = threading.Lock()
        self._task: asyncio.Task[None] | None = None

    # --- the front end's side ------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> Client:
        """Connect and say hello; :class:`NetworkError` when the server cannot be
        reached or refuses the protocol version."""
        self._thread.start()
        if not self._ready.wait(timeout):
            self.close()
            raise NetworkError(
                _("no answer from {url} within {seconds} s").format(
                    url=self.url, seconds=f"{timeout:g}"
                )
            )
        if self._failure is not None:
            self.close()
            raise NetworkError(self._failure)
        return self

    def new_ref(self) -> int:
        with self._lock:
            self._refs += 1
            return self._refs

    def send(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` (from any thread).  A ``join`` is remembered and sent again on
        every reconnection."""
        if msg.get("type") == "join":
            self._join = dict(msg)
        text = json.dumps(msg)
        out = self._out
        if out is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(out.put_nowait, text)

    def send_raw(self, text: str | bytes) -> None:
        """Send a frame as it is (the tests send malformed ones)."""

        async def go() -> None:
            if self._ws is not None:
                with contextlib.suppress(ConnectionClosed):
                    await self._ws.send(text)

        asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)

    def poll(self) -> list[dict[str, Any]]:
        """Every message received since the last call (never blocks)."""
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, waiting up to ``timeout`` seconds (``None``: none came)."""
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def request(self, msg: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send ``msg`` with a fresh ``ref`` and wait for the answer that carries it;
        other messages received meanwhile stay queued, in order.  An ``error`` answer is
        a :class:`NetworkError`."""
        ref = self.new_ref()
        self.send({**msg, "ref": ref})
        kept: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        try:
            while True:
                left = deadline - time.monotonic()
                got = self.get(max(0.0, left)) if left > 0 else None
                if got is None:
                    raise NetworkError(
                        _("no answer to {request} within {seconds} s").format(
                            request=msg.get("type"), seconds=f"{timeout:g}"
                        )
                    )
                if got.get("ref") == ref:
                    if got.get("type") == "error":
                        raise NetworkError(str(got.get("message")), str(got.get("code")))
                    return got
                if got.get("type") == CONNECTION and got.get("state") == "closed":
                    raise NetworkError(str(got.get("reason", "the connection is closed")))
                kept.append(got)
        finally:
            for m in reversed(kept):  # put back, in order, ahead of what came since
                self._requeue_front(m)

    def _requeue_front(self, msg: dict[str, Any]) -> None:
        with self.inbox.mutex:
            self.inbox.queue.appendleft(msg)
            self.inbox.not_empty.notify()

    def close(self) -> None:
        """Close the connection for good and join the thread."""
        self._closing = True

        def begin() -> None:  # on the client's loop: stop the connection's task
            if self._task is not None:
                self._task.cancel()

        if self._thread.is_alive() and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(begin)
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(10)

    # --- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self._task = self.loop.create_task(self._main())
            self.loop.run_until_complete(self._task)
        except asyncio.CancelledError:
            pass
        finally:
            self._ready.set()
            self.loop.close()

    async def _main(self) -> None:
        self._out = asyncio.Queue()
        first = True
        lost_at: float | None = None
        delay = 0.05
        while not self._closing:
            try:
                ws = await connect(self.url, max_size=p.MAX_FRAME, compression=None, open_timeout=5)
            except (TimeoutError, OSError, InvalidHandshake, InvalidURI) as exc:
                if first:
                    self._failure = _("cannot reach the table server at {url} ({why})").format(
                        url=self.url, why=exc
                    )
                    self._ready.set()
                    return
                if lost_at is not None and time.monotonic() - lost_at > self.reconnect_for:
                    self._tell_closed(_("the server did not come back"))
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
                continue
            delay = 0.05
            self._ws = ws
            try:
                await ws.send(json.dumps({"type": "hello", "version": p.VERSION}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if welcome.get("type") != "welcome":
                    self._failure = str(welcome.get("message", "the server refused the hello"))
                    self._ready.set()
                    self._tell_closed(self._failure)
                    return
                if self._join is not None:
                    await ws.send(json.dumps(self._join))
                if first:
                    first = False
                    self._ready.set()
                else:
                    self.inbox.put({"type": CONNECTION, "state": "back"})
                await self._pump(ws)
            except (TimeoutError, ConnectionClosed, OSError, ValueError):
                pass
            finally:
                if self._closing:  # closed by the front end: say goodbye properly
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(ws.close(), 2)
            self._ws = None
            if self._closing:
                return
            code = ws.close_code
            if (code is not None and code >= 4000) or code == 1008:
                self._tell_closed(ws.close_reason or "the server closed the connection")
                return
            lost_at = time.monotonic()
            self.inbox.put({"type": CONNECTION, "state": "lost"})

    def _tell_closed(self, reason: str) -> None:
        self.inbox.put({"type": CONNECTION, "state": "closed", "reason": reason})

    async def _pump(self, ws: ClientConnection) -> None:
        out = self._out
        assert out is not None

        async def writer() -> None:
            while True:
                text = await out.get()
                await ws.send(text)

        task = asyncio.get_running_loop().create_task(writer())
        try:
            async for raw in ws:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(msg, dict):
                    self.inbox.put(msg)
        finally:
            task.cancel()


# --- the table seen from a client ------------------------------------------------------


def create_table(
    client: Client,
    rules: Rules,
    bot: str = "greedy",
    seed: int | None = None,
    timeout: float = 10.0,
) -> dict[str, Any]:
    """Create a table on the server (the host's resolved rules travel with it): the
    ``created`` answer (``table``, ``host`` token, seat ``tokens``)."""
    return client.request(p.create_message(rules, bot, seed), timeout)


class RemoteTable:
    """A table on a server, seen by one seat (or a spectator): what the terminal game
    needs of a table, over a :class:`Client`.

    The server plays the bots and deals; this object sends the person's actions and
    turns the server's ``update`` messages back into :class:`Event` lists and a
    :class:`View`.
    """

    def __init__(
        self, client: Client, table: str, token: str | None = None, name: str = ""
    ) -> None:
        self.client = client
        self.code = table
        msg: dict[str, Any] = {"type": "join", "table": table, "name": name}
        if token is not None:
            msg["token"] = token
        joined = client.request(msg)
        self.seat: int | None = joined.get("seat")
        self.game: str = joined["game"]
        self.rules = p.rules_from_json(joined["rules"])
        names = tuple(str(n) for n in joined.get("seat_names", ()))
        self.info = GameInfo(
            self.game,
            str(joined.get("title", self.game)),
            int(joined["seats"]),
            int(joined["teams"]),
            "",
            seat_names=names,
        )
        self.bot_level = str(joined.get("bot", ""))
        self.scored: list[DealScore] = scored_deals(joined)
        """The score of every deal of the match scored so far, the first first: those
        scored before this client joined (the ``joined`` message) and each ``score``
        event since (what a score sheet shows)."""
        self._view: View | None = None
        self.deal = 0
        self.step = 0
        self._to_act: int | None = None
        self._scores: tuple[int, ...] = (0,) * self.info.teams
        self._result: MatchResult | None = None
        self.deals_scored = 0
        self.started = False
        self.players: list[dict[str, Any]] = []
        self._people_seen: set[int] = set()
        """The seats a person has held since this client joined (one coming again to
        such a seat is back)."""
        self.closed = ""
        """Why the connection is closed for good ("" while it is not)."""
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:  # where the table stands, before anything else
            got = client.get(max(0.0, deadline - time.monotonic()))
            if got is None:
                break
            self.absorb(got)
            if got.get("type") == "update":
                break

    # --- what stands -------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.info.seats

    @property
    def scores(self) -> tuple[int, ...]:
        return self._scores

    @property
    def result(self) -> MatchResult | None:
        return self._result

    @property
    def to_act(self) -> int | None:
        """The seat to act, once every message received has been taken in (``None``
        while some wait for :meth:`wait`: the state here is not the latest yet)."""
        return None if self.pending else self._to_act

    @property
    def pending(self) -> bool:
        """Whether messages from the server wait to be taken in (:meth:`wait`)."""
        return not self.client.inbox.empty()

    @property
    def needs_deal(self) -> bool:
        """Always ``False``: the server deals."""
        return False

    def seat_name(self, seat: int) -> str:
        """The name of the player at ``seat`` as the server last told it (``players``),
        else the game's name for the seat (``North``)."""
        for player in self.players:
            if not isinstance(player, dict) or player.get("seat") != seat:
                continue
            name = player.get("name")
            if isinstance(name, str) and name:
                return name
        return self.info.seat_name(seat)

    def view(self, seat: int) -> View:
        """The latest view the server sent (for this client's seat only)."""
        if self._view is None:
            raise IllegalMoveError("no deal has been dealt yet")
        if seat != self.seat:
            raise IllegalMoveError("a remote table shows only its own seat's view")
        return self._view

    @property
    def latest_view(self) -> View | None:
        """The latest view sent (a spectator's is the public one), if any."""
        return self._view

    def is_bot(self, seat: int) -> bool:
        """``False``: bots are played on the server."""
        return False

    def bot_question(self, seat: int) -> Any:
        raise IllegalMoveError("the server plays the bots of a remote table")

    def bot_answer(self, seat: int, answer: object) -> list[Event]:
        raise IllegalMoveError("the server plays the bots of a remote table")

    def next_deal(self) -> list[Event]:
        """Nothing: the server deals (the deal's events arrive through :meth:`wait`)."""
        return []

    # --- messages ----------------------------------------------------------------------------

    def absorb(self, msg: dict[str, Any]) -> list[Event]:
        """Take in one message from the server; the events it tells."""
        kind = msg.get("type")
        if kind == "update":
            self.deal = int(msg["deal"])
            self.step = int(msg["step"])
            self._to_act = msg.get("to_act")
            self._scores = tuple(int(s) for s in msg.get("scores", ()))
            self.deals_scored = int(msg.get("deals_scored", 0))
            self.started = bool(msg.get("started"))
            r = msg.get("result")
            self._result = (
                None
                if r is None
                else MatchResult(
                    r["winner"], Message.from_json(r.get("message")) or str(r["reason"])
                )
            )
            v = msg.get("view")
            self._view = None if v is None else p.view_from_json(v, self.game, self.rules)
            events = [Event.from_json(e) for e in msg.get("events", ())]
            self.scored.extend(deal_scores(events))
            return events
        if kind == "joined":
            # joined again after a lost connection: the deals scored meanwhile included
            self.scored[:] = scored_deals(msg)
        elif kind == "players":
            before, self.players = self.players, list(msg.get("players", ()))
            self.started = bool(msg.get("started"))
            return [Event(NOTICE, -1, self.deal, text=t) for t in self.comings(before)]
        elif kind == CONNECTION:
            state = msg.get("state")
            if state == "closed":  # the front end says why (``closed``) and stops
                self.closed = str(msg.get("reason", "closed"))
                return []
            if state == "lost":
                self._to_act = None  # nothing to do until the server says where it stands
            text = (
                _("connection lost; reconnecting (for up to {seconds} s)...").format(
                    seconds=f"{self.client.reconnect_for:g}"
                )
                if state == "lost"
                else _("reconnected")
            )
            return [Event(NOTICE, -1, self.deal, text=text)]
        elif kind == "error":
            return [
                Event(
                    NOTICE,
                    -1,
                    self.deal,
                    text=_("server: {message}").format(message=msg.get("message")),
                )
            ]
        return []

    def comings(self, before: list[Any]) -> list[str]:
        """What changed at the other seats since the ``players`` list ``before``, in
        words: a player joined, left, came back, a bot took a seat.  The first list
        received says who is there already."""
        first = not before
        was = {p.get("seat"): p.get("state") for p in before if isinstance(p, dict)}
        bot = _("the {level} bot").format(level=self.bot_level) if self.bot_level else _("a bot")
        out = []
        for player in self.players:
            if not isinstance(player, dict) or player.get("seat") == self.seat:
                continue
            seat, state = player.get("seat"), player.get("state")
            if not isinstance(seat, int) or not 0 <= seat < self.seats:
                continue
            if state == was.get(seat):
                continue
            where = seat_word(self.info.seat_name(seat))
            name = player.get("name")
            who = (
                name if isinstance(name, str) and name and name != self.info.seat_name(seat) else ""
            )
            a_player = who or pgettext("at the table", "a player")
            the_player = who or pgettext("at the table", "the player")
            if state == "person":
                if first:
                    out.append(
                        _("{who} is at the table as {seat}").format(who=a_player, seat=where)
                    )
                elif seat in self._people_seen:
                    out.append(_("{who} is back at {seat}").format(who=the_player, seat=where))
                else:
                    out.append(
                        _("{who} joined the table as {seat}").format(who=a_player, seat=where)
                    )
                self._people_seen.add(seat)
            elif state == "away":
                out.append(
                    _("{who} left {seat}'s seat; {bot} takes it unless they come back soon").format(
                        who=the_player, seat=where, bot=bot
                    )
                )
            elif state == "bot" and was.get(seat) == "person":
                out.append(
                    _("{who} left {seat}'s seat; {bot} plays it now").format(
                        who=the_player, seat=where, bot=bot
                    )
                )
            elif state == "bot" and (first or was.get(seat) == "open"):
                out.append(_("{bot} plays {seat}").format(bot=bot, seat=where))
            elif state == "bot":
                out.append(_("{bot} plays {seat} now").format(bot=bot, seat=where))
        return out

    def wait(self, timeout: float = 1.0) -> list[Event]:
        """The events of the next message from the server, waiting up to ``timeout``
        seconds (an empty list when none came)."""
        msg = self.client.get(timeout)
        return [] if msg is None else self.absorb(msg)

    def act(self, seat: int, action: Action, timeout: float = 30.0) -> list[Event]:
        """Send the seat's action; the events up to and including its own (the server's
        refusal is an :class:`IllegalMoveError` with the server's words)."""
        ref = self.client.new_ref()
        self.client.send(
            {
                "type": "act",
                "seat": seat,
                "deal": self.deal,
                "step": self.step,
                "action": p.action_to_json(action),
                "ref": ref,
            }
        )
        events: list[Event] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.client.get(max(0.0, deadline - time.monotonic()))
            if msg is None:
                break
            if msg.get("type") == "error" and msg.get("ref") == ref:
                raise IllegalMoveError(str(msg.get("message")))
            events.extend(self.absorb(msg))
            if msg.get("ref") == ref or self.closed:
                return events
        raise IllegalMoveError("the server did not answer in time; try again")

    def explain(self, card: Card) -> str | None:
        """Why this seat may not play ``card`` now (``None``: it may); the server's words
        when the view does not list it as legal."""
        view = self._view
        if view is not None and view.legal >> card & 1:
            return None
        try:
            answer = self.client.request({"type": "explain", "card": card_str(card)})
        except NetworkError as exc:
            return str(exc)
        reason = answer.get("reason")
        if reason is None:
            return None
        # the rule as a message: the front end shows it in the person's language
        return Message.from_json(answer.get("message")) or str(reason)

    def start(self, host: str) -> None:
        """Start the table (with the host token): the bots play the empty seats."""
        self.client.request({"type": "start", "table": self.code, "host": host})

    def record(self) -> dict[str, Any]:
        """The match record of the finished deals (the seed once the match is over)."""
        answer = self.client.request({"type": "record"})
        record: dict[str, Any] = answer["record"]
        return record

    def leave(self) -> None:
        """Leave the seat for good: the table's bot plays it at once (no grace period);
        the same token takes it back.  A server that cannot be reached is no matter."""
        with contextlib.suppress(NetworkError):
            self.client.request({"type": "leave"}, timeout=5.0)

    def close(self) -> None:
        self.client.close()


def deal_scores(events: list[Event]) -> list[DealScore]:
    """The deal scores the ``score`` events among ``events`` carry, in order."""
    return [e.score for e in events if e.kind == SCORE and e.score is not None]


def scored_deals(joined: dict[str, Any]) -> list[DealScore]:
    """The scores of the deals a ``joined`` message says were scored before (its
    ``scored`` list of ``score`` events; none from a server that sends no such list)."""
    return deal_scores([Event.from_json(e) for e in joined.get("scored", ())])
