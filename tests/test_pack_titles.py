"""A pack's optional title: its short name for people (the window lists packs by it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.errors import PackError
from atout.core.packs import MAX_TITLE
from atout.core.packs import list_packs
from atout.core.packs import resolve
from atout.core.packs import user_dir


@pytest.fixture
def user_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = user_dir()
    folder.mkdir(parents=True)
    return folder


def test_every_shipped_pack_has_a_short_title(engine: Engine) -> None:
    shipped = [p for p in list_packs(engine) if p.origin == "shipped"]
    assert shipped
    for pack in shipped:
        assert pack.usable, pack.problem
        assert pack.title and len(pack.title) <= MAX_TITLE, pack.name
        assert pack.title != pack.name
    titles = [(p.game, p.title) for p in shipped]
    assert len(set(titles)) == len(titles), "two packs of a game with one title"


def test_a_title_is_read_and_not_inherited(engine: Engine, user_packs: Path) -> None:
    (user_packs / "friday.yaml").write_text(
        'game: belote\ndescription: Our rules.\ntitle: "Friday"\nextends: official\n'
    )
    (user_packs / "saturday.yaml").write_text(
        "game: belote\ndescription: Theirs.\nextends: friday\n"
    )
    packs = {p.name: p for p in list_packs(engine)}
    assert packs["friday"].title == "Friday" and resolve(engine, "friday").title == "Friday"
    assert packs["saturday"].usable and packs["saturday"].title == ""


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ('"' + "x" * (MAX_TITLE + 1) + '"', f"at most {MAX_TITLE} characters"),
        ("[a, b]", "expected a short name"),
        ('"a\\u0007b"', "control character"),
    ],
)
def test_a_bad_title_is_refused_with_its_file_line_and_key(
    engine: Engine, user_packs: Path, value: str, reason: str
) -> None:
    path = user_packs / "bad.yaml"
    path.write_text(f"game: belote\ndescription: Bad.\ntitle: {value}\n")
    with pytest.raises(PackError) as caught:
        resolve(engine, "bad")
    message = str(caught.value)
    assert str(path) in message and "line 3" in message and "title" in message
    assert reason in message
