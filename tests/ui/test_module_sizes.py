"""The window's modules and the rules' text stay small enough to read: none over 600
lines (a module that grows past it is split by role, as the table, the start view and the
rules' text were)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MOST_LINES = 600
"""The most lines a module may have."""
MODULES = sorted([*(ROOT / "ui" / "window").glob("*.py"), *(ROOT / "ui").glob("rules*.py")])


def test_the_modules_are_found() -> None:
    """The list holds the window's modules and the rules' text (a test of the test)."""
    names = {path.name for path in MODULES}
    assert {"table.py", "start_view.py", "panels.py", "rules_text.py", "rules.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(ROOT)} has {lines} lines: split it by role"
