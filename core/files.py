"""Files written so that nothing saved is ever half-written or lost, and read with limits.

:func:`write_atomic` writes a temporary file beside the target, forces it to disk, renames
it over the target and forces the folder entry too: a crash at any moment leaves either
the old file or the new one, whole.  A temporary file left by a process that was killed
between writing and renaming is removed by a later write into that folder
(:func:`clean_stale_temps`, at a process's first write there and then at most once every
:data:`CLEAN_EVERY` seconds, so that a folder of many files, a server's, is not listed on
every write): its name carries the writer's process id.

:func:`read_bytes` and :func:`read_text` read a regular file of bounded size: a device
(``/dev/zero``, ``/dev/urandom``), a FIFO or a folder is refused before a byte is read,
and reading stops at the limit.  :func:`loads_json` parses JSON within explicit limits
(nesting depth, digits of an integer — :data:`atout.core.limits.MAX_INT_DIGITS`, the
one limit a seed also keeps — finite numbers only), so that no later code meets a
value it cannot handle.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import AtoutError
from .errors import RecordError
from .errors import error_message
from .limits import MAX_INT_DIGITS
from .text import Message

TEMP_PREFIX = ".atout-"
TEMP_SUFFIX = ".tmp"
STALE_AGE = 3600.0
"""Seconds after which a temporary file whose writer cannot be told is removed."""
CLEAN_EVERY = 60.0
"""Seconds between two looks for stale temporary files in one folder by one process."""
_last_clean: dict[Path, float] = {}

MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a JSON file of atout may have (a match
record nests 7 deep)."""


class FileProblem(AtoutError):
    """A file that cannot be read as asked (missing, not a regular file, too large, not
    UTF-8); the message does not name the file: the caller's error does."""


class FileTooLarge(FileProblem):
    """A file over the size limit it was read with."""


# --- writing ---------------------------------------------------------------------------------


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Replace ``path`` by ``text`` (UTF-8), atomically and durably; returns the path.

    A problem (the folder is a file, the target a folder, no space, no permission) is an
    :class:`OSError`; the old file is then left as it was."""
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(target))
    try:
        tmp = _durable_temp(target.parent, text)
    except OSError as exc:  # no space, a file too large: the message names the target
        raise named(exc, target) from None
    try:
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_folder(target.parent)
    return target


def named(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path`` when it names no file (a failed write names none), so that
    the person is told which file could not be written."""
    if exc.filename:
        return exc
    code = exc.errno if exc.errno is not None else errno.EIO
    return type(exc)(code, exc.strerror or os.strerror(code), str(path))


def write_new(
    folder: Path,
    stem: str,
    text: str,
    suffix: str = ".json",
    taken: Callable[[str], bool] | None = None,
) -> Path:
    """Write ``text`` to a file of its own in ``folder`` (``STEM.json``, else
    ``STEM-2.json`` and so on), whole and durably, never replacing a file; ``taken``
    may rule a name out for another reason.  Returns its path."""
    try:
        tmp = _durable_temp(folder, text)
    except OSError as exc:
        raise named(exc, folder / f"{stem}{suffix}") from None
    try:
        path = link_new(tmp, folder, stem, suffix, taken)
    finally:
        tmp.unlink(missing_ok=True)
    sync_folder(folder)
    return path


def link_new(
    source: Path,
    folder: Path,
    stem: str,
    suffix: str,
    taken: Callable[[str], bool] | None = None,
) -> Path:
    """Give the file ``source`` a name of its own in ``folder``: ``STEM+suffix``, else
    ``STEM-2+suffix`` and so on, by a hard link, which fails rather than replace a file
    (``taken(name)`` may rule a name out for another reason).  Any other problem is an
    :class:`OSError`."""
    n = 1
    while True:
        name = stem + (f"-{n}" if n > 1 else "")
        n += 1
        if taken is not None and taken(name):
            continue
        path = folder / f"{name}{suffix}"
        try:
            os.link(source, path)
        except FileExistsError:
            continue
        return path


