"""Each class of bad input from the hardening issue, answered as the contract says: one
line naming the file (and the key or action), exit code 1, no traceback, nothing written
and nothing deleted; a real plugin failure still blamed on the plugin; saves never lost.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core import files
from atout.core import hookimpl
from atout.core import make_plugin_manager
from atout.core.errors import AtoutError
from atout.core.errors import PluginError
from atout.core.errors import RecordError
from atout.core.files import clean_stale_temps
from atout.core.files import write_atomic
from atout.core.packs import check_file
from atout.core.packs import list_packs
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.records import match_to_record
from atout.core.savefile import SaveFile
from atout.ui import savegame
from atout.ui import terminal_save
from atout.ui.cli import main
from atout.ui.savegame import SaveError
from atout.ui.savegame import Setup
from helpers import third_party_plugins

ATOUT = [sys.executable, "-m", "atout.ui.cli"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str, path: object, *parts: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"atout: {path}"), lines[0]
    for part in parts:
        assert part in lines[0], lines[0]
    assert "Traceback" not in err and "plugin" not in lines[0], lines[0]
    return lines[0]


def played(engine: Engine, game: str, **rules: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record of a played deal of ``game``, and of its match."""
    match = Match(engine, game, engine.make_rules(game, rules), seed=4)
    deal = match.next_deal()
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    match.end_deal(deal)
    return json.loads(json.dumps(deal_to_record(deal))), json.loads(
        json.dumps(match_to_record(match))
    )


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


# --- records --------------------------------------------------------------------------------


def test_a_deeply_nested_record_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    one_line(err, path, "nested more than 32 deep")


def test_a_five_thousand_digit_integer_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path / "big.json", '{"format": "atout-deal", "dealer": ' + "9" * 5000 + "}")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    one_line(err, path, "an integer of 5000 digits")


def test_trace_of_a_match_whose_deals_hold_a_non_object(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: Engine
) -> None:
    _, match = played(engine, "decouverte")
    match["deals"] = [7, "x"]
    path = write(tmp_path / "m.json", match)
    code, _, err = run(capsys, "replay", "--trace", str(path))
    assert code == 1
    one_line(err, path, "deal 1: expected a deal record (a JSON object), not a number")


def test_a_missing_turnup_names_the_file_and_the_key_not_a_plugin(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: Engine
) -> None:
    deal, _ = played(engine, "belote")
    del deal["layout"]["turnup"]
    path = write(tmp_path / "d.json", deal)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    one_line(err, path, "layout: turnup: the turn-up is the stock's first card")


def test_a_decouverte_proposal_must_be_the_dealers_last_face_up_card(engine: Engine) -> None:
    deal, _ = played(engine, "decouverte")
    dealer = deal["dealer"]
    last = deal["layout"]["piles"][dealer][7]["up"]
    assert deal["layout"]["turnup"] == last
    deal_from_record(engine, deal, "d.json")  # as dealt: accepted
    other = deal["layout"]["piles"][dealer][0]["up"]
    deal["layout"]["turnup"] = other
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, deal, "d.json")
    message = str(info.value)
    assert message == (
        f"d.json: layout: turnup: the proposed card is the dealer's last face-up card, "
        f"{last}, not {other}"
    )


@pytest.mark.parametrize(
    ("carry_in", "expected"),
    [
        ("1000000000000", 'carry_in: expected {"held": [...]}'),
        ("NaN", "NaN is not a number JSON allows"),
        ("1e400", "the number 1e400 is too large"),
        ("1e308", 'carry_in: expected {"held": [...]}'),
        ('"x"', 'carry_in: expected {"held": [...]}'),
        ('{"held": [{"kind": "litige", "takers": 0, "points": 1e308}]}', "held[0].points"),
        ('{"held": [{"kind": "abeyance", "takers": 2, "points": [1, 2]}]}', "held[0].takers"),
    ],
)
def test_a_carry_in_is_checked_before_it_is_scored(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    engine: Engine,
    carry_in: str,
    expected: str,
) -> None:
    deal, _ = played(engine, "belote")
    text = json.dumps(deal)[:-1] + f', "carry_in": {carry_in}}}'
    path = write(tmp_path / "c.json", text)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    one_line(err, path, expected)


def test_a_litige_carried_in_is_scored(engine: Engine) -> None:
    deal, _ = played(engine, "belote", tie="litige")
    deal["carry_in"] = {"held": [{"kind": "litige", "takers": 1, "points": 81}]}
    replayed = deal_from_record(engine, deal, "d.json")
    assert replayed.score is not None and sum(replayed.score.score) > 162


def test_decouverte_holds_no_points_over(engine: Engine) -> None:
    deal, _ = played(engine, "decouverte")
    deal["carry_in"] = {"held": []}
    with pytest.raises(RecordError, match=r"d\.json: carry_in: Belote Découverte holds no points"):
        deal_from_record(engine, deal, "d.json")


