"""Seeded fuzzing of ``atout replay``: records of both games (deals, matches, a position
set up by hand) changed one seeded step at a time, in their JSON tree and in their text,
and replayed, traced and traced as JSON.  Each case either replays or is refused with one
line naming the file (:class:`~atout.core.errors.RecordError`, never a plugin's failure);
nothing else may escape, and nothing printed holds a control character."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core.errors import AtoutError
from atout.core.errors import PluginError
from atout.core.records import deal_to_record
from atout.core.records import match_to_record
from atout.ui.commands import replay
from fuzz_helpers import check_message
from fuzz_helpers import check_printed
from fuzz_helpers import dump
from fuzz_helpers import memory_folder
from fuzz_helpers import mutate_text
from fuzz_helpers import mutate_tree

TREE_CASES = 2400
TEXT_CASES = 1200


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """Where the cases' files go (in memory where the system allows)."""
    yield from memory_folder(tmp_path)


def _records(engine: Engine) -> list[dict[str, Any]]:
    """Valid records to start from: a deal and a two-deal match of each game, a deal
    whose carry_in holds a litige, and a position set up by hand."""
    out: list[dict[str, Any]] = []
    for game in ("belote", "decouverte"):
        rules = engine.make_rules(game, {"tie": "litige"} if game == "belote" else {})
        match = Match(engine, game, rules, seed=11)
        for _ in range(2):
            deal = match.next_deal()
            while not deal.is_over:
                deal.apply(deal.legal_actions()[-1])
            match.end_deal(deal)
            out.append(deal_to_record(deal, seed=11))
        out.append(match_to_record(match))
    held = dict(out[0])
    held["carry_in"] = {"held": [{"kind": "litige", "takers": 1, "points": 81}]}
    out.append(held)
    hands = [["JH", "9H", "AH", "10H"], ["7S", "8S", "9S", "10S"], ["7C", "8C", "9C", "10C"]]
    hands.append(["7D", "8D", "9D", "10D"])
    played = [
        ["AS", "KS", "QS", "JS"],
        ["AC", "KC", "QC", "JC"],
        ["AD", "KD", "QD", "JD"],
        ["KH", "QH", "8H", "7H"],
    ]
    out.append(
        {
            "format": "atout-deal",
            "version": 1,
            "game": "belote",
            "rules": {},
            "dealer": 3,
            "layout": {"hands": hands},
            "start": {"contract": {"taker": 0, "trump": "H"}, "leader": 0, "tricks": played},
            "actions": [{"seat": 0, "play": "JH"}],
        }
    )
    return json.loads(json.dumps(out))


def _replay(engine: Engine, path: Path, rng: random.Random) -> None:
    """``atout replay`` on ``path`` with random options, holding it to the contract."""
    args = argparse.Namespace(
        file=str(path), trace=rng.random() < 0.4, json=rng.random() < 0.5, plugin=None
    )
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            replay.run(args, engine)
    except PluginError as exc:  # a malformed record is never a plugin's failure
        pytest.fail(f"blamed on a plugin: {exc}")
    except AtoutError as exc:
        check_message(str(exc), str(path))
    check_printed(out.getvalue())


def test_mutated_records_are_replayed_or_refused_in_one_line(engine: Engine, folder: Path) -> None:
    bases = _records(engine)
    rng = random.Random(20261124)
    path = folder / "record.json"
    for case in range(TREE_CASES):
        tree = bases[case % len(bases)]
        for _ in range(1 + rng.randrange(3)):
            tree = mutate_tree(tree, rng)
        path.write_text(dump(tree), encoding="utf-8")
        try:
            _replay(engine, path, rng)
        except BaseException:
            print(f"case {case}: {dump(tree)[:2000]}")
            raise


def test_records_with_mutated_text_are_replayed_or_refused_in_one_line(
    engine: Engine, folder: Path
) -> None:
    bases = [json.dumps(r, ensure_ascii=False, indent=1) for r in _records(engine)]
    rng = random.Random(7)
    path = folder / "record.json"
    for case in range(TEXT_CASES):
        text = bases[case % len(bases)]
        for _ in range(1 + rng.randrange(3)):
            text = mutate_text(text, rng)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            _replay(engine, path, rng)
        except BaseException:
            print(f"case {case}: {text[:2000]!r}")
            raise


def test_the_fuzz_starts_from_records_that_replay(engine: Engine, folder: Path) -> None:
    """The unchanged records replay (else every mutation would be refused trivially)."""
    path = folder / "record.json"
    for record in _records(engine):
        path.write_text(dump(record), encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert (
                replay.run(argparse.Namespace(file=str(path), trace=True, json=True), engine) == 0
            )
        assert '"end": true' in out.getvalue()
