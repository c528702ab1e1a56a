"""The bot process: where the window's bots think, off the interpreter that draws.

A bot's search runs in pure Python.  On a thread of the window's process it holds the
interpreter that draws: on a busy machine, frames stalled for 150 ms while a bot thought.
So the table's bots think in a child process, and the window only sends questions and
reads answers.

The child is started with multiprocessing's ``forkserver`` method (``spawn`` where there
is none), never by forking the window's process, which holds OpenGL and threads.  It is
built from what pickles:

* the engine from an :class:`EngineRecipe`: the ``--plugin`` modules or files and the
  blocked plugin names of the window's plugin manager (the installed entry points load as
  in any run); the child checks that it has the same plugins as the window;
* each bot from a :class:`BotSpec`: its name, game, rules, seed and time budget, exactly
  as :class:`~atout.core.session.Session` makes it.

A question is ``(job, key, spec, view)``.  The child keeps each bot object under its key
(a session and a seat, or the session's hint) from one question to the next, so its
random source goes on as it would on a thread: the answer does not depend on which
process computed it.  :func:`serve` is the child's loop; the window's side is
:class:`~atout.ui.window.worker.BotWorker`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from atout.core import Action
from atout.core import Engine
from atout.core import Rules
from atout.core import View
from atout.core import make_plugin_manager
from atout.core.session import BOT

if TYPE_CHECKING:
    from atout.core.session import Session
    from atout.core.views import Bot

NICENESS = 5
"""How much lower than the window's the bot process's scheduling priority is: the window
and the software renderer come first.  Lower than a thread's (whose stalls are the
window's): at 10, on a machine busy with other work, a search got so little of a core that
the bot answered once in seven seconds instead of about once in two (``atout bench``)."""

HINT = "hint"
"""The key of a session's hint bot (a seat's bot is keyed by its seat number)."""

HINT_SEED = 99
HINT_THINK = 1.0
"""The hint bot's seed offset and time budget: :meth:`Session.hint_question`'s."""

PRELOAD = ("atout.ui.window.botproc", "atout.plugins", "atout.plugins.bots")
"""What the fork server imports once, so that each bot process starts in milliseconds."""

KEEP_SESSIONS = 2
"""How many sessions' bots the child keeps (the table being left and the new one)."""


def _rules_reduce(rules: Rules) -> tuple[Callable[..., Rules], tuple[Any, ...]]:
    return Rules, (rules.game, rules.to_dict(), rules.pack)


# The rules travel in every view.  Registered for multiprocessing's pickler only: the
# window's other pickling is left as it is.
ForkingPickler.register(Rules, _rules_reduce)


@dataclass(frozen=True)
class EngineRecipe:
    """How to build, in another process, an engine with the plugins of this one.

    ``plugins`` are the ``--plugin`` modules or files (files by absolute path),
    ``disable`` the blocked names, ``path`` the window's ``sys.path`` (a ``--plugin``
    module may be importable only there).
    """

    plugins: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()
    entry_points: bool = True
    path: tuple[str, ...] = ()

    @classmethod
    def of(cls, engine: Engine) -> EngineRecipe | None:
        """The recipe of ``engine``, or ``None`` when another process cannot rebuild it
        (a plugin registered by hand, as tests do)."""
        pm = engine.pm
        plugins: list[str] = []
        disable: list[str] = []
        entry_points = False
        registered = {name for name, plugin in pm.list_name_plugin() if plugin is not None}
        for name, plugin in pm.list_name_plugin():
            if plugin is None:
                disable.append(name)
        for name, source in pm.sources.items():
            if name not in registered:
                if name not in disable:
                    disable.append(name)  # unregistered since: keep it out
                continue
            if source.origin in ("shipped", "entry point"):
                entry_points = True
            elif source.origin == "--plugin":
                spec = source.location
                path = Path(spec)
                if spec.endswith(".py") or path.exists():
                    spec = str(path.resolve())
                plugins.append(spec)
            else:
                return None
        if registered - set(pm.sources):
            return None
        return cls(tuple(plugins), tuple(disable), entry_points, tuple(sys.path))

    def build(self) -> Engine:
        """The engine (in the child process)."""
        for entry in reversed(self.path):
            if entry not in sys.path:
                sys.path.insert(0, entry)
        pm = make_plugin_manager(
            plugins=self.plugins, disable=self.disable, entry_points=self.entry_points
        )
        return Engine(pm)


