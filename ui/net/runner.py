"""The table server run in the background or until cancelled: :class:`ServerThread` (a
server in a thread of its own, how the terminal and the window host a table and how tests
run one) and :func:`serve_forever` (``atout serve``)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

from .server import TableServer

T = TypeVar("T")


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
