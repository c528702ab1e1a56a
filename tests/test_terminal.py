"""The terminal game, driven through its text input like a person would."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from atout.core import Action
from atout.core import Engine
from atout.core import Rules
from atout.core import card_str
from atout.core.records import match_from_record
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.ui.cards_text import HUMAN
from atout.ui.terminal import TerminalGame
from atout.ui.terminal import help_text
from atout.ui.terminal_match import play_match


class ScriptedPerson(io.StringIO):
    """Answers each prompt with a random legal action, sometimes after a wrong one."""

    def __init__(self, game: list[TerminalGame], seed: int) -> None:
        super().__init__()
        self.game = game
        self.rng = random.Random(seed)
        self.mistakes = 0

    def readline(self, size: int | None = -1) -> str:
        view = self.game[0].session.view(HUMAN)
        if view.phase == "play" and self.rng.random() < 0.2:
            wrong = [c for c in range(32) if view.hand >> c & 1 and not view.legal >> c & 1]
            if wrong:
                self.mistakes += 1
                return card_str(self.rng.choice(wrong)) + "\n"
        action = self.rng.choice(view.legal_actions())
        return str(action) + "\n"


def random_bots_session(
    engine: Engine, game: str, seed: int, rules: Rules | None = None
) -> Session:
    """A person at seat 0, random bots elsewhere."""
    seats = engine.game(game).seats
    players = [Player(PERSON)] + [Player(BOT, "", "random")] * (seats - 1)
    return Session(engine, game, rules, players=players, seed=seed)


def run_match(
    engine: Engine, game: str, seed: int, rules: Rules | None = None
) -> tuple[TerminalGame, str, ScriptedPerson]:
    out = io.StringIO()
    holder: list[TerminalGame] = []
    person = ScriptedPerson(holder, seed)
    holder.append(TerminalGame(random_bots_session(engine, game, seed, rules), person, out))
    holder[0].run()
    return holder[0], out.getvalue(), person


def test_a_whole_four_player_match_is_played_through_the_text_input(engine: Engine) -> None:
    game, text, person = run_match(engine, "belote", 11)
    assert game.session.result is not None
    assert "Your card (legal:" in text
    assert "the trick (" in text
    assert "End of the deal" in text
    assert person.mistakes > 0
    assert "You cannot play" in text


def test_an_illegal_card_is_refused_with_the_rule_that_forbids_it(engine: Engine) -> None:
    _, text, _ = run_match(engine, "belote", 5)
    refusals = [line for line in text.splitlines() if "You cannot play" in line]
    assert refusals
    assert all("must" in line for line in refusals)


def test_quitting_saves_a_match_record_that_replays(engine: Engine, tmp_path) -> None:
    out = io.StringIO()
    inp = io.StringIO("pass\npass\nquit\n")
    path = tmp_path / "m.json"
    play_match(
        engine,
        "belote",
        engine.default_rules("belote"),
        bot="random",
        seed=4,
        save=str(path),
        inp=inp,
        out=out,
    )
    assert f"saved in {path}" in out.getvalue()
    data = json.loads(path.read_text())
    match = match_from_record(engine, data, str(path))
    assert match.seed == 4
    assert [b for _, b in match.deals[0].state.bids][:1] == ["pass"]


def test_with_l_arret_the_running_match_score_is_not_shown(engine: Engine) -> None:
    rules = engine.make_rules("belote", {"arret": True, "target": 300})
    _, text, _ = run_match(engine, "belote", 3, rules)
    assert "End of the deal" in text
    assert "  Match: " not in text
    assert "keep count of the match score yourself" in text


def test_without_l_arret_the_running_match_score_is_shown(engine: Engine) -> None:
    _, text, _ = run_match(engine, "belote", 3)
    assert "  Match: " in text


def test_a_decouverte_match_shows_both_players_piles_and_the_turned_cards(engine: Engine) -> None:
    _, text, _ = run_match(engine, "decouverte", 8)
    assert "North  far :" in text and "You    near:" in text
    assert "face-down card is turned" in text
    assert "Your face-down card is turned" in text and "You's" not in text
    # a face-down card whose cover was just led is shown, and the legend says what it is
    waiting = [i for i, line in enumerate(text.splitlines()) if "[▒▒  ]" in line]
    assert waiting
    assert "(▒▒: a face-down card whose cover was just played, turned after the trick)" in text
    assert "Proposed trump:" in text
    assert "End of the deal" in text


def test_an_empty_line_shows_the_table_again_without_a_complaint(
    engine: Engine, tmp_path: Path
) -> None:
    out = io.StringIO()
    play_match(
        engine,
        "decouverte",
        engine.default_rules("decouverte"),
        bot="random",
        seed=3,
        save=str(tmp_path / "m.json"),
        inp=io.StringIO("take\n\nquit\n"),
        out=out,
    )
    text = out.getvalue()
    assert "not a card" not in text
    assert text.count("Your card (legal:") == 2


def test_the_narration_agrees_with_you_and_with_one_card(engine: Engine) -> None:
    _, text, _ = run_match(engine, "belote", 5)
    assert "East 1 card," in text and " 1 cards" not in text
    assert ": You deal ===" in text and "You deals" not in text
    assert "You pass." in text and "North passes." in text and "passs" not in text


def test_help_explains_the_input_and_the_rules_without_markup(engine: Engine) -> None:
    out = io.StringIO()
    session = random_bots_session(engine, "decouverte", 2)
    TerminalGame(session, io.StringIO("help\nquit\n"), out).run()
    text = out.getvalue()
    assert help_text() in text
    assert ":class:" not in text and "``" not in text
    assert "must follow suit" in text and "face-down" in text


def test_round_two_says_the_letters_name_a_trump(engine: Engine) -> None:
    out = io.StringIO()
    session = random_bots_session(engine, "decouverte", 5)
    game = TerminalGame(session, io.StringIO(""), out)
    session.next_deal()
    deal = session.deal
    assert deal is not None
    while deal.state.phase == "bidding" and deal.state.bidding_round == 1:
        seat = session.to_act
        assert seat is not None
        session.act(seat, Action.bid("pass"))
    if session.to_act != HUMAN:
        session.play_bots()
    view = session.view(HUMAN)
    assert view.phase == "bidding"
    choices = game.bid_choices(view)
    assert choices.startswith("name a trump: ")
    assert "H = hearts" in choices and "pass" in choices


def test_the_winner_of_the_match_is_named_with_the_right_verb(engine: Engine) -> None:
    rules = engine.make_rules("decouverte", {"target": 200})
    _, text, _ = run_match(engine, "decouverte", 6, rules)
    last = [line for line in text.splitlines() if "the match:" in line][-1]
    assert last.startswith(("You win the match", "North wins the match"))
    rules = engine.make_rules("belote", {"target": 200})
    _, text, _ = run_match(engine, "belote", 6, rules)
    last = [line for line in text.splitlines() if "the match:" in line][-1]
    assert " win the match" in last and " wins the match" not in last


def test_text_from_elsewhere_reaches_the_terminal_escaped(engine: Engine) -> None:
    """A name or reason holding escape sequences (from a file, over the network) is
    printed with its control characters escaped: it cannot recolour or retitle the
    terminal."""
    out = io.StringIO()
    game = TerminalGame(random_bots_session(engine, "decouverte", 1), io.StringIO(""), out)
    game.say("North\x1b[31m red \x1b]0;title\x07")
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b[31m" in text


def test_each_network_record_gets_a_name_of_its_own(tmp_path: Path) -> None:
    from atout.core.files import write_new

    first = write_new(tmp_path, "belote-table-ABC123", "earlier match")
    second = write_new(tmp_path, "belote-table-ABC123", "later match")
    assert first.name == "belote-table-ABC123.json"
    assert second.name == "belote-table-ABC123-2.json"
    assert first.read_text() == "earlier match"
    assert second.read_text() == "later match"
