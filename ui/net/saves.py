"""The save files of the table server's tables: each action's line written at once and
forced to disk by one :class:`Syncer` for all tables (group commit); a deal's whole-file
writes done in a worker thread, in order with the lines (:class:`DeferredSaveFile`): the
deal's start awaited before it is told, the deal's end not (its last action's line is
written first, like any action's, and its rewrite left to the next deal's).

An action's line reaches the system (one ``write``, which survives the server being
killed) before anyone is told of the action; it is on disk within about
:data:`SYNC_INTERVAL` seconds.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from atout.core import Action
from atout.core.savefile import SaveFile
from atout.core.session import Session

log = logging.getLogger("atout.net")

SYNC_INTERVAL = 0.2
"""Seconds between two passes of the :class:`Syncer`: an action line is forced to disk
at most this long (plus the pass itself) after it was written."""


SYNC_THREADS = 8
"""Threads that force the files of one pass to disk together."""


class Syncer:
    """Forces the tables' action lines to disk in a thread of its own (group commit).

    Each action's line is written to its table's file before anyone is told of the
    action (:meth:`DeferredSaveFile.append_action`); every :data:`SYNC_INTERVAL` seconds
    this thread forces each file written since its last pass to disk: one ``fsync`` a
    file a pass, whatever number of actions it covers, and never on the event loop."""

    def __init__(self, interval: float = SYNC_INTERVAL, threads: int = SYNC_THREADS) -> None:
        self.interval = interval
        self._files: set[SaveFile] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="atout-sync", daemon=True)
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="atout-sync")
        self._threads = max(1, threads)

    def start(self) -> None:
        self._thread.start()

    def mark(self, file: SaveFile) -> None:
        """``file`` has lines to force to disk at the next pass."""
        with self._lock:
            self._files.add(file)

    def flush(self) -> None:
        """Force every marked file to disk now, in a few threads at once: a disk takes
        milliseconds a forcing when busy, and forcings made together share its work."""
        with self._lock:
            files, self._files = list(self._files), set()
        if len(files) <= 1:
            _sync_each(files)
            return
        share = -(-len(files) // self._threads)
        chunks = [files[i : i + share] for i in range(0, len(files), share)]
        list(self._pool.map(_sync_each, chunks))

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.flush()
        self.flush()

    def stop(self) -> None:
        """Make a last pass and end the thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        else:
            self.flush()
        self._pool.shutdown(wait=True)


def _sync_each(files: list[SaveFile]) -> None:
    for file in files:
        try:
            file.sync()
        except OSError as exc:  # the line stays written; the disk said no
            log.warning("%s: cannot force to disk: %s", file.path, exc)


class DeferredSaveFile(SaveFile):
    """A table's save file as the server writes it.

    An action's line is written at once, on the event loop (one small ``write`` to the
    system, which survives the server being killed), and forced to disk by the
    :class:`Syncer` (``None``: at once).  A whole-file write waits for :meth:`flush`,
    which the server runs in a worker thread:

    - a deal's start (:meth:`write`) is *urgent*: the server awaits the flush before
      anyone is told of the deal, so the deal is durable before it is dealt to anyone;
    - a deal's end (:meth:`end_deal`) writes the last action's line at once, like any
      action's, and leaves the whole-file write for later (:attr:`deferred`): the next
      deal's start replaces it, or :meth:`settle` queues it for a flush that nobody
      waits for (the match is over); the action's answer is never held up by a rewrite
      and its ``fsync``, and a deal followed by another is rewritten once, not twice.

    While a whole-file write waits or runs, every later write waits behind it, in order
    (the descriptor is the worker's until the flush is done); a whole-file write
    replaces every write still waiting, whose lines it holds.  :attr:`pending` says
    whether anything waits or runs, :attr:`urgent` whether it must be done before the
    change is told."""

    def __init__(self, path: Path, syncer: Syncer | None = None) -> None:
        super().__init__(path)
        self._pending: list[Callable[[], None]] = []
        self._running = False
        self._urgent = False
        self._queue = threading.Lock()  # guards the three above, held only briefly
        self._flushing = threading.Lock()  # one flush at a time: the writes in order
        self._syncer = syncer
        self._later: Callable[[], dict[str, Any]] | None = None  # the loop's alone

    def write(self, data: dict[str, Any]) -> None:
        self._later = None  # the session as it stands holds the deal's end too
        with self._queue:
            # ... and every line still waiting: they are dropped
            self._pending = [functools.partial(self._replace, data)]
            self._urgent = True

    def end_deal(self, seat: int, action: Action, data: Callable[[], dict[str, Any]]) -> None:
        with self._queue:
            busy = bool(self._pending) or self._running
        if busy:  # the line cannot go first: the rewrite, in order, before it is told
            self.write(data())
            return
        self._append(seat, action)  # no flush runs (none is queued): the loop's to write
        self._later = data

    @property
    def deferred(self) -> bool:
        """Whether a deal's end left its whole-file write for later (:meth:`settle`)."""
        return self._later is not None

    def settle(self) -> None:
        """Queue the whole-file write a deal's end left for later, its data taken now
        (on the loop, where the session changes); a :meth:`flush` makes it."""
        later, self._later = self._later, None
        if later is None:
            return
        data = later()
        with self._queue:
            self._pending.append(functools.partial(self._replace, data))

    def _replace(self, data: dict[str, Any]) -> None:
        SaveFile.write(self, data)
        self.reopen()  # here, in the worker thread, not on the loop at the next action

    def append_action(self, seat: int, action: Action) -> None:
        self.settle()  # a deal's end left behind goes first
        with self._queue:
            if self._pending or self._running:  # after a whole-file write: in order
                self._pending.append(functools.partial(self._append, seat, action))
                self._urgent = True
                return
        self._append(seat, action)

    def _append(self, seat: int, action: Action) -> None:
        self.write_action(seat, action)
        if self._syncer is not None:
            self._syncer.mark(self)
        else:
            self.sync()

    @property
    def pending(self) -> bool:
        """Whether a write waits for a flush, or a flush runs."""
        with self._queue:
            return bool(self._pending) or self._running

    @property
    def urgent(self) -> bool:
        """Whether a write waiting must be done before the change is told (a deal's
        start, or an action's line behind a whole-file write)."""
        with self._queue:
            return self._urgent and (bool(self._pending) or self._running)

    def flush(self) -> None:
        """Do the writes waiting, in order, until none waits (in a worker thread; a
        flush already running finishes first).  A write that fails does not stop the
        ones after it; the first failure is raised once they are done."""
        failure: BaseException | None = None
        with self._flushing:
            while True:
                with self._queue:
                    ops, self._pending = self._pending, []
                    if not ops:
                        self._running = self._urgent = False
                        break
                    self._running = True
                for op in ops:
                    try:
                        op()
                    except Exception as exc:
                        failure = failure or exc
        if failure is not None:
            raise failure

    def close(self) -> None:
        """Do the writes waiting (a deal's end left for later too), then force the lines
        to disk and stop appending."""
        try:
            self.settle()
            self.flush()
        finally:
            super().close()


def defer_saves(session: Session, syncer: Syncer | None = None) -> DeferredSaveFile | None:
    """Make ``session``'s save file the server's (:class:`DeferredSaveFile`) (``None``:
    the session follows no save file)."""
    path = session.save_path
    if path is None:
        return None
    file = DeferredSaveFile(path, syncer)
    session.use_save_file(file)
    return file