def test_a_real_plugin_failure_in_a_check_is_still_the_plugins(engine: Engine) -> None:
    class Broken:
        @hookimpl
        def atout_check_layout(
            self, game: str, rules: Any, layout: Any, dealer: int, bidding: bool
        ) -> None:
            raise ZeroDivisionError("oops")

    own = Engine(make_plugin_manager(disable=third_party_plugins()))  # its own: not shared
    own.pm.register(Broken(), name="broken-check")
    deal, _ = played(own, "belote")
    with pytest.raises(
        PluginError, match="plugin 'broken-check' failed in hook atout_check_layout"
    ):
        deal_from_record(own, deal, "d.json")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_without_reading(
    capsys: pytest.CaptureFixture[str], device: str
) -> None:
    code, _, err = run(capsys, "replay", device)
    assert code == 1
    one_line(err, device, "not a regular file")


def test_a_fifo_record_or_pack_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    pack = tmp_path / "fifo.yaml"
    os.mkfifo(pack)
    for argv in (
        ["replay", str(fifo)],
        ["variants", "check", str(pack)],
        ["play", "--text", "--pack", str(pack)],
    ):
        done = subprocess.run(
            [*ATOUT, *argv], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
        )
        assert done.returncode == 1, done.stderr
        assert "not a regular file" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr


def test_an_escape_sequence_in_a_bid_is_printed_escaped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: Engine
) -> None:
    deal, _ = played(engine, "belote")
    deal["actions"][0]["bid"] = "\x1b[31mred\x1b]0;title\x07"
    path = write(tmp_path / "b.json", deal)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    line = one_line(err, path, "action 1:", "\\x1b[31mred\\x1b]0;title\\x07")
    assert "\x1b" not in line and "\x07" not in line


# --- packs ------------------------------------------------------------------------------------

HEAD = "game: belote\ndescription: d\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HEAD + "target: " + "9" * 5000 + "\n", "line 3: a value of 5000 characters"),
        (HEAD + "target: " + "9" * 40 + "\n", "line 3: target: a number of 40 digits"),
        (HEAD + "target: " + "[" * 1000 + "]" * 1000 + "\n", "line 3: nested more than 8 deep"),
        (HEAD + "target: =\n", "line 3: target: '=' is not a value a pack can hold"),
        (HEAD + "target: <<\n", "line 3: target: '<<' is not a value a pack can hold"),
        (HEAD + "capot_bonus: 2024-02-30\n", "line 3: capot_bonus: '2024-02-30' is not a value"),
        ('game: belote\ndescription: "\\ud800"\n', "line 2: description: holds a lone surrogate"),
        (
            'game: belote\ndescription: "\\e[31m"\n',
            "line 2: description: holds a control character",
        ),
    ],
)
def test_bad_pack_values_are_one_line(
    engine: Engine, tmp_path: Path, text: str, expected: str
) -> None:
    path = write(tmp_path / "p.yaml", text)
    problems = check_file(engine, path)
    assert problems and problems[0].startswith(f"{path}: {expected}"), problems


def test_a_description_that_yaml_reads_as_a_date_is_its_text(
    engine: Engine, tmp_path: Path
) -> None:
    path = write(tmp_path / "p.yaml", "game: belote\ndescription: 2024-02-30\n")
    assert check_file(engine, path) == []


def test_five_thousand_nested_brackets_are_refused_at_once(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path / "p.yaml", HEAD + "target: " + "[" * 5000 + "\n")
    started = time.perf_counter()
    problems = check_file(engine, path)
    assert time.perf_counter() - started < 2.0
    assert "nested more than 8 deep" in problems[0]


def test_bad_user_packs_are_listed_as_broken_and_the_rest_stays_usable(
    engine: Engine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    folder = tmp_path / "atout" / "variants"
    folder.mkdir(parents=True)
    write(folder / "date.yaml", "game: belote\ndescription: 2024-02-30\n")
    write(folder / "surrogate.yaml", 'game: belote\ndescription: "\\ud800"\n')
    write(folder / "merge.yaml", HEAD + "target: <<\n")
    os.mkfifo(folder / "fifo.yaml")
    (folder / "folder.yaml").mkdir()
    packs = {p.name: p for p in list_packs(engine)}
    assert packs["date"].usable and packs["date"].description == "2024-02-30"
    for name in ("surrogate", "merge", "fifo", "folder"):
        assert packs[name].problem.startswith(str(folder / name)), packs[name]
    assert all(p.usable for p in packs.values() if p.origin == "shipped")
    code, out, _ = run(capsys, "variants", "list")
    assert code == 0 and "surrogate (cannot be used)" in out and "\ud800" not in out


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plugins", "expected"),
    [
        (["atout.plugins.belote"], "the plugin 'belote' is already loaded"),
        (["json", "json"], "the plugin 'json' is already loaded"),
        (["x" * 5000], "not a module name nor a path"),
        (["/dev/zero"], "not a Python file"),
    ],
)
def test_bad_plugin_arguments_are_one_line(
    capsys: pytest.CaptureFixture[str], plugins: list[str], expected: str
) -> None:
    argv = ["plugins"]
    for p in plugins:
        argv += ["--plugin", p]
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 1 and len(err.splitlines()) == 1 and expected in err, err


