"""The window's figures in ``atout bench`` that say whether it stays smooth and opens fast.

* ``ui_fps_bot_thinking`` (:func:`bench_bot_thinking`): the Découverte table drawn while
  the expert thinks, on a machine made busy by the measure itself (one busy process per
  core, started before the frames and ended after them).  The same frames are measured
  with the bots in the bot process (what the window uses: ``ui_fps_bot_thinking``,
  ``ui_frame_p95_ms_bot_thinking``, ``ui_frame_max_ms_bot_thinking``), with the bots on
  a thread of the window's process (the same keys ending in ``_thread``), and with no bot
  thinking (``_loaded``: what the load alone costs).  It runs after ``ui_fps``, whose own
  ``_bot_thinking`` figures (a thread computing on an idle machine) it replaces.
  ``ui_bot_answers_per_s`` says how often the bot answered meanwhile, in each place.
* ``ui_first_frame_s`` (:func:`bench_first_frame`): from the launch of a fresh headless
  Python process to the first drawn start view (imports, the engine, the window, the
  start view, one frame as arcade's loop draws it); the median of a few launches, with
  ``ui_first_frame_imports_s``, the part spent importing.

Both run in fresh headless processes: the benchmark needs no display and leaves no
window behind.  Neither is a test: they print figures.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

BUSY = "while True: pass"


@contextlib.contextmanager
def busy_machine(processes: int | None = None) -> Iterator[int]:
    """Keep every core busy (one pure-Python loop per core, at normal priority) for the
    duration of the block; yields how many processes were started."""
    count = processes if processes is not None else os.cpu_count() or 1
    started = [
        subprocess.Popen([sys.executable, "-c", BUSY], stdin=subprocess.DEVNULL)
        for _ in range(count)
    ]
    try:
        time.sleep(0.3)  # let them reach the scheduler's steady state
        yield count
    finally:
        for p in started:
            p.kill()
        for p in started:
            p.wait()


def measure_bot_thinking(
    frames: int = 240, seed: int = 7, load: int | None = None
) -> dict[str, Any]:
    """Frames of a Découverte table while the expert thinks (its hint for the person, a
    one-second search, asked again as soon as it answers), under :func:`busy_machine`:
    with the bots in the bot process, then on the window's thread, then with no bot
    thinking.  Needs a window (headless is fine); see the module's docstring for the
    keys."""
    import arcade
    from atout.core import Engine
    from atout.ui.cards_text import HUMAN
    from atout.ui.savegame import Setup

    from .app import App
    from .app import _has_window
    from .app import frame_stats
    from .app import make_window
    from .app import timed_frame
    from .driver import match_driver
    from .worker import PROCESS
    from .worker import THREAD
    from .worker import BotWorker

    window = arcade.get_window() if _has_window() else make_window(visible=False)
    app = App(window, Engine(), speed=0.0, persist=False)
    out: dict[str, Any] = {}
    answers: dict[str, int] = {PROCESS: 0, THREAD: 0}
    seconds: dict[str, float] = {PROCESS: 0.0, THREAD: 0.0}
    try:
        setup = Setup(game="decouverte", bot="random", seed=seed)
        table = app.start_match(setup, app.engine.default_rules("decouverte"))
        driver = match_driver(table)
        session = driver.session
        driver.autoplay_to(trick=3)
        while True:  # on to where the person chooses: the table asks nothing itself
            session.play_bots()
            legal = session.view(HUMAN).legal_actions()
            if len(legal) > 1:
                break
            session.act(HUMAN, legal[0])
        driver.autoplay_to(trick=len(session.view(HUMAN).tricks))

        def run_frames(worker: BotWorker | None) -> list[float]:
            job = worker.ask(session, HUMAN, hint=True) if worker is not None else None
            times = []
            start = time.perf_counter()
            for _ in range(frames):
                if worker is not None and job is not None and job.done:
                    answers[worker.mode] = answers.get(worker.mode, 0) + 1
                    job = worker.ask(session, HUMAN, hint=True)
                times.append(timed_frame(window, table))
            if worker is not None:
                seconds[worker.mode] += time.perf_counter() - start
                worker.cancel_all()
                if job is not None:
                    job.wait(30)
            return times[5:] or times

        for mode, suffix in ((PROCESS, ""), (THREAD, "_thread")):
            app.worker.stop()
            worker = app.worker = BotWorker(app.engine, mode)
            first = worker.ask(session, HUMAN, hint=True)  # started and the bot made
            first.wait(120)
            if mode == PROCESS:
                out["ui_bot_thinking_worker"] = worker.fallback or worker.mode
            with busy_machine(load) as count:
                out["ui_bot_thinking_load"] = count
                out.update(frame_stats(run_frames(worker), f"_bot_thinking{suffix}"))
        with busy_machine(load):
            out.update(frame_stats(run_frames(None), "_loaded"))
        out["ui_bot_answers_per_s"] = {
            mode: round(answers[mode] / seconds[mode], 2) if seconds[mode] else 0.0
            for mode in answers
        }
        return out
    finally:
        app.leave_table()
        app.shutdown()


FIRST_FRAME = """\
import json, os, time
from atout.core import Engine
from atout.ui.window import app as window_app
imported = time.monotonic()
engine = Engine()
window = window_app.make_window(visible=False)
application = window_app.App(window, engine)
application.show_start()
(window.current_view or window).on_update(1 / 60)
(window.current_view or window).on_draw()
window.flip()
window.ctx.finish()
marks = {"imported": imported, "drawn": time.monotonic()}
print(json.dumps(marks), flush=True)
os._exit(0)
"""
"""The launched program: what ``atout play`` does up to its first frame, drawn as
arcade's loop draws one headless (an update, a draw, a flip)."""


