"""The ``atout`` command: play, replay, variants, plugins, bench.

Each subcommand is one module of :mod:`atout.ui.commands`, named with its help text in
the static table :data:`COMMANDS`; a module defines ``add_arguments(parser)`` and
``run(args, engine) -> int``.  Only the module of the command being run is imported:
``atout play`` never loads the benchmark or the duplicate runner, so each command starts
as fast as what it needs.  The command's name is the first argument that is not an
option (the top level has no option but ``--help`` and ``--lang``), and a bare
``atout`` plays.

Everything the command says is in the chosen language, argparse's own words and the
errors included: ``--lang`` (before the command, as in ``atout --lang fr variants
list``, or ``atout play``'s own) is looked for before the parser is built, else the
start view's kept choice or the environment decides; an error atout raises is shown
through :func:`~atout.ui.messages.shown_error`.

Every error atout raises on purpose (:class:`~atout.core.errors.AtoutError`), and a file
that cannot be written (:class:`OSError`), becomes one line on stderr and exit code 1 (2
for a bad command line), never a traceback; every such line, and the command line's own
complaints, are printed with control characters escaped (a file name or an argument may
hold an escape sequence).  Output into a closed pipe (``atout variants list | head``) ends
quietly with exit code 141 (``--help`` too); an interrupt (Ctrl-C) while :func:`main`
runs ends with 130, and further interrupts while atout is stopping are ignored.  The
console script's entry point is :mod:`atout.ui.console`, which makes Ctrl-C a quiet 130
before this module's imports start and after :func:`main` returns; importing this module
changes no signal handler.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import typing
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from types import ModuleType
from typing import Any

from atout.core import Engine
from atout.core import make_plugin_manager
from atout.core.errors import AtoutError

from .i18n import LANGUAGES
from .i18n import N_
from .i18n import _
from .messages import shown_error
from .safe_text import printable

INTERRUPT_EXIT = 130
"""The exit code after Ctrl-C (128 + SIGINT), as the console script's before and after."""


_interrupted = False
"""Whether Ctrl-C came: the interpreter may swallow the exception a signal handler raises
(while it compiles a module's source, it does), so the flag is looked at again."""


def _interrupt(signum: int, frame: object) -> None:
    """Ctrl-C while :func:`main` runs: a :class:`KeyboardInterrupt`, remembered."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


Handler = Callable[[int, FrameType | None], Any] | int | None
"""What :func:`signal.getsignal` answers: a function, SIG_DFL or SIG_IGN, or None."""

BROKEN_PIPE_EXIT = 141
"""The exit code when the output's reader went away (128 + SIGPIPE, as a shell reports)."""


class Parser(argparse.ArgumentParser):
    """The argument parser, whose complaints (which quote the arguments) are printed
    with control characters escaped; its subcommands' parsers are of this class too."""

    def error(self, message: str) -> typing.NoReturn:
        self.print_usage(sys.stderr)
        line = _("%(prog)s: error: %(message)s\n") % {
            "prog": self.prog,
            "message": printable(message),
        }
        self.exit(2, line)


@dataclass(frozen=True)
class Command:
    """One subcommand: the module that implements it and its one-line help."""

    module: str
    help: str

    def load(self) -> ModuleType:
        """The command's module, imported now."""
        return importlib.import_module(self.module)


COMMANDS: dict[str, Command] = {
    "play": Command(
        "atout.ui.commands.play", N_("play a match against bots (Découverte or four-player Belote)")
    ),
    "replay": Command(
        "atout.ui.commands.replay", N_("replay a deal or match record, checking every action")
    ),
    "plugins": Command(
        "atout.ui.commands.plugins",
        N_("list the loaded rule and bot plugins, where each comes from, and its hooks"),
    ),
    "variants": Command(
        "atout.ui.commands.variants", N_("list, show and check house-rule packs (YAML)")
    ),
    "serve": Command(
        "atout.ui.commands.serve", N_("run a table server: people and bots play over the network")
    ),
    "review": Command(
        "atout.ui.commands.review", N_("review a deal: what each decision was worth")
    ),
    "bench": Command(
        "atout.ui.commands.bench",
        N_(
            "measure the engine, the solvers and the bots (deals per second, solve times, duplicates)"
        ),
    ),
}
"""Every subcommand by name, in the order ``atout --help`` lists them."""

DEFAULT_COMMAND = "play"
"""What a bare ``atout`` runs."""


def make_engine(args: argparse.Namespace) -> Engine:
    """The engine for this run, with ``--plugin`` and ``--disable-plugin`` applied."""
    pm = make_plugin_manager(
        plugins=getattr(args, "plugin", None) or (),
        disable=getattr(args, "disable_plugin", None) or (),
    )
    return Engine(pm)


def _common() -> Parser:
    common = Parser(add_help=False)
    group = common.add_argument_group(_("plugins"))
    group.add_argument(
        "--plugin",
        action="append",
        metavar="MODULE_OR_PATH",
        help=_("load one more rule or bot plugin for this run (a module name or a .py file)"),
    )
    group.add_argument(
        "--disable-plugin",
        action="append",
        metavar="NAME",
        help=_("block a plugin by name (also: ATOUT_DISABLE_PLUGINS=a,b)"),
    )
    return common


LANG_OPTION = "--lang"
"""The option that chooses the language: the top level's (for every command) and
``atout play``'s."""


