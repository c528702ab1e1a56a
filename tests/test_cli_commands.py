"""The ``atout`` command line loads only the module of the command it runs, every command
of its table exists, and the rules of a match are resolved by one function for every
front end (:func:`atout.ui.rules.resolve_rules`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.errors import PackError
from atout.core.errors import UnknownNameError
from atout.ui import cli
from atout.ui.rules import resolve_rules

HEAVY = ("atout.ui.commands.bench", "atout.plugins.bots.duplicate", "arcade")
"""What parsing a play command must not import: the benchmark, the duplicate runner and
the window's library."""

PROBE = """
import json, sys
from atout.ui import cli
{action}
names = ("atout.ui.commands.play", *{heavy!r})
print(json.dumps({{name: name in sys.modules for name in names}}))
"""


def loaded_after(action: str) -> dict[str, bool]:
    """Run ``action`` in a fresh interpreter; which of the watched modules it imported."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(action=action, heavy=HEAVY)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, bool] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize(
    "action",
    [
        "cli.parse(['play', 'belote', '--text', '--seed', '3'])",
        "cli.parse([])",
        "cli.build_parser('play')",
        "import contextlib, io\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    cli.main(['play', '--help'])",
    ],
    ids=["parse-play", "bare-atout", "build-play", "play-help"],
)
def test_a_play_command_loads_neither_the_bench_nor_the_duplicate_runner(action: str) -> None:
    loaded = loaded_after(action)
    assert loaded["atout.ui.commands.play"], "the play command's own module is loaded"
    assert [name for name in HEAVY if loaded[name]] == []


def test_a_bench_command_loads_the_bench() -> None:
    loaded = loaded_after("cli.parse(['bench', '--quick'])")
    assert loaded["atout.ui.commands.bench"] and not loaded["atout.ui.commands.play"]


def test_every_command_of_the_table_has_arguments_and_a_runner() -> None:
    for name, command in cli.COMMANDS.items():
        module = command.load()
        assert callable(module.add_arguments) and callable(module.run), name
        assert module.__name__ == f"atout.ui.commands.{name}"


def test_the_top_level_help_lists_every_command_with_its_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for name, command in cli.COMMANDS.items():
        assert name in out and command.help[:40] in out


def test_a_command_s_help_shows_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["bench", "--help"])
    out = capsys.readouterr().out
    assert "--duplicate" in out and "--pack" in out and "--plugin" in out


def test_a_bare_atout_plays_and_an_unknown_command_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = cli.parse([])
    assert (args.command, args.game, args.text) == ("play", "decouverte", False)
    with pytest.raises(SystemExit) as exit_:
        cli.main(["deal"])
    assert exit_.value.code == 2
    assert "invalid choice: 'deal'" in capsys.readouterr().err


def test_the_command_is_the_first_argument_that_is_not_an_option() -> None:
    assert cli.command_name(["--plugin", "x.py", "play"]) is None  # a top-level option
    assert cli.command_name(["replay", "play"]) == "replay"
    assert cli.command_name(["-h"]) is None
    assert cli.command_name(["nothing"]) is None


# --- one function for the rules of a match ---------------------------------------------------


def test_a_pack_and_a_target_make_the_rules(engine: Engine) -> None:
    rules = resolve_rules(engine, "belote", "clockwise", 300)
    assert rules.pack == "clockwise" and rules.direction == "clockwise" and rules.target == 300
    assert resolve_rules(engine, "belote", "", None) == engine.default_rules("belote")
    assert resolve_rules(engine, "decouverte") == engine.default_rules("decouverte")


def test_without_a_game_the_pack_says_which(engine: Engine) -> None:
    rules = resolve_rules(engine, None, "decouverte-exoty")
    assert rules.game == "decouverte" and rules.pack == "decouverte-exoty"
    with pytest.raises(ValueError):
        resolve_rules(engine, None, None)


def test_a_bad_game_target_or_pack_is_refused_by_name(engine: Engine) -> None:
    with pytest.raises(UnknownNameError, match="chess"):
        resolve_rules(engine, "chess", "clockwise")
    with pytest.raises(UnknownNameError, match="'target' must be at least 1"):
        resolve_rules(engine, "belote", None, 0)
    with pytest.raises(PackError, match="for belote, not decouverte"):
        resolve_rules(engine, "decouverte", "clockwise")


def test_the_pack_s_warnings_reach_the_caller(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    folder = tmp_path / "atout" / "variants"
    folder.mkdir(parents=True)
    (folder / "official.yaml").write_text("game: belote\ndescription: mine\n", "utf-8")
    warnings: list[str] = []
    rules = resolve_rules(engine, "belote", "official", warn=warnings.append)
    assert rules.pack == "official"
    assert len(warnings) == 1 and str(folder / "official.yaml") in warnings[0]
    assert resolve_rules(engine, "belote", "official") == rules  # no warn: dropped


def test_the_readme_documents_every_command() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("## The command", 1)[1]
    missing = [name for name in cli.COMMANDS if f"| `atout {name}" not in table]
    assert missing == []
