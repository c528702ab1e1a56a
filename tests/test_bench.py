"""``atout bench``: the smoke run prints every key, a duplicate run prints its match (under
a pack and a plugin too, in worker processes), a measure can be added to the table, and
bad options get one clear message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.plugins.bots.duplicate import run_pairs
from atout.ui.cli import COMMANDS
from atout.ui.cli import main
from atout.ui.commands import bench
from atout.ui.commands import bench_measures
from atout.ui.rules import resolve_rules

KEYS = (
    "belote_deals_per_s",
    "decouverte_deals_per_s",
    "decouverte_solve_ms_median",
    "decouverte_solve_ms_p95",
    "decouverte_expectimax_ms_median",
    "decouverte_expectimax_ms_p95",
    "belote_dd_solve_ms_median",
    "belote_dd_solve_ms_p95",
    "belote_dd_horizon_ms_median",
    "belote_dd_horizon_ms_p95",
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
    assert COMMANDS["bench"].load() is bench
    assert "duplicates" in COMMANDS["bench"].help


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
        assert len(windows) == bench_measures.WINDOWS and all(w > 0 for w in windows)
        assert data[key] == max(windows)
        assert min(windows) <= data[f"{key}_mean"] <= max(windows)
    games = {"belote", "decouverte", "coinche", "coinche-decouverte"}
    assert set(data["bot_decision_ms_p95"]) == games
    for game in games:
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


def test_bidding_only_option_plays_the_pairs_that_bid_differently(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In worker processes as in one: the same pairs played, the same mean."""
    argv = ["--duplicate", "greedy+random-bids,greedy", "--deals", "8", "--game", "belote"]
    results = [
        run_json(capsys, *argv, "--bidding-only", "--jobs", jobs)["duplicate"]["belote"][
            "greedy+random-bids-vs-greedy"
        ]
        for jobs in ("1", "2")
    ]
    for result in results:
        assert result["bidding_only"] is True
        assert 0 < result["deals_played"] < 8
    assert results[0]["mean"] == results[1]["mean"]
    assert results[0]["deals_played"] == results[1]["deals_played"]


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
    def fps(ctx: bench_measures.BenchContext) -> dict[str, Any]:
        return {"ui_fps": 60.0 if ctx.quick else 0.0}

    monkeypatch.setattr(bench, "MEASURES", [*bench.MEASURES, bench.Measure("ui", "UI", fps)])
    data = run_json(capsys, "--only", "ui", "--quick")
    assert data["ui_fps"] == 60.0