def command_name(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first argument that is not an option nor the
    top level's ``--lang`` value (``None`` when there is none, or when it is no command:
    the parser then says so)."""
    after_lang = False
    for arg in argv:
        if after_lang:
            after_lang = False
            continue
        if arg == LANG_OPTION:
            after_lang = True
        elif not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def given_language(argv: Sequence[str]) -> str | None:
    """The language ``argv`` asks for with ``--lang CODE`` or ``--lang=CODE`` (the top
    level's or ``atout play``'s, the first one before ``--``), looked for before the
    parser is built so that its help and its complaints are in that language."""
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == LANG_OPTION and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith(LANG_OPTION + "="):
            return arg.partition("=")[2]
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand is declared from :data:`COMMANDS`, and only
    ``command``'s module is imported to add its arguments (``None``: no module at all,
    enough for ``atout --help``)."""
    parser = Parser(
        prog="atout",
        description=_("Belote Découverte, four-player Belote, house-rule packs and bots."),
    )
    parser.add_argument(
        LANG_OPTION,
        dest="language",
        choices=sorted(LANGUAGES),
        default=None,
        help=_("the language of everything atout says: en, fr or de"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = _common()
    for name, cmd in COMMANDS.items():
        p = sub.add_parser(name, help=_(cmd.help), description=_(cmd.help), parents=[common])
        if name == command:
            cmd.load().add_arguments(p)
    return parser


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed command line (a bare ``atout`` is ``atout play``); loads only the
    module of the command named."""
    argv = list(argv) or [DEFAULT_COMMAND]
    return build_parser(command_name(argv)).parse_args(argv)


def main(argv: Sequence[str] | None = None, *, quiet: Handler = None) -> int:
    """Run ``atout``; returns the exit code (``--help`` and a bad command line exit
    through argparse's ``SystemExit``, their output flushed first).

    Ctrl-C is taken inside ``main``'s ``try`` when the handler in place is Python's own,
    or ``quiet``, the console script's (:mod:`atout.ui.console`), and that handler is put
    back at the end; another handler (Ctrl-C ignored in a background job) is left alone.
    Ctrl-C while it is given back ends as ``SystemExit(130)``.
    """
    global _interrupted
    _interrupted = False  # this run's own (a program may call main again after a Ctrl-C)
    previous: Handler = None
    try:
        previous = signal.getsignal(signal.SIGINT)
        if previous is signal.default_int_handler or (quiet is not None and previous is quiet):
            signal.signal(signal.SIGINT, _interrupt)
        try:
            code = _main(argv)
        except SystemExit:
            sys.stdout.flush()  # --help into a closed pipe: BrokenPipeError, below
            raise
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_pipe()
        code = BROKEN_PIPE_EXIT
    except Exception:
        # Python 3.11 wraps what a Ctrl-C raises while a class is built (a dataclass's
        # field, at import) in a RuntimeError: after Ctrl-C, what escapes is its doing
        if not _interrupted:
            raise
        return _interrupted_exit()
    except KeyboardInterrupt:
        return _interrupted_exit()
    finally:
        try:
            if signal.getsignal(signal.SIGINT) is _interrupt:
                signal.signal(signal.SIGINT, previous)
        except KeyboardInterrupt:  # Ctrl-C as Ctrl-C is given back: the same quiet end
            _quiet_interrupts()
            raise SystemExit(INTERRUPT_EXIT) from None
    return code


def _choose_language(argv: Sequence[str]) -> None:
    """The language of all the command says, its help and its errors included:
    ``--lang``, else the start view's kept choice, else the environment's locale."""
    from .i18n import choose_language
    from .i18n import set_language
    from .savegame import load_settings

    set_language(choose_language(given_language(argv), load_settings(), os.environ))


def _main(argv: Sequence[str] | None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    _choose_language(given)
    args = parse(given)
    if args.command is None:  # arguments but no command (``atout --``): play with them
        args = parse([DEFAULT_COMMAND, *given])
    if getattr(args, "lang", False) is None:  # ``atout --lang fr play``: play's too
        args.lang = args.language
    try:
        engine = make_engine(args)
        command = COMMANDS[args.command].load()
        if _interrupted:  # a Ctrl-C swallowed while the command's modules loaded
            raise KeyboardInterrupt
        result: int = command.run(args, engine)
        return result
    except AtoutError as exc:
        _complain(shown_error(exc))
        return 1
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        _complain(f"{where}{exc.strerror or exc}")
        return 1


def _complain(message: str) -> None:
    """One line on stderr: ``atout: MESSAGE``, control characters escaped."""
    print(f"atout: {printable(message)}", file=sys.stderr)


def _quiet_pipe() -> None:
    """The reader of our output went away: send what is left of it nowhere, so that the
    interpreter's last flush raises nothing."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _interrupted_exit() -> int:
    """The end after Ctrl-C: further interrupts ignored, the prompt's line ended."""
    _quiet_interrupts()
    with contextlib.suppress(OSError, ValueError):
        print(file=sys.stderr)
    return INTERRUPT_EXIT


def _quiet_interrupts() -> None:
    """Stopping after Ctrl-C: a second Ctrl-C while files are closed and threads end is
    ignored rather than shown as a traceback."""
    with contextlib.suppress(ValueError, OSError):  # not the main thread: nothing to do
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(main())
