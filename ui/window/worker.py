"""The bots think here, off the window's thread, so the table keeps drawing.

One daemon thread takes jobs in order (so a bot object is never used by two threads at
once).  :meth:`BotWorker.submit` returns a :class:`Job` at once; the table polls
``job.done`` on each frame and reads ``job.result`` (or ``job.error``).  A job made
stale by an undo or a new match is simply dropped with :meth:`BotWorker.cancel_all`:
its answer arrives, and nobody reads it.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import Any

SWITCH_INTERVAL = 0.001
"""How often (seconds) Python may hand the interpreter from a thinking bot to the window.

The default (5 ms) lets a bot that computes in pure Python keep the window waiting
several times within one frame; 1 ms keeps frames short at a negligible cost.
"""


NICENESS = 10
"""How much lower than the window's the bot thread's scheduling priority is."""


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
    """One question to a bot: ``done`` is set when ``result`` or ``error`` is there."""

    def __init__(self, fn: Callable[[], Any], generation: int) -> None:
        self.fn = fn
        self.generation = generation
        self.result: Any = None
        self.error: BaseException | None = None
        self.event = threading.Event()
        self.cancelled = False

    @property
    def done(self) -> bool:
        return self.event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the answer is there (tests use it; the window never does)."""
        return self.event.wait(timeout)


class BotWorker:
    """A thread that runs bot questions one after another."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._generation = 0
        self._thread = threading.Thread(target=self._run, name="atout-bots", daemon=True)
        self._thread.start()
        self._old_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._old_interval, SWITCH_INTERVAL))

    def submit(self, fn: Callable[[], Any]) -> Job:
        """Queue ``fn`` (a bot's ``choose`` or ``hint`` bound to a view)."""
        job = Job(fn, self._generation)
        self._jobs.put(job)
        return job

    def cancel_all(self) -> None:
        """Forget every job queued or running (their answers will be ignored)."""
        self._generation += 1
        try:
            while True:
                job = self._jobs.get_nowait()
                if job is not None:
                    job.cancelled = True
                    job.event.set()
        except queue.Empty:
            pass

    def is_current(self, job: Job) -> bool:
        """Whether ``job``'s answer still matters."""
        return not job.cancelled and job.generation == self._generation

    def stop(self) -> None:
        """End the thread after the running job (the window is closing)."""
        self.cancel_all()
        self._jobs.put(None)
        sys.setswitchinterval(self._old_interval)

    def _run(self) -> None:
        be_nice()
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job.cancelled:
                continue
            try:
                job.result = job.fn()
            except BaseException as exc:  # reported to the table, never lost
                job.error = exc
            job.event.set()
