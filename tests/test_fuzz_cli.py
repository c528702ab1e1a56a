"""Seeded fuzzing of the command line: argument lists drawn from the commands, their
options and nasty arguments (files that are folders, devices, FIFOs, broken records and
packs; names with escape sequences; numbers too large; plugins already loaded or given
twice), run through ``atout``'s ``main``.  Each run exits 0, 1 with one line
``atout: ...`` on stderr, or 2 with argparse's usage and one error line; no exception
escapes and nothing printed holds a control character.  Neither the terminal game nor
the window is started (``play`` stops where the match would begin)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
from pathlib import Path

import pytest
from atout.core import Engine
from atout.ui import cli
from atout.ui import display
from atout.ui import terminal_match
from fuzz_helpers import check_printed

CASES = 2000


@pytest.fixture
def nasty_files(tmp_path: Path) -> list[str]:
    """Paths of every kind an argument may name."""
    (tmp_path / "folder.json").mkdir()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "deep.json").write_text("[" * 5000)
    (tmp_path / "big.json").write_text('{"format": "atout-deal", "version": ' + "9" * 5000 + "}")
    (tmp_path / "bid.json").write_text(
        json.dumps(
            {
                "format": "atout-deal",
                "version": 1,
                "game": "belote",
                "dealer": 0,
                "layout": {"hands": [[], [], [], []]},
                "actions": [{"seat": 0, "bid": "\x1b]0;title\x07"}],
            }
        )
    )
    (tmp_path / "pack.yaml").write_text("game: belote\ndescription: x\ntarget: <<\n")
    (tmp_path / "date.yaml").write_text("game: belote\ndescription: 2024-02-30\n")
    (tmp_path / "ok.yaml").write_text("game: decouverte\ndescription: fine\ntarget: 500\n")
    (tmp_path / "plugin.py").write_text("x = 1\n")
    names = [p.name for p in tmp_path.iterdir()]
    return [str(tmp_path / n) for n in names] + [
        "/dev/zero",
        "/dev/urandom",
        "/dev/null",
        str(tmp_path / "missing.json"),
        str(tmp_path / "\x1b[31mred.json"),
        "x" * 5000,
    ]


WORDS = [
    "replay",
    "variants",
    "list",
    "show",
    "check",
    "options",
    "plugins",
    "play",
    "belote",
    "decouverte",
    "official",
    "clockwise",
    "manille",
    "--trace",
    "--json",
    "--game",
    "--text",
    "--continue",
    "--pack",
    "--seed",
    "--target",
    "--bot",
    "--plugin",
    "--disable-plugin",
    "--help",
    "-h",
    "--",
    "-",
    "",
    "9" * 5000,
    "-5",
    "\x1b[2J",
    "\u202eevil",
    "atout.plugins.belote",
    "atout.plugins.bots",
    "os",
    "no.such.module",
]


COMMANDS = [
    ["replay"],
    ["variants", "list"],
    ["variants", "show"],
    ["variants", "check"],
    ["variants", "options"],
    ["plugins"],
    ["play", "--text"],
    [],
]


def _argv(rng: random.Random, files: list[str]) -> list[str]:
    command = rng.choice(COMMANDS)
    argv = list(command)
    for _ in range(rng.randrange(5)):
        argv.append(rng.choice(files) if rng.random() < 0.45 else rng.choice(WORDS))
    return argv


def test_fuzzed_command_lines_exit_with_one_line(
    monkeypatch: pytest.MonkeyPatch, nasty_files: list[str], installed_engine: Engine
) -> None:
    reached: list[str] = []

    def no_match(*args: object, **kwargs: object) -> int:
        reached.append("play")
        return 0

    monkeypatch.setattr(terminal_match, "play_match", no_match)
    monkeypatch.setattr(display, "display_problem", lambda: "no window in this test")
    real_make_engine = cli.make_engine

    def engine_for(args: object) -> Engine:  # built once unless plugins are asked for
        if getattr(args, "plugin", None) or getattr(args, "disable_plugin", None):
            return real_make_engine(args)  # type: ignore[arg-type]
        return installed_engine

    monkeypatch.setattr(cli, "make_engine", engine_for)
    rng = random.Random(404)
    codes: set[int] = set()
    for case in range(CASES):
        argv = _argv(rng, nasty_files)
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = cli.main(argv)
                except SystemExit as exc:  # argparse: --help (0) or a bad command line (2)
                    code = int(exc.code or 0)
            codes.add(code)
            check_printed(out.getvalue())
            check_printed(err.getvalue())
            lines = err.getvalue().splitlines()
            if code == 1 and not lines:  # variants check: its problems are its output
                assert argv[:2] == ["variants", "check"] and out.getvalue().strip()
            elif code == 1:
                assert len(lines) == 1 and lines[0].startswith("atout: "), lines
            elif code == 2:
                assert lines and lines[-1].startswith("atout") and "error: " in lines[-1]
            else:
                assert code == 0, code
        except BaseException:
            print(f"case {case}: {argv!r}")
            raise
    assert codes == {0, 1, 2} and reached
