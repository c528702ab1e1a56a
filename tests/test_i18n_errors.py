"""Nothing a person reads is left in English: the errors of bad input (a pack, a seed, a
record), the command line's own words (argparse's ``usage:``, ``error:``), in the chosen
language; the file and key names as they are written, and ``str(exc)`` still English
(logs, records and the protocol stay language-free)."""

from __future__ import annotations

from pathlib import Path

import pytest
from atout.core.errors import PackError
from atout.core.limits import LimitError
from atout.core.limits import check_seed
from atout.core.packs import load_rules
from atout.ui import i18n
from atout.ui.cli import main
from atout.ui.messages import shown_error
from helpers import shipped_engine


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``atout ARGV``: its exit code, its output and its error output."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_argparses_usage_and_options_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    """``atout --lang fr play --help``: argparse's own words in French, the options'
    help too."""
    code, out, _ = run(["--lang", "fr", "play", "--help"], capsys)
    assert code == 0
    assert out.startswith("utilisation : atout play ")
    assert "\noptions:\n" in out
    assert "afficher ce message d'aide et quitter" in out
    assert "usage:" not in out and "show this help" not in out


def test_a_bad_seed_on_the_command_line_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    """A seed out of the limits, with ``--lang de`` after it: one German line, the option
    named as it is typed."""
    code, _, err = run(["play", "--text", "--seed", "12x", "--lang", "de"], capsys)
    assert code == 2
    assert err.startswith("Aufruf: atout play ")
    last = err.strip().splitlines()[-1]
    assert (
        last
        == "atout play: Fehler: Argument --seed: ein Startwert ist eine ganze Zahl, nicht '12x'"
    )
    code, _, err = run(["--lang=de", "play", "--seed", str(10**19)], capsys)
    assert code == 2
    assert "ein Startwert ist eine ganze Zahl von 0 bis 999999999999999999" in err


def test_a_missing_argument_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse's complaint (the following arguments are required) in French."""
    code, _, err = run(["--lang", "fr", "variants"], capsys)
    assert code == 2
    assert "atout variants : erreur : les arguments suivants sont obligatoires : ACTION" in err


def test_a_limit_error_stays_english_as_a_string() -> None:
    """``str(exc)`` is the English sentence (logs, protocol); shown, it is French."""
    with pytest.raises(LimitError) as info:
        check_seed(-1)
    english = "a seed is a whole number from 0 to 999999999999999999 (at most 18 digits)"
    assert str(info.value) == english
    try:
        i18n.set_language("fr")
        assert shown_error(info.value) == (
            "une graine est un nombre entier de 0 à 999999999999999999 (18 chiffres au plus)"
        )
    finally:
        i18n.set_language("en")
    assert shown_error(info.value) == english


def test_a_bad_packs_error_in_french_names_the_file_and_the_key_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pack with a misspelt key and a bad value: the command's one line is French, the
    file, the keys and the values as the pack writes them; the error's text is English."""
    pack = tmp_path / "ma-règle.yaml"
    pack.write_text("game: belote\ndescription: x\ndirektion: clockwise\ntarget: abc\n")
    code, _, err = run(["--lang", "fr", "play", "belote", "--text", "--pack", str(pack)], capsys)
    assert code == 1
    assert err == (
        f"atout: {pack} : ligne 3 : direktion : option inconnue pour belote ; vouliez-vous "
        "dire direction ? (atout variants options belote les liste) (et 1 autre problème : "
        "atout variants check les liste)\n"
    )
    engine = shipped_engine()
    with pytest.raises(PackError) as info:
        load_rules(engine, str(pack), "belote")
    assert str(info.value).startswith(f"{pack}: line 3: direktion: unknown option for belote;")
    code, out, _ = run(["--lang", "de", "variants", "check", str(pack)], capsys)
    assert code == 1
    assert f"{pack}: Zeile 4: target: muss eine ganze Zahl sein, nicht 'abc'" in out


def test_an_unknown_pack_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    """A pack name nothing provides: German, the name as typed and the packs' names."""
    code, _, err = run(["--lang", "de", "play", "--text", "--pack", "offical"], capsys)
    assert code == 1
    assert err.startswith("atout: kein Paket namens 'offical'; meinten Sie official? (die Pakete: ")


def test_a_bad_record_in_french_and_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``atout replay`` of a file that is no record: the file and the key as written,
    the rest in the language."""
    listing = tmp_path / "liste.json"
    listing.write_text("[1, 2]\n")
    code, _, err = run(["--lang", "fr", "replay", str(listing)], capsys)
    assert code == 1
    assert err == f"atout: {listing} : un enregistrement est un objet JSON, pas une liste\n"
    other = tmp_path / "autre.json"
    other.write_text('{"format": "nope"}\n')
    code, _, err = run(["--lang", "de", "replay", str(other)], capsys)
    assert code == 1
    assert err == (
        f"atout: {other}: format: 'atout-deal' oder 'atout-match' erwartet, 'nope' gefunden\n"
    )
    by_hand = tmp_path / "position.json"
    by_hand.write_text(
        '{"format": "atout-deal", "version": 1, "game": "belote", "rules": {}, "dealer": 7}\n'
    )
    code, _, err = run(["--lang", "fr", "replay", str(by_hand)], capsys)
    assert code == 1
    assert err == f"atout: {by_hand} : dealer : une place est un nombre de 0 à 3, pas 7\n"


def test_an_unknown_bot_and_a_missing_plugin_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["--lang", "de", "play", "--text", "--bot", "genius"], capsys)
    assert code == 1
    assert err.startswith("atout: unbekannter Bot 'genius' für decouverte; die Bots: ")
    assert "expert, greedy, random" in err
    missing = tmp_path / "keine.py"
    code, _, err = run(["--lang", "fr", "play", "--text", "--plugin", str(missing)], capsys)
    assert code == 1
    assert err == f"atout: --plugin {missing} : fichier introuvable\n"
