"""Duplicate pairs played on a Dask cluster (``atout bench --scheduler``): the same results
as local processes, a plugin loaded by every worker, a pair whose worker dies played again
or named, and one clear message for an address that is wrong or unreachable, or a missing
``cluster`` extra.  The clusters are ``distributed.LocalCluster``s of one or two workers
playing a few cheap pairs."""

from __future__ import annotations

import functools
import importlib.metadata
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import make_plugin_manager
from atout.plugins.bots import duplicate
from atout.plugins.bots.duplicate import Cluster
from atout.plugins.bots.duplicate import ClusterError
from atout.plugins.bots.duplicate import PairResult
from atout.plugins.bots.duplicate import parse_scheduler
from atout.plugins.bots.duplicate import run_pairs
from atout.ui.cli import main
from atout.ui.commands import bench
from distributed import LocalCluster

FRAGILE_PLUGIN = '''"""A bot for the test: plays as greedy, but its process dies at pair {doomed} (every
time) or at the first decision of pair {once} (once: the mark file is made first), and
needs a module nobody has at pair {missing}."""

import os

from atout.core import hookimpl
from atout.core.model import BotInfo
from atout.plugins.bots import make_greedy

MARK = {mark!r}


class Fragile:
    def __init__(self, bot, seed):
        self.bot = bot
        self.pair = seed // 8  # the pair's index when the run's seed is 0

    def choose(self, view):
        if self.pair == {missing}:
            import atout_nowhere  # noqa: F401
        if self.pair == {doomed}:
            os._exit(3)
        if self.pair == {once}:
            try:
                os.close(os.open(MARK, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os._exit(3)
        return self.bot.choose(view)


def make_fragile(game, rules=None, seed=0, think=0.0, engine=None):
    return Fragile(make_greedy(game=game, rules=rules, seed=seed, think=think, engine=engine), seed)


@hookimpl
def atout_bots():
    return [BotInfo("fragile", ("belote", "decouverte"), "greedy, whose process dies", make_fragile)]
'''


def fragile_plugin(tmp_path: Path, doomed: int = -1, once: int = -1, missing: int = -1) -> str:
    path = tmp_path / "fragile_bot.py"
    mark = str(tmp_path / "died-once")
    text = FRAGILE_PLUGIN.format(doomed=doomed, once=once, missing=missing, mark=mark)
    path.write_text(text, encoding="utf-8")
    return str(path)


def cluster(n_workers: int, processes: bool = True) -> LocalCluster:
    return LocalCluster(
        n_workers=n_workers,
        threads_per_worker=1,
        processes=processes,
        dashboard_address=":0",
        silence_logs=50,  # a worker that dies on purpose is not news
    )


@pytest.fixture(scope="module")
def two_workers() -> Iterator[LocalCluster]:
    with cluster(2) as lc:
        yield lc


def played(pairs: list[PairResult]) -> list[tuple[Any, ...]]:
    """What a pair's result is, its think times left out (they are the clock's)."""
    return [(p.index, p.scores, p.deal_scores) for p in pairs]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.parametrize("processes", [True, False], ids=["processes", "threads"])
def test_the_same_pairs_give_the_same_results_in_local_processes_and_on_a_cluster(
    installed_engine: Engine, two_workers: LocalCluster, processes: bool
) -> None:
    engine = installed_engine
    rules = engine.default_rules("belote")
    here = run_pairs(engine, "belote", rules, "greedy", "random", 5, seed=4, jobs=2)
    if processes:
        address = two_workers.scheduler_address
        done: list[int] = []
        there = run_pairs(
            engine,
            "belote",
            rules,
            "greedy",
            "random",
            5,
            seed=4,
            progress=done.append,
            cluster=Cluster(address),
        )
        assert done == [1, 2, 3, 4, 5]
    else:
        with cluster(2, processes=False) as lc:
            there = run_pairs(
                engine,
                "belote",
                rules,
                "greedy",
                "random",
                5,
                seed=4,
                cluster=Cluster(lc.scheduler_address),
            )
    assert played(there) == played(here)
    assert len({p.scores for p in there}) > 1, "five different deals"