def test_the_window_figures_compare_the_bot_process_and_the_thread_and_time_the_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One quick run of the window's figures: frames while a bot thinks under the load
    the measure makes, with the bots in the process and on the thread, and the start to
    the first frame (a headless window is enough; the figures' values are not judged)."""
    data = run_json(capsys, "--only", "ui_bot_thinking,ui_first_frame", "--quick")
    for suffix in ("_bot_thinking", "_bot_thinking_thread", "_loaded"):
        for key in ("ui_fps", "ui_frame_p95_ms", "ui_frame_max_ms"):
            assert data[key + suffix] > 0, key + suffix
        assert data["ui_frame_p95_ms" + suffix] <= data["ui_frame_max_ms" + suffix]
    assert data["ui_bot_thinking_worker"] == "process"
    assert data["ui_bot_thinking_load"] >= 1
    assert set(data["ui_bot_answers_per_s"]) == {"process", "thread"}
    assert 0 < data["ui_first_frame_imports_s"] < data["ui_first_frame_s"]
    assert len(data["ui_first_frame_runs_s"]) == 1


def test_a_measure_may_be_named_by_module_and_function() -> None:
    m = bench.Measure("x", "x", "atout.ui.commands.bench_measures:measure_belote_deals")
    assert m.function() is bench_measures.measure_belote_deals


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--duplicate", "expert"], "two bot names"),
        (["--duplicate", "expert,nobody", "--deals", "1"], "unknown bot 'nobody'"),
        (["--only", "everything"], "unknown measure"),
        (["--jobs", "0"], "at least 1"),
        (["--bidding-only"], "give them with --duplicate A,B"),
        (["--duplicate", "expert,greedy", "--bidding-only", "--deals", "1"], "must play alike"),
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


# --- duplicate matches under a pack and a plugin -----------------------------------------------

FACTOR_PLUGIN = '''"""A house rule for the test: every deal's score multiplied by ``score_factor``."""

from dataclasses import replace

from atout.core import hookimpl
from atout.core.model import RuleOption


@hookimpl
def atout_rule_options(game):
    return [RuleOption("score_factor", "int", 1, "Multiply every deal's score.", minimum=1)]


@hookimpl(wrapper=True)
def atout_score_deal(game, rules, state):
    score = yield
    factor = rules.get("score_factor", 1)
    return replace(score, score=tuple(s * factor for s in score.score))
'''


def duplicate_entry(data: dict[str, Any], game: str, pair: str) -> dict[str, Any]:
    assert set(data["duplicate"]) == {game}, "only the pack's game is played"
    entry: dict[str, Any] = data["duplicate"][game][pair]
    return entry


def test_a_duplicate_match_plays_under_a_pack_and_a_plugin_in_every_worker(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The workers build their own engine: the plugin given by --plugin and the pack's
    values must reach them (a worker without the plugin could not even build the rules;
    one that ignored them would score the default game)."""
    plugin = tmp_path / "factor.py"
    plugin.write_text(FACTOR_PLUGIN, encoding="utf-8")
    pack = tmp_path / "tripled.yaml"
    pack.write_text(
        "game: decouverte\ndescription: every score tripled, to 3000\n"
        "extends: decouverte\nscore_factor: 3\ntarget: 3000\n",
        encoding="utf-8",
    )
    common = ["--duplicate", "greedy,random", "--deals", "4", "--jobs", "2"]
    default = duplicate_entry(
        run_json(capsys, *common, "--game", "decouverte", "--plugin", str(plugin)),
        "decouverte",
        "greedy-vs-random",
    )
    tripled = duplicate_entry(
        run_json(capsys, *common, "--pack", str(pack), "--plugin", str(plugin)),
        "decouverte",
        "greedy-vs-random",
    )
    assert (default["pack"], default["rules"]["score_factor"]) == ("", 1)
    assert tripled["pack"] == "tripled"
    assert (tripled["rules"]["score_factor"], tripled["rules"]["target"]) == (3, 3000)
    assert default["mean"] != 0
    assert tripled["mean"] == pytest.approx(3 * default["mean"], abs=0.03)
    assert (tripled["deals_won"], tripled["deals_lost"]) == (
        default["deals_won"],
        default["deals_lost"],
    )


def test_worker_processes_play_the_pack_s_rules(installed_engine: Engine, tmp_path: Path) -> None:
    pack = tmp_path / "rounded.yaml"
    pack.write_text(
        "game: belote\ndescription: rounded\nextends: official\nrounding: 10\n", encoding="utf-8"
    )
    rules = resolve_rules(installed_engine, "belote", str(pack))
    default = installed_engine.default_rules("belote")
    engine = installed_engine
    in_workers = run_pairs(engine, "belote", rules, "greedy", "random", 3, jobs=2)
    in_process = run_pairs(engine, "belote", rules, "greedy", "random", 3, jobs=1)
    unrounded = run_pairs(engine, "belote", default, "greedy", "random", 3, jobs=2)
    scores = [p.scores for p in in_workers]
    assert scores == [p.scores for p in in_process]
    assert all(s % 10 == 0 for pair in scores for play in pair for s in play)
    assert scores != [p.scores for p in unrounded]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--pack", "clockwise"], "a pack changes only the duplicate matches"),
        (["--duplicate", "greedy,random", "--pack", "nowhere"], "nowhere"),
        (
            ["--duplicate", "greedy,random", "--game", "decouverte", "--pack", "clockwise"],
            "for belote, not decouverte",
        ),
    ],
)
def test_a_pack_the_bench_cannot_use_gets_one_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["bench", *argv, "--json"]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