def measure_first_frame(runs: int = 3, env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Launch :data:`FIRST_FRAME` ``runs`` times (headless, an empty data folder) and time
    each launch to its first drawn start view (``time.monotonic`` is one clock for every
    process).  ``env`` adds variables (to measure another build, say).

    The launches have a warm bytecode cache, as an installed program has: one launch not
    counted fills it, in a temporary folder (``PYTHONPYCACHEPREFIX``: nothing is written
    in the tree), whatever ``PYTHONDONTWRITEBYTECODE`` says here.
    """
    totals: list[float] = []
    imports: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        full = {**os.environ, "ARCADE_HEADLESS": "1", "XDG_DATA_HOME": tmp, **(env or {})}
        full.pop("PYTHONDONTWRITEBYTECODE", None)
        full["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
        for run in range(runs + 1):
            start = time.monotonic()
            out = subprocess.run(
                [sys.executable, "-c", FIRST_FRAME],
                env=full,
                capture_output=True,
                text=True,
                timeout=120,
            )
            if out.returncode != 0:
                last = (out.stderr.strip().splitlines() or ["no output"])[-1]
                raise RuntimeError(f"the window did not open: {last}")
            marks = json.loads(out.stdout.strip().splitlines()[-1])
            if run == 0:
                continue  # it filled the bytecode cache
            totals.append(marks["drawn"] - start)
            imports.append(marks["imported"] - start)
    return {
        "ui_first_frame_s": round(statistics.median(totals), 2),
        "ui_first_frame_imports_s": round(statistics.median(imports), 2),
        "ui_first_frame_runs_s": [round(t, 2) for t in totals],
    }


def _in_fresh_process(call: str) -> dict[str, Any]:
    """Run ``call`` (an expression of this module) in a fresh headless process and return
    the JSON it prints."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "ARCADE_HEADLESS": "1", "XDG_DATA_HOME": tmp}
        code = (
            f"import json; from atout.ui.window import measures; print(json.dumps(measures.{call}))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
        )
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(last)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def bench_bot_thinking(ctx: Any) -> dict[str, Any]:
    """The ``ui_bot_thinking`` measure of ``atout bench`` (``ctx`` is its
    ``BenchContext``); ``None`` with the reason where no window can be made."""
    frames = ctx.size(240, 30)
    try:
        return _in_fresh_process(f"measure_bot_thinking({int(frames)})")
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return {"ui_fps_bot_thinking": None, "ui_fps_bot_thinking_problem": str(exc)}


def bench_first_frame(ctx: Any) -> dict[str, Any]:
    """The ``ui_first_frame`` measure of ``atout bench``; ``None`` with the reason where
    no window can be made."""
    try:
        return measure_first_frame(ctx.size(3, 1))
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return {"ui_first_frame_s": None, "ui_first_frame_problem": str(exc)}
