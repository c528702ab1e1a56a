"""The Arcade table killed at random moments: its save is always whole and resumes.

A headless window plays a match by itself in a process (the person's seat takes its
first legal action through the table, as a click would; the bots answer as usual), and
the process is killed with SIGKILL at a seeded random moment; each next run presses
Continue, so the kills land at every stage of a match.  After every kill every record
is a whole JSON record, and the save file resumes in this process -- or there is none
because the match had just ended: then its record, written before the save is removed,
says so (one more finished match than after the kill before).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.records import load_json
from atout.ui import savegame

KILLS = 4

PLAYER = """
import os, sys
os.environ["ARCADE_HEADLESS"] = "1"
from atout.core import Engine
from atout.ui import savegame
from atout.ui.savegame import Setup
from atout.ui.window.app import App, make_window
from atout.ui.window.table import Table

engine = Engine()
app = App(make_window(visible=False), engine, speed=0.05)
if savegame.has_saved_match():
    view = app.continue_match()
else:
    view = app.start_match(Setup(seed=int(sys.argv[1]), bot="random"),
                           engine.default_rules("decouverte"))
print("started", flush=True)
while True:
    table = app.window.current_view
    if not isinstance(table, Table):
        sys.exit(3)
    job = table.driver.job
    if job is not None and not job.done:
        job.wait(30)
    session = table.driver.session
    seat = session.to_act
    if table.stage == "play" and seat == 0 and not table.busy() and not session.is_bot(0):
        table.driver.apply(0, session.view(0).legal_actions()[0])
    elif table.stage in ("deal_over", "match_over"):
        table.driver.next_deal_key()
    table.on_update(0.5)
"""


def _window_available() -> str | None:
    try:
        import arcade  # noqa: F401
    except Exception as exc:  # no OpenGL libraries: the window tests cannot run here
        return f"no window: {exc}"
    return None


@pytest.mark.skipif(_window_available() is not None, reason="arcade cannot be imported")
def test_the_table_killed_at_random_moments_always_leaves_a_save_that_resumes(
    installed_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "ARCADE_HEADLESS": "1"}
    rng = random.Random(11)
    resumed = 0
    finished = 0  # match records with a result
    for kill in range(KILLS):
        process = subprocess.Popen(
            [sys.executable, "-c", PLAYER, str(kill + 1)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert process.stdout is not None
        started = process.stdout.readline()
        if not started:
            _, err = process.communicate(timeout=30)
            pytest.fail(f"run {kill}: the table did not start: {err.decode()[-800:]}")
        time.sleep(rng.uniform(0.1, 2.0))
        process.kill()
        process.wait(timeout=30)
        save = savegame.saved_match_path()
        if save.exists():
            try:
                _, session = savegame.resume_session(installed_engine)
            except Exception as exc:
                pytest.fail(f"kill {kill}: the save does not resume: {exc}")
            resumed += 1
            session.detach()
        records = [load_json(record) for record in savegame.records_dir().glob("*.json")]
        ended = sum(1 for record in records if "deals" in record and record["result"])
        if not save.exists():  # no match in progress: the one played has just ended
            assert ended > finished, f"kill {kill}: no save, and no match ended"
        finished = ended
    assert resumed >= 1  # the kills landed in a match at least once
