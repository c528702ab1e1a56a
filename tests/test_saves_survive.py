"""Saves that survive a torn last line, a full disk and a second game in the same data
folder: each case resumes, or stops with one line naming the file, and the match saved
before it is never lost."""

from __future__ import annotations

import errno
import io
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.savefile import torn_tail
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.ui import savegame
from atout.ui.terminal_match import play_match

CARDS = [f"{r}{s}" for s in "CDHS" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def _people(engine: Engine, game: str, seed: int) -> Session:
    seats = engine.game(game).seats
    return Session(engine, game, players=[Player(PERSON, "")] * seats, seed=seed)


def _play(session: Session, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if session.needs_deal:
            session.next_deal()
        seat = session.to_act
        assert seat is not None
        session.act(seat, rng.choice(session.view(seat).legal_actions()))


def _saved_actions(session: Session) -> list[object]:
    return [a for d in session.match.deals for a in d.actions]


def test_a_torn_last_line_is_cut_away_before_the_next_action_so_the_save_resumes_again(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "save.jsonl"
    rng = random.Random(5)
    session = _people(engine, "belote", 5)
    session.attach(path)
    session.next_deal()
    _play(session, rng, 6)
    session.detach()
    text = path.read_text()
    path.write_text(text[: -len(text.splitlines()[-1]) // 2 - 1])  # the last append cut short
    assert torn_tail(path) is not None and "cut short" in str(torn_tail(path))
    first = Session.resume(engine, path)
    kept = _saved_actions(first)
    _play(first, rng, 3)  # appended after the fragment, before the fix
    after = _saved_actions(first)
    first.detach()
    second = Session.resume(engine, path)  # "line 8: not valid JSON" before the fix
    assert _saved_actions(second) == after
    assert len(after) == len(kept) + 3
    assert path.read_text().endswith("\n")
    assert torn_tail(path) is None
    second.detach()


def test_a_last_line_that_lost_only_its_newline_keeps_its_action(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "save.jsonl"
    rng = random.Random(8)
    session = _people(engine, "decouverte", 8)
    session.attach(path)
    session.next_deal()
    _play(session, rng, 4)
    whole = _saved_actions(session)
    session.detach()
    path.write_text(path.read_text()[:-1])
    assert torn_tail(path) is None  # nothing is lost
    first = Session.resume(engine, path)
    assert _saved_actions(first) == whole
    _play(first, rng, 2)
    after = _saved_actions(first)
    first.detach()
    second = Session.resume(engine, path)
    assert _saved_actions(second) == after
    second.detach()


def test_a_header_alone_without_its_newline_is_mended_before_the_first_action(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "save.jsonl"
    session = _people(engine, "decouverte", 2)
    session.attach(path)
    session.next_deal()
    session.detach()
    path.write_text(path.read_text().rstrip("\n"))
    first = Session.resume(engine, path)
    _play(first, random.Random(2), 2)
    after = _saved_actions(first)
    first.detach()
    assert _saved_actions(Session.resume(engine, path)) == after


def test_continuing_a_torn_terminal_save_says_what_was_lost_and_resumes_twice(
    engine: Engine,
) -> None:
    rules = engine.default_rules("decouverte")
    script = "take\n" + "\n".join(CARDS[:12]) + "\nquit\n"
    play_match(
        engine,
        "decouverte",
        rules,
        bot="random",
        seed=4,
        inp=io.StringIO(script),
        out=io.StringIO(),
    )
    path = savegame.terminal_match_path()
    lines = path.read_text().splitlines()
    assert len(lines) > 2
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:7])
    for run in range(2):
        out = io.StringIO()
        play_match(
            engine,
            "decouverte",
            rules,
            bot="random",
            inp=io.StringIO("\n".join(CARDS) + "\nquit\n"),
            out=out,
            resume=True,
        )
        told = "the last action saved is lost" in out.getvalue()
        assert told == (run == 0), out.getvalue()
    assert not list(path.parent.glob("terminal-match-unreadable-*"))


# --- a full disk -------------------------------------------------------------------------------

FULL_DISK = """
import errno, os, sys
real = os.write
count = 0
def write(fd, data):
    global count
    try:
        name = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        name = ""
    if name.endswith("terminal-match.jsonl"):
        count += 1
        if count == int(sys.argv[1]):  # half the line reaches the disk, then no more space
            return real(fd, bytes(data)[: len(data) // 2])
        if count > int(sys.argv[1]):
            raise OSError(int(sys.argv[2]), os.strerror(int(sys.argv[2])))
    return real(fd, data)
os.write = write
from atout.ui.cli import main
sys.exit(main(["play", "--text", "--bot", "random", "--seed", "6"]))
"""


def _run_full_disk(data: Path, fail_at: int, code: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    script = "take\n" + "\n".join(CARDS * 4) + "\nquit\n"
    return subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(fail_at), str(code)],
        input=script,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_a_full_disk_stops_the_game_with_one_line_naming_the_save_which_stays_whole(
    installed_engine: Engine, tmp_path: Path
) -> None:
    for code, fail_at in ((errno.ENOSPC, 3), (errno.EFBIG, 5)):
        data = tmp_path / str(code)
        done = _run_full_disk(data, fail_at, code)
        assert done.returncode == 1
        save = data / "atout" / "terminal-match.jsonl"
        problems = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(problems) == 1, done.stderr
        assert problems[0] == f"atout: {save}: {os.strerror(code)}"
        text = save.read_text()
        assert text.endswith("\n")  # the half line written was taken back
        assert len(text.splitlines()) == fail_at  # the header and every whole action
        Session.resume(installed_engine, save).detach()


def test_a_failed_append_names_the_file_and_leaves_no_fragment(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "save.jsonl"
    session = _people(engine, "decouverte", 3)
    session.attach(path)
    session.next_deal()
    _play(session, random.Random(3), 2)
    before = path.read_bytes()
    real = os.write
    calls = []

    def full(fd: int, data: bytes) -> int:
        calls.append(fd)
        if len(calls) == 1:
            return real(fd, bytes(data)[:5])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError) as info:
        session.act(session.to_act or 0, session.view(session.to_act or 0).legal_actions()[0])
    monkeypatch.undo()
    assert info.value.filename == str(path)
    assert path.read_bytes() == before
    session.detach()


# --- two games in one data folder ------------------------------------------------------------


def _terminal(data: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "atout.ui.cli", "play", "--text", "--bot", "random", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_a_second_terminal_game_in_the_same_data_folder_never_touches_the_first_ones_save(
    installed_engine: Engine, tmp_path: Path
) -> None:
    first = _terminal(tmp_path, "--seed", "1")
    save = tmp_path / "atout" / "terminal-match.jsonl"
    try:
        deadline = time.monotonic() + 60
        while not save.exists():
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        for args in (("--seed", "2"), ("--continue",)):
            second = _terminal(tmp_path, *args)
            out, err = second.communicate("take\n" + "\n".join(CARDS) + "\nquit\n", timeout=60)
            assert second.returncode == 1, (out, err)
            assert err.strip().splitlines() == [
                f"atout: {save}: another terminal game (process {first.pid}) is playing the "
                "match saved there; finish or quit it first (two games never share a save)"
            ]
            assert json.loads(save.read_text().splitlines()[0])["match"]["seed"] == 1
        assert [p.name for p in save.parent.glob("terminal-match*.jsonl")] == [save.name]
        assert not list(save.parent.glob("records/decouverte-2*"))
        out, err = first.communicate("take\n" + "\n".join(CARDS[:8]) + "\nquit\n", timeout=60)
        assert first.returncode == 0, err
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    resumed = Session.resume(installed_engine, save)
    assert resumed.match.seed == 1
    resumed.detach()
    # the claim ends with the game: a next game plays
    third = _terminal(tmp_path, "--continue")
    out, err = third.communicate("quit\n", timeout=60)
    assert third.returncode == 0, err
    assert json.loads(save.read_text().splitlines()[0])["match"]["seed"] == 1


# --- the record's name a save holds -----------------------------------------------------------


def _left_terminal_match(engine: Engine, seed: int) -> Path:
    """A terminal match of ``seed`` left after its first bid; its save's path."""
    play_match(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        bot="random",
        seed=seed,
        inp=io.StringIO("take\nquit\n"),
        out=io.StringIO(),
    )
    return savegame.terminal_match_path()


def _set_record_name(path: Path, name: str) -> None:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["meta"]["record"] = name
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")


def _continue(engine: Engine) -> str:
    out = io.StringIO()
    play_match(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        bot="random",
        inp=io.StringIO("quit\n"),
        out=out,
        resume=True,
    )
    return out.getvalue()


@pytest.mark.parametrize(
    "name",
    [
        "\x1b]0;retitled\x07.json",
        "x" * 300 + ".json",
        "../outside.json",
        ".hidden.json",
        "decouverte-4-\u202e.json",
    ],
)
def test_a_record_name_in_a_save_that_is_not_a_plain_name_of_this_match_is_ignored(
    engine: Engine, name: str
) -> None:
    save = _left_terminal_match(engine, 4)
    (claimed,) = savegame.records_dir().glob("*.json")
    _set_record_name(save, name)
    text = _continue(engine)
    assert "\x1b" not in text and "\u202e" not in text
    records = savegame.records_dir()
    assert sorted(p.name for p in records.glob("*.json")) == ["decouverte-4-2.json", claimed.name]
    assert f"saved in {records / 'decouverte-4-2.json'}" in text
    assert not (records.parent / "outside.json").exists()


def test_a_save_naming_another_matchs_record_never_overwrites_it(engine: Engine) -> None:
    _left_terminal_match(engine, 9)
    other = savegame.records_dir() / "decouverte-9.json"
    kept = other.read_bytes()
    savegame.terminal_match_path().unlink()
    for seed, name in ((4, "decouverte-9.json"), (9, "decouverte-9.json")):
        # another seed's record; then the same seed, another match (other actions)
        save = _left_terminal_match(engine, seed)
        if seed == 9:
            lines = save.read_text().splitlines()
            header = json.loads(lines[0])
            header["match"]["deals"][0]["actions"] = []
            save.write_text(json.dumps(header) + "\n" + '{"seat": 0, "bid": "pass"}\n')
        _set_record_name(save, name)
        _continue(engine)
        assert other.read_bytes() == kept
        save.unlink()


def test_the_record_a_save_names_is_written_again_when_it_is_this_matchs(engine: Engine) -> None:
    save = _left_terminal_match(engine, 6)
    (record,) = savegame.records_dir().glob("*.json")
    text = _continue(engine)
    assert f"saved in {record}" in text
    assert [p.name for p in savegame.records_dir().glob("*.json")] == [record.name]
    assert save.exists()


def test_a_finished_match_removes_its_own_save_and_never_another_games(engine: Engine) -> None:
    path = savegame.terminal_match_path()
    first = _people(engine, "decouverte", 21)
    savegame.follow(first, path, {})
    second = _people(engine, "decouverte", 22)
    savegame.follow(second, path, {})  # another game wrote its save there since
    savegame.finish(first)
    assert path.exists()
    assert json.loads(path.read_text().splitlines()[0])["match"]["seed"] == 22
    savegame.finish(second)
    assert not path.exists()


def test_a_record_that_cannot_be_written_names_its_file_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from atout.core.files import write_atomic
    from atout.core.files import write_new

    path = tmp_path / "m.json"
    path.write_text("{}\n")

    def full(fd: int) -> None:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError) as info:
        write_atomic(path, '{"new": 1}\n')
    assert info.value.filename == str(path)
    with pytest.raises(OSError) as info:
        write_new(tmp_path, "other", "{}\n")
    assert info.value.filename == str(tmp_path / "other.json")
    monkeypatch.undo()
    assert path.read_text() == "{}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]


def test_a_record_holding_an_action_its_torn_save_lost_is_kept_and_claimed_once(
    engine: Engine,
) -> None:
    """The record written at a quit holds the action the save then lost: continuing
    may play another action there, so that record is no longer this match's beginning.
    It is kept as it is, and one fresh record follows the match from then on."""
    save = _left_terminal_match(engine, 5)
    play_match(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        bot="random",
        inp=io.StringIO("\n".join(CARDS[:10]) + "\nquit\n"),
        out=io.StringIO(),
        resume=True,
    )
    first = savegame.records_dir() / "decouverte-5.json"
    kept = first.read_bytes()
    text = save.read_text()
    save.write_text(text[: -len(text.splitlines()[-1]) // 2 - 1])
    for _ in range(3):
        _continue(engine)
    names = sorted(p.name for p in savegame.records_dir().glob("*.json"))
    assert names in (["decouverte-5.json"], ["decouverte-5-2.json", "decouverte-5.json"])
    if len(names) == 2:
        assert first.read_bytes() == kept


def test_a_fresh_record_name_claimed_for_a_bad_one_is_kept_in_the_save(engine: Engine) -> None:
    save = _left_terminal_match(engine, 7)
    _set_record_name(save, "../elsewhere.json")
    for _ in range(3):
        _continue(engine)
    names = sorted(p.name for p in savegame.records_dir().glob("*.json"))
    assert names == ["decouverte-7-2.json", "decouverte-7.json"]
    assert json.loads(save.read_text().splitlines()[0])["meta"]["record"] == "decouverte-7-2.json"
