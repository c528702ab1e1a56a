"""The ``atout`` command: play, replay, bench, variants, plugins.

Each subcommand lives in its own module listed in :data:`COMMANDS`; a module defines
``HELP``, ``add_arguments(parser)`` and ``run(args, engine) -> int``.  Every error atout
raises on purpose (:class:`~atout.core.errors.AtoutError`) becomes one line on stderr and
exit code 1 (2 for a bad command line), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from atout.core import Engine, make_plugin_manager
from atout.core.errors import AtoutError

COMMANDS: dict[str, str] = {
    "play": "atout.ui.play",
    "replay": "atout.ui.replay",
    "plugins": "atout.ui.plugins_cmd",
    "variants": "atout.ui.variants_cmd",
    "bench": "atout.ui.bench",
}


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


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The argument parser with every subcommand, and the subcommands' modules."""
    parser = argparse.ArgumentParser(
        prog="atout",
        description="Belote Découverte, four-player Belote, house-rule packs and bots.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    common = _common()
    for name, path in COMMANDS.items():
        module = importlib.import_module(path)
        modules[name] = module
        p = sub.add_parser(name, help=module.HELP, description=module.HELP, parents=[common])
        module.add_arguments(p)
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``atout``; returns the exit code."""
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or sys.argv[1:])])
    try:
        engine = make_engine(args)
        result: int = modules[args.command].run(args, engine)
        return result
    except AtoutError as exc:
        print(f"atout: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
