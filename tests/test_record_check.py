"""One check of a record for every command that reads it: ``replay``, ``replay --trace``
and ``review --deal N`` refuse a changed match record alike, with one line naming the
file and the key, and accept the untouched one alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core.records import match_to_record
from atout.ui.cli import main

COMMANDS = [
    ["replay"],
    ["replay", "--trace"],
    ["review", "--deal", "1", "--samples", "1"],
    ["review", "--deal", "2", "--samples", "1"],
]


def _record(engine: Engine, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    match = Match(engine, "decouverte", engine.default_rules("decouverte"), seed=11)
    for _ in range(2):
        deal = match.next_deal()
        while not deal.is_over:
            deal.apply(deal.legal_actions()[0])
        match.end_deal(deal)
    return tmp_path / "m.json", match_to_record(match)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str], path: Path) -> tuple[int, str]:
    code = main([argv[0], str(path), *argv[1:], "--disable-plugin", "sans_tout_atout"])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("key", "value"),
    [("game", "belote"), ("dealer", 0), ("pack", "other"), ("rules", {"target": 2000})],
)
def test_a_changed_deal_of_a_match_record_is_refused_alike_by_every_command(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: object
) -> None:
    path, record = _record(engine, tmp_path)
    if record["deals"][0].get(key) == value:
        value = 1
    record["deals"][0][key] = value
    path.write_text(json.dumps(record))
    for argv in COMMANDS:
        code, err = _run(capsys, argv, path)
        assert code == 1, (argv, err)
        assert err.startswith(f"atout: {path}: deal 1.{key}: "), (argv, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_untouched_record_is_read_by_every_command(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = _record(engine, tmp_path)
    path.write_text(json.dumps(record))
    for argv in COMMANDS:
        code, err = _run(capsys, argv, path)
        assert code == 0, (argv, err)
