"""A capot reads "capot" wherever a contract is said, in the language, never its worth in
points (250): from the engine's description of the bid that made it, or, when the
auction is not known (a position written by hand with its contract), of the opening bid
of the same value and strain."""

from __future__ import annotations

import dataclasses
import io

import pytest
from atout.core import Contract
from atout.core import Engine
from atout.core import View
from atout.core.session import Session
from atout.ui import i18n
from atout.ui.terminal import TerminalGame
from atout.ui.terminal_text import contract_words

GAME = "coinche"


def written_by_hand(engine: Engine, contract: Contract) -> tuple[Session, View]:
    """A Coinche session, and its first view with ``contract`` set and no auction (as a
    position written by hand gives it)."""
    session = Session(engine, GAME, engine.make_rules(GAME, {}), seed=3)
    session.next_deal()
    return session, dataclasses.replace(session.view(0), bids=(), contract=contract)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "capot ♠ spades, doubled (contre)"),
        ("fr", "capot ♠ pique"),
        ("de", "Capot ♠ Pik"),
    ],
)
def test_the_terminal_says_a_capot_contract_without_its_auction_as_capot(
    engine: Engine, language: str, said: str
) -> None:
    session, view = written_by_hand(engine, Contract(1, 3, "S", 250, 2))
    terminal = TerminalGame(session, io.StringIO(), io.StringIO())
    i18n.set_language(language)
    try:
        assert view.contract is not None
        words = contract_words(view.contract, False, terminal.contract_bid(view))
    finally:
        i18n.set_language("en")
    assert said in words and "250" not in words


def test_a_valued_contract_without_its_auction_keeps_its_value(engine: Engine) -> None:
    """Any other value is said as it is bid (``90 ♥ hearts``)."""
    session, view = written_by_hand(engine, Contract(1, 2, "H", 90, 1))
    terminal = TerminalGame(session, io.StringIO(), io.StringIO())
    assert view.contract is not None
    assert contract_words(view.contract, False, terminal.contract_bid(view)) == "90 ♥ hearts"