def test_a_broken_pipe_ends_quietly(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [*ATOUT, "variants", "options", "belote"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 141 and err == b""


def test_repeated_interrupts_end_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    process = subprocess.Popen(
        [*ATOUT, "play", "--text", "--seed", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        # A suite started in the background inherits SIGINT ignored, and Python then
        # installs no handler: reset it so the test judges the CLI, not its caller.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(2.0)
    for _ in range(4):
        process.send_signal(signal.SIGINT)
        time.sleep(0.05)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


# --- saves ---------------------------------------------------------------------------------------


def a_saved_match(engine: Engine) -> Path:
    session = savegame.start_session(engine, Setup(seed=8), engine.default_rules("decouverte"))
    session.next_deal()
    session.detach()
    return savegame.saved_match_path()


@pytest.mark.parametrize(
    "change",
    ["newer", "bot", "deep"],
)
def test_an_unloadable_save_is_refused_and_moved_aside_whole(engine: Engine, change: str) -> None:
    path = a_saved_match(engine)
    lines = path.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    if change == "newer":
        header["version"] = 2
    elif change == "bot":
        header["players"][1]["bot"] = "uninstalled"
    else:
        header["meta"] = {
            "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
        }
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines), encoding="utf-8")
    saved = path.read_bytes()
    with pytest.raises(AtoutError) as info:
        savegame.resume_session(engine)
    assert str(info.value).startswith(str(path)) and "\n" not in str(info.value)
    assert path.read_bytes() == saved  # nothing written
    kept = savegame.set_aside()
    assert kept is not None and kept.read_bytes() == saved and not path.exists()


def test_a_folder_where_the_save_goes_stops_a_new_match_in_one_line(engine: Engine) -> None:
    path = savegame.saved_match_path()
    path.mkdir(parents=True)
    (path / "mine.txt").write_text("kept")
    with pytest.raises(SaveError, match="is a folder"):
        savegame.start_session(engine, Setup(seed=1), engine.default_rules("decouverte"))
    assert (path / "mine.txt").read_text() == "kept"


def test_a_data_folder_that_is_a_file_stops_a_new_match_in_one_line(engine: Engine) -> None:
    data = savegame.saved_match_path().parent
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("not a folder")
    with pytest.raises(SaveError, match="a file is in the way"):
        savegame.start_session(engine, Setup(seed=1), engine.default_rules("decouverte"))
    assert data.read_text() == "not a folder"


def test_a_save_that_cannot_be_followed_again_is_one_line(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = savegame.start_session(engine, Setup(seed=8), engine.default_rules("decouverte"))
    session.next_deal()
    session.play_bots()
    seat = session.to_act
    assert seat is not None
    session.act(seat, session.view(seat).legal_actions()[0])  # an action line to follow
    session.detach()
    path = savegame.saved_match_path()

    def read_only(self: SaveFile) -> None:
        raise PermissionError(13, "Permission denied", str(self.path))

    monkeypatch.setattr(SaveFile, "reopen", read_only)
    with pytest.raises(SaveError, match="Permission denied"):
        savegame.resume_session(engine)
    assert path.exists()


def test_a_seed_played_again_gets_a_record_of_its_own(engine: Engine) -> None:
    first = savegame.start_session(engine, Setup(seed=5), engine.default_rules("decouverte"))
    second = savegame.start_session(engine, Setup(seed=5), engine.default_rules("decouverte"))
    a, b = savegame.record_path(first), savegame.record_path(second)
    assert a.name == "decouverte-5.json" and b.name == "decouverte-5-2.json"
    before = a.read_bytes()
    terminal_save.end_terminal(second)
    assert a.read_bytes() == before
    first.detach()


def test_stale_temporary_files_are_cleaned_and_live_ones_kept(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".atout-{dead.pid}-abc.tmp"
    live = tmp_path / f".atout-{os.getpid()}-abc.tmp"
    old = tmp_path / ".atout-oldstyle.tmp"
    other = tmp_path / "notes.tmp"
    for p in (stale, live, old, other):
        p.write_text("x")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    write_atomic(tmp_path / "save.json", "{}\n")
    assert not stale.exists() and not old.exists()
    assert live.exists() and other.exists()
    assert clean_stale_temps(tmp_path) == []


def test_a_folder_is_looked_through_for_stale_files_once_a_minute_not_at_every_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked: list[Path] = []
    real = files.clean_stale_temps

    def counting(folder: Path, now: float | None = None) -> list[Path]:
        looked.append(folder)
        return real(folder, now)

    monkeypatch.setattr(files, "clean_stale_temps", counting)
    for i in range(50):
        write_atomic(tmp_path / f"table-{i}.json", "{}\n")
    assert looked == [tmp_path]
    files._last_clean[tmp_path] -= files.CLEAN_EVERY  # a minute later
    write_atomic(tmp_path / "table-0.json", "{}\n")
    assert looked == [tmp_path, tmp_path]
