"""La Coinche's texts in French and German: the games' titles and descriptions, the
options and their choices, why a card is refused under tout atout, and a deal's notes
(dedans, contrée, surcontrée, a capot not made), each marked by the plugin and said by
the front end in the language (docs/translating.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from atout.core import Contract
from atout.core import Engine
from atout.core import parse_card
from atout.core.text import Message
from atout.ui import i18n
from atout.ui.messages import shown
from atout.ui.rules_text import rules_text
from test_coinche_rules import hearts
from test_coinche_rules import position
from test_coinche_rules import score

GAMES = ("coinche", "coinche-decouverte")


@pytest.fixture
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


@pytest.fixture
def german() -> Iterator[None]:
    i18n.set_language("de")
    yield
    i18n.set_language("en")


def test_the_games_are_described_in_french(engine: Engine, french: None) -> None:
    four = engine.games["coinche"]
    assert shown(four.description).startswith("La belote contrée à quatre\u00a0: des enchères")
    two = engine.games["coinche-decouverte"]
    assert shown(two.title) == "Coinche Découverte"
    assert "piles de la Découverte" in shown(two.description)


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_in_force_name_each_coinche_option_and_value_in_german(
    engine: Engine, german: None, game: str
) -> None:
    """The rules' last page names the auction's options and their values in German (the
    plugin's titles), never the pack file's keys and values."""
    rules = engine.make_rules(game, {"sans_tout_atout": "both", "tie": "litige"})
    words = " ".join(rules_text(rules, engine).split())
    for german_words in (
        "Sans Atout, Tout Atout: Beide",
        "Bieten nach Contre: nein",
        "Wertung: Kontrakt und gemachte Punkte",
        "Capot-Punkte: 250",
        "Gleichstand: Litige",
    ):
        assert german_words in words, german_words
    for english in ("made-points", "Bid after", "Capot points", "Sans tout atout", "Scoring"):
        assert english not in words, english


def test_the_deal_packets_are_named_in_french(engine: Engine, french: None) -> None:
    words = " ".join(
        rules_text(engine.make_rules("coinche", {"deal_packets": "4-4"}), engine).split()
    )
    assert "4 puis 4" in words and "4-4" not in words


def test_a_card_refused_under_tout_atout_is_told_in_french(engine: Engine, french: None) -> None:
    ta = Contract(0, None, "tout-atout", 90)
    deal = position(engine, ta, ["", "", "9H 7H AS", ""], trick="AH 8H")
    under = deal.explain(parse_card("7H"))
    assert isinstance(under, Message)
    assert shown(under) == "vous devez monter sur l'as de cœur (tout atout)"
    off_suit = deal.explain(parse_card("AS"))
    assert isinstance(off_suit, Message) and shown(off_suit) == "vous devez fournir à cœur"


def test_a_deal_s_notes_are_told_in_french_and_german(engine: Engine) -> None:
    fallen = score(engine, hearts(130), (120, 42))
    doubled = score(engine, hearts(100, 2), (110, 52))
    redoubled = score(engine, hearts(100, 4), (110, 52))
    capot = score(engine, Contract(0, 2, "H", 250), (152, 10))
    notes = [*fallen.notes, *doubled.notes, *redoubled.notes, *capot.notes]
    assert notes[0] == "the takers made 120 of the 130 they bid: dedans"
    try:
        i18n.set_language("fr")
        assert [shown(n) for n in notes] == [
            "les preneurs ont fait 120 des 130 annoncés\u00a0: dedans",
            "contrée",
            "surcontrée",
            "le capot annoncé n'est pas fait",
        ]
        i18n.set_language("de")
        assert [shown(n) for n in notes] == [
            "die Nehmer haben 120 der gebotenen 130 erreicht: dedans",
            "mit Contre",
            "mit Surcontre",
            "der Capot-Kontrakt ist nicht erfüllt",
        ]
    finally:
        i18n.set_language("en")
