"""Seeded fuzzing of house-rule packs: pack files put together from good and nasty lines,
and shipped packs changed one seeded step at a time, are checked (``variants check``),
resolved (``--pack FILE``) and, a few at a time, put in the user's pack folder and listed
(``variants list``, what the start view of ``atout play`` shows).  Each is valid or
refused with one-line problems naming the file; listing never fails, lists every broken
pack with its problem and keeps every shipped pack usable."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core.errors import PackError
from atout.core.errors import PluginError
from atout.core.packs import check_file
from atout.core.packs import list_packs
from atout.core.packs import resolve
from fuzz_helpers import check_message
from fuzz_helpers import memory_folder
from fuzz_helpers import mutate_text

BUILT_CASES = 2000
MUTATED_CASES = 800
LISTINGS = 60

KEYS = [
    "game",
    "description",
    "extends",
    "plugins",
    "target",
    "tie",
    "direction",
    "declarations",
    "capot_bonus",
    "reveal_on_lead",
    "arret",
    "direktion",
    "<<",
    "=",
    "? complex",
    "[a]",
    "\u202ekey",
]
VALUES = [
    "belote",
    "decouverte",
    "official",
    "decouverte-exoty",
    "500",
    "0",
    "-1",
    "1e3",
    "0x10",
    "1_000",
    "9" * 30,
    "9" * 5000,
    "true",
    "on",
    "yes",
    "~",
    "",
    "=",
    "<<",
    "2024-02-30",
    "2024-02-29",
    "12:30:00",
    '"\\ud800"',
    '"\\e[31mred"',
    '"\\x1b]0;t\\x07"',
    "'quoted'",
    "[my-house-rules]",
    "[a, [b, [c]]]",
    "[" * 1000 + "]" * 1000,
    "[" * 5000,
    "{a: 1}",
    "&anchor 1",
    "*anchor",
    "!!python/object/apply:os.system ['true']",
    "!!str 5",
    "|\n  one\n  two",
    "clockwise",
    "litige",
    "abeyance",
    "takers-fail",
    "x" * 300,
    "é♥",
]


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """Where the cases' files go (in memory where the system allows)."""
    yield from memory_folder(tmp_path)


def _built(rng: random.Random) -> str:
    lines = []
    if rng.random() < 0.8:
        lines.append(f"game: {rng.choice(['belote', 'decouverte'])}")
    if rng.random() < 0.8:
        lines.append("description: fuzz")
    for _ in range(rng.randrange(5)):
        lines.append(f"{rng.choice(KEYS)}: {rng.choice(VALUES)}")
    rng.shuffle(lines)
    return "\n".join(lines) + rng.choice(["\n", "", "\n\n# end\n"])


def _check(engine: Engine, path: Path) -> None:
    """``variants check`` and ``--pack FILE`` on ``path``, held to the contract."""
    for problem in check_file(engine, path):
        check_message(problem, str(path))
    try:
        resolve(engine, str(path))
    except PluginError as exc:
        pytest.fail(f"a pack blamed on a plugin: {exc}")
    except PackError as exc:
        check_message(str(exc), str(path))


def test_packs_built_from_nasty_lines_are_valid_or_refused_in_one_line(
    engine: Engine, folder: Path
) -> None:
    rng = random.Random(1124)
    path = folder / "fuzz.yaml"
    valid = 0
    for case in range(BUILT_CASES):
        text = _built(rng)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            _check(engine, path)
            valid += not check_file(engine, path)
        except BaseException:
            print(f"case {case}: {text[:500]!r}")
            raise
    assert 0 < valid < BUILT_CASES  # both kinds were tried


def test_shipped_packs_with_mutated_text_are_valid_or_refused_in_one_line(
    engine: Engine, folder: Path
) -> None:
    shipped = sorted(Path(__file__).resolve().parent.parent.joinpath("variants").glob("*.yaml"))
    texts = [p.read_text(encoding="utf-8") for p in shipped]
    rng = random.Random(31)
    path = folder / "mutant.yaml"
    for case in range(MUTATED_CASES):
        text = texts[case % len(texts)]
        for _ in range(1 + rng.randrange(3)):
            text = mutate_text(text, rng)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            _check(engine, path)
        except BaseException:
            print(f"case {case}: {text[:500]!r}")
            raise


def test_listing_user_packs_never_fails_and_lists_each_broken_one(
    engine: Engine, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    user = folder / "atout" / "variants"
    user.mkdir(parents=True)
    rng = random.Random(5)
    shipped = {p.name for p in list_packs(engine) if p.origin == "shipped"}
    for _ in range(LISTINGS):
        for old in user.iterdir():
            old.unlink()
        for i in range(4):
            (user / f"user{i}.yaml").write_bytes(_built(rng).encode("utf-8", "surrogatepass"))
        packs = list_packs(engine)
        users = [p for p in packs if p.origin == "user"]
        assert len(users) == 4
        for p in users:
            if p.problem:
                check_message(p.problem, str(user))
        assert {p.name for p in packs if p.origin == "shipped" and p.usable} == shipped
