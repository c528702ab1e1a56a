"""Bad packs: each gives one PackError message with the file, the line (where YAML has
one) and the key; never a traceback, never runs code, nothing half-applied."""

from __future__ import annotations

import time
import types
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core import RuleOption
from atout.core import hookimpl
from atout.core import make_plugin_manager
from atout.core.errors import PackError
from atout.core.packs import MAX_PACK_BYTES
from atout.core.packs import check_file
from atout.core.packs import list_packs
from atout.core.packs import load_rules
from atout.core.packs import user_dir
from atout.ui.cli import main

HEAD = "game: belote\ndescription: A pack.\n"


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def write(folder: Path, name: str, content: str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def problem(engine: Engine, path: Path, game: str | None = None) -> str:
    """The message of loading ``path``; ``check_file`` must report the same problem."""
    with pytest.raises(PackError) as err:
        load_rules(engine, str(path), game)
    message = str(err.value)
    assert "Traceback" not in message and "\n" not in message
    if game is None:
        checked = check_file(engine, path)
        assert checked, "check_file finds the problem too"
        assert message.startswith(checked[0])
    return message


# --- keys and values ------------------------------------------------------------------------------


def test_unknown_key_with_did_you_mean(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "extends: official\ndirektion: clockwise\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line 4: direktion: unknown option for belote")
    assert "did you mean direction?" in msg


def test_unknown_key_without_a_close_match_points_to_the_list(
    engine: Engine, tmp_path: Path
) -> None:
    msg = problem(engine, write(tmp_path, "p", HEAD + "zzz: 1\n"))
    assert "line 3: zzz: unknown option for belote" in msg
    assert "did you mean" not in msg and "atout variants options belote" in msg


def test_an_option_of_the_other_game_says_so(engine: Engine, tmp_path: Path) -> None:
    msg = problem(engine, write(tmp_path, "p", HEAD + "reveal_on_lead: true\n"))
    assert (
        "line 3: reveal_on_lead: unknown option for belote: "
        "it is an option of coinche-decouverte, decouverte" in msg
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("arret: maybe", "arret: must be true or false, not 'maybe'"),
        ("arret: 1", "arret: must be true or false, not 1"),
        ('arret: "true"', "arret: must be true or false, not 'true'"),
        ("target: lots", "target: must be a whole number, not 'lots'"),
        ("target: 1000.5", "target: must be a whole number, not 1000.5"),
        ("target: true", "target: must be a whole number, not True"),
        ("tie: draw", "tie: must be one of takers-make, takers-fail, abeyance, litige, not 'draw'"),
        ("declarations: off", "declarations: must be one of on, belote-only, none, not 'off'"),
        ("direction: [clockwise]", "direction: expected a single value, not a list"),
        ("direction: {a: b}", "direction: expected a single value"),
        ("direction:", "direction: needs a value (one of anticlockwise, clockwise)"),
    ],
)
def test_wrong_type(engine: Engine, tmp_path: Path, line: str, expected: str) -> None:
    path = write(tmp_path, "p", HEAD + line + "\n")
    assert f"{path}: line 3: {expected}" in problem(engine, path)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("rounding: 50", "rounding: must be at most 10, not 50"),
        ("rounding: -5", "rounding: must be at least 0, not -5"),
        ("target: 0", "target: must be at least 1, not 0"),
        ("capot_bonus: 100000", "capot_bonus: must be at most 1000, not 100000"),
    ],
)
def test_out_of_range(engine: Engine, tmp_path: Path, line: str, expected: str) -> None:
    path = write(tmp_path, "p", HEAD + line + "\n")
    assert f"{path}: line 3: {expected}" in problem(engine, path)


def test_a_key_given_twice(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "tie: litige\narret: true\ntie: abeyance\n")
    assert f"{path}: line 5: tie: given twice (first on line 3)" in problem(engine, path)


def test_every_problem_of_a_file_is_listed_by_check(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "tie: draw\nrounding: 11\ndirektion: clockwise\n")
    problems = check_file(engine, path)
    assert [p.split(": ")[1:3] for p in problems] == [
        ["line 3", "tie"],
        ["line 4", "rounding"],
        ["line 5", "direktion"],
    ]
    assert "(and 2 more problems" in problem(engine, path)


# --- the header ------------------------------------------------------------------------------------


