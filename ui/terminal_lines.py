"""The person's lines read in a background thread (see :class:`LineReader`), for the
terminal game (:mod:`atout.ui.terminal`)."""

from __future__ import annotations

import queue
import threading
from typing import TextIO


class LineReader:
    """The person's lines, read in a background thread: a table on a server can be
    listened to (players joining, leaving, the table closing) while the person types.

    One line is read at a time, only when asked for: a line not yet typed when
    :meth:`get` gives up is the answer to the next :meth:`get`."""

    def __init__(self, inp: TextIO) -> None:
        self.inp = inp
        self._lines: queue.Queue[str] = queue.Queue()
        self._reading = False

    def get(self, timeout: float) -> str | None:
        """The next line (``""`` at the end of the input), or ``None`` when none came
        within ``timeout`` seconds."""
        if not self._reading:
            self._reading = True
            threading.Thread(target=self._read, name="atout-input", daemon=True).start()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        self._reading = False
        return line

    def _read(self) -> None:
        try:
            line = self.inp.readline()
        except (OSError, ValueError):  # the input was closed
            line = ""
        self._lines.put(line)
