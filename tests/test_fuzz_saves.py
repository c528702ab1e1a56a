"""Seeded fuzzing of saved matches: the save files of both front ends (the table's
``saved-match.jsonl``, the terminal's ``terminal-match.jsonl``) changed one seeded step at
a time, in the header's JSON tree, in an action line, or in the text, and resumed.  Each
case resumes or is refused with one line naming the file; nothing else escapes, and a
save that cannot be resumed by the terminal's ``--continue`` is moved aside whole, never
deleted nor changed."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core.errors import AtoutError
from atout.core.errors import PluginError
from atout.ui import savegame
from atout.ui import terminal_save
from atout.ui.savegame import Setup
from fuzz_helpers import check_message
from fuzz_helpers import dump
from fuzz_helpers import memory_folder
from fuzz_helpers import mutate_text
from fuzz_helpers import mutate_tree

HEADER_CASES = 1500
LINE_CASES = 800
TEXT_CASES = 1200


@pytest.fixture(autouse=True)
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The data folder of the saves (in memory where the system allows)."""
    for place in memory_folder(tmp_path):
        monkeypatch.setenv("XDG_DATA_HOME", str(place))
        yield place


def _saves(engine: Engine) -> list[str]:
    """Save files of both games, a few actions into the first deal, as the table
    writes them."""
    out = []
    for game in ("decouverte", "belote"):
        session = savegame.start_session(
            engine, Setup(game=game, seed=3), engine.default_rules(game), persist=True
        )
        session.next_deal()
        for _ in range(9):
            if session.needs_deal:
                session.next_deal()
            seat = session.to_act
            assert seat is not None
            if session.is_bot(seat):
                session.play_bots()
            else:
                session.act(seat, session.view(seat).legal_actions()[0])
        session.detach()
        out.append(savegame.saved_match_path().read_text(encoding="utf-8"))
    return out


def _resume(engine: Engine, text: str, terminal: bool) -> None:
    """Resume ``text`` as the table's or the terminal's save, held to the contract."""
    path = savegame.terminal_match_path() if terminal else savegame.saved_match_path()
    raw = text.encode("utf-8", "surrogatepass")
    path.write_bytes(raw)
    try:
        if terminal:
            session = terminal_save.resume_terminal(engine)
        else:
            _, session = savegame.resume_session(engine)
    except PluginError as exc:
        pytest.fail(f"a save blamed on a plugin: {exc}")
    except AtoutError as exc:
        message = str(exc)
        if terminal:
            assert message.startswith("the saved match cannot be resumed: ")
            message = message.removeprefix("the saved match cannot be resumed: ")
            kept = sorted(path.parent.glob("terminal-match-unreadable-*.jsonl"))
            assert not path.exists() and kept and kept[-1].read_bytes() == raw
            kept[-1].unlink()
        else:
            assert path.read_bytes() == raw  # left as it was for the table to move aside
        check_message(message, str(path))
    else:
        session.detach()


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_saves_with_a_mutated_header_resume_or_are_refused_in_one_line(
    engine: Engine,
) -> None:
    bases = _saves(engine)
    rng = random.Random(99)
    for case in range(HEADER_CASES):
        lines = _lines(bases[case % len(bases)])
        header: Any = json.loads(lines[0])
        for _ in range(1 + rng.randrange(2)):
            header = mutate_tree(header, rng)
        text = "\n".join([dump(header), *lines[1:]])
        try:
            _resume(engine, text, terminal=case % 3 == 0)
        except BaseException:
            print(f"case {case}: {text[:2000]!r}")
            raise


def test_saves_with_a_mutated_action_line_resume_or_are_refused_in_one_line(
    engine: Engine,
) -> None:
    bases = _saves(engine)
    rng = random.Random(5)
    for case in range(LINE_CASES):
        lines = _lines(bases[case % len(bases)])
        actions = [i for i, line in enumerate(lines) if i and line]
        assert actions  # the saves hold action lines
        at = rng.choice(actions)
        lines[at] = dump(mutate_tree(json.loads(lines[at]), rng))
        text = "\n".join(lines)
        try:
            _resume(engine, text, terminal=case % 3 == 0)
        except BaseException:
            print(f"case {case}: {text[:2000]!r}")
            raise


def test_saves_with_mutated_text_resume_or_are_refused_in_one_line(engine: Engine) -> None:
    bases = _saves(engine)
    rng = random.Random(17)
    for case in range(TEXT_CASES):
        text = bases[case % len(bases)]
        for _ in range(1 + rng.randrange(2)):
            text = mutate_text(text, rng)
        try:
            _resume(engine, text, terminal=case % 3 == 0)
        except BaseException:
            print(f"case {case}: {text[:2000]!r}")
            raise


def test_the_fuzz_starts_from_saves_that_resume(engine: Engine) -> None:
    for text in _saves(engine):
        savegame.saved_match_path().write_text(text, encoding="utf-8")
        _, session = savegame.resume_session(engine)
        assert session.match.deals and session.match.deals[-1].actions
        session.detach()
