"""``atout bench``: the smoke run prints every key, a duplicate run prints its match, a
measure can be added to the table, and bad options get one clear message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from atout.ui import bench
from atout.ui.cli import COMMANDS, main

KEYS = (
    "belote_deals_per_s",
    "decouverte_deals_per_s",
    "decouverte_solve_ms_median",
    "decouverte_solve_ms_p95",
    "decouverte_expectimax_ms_median",
    "decouverte_expectimax_ms_p95",
    "belote_dd_solve_ms_median",
    "belote_dd_solve_ms_p95",
    "bot_decision_ms_p95",
    "duplicate",
)
DUPLICATE_KEYS = {"mean", "ci95_low", "ci95_high", "deals_won", "matches_won"}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = main(["bench", *argv, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def test_bench_is_a_subcommand() -> None:
    assert COMMANDS["bench"] == "atout.ui.bench"
    assert bench.HELP


def test_quick_json_run_prints_every_key(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--quick", "--jobs", "1")
    for key in KEYS:
        assert key in data, key
    assert data["belote_deals_per_s"] > 0 and data["decouverte_deals_per_s"] > 0
    for key in (
        "belote_deals_per_s",
        "belote_deals_per_s_with_declarations",
        "decouverte_deals_per_s",
    ):
        windows = data[f"{key}_windows"]
        assert len(windows) == bench.WINDOWS and all(w > 0 for w in windows)
        assert data[key] == max(windows)
        assert min(windows) <= data[f"{key}_mean"] <= max(windows)
    assert set(data["bot_decision_ms_p95"]) == {"belote", "decouverte"}
    for game in ("belote", "decouverte"):
        matches = data["duplicate"][game]
        assert set(matches) == {"expert-vs-greedy", "greedy-vs-random"}
        for result in matches.values():
            assert set(result) >= DUPLICATE_KEYS
            assert result["ci95_low"] <= result["mean"] <= result["ci95_high"]


def test_duplicate_option_runs_only_that_match(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, "--duplicate", "greedy,random", "--deals", "3", "--game", "belote", "--jobs", "2"
    )
    assert set(data["duplicate"]) == {"belote"}
    result = data["duplicate"]["belote"]["greedy-vs-random"]
    assert result["deals"] == 3
    assert result["deals_won"] + result["deals_lost"] + result["deals_tied"] == 3
    assert "belote_deals_per_s" not in data


def test_a_readable_table_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "--only", "duplicate", "--duplicate", "greedy,greedy", "--deals", "2"])
    captured = capsys.readouterr()
    assert code == 0
    assert "duplicate belote greedy-vs-greedy" in captured.out
    assert "+0.0 points/deal" in captured.out
    assert "[" in captured.err  # the progress bar


def test_a_measure_added_to_the_table_is_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def fps(ctx: bench.BenchContext) -> dict[str, Any]:
        return {"ui_fps": 60.0 if ctx.quick else 0.0}

    monkeypatch.setattr(bench, "MEASURES", [*bench.MEASURES, bench.Measure("ui", "UI", fps)])
    data = run_json(capsys, "--only", "ui", "--quick")
    assert data["ui_fps"] == 60.0


def test_a_measure_may_be_named_by_module_and_function() -> None:
    m = bench.Measure("x", "x", "atout.ui.bench:measure_belote_deals")
    assert m.function() is bench.measure_belote_deals


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--duplicate", "expert"], "two bot names"),
        (["--duplicate", "expert,nobody", "--deals", "1"], "unknown bot 'nobody'"),
        (["--only", "everything"], "unknown measure"),
        (["--jobs", "0"], "at least 1"),
    ],
)
def test_bad_options_get_one_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code = main(["bench", *argv, "--json"])
    captured = capsys.readouterr()
    assert code == 1
    assert message in captured.err
    assert "Traceback" not in captured.err
