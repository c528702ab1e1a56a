"""The front process of a server that runs its tables on several worker processes
(``atout serve --workers N``): one listening socket, tables routed by their code.

Tables are independent, so a server may run them on several processes, each a
:class:`~atout.ui.net.server.TableServer` of its own on its own core: a table's code
names its worker (:func:`~atout.ui.net.tables.worker_of`: its first letter), and each
worker resumes, creates and saves only its own tables, in the one data folder.  The
front listens.  For each connection it makes the websocket handshake, answers ``hello``
itself (:func:`~atout.ui.net.server.answer_hello`), and reads the next message: a
``join`` (or any message naming a table) goes to the worker its code names, a ``create``
to the worker with the fewest tables in memory.  The front then hands the connection's
socket to that worker (``SCM_RIGHTS`` over a Unix socket, with the message and any byte
read after it), which answers it as if it had accepted it (:meth:`TableServer.adopt`):
from then on the client talks to its worker alone and the front sees nothing more.

A worker that dies (killed, or a fault) is started again by the front: it resumes its
tables from their save files, where their last action left them, and the clients it had,
whose connections dropped, reconnect through the front and join again.  Stopping the
front stops the workers (each sees its channel to the front close, saves its tables and
ends) and waits for them: when the front has ended, so has every worker.  The workers run
in a process group of their own, so that a terminal's Ctrl-C reaches the front alone,
which stops them in order (a worker ending on its own is started again); a front killed
outright closes their channels too, and they stop.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import socket
import subprocess
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from websockets.frames import Frame
from websockets.frames import Opcode
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from . import protocol as p
from .server import CLOSE_POLICY
from .server import answer_hello
from .tables import worker_of

log = logging.getLogger("atout.net")

MAX_REQUEST = 8192
"""Bytes the handshake's HTTP request may take at most."""

FRONT_FRAMES = 16
"""Messages the front reads from a connection at most before it hands it to a worker
(only ``hello`` is answered at the front; a client that says nothing else is handed to
the worker with the fewest tables, which applies the message rate)."""

FRONT_IDLE = 600.0
"""Seconds a connection that said hello may wait at the front before its first other
message; then it is closed (1001) and its client, if any, connects again."""

WORKER_START = 60.0
"""Seconds a worker process has to resume its tables and say it is ready."""

LOAD_EVERY = 2.0
"""Seconds between two reports of a worker's table count to the front."""


@dataclass(eq=False)
class Worker:
    """A worker process as the front knows it: its slot, its process, the front's end of
    its channel (a ``SOCK_SEQPACKET`` Unix socket) and its table count."""

    slot: int
    proc: subprocess.Popen[bytes] | None = None
    channel: socket.socket | None = None
    tables: int = 0
    """Its tables in memory, as it last said (plus the ``create`` routed to it since)."""
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    report: dict[str, Any] = field(default_factory=dict)
    """What it said when it was ready (``tables`` resumed, ``problems``)."""


Spawn = Callable[[int, int], list[str]]
"""The command line of worker ``slot`` whose channel to the front is file descriptor
``fd`` (``atout serve`` with the same options and ``--worker``)."""


