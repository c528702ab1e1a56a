"""House-rule packs: the shipped packs, user packs, chains, the commands, swapping packs
per match, records under a pack, and the agreement of docs/packs.md with the schema."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from atout.core import FULL_DECK
from atout.core import Engine
from atout.core import Match
from atout.core import Rules
from atout.core import make_plugin_manager
from atout.core.errors import PackError
from atout.core.packs import HEADER_KEYS
from atout.core.packs import allowed_text
from atout.core.packs import check_file
from atout.core.packs import list_packs
from atout.core.packs import load_rules
from atout.core.packs import resolve
from atout.core.packs import user_dir
from atout.core.packs import yaml_text
from atout.core.records import match_from_record
from atout.core.records import match_to_record
from atout.core.records import save_json
from atout.plugins.bots.basic import RandomBot
from atout.ui.cli import main
from atout.ui.commands.variants import options_command
from atout.ui.rules import resolve_rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "packs.md"

# What each shipped pack changes against its game's defaults (the issue's list).
SHIPPED: dict[str, tuple[str, dict[str, object]]] = {
    "official": ("belote", {}),
    "tournament": ("belote", {"declarations": "belote-only"}),
    "no-declarations": ("belote", {"declarations": "none"}),
    "clockwise": ("belote", {"direction": "clockwise"}),
    "deal-2-3": ("belote", {"deal_packets": "2-3"}),
    "toujours-pisser": ("belote", {"undertrump": "always"}),
    "king-first": ("belote", {"belote_king_first": True}),
    "card-points-only": ("belote", {"contract_counts_declarations": False}),
    "strict-majority": ("belote", {"tie": "takers-fail"}),
    "abeyance": ("belote", {"tie": "abeyance"}),
    "litige": ("belote", {"tie": "litige"}),
    "rounded-10": ("belote", {"rounding": 10}),
    "capot-keeps-declarations": ("belote", {"capot_keeps_declarations": True}),
    "arret": ("belote", {"arret": True}),
    "play-on": ("belote", {"both_past_target": "play-on"}),
    "club-v1": (
        "belote",
        {
            "must_head_trick": True,
            "must_trump_partner": True,
            "declarations_shown": "when-held",
            "declaration_comparison": "kind-by-kind",
            "tie": "litige",
        },
    ),
    "decouverte": ("decouverte", {}),
    "decouverte-reveal-on-lead": ("decouverte", {"reveal_on_lead": True}),
    "decouverte-belote": ("decouverte", {"belote_rebelote": True}),
    "decouverte-exoty": (
        "decouverte",
        {"dealer_rule": "winner", "capot_bonus": 50, "belote_rebelote": True},
    ),
    "coinche": ("coinche", {}),
    "coinche-sans-tout-atout": ("coinche", {"sans_tout_atout": "both"}),
    "coinche-annonces": ("coinche", {"declarations": "on"}),
    "coinche-points-announced": ("coinche", {"scoring": "announced"}),
    "coinche-club": (
        "coinche",
        {"deal_packets": "4-4", "bid_after_contre": True, "tie": "litige", "target": 1000},
    ),
    "coinche-decouverte": ("coinche-decouverte", {}),
}


@pytest.fixture(scope="module")
def shipped_engine() -> Engine:
    """An engine with atout's own plugins only: the schema docs/packs.md documents
    (an installed third-party plugin may add options of its own)."""
    pm = make_plugin_manager()
    for name, source in list(pm.sources.items()):
        if source.origin != "shipped":
            pm.unregister(name=name)
    return Engine(pm)


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own empty user configuration folder."""
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


def write_user_pack(name: str, text: str) -> Path:
    folder = user_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# --- the shipped packs --------------------------------------------------------------------------


