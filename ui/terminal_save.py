"""The terminal game's save: one match in :func:`~atout.ui.savegame.terminal_match_path`,
written after every action, claimed by one terminal game at a time (a lock), resumed
with ``--continue``, its record written when it stops; and the signals that stop it with
its files written.  The window's saves and the kept matches are :mod:`atout.ui.savegame`'s.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from atout.core import Engine
from atout.core import Match
from atout.core.errors import AtoutError
from atout.core.errors import RecordError
from atout.core.errors import error_message
from atout.core.records import save_json
from atout.core.savefile import torn_tail
from atout.core.session import Session
from atout.core.text import Message
from atout.core.views import Bot

from . import savegame
from .i18n import _
from .paths import data_dir


def follow_terminal(session: Session, claim: bool = True) -> Path | None:
    """Make a new terminal match follow :func:`terminal_match_path` (written after every
    action, as the table's) and, with ``claim``, claim its record's name.  A match left
    unfinished there before is moved aside, never replaced: returns where it is kept
    (``None`` when there was none)."""
    path = savegame.terminal_match_path()
    kept = savegame.set_aside(path, "left") if path.exists() and not path.is_dir() else None
    if claim:
        savegame.follow(session, path, {})
    else:
        try:
            if path.is_dir():
                raise savegame.SaveError(
                    _("{file}: is a folder; the match is saved in a file of that name").format(
                        file=path
                    )
                )
            session.attach(path, {})
        except OSError as exc:
            raise savegame.save_problem(exc, path) from None
    return kept


def terminal_lock_path() -> Path:
    """The file whose lock claims the terminal game's save (see :func:`claim_terminal`)."""
    return data_dir() / "terminal-match.lock"


@contextlib.contextmanager
def claim_terminal() -> Iterator[None]:
    """Claim the terminal game's save for the block: an exclusive advisory lock
    (``flock``) on :func:`terminal_lock_path`, which holds this process's id.  When
    another terminal game holds it, a :class:`SaveError` says which process and nothing
    is touched.  The system releases the lock when the process ends, however it ends (a
    kill leaves no stale claim); the lock file itself stays."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no advisory locks here (Windows)
        yield
        return
    path = terminal_lock_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise savegame.save_problem(exc, path) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held = os.read(fd, 32).decode("ascii", errors="replace").strip()
            who = _("process {pid}").format(pid=held) if held.isdigit() else _("another process")
            raise savegame.SaveError(
                _(
                    "{file}: another terminal game ({who}) is playing the match saved "
                    "there; finish or quit it first (two games never share a save)"
                ).format(file=savegame.terminal_match_path(), who=who)
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        yield
    finally:
        os.close(fd)  # releases the lock


def terminal_torn() -> str | None:
    """What the terminal game's save lost to a torn last line (one sentence), or
    ``None``: said when the match is continued (:func:`atout.core.savefile.torn_tail`)."""
    return torn_tail(savegame.terminal_match_path())


def resume_terminal(engine: Engine, bot_factory: Callable[[int], Bot] | None = None) -> Session:
    """The terminal's saved match, standing where it was saved.  A save that cannot be
    resumed is moved aside (never deleted) and the error says where it is kept."""
    path = savegame.terminal_match_path()
    if not path.exists():
        raise savegame.SaveError(
            _("{file}: no match of the terminal game is saved").format(file=path)
        )

    def factory(match: Match, seat: int) -> Bot:
        assert bot_factory is not None
        return bot_factory(seat)

    try:
        return savegame.resume(engine, path, factory if bot_factory is not None else None)
    except savegame.SaveError:
        raise
    except AtoutError as exc:
        kept = savegame.set_aside(path)
        problem = error_message(exc)
        raise RecordError(
            Message(
                "the saved match cannot be resumed: {problem}; it is kept in {file}",
                problem=problem,
                file=str(kept),
            )
            if kept is not None
            else Message("the saved match cannot be resumed: {problem}", problem=problem)
        ) from None


def end_terminal(session: Session, record: Path | None = None) -> Path:
    """The terminal match stops (over, quit, or a signal): write its record (to
    ``record``, else the name claimed when it started), and remove its save file when
    the match is over (its deals are in the record); a match left unfinished keeps its
    save for ``--continue``.  Returns the record's path."""
    path = save_json(
        record if record is not None else savegame.record_path(session), session.record()
    )
    if session.result is not None:
        savegame.finish(session)
    else:
        session.detach()
    return path


class Stopped(SystemExit):
    """The process was asked to stop (SIGHUP, SIGTERM): raised in the main thread so
    that the match's files are written on the way out."""


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, SIGHUP and SIGTERM raise :class:`Stopped` (exit code 128 +
    the signal) instead of killing the process, so the block's ``finally`` saves; the
    handlers before are put back after."""

    def stop(signum: int, frame: object) -> None:
        raise Stopped(128 + signum)

    previous: dict[int, Any] = {}
    for sig in (signal.SIGHUP, signal.SIGTERM):
        with contextlib.suppress(ValueError, OSError):  # not the main thread
            previous[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        for number, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)