class Front:
    """The front process: listens on ``host:port``, runs ``workers`` worker processes
    (each started with the command ``spawn`` gives), routes every connection to the worker
    of its table and starts again a worker that dies."""

    def __init__(
        self,
        spawn: Spawn,
        workers: int,
        host: str = "127.0.0.1",
        port: int = 0,
        hello_timeout: float = p.HELLO_TIMEOUT,
    ) -> None:
        self.spawn = spawn
        self.workers = [Worker(i) for i in range(workers)]
        self.host = host
        self.port = port
        self.hello_timeout = hello_timeout
        self._listener: socket.socket | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False

    # --- life ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen (``self.port`` is the port bound), start the workers and wait until each
        has resumed its tables.  A port that cannot be had is an :class:`OSError`."""
        listener = socket.create_server((self.host, self.port), backlog=1024)
        listener.setblocking(False)
        self._listener = listener
        self.port = listener.getsockname()[1]
        try:
            for worker in self.workers:
                self._start_worker(worker)
            await asyncio.wait_for(
                asyncio.gather(*(w.ready.wait() for w in self.workers)), WORKER_START
            )
        except BaseException:
            await self.stop()
            raise
        self._spawn_task(self._accept())

    @property
    def tables(self) -> int:
        """The tables the workers resumed when they started."""
        return sum(int(w.report.get("tables", 0)) for w in self.workers)

    @property
    def problems(self) -> list[str]:
        """The save files the workers could not resume, one line each."""
        return [str(x) for w in self.workers for x in w.report.get("problems", ())]

    async def stop(self) -> None:
        """Stop listening, stop the workers (their channels closed, then their end
        awaited; killed after 10 seconds) and the connections not yet handed over."""
        self._stopping = True
        if self._listener is not None:
            self._listener.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for worker in self.workers:
            if worker.channel is not None:
                worker.channel.close()
                worker.channel = None
        loop = asyncio.get_running_loop()
        for worker in self.workers:
            proc = worker.proc
            if proc is None:
                continue
            try:
                await loop.run_in_executor(None, proc.wait, 10)
            except subprocess.TimeoutExpired:
                proc.kill()
                await loop.run_in_executor(None, proc.wait, 10)

    def _spawn_task(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- the workers -----------------------------------------------------------------------

    def _start_worker(self, worker: Worker) -> None:
        """Start ``worker``'s process with a new channel and listen to what it says."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            worker.proc = subprocess.Popen(
                self.spawn(worker.slot, theirs.fileno()),
                pass_fds=(theirs.fileno(),),
                process_group=0,  # the terminal's signals reach the front alone
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        worker.channel = ours
        self._spawn_task(self._listen(worker, ours))

    async def _listen(self, worker: Worker, channel: socket.socket) -> None:
        """Read ``worker``'s reports (ready, then its table count now and then) until its
        channel closes: the worker ended; unless the front is stopping, it is started
        again (it resumes its tables)."""
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[tuple[bytes, list[int]]] = asyncio.Queue()

        def readable() -> None:
            for data, fds in channel_messages(channel, 1 << 21):
                inbox.put_nowait((data, fds))
                if not data and not fds:
                    loop.remove_reader(channel)

        loop.add_reader(channel, readable)
        try:
            while True:
                data, fds = await inbox.get()
                if not data and not fds:
                    break
                if fds:  # a connection moving to the worker of another table
                    self._spawn_task(self._move(data, fds))
                    continue
                with contextlib.suppress(ValueError):
                    said = json.loads(data)
                    if isinstance(said, dict):
                        if said.get("ready"):
                            worker.report = said
                            worker.ready.set()
                        if isinstance(said.get("tables"), int):
                            worker.tables = said["tables"]
        finally:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(channel)
        if self._stopping or worker.channel is not channel:
            return
        channel.close()
        worker.channel = None
        worker.ready.clear()  # connections for it wait until it is started again
        proc = worker.proc
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                await loop.run_in_executor(None, proc.wait, 10)
        await asyncio.sleep(0.2)  # a worker failing at once is not started in a busy loop
        if self._stopping:  # signalled with the front (a service manager's stop)
            return
        log.warning("worker %d ended (%s): started again", worker.slot, proc and proc.returncode)
        self._start_worker(worker)

    async def _move(self, said: bytes, fds: list[int]) -> None:
        """A worker handed a connection back (:meth:`TableServer.move`): hand it to the
        worker of the table its message names."""
        for fd in fds:
            sock = socket.socket(fileno=fd)
            try:
                first = frames_from_json(json.loads(said)["first"])
                await self._send_to(self._worker_for(first[-1]), said, sock)
            except (OSError, ValueError, KeyError, TypeError, TimeoutError):
                log.warning("a connection could not move to another worker")
            finally:
                sock.close()

    def _least_loaded(self) -> Worker:
        return min(self.workers, key=lambda w: (not w.ready.is_set(), w.tables, w.slot))

    # --- a connection ----------------------------------------------------------------------

    async def _accept(self) -> None:
        assert self._listener is not None
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, _ = await loop.sock_accept(self._listener)
            except OSError as exc:
                if self._stopping:
                    return
                log.warning("accept failed: %s", exc)
                await asyncio.sleep(0.1)
                continue
            self._spawn_task(self._connection(sock))

    async def _connection(self, sock: socket.socket) -> None:
        """Make the handshake, answer ``hello``, read the message that names the table
        and hand the connection to its worker (closed here if anything fails)."""
        sock.setblocking(False)
        try:
            await self._route(sock)
        except (OSError, EOFError, TimeoutError):
            pass
        except Exception:
            log.exception("a connection failed at the front")
        finally:
            sock.close()  # the worker holds its own copy once handed over

    async def _route(self, sock: socket.socket) -> bool:
        """Whether ``sock`` was handed to a worker (else the front is done with it)."""
        reader = _Reader(sock)
        async with asyncio.timeout(self.hello_timeout):
            request = await reader.until(b"\r\n\r\n", MAX_REQUEST)
        ws = ServerProtocol(max_size=p.MAX_FRAME)
        ws.receive_data(request)
        events = ws.events_received()
        if not events or not isinstance(events[0], Request):
            await reader.send(ws.data_to_send())
            return False
        ws.send_response(ws.accept(events[0]))
        await reader.send(ws.data_to_send())
        if ws.state is not State.OPEN:
            return False
        hello = False
        first: list[str | bytes] = []
        parts: list[bytes] = []
        kind = Opcode.TEXT
        for _ in range(FRONT_FRAMES * 4):
            wait = FRONT_IDLE if hello else self.hello_timeout
            try:
                async with asyncio.timeout(wait):
                    frame = await reader.frame()
            except TimeoutError:
                if not hello:
                    ws.send_close(CLOSE_POLICY, "no hello")
                else:
                    ws.send_close(1001, "idle")
                await reader.send(ws.data_to_send())
                return False
            ws.receive_data(frame)
            await reader.send(ws.data_to_send())  # a pong, a close answered, a failure
            if ws.state is not State.OPEN:
                return False
            for event in ws.events_received():
                if not isinstance(event, Frame):
                    continue
                if event.opcode in (Opcode.TEXT, Opcode.BINARY):
                    kind, parts = event.opcode, [bytes(event.data)]
                elif event.opcode == Opcode.CONT:
                    parts.append(bytes(event.data))
                else:
                    continue  # ping, pong: answered by the protocol
                if not event.fin:
                    continue
                raw: str | bytes = b"".join(parts)
                if kind == Opcode.TEXT:
                    raw = b"".join(parts).decode()
                parts = []
                answer = answer_hello(raw)
                if answer is not None and len(first) < FRONT_FRAMES:
                    hello = hello or answer.get("type") == "welcome"
                    ws.send_text(json.dumps(answer, separators=(",", ":")).encode())
                    await reader.send(ws.data_to_send())
                    continue
                first.append(raw)
                return await self._hand_over(sock, reader, first, hello)
        return await self._hand_over(sock, reader, first, hello)

    async def _hand_over(
        self, sock: socket.socket, reader: _Reader, first: list[str | bytes], hello: bool
    ) -> bool:
        """Hand ``sock`` to the worker of the table its last message names (a ``create``
        or a message naming no table: the worker with the fewest tables), with the
        messages read and the bytes read after them."""
        worker = self._worker_for(first[-1] if first else b"")
        return await self._send_to(worker, handoff(first, bytes(reader.buffer), hello), sock)

    async def _send_to(self, worker: Worker, said: bytes, sock: socket.socket) -> bool:
        """Hand ``sock`` and what was read of it (``said``, :func:`handoff`) to ``worker``
        (waiting for it to be ready when it is being started again)."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(WORKER_START):
            while True:
                await worker.ready.wait()
                channel = worker.channel
                if channel is None:
                    await asyncio.sleep(0.05)
                    continue
                try:
                    socket.send_fds(channel, [said], [sock.fileno()])
                    return True
                except BlockingIOError:
                    ready = loop.create_future()
                    loop.add_writer(channel, ready.set_result, None)
                    try:
                        await ready
                    finally:
                        loop.remove_writer(channel)
                except OSError:  # it has just ended: it is started again
                    await asyncio.sleep(0.05)

    def _worker_for(self, raw: str | bytes) -> Worker:
        msg: Any = None
        if isinstance(raw, str) and len(raw) <= p.MAX_MESSAGE:
            with contextlib.suppress(ValueError, RecursionError):
                msg = json.loads(raw)
        if isinstance(msg, dict) and msg.get("type") != "create":
            code = msg.get("table")
            if isinstance(code, str):
                return self.workers[worker_of(code.upper(), len(self.workers))]
        worker = self._least_loaded()
        if isinstance(msg, dict) and msg.get("type") == "create":
            worker.tables += 1  # until the worker says its count again
        return worker


def channel_messages(channel: socket.socket, size: int) -> Iterator[tuple[bytes, list[int]]]:
    """The messages waiting now on the non-blocking ``channel`` between the front and a
    worker (each at most ``size`` bytes), with the descriptors each carries (a connection
    handed over). A channel closed or broken at the other end gives one last empty message
    ``(b"", [])``; both ends read their channel so."""
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(channel, size, 4)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        yield data, fds
        if not data and not fds:
            return


def handoff(
    first: list[str | bytes],
    rest: bytes,
    hello: bool,
    created: int = 0,
    budget: float | None = None,
) -> bytes:
    """What a worker is handed with a connection: the messages read from it (``first``,
    the last names the table), the bytes read after them (``rest``), whether it said
    hello, and, for a connection that moves from another worker, the tables it created
    (the limit is on its whole life) and its message budget."""
    return json.dumps(
        {
            "hello": hello,
            "first": [_frame_json(raw) for raw in first],
            "rest": base64.b64encode(rest).decode("ascii"),
            "created": created,
            "budget": budget,
        }
    ).encode()


def _frame_json(raw: str | bytes) -> list[str]:
    """A message read at the front as the worker is handed it.  Only its kind and (for a
    text within :data:`~atout.ui.net.protocol.MAX_MESSAGE`) its text matter to the
    answer: a longer one is cut just past the limit (it is refused for its length), a
    binary one sent empty (refused for being binary)."""
    if isinstance(raw, bytes):
        return ["b", ""]
    return ["t", raw[: p.MAX_MESSAGE + 1]]


def frames_from_json(said: list[Any]) -> list[str | bytes]:
    """The messages :func:`_frame_json` wrote, as the worker reads them."""
    return [b"" if kind == "b" else str(text) for kind, text in said]


class _Reader:
    """Reads a socket exactly: the handshake's request, then one websocket frame at a
    time, so that what follows the message that names the table is handed to the worker
    unread (:attr:`buffer`)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    async def _more(self) -> None:
        chunk = await asyncio.get_running_loop().sock_recv(self.sock, 65536)
        if not chunk:
            raise EOFError
        self.buffer += chunk

    async def take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            await self._more()
        out = bytes(self.buffer[:n])
        del self.buffer[:n]
        return out

    async def until(self, end: bytes, limit: int) -> bytes:
        while (at := self.buffer.find(end)) < 0:
            if len(self.buffer) > limit:
                raise EOFError
            await self._more()
        return await self.take(at + len(end))

    async def frame(self) -> bytes:
        """One frame's bytes (only its header when it is longer than the protocol allows:
        the protocol then fails the connection)."""
        head = await self.take(2)
        size = head[1] & 0x7F
        extra = {126: 2, 127: 8}.get(size, 0)
        ext = await self.take(extra) if extra else b""
        if extra:
            size = int.from_bytes(ext, "big")
        if size > p.MAX_FRAME:
            return head + ext
        return head + ext + await self.take((4 if head[1] & 0x80 else 0) + size)

    async def send(self, data: list[bytes]) -> None:
        loop = asyncio.get_running_loop()
        for chunk in data:
            if chunk:
                await loop.sock_sendall(self.sock, chunk)
