"""The wheel that ``pip install .`` builds holds every module and data file, so a
non-editable install works like the checkout, and nothing of the checkout's own set-up:
the bootstrap script of the README stays out of the installed package."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from wheel_check import WHEEL_ENV
from wheel_check import wheel_install_problems

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
    """The wheel of the checkout: in a run against the wheel, the one installed (which
    ``ATOUT_TEST_WHEEL`` names); otherwise the one the bootstrap script builds, from a
    copy of the checkout without ``build/`` and the like, once for this module."""
    installed = os.environ.get(WHEEL_ENV)
    if installed:
        return zipfile.ZipFile(installed)
    out = tmp_path_factory.mktemp("wheel")
    return zipfile.ZipFile(load_bootstrap().build_wheels(Path(sys.executable), out)[0])


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
        "atout = atout.ui.console:main",
        "belote = atout.plugins.belote",
        "decouverte = atout.plugins.decouverte",
        "bots = atout.plugins.bots",
    ):
        assert line in text


def test_the_wheel_ships_what_an_installed_atout_needs_and_nothing_of_the_checkout(
    wheel: zipfile.ZipFile,
) -> None:
    """The conformance kit plugin authors import (``atout.testing``), every shipped pack,
    the marker that tells type checkers atout has types, the ``atout`` command; not the
    set-up script, not a test."""
    names = set(wheel.namelist())
    for module in ("__init__.py", "kit.py", "pytest_plugin.py"):
        assert f"atout/testing/{module}" in names
    packs = {f"atout/variants/{p.name}" for p in (ROOT / "variants").glob("*.yaml")}
    assert len(packs) >= 20 and packs <= names
    assert "atout/core/py.typed" in names
    entry_points = wheel.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt")))
    scripts = entry_points.decode().split("[console_scripts]\n", 1)[1].split("\n[", 1)[0]
    assert scripts.split() == ["atout", "=", "atout.ui.console:main"]
    assert {n.split("/", 1)[0] for n in names} == {"atout", "atout-0.1.0.dist-info"}
    assert [n for n in names if "scripts/" in n or "bootstrap" in n] == []
    tests = [
        n for n in names if "/tests/" in n or n.rsplit("/", 1)[-1].startswith(("test_", "conftest"))
    ]
    assert tests == []


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


def test_the_test_command_runs_the_tests_it_is_given() -> None:
    """A path among the arguments (from the current folder) is what pytest runs; with
    none, pytest runs the tests and the example plugin's, an option's value included."""
    bootstrap = load_bootstrap()
    everything = ["-o", "testpaths=tests examples/atout-sans-tout-atout/tests"]
    assert bootstrap.pytest_args(["-x", "-k", "seed"], ROOT) == [*everything, "-x", "-k", "seed"]
    one = str(ROOT / "tests" / "test_limits.py")
    assert bootstrap.pytest_args(["test_limits.py::test_x"], ROOT / "tests") == [
        *everything,
        one + "::test_x",
    ]
    command = [
        sys.executable,
        "-P",
        "-m",
        "pytest",
        "--collect-only",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    result = subprocess.run(
        [*command, *bootstrap.pytest_args(["tests/test_limits.py"], ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    ids = [line for line in result.stdout.splitlines() if "::" in line]
    assert ids and all(i.startswith("tests/test_limits.py::") for i in ids)


def test_a_run_against_the_wheel_imports_atout_from_that_wheel_only(tmp_path: Path) -> None:
    """The check ``tests/conftest.py`` makes when ``ATOUT_TEST_WHEEL`` is set: it refuses
    another wheel; it accepts the installed one in a run against the wheel, and in the
    editable install it names the checkout's folders atout is imported from."""
    other = tmp_path / "atout-0.1.0-py3-none-any.whl"
    problems = wheel_install_problems(other)
    assert any(p.endswith(f"not from {other}") for p in problems)
    installed = os.environ.get(WHEEL_ENV)
    if installed:
        assert wheel_install_problems(Path(installed)) == []
    else:
        core = ROOT / "core" / "__init__.py"
        assert any(p.startswith(f"atout.core is imported from {core},") for p in problems)