def test_unknown_game(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", "game: bridge\ndescription: d\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line 1: game: unknown game 'bridge'")
    assert "belote" in msg and "decouverte" in msg


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("description: d\n", "line 1: game: missing"),
        ("game: belote\n", "line 1: description: missing"),
        ("game: belote\ndescription: [a, b]\n", "line 2: description: expected one line of text"),
        ("game: belote\ndescription: |\n  one\n  two\n", "line 2: description: must be one line"),
        ("game: 12\ndescription: d\n", "line 1: game: unknown game '12' (the games are: "),
        (
            HEAD + "extends: ../official.yaml\n",
            "line 3: extends: '../official.yaml' is not a pack name",
        ),
        (HEAD + "plugins: nope\n", "line 3: plugins: expected a list of plugin names"),
    ],
)
def test_bad_header(engine: Engine, tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, "p", text)
    assert f"{path}: {expected}" in problem(engine, path)


def test_description_over_200_characters(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", "game: belote\ndescription: " + "x" * 201 + "\n")
    assert "line 2: description: must be at most 200 characters" in problem(engine, path)


def test_extends_a_missing_pack(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "extends: offical\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line 3: extends: no pack named 'offical' to extend")
    assert "did you mean official?" in msg


def test_extends_cycle(engine: Engine) -> None:
    a = write(user_dir(), "a", HEAD + "extends: b\n")
    write(user_dir(), "b", HEAD + "extends: c\n")
    write(user_dir(), "c", HEAD + "extends: a\n")
    msg = problem(engine, a)
    assert "line 3: extends: extends cycle: a -> b -> c -> a" in msg
    assert "c.yaml" in msg
    self_loop = write(user_dir(), "me", HEAD + "extends: me\n")
    assert f"{self_loop}: line 3: extends: extends cycle: me -> me" in problem(engine, self_loop)


def test_a_pack_extending_a_pack_of_the_other_game(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", "game: decouverte\ndescription: d\nextends: official\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line 3: extends: 'official' is a pack for belote")
    assert "this pack is for decouverte" in msg


def test_a_pack_for_the_other_game(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", "game: decouverte\ndescription: d\n")
    msg = problem(engine, path, game="belote")
    assert msg.startswith(f"{path}: line 1: game: this pack is for decouverte, not belote")
    with pytest.raises(PackError, match=r"decouverte-belote\.yaml: line 1: game"):
        load_rules(engine, "decouverte-belote", "belote")


def test_a_missing_plugin_is_named(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "plugins: [no-such-rules]\nhouse_rule: true\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line 3: plugins: needs the rule plugin 'no-such-rules'")
    assert "--plugin" in msg


def test_a_pack_naming_a_loaded_plugin_may_use_its_options(tmp_path: Path) -> None:
    plugin = types.SimpleNamespace()

    @hookimpl
    def atout_rule_options(game: str) -> list[RuleOption] | None:
        return [RuleOption("house_rule", "bool", False, "A house rule.")]

    plugin.atout_rule_options = atout_rule_options
    pm = make_plugin_manager()
    pm.register(plugin, name="house-rules")
    engine = Engine(pm)
    path = write(tmp_path, "p", HEAD + "plugins: [house-rules]\nhouse_rule: true\n")
    rules = load_rules(engine, str(path))
    assert rules["house_rule"] is True
    assert check_file(engine, path) == []


# --- the file itself ---------------------------------------------------------------------------------


def test_yaml_syntax_error(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "tie: [litige\narret: true\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line ") and "not valid YAML" in msg
    line = int(msg.split("line ")[1].split(":")[0])
    assert 3 <= line <= 5


def test_bad_indentation_is_a_syntax_error_with_its_line(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", HEAD + "tie: litige\n  arret: true\n")
    assert f"{path}: line 4: not valid YAML" in problem(engine, path)


def test_python_tags_are_refused_and_never_run(engine: Engine, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    payload = f'!!python/object/apply:os.system ["touch {marker}"]'
    for i, text in enumerate(
        [
            HEAD + f"tie: {payload}\n",
            f"{payload}\n",
            HEAD + f"{payload}: 1\n",
            HEAD + "target: !!int 5\n",
            "!!python/object:builtins.dict {}\n",
        ]
    ):
        path = write(tmp_path, f"t{i}", text)
        msg = problem(engine, path)
        assert msg.startswith(f"{path}: line ") and "tags (" in msg
        assert "are not allowed in a pack" in msg
    assert "!!python/object/apply:os.system" in problem(engine, tmp_path / "t0.yaml")
    assert not marker.exists(), "no code ran"


def test_an_alias_bomb_is_refused_at_once(engine: Engine, tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    path = write(tmp_path, "bomb", "\n".join(lines) + "\n" + HEAD)
    start = time.process_time()
    msg = problem(engine, path)
    assert time.process_time() - start < 5, "refused without expanding anything"
    assert msg.startswith(f"{path}: line 1: anchors (&a0) are not allowed in a pack")


def test_an_alias_alone_is_refused(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "p", "game: belote\ndescription: &d text\nx: *d\n")
    assert f"{path}: line 2: anchors (&d)" in problem(engine, path)


def test_a_file_over_the_size_limit(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "big", HEAD + "# " + "x" * MAX_PACK_BYTES + "\n")
    msg = problem(engine, path)
    assert msg == f"{path}: the file is over 64 KiB; a pack is a few lines"


def test_exactly_at_the_size_limit_is_read(engine: Engine, tmp_path: Path) -> None:
    body = HEAD + "#"
    path = write(tmp_path, "edge", body + "x" * (MAX_PACK_BYTES - len(body) - 1) + "\n")
    assert path.stat().st_size == MAX_PACK_BYTES
    assert load_rules(engine, str(path)).pack == "edge"


def test_a_non_utf8_file(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "latin", b"game: belote\ndescription: caf\xe9\n")
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: line 2: not UTF-8 text")


def test_a_utf8_byte_order_mark_is_accepted(engine: Engine, tmp_path: Path) -> None:
    path = write(tmp_path, "bom", "\ufeff" + HEAD + "tie: litige\n")
    assert load_rules(engine, str(path)).tie == "litige"


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n", "---\n"])
def test_an_empty_file(engine: Engine, tmp_path: Path, content: str) -> None:
    path = write(tmp_path, "empty", content)
    msg = problem(engine, path)
    assert msg.startswith(f"{path}: the file ") and "game and description" in msg


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("- game\n- belote\n", "line 1: a pack is a mapping of keys to values, not a list"),
        ("just text\n", "line 1: a pack is a mapping of keys to values, not a single value"),
        (HEAD + "---\n" + HEAD, "line 3: not valid YAML"),
        (HEAD + "[a]: 1\n", "line 3: a key must be a name"),
    ],
)
def test_not_a_single_mapping(engine: Engine, tmp_path: Path, content: str, expected: str) -> None:
    path = write(tmp_path, "p", content)
    assert f"{path}: {expected}" in problem(engine, path)


def test_a_missing_file_or_a_folder(engine: Engine, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.yaml"
    assert problem(engine, missing) == f"{missing}: no such file"
    folder = tmp_path / "dir.yaml"
    folder.mkdir()
    assert str(folder) in problem(engine, folder)


def test_an_unknown_pack_name(engine: Engine) -> None:
    with pytest.raises(PackError, match=r"no pack named 'clokwise'; did you mean clockwise\?"):
        load_rules(engine, "clokwise")


# --- never a traceback, nothing half-applied ---------------------------------------------------------


def test_the_commands_print_one_line_per_problem(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "bad", HEAD + "tie: [\n")
    tagged = write(tmp_path, "tagged", HEAD + "tie: !!python/name:os.system\n")
    assert main(["variants", "check", str(bad), str(tagged)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert out.count(str(bad)) == 1 and out.count(str(tagged)) == 1
    assert main(["variants", "show", str(tagged)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"atout: {tagged}: line 3")
    assert main(["play", "belote", "--text", "--pack", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err


def test_nothing_is_half_applied(engine: Engine) -> None:
    """A chain whose root is bad gives no rules at all, and changes nothing else."""
    before = engine.default_rules("belote")
    write(user_dir(), "root", HEAD + "extends: clockwise\ntarget: 300\nrounding: 77\n")
    write(user_dir(), "leaf", HEAD + "extends: root\ntie: litige\n")
    with pytest.raises(PackError, match=r"root\.yaml: line 5: rounding"):
        load_rules(engine, "leaf")
    assert engine.default_rules("belote") == before
    assert load_rules(engine, "clockwise").target == 1000
    packs = {p.name: p for p in list_packs(engine)}
    assert not packs["root"].usable and not packs["leaf"].usable
    assert packs["clockwise"].usable


def test_a_user_file_with_a_bad_name_is_listed_not_loaded(engine: Engine) -> None:
    write(user_dir(), "my pack", HEAD)
    packs = {p.name: p for p in list_packs(engine)}
    assert not packs["my pack"].usable
    assert "not a pack name" in packs["my pack"].problem
