"""The table's saved match is never replaced: a new match keeps it aside
(``saved-match-kept-DATE.jsonl``), the kept matches are listed with their game and
score, and continuing one makes it the saved match again, keeping the other aside."""

from __future__ import annotations

from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.errors import AtoutError
from atout.ui import savegame
from atout.ui.rules import resolve_rules
from atout.ui.savegame import Setup


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "data" / "atout"


def play(
    engine: Engine, seed: int, deals: int = 0, game: str = "decouverte", pack: str = ""
) -> bytes:
    """Start a match against random bots (following the table's save file), play
    ``deals`` whole deals and the first actions of the next; return the save's bytes."""
    rules = resolve_rules(engine, game, pack)
    setup = Setup(game=game, pack=pack, bot="random", seed=seed)
    session = savegame.start_session(engine, setup, rules)
    stand_in = engine.bot("random", game, rules, seed=seed)
    session.next_deal()
    finished = 0
    while finished < deals:
        seat = session.to_act
        if seat is None:  # the deal is over (or redealt): the next one
            finished += 1
            session.next_deal()
            continue
        view = session.view(seat)
        if session.is_bot(seat):
            session.act(seat, session.bot(seat).choose(view))
        else:
            session.act(seat, stand_in.choose(view))
    session.detach()
    return savegame.saved_match_path().read_bytes()


def test_a_new_match_keeps_the_saved_one_aside(engine: Engine, data: Path) -> None:
    first = play(engine, seed=3)
    second = play(engine, seed=4)
    assert savegame.saved_match_path().read_bytes() == second
    kept = savegame.kept_matches()
    assert [k.path.read_bytes() for k in kept] == [first]
    assert kept[0].path.name.startswith("saved-match-kept-")
    assert kept[0].path.parent == savegame.saved_match_path().parent


def test_the_kept_matches_say_their_game_and_score(engine: Engine, data: Path) -> None:
    play(engine, seed=5, deals=2, game="belote", pack="official")
    play(engine, seed=6)
    (kept,) = savegame.kept_matches()
    assert kept.problem == ""
    assert kept.game == "belote" and kept.pack == "official"
    assert kept.deals >= 1 and len(kept.scores) == 2 and sum(kept.scores) > 0


def test_continuing_a_kept_match_keeps_the_saved_one_in_its_turn(
    engine: Engine, data: Path
) -> None:
    first = play(engine, seed=7)
    second = play(engine, seed=8)
    (kept,) = savegame.kept_matches()
    moved = savegame.continue_kept(kept.path)
    assert moved is not None and moved.read_bytes() == second
    assert savegame.saved_match_path().read_bytes() == first
    assert not kept.path.exists()
    assert [k.path.read_bytes() for k in savegame.kept_matches()] == [second]
    setup, session = savegame.resume_session(engine)
    assert session.match.seed == 7 and setup.game == "decouverte"
    session.detach()


def test_a_kept_match_is_continued_from_the_data_folder_only(
    engine: Engine, data: Path, tmp_path: Path
) -> None:
    play(engine, seed=9)
    elsewhere = tmp_path / "saved-match-kept-1.jsonl"
    elsewhere.write_text("{}\n")
    before = savegame.saved_match_path().read_bytes()
    with pytest.raises(AtoutError, match="no kept match"):
        savegame.continue_kept(elsewhere)
    assert savegame.saved_match_path().read_bytes() == before
    assert elsewhere.exists()


def test_an_unreadable_kept_file_is_listed_with_its_problem(engine: Engine, data: Path) -> None:
    data.mkdir(parents=True)
    (data / "saved-match-kept-20260101-000000.jsonl").write_text("not json\n")
    (kept,) = savegame.kept_matches()
    assert "not a saved atout match" in kept.problem


def test_a_save_that_cannot_be_moved_aside_is_left_and_nothing_starts(
    engine: Engine, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = play(engine, seed=10)
    monkeypatch.setattr(savegame, "set_aside", lambda path=None, label="": None)
    with pytest.raises(savegame.SaveError, match="cannot be moved aside"):
        play(engine, seed=11)
    assert savegame.saved_match_path().read_bytes() == before
    assert savegame.kept_matches() == []


def test_the_practice_switch_round_trips_through_json() -> None:
    assert Setup.from_json({"practice": True}).practice is True
    assert Setup.from_json({"practice": "yes"}).practice is False
    assert Setup.from_json({}).practice is False