def _durable_temp(folder: Path, text: str) -> Path:
    """``text`` in a new temporary file in ``folder`` (created if needed), forced to
    disk: the first half of every write here.  Stale temporary files are cleaned first."""
    folder.mkdir(parents=True, exist_ok=True)
    now = time.monotonic()
    if now - _last_clean.get(folder, -CLEAN_EVERY) >= CLEAN_EVERY:
        _last_clean[folder] = now
        clean_stale_temps(folder)
    fd, tmp = tempfile.mkstemp(
        prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=TEMP_SUFFIX, dir=folder
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _writer_alive(name: str) -> bool | None:
    """Whether the process that made the temporary file ``name`` still runs (``None``
    when the name does not say which process made it)."""
    middle = name[len(TEMP_PREFIX) :].split("-", 1)[0]
    if not middle.isdigit() or len(middle) > 10:
        return None
    try:
        os.kill(int(middle), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def clean_stale_temps(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files of :func:`write_atomic` in ``folder`` whose writer is
    gone (killed before it renamed), or older than :data:`STALE_AGE` when the writer
    cannot be told; returns what was removed.  Only ``.atout-*.tmp`` files are touched."""
    removed: list[Path] = []
    now = time.time() if now is None else now
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            alive = _writer_alive(name)
            if alive is None:
                alive = now - entry.stat(follow_symlinks=False).st_mtime < STALE_AGE
            if not alive:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def sync_folder(folder: Path) -> None:
    """Force a folder's entries (a rename into it) to disk, where the system allows."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- reading ---------------------------------------------------------------------------------


def size_text(limit: int) -> str:
    """A byte count as people write it: ``64 KiB``, ``8 MiB``."""
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    if limit >= 1024 and limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit``; any problem is one
    :class:`FileProblem` (its message does not name the file).

    The file is opened without blocking (a FIFO does not wait for a writer) and checked
    to be a regular file before anything is read; reading stops after ``limit + 1``
    bytes."""
    try:
        fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise FileProblem(Message("no such file")) from None
    except IsADirectoryError:
        raise FileProblem(Message("is a folder, not a file")) from None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise FileProblem(Message("cannot be read ({reason})", reason=reason)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem(Message("is a folder, not a file"))
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(Message("not a regular file (a device, a FIFO or a socket)"))
        if info.st_size > limit:
            raise FileTooLarge(Message("the file is over {size}", size=size_text(limit)))
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise FileProblem(Message("cannot be read ({reason})", reason=reason)) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileTooLarge(Message("the file is over {size}", size=size_text(limit)))
    return data


def read_text(path: str | os.PathLike[str], limit: int, *, torn_end: bool = False) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes; any
    problem is one :class:`RecordError` naming the file.

    With ``torn_end`` (a file that grows by appended lines, such as a save), what follows
    the last newline is decoded with replacement characters rather than refused: an
    append that a crash interrupted may have cut it in the middle of a character, and
    the reader leaves that torn line out anyway."""
    try:
        data = read_bytes(path, limit)
    except FileProblem as exc:
        raise RecordError(
            Message("{file}: {problem}", file=str(path), problem=error_message(exc))
        ) from None
    cut = data.rfind(b"\n") + 1 if torn_end else len(data)
    try:
        whole = data[:cut].decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RecordError(
            Message(
                "{file}: line {line}: {problem}",
                file=str(path),
                line=line,
                problem=Message("not UTF-8 text"),
            )
        ) from None
    return whole + data[cut:].decode("utf-8", errors="replace")


# --- JSON within limits ------------------------------------------------------------------------


class JsonLimitError(ValueError):
    """A JSON text beyond one of the limits of :func:`loads_json`."""


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise JsonLimitError(f"an integer of {len(digits)} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 64:
        raise JsonLimitError(f"a number of {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):
        raise JsonLimitError(f"the number {text[:20]} is too large")
    return value


def _constant(text: str) -> Any:
    raise JsonLimitError(f"{text} is not a number JSON allows")


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
"""A string (to its end, or to the end of the text when it is not closed: linear time)
or a bracket."""


def nesting_line(text: str, limit: int, tokens: re.Pattern[str] = _TOKENS) -> int | None:
    """The line where ``text``'s brackets nest deeper than ``limit`` (``None`` when they
    do not), in one linear pass: ``tokens`` finds the brackets and whatever holds
    brackets that do not count (JSON strings by default; a pack passes YAML's quotes and
    comments).  Parsers read a deep nest in time that grows faster than its length, or
    recurse: this look comes first."""
    depth = 0
    for match in tokens.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                return text.count("\n", 0, match.start()) + 1
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
    return None


def loads_json(text: str, depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse ``text`` as JSON within atout's limits: nesting at most ``depth``, integers
    of at most :data:`MAX_INT_DIGITS` digits, finite numbers (no ``NaN``, ``Infinity``,
    ``1e400``).  Raises :class:`ValueError` with a short reason (a
    :class:`json.JSONDecodeError` for bad syntax, with its line)."""
    deep = nesting_line(text, depth)
    if deep is not None:
        raise JsonLimitError(f"line {deep}: nested more than {depth} deep")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JsonLimitError(f"nested more than {depth} deep") from None
