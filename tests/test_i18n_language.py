"""Which language a start shows: ``--lang``, the start view's remembered choice, then the
environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from atout.ui import i18n
from atout.ui.cli import main


def test_the_command_line_comes_first() -> None:
    chosen = i18n.choose_language("de", {"language": "fr"}, {"LANG": "fr_FR.UTF-8"})
    assert chosen == "de"


def test_then_the_start_views_remembered_choice() -> None:
    assert i18n.choose_language(None, {"language": "fr"}, {"LANG": "de_DE.UTF-8"}) == "fr"


def test_then_the_first_non_empty_variable_of_the_environment() -> None:
    environ = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "de_AT.UTF-8", "LANG": "fr_FR"}
    assert i18n.choose_language(None, {}, environ) == "de"
    assert i18n.choose_language(None, {}, {"LANGUAGE": "fr:de", "LANG": "de_DE"}) == "fr"
    assert i18n.choose_language(None, {"language": 3}, {"LANG": "fr_FR.UTF-8"}) == "fr"


@pytest.mark.parametrize("value", ["it_IT.UTF-8", "C", "POSIX", "C.UTF-8"])
def test_a_language_atout_does_not_speak_is_english(value: str) -> None:
    assert i18n.choose_language(None, {}, {"LANG": value, "LC_ALL": ""}) == "en"


def test_nothing_said_is_english() -> None:
    assert i18n.choose_language(None, {}, {}) == "en"


def test_an_unknown_code_shows_english() -> None:
    try:
        assert i18n.set_language("xx") == "en"
        assert i18n._("Your bid") == "Your bid"
    finally:
        i18n.set_language("en")


def test_play_refuses_a_language_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--lang", "it", "--text"])
    assert "--lang" in capsys.readouterr().err


class _Stop(Exception):
    """Ends ``atout play`` once it has chosen its language."""


def test_play_chooses_the_language_before_the_game_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``atout play --lang de``: the language is German from before the rules are read
    (all the game says after is in German)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    seen: list[str] = []

    def resolve(*args: object, **kwargs: object) -> None:
        seen.append(i18n.language())
        raise _Stop

    monkeypatch.setattr("atout.ui.commands.play.resolve_rules", resolve)
    try:
        with contextlib.suppress(_Stop):
            main(["play", "decouverte", "--text", "--lang", "de"])
    finally:
        i18n.set_language("en")
    assert seen == ["de"]


def test_every_command_speaks_the_environments_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not only ``play``: any command chooses its language from the kept choice and the
    environment before it starts."""
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    try:
        main(["variants", "list"])
        assert i18n.language() == "de"
    finally:
        i18n.set_language("en")
    capsys.readouterr()
