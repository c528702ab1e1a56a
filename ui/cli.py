"""The ``atout`` command: play, replay, variants, plugins, bench.

Each subcommand is one module of :mod:`atout.ui.commands`, named with its help text in
the static table :data:`COMMANDS`; a module defines ``add_arguments(parser)`` and
``run(args, engine) -> int``.  Only the module of the command being run is imported:
``atout play`` never loads the benchmark or the duplicate runner, so each command starts
as fast as what it needs.  The command's name is the first argument that is not an
option (the top level has no option but ``--help``), and a bare ``atout`` plays.

Every error atout raises on purpose (:class:`~atout.core.errors.AtoutError`) becomes one
line on stderr and exit code 1 (2 for a bad command line), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from atout.core import Engine, make_plugin_manager
from atout.core.errors import AtoutError


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
        "atout.ui.commands.play", "play a match against bots (Découverte or four-player Belote)"
    ),
    "replay": Command(
        "atout.ui.commands.replay", "replay a deal or match record, checking every action"
    ),
    "plugins": Command(
        "atout.ui.commands.plugins",
        "list the loaded rule and bot plugins, where each comes from, and its hooks",
    ),
    "variants": Command(
        "atout.ui.commands.variants", "list, show and check house-rule packs (YAML)"
    ),
    "serve": Command(
        "atout.ui.commands.serve", "run a table server: people and bots play over the network"
    ),
    "bench": Command(
        "atout.ui.commands.bench",
        "measure the engine, the solvers and the bots (deals per second, solve times, duplicates)",
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


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("plugins")
    group.add_argument(
        "--plugin",
        action="append",
        metavar="MODULE_OR_PATH",
        help="load one more rule or bot plugin for this run (a module name or a .py file)",
    )
    group.add_argument(
        "--disable-plugin",
        action="append",
        metavar="NAME",
        help="block a plugin by name (also: ATOUT_DISABLE_PLUGINS=a,b)",
    )
    return common


def command_name(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first argument that is not an option (``None``
    when there is none, or when it is no command: the parser then says so)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand is declared from :data:`COMMANDS`, and only
    ``command``'s module is imported to add its arguments (``None``: no module at all,
    enough for ``atout --help``)."""
    parser = argparse.ArgumentParser(
        prog="atout",
        description="Belote Découverte, four-player Belote, house-rule packs and bots.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = _common()
    for name, cmd in COMMANDS.items():
        p = sub.add_parser(name, help=cmd.help, description=cmd.help, parents=[common])
        if name == command:
            cmd.load().add_arguments(p)
    return parser


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The parsed command line (a bare ``atout`` is ``atout play``); loads only the
    module of the command named."""
    argv = list(argv) or [DEFAULT_COMMAND]
    return build_parser(command_name(argv)).parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``atout``; returns the exit code."""
    given = list(sys.argv[1:] if argv is None else argv)
    args = parse(given)
    if args.command is None:  # arguments but no command (``atout --``): play with them
        args = parse([DEFAULT_COMMAND, *given])
    try:
        engine = make_engine(args)
        result: int = COMMANDS[args.command].load().run(args, engine)
        return result
    except AtoutError as exc:
        print(f"atout: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