def test_the_shipped_packs_are_exactly_the_issues_list(engine: Engine) -> None:
    shipped = {p.name: p for p in list_packs(engine) if p.origin == "shipped"}
    assert set(shipped) == set(SHIPPED)
    for name, info in shipped.items():
        assert info.usable, info.problem
        assert info.game == SHIPPED[name][0]
        assert info.description and "\n" not in info.description


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_pack_changes_exactly_its_keys(engine: Engine, name: str) -> None:
    game, changes = SHIPPED[name]
    rules = load_rules(engine, name)
    assert isinstance(rules, Rules)
    assert rules.game == game and rules.pack == name
    assert rules == engine.default_rules(game).replace(**changes)
    assert load_rules(engine, name, game) == rules


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_pack_puts_game_description_extends_first(name: str) -> None:
    text = (ROOT / "variants" / f"{name}.yaml").read_text(encoding="utf-8")
    keys = [m.group(1) for m in re.finditer(r"^([a-z_]+):", text, re.MULTILINE)]
    header = [k for k in keys if k in HEADER_KEYS]
    assert keys[: len(header)] == header, "the header keys come first"
    assert keys[:2] == ["game", "description"]


def test_official_and_decouverte_write_every_option_out(shipped_engine: Engine) -> None:
    engine = shipped_engine
    for name, game in (("official", "belote"), ("decouverte", "decouverte")):
        resolved = resolve(engine, name)
        assert all(s.set_by == name for s in resolved.settings), "no option left to default"
        assert {s.key for s in resolved.settings} == set(engine.rule_options(game))


def check_match(engine: Engine, rules: Rules, seed: int) -> Match:
    """Play a seeded match of random bots to its end, checking the invariants deal by deal."""
    match = Match(engine, rules.game, rules, seed=seed)
    seats = match.info.seats
    bots = [RandomBot(seed * 10 + s) for s in range(seats)]
    total = match.info.total_points
    for _ in range(400):
        if match.result is not None:
            break
        deal = match.next_deal()
        while not deal.is_over:
            view = deal.view(deal.turn, tuple(match.scores))
            deal.apply(bots[deal.turn].choose(view))
        before = list(match.scores)
        match.end_deal(deal)
        score = deal.score
        if score is None:
            assert match.scores == before, "a passed-out deal scores nothing"
            continue
        s = deal.state
        taken = sum(t.points for t in s.tricks)
        if score.outcome == "arret":
            assert len(s.tricks) < s.tricks_per_deal
            assert sum(score.card_points) == taken
        else:
            assert s.played == FULL_DECK, "every card is played once"
            assert len(s.tricks) == s.tricks_per_deal
            bonus = rules.get("capot_bonus", 0) if score.capot is not None else 0
            assert taken == total
            assert sum(score.card_points) == total + bonus
        assert [b + d for b, d in zip(before, score.score, strict=True)] == match.scores
        assert all(p >= 0 for p in score.score)
    assert match.result is not None, "the match ends"
    assert match.scores == [sum(h.score[t] for h in match.history) for t in range(match.info.teams)]
    result = match.result
    if result.winner is not None and "arrêt" not in result.reason:
        assert match.scores[result.winner] >= rules["target"]
    return match


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_seeded_match_under_each_shipped_pack_runs_to_its_end(engine: Engine, name: str) -> None:
    rules = load_rules(engine, name)
    match = check_match(engine, rules, seed=len(name))
    again = check_match(engine, rules, seed=len(name))
    assert again.scores == match.scores, "the same seed plays the same match"
    for deal in match.deals:
        assert deal.state.rules == rules


def test_the_pack_changes_the_match(engine: Engine) -> None:
    """Same seed, same bots: the clockwise pack deals the same pack to other seats."""
    official = Match(engine, "belote", load_rules(engine, "official"), seed=4).next_deal()
    clockwise = Match(engine, "belote", load_rules(engine, "clockwise"), seed=4).next_deal()
    assert official.state.layout.pack_order == clockwise.state.layout.pack_order
    assert official.state.layout.hands != clockwise.state.layout.hands
    assert official.turn != clockwise.turn


# --- user packs and chains ---------------------------------------------------------------------------


