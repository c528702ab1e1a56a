"""The bots think here, off the window's thread and, by default, off its process.

:meth:`BotWorker.ask` returns a :class:`Job` at once; the table polls ``job.done`` on
each frame and reads ``job.result`` (or ``job.error``).  A job made stale by an undo or
a new match is simply dropped with :meth:`BotWorker.cancel_all`: its answer arrives, and
nobody reads it.  Jobs run one after another, in order.

Where the bots think is chosen when the worker is made:

* :data:`PROCESS` (what the window uses): a bot process (:mod:`.botproc`) rebuilt from
  the engine's plugins and the bots' names, so that a search never holds the interpreter
  that draws.  It starts on the worker's thread at the first question or at
  :meth:`BotWorker.warm` (the window calls it after its first frame), never before.
* :data:`THREAD`: the bots think on the worker's thread, in the window's process.  The
  window chooses it when its bots are objects handed in (``App(bot_factory=...)``, as
  tests do: they may not pickle, and the process could not rebuild them).

A process worker also falls back to the thread, and says why in
:attr:`BotWorker.fallback`, when its engine cannot be rebuilt elsewhere (a plugin
registered by hand), when the process cannot start or dies, or when its plugins differ
from the window's; a single question that does not pickle is answered on the thread.
A bot then starts afresh on the thread (its random source from its seed).
:meth:`BotWorker.submit` always runs a callable on the thread.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
import queue
import sys
import threading
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import TYPE_CHECKING
from typing import Any

from .botproc import HINT
from .botproc import BotSpec
from .botproc import EngineRecipe
from .botproc import context
from .botproc import hint_spec
from .botproc import plugin_names
from .botproc import seat_spec
from .botproc import serve
from .botproc import start_server

if TYPE_CHECKING:
    from atout.core import Engine
    from atout.core import View
    from atout.core.session import Session

__all__ = ["NICENESS", "PROCESS", "THREAD", "BotWorker", "Job", "be_nice"]

SWITCH_INTERVAL = 0.001
"""How often (seconds) Python may hand the interpreter from a thinking bot to the window.

The default (5 ms) lets a bot that computes in pure Python keep the window waiting
several times within one frame; 1 ms keeps frames short at a negligible cost.
"""

NICENESS = 10
"""How much lower than the window's the bot thread's scheduling priority is."""

THREAD = "thread"
PROCESS = "process"

START_TIMEOUT = 120.0
"""Seconds the bot process may take to build its engine (a loaded machine is slow)."""


def be_nice() -> None:
    """Lower the calling thread's priority (Linux schedules threads one by one): on a
    machine with few cores, the window and the software renderer's threads then come
    first and a thinking bot takes what is left."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + NICENESS)


class Job:
    """One question to a bot: ``done`` is set when ``result`` or ``error`` is there.

    ``fn`` answers it on the worker's thread; a job for the bot process also carries
    its ``question`` (the bot's key, spec and view), and ``fn`` is then its fallback.
    """

    def __init__(
        self,
        fn: Callable[[], Any],
        generation: int,
        question: tuple[tuple[int, int | str], BotSpec, View] | None = None,
    ) -> None:
        self.fn = fn
        self.generation = generation
        self.question = question
        self.result: Any = None
        self.error: BaseException | None = None
        self.event = threading.Event()
        self.cancelled = False
        self.where = ""
        """Where it was answered: :data:`PROCESS` or :data:`THREAD` (tests read it)."""

    @property
    def done(self) -> bool:
        return self.event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the answer is there (tests use it; the window never does)."""
        return self.event.wait(timeout)


class _Lost(Exception):
    """The bot process is gone or unusable (the text says why)."""


_WARM = object()
"""The queue's token for "start the bot process now"."""


