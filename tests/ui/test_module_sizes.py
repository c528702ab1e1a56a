"""The front ends' modules stay small enough to read: none in ``ui/`` over 600 lines (a
module that grows past it is split by role, as the table, the start view, the rules'
text, the terminal game's save and a host's table order were)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MOST_LINES = 600
"""The most lines a module may have."""
MODULES = sorted((ROOT / "ui").rglob("*.py"))


def test_the_modules_are_found() -> None:
    """The list holds the window's, the terminal's and the network's modules (a test of
    the test)."""
    names = {path.relative_to(ROOT / "ui").as_posix() for path in MODULES}
    assert {"window/table.py", "savegame.py", "net/protocol.py", "rules_text.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(ROOT)} has {lines} lines: split it by role"
