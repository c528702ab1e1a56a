"""``atout variants check`` lists every problem of a pack file, a missing parent and
the file's own problems alike; a user pack whose file name is no pack name is explained
the same way by ``variants list`` and by ``--pack NAME``."""

from __future__ import annotations

from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.errors import PackError
from atout.core.packs import check_file
from atout.core.packs import list_packs
from atout.core.packs import load_rules
from atout.core.packs import user_dir
from atout.ui.cli import main


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def test_check_lists_a_missing_parent_and_the_files_own_problems(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "friday.yaml"
    path.write_text(
        "game: belote\ndescription: A pack.\nextends: nowhere\ntie: draw\ndirektion: clockwise\n"
    )
    problems = check_file(engine, path)
    assert len(problems) == 3, problems
    assert "no pack named 'nowhere' to extend" in problems[0]
    assert any("line 4: tie:" in p and "'draw'" in p for p in problems[1:]), problems
    assert any("line 5: direktion:" in p for p in problems[1:]), problems


def test_check_lists_a_cycle_and_the_files_own_problems(engine: Engine, tmp_path: Path) -> None:
    folder = user_dir()
    folder.mkdir(parents=True)
    (folder / "saturday.yaml").write_text("game: belote\ndescription: B.\nextends: friday\n")
    path = folder / "friday.yaml"
    path.write_text("game: belote\ndescription: A.\nextends: saturday\ntie: draw\n")
    problems = check_file(engine, path)
    assert "extends cycle" in problems[0]
    assert any("tie:" in p for p in problems[1:]), problems


def test_a_user_pack_whose_file_name_is_no_pack_name_is_explained_by_pack_name(
    engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = user_dir()
    folder.mkdir(parents=True)
    path = folder / "my pack.yaml"
    path.write_text("game: belote\ndescription: Mine.\nextends: official\n")
    (listed,) = [p for p in list_packs(engine) if p.origin == "user"]
    assert listed.problem is not None and "not a pack name" in listed.problem
    with pytest.raises(PackError, match="the file name is not a pack name") as info:
        load_rules(engine, "my pack")
    assert str(path) in str(info.value)
    code = main(["play", "belote", "--text", "--pack", "my pack"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"atout: {path}: the file name is not a pack name"), err
    assert "no such file" not in err
