"""The terminal game killed at random moments: its save is always whole and resumes.

``atout play --text`` runs as a process fed by a script (bids, then every card name in
turn until one is legal), and is killed with SIGKILL at a seeded random moment, again
and again; each time the next run continues the match (``--continue``), so the kills
land everywhere in a match: at its start, mid-deal, while a deal's end is written.
After every kill the save file resumes in this process, every record file is a whole
JSON record, and no temporary file outlives the next write into its folder.  SIGTERM and
SIGHUP save and end the process quietly, and the match continues from the save.  And
matches killed, their saves torn after each kill (the last action line cut short, or
its newline taken away), and continued, again and again, are all finished.
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
from atout.ui import terminal_save

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
    session = terminal_save.resume_terminal(installed_engine)
    assert session.match.deals
    session.detach()


MATCHES = 2
"""Matches played to their end through kills and tears (more, up to
:data:`MOST_MATCHES`, until each kind of tear was met twice)."""
MOST_MATCHES = 6
MOST_CYCLES = 40
"""The most runs one match may take (each killed, its save torn, and continued)."""
TEARS = ("cut", "newline", "cut", "whole", "newline")
"""How the save is torn after each kill, in turn: its last action line cut short, its
last newline taken away, or left whole."""


def _tear(save: Path, how: str, rng: random.Random) -> str:
    """Tear the save as a crash or a full disk would (``how``: see :data:`TEARS`); what
    was done (``whole`` when the save holds no action line to cut)."""
    text = save.read_bytes()
    lines = text.split(b"\n")
    if how == "cut" and len(lines) > 2 and len(lines[-2]) > 1:  # never the header
        save.write_bytes(text[: -1 - rng.randrange(1, len(lines[-2]))])
    elif how == "newline" and text.endswith(b"\n"):
        save.write_bytes(text[:-1])
    else:
        how = "whole"
    return how


def _playing(process: subprocess.Popen[bytes], save: Path, before: int | None) -> None:
    """Wait until the process plays: its save is written after it started (or it ended)."""
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if save.exists() and save.stat().st_mtime_ns != before:
            return
        time.sleep(0.01)


def test_matches_killed_torn_and_continued_again_and_again_are_all_finished(
    installed_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    rng = random.Random(1848)
    save = savegame.terminal_match_path()
    tears: dict[str, int] = {}
    kills = 0
    for number in range(MOST_MATCHES):
        if number >= MATCHES and tears.get("cut", 0) >= 2 and tears.get("newline", 0) >= 2:
            break  # enough matches, and each kind of tear met at least twice
        seed = 100 + number
        for cycle in range(MOST_CYCLES):
            args = [sys.executable, "-m", "atout.ui.cli", "play", "--text", "--bot", "random"]
            # a long match (to 3000): every run is killed before the match ends
            args += ["--continue"] if cycle else ["--seed", str(seed), "--target", "3000"]
            env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
            before = save.stat().st_mtime_ns if save.exists() else None
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env=env,
            )
            _feed(process)
            _playing(process, save, before)
            time.sleep(rng.uniform(0.0, 0.4))  # a seeded moment of the match
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)
            assert process.stderr is not None
            err = process.stderr.read().decode(errors="replace")
            assert "Traceback" not in err and "cannot be resumed" not in err, err
            if not save.exists():
                break  # the match is over: its save is removed (the kill came after)
            how = _tear(save, TEARS[kills % len(TEARS)], rng)
            kills += 1
            tears[how] = tears.get(how, 0) + 1
        else:
            pytest.fail(f"match {number} not finished in {MOST_CYCLES} runs")
        records = sorted(savegame.records_dir().glob(f"decouverte-{seed}*.json"))
        assert len(records) == 1, records
        assert load_json(records[0])["result"] is not None
    assert not list(save.parent.glob("terminal-match-*.jsonl"))  # nothing set aside
    finished = len(list(savegame.records_dir().glob("decouverte-*.json")))
    print(f"{finished} matches finished through {kills} kills: {tears}")
    assert tears.get("cut", 0) >= 2 and tears.get("newline", 0) >= 2, tears
