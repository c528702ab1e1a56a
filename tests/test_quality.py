"""The house rules of the code base, checked on every run: layering, safe YAML, lint, types."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "core": "atout.core",
    "plugins": "atout.plugins",
    "ui": "atout.ui",
    "variants": "atout.variants",
}


def python_files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize(
    ("folder", "forbidden"),
    [("core", ("atout.plugins", "atout.ui")), ("plugins", ("atout.ui",))],
)
def test_dependencies_point_one_way(folder: str, forbidden: tuple[str, ...]) -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in python_files(folder)
        for name in imported_modules(path)
        if name.startswith(forbidden)
    ]
    assert offenders == []


def test_no_yaml_load_other_than_safe_load() -> None:
    unsafe = {"load", "load_all", "full_load", "unsafe_load", "full_load_all", "unsafe_load_all"}
    offenders = []
    for folder in ("core", "plugins", "ui", "tests", "examples"):
        for path in python_files(folder):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr in unsafe
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "yaml"
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: install the test extras (pip install -e '.[test]')")
    return found


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(
        [tool("ruff"), "check", "--no-cache", "core", "plugins", "ui", "tests", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_finds_nothing(tmp_path: Path) -> None:
    """mypy cannot follow the package-dir mapping, so it checks a tree of links that has
    the installed layout (atout/core -> core, ...)."""
    tree = tmp_path / "atout"
    tree.mkdir()
    for folder in PACKAGES:
        os.symlink(ROOT / folder, tree / folder)
    if (ROOT / "core" / "testing").is_dir():
        os.symlink(ROOT / "core" / "testing", tree / "testing")
    args = [tool("mypy"), "--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"]
    for package in ("atout.core", "atout.plugins", "atout.ui"):
        args += ["-p", package]
    result = subprocess.run(
        args,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --- bots read the rules in force, never a rule plugin's code ---------------------------------

BOTS = "atout.plugins.bots"
SEARCH = "atout.plugins.search"
REVIEW = "atout.plugins.review"
RULE_PLUGINS = tuple(
    f"atout.plugins.{name}" for name in ("belote", "decouverte", "family", "common", "tables")
)
"""The rule plugins: what the bots, the review and the front ends reach only through the
engine."""


def within(name: str, packages: tuple[str, ...]) -> bool:
    """Whether module ``name`` is one of ``packages`` or inside one."""
    return any(name == p or name.startswith(p + ".") for p in packages)


def absolute_imports(path: Path, package: str) -> set[str]:
    """Every module that ``path`` (a module of ``package``) imports, relative imports
    resolved: ``from ..tables import x`` in ``atout.plugins.bots`` is ``atout.plugins.tables``,
    and ``from .. import belote`` is ``atout.plugins.belote``.  Imports inside functions
    count as well."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def rule_plugin_imports(path: Path, package: str = BOTS) -> list[str]:
    """The imports of ``path`` from ``atout.plugins`` outside the bots' own package and
    the search library they stand on."""
    return sorted(
        name
        for name in absolute_imports(path, package)
        if (name == "atout.plugins" or name.startswith("atout.plugins."))
        and not within(name, (BOTS, SEARCH))
    )


def test_the_bots_import_no_rule_plugin(tmp_path: Path) -> None:
    """A bot reads the rules the engine compiled for the deal (``atout.core``), never a
    rule plugin's tables or classes: so a plugin's contract is played as a shipped one."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from ..tables import beats_table\nfrom .. import belote\nfrom ..search.rules import INF\n"
        "import atout.plugins.common\nfrom atout.core import Engine\n"
        "def f():\n    from atout.plugins.bots.basic import GreedyBot\n",
        encoding="utf-8",
    )
    assert rule_plugin_imports(sample) == [
        "atout.plugins",
        "atout.plugins.belote",
        "atout.plugins.common",
        "atout.plugins.tables",
        "atout.plugins.tables.beats_table",
    ]
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in python_files("plugins/bots")
        for name in rule_plugin_imports(path)
    ]
    assert offenders == []


# --- the rooms of the package tree: who may import whom --------------------------------------


def source_package(path: Path) -> str:
    """The package a source file belongs to (where its relative imports start):
    ``plugins/search/decouverte/known.py`` is in ``atout.plugins.search.decouverte``."""
    folder, *rest = path.relative_to(ROOT).parent.parts
    return ".".join((PACKAGES[folder], *rest))


def atout_imports(path: Path) -> set[str]:
    """The ``atout`` modules that ``path`` imports, relative imports resolved, imports in
    functions included."""
    return {n for n in absolute_imports(path, source_package(path)) if within(n, ("atout",))}


ROOMS: list[tuple[str, tuple[str, ...] | None, tuple[str, ...]]] = [
    # (folder, the only atout packages it may import (None: any), packages it may not)
    ("plugins/search", ("atout.core", SEARCH), ()),
    ("plugins/bots", ("atout.core", SEARCH, BOTS), ()),
    ("plugins/review", ("atout.core", SEARCH, BOTS, REVIEW), ()),
    ("core", None, ("atout.plugins", "atout.ui")),
    ("ui", None, RULE_PLUGINS),
]
"""The search library imports only the core; the bots and the review stand on it (the
review borrows the bots' experts' reading of a deal); the core imports neither plugins
nor front ends; the front ends never import a rule plugin (they ask the engine)."""


def room_offenders(
    folder: str, allowed: tuple[str, ...] | None, forbidden: tuple[str, ...]
) -> list[str]:
    """Every import of a module of ``folder`` that breaks its room's rule."""
    return [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in python_files(folder)
        for name in sorted(atout_imports(path))
        if (allowed is not None and not within(name, allowed)) or within(name, forbidden)
    ]


def test_the_room_rules_see_relative_imports(tmp_path: Path) -> None:
    """The check resolves relative imports and imports inside functions, so a module of
    the search library reaching for the bots or a rule plugin is caught however it is
    written."""
    folder = tmp_path / "plugins" / "search" / "decouverte"
    folder.mkdir(parents=True)
    sample = folder / "sample.py"
    sample.write_text(
        "from ..rules import INF\nfrom ...bots.basic import GreedyBot\n"
        "def f():\n    from ... import belote\n",
        encoding="utf-8",
    )
    assert sorted(absolute_imports(sample, "atout.plugins.search.decouverte")) == [
        "atout.plugins",
        "atout.plugins.belote",
        "atout.plugins.bots.basic",
        "atout.plugins.bots.basic.GreedyBot",
        "atout.plugins.search.rules",
        "atout.plugins.search.rules.INF",
    ]


@pytest.mark.parametrize(("folder", "allowed", "forbidden"), ROOMS, ids=[r[0] for r in ROOMS])
def test_each_room_imports_only_what_it_may(
    folder: str, allowed: tuple[str, ...] | None, forbidden: tuple[str, ...]
) -> None:
    assert python_files(folder), f"{folder} has no module"
    assert room_offenders(folder, allowed, forbidden) == []


@pytest.mark.parametrize("folder", ["plugins/bots", "plugins/review"])
def test_the_bots_and_the_review_stand_on_the_search_library(folder: str) -> None:
    """Neither carries a solver of its own: both import the search library."""
    assert any(
        within(name, (SEARCH,)) for path in python_files(folder) for name in atout_imports(path)
    )
