"""``atout plugins``: which plugins a run loads, where each comes from, and its hooks."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from atout.ui.cli import main

EXAMPLE_DIST = "atout-sans-tout-atout"
EXAMPLE_PLUGIN = "sans-tout-atout"


def listing(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["plugins", "--json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def by_name(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in data["plugins"]}


def hooks_of(module: ModuleType) -> list[str]:
    """The hook implementations a module defines, found by pluggy's marker attribute."""
    return sorted(
        n
        for n in dir(module)
        if n.startswith("atout_") and hasattr(getattr(module, n), "atout_impl")
    )


def shipped_entry_points() -> list[importlib.metadata.EntryPoint]:
    dist = importlib.metadata.distribution("atout")
    return [ep for ep in dist.entry_points if ep.group == "atout.plugins"]


@pytest.fixture(autouse=True)
def no_blocking_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ATOUT_DISABLE_PLUGINS", raising=False)


def test_every_shipped_plugin_is_listed_as_shipped_with_its_hooks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    plugins = by_name(listing(capsys))
    version = importlib.metadata.version("atout")
    eps = shipped_entry_points()
    assert {"belote", "decouverte", "bots"} <= {ep.name for ep in eps}
    for ep in eps:
        entry = plugins[ep.name]
        module = importlib.import_module(ep.value)
        assert (entry["origin"], entry["distribution"], entry["version"]) == (
            "shipped",
            "atout",
            version,
        )
        assert entry["location"] == ep.value
        assert entry["hooks"] == hooks_of(module)
    assert plugins["belote"]["games"] == ["belote"]
    assert plugins["decouverte"]["games"] == ["decouverte"]
    bots = importlib.import_module("atout.plugins.bots").atout_bots()
    assert plugins["bots"]["bots"] == [b.name for b in bots]


def test_shipped_plugins_come_first_in_the_listing(capsys: pytest.CaptureFixture[str]) -> None:
    names = [p["name"] for p in listing(capsys)["plugins"]]
    shipped = {ep.name for ep in shipped_entry_points()}
    assert set(names[: len(shipped)]) == shipped


def test_the_text_listing_names_origin_version_games_and_hooks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["plugins"]) == 0
    text = capsys.readouterr().out
    version = importlib.metadata.version("atout")
    assert f"  belote: shipped (atout {version}), atout.plugins.belote\n    games: belote\n" in text
    hooks_line = text.split("  decouverte:")[1].split("hooks: ")[1]
    assert hooks_line.startswith("atout_bid_options, atout_bidding_step, atout_card_played,")
    assert all(len(line) <= 100 for line in text.splitlines())


def test_disable_plugin_and_the_environment_block_plugins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = listing(capsys, "--disable-plugin", "decouverte")
    assert "decouverte" not in by_name(data)
    assert data["blocked"] == ["decouverte"]
    monkeypatch.setenv("ATOUT_DISABLE_PLUGINS", "bots, belote")
    data = listing(capsys)
    assert {"belote", "bots"}.isdisjoint(by_name(data))
    assert sorted(data["blocked"]) == ["belote", "bots"]
    assert main(["plugins"]) == 0
    assert "blocked (--disable-plugin or ATOUT_DISABLE_PLUGINS): belote, bots" in (
        capsys.readouterr().out
    )


def test_a_plugin_given_for_the_run_is_listed_with_its_path_and_wrappers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rounding.py"
    path.write_text(
        "from atout.core import hookimpl\n"
        "@hookimpl(wrapper=True)\n"
        "def atout_score_deal(game, rules, state):\n"
        "    return (yield)\n"
        "@hookimpl\n"
        "def atout_rule_options(game):\n"
        "    return None\n",
        encoding="utf-8",
    )
    data = listing(capsys, "--plugin", str(path))
    entry = data["plugins"][-1]
    assert entry["name"] == "rounding"
    assert (entry["origin"], entry["location"]) == ("--plugin", str(path))
    assert entry["hooks"] == ["atout_rule_options", "atout_score_deal"]
    assert entry["wrappers"] == ["atout_score_deal"]
    assert main(["plugins", "--plugin", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"  rounding: --plugin, {path}\n" in text
    assert "hooks: atout_rule_options, atout_score_deal (wrapper)" in text


def test_the_example_plugin_is_listed_from_its_own_distribution(
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:
        version = importlib.metadata.version(EXAMPLE_DIST)
    except importlib.metadata.PackageNotFoundError:
        pytest.fail(
            f"{EXAMPLE_DIST} is not installed: pip install -e examples/atout-sans-tout-atout "
            "(python3 ui/scripts/bootstrap.py test installs it)"
        )
    entry = by_name(listing(capsys))[EXAMPLE_PLUGIN]
    module = importlib.import_module("atout_sans_tout_atout.plugin")
    assert (entry["origin"], entry["distribution"], entry["version"]) == (
        "entry point",
        EXAMPLE_DIST,
        version,
    )
    assert entry["location"] == "atout_sans_tout_atout.plugin"
    assert entry["hooks"] == hooks_of(module)
    assert entry["wrappers"] == ["atout_bid_options"]
    assert entry["games"] == [] and entry["bots"] == []
    assert main(["plugins"]) == 0
    text = capsys.readouterr().out
    assert (
        f"  {EXAMPLE_PLUGIN}: entry point ({EXAMPLE_DIST} {version}), atout_sans_tout_atout.plugin"
        in text
    )
    assert "atout_bid_options (wrapper)" in text
    blocked = listing(capsys, "--disable-plugin", EXAMPLE_PLUGIN)
    assert EXAMPLE_PLUGIN not in by_name(blocked)
