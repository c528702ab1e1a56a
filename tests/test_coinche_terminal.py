"""La Coinche in the terminal: bids typed as players write them (``90H``, ``capot S``,
``coinche``, ``surcoinche``), said back as players say them, in English, French and
German, from the engine's description of each bid (no line of the game in ui/)."""

from __future__ import annotations

import io
import random

import pytest
from atout.core import Engine
from atout.core.records import match_from_record
from atout.core.records import match_to_record
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.ui import i18n
from atout.ui.cards_text import HUMAN
from atout.ui.terminal import TerminalGame

SUIT_WORDS = {
    "C": ("C", "♣", "clubs"),
    "D": ("d", "♦", "diamonds"),
    "H": ("H", "♥", "hearts"),
    "S": ("s", "♠", "spades"),
}
STRAIN_WORDS = {"sans-atout": ("SA", "sa", "sans atout"), "tout-atout": ("TA", "tout atout")}


def typed(bid: str, rng: random.Random) -> str:
    """A way a person may type ``bid``: ``90H``, ``90 ♥``, ``capot hearts``, ``80 SA``,
    ``coinche`` for contre, ``surcoinche`` for surcontre."""
    if bid == "contre":
        return rng.choice(["contre", "coinche", "Coinche"])
    if bid == "surcontre":
        return rng.choice(["surcontre", "surcoinche"])
    if bid == "pass":
        return "pass"
    value, strain = bid.split()
    words = SUIT_WORDS.get(strain) or STRAIN_WORDS[strain]
    return rng.choice([f"{value}{w}" for w in words] + [f"{value} {w}" for w in words])


class TypingPerson(io.StringIO):
    """Answers each prompt with a random legal action, a bid typed as a person types it;
    bids a contract more often than it passes, doubles when it may."""

    def __init__(self, holder: list[TerminalGame], seed: int) -> None:
        super().__init__()
        self.holder = holder
        self.rng = random.Random(seed)
        self.typed: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        view = self.holder[0].session.view(HUMAN)
        if view.phase == "bidding":
            bids = list(view.legal_bids)
            doubles = [b for b in bids if b in ("contre", "surcontre")]
            if doubles and self.rng.random() < 0.6:
                bid = doubles[0]
            elif len(bids) > 3 and self.rng.random() < 0.5:
                bid = bids[self.rng.randrange(min(8, len(bids) - 1))]
            else:
                bid = "pass"
            text = typed(bid, self.rng)
            self.typed.append(text)
            return text + "\n"
        return str(self.rng.choice(view.legal_actions())) + "\n"


def play(
    engine: Engine, game: str, seed: int, language: str = "en"
) -> tuple[TerminalGame, str, TypingPerson]:
    i18n.set_language(language)
    rules = engine.make_rules(game, {"target": 3000, "sans_tout_atout": "both"})
    seats = engine.game(game).seats
    players = [Player(PERSON)] + [Player(BOT, "", "random")] * (seats - 1)
    session = Session(engine, game, rules, players=players, seed=seed)
    out = io.StringIO()
    holder: list[TerminalGame] = []
    person = TypingPerson(holder, seed)
    holder.append(TerminalGame(session, person, out))
    holder[0].run()
    return holder[0], out.getvalue(), person


@pytest.mark.parametrize("game", ["coinche", "coinche-decouverte"])
def test_a_whole_coinche_match_is_played_with_bids_typed_as_players_write_them(
    engine: Engine, game: str
) -> None:
    terminal, text, person = play(engine, game, 4)
    session = terminal.session
    assert session.result is not None, "the match ends"
    assert "Not a bid now" not in text, "every typed form was understood"
    assert any(t.lower() in ("coinche", "contre") for t in person.typed)
    assert any(" " not in t and t[0].isdigit() for t in person.typed), "90H, no space"
    assert "You bid " in text and "You say contre." in text
    assert "doubled (contre)" in text, "a doubled contract is said so"
    assert "80-160 / capot + C D H S SA TA, e.g. 90C" in text, "the prompt sums the bids up"
    # The match record keeps the bids as the game writes them, and replays.
    record = match_to_record(session.match)
    again = match_from_record(engine, record)
    assert [d.state.bids for d in again.deals] == [d.state.bids for d in session.match.deals]
    assert again.scores == session.match.scores


@pytest.mark.parametrize(
    ("language", "double", "bid"),
    [
        ("fr", "Vous dites contre.", "Vous annoncez "),
        ("de", "Du sagst Contre.", "Du reizt "),
    ],
)
def test_bids_are_said_back_in_french_and_german(
    engine: Engine, language: str, double: str, bid: str
) -> None:
    terminal, text, _person = play(engine, "coinche", 4, language)
    assert terminal.session.result is not None
    refused = i18n._("  Not a bid now: {text}. The bids are: {bids}").split("{text}")[0]
    assert refused not in text, "English suit names are understood in every language"
    assert double in text
    assert bid in text


def test_two_terminal_clients_play_decouverte_coinche_over_the_network() -> None:
    from atout.ui.net.client import Client
    from atout.ui.net.client import create_table
    from atout.ui.net.runner import ServerThread
    from atout.ui.net.server import TableServer
    from test_net_play import play_everyone

    engine = Engine()
    thread = ServerThread(TableServer(engine, None, grace=0.3)).start()
    try:
        url = f"ws://127.0.0.1:{thread.port}"
        host = Client(url).start()
        made = create_table(host, engine.make_rules("coinche-decouverte", {"target": 800}), seed=2)
        host.close()
        results = play_everyone(url, made, 2)
        session = thread.server.tables[made["table"]].session
    finally:
        thread.stop()
    assert session.result is not None
    contracts = [d.state.contract for d in session.match.deals if d.state.contract is not None]
    assert contracts and all(c.value is not None for c in contracts)
    for table, text, _person in results:
        assert table.scores == session.scores
        # The clients' views carry the contract's level (and value): said back whole.
        said = [line for line in text.splitlines() if "Contract: " in line]
        level = {1: "", 2: ", doubled (contre)", 4: ", redoubled (surcontre)"}
        assert said and level[contracts[-1].level] in said[-1], said[-1]
        assert str(contracts[-1].value) in said[-1] or "capot" in said[-1]


def test_the_prompt_and_the_contract_are_said_in_german_words(engine: Engine) -> None:
    """A prompt of a few bids names surcontre as German players say it, and the taker
    of an auction by values announces a contract (not "Trumpf ist 130 Tout Atout")."""
    terminal, text, _person = play(engine, "coinche", 4, "de")
    assert terminal.session.result is not None
    assert "Dein Gebot (Surcontre / passen)" in text
    assert "(surcontre / passen)" not in text
    assert "Trumpf ist" not in text
    assert "Kontrakt für West: 130 Tout Atout, rekontriert (Surcontre)." in text
