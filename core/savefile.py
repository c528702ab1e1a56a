"""The save file of a session: a header written whole, then one line per action.

The first line is a JSON object (``format``, ``version`` and the session's data, among
them the match record); each later line is one action in the record format
(``{"seat": 0, "play": "JH"}``).  :meth:`SaveFile.write` replaces the whole file
atomically and durably (:func:`atout.core.files.write_atomic`); :meth:`SaveFile.append_action`
adds a line and forces it to disk.  A crash during an append (or a full disk) leaves at
most a torn last line, which :meth:`SaveFile.read` leaves out: the save as it stood
before that action.  Before the next line is appended, :meth:`SaveFile.reopen` cuts that
fragment away (and ends a whole last line that lost only its newline), so that a torn
line is never followed by another and the save resumes again and again;
:func:`torn_tail` says what was lost, for the front end to tell.  An append that fails
(no space, a file too large) is taken back whole, and its :class:`OSError` names the
file.

A writer that takes many actions a second (the table server) may split the append in
two: :meth:`SaveFile.write_action` hands the line to the system at once (it survives the
process being killed) and :meth:`SaveFile.sync` forces every line written since the last
one to disk, from any thread, so one forcing covers many actions (group commit).
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import RecordError
from .files import JsonLimitError
from .files import loads_json
from .files import named
from .files import read_text
from .files import sync_folder
from .files import write_atomic
from .model import Action
from .records import _Reader
from .records import action_to_json
from .text import Message

FORMAT = "atout-session"
VERSION = 1
MAX_BYTES = 8 * 1024 * 1024
"""The largest save file read (a match of a thousand deals is far below it)."""


class SaveFile:
    """One session's save file at ``path``.

    The file being appended to is one descriptor: the event loop (or the game) writes
    lines to it while another thread may force them to disk (:meth:`sync`); a lock keeps
    the forcing and the closing apart, never the writing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._unsynced = False
        self._lock = threading.Lock()
        self._size = 0
        """The file's length as this object last wrote it (where a failed append is cut back to)."""
        self._mend: tuple[int, bool] | None = None
        """Set by :meth:`read` when the last line is torn: the length to keep, and whether
        a newline must end it (a whole last line that lost its newline)."""

    def write(self, data: dict[str, Any]) -> None:
        """Replace the file by a header holding ``data`` and no action line."""
        self._shut(force=False)  # the lines written so far are in the new header
        header = {"format": FORMAT, "version": VERSION, **data}
        try:
            write_atomic(self.path, json.dumps(header, ensure_ascii=False) + "\n")
        except OSError as exc:
            raise named(exc, self.path) from None
        self._mend = None  # the new header replaced whatever was torn

    def end_deal(self, seat: int, action: Action, data: Callable[[], dict[str, Any]]) -> None:
        """The action that ended a deal: the file becomes a header holding ``data()``
        (the session after that action).  Here the whole-file write alone, durable at
        once; a writer that defers whole-file writes (the table server's) first adds the
        action's line, so the action is in the file before anyone is told of it, and
        may leave the rewrite to the next deal's (``data`` is asked for only when the
        rewrite is made)."""
        self.write(data())

    def append_action(self, seat: int, action: Action) -> None:
        """Add one action line and force it to disk."""
        self.write_action(seat, action)
        self.sync()

    def write_action(self, seat: int, action: Action) -> None:
        """Add one action line, handed to the system (in one write) but not forced to
        disk: it survives the process being killed, and :meth:`sync` makes it survive
        the machine stopping."""
        if self._fd is None:
            self.reopen()
        fd = self._fd
        assert fd is not None
        line = json.dumps(action_to_json(seat, action), ensure_ascii=False) + "\n"
        data = line.encode("utf-8")
        size = len(data)
        self._unsynced = True
        try:
            while data:
                written = os.write(fd, data)
                data = data[written:]
        except OSError as exc:  # no space, a file too large: take the part written back
            with contextlib.suppress(OSError):  # a torn line at worst, cut at the next resume
                os.ftruncate(fd, self._size)
            raise named(exc, self.path) from None
        self._size += size

    @property
    def unsynced(self) -> bool:
        """Whether lines were written since the last :meth:`sync`."""
        return self._unsynced

    def sync(self) -> None:
        """Force every line written so far to disk (nothing to do: no system call).  Safe
        to call from another thread than the writer's."""
        with self._lock:
            if self._fd is None or not self._unsynced:
                return
            self._unsynced = False  # a line written during the forcing sets it again
            try:
                os.fsync(self._fd)
            except OSError as exc:
                raise named(exc, self.path) from None

    def reopen(self) -> None:
        """Open the file to append to it (after :meth:`read`).  A torn last line that
        :meth:`read` left out is cut away first (a whole one that lost its newline gets
        it back), so that the next line starts a line of its own."""
        self._shut(force=True)
        try:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            except FileNotFoundError:  # made here: its name forced to disk too
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
                sync_folder(self.path.parent)
            try:
                if self._mend is not None:
                    keep, newline = self._mend
                    os.ftruncate(fd, keep)
                    if newline:
                        os.write(fd, b"\n")
                    os.fsync(fd)
                    self._mend = None
                self._size = os.fstat(fd).st_size
            except BaseException:
                os.close(fd)
                raise
        except OSError as exc:
            raise named(exc, self.path) from None
        self._fd = fd

    def close(self) -> None:
        """Force the lines written to disk and stop appending."""
        self._shut(force=True)

    def _shut(self, force: bool) -> None:
        with self._lock:
            fd, self._fd = self._fd, None
            unsynced, self._unsynced = self._unsynced, False
            if fd is not None:
                try:
                    if force and unsynced:
                        os.fsync(fd)
                finally:
                    os.close(fd)

    def read(self) -> tuple[dict[str, Any], list[tuple[int, int, Action]]]:
        """The header and the actions after it as ``(line, seat, action)``.  A torn last
        line (an append cut short) is left out; anything else wrong is one
        :class:`RecordError` naming the file and the line."""
        where = str(self.path)
        text = read_text(self.path, MAX_BYTES, torn_end=True)
        lines = text.split("\n")
        complete = text.endswith("\n")
        if complete:
            lines.pop()
        if not lines or not lines[0].strip():
            raise RecordError(
                Message(
                    "{file}: {problem}",
                    file=where,
                    problem=Message("empty, not a saved atout match"),
                )
            )
        try:
            header = loads_json(lines[0])
        except JsonLimitError as exc:
            reason = str(exc).removeprefix("line 1: ")
            raise RecordError(
                Message("{file}: line {line}: {problem}", file=where, line=1, problem=reason)
            ) from None
        except ValueError:
            raise RecordError(
                Message(
                    "{file}: line {line}: {problem}",
                    file=where,
                    line=1,
                    problem=Message("not a saved atout match (not valid JSON)"),
                )
            ) from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise RecordError(
                Message("{file}: {problem}", file=where, problem=Message("not a saved atout match"))
            )
        version = header.get("version")
        if version != VERSION:
            raise RecordError(
                Message(
                    "{file}: {problem}",
                    file=where,
                    problem=Message(
                        "saved by another version of atout (format version {found}; this one "
                        "reads {version})",
                        found=repr(version),
                        version=VERSION,
                    ),
                )
            )
        reader = _Reader(where)
        seats = _seats(header)
        actions: list[tuple[int, int, Action]] = []
        self._mend = None
        if not complete:  # the last line lost its newline, or more: mended by reopen()
            kept = text if len(lines) == 1 else text[: text.rfind("\n") + 1]
            self._mend = (len(kept.encode("utf-8")), len(lines) == 1)
        for number, line in enumerate(lines[1:], start=2):
            last = number == len(lines)
            try:
                data = loads_json(line)
            except ValueError:
                if last and not complete:
                    break  # torn by a crash during the append: the save before it stands
                raise RecordError(
                    Message(
                        "{file}: line {line}: {problem}",
                        file=where,
                        line=number,
                        problem=Message("not valid JSON"),
                    )
                ) from None
            seat, action = reader.action(data, number - 1, seats, f"line {number}: ")
            actions.append((number, seat, action))
            if last and not complete:  # whole, but without its newline: kept
                self._mend = (len(text.encode("utf-8")), True)
        return header, actions


def torn_tail(path: Path) -> str | None:
    """What a torn last line of the save file ``path`` loses, in one sentence for the
    person (``None`` when the file ends whole, or is not there): a line cut short is
    the last action, which resuming leaves out; a whole line that lost only its newline
    loses nothing.  Looks at the end of the file only, and changes nothing."""
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            if size == 0:
                return None
            fh.seek(max(0, size - TAIL_BYTES))
            tail = fh.read()
    except OSError:
        return None
    if tail.endswith(b"\n") or b"\n" not in tail:
        return None  # whole, or a header alone (which resuming judges)
    fragment = tail[tail.rfind(b"\n") + 1 :]
    try:
        loads_json(fragment.decode("utf-8"))
    except ValueError:
        return (
            "the save's last line was cut short (the game stopped while saving it): "
            "the last action saved is lost, the match goes on from the one before it"
        )
    return None


TAIL_BYTES = 64 * 1024
"""How much of a save's end :func:`torn_tail` looks at (an action line is far shorter)."""


def _seats(header: dict[str, Any]) -> int:
    players = header.get("players")
    return len(players) if isinstance(players, list) and players else 1
