"""The command line keeps the one set of limits (:mod:`atout.core.limits`): a seed, a
time, a host, a name or a count outside them is refused by the argument parser with one
line that says what is allowed (exit code 2), for every command that takes it; and
what the command line accepts, the save and the record readers read back."""

from __future__ import annotations

import io
import json

import pytest
from atout.core import Engine
from atout.core.errors import RecordError
from atout.core.limits import MAX_SEED
from atout.core.records import iter_record_deals
from atout.core.records import load_json
from atout.core.session import Session
from atout.ui import cli
from atout.ui import savegame
from atout.ui import terminal_save
from atout.ui.savegame import Setup
from atout.ui.terminal_match import play_match

LONG_HOST = "h" * 300

REFUSED = [
    (["play", "--text", "--seed", str(MAX_SEED + 1)], "--seed", "at most 18 digits"),
    (["play", "--text", "--seed", "1" * 25], "--seed", "at most 18 digits"),
    (["play", "--text", "--seed", "-3"], "--seed", "from 0"),
    (["review", "x.json", "--seed", str(10**19)], "--seed", "at most 18 digits"),
    (["bench", "--seed", str(10**19)], "--seed", "at most 18 digits"),
    (["play", "--text", "--think", "nan"], "--think", "at most 60"),
    (["play", "--text", "--think", "inf"], "--think", "at most 60"),
    (["play", "--text", "--think", "1e308"], "--think", "at most 60"),
    (["play", "--text", "--think", "-1"], "--think", "from 0"),
    (["bench", "--think", "nan"], "--think", "at most 60"),
    (["bench", "--think", "1e308"], "--think", "at most 60"),
    (["bench", "--deals", str(10**30)], "--deals", "from 1"),
    (["review", "x.json", "--budget", "nan"], "--budget", "at most 600"),
    (["review", "x.json", "--budget", "inf"], "--budget", "at most 600"),
    (["review", "x.json", "--budget", "0"], "--budget", "above 0"),
    (["serve", "--grace", "nan"], "--grace", "at most 86400"),
    (["serve", "--linger", "inf"], "--linger", "at most 86400"),
    (["serve", "--port", "70000"], "--port", "from 0 to 65535"),
    (["serve", "--host", LONG_HOST], "--host", "at most 253 characters"),
    (["serve", "--host", "evil\x1b]0;title\x07"], "--host", "letters, digits"),
    (["serve", "--host", ""], "--host", "not nothing"),
    (["play", "--text", "--join", "a[b:8000/K7QX2M"], "--join", "letters, digits"),
    (["play", "--text", "--join", f"{LONG_HOST}:8000/K7QX2M"], "--join", "at most 253"),
    (["play", "--host", "--listen", "a b:8000"], "--listen", "letters, digits"),
    (["play", "--host", "--listen", "0.0.0.0:99999"], "--listen", "from 0 to 65535"),
    (["play", "--text", "--name", "x\x1b[2J"], "--name", "control characters"),
    (["play", "--text", "--target", str(10**25)], "--target", "from 1 to"),
]


@pytest.mark.parametrize(("argv", "option", "allowed"), REFUSED)
def test_a_value_outside_the_limits_is_one_line_from_the_parser(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str, allowed: str
) -> None:
    with pytest.raises(SystemExit) as info:
        cli.parse(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"atout {argv[0]}: error: argument {option}"), err
    assert allowed in last, last
    assert "\x1b" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--text", "--seed", str(MAX_SEED)],
        ["play", "--text", "--think", "0"],
        ["play", "--text", "--think", "2.5"],
        ["review", "x.json", "--budget", "600"],
        ["serve", "--host", "::1", "--grace", "0", "--port", "0"],
        ["serve", "--host", "table.example.org"],
        ["play", "--text", "--join", "[::1]:8000/K7QX2M"],
        ["play", "--host", "--listen", "[::1]:0"],
        ["play", "--text", "--name", "Zoë"],
    ],
)
def test_values_within_the_limits_are_taken(argv: list[str]) -> None:
    cli.parse(argv)


def test_the_largest_seed_the_command_line_takes_is_read_back_by_continue_and_replay(
    engine: Engine,
) -> None:
    args = cli.parse(["play", "--text", "--seed", str(MAX_SEED)])
    rules = engine.default_rules("decouverte")
    play_match(
        engine,
        "decouverte",
        rules,
        bot="random",
        seed=args.seed,
        inp=io.StringIO("take\nquit\n"),
        out=io.StringIO(),
    )
    session = terminal_save.resume_terminal(engine)
    assert session.match.seed == MAX_SEED
    session.detach()
    (record,) = savegame.records_dir().glob("*.json")
    assert list(iter_record_deals(engine, load_json(record), str(record)))


@pytest.mark.parametrize("think", [1e308, 61, -1, "2"])
def test_a_save_whose_think_is_out_of_limits_is_refused_naming_the_file_and_key(
    engine: Engine, think: object
) -> None:
    session = savegame.start_session(engine, Setup(seed=2), engine.default_rules("decouverte"))
    session.detach()
    path = savegame.saved_match_path()
    lines = path.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), "think": think})
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=r"think: .*seconds") as info:
        savegame.resume(engine, path)
    assert str(path) in str(info.value)
    assert Setup.from_json({"think": think, "seed": 10**19, "target": 10**30}) == Setup()


def test_a_match_record_whose_seed_is_negative_is_refused_naming_the_key(engine: Engine) -> None:
    session = savegame.start_session(engine, Setup(seed=2), engine.default_rules("decouverte"))
    record = {**session.record(), "seed": -2}
    session.detach()
    with pytest.raises(RecordError, match="seed: a seed is a whole number"):
        list(iter_record_deals(engine, record, "m.json"))


def test_a_session_resumes_with_a_think_of_zero(engine: Engine) -> None:
    session = savegame.start_session(engine, Setup(seed=3), engine.default_rules("decouverte"))
    session.detach()
    back = Session.resume(engine, savegame.saved_match_path())
    assert back.think == 0.0
    back.detach()