def plugin_names(engine: Engine) -> tuple[str, ...]:
    """The names of the plugins registered in ``engine`` (what two processes compare)."""
    return tuple(sorted(name for name, plugin in engine.pm.list_name_plugin() if plugin))


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, as the session makes it: ``engine.bot(name, game, rules, seed,
    think)``.  ``hint`` asks its ``hint(view)`` when it has one (else ``choose``)."""

    name: str
    game: str
    rules: Rules
    seed: int
    think: float
    hint: bool = False

    def make(self, engine: Engine) -> Bot:
        return engine.bot(self.name, self.game, self.rules, seed=self.seed, think=self.think)

    def ask(self, bot: Bot, view: View) -> Action:
        """The bot's answer to ``view``."""
        if self.hint:
            hint: Callable[[View], Action] | None = getattr(bot, "hint", None)
            if hint is not None:
                return hint(view)
        return bot.choose(view)


def seat_spec(session: Session, seat: int) -> BotSpec | None:
    """The spec of ``seat``'s bot, when the session made it by name (else ``None``)."""
    player = session.players[seat] if 0 <= seat < session.seats else None
    if player is None or player.kind != BOT or not player.bot:
        return None
    match = session.match
    return BotSpec(player.bot, session.game, session.rules, match.seed + seat, session.think)


def hint_spec(session: Session) -> BotSpec:
    """The spec of the session's hint bot."""
    seed = session.match.seed + HINT_SEED
    return BotSpec(session.hint_bot, session.game, session.rules, seed, HINT_THINK, hint=True)


Question = tuple[int, tuple[int, int | str], BotSpec, View]
"""What the window sends: a job number, the bot's key (session, seat or hint), its spec
and the view it is asked about."""


class RemoteBotError(Exception):
    """A bot failed in the bot process with an error that could not travel as itself."""


def context() -> BaseContext:
    """The multiprocessing context of the bot process: ``forkserver`` (the server,
    started once, imports :data:`PRELOAD`), else ``spawn``; never ``fork``."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(PRELOAD))
        return ctx
    return multiprocessing.get_context("spawn")


def start_server(ctx: BaseContext) -> None:
    """Start the fork server of ``ctx`` now if it has one (a no-op for ``spawn``)."""
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a :class:`RemoteBotError` with its text."""
    try:
        pickle.loads(ForkingPickler.dumps(exc))
    except Exception:
        return RemoteBotError(f"{type(exc).__name__}: {exc}")
    return exc


def serve(conn: Connection, recipe: EngineRecipe) -> None:
    """The bot process: build the engine, say ``("ready", plugin names)`` (or
    ``("failed", why)``), then answer questions one by one with ``("answer", job,
    action)`` or ``("error", job, exception)`` until ``None`` or the window is gone."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the window's
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)
    try:
        engine = recipe.build()
        names = plugin_names(engine)
    except Exception as exc:
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", names))
    bots: dict[tuple[int, int | str], tuple[BotSpec, Bot]] = {}
    while True:
        try:
            message: Question | None = conn.recv()
        except (EOFError, OSError):
            return  # the window is gone
        if message is None:
            return
        job, key, spec, view = message
        reply: tuple[str, int, object]
        try:
            entry = bots.get(key)
            if entry is None or entry[0] != spec:
                entry = bots[key] = (spec, spec.make(engine))
                recent = sorted({k[0] for k in bots})[-KEEP_SESSIONS:]
                for old in [k for k in bots if k[0] not in recent]:
                    del bots[old]
            reply = ("answer", job, spec.ask(entry[1], view))
        except Exception as exc:
            reply = ("error", job, _portable(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # an answer that does not pickle
            conn.send(("error", job, RemoteBotError(f"{type(exc).__name__}: {exc}")))