class BotWorker:
    """Runs bot questions one after another, in a bot process or on a thread.

    ``BotWorker()`` thinks on its thread.  ``BotWorker(engine, PROCESS)`` sends the
    questions of :meth:`ask` to a bot process with ``engine``'s plugins.
    """

    def __init__(self, engine: Engine | None = None, mode: str = THREAD) -> None:
        if mode not in (THREAD, PROCESS):
            raise ValueError(f"mode: {THREAD!r} or {PROCESS!r}, not {mode!r}")
        self.requested = mode
        self.fallback = ""
        """Why a process worker answers on its thread (empty: it does not)."""
        self._engine = engine
        self._recipe: EngineRecipe | None = None
        if mode == PROCESS:
            if engine is None:
                self.fallback = "no engine to rebuild in a bot process"
            else:
                self._recipe = EngineRecipe.of(engine)
                if self._recipe is None:
                    self.fallback = "a plugin was registered by hand: no process can rebuild it"
        self._jobs: queue.Queue[Job | object | None] = queue.Queue()
        self._generation = 0
        self._sessions: weakref.WeakKeyDictionary[Session, int] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._stopping = False
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._tokens = itertools.count(1)
        self._numbers = itertools.count(1)
        self._thread = threading.Thread(target=self._run, name="atout-bots", daemon=True)
        self._thread.start()
        self._old_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._old_interval, SWITCH_INTERVAL))

    # --- the table's side ---------------------------------------------------------------

    @property
    def mode(self) -> str:
        """Where the questions of :meth:`ask` are answered now."""
        return PROCESS if self._recipe is not None and not self.fallback else THREAD

    @property
    def process(self) -> BaseProcess | None:
        """The bot process, once started (tests check that it ends)."""
        return self._process

    def submit(self, fn: Callable[[], Any]) -> Job:
        """Queue ``fn`` to run on the worker's thread (any callable: a bot's ``choose``
        bound to a view, or work of the benchmark)."""
        job = Job(fn, self._generation)
        self._jobs.put(job)
        return job

    def ask(self, session: Session, seat: int, hint: bool = False) -> Job:
        """Queue the question to ``seat``'s bot in ``session``'s position now (with
        ``hint``: to the hint bot, for ``seat``).  A hint bot that is not installed
        raises :class:`~atout.core.errors.AtoutError` here, as
        :meth:`Session.hint_question` does."""
        fn = session.hint_question(seat) if hint else session.bot_question(seat)
        spec = hint_spec(session) if hint else seat_spec(session, seat)
        if self.mode != PROCESS or spec is None:
            return self.submit(fn)
        token = self._sessions.get(session)
        if token is None:
            token = self._sessions[session] = next(self._tokens)
        job = Job(fn, self._generation, ((token, HINT if hint else seat), spec, session.view(seat)))
        self._jobs.put(job)
        return job

    def warm(self) -> None:
        """Start the bot process now, in the background (no-op on the thread)."""
        if self.mode == PROCESS:
            self._jobs.put(_WARM)

    def cancel_all(self) -> None:
        """Forget every job queued or running (their answers will be ignored)."""
        self._generation += 1
        try:
            while True:
                job = self._jobs.get_nowait()
                if isinstance(job, Job):
                    job.cancelled = True
                    job.event.set()
        except queue.Empty:
            pass

    def is_current(self, job: Job) -> bool:
        """Whether ``job``'s answer still matters."""
        return not job.cancelled and job.generation == self._generation

    def stop(self) -> None:
        """End the thread after the running job, and the bot process at once (the window
        is closing)."""
        self.cancel_all()
        self._jobs.put(None)
        sys.setswitchinterval(self._old_interval)
        with self._lock:
            self._stopping = True
            process = self._process
        if process is not None:
            _end(process)

    # --- the worker's thread ----------------------------------------------------------------

    def _run(self) -> None:
        be_nice()
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                if job is _WARM:
                    self._ensure_process()
                    continue
                assert isinstance(job, Job)
                if job.cancelled:
                    continue
                try:
                    job.result = self._answer(job)
                except BaseException as exc:  # reported to the table, never lost
                    job.error = exc
                job.event.set()
        finally:
            if self._conn is not None:
                self._conn.close()

    def _answer(self, job: Job) -> Any:
        """The job's answer: from the bot process when it has a question and the
        process is there, else from ``fn`` on this thread."""
        if job.question is not None and self._ensure_process():
            try:
                data = ForkingPickler.dumps((next(self._numbers), *job.question))
            except Exception:
                pass  # this view does not pickle (a plugin's value): answered here
            else:
                try:
                    answer = self._exchange(bytes(data))
                except _Lost as lost:
                    self._give_up(str(lost))
                    if self._stopping or not self.is_current(job):
                        return None  # nobody will read it: not worth thinking again
                else:
                    job.where = PROCESS
                    return answer
        job.where = THREAD
        return job.fn()

    def _exchange(self, data: bytes) -> Any:
        """Send one pickled question and wait for its answer (the bot's error is raised)."""
        conn = self._conn
        assert conn is not None
        try:
            conn.send_bytes(data)
            reply = conn.recv_bytes()
        except (EOFError, OSError) as exc:
            raise _Lost(f"the bot process ended ({type(exc).__name__})") from None
        kind, _number, value = pickle.loads(reply)
        if kind == "error":
            raise value
        return value

    def _ensure_process(self) -> bool:
        """Whether the bot process is there to answer (started now if need be)."""
        if self.mode != PROCESS:
            return False
        process = self._process
        if process is not None:
            if process.is_alive():
                return True
            self._give_up(f"the bot process ended (exit code {process.exitcode})")
            return False
        assert self._recipe is not None
        try:
            ctx = context()
            start_server(ctx)  # the fork server's first start is slow: not under the lock
            mine, theirs = ctx.Pipe()
            process = ctx.Process(  # type: ignore[attr-defined]
                target=serve, args=(theirs, self._recipe), name="atout-bots", daemon=True
            )
            with self._lock:
                if self._stopping:
                    return False
                process.start()
                self._process, self._conn = process, mine
            theirs.close()
            if not mine.poll(START_TIMEOUT):
                raise _Lost(f"the bot process did not start within {START_TIMEOUT:.0f} s")
            kind, detail = mine.recv()
        except _Lost as lost:
            self._give_up(str(lost))
            return False
        except Exception as exc:
            self._give_up(f"the bot process cannot start ({type(exc).__name__}: {exc})")
            return False
        if kind != "ready":
            self._give_up(f"the bot process cannot build the engine ({detail})")
            return False
        assert self._engine is not None
        if tuple(detail) != plugin_names(self._engine):
            self._give_up("the bot process has other plugins than the window")
            return False
        return True

    def _give_up(self, reason: str) -> None:
        """Answer every question on the thread from now on, and end the process."""
        if not self.fallback:
            self.fallback = reason
        process = self._process
        if process is not None:
            _end(process)


def _end(process: BaseProcess) -> None:
    """End the bot process now: it holds nothing worth waiting for."""
    with contextlib.suppress(Exception):
        if process.is_alive():
            process.terminate()
        process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)
