"""The wheel that ``pip install .`` builds holds every module and data file, so a
non-editable install works like the checkout, and nothing of the checkout's own set-up:
the bootstrap script of the README stays out of the installed package."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {
    "core": "atout/core",
    "plugins": "atout/plugins",
    "ui": "atout/ui",
    "variants": "atout/variants",
}
SCRIPTS = ROOT / "ui" / "scripts"
"""The checkout's scripts: no package, never installed."""
BOOTSTRAP = SCRIPTS / "bootstrap.py"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel ``pip wheel`` builds from a copy of the checkout (once for this module).

    The copy leaves out what a build or a run leaves behind (``build/``, ``*.egg-info``,
    caches, the virtual environment): setuptools reuses a ``build/`` folder, so a module
    deleted or moved since an earlier build would still be packed, as it is not from a
    clean clone."""
    source = tmp_path_factory.mktemp("source") / "atout"
    shutil.copytree(
        ROOT,
        source,
        symlinks=True,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", ".hypothesis", "build", "dist", "*.egg-info", "__pycache__", ".*_cache"
        ),
    )
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return zipfile.ZipFile(next(out.glob("atout-*.whl")))


def test_the_wheel_holds_every_module_pack_and_entry_point(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    expected = set()
    for folder, target in MAPPED.items():
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".yaml") or "__pycache__" in path.parts:
                continue
            if path.is_relative_to(SCRIPTS):
                continue
            rel = path.relative_to(ROOT / folder).as_posix()
            if folder == "core" and rel.startswith("testing/"):
                expected.add("atout/" + rel)
            else:
                expected.add(f"{target}/{rel}")
    missing = sorted(expected - names)
    assert missing == []
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = wheel.read(entry_points).decode()
    for line in (
        "atout = atout.ui.cli:main",
        "belote = atout.plugins.belote",
        "decouverte = atout.plugins.decouverte",
        "bots = atout.plugins.bots",
    ):
        assert line in text


def test_the_bootstrap_script_is_not_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    assert BOOTSTRAP.is_file()
    shipped = [n for n in wheel.namelist() if "bootstrap" in n or "/scripts/" in n]
    assert shipped == []
    assert not (SCRIPTS / "__init__.py").exists(), "ui/scripts must stay a plain folder"


def readme_commands() -> dict[str, str]:
    """The set-up commands of the README's first code block, by mode (play, test)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = {}
    for line in block.splitlines():
        command = line.split("#", 1)[0].strip()
        if command:
            commands[command.split()[-1]] = command
    return commands


def test_ci_runs_exactly_the_readme_s_test_command() -> None:
    commands = readme_commands()
    assert set(commands) == {"play", "test"}
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    steps = [
        line.strip()
        for line in ci.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert steps[-1] == commands["test"]
    assert [s for s in steps if s.startswith("python")] == [commands["test"]]
    for command in commands.values():
        script = re.search(r"\S+\.py", command)
        assert script is not None and (ROOT / script.group()).resolve() == BOOTSTRAP


def load_bootstrap() -> ModuleType:
    spec = importlib.util.spec_from_file_location("atout_bootstrap_under_test", BOOTSTRAP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bootstrap_script_finds_the_checkout_from_anywhere_inside_it(tmp_path: Path) -> None:
    bootstrap = load_bootstrap()
    assert bootstrap.ROOT == ROOT and bootstrap.VENV == ROOT / ".venv"
    assert bootstrap.find_root(ROOT / "ui" / "scripts" / "bootstrap.py") == ROOT
    assert bootstrap.find_root(ROOT / "examples" / "atout-sans-tout-atout" / "x.py") == ROOT
    with pytest.raises(SystemExit):
        bootstrap.find_root(tmp_path / "elsewhere.py")
