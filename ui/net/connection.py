"""A connection to a table server any front end can use: :class:`Client` runs a websocket
connection in a background thread with its own event loop; the front end talks to it
through thread-safe queues: :meth:`Client.send` from any thread, :meth:`Client.poll`
(never blocks: a window calls it every frame) or :meth:`Client.get` (blocks up to a
timeout: the terminal).  When the connection drops it reconnects by itself, says hello
again and joins its table again with its token.

The table seen through it is :class:`~atout.ui.net.client.RemoteTable`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from typing import Any

from atout.core import Rules
from atout.core.errors import AtoutError
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.exceptions import InvalidHandshake
from websockets.exceptions import InvalidURI

from ..i18n import _
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