def test_workers_load_the_caller_s_plugins(tmp_path: Path, two_workers: LocalCluster) -> None:
    plugin = fragile_plugin(tmp_path)
    engine = Engine(make_plugin_manager(plugins=[plugin]))
    rules = engine.default_rules("decouverte")
    there = run_pairs(
        engine,
        "decouverte",
        rules,
        "fragile",
        "random",
        3,
        plugins=[plugin],
        cluster=Cluster(two_workers.scheduler_address),
    )
    greedy = run_pairs(engine, "decouverte", rules, "greedy", "random", 3)
    assert played(there) == played(greedy)


def test_the_command_prints_the_same_match_from_a_cluster(
    capsys: pytest.CaptureFixture[str], two_workers: LocalCluster
) -> None:
    def run(*argv: str) -> dict[str, Any]:
        common = ["bench", "--duplicate", "greedy,random", "--deals", "4", "--game", "belote"]
        assert main([*common, *argv, "--json"]) == 0
        entry: dict[str, Any] = json.loads(capsys.readouterr().out)["duplicate"]["belote"][
            "greedy-vs-random"
        ]
        for key in ("seconds", "decision_ms_p95"):
            del entry[key]
        return entry

    assert run("--scheduler", two_workers.scheduler_address) == run("--jobs", "2")
    assert main(["bench", "--duplicate", "greedy,random", "--deals", "2", "--game", "belote",
                 "--scheduler", two_workers.scheduler_address]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "duplicate belote greedy-vs-random" in out and "over 2 pairs" in out


def test_a_pair_whose_worker_dies_is_played_again_on_a_cluster(
    installed_engine: Engine, tmp_path: Path
) -> None:
    plugin = fragile_plugin(tmp_path, once=1)
    engine = Engine(make_plugin_manager(plugins=[plugin]))
    rules = engine.default_rules("belote")
    with cluster(2) as lc:
        there = run_pairs(
            engine,
            "belote",
            rules,
            "fragile",
            "random",
            3,
            plugins=[plugin],
            cluster=Cluster(lc.scheduler_address),
        )
    assert (tmp_path / "died-once").exists(), "a worker died"
    assert played(there) == played(run_pairs(engine, "belote", rules, "greedy", "random", 3))


def test_a_pair_whose_worker_dies_is_played_again_in_local_processes(tmp_path: Path) -> None:
    plugin = fragile_plugin(tmp_path, once=2)
    engine = Engine(make_plugin_manager(plugins=[plugin]))
    rules = engine.default_rules("belote")
    here = run_pairs(engine, "belote", rules, "fragile", "random", 5, jobs=2, plugins=[plugin])
    assert (tmp_path / "died-once").exists(), "a worker died"
    assert played(here) == played(run_pairs(engine, "belote", rules, "greedy", "random", 5))


def test_a_pair_that_kills_every_local_worker_is_named(tmp_path: Path) -> None:
    plugin = fragile_plugin(tmp_path, doomed=1)
    engine = Engine(make_plugin_manager(plugins=[plugin]))
    rules = engine.default_rules("belote")
    with pytest.raises(ClusterError, match=r"^pair 1 was lost with the worker processes") as err:
        run_pairs(engine, "belote", rules, "fragile", "random", 4, jobs=2, plugins=[plugin])
    assert f"{duplicate.LOST_TRIES} time(s)" in str(err.value)


def test_a_pair_the_scheduler_gives_up_on_is_named(tmp_path: Path) -> None:
    plugin = fragile_plugin(tmp_path, doomed=0)
    engine = Engine(make_plugin_manager(plugins=[plugin]))
    rules = engine.default_rules("belote")
    with cluster(1) as lc:
        lc.scheduler.allowed_failures = 0  # give up at the first worker that dies
        with pytest.raises(ClusterError, match=r"^pair 0 was lost with the workers of tcp://"):
            run_pairs(
                engine,
                "belote",
                rules,
                "fragile",
                "random",
                2,
                plugins=[plugin],
                cluster=Cluster(lc.scheduler_address),
            )


def test_a_scheduler_that_stops_mid_run_is_one_clear_message(installed_engine: Engine) -> None:
    rules = installed_engine.default_rules("belote")
    lc = cluster(1, processes=False)

    def stop_at_two(done: int) -> None:
        if done == 2:
            lc.close()

    with pytest.raises(
        ClusterError, match=r"cancelled pair \d+ after \d+ of 40 pairs \(the scheduler"
    ):
        run_pairs(
            installed_engine,
            "belote",
            rules,
            "greedy",
            "random",
            40,
            progress=stop_at_two,
            cluster=Cluster(lc.scheduler_address),
        )


class _FailingExecutor(ThreadPoolExecutor):
    """An executor whose every future fails with the error Dask's executor raised once
    while its scheduler stopped (``TypeError: cannot unpack non-iterable PairResult``)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        def fail() -> None:
            raise TypeError("cannot unpack non-iterable PairResult object")

        return super().submit(fail)


@pytest.mark.parametrize("gone", [True, False])
def test_an_error_of_a_stopping_scheduler_is_the_cancelled_message(gone: bool) -> None:
    """Whatever a pair's future raises once the scheduler has stopped is the one clear
    message of a cancelled run; the same error while the scheduler runs is the pair's
    own, raised as it is."""
    job = duplicate.PairJob(
        "belote", {}, "", "greedy", "random", 0, 0, 0.0, False, (), (), atout="0"
    )

    @contextmanager
    def pools() -> Iterator[duplicate.Pool]:
        with _FailingExecutor(1) as executor:
            yield duplicate.Pool(executor, lambda: 1, (), lambda: gone)

    expected: type[Exception] = ClusterError if gone else TypeError
    with pytest.raises(expected, match="cancelled pair 0 after 0 of 1" if gone else "unpack"):
        duplicate.play_jobs(pools, [job])


@pytest.mark.parametrize("where", ["processes", "cluster"])
def test_a_module_a_worker_does_not_have_is_one_clear_message(
    tmp_path: Path, two_workers: LocalCluster, where: str
) -> None:
    plugin = fragile_plugin(tmp_path, missing=1)
    engine = Engine(make_plugin_manager(plugins=[plugin]))
    rules = engine.default_rules("belote")
    place = Cluster(two_workers.scheduler_address) if where == "cluster" else None
    with pytest.raises(ClusterError) as err:
        run_pairs(
            engine,
            "belote",
            rules,
            "fragile",
            "random",
            3,
            jobs=2,
            plugins=[plugin],
            cluster=place,
        )
    assert "cannot load what pair 1 needs: No module named 'atout_nowhere'; install atout" in str(
        err.value
    )


def test_an_unreachable_scheduler_is_one_clear_message(installed_engine: Engine) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    rules = installed_engine.default_rules("belote")
    with pytest.raises(ClusterError) as err:
        run_pairs(
            installed_engine,
            "belote",
            rules,
            "greedy",
            "random",
            2,
            cluster=Cluster(address, timeout=0.3),
        )
    message = str(err.value)
    assert message.startswith(f"scheduler {address}: no Dask scheduler answered within 0.3 s")
    assert "`dask scheduler`" in message and "[tcp://|tls://]HOST[:PORT]" in message
    assert "\n" not in message


def test_the_command_says_when_the_scheduler_does_not_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "Cluster", functools.partial(Cluster, timeout=0.3))
    port = free_port()
    argv = [
        "bench",
        "--duplicate",
        "greedy,random",
        "--deals",
        "2",
        "--scheduler",
        f"127.0.0.1:{port}",
    ]
    assert main(argv) == 1
    err = capsys.readouterr().err
    shown = err.rsplit("\r", 1)[-1]  # what stays on a terminal: the progress bar is erased
    assert shown.startswith(f"atout: scheduler tcp://127.0.0.1:{port}: no Dask scheduler answered")
    assert shown.count("\n") == 1 and shown.endswith("\n") and "Traceback" not in err


def test_a_scheduler_without_workers_is_one_clear_message(installed_engine: Engine) -> None:
    rules = installed_engine.default_rules("belote")
    with cluster(0, processes=False) as lc:
        address = lc.scheduler_address
        with pytest.raises(ClusterError, match=r"no worker joined it within 0.2 s") as err:
            run_pairs(
                installed_engine,
                "belote",
                rules,
                "greedy",
                "random",
                2,
                cluster=Cluster(address, worker_wait=0.2),
            )
    assert f"`dask worker {address}`" in str(err.value)


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("192.168.1.5", "tcp://192.168.1.5:8786"),
        ("tls://scheduler.lan:9000", "tls://scheduler.lan:9000"),
        ("[::1]", "tcp://[::1]:8786"),
    ],
)
def test_a_scheduler_s_address_is_written_out(text: str, address: str) -> None:
    assert parse_scheduler(text) == address


@pytest.mark.parametrize("text", ["udp://host:8786", "host:0", "host:99999", "::1", "a host", ""])
def test_a_wrong_scheduler_address_is_refused_with_what_is_allowed(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--duplicate", "greedy,random", "--scheduler", text])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --scheduler" in err and "[tcp://|tls://]HOST[:PORT]" in err


def test_the_scheduler_needs_a_duplicate_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "belote_deals", "--scheduler", "127.0.0.1"]) == 1
    assert "a cluster plays only the duplicate matches" in capsys.readouterr().err


def test_without_the_extra_a_cluster_says_how_to_install_it_and_local_runs_work(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    common = ["bench", "--duplicate", "greedy,random", "--deals", "2", "--game", "belote"]
    assert main([*common, "--scheduler", "127.0.0.1"]) == 1
    assert "pip install atout[cluster]" in capsys.readouterr().err
    for jobs in ("1", "2"):
        assert main([*common, "--jobs", jobs, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["duplicate"]["belote"]["greedy-vs-random"]


class Workers:
    """A client of a cluster whose workers answer ``run(version, "atout")`` as given
    (``nthreads``: one thread each)."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.asked: list[list[str]] = []

    def nthreads(self) -> dict[str, int]:
        return dict.fromkeys(self.answers, 1)

    def run(
        self, function: Any, *args: Any, workers: list[str] | None = None, on_error: str = "raise"
    ) -> dict[str, Any]:
        assert args == ("atout",) and on_error == "return"
        asked = sorted(self.answers) if workers is None else workers
        self.asked.append(asked)
        return {w: self.answers[w] for w in asked}


@pytest.mark.parametrize(
    ("answer", "what"),
    [("0.0.1", "has atout 0.0.1"), (ModuleNotFoundError("atout"), "has no atout")],
)
def test_a_worker_with_another_atout_is_named(answer: Any, what: str) -> None:
    here = importlib.metadata.version("atout")
    duplicate._check_versions(Workers({"tcp://a:1": here}), "tcp://s:8786")
    with pytest.raises(ClusterError) as err:
        duplicate._check_versions(Workers({"tcp://a:1": here, "tcp://b:2": answer}), "tcp://s:8786")
    assert str(err.value) == (
        f"scheduler tcp://s:8786: worker tcp://b:2 {what}, this machine atout {here}; "
        f"install atout {here} on every worker's machine"
    )


def test_a_worker_that_joins_during_the_run_is_counted_and_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here = importlib.metadata.version("atout")
    client = Workers({"tcp://a:1": here})
    watch = duplicate.WorkerWatch(client, "tcp://s:8786")
    assert watch.threads() == 1
    monkeypatch.setattr(duplicate, "WORKERS_LOOKED_UP", -1.0)  # look at every call
    client.answers["tcp://b:2"] = here
    assert watch.threads() == 2
    assert client.asked == [["tcp://a:1"], ["tcp://b:2"]], "each worker checked once"
    client.answers["tcp://c:3"] = ModuleNotFoundError("atout")
    with pytest.raises(ClusterError, match=r"worker tcp://c:3 has no atout"):
        watch.threads()


def test_a_worker_of_another_atout_refuses_a_pair(two_workers: LocalCluster) -> None:
    job = duplicate.PairJob(
        "belote", {}, "", "greedy", "random", 0, 0, 0.0, False, (), (), atout="0.0.1"
    )
    here = importlib.metadata.version("atout")
    with pytest.raises(ClusterError, match=rf"has atout {here}, this run atout 0\.0\.1; install"):
        duplicate.play_jobs(
            lambda: duplicate._cluster_executor(Cluster(two_workers.scheduler_address)), [job]
        )


def test_a_local_duplicate_match_imports_no_dask() -> None:
    code = (
        "import sys\n"
        "from atout.ui.cli import main\n"
        "argv = ['bench', '--duplicate', 'greedy,random', '--deals', '2', '--game', 'belote']\n"
        "assert main([*argv, '--jobs', '2', '--json']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
