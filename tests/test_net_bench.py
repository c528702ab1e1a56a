"""The table server's bench figure: a smoke run through real sockets gives its keys."""

from __future__ import annotations

from atout.core import Engine
from atout.ui.commands import bench
from atout.ui.commands.bench_measures import BenchContext
from atout.ui.commands.serve import DEFAULT_WORKERS
from atout.ui.net.bench import measure_server


def test_the_server_figure_is_a_measure_of_the_bench() -> None:
    assert "server" in [m.name for m in bench.MEASURES]


def test_a_quick_server_run_plays_actions_through_sockets() -> None:
    data = measure_server(BenchContext(Engine(), quick=True))
    assert data["server_tables"] == 10 and data["server_clients"] == 30
    assert data["server_workers"] == DEFAULT_WORKERS  # the server's own default
    assert data["server_actions_per_s"] > 0
    assert 0 < data["server_action_median_ms"] <= data["server_action_p95_ms"]
    assert 0 < data["server_paced_median_ms"] <= data["server_paced_p95_ms"]
    assert data["server_paced_actions_per_s"] > 0


def test_the_server_figure_runs_the_workers_it_is_told() -> None:
    data = measure_server(BenchContext(Engine(), quick=True, server_workers=1))
    assert data["server_workers"] == 1 and data["server_actions_per_s"] > 0
