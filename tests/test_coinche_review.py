"""La Coinche's review in words: ``atout review`` of a saved Coinche record names every
bid as the table says it ("capot ♠", "Contre", "Passen"), in English, French and
German, never as the record writes it ("capot S"); the step list's chips say a bid as
its button does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core.records import deal_to_record
from atout.plugins.review import EXACT
from atout.plugins.review import Decision
from atout.ui import i18n
from atout.ui.cli import main

GAME = "coinche"
BIDS = ("capot S", "contre", "pass", "pass", "pass")
"""South bids a capot in spades, East doubles it, everybody passes."""


def coinche_record(engine: Engine) -> dict[str, object]:
    """A whole Coinche deal under a doubled capot in spades, played out by greedy bots."""
    rules = engine.make_rules(GAME, {})
    deal = Match(engine, GAME, rules, seed=2).next_deal()
    for bid in BIDS:
        deal.bid(bid)
    bots = [engine.bot("greedy", GAME, rules, seed=s) for s in range(4)]
    while not deal.is_over:
        deal.apply(bots[deal.turn].choose(deal.view(deal.turn)))
    contract = deal.state.contract
    assert contract is not None and (contract.taker, contract.level) == (0, 2)
    return deal_to_record(deal, seed=2)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ["South bid capot ♠", "East bid Contre", "North bid Pass"]),
        ("fr", ["Sud, enchère : capot ♠", "Est, enchère : Contre", "Nord, enchère : Je passe"]),
        ("de", ["Süd, Gebot: Capot ♠", "Ost, Gebot: Contre", "Nord, Gebot: Passen"]),
    ],
)
def test_atout_review_of_a_coinche_record_says_the_bids_in_words_in_each_language(
    engine: Engine,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    language: str,
    said: list[str],
) -> None:
    path = tmp_path / "coinche.json"
    path.write_text(json.dumps(coinche_record(engine)), encoding="utf-8")
    code = main(["--lang", language, "review", str(path), "--samples", "1", "--seat", "all"])
    out = capsys.readouterr().out
    assert code == 0
    bidding = [line.strip() for line in out.splitlines() if line.startswith("  #")][:3]
    for line, words in zip(bidding, said, strict=True):
        assert words in line, f"{line!r} does not say {words!r}"
    for raw in ("capot S", "bid contre", "bid pass"):
        assert raw not in out
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_bid_chip_says_the_bid_as_its_button_does(engine: Engine, language: str) -> None:
    """The step list's chip of a Coinche bid, given the engine's description of it: the
    value and the strain's sign, capot in the language, contre and surcontre in words."""
    from atout.ui.window.review_graph import chip_text

    rules = engine.make_rules(GAME, {})
    expected = {
        "en": ["90 ♥", "capot ♠", "Contre", "Surcontre"],
        "fr": ["90 ♥", "capot ♠", "Contre", "Surcontre"],
        "de": ["90 ♥", "Capot ♠", "Contre", "Surcontre"],
    }[language]
    i18n.set_language(language)
    try:
        chips = [
            chip_text(
                Decision(1, 1, 0, "bidding", 1, bid, (), EXACT),
                engine.describe_bid(GAME, rules, bid),
            )
            for bid in ("90 H", "capot S", "contre", "surcontre")
        ]
    finally:
        i18n.set_language("en")
    assert chips == expected


def test_a_bid_chip_written_compact_keeps_to_a_cards_width(engine: Engine) -> None:
    """Short of room (the panel told briefly), a chip says a bid in a card's few signs:
    the value and the strain's symbol, ``cap`` for capot, and the multiplier the side
    bar writes for a contre and a surcontre."""
    from atout.ui.window.review_graph import chip_text

    rules = engine.make_rules(GAME, {})
    chips = [
        chip_text(
            Decision(1, 1, 0, "bidding", 1, bid, (), EXACT),
            engine.describe_bid(GAME, rules, bid),
            compact=True,
        )
        for bid in ("90 H", "capot S", "contre", "surcontre")
    ]
    assert chips == ["90♥", "cap♠", "×2", "×4"]
