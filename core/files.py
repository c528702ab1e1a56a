"""Files written so that nothing saved is ever half-written or lost, and read with limits.

:func:`write_atomic` writes a temporary file beside the target, forces it to disk, renames
it over the target and forces the folder entry too: a crash at any moment leaves either
the old file or the new one, whole.  :func:`read_text` reads a regular file of bounded
size (a device or a FIFO is refused, never read until memory runs out).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from .errors import RecordError

TEMP_PREFIX = ".atout-"
TEMP_SUFFIX = ".tmp"


def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Replace ``path`` by ``text`` (UTF-8), atomically and durably; returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    sync_folder(target.parent)
    return target


def sync_folder(folder: Path) -> None:
    """Force a folder's entries (a rename into it) to disk, where the system allows."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes; any
    problem is one :class:`RecordError` naming the file."""
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise RecordError(f"{p}: no such file") from None
    except OSError as exc:
        raise RecordError(f"{p}: cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(f"{p}: not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise RecordError(f"{p}: cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise RecordError(f"{p}: the file is over {limit // 1024 // 1024} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{p}: not a UTF-8 text file") from None