def test_user_dir_honours_xdg_config_home(
    config_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert user_dir() == config_home / "atout" / "variants"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_dir() == tmp_path / "home" / ".config" / "atout" / "variants"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/path")
    assert user_dir() == tmp_path / "home" / ".config" / "atout" / "variants"


def test_a_user_pack_extends_a_shipped_one_and_is_listed(engine: Engine) -> None:
    path = write_user_pack(
        "friday",
        "game: belote\ndescription: Our Friday rules.\nextends: club-v1\ntarget: 500\n",
    )
    info = {p.name: p for p in list_packs(engine)}["friday"]
    assert (info.origin, info.game, info.path) == ("user", "belote", str(path))
    assert info.usable and info.description == "Our Friday rules."
    rules = load_rules(engine, "friday")
    assert rules.pack == "friday"
    assert rules == load_rules(engine, "club-v1").replace(target=500)


def test_a_chain_of_any_depth_says_which_pack_set_each_key(engine: Engine) -> None:
    write_user_pack("a", "game: belote\ndescription: a\nextends: b\ntarget: 300\n")
    write_user_pack("b", "game: belote\ndescription: b\nextends: c\ntarget: 400\ntie: abeyance\n")
    write_user_pack("c", "game: belote\ndescription: c\nextends: clockwise\nrounding: 5\n")
    resolved = resolve(engine, "a")
    assert resolved.chain == ("a", "b", "c", "clockwise", "official")
    by_key = {s.key: s for s in resolved.settings}
    assert (by_key["target"].value, by_key["target"].set_by, by_key["target"].line) == (300, "a", 4)
    assert (by_key["tie"].value, by_key["tie"].set_by) == ("abeyance", "b")
    assert (by_key["rounding"].value, by_key["rounding"].set_by) == (5, "c")
    assert (by_key["direction"].value, by_key["direction"].set_by) == ("clockwise", "clockwise")
    assert by_key["arret"].set_by == "official"
    assert [s.key for s in resolved.settings] == list(engine.rule_options("belote"))


def test_unset_keys_keep_the_plugin_default(engine: Engine) -> None:
    write_user_pack("bare", "game: decouverte\ndescription: bare\nreveal_on_lead: true\n")
    resolved = resolve(engine, "bare")
    defaults = [s for s in resolved.settings if s.key != "reveal_on_lead"]
    assert defaults and all(s.set_by == "default" and s.line is None for s in defaults)
    assert resolved.rules == engine.default_rules("decouverte").replace(reveal_on_lead=True)


def test_a_user_pack_with_a_shipped_name_is_reported_not_preferred(engine: Engine) -> None:
    path = write_user_pack("official", "game: belote\ndescription: mine\ndirection: clockwise\n")
    listed = [p for p in list_packs(engine) if p.name == "official"]
    assert {p.origin for p in listed} == {"shipped", "user"}
    user = next(p for p in listed if p.origin == "user")
    assert not user.usable and str(path) in user.problem and "shipped" in user.problem
    resolved = resolve(engine, "official")
    assert resolved.origin == "shipped"
    assert resolved.rules == engine.default_rules("belote"), "the shipped pack wins"
    assert resolved.warnings and str(path) in resolved.warnings[0]
    assert any("shipped" in p for p in check_file(engine, path))
    # a user pack extending that name gets the shipped pack, with the warning
    write_user_pack("mine", "game: belote\ndescription: m\nextends: official\n")
    mine = resolve(engine, "mine")
    assert mine.rules.direction == "anticlockwise" and mine.warnings
    # shipped packs extending it are not concerned
    assert not resolve(engine, "clockwise").warnings


def test_a_bad_user_pack_leaves_the_others_usable(engine: Engine) -> None:
    write_user_pack("broken", "game: belote\ndescription: x\ntie: [\n")
    write_user_pack("good", "game: belote\ndescription: fine\nextends: litige\n")
    packs = {p.name: p for p in list_packs(engine)}
    assert not packs["broken"].usable and "broken.yaml" in packs["broken"].problem
    assert packs["good"].usable
    assert all(p.usable for p in packs.values() if p.origin == "shipped")
    assert load_rules(engine, "good").tie == "litige"
    with pytest.raises(PackError):
        load_rules(engine, "broken")


def test_a_user_pack_depending_on_a_bad_one_names_the_bad_file(engine: Engine) -> None:
    write_user_pack("broken", "game: belote\ndescription: x\nrounding: 99\n")
    write_user_pack("child", "game: belote\ndescription: y\nextends: broken\n")
    info = {p.name: p for p in list_packs(engine)}["child"]
    assert not info.usable
    assert "broken.yaml: line 3: rounding" in info.problem


def test_a_pack_given_by_path(engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("game: belote\ndescription: h\nextends: arret\ntarget: 700\n", "utf-8")
    rules = load_rules(engine, str(path))
    assert rules.pack == "house" and rules.arret and rules.target == 700
    assert resolve(engine, str(path)).origin == "file"
    assert check_file(engine, path) == []


def test_declarations_on_is_read_as_the_word_not_yaml_true(engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "on.yaml"
    path.write_text("game: belote\ndescription: d\ndeclarations: on\narret: yes\n", "utf-8")
    rules = load_rules(engine, str(path))
    assert rules.declarations == "on" and rules.arret is True


# --- swapping packs per match ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "pack", "key", "value"),
    [
        ("belote", "clockwise", "direction", "clockwise"),
        ("decouverte", "decouverte-exoty", "dealer_rule", "winner"),
    ],
)
def test_play_resolves_a_pack_for_both_games(
    engine: Engine, game: str, pack: str, key: str, value: object, tmp_path: Path
) -> None:
    rules = resolve_rules(engine, game, pack, None)
    assert rules.pack == pack and rules[key] == value
    with_target = resolve_rules(engine, game, pack, 300)
    assert with_target == rules.replace(target=300)
    path = tmp_path / "mine.yaml"
    path.write_text(f"game: {game}\ndescription: m\nextends: {pack}\ntarget: 600\n", "utf-8")
    from_file = resolve_rules(engine, game, str(path), None)
    assert from_file == rules.replace(target=600) and from_file.pack == "mine"
    assert resolve_rules(engine, game, None, None) == engine.default_rules(game)


def test_play_refuses_a_pack_of_the_other_game(engine: Engine) -> None:
    with pytest.raises(PackError) as err:
        resolve_rules(engine, "decouverte", "clockwise", None)
    text = str(err.value)
    assert "clockwise.yaml: line 1: game" in text
    assert "for belote, not decouverte" in text and "atout play belote --pack clockwise" in text


def test_atout_play_with_a_bad_pack_is_one_line(
    engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "belote", "--text", "--pack", "no-such-pack"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no pack named 'no-such-pack'" in err


# --- records ---------------------------------------------------------------------------------------------


def test_a_record_replays_under_its_stored_rules_after_the_pack_changed(
    engine: Engine, tmp_path: Path
) -> None:
    path = write_user_pack(
        "short", "game: belote\ndescription: s\nextends: abeyance\ntarget: 300\n"
    )
    rules = load_rules(engine, "short")
    match = check_match(engine, rules, seed=12)
    saved = save_json(tmp_path / "match.json", match_to_record(match))
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["pack"] == "short" and data["rules"]["target"] == 300
    path.write_text(
        "game: belote\ndescription: s\nextends: clockwise\ntarget: 2000\ntie: litige\n", "utf-8"
    )
    assert load_rules(engine, "short").target == 2000, "the pack did change"
    replayed = match_from_record(engine, data, str(saved))
    assert replayed.rules == rules and replayed.rules.pack == "short"
    assert replayed.scores == match.scores
    assert [d.score for d in replayed.deals] == [d.score for d in match.deals]
    path.unlink()
    assert match_from_record(engine, data, str(saved)).scores == match.scores


# --- the commands -------------------------------------------------------------------------------------------


def test_variants_list(engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    write_user_pack("friday", "game: belote\ndescription: Friday.\nextends: official\n")
    write_user_pack("oops", "game: belote\ndescription: x\ntarrget: 5\n")
    assert main(["variants", "list"]) == 0
    out = capsys.readouterr().out
    for name in SHIPPED:
        assert re.search(rf"^{re.escape(name)}\s", out, re.MULTILINE), name
    assert re.search(r"^friday\s+belote\s+user\s+Friday\.", out, re.MULTILINE)
    assert "oops (cannot be used)" in out and "did you mean target?" in out
    assert main(["variants", "list", "--game", "decouverte"]) == 0
    out = capsys.readouterr().out
    assert "decouverte-exoty" in out and "clockwise" not in out


def test_variants_show(engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "show", "decouverte-exoty"]) == 0
    out = capsys.readouterr().out
    assert "chain:       decouverte-exoty -> decouverte" in out
    assert re.search(r"^dealer_rule\s+winner\s+decouverte-exoty \(line \d+\)$", out, re.MULTILINE)
    assert re.search(r"^target\s+1000\s+decouverte \(line \d+\)$", out, re.MULTILINE)
    for key in engine.rule_options("decouverte"):
        assert re.search(rf"^{key}\s", out, re.MULTILINE)
    assert main(["variants", "show", "nope"]) == 1
    assert "no pack named 'nope'" in capsys.readouterr().err


def test_variants_check(engine: Engine, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("game: belote\ndescription: g\nextends: official\n", "utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: belote\ndescription: b\ntie: draw\nrounding: -1\n", "utf-8")
    assert main(["variants", "check", str(good)]) == 0
    assert f"{good}: ok" in capsys.readouterr().out
    assert main(["variants", "check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: line 3: tie: must be one of" in out
    assert f"{bad}: line 4: rounding: must be at least 0" in out
    assert "1 of 2 packs are valid" in out
    shipped = sorted(str(p) for p in (ROOT / "variants").glob("*.yaml"))
    assert main(["variants", "check", *shipped]) == 0


def test_variants_options_prints_the_docs_table(
    shipped_engine: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["variants", "options", "belote"]) == 0
    assert "| `direction` | choice | `anticlockwise` |" in capsys.readouterr().out
    docs = DOCS.read_text(encoding="utf-8")
    for game in ("belote", "decouverte", "coinche", "coinche-decouverte"):
        out = io.StringIO()
        assert options_command(shipped_engine, game, out) == 0
        assert out.getvalue().strip() in docs, f"docs/packs.md lags for {game}"


# --- docs/packs.md and the code agree ------------------------------------------------------------------------


def docs_table(marker: str) -> list[list[str]]:
    """The rows of the Markdown table that follows ``<!-- marker -->`` in docs/packs.md."""
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- {marker} -->") + 3
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        rows.append([c.strip("`") for c in cells])
    return rows


@pytest.mark.parametrize("game", ["belote", "decouverte", "coinche", "coinche-decouverte"])
def test_the_docs_schema_agrees_with_the_code(shipped_engine: Engine, game: str) -> None:
    rows = docs_table(f"options: {game}")
    options = shipped_engine.rule_options(game)
    assert [r[0] for r in rows] == list(options), "same keys, same order"
    for key, kind, default, allowed, *_ in rows:
        option = options[key]
        assert kind == option.kind, key
        assert default == yaml_text(option.default), key
        assert allowed == allowed_text(option), key
        if option.kind == "choice":
            assert option.default in option.choices


def test_the_docs_list_every_shipped_pack(engine: Engine) -> None:
    rows = docs_table("shipped packs")
    assert {r[0] for r in rows} == set(SHIPPED)
    for name, game, *_ in rows:
        assert game == SHIPPED[name][0]
