"""``atout variants``: list, show and check house-rule packs, and print a game's options.

* ``atout variants list [--game GAME]``: every shipped and user pack with its game,
  origin and description; a pack that does not load is listed with its problem.
* ``atout variants show NAME_OR_FILE``: the resolved rules, every key with its value and
  the pack of the ``extends`` chain that set it.
* ``atout variants check FILE...``: validate pack files (exit 0 when all are valid, 1
  otherwise), one message per problem with the file, the line and the key.
* ``atout variants options GAME``: the options a pack may set, as a Markdown table
  (the same table as ``docs/packs.md``).

Pack files are the user's, so every text taken from one (a description, a file name, a
problem that quotes a value) is printed with its control characters escaped
(:func:`atout.ui.safe_text.printable`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from atout.core import Engine
from atout.core.packs import check_file
from atout.core.packs import list_packs
from atout.core.packs import option_table
from atout.core.packs import resolve
from atout.core.packs import user_dir
from atout.core.packs import yaml_text
from atout.ui.i18n import _
from atout.ui.i18n import ngettext
from atout.ui.messages import origin_words
from atout.ui.messages import shown
from atout.ui.messages import shown_pack
from atout.ui.safe_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p_list = sub.add_parser("list", help=_("every shipped and user pack"))
    p_list.add_argument("--game", default=None, help=_("only the packs of this game"))
    p_show = sub.add_parser("show", help=_("a pack's resolved rules and where each comes from"))
    p_show.add_argument("pack", metavar="NAME_OR_FILE", help=_("a pack's name or a pack file"))
    p_check = sub.add_parser("check", help=_("validate pack files (exit 1 when one is invalid)"))
    p_check.add_argument("files", nargs="+", metavar="FILE", help=_("pack files to check"))
    p_options = sub.add_parser("options", help=_("the options a pack may set for a game"))
    p_options.add_argument("game", help=_("the game: belote or decouverte"))


def run(args: argparse.Namespace, engine: Engine, out: TextIO | None = None) -> int:
    out = out if out is not None else sys.stdout
    if args.action == "list":
        return list_command(engine, args.game, out)
    if args.action == "show":
        return show_command(engine, args.pack, out)
    if args.action == "check":
        return check_command(engine, args.files, out)
    return options_command(engine, args.game, out)


def _table(rows: list[tuple[str, ...]], out: TextIO) -> None:
    rows = [tuple(printable(c) for c in row) for row in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [c.ljust(w) for c, w in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]).rstrip(), file=out)


def list_command(engine: Engine, game: str | None, out: TextIO) -> int:
    """Print every pack (of ``game``), then the problems and warnings found."""
    if game is not None:
        engine.game(game)
    packs = [p for p in list_packs(engine) if game is None or p.game == game or not p.game]
    rows: list[tuple[str, ...]] = [(_("NAME"), _("GAME"), _("ORIGIN"), _("DESCRIPTION"))]
    for p in packs:
        mark = " (!)" if p.problem else ""
        described = shown_pack(p.description, p.origin)
        rows.append((p.name + mark, p.game or "?", origin_words(p.origin), described))
    _table(rows, out)
    print("\n" + _("User packs: {folder}").format(folder=printable(user_dir())), file=out)
    notes = [(p, p.problem or p.warning) for p in packs if p.problem or p.warning]
    if notes:
        print("", file=out)
        for p, note in notes:
            label = _("cannot be used") if p.problem else _("warning")
            print(printable(f"{p.name} ({label}): {shown(note)}"), file=out)
    return 0


def show_command(engine: Engine, pack: str, out: TextIO) -> int:
    """Print a pack's resolved rules: every key, its value, and the pack that set it."""
    resolved = resolve(engine, pack)
    head = [
        f"pack:        {resolved.name} ({resolved.origin}, {resolved.path})",
        f"game:        {resolved.game}",
        f"description: {shown_pack(resolved.description, resolved.origin)}",
        f"chain:       {' -> '.join(resolved.chain)}",
    ]
    if resolved.plugins:
        head.append(f"plugins:     {', '.join(resolved.plugins)}")
    for line in head:
        print(printable(line), file=out)
    print("", file=out)
    rows: list[tuple[str, ...]] = [(_("KEY"), _("VALUE"), _("SET BY"))]
    for s in resolved.settings:
        where = (
            s.set_by
            if s.line is None
            else _("{pack} (line {line})").format(pack=s.set_by, line=s.line)
        )
        rows.append((s.key, yaml_text(s.value), where))
    _table(rows, out)
    for warning in resolved.warnings:
        print(_("warning: {text}").format(text=printable(shown(warning))), file=sys.stderr)
    return 0


def check_command(engine: Engine, files: list[str], out: TextIO) -> int:
    """Validate each file; 0 when every one is valid, 1 otherwise."""
    bad = 0
    for path in files:
        problems = check_file(engine, path)
        if problems:
            bad += 1
            for problem in problems:
                print(printable(shown(problem)), file=out)
        else:
            print(_("{file}: ok").format(file=printable(path)), file=out)
    if len(files) > 1:
        print(
            ngettext(
                "{valid} of {n} pack is valid", "{valid} of {n} packs are valid", len(files)
            ).format(valid=len(files) - bad, n=len(files)),
            file=out,
        )
    return 1 if bad else 0


def options_command(engine: Engine, game: str, out: TextIO) -> int:
    """Print the options of ``game`` as the Markdown table of ``docs/packs.md``."""
    print("| key | kind | default | allowed | description | seed |", file=out)
    print("| --- | --- | --- | --- | --- | --- |", file=out)
    for key, kind, default, allowed, description, source in option_table(engine, game):
        cells = (f"`{key}`", kind, f"`{default}`", allowed, description, source)
        row = "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"
        print(printable(row), file=out)
    return 0
