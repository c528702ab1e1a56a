"""`atout replay`: outcome, trace, and one clear line for a bad record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core.records import deal_to_record
from atout.core.records import match_to_record
from atout.core.records import save_json
from atout.ui.cli import main


def played_deal_record(engine: Engine, seed: int) -> dict:
    match = Match(engine, "belote", seed=seed)
    rng = random.Random(seed)
    deal = match.play_deal(lambda d: rng.choice(d.legal_actions()))
    return deal_to_record(deal, seed=seed)


@pytest.fixture
def record_file(engine: Engine, tmp_path: Path) -> Path:
    return save_json(tmp_path / "deal.json", played_deal_record(engine, 21))


def test_replay_prints_the_deal_outcome(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record_file), "--json"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    stored = json.loads(record_file.read_text())["result"]
    assert line["score"] == stored["score"]
    assert line["outcome"] == stored["outcome"]


def test_trace_gives_every_step_trick_and_the_final_scores(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record_file), "--trace", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    data = json.loads(record_file.read_text())
    steps = [x for x in lines if "step" in x]
    tricks = [x for x in lines if "trick" in x]
    assert len(steps) == len(data["actions"])
    for step, action in zip(steps, data["actions"], strict=True):
        taken = action.get("play") or action.get("bid")
        assert step["seat"] == action["seat"]
        assert step["action"] == taken
        assert taken in step["legal"]
    assert len(tricks) == 8
    assert sum(t["points"] for t in tricks) == 162
    assert lines[-1]["score"] == data["result"]["score"]


def test_a_match_record_replays_every_deal(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(engine, "belote", seed=5)
    rng = random.Random(5)
    for _ in range(3):
        match.play_deal(lambda d: rng.choice(d.legal_actions()))
    path = save_json(tmp_path / "match.json", match_to_record(match))
    assert main(["replay", str(path), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["score"] for x in lines if "score" in x] == [list(h.score) for h in match.history]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: "{ not json", "line 1"),
        (lambda d: json.dumps({**d, "format": "chess"}), "format"),
        (lambda d: json.dumps({**d, "version": 99}), "version"),
        (
            lambda d: json.dumps({**d, "actions": [*d["actions"][:3], {"seat": 1, "play": "ZZ"}]}),
            "action 4",
        ),
    ],
)
def test_a_bad_record_gives_one_line_naming_the_file_and_place(
    record_file: Path, mutate, expected: str
) -> None:
    data = json.loads(record_file.read_text())
    record_file.write_text(mutate(data))
    before = record_file.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "atout.ui.cli", "replay", str(record_file)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(record_file) in lines[0] and expected in lines[0]
    assert "Traceback" not in result.stderr
    assert record_file.read_bytes() == before


def test_an_illegal_action_names_its_number_and_the_rule(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record_file.read_text())
    actions = data["actions"]
    first_play = next(i for i, a in enumerate(actions) if "play" in a)
    second = actions[first_play + 1]
    engine = Engine()
    from atout.core.records import deal_from_record

    probe = dict(data, actions=actions[: first_play + 1], result=None)
    deal = deal_from_record(engine, probe)
    illegal = next(
        c
        for c in range(32)
        if deal.state.hands[second["seat"]] >> c & 1 and not deal.legal_cards() >> c & 1
    )
    from atout.core import card_str

    actions[first_play + 1] = {"seat": second["seat"], "play": card_str(illegal)}
    record_file.write_text(json.dumps(data))
    assert main(["replay", str(record_file)]) == 1
    err = capsys.readouterr().err
    assert f"action {first_play + 2}" in err
    assert "must" in err


def test_a_match_record_names_its_players_first(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = Match(engine, "decouverte", seed=8)
    rng = random.Random(8)
    match.play_deal(lambda d: rng.choice(d.legal_actions()))
    players = [
        {"kind": "person", "name": "Anna", "bot": ""},
        {"kind": "bot", "name": "", "bot": "expert"},
    ]
    path = save_json(tmp_path / "match.json", match_to_record(match, players))
    assert main(["replay", str(path), "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first == {"players": ["Anna", "expert bot"]}
