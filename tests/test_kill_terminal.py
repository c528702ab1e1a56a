"""The terminal game killed at random moments: its save is always whole and resumes.

``atout play --text`` runs as a process fed by a script (bids, then every card name in
turn until one is legal), and is killed with SIGKILL at a seeded random moment, again
and again; each time the next run continues the match (``--continue``), so the kills
land everywhere in a match: at its start, mid-deal, while a deal's end is written.
After every kill the save file resumes in this process, every record file is a whole
JSON record, and no temporary file outlives the next write into its folder.  SIGTERM and
SIGHUP save and end the process quietly, and the match continues from the save.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.files import TEMP_PREFIX
from atout.core.files import TEMP_SUFFIX
from atout.core.files import write_atomic
from atout.core.records import load_json
from atout.ui import savegame

KILLS = 16
CARDS = [f"{r}{s}" for s in "CDHS" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
SCRIPT = ("take\n" + "\n".join(CARDS) + "\nC\nD\nH\nS\npass\n") * 400


def _start(data: Path, resume: bool, seed: int) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "atout.ui.cli", "play", "--text", "--bot", "random"]
    # a target out of reach: the match is always in progress when the signal comes
    args += ["--continue"] if resume else ["--seed", str(seed), "--target", "100000"]
    env = {**os.environ, "XDG_DATA_HOME": str(data), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )


def _feed(process: subprocess.Popen[bytes]) -> None:
    assert process.stdin is not None
    try:
        process.stdin.write(SCRIPT.encode())
        process.stdin.flush()
    except BrokenPipeError:  # the match ended before the script did
        pass


def _temps(folder: Path) -> list[Path]:
    return [
        p for p in folder.rglob(f"{TEMP_PREFIX}*") if p.name.endswith(TEMP_SUFFIX) and p.is_file()
    ]


def _check_files(engine: Engine) -> bool:
    """The save resumes (when there is one) and every record is whole; whether a save
    was there."""
    save = savegame.terminal_match_path()
    found = save.exists()
    if found:
        session = savegame.resume(engine, save)
        session.detach()
    for record in savegame.records_dir().glob("*.json"):
        load_json(record)  # a whole record: RecordError otherwise
    return found


def test_the_terminal_game_killed_at_random_moments_always_leaves_a_save_that_resumes(
    installed_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    rng = random.Random(2026)
    resumed = temps_seen = 0
    resume = False
    for kill in range(KILLS):
        process = _start(tmp_path, resume, seed=kill)
        _feed(process)
        time.sleep(rng.uniform(0.3, 1.5))
        process.kill()
        process.wait(timeout=30)
        temps_seen += len(_temps(tmp_path))
        try:
            resume = _check_files(installed_engine)
        except Exception as exc:
            pytest.fail(f"kill {kill}: the files do not load: {exc}")
        resumed += resume
    assert resumed >= KILLS // 2  # most kills hit a match in progress
    for folder in {p.parent for p in _temps(tmp_path)}:
        write_atomic(folder / "probe.json", "{}\n")  # the next write cleans what was left
    assert not _temps(tmp_path)
    print(f"{KILLS} kills, {resumed} saves resumed, {temps_seen} temporary files seen")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_save_the_match_and_end_quietly(
    installed_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    process = _start(tmp_path, resume=False, seed=7)
    _feed(process)
    time.sleep(2.0)
    process.send_signal(signum)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum
    assert b"Traceback" not in err
    records = sorted(savegame.records_dir().glob("decouverte-7*.json"))
    assert records and load_json(records[0])["format"] == "atout-match"
    session = savegame.resume_terminal(installed_engine)
    assert session.match.deals
    session.detach()
