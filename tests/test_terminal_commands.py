"""The terminal game's commands and words: hint, undo, score, rules, the board printed
again only when it changed, red suits, a forced card played by itself, bids said as
players say them, and the deals numbered as the session numbers them."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path

import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import parse_card
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import DealEvent
from atout.core.session import Event
from atout.core.session import Player
from atout.core.session import RedealEvent
from atout.core.session import Session
from atout.ui import savegame
from atout.ui.cards_text import HUMAN
from atout.ui.terminal import TerminalGame
from atout.ui.terminal import help_text
from atout.ui.terminal_match import play_match


def greedy_session(
    engine: Engine, game: str, seed: int, hint_bot: str = "greedy", practice: bool = False
) -> Session:
    """A person at seat 0, greedy bots elsewhere; hints from ``hint_bot`` (a fast one)."""
    seats = engine.game(game).seats
    players = [Player(PERSON)] + [Player(BOT, "", "greedy")] * (seats - 1)
    return Session(
        engine, game, None, players=players, seed=seed, hint_bot=hint_bot, practice=practice
    )


def play(
    engine: Engine, game: str, seed: int, typed: str, practice: bool = False, **kw: object
) -> tuple[Session, str]:
    """The person types ``typed`` (one line each) at a greedy table; what was printed."""
    session = greedy_session(engine, game, seed, practice=practice)
    out = io.StringIO()
    TerminalGame(session, io.StringIO(typed), out, **kw).run()  # type: ignore[arg-type]
    return session, out.getvalue()


# Belote, --seed 3: everybody passes both rounds of deal 1 (West deals); you deal the
# redeal, North takes clubs, and your first card is 9♠ or K♠ (spades were led).
REDEAL_SEED = 3


def test_after_a_redeal_the_deal_is_numbered_as_the_session_numbers_it(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "pass\npass\nquit\n")
    assert "=== Deal 1: West deals ===" in text
    assert "Redeal: everybody passed" in text
    assert "=== Deal 2: You deal ===" in text
    assert "=== Deal 1: You deal ===" not in text


def test_the_deal_header_takes_the_number_the_event_carries(engine: Engine) -> None:
    out = io.StringIO()
    game = TerminalGame(greedy_session(engine, "belote", 1), io.StringIO(""), out)
    game.tell([RedealEvent(deal=4), DealEvent(seat=3, deal=5)])
    assert "=== Deal 5: West deals ===" in out.getvalue()


def test_bids_are_said_as_players_say_them(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "pass\npass\nquit\n")
    assert "You pass.\nEast passes.\nNorth passes.\nWest passes.\n" in text
    assert "North takes ♣ clubs.\n" in text
    assert "bids" not in text


def test_naming_a_trump_in_round_two_is_said_as_taking_it(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "pass\nH\nquit\n")
    assert "You take ♥ hearts.\n" in text


def test_hint_says_what_the_hint_bot_would_do(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "hint\nquit\n")
    assert "Hint: take ♣ clubs." in text or "Hint: pass." in text
    assert "Not a bid now" not in text


@dataclass(frozen=True)
class ActionAndReason:
    """A hint as an object holding the action and the reason."""

    action: Action
    reason: str


@pytest.mark.parametrize("shape", ["action with a reason", "action and reason"])
def test_a_hint_with_a_reason_prints_the_reason(engine: Engine, shape: str) -> None:
    class ReasonedSession(Session):
        def hint(self, seat: int) -> Action:
            plain = super().hint(seat)
            why = "the jack of trumps is still out."
            if shape == "action and reason":
                return ActionAndReason(plain, why)  # type: ignore[return-value]
            return replace(plain, reason=why)

    session = ReasonedSession(
        engine,
        "belote",
        None,
        players=[Player(PERSON)] + [Player(BOT, "", "greedy")] * 3,
        seed=REDEAL_SEED,
        hint_bot="greedy",
    )
    out = io.StringIO()
    TerminalGame(session, io.StringIO("hint\nquit\n"), out).run()
    hint = [line for line in out.getvalue().splitlines() if "Hint: " in line]
    assert len(hint) == 1
    assert hint[0].startswith(("  Hint: take ♣ clubs — ", "  Hint: pass — "))
    assert hint[0].endswith(" — the jack of trumps is still out.")


def test_undo_takes_back_your_card_through_the_session(engine: Engine) -> None:
    typed = "pass\npass\n9S\nundo\nquit\n"
    session, text = play(engine, "belote", REDEAL_SEED, typed, practice=True)
    assert "You play 9♠." in text
    assert "You take back your last card" in text
    view = session.view(HUMAN)
    assert view.to_act and view.hand >> parse_card("9S") & 1, "your turn again, 9♠ in hand"
    after = text.split("You take back your last card", 1)[1]
    assert "Your hand:" in after and "Trick: East A♠" in after, "the table is printed again"


def test_undo_after_the_others_played_is_refused_with_the_sessions_reason(
    engine: Engine,
) -> None:
    session, text = play(engine, "belote", REDEAL_SEED, "pass\npass\n9S\nundo\nquit\n")
    assert "You take back your last card" not in text
    assert "undo refused" in text.lower()
    assert not session.view(HUMAN).hand >> parse_card("9S") & 1, "9♠ stays played"


def test_undo_with_no_card_to_take_back_says_why(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "undo\nquit\n")
    assert "  Nothing to undo: no card of yours in this deal.\n" in text


def test_a_refused_undo_prints_the_sessions_reason(engine: Engine) -> None:
    from atout.core.errors import IllegalMoveError

    class Strict(Session):
        def undo(self, seat: int) -> list[Event]:
            raise IllegalMoveError("no undo: you have seen the turned card since")

    session = Strict(
        engine,
        "belote",
        None,
        players=[Player(PERSON)] + [Player(BOT, "", "greedy")] * 3,
        seed=REDEAL_SEED,
    )
    out = io.StringIO()
    TerminalGame(session, io.StringIO("undo\nquit\n"), out).run()
    assert "  No undo: you have seen the turned card since.\n" in out.getvalue()


def test_score_says_the_match_score_and_the_deals_points(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "score\npass\npass\n9S\nscore\nquit\n")
    first, second = text.split("Match: You & North 0, East & West 0 (target 1000)")[1:3]
    assert "the bidding is on" in first
    assert "This deal: ♣ clubs, taken by North." in second
    assert "Card points after 1 trick: You & North 31, East & West 0." in second


def test_score_under_l_arret_shows_no_score(engine: Engine) -> None:
    rules = engine.make_rules("belote", {"arret": True})
    session = Session(engine, "belote", rules, seed=REDEAL_SEED)
    out = io.StringIO()
    TerminalGame(session, io.StringIO("score\nquit\n"), out).run()
    text = out.getvalue()
    assert "keep count of the match score yourself" in text and "Match:" not in text


def test_rules_and_help_name_the_commands(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "rules\nhelp\nquit\n")
    assert "Belote: the table and the deal" in text and "Playing: what you must play" in text
    for command in ("board", "hint", "undo", "score", "rules", "last", "review", "quit"):
        assert f"  {command} " in help_text()


def test_the_board_is_printed_again_only_when_it_changed(engine: Engine) -> None:
    _, text = play(engine, "belote", REDEAL_SEED, "xx\nyy\nzz\nquit\n")
    assert text.count("Your bid (") == 4
    assert text.count("Your hand:") == 1
    _, text = play(engine, "belote", REDEAL_SEED, "xx\nboard\n\nquit\n")
    assert text.count("Your hand:") == 3, "board and an empty line print it whole"


def test_the_decouverte_legend_is_printed_once_then_on_board_and_help(engine: Engine) -> None:
    legend = "(▒ marks a face-down card beneath"
    session = greedy_session(engine, "decouverte", 3)

    class Person(io.StringIO):
        """Plays the first legal action, twelve times, then asks for the board and help."""

        said = 0

        def readline(self, size: int | None = -1) -> str:
            self.said += 1
            line = {13: "board\n", 14: "help\n"}.get(self.said, "quit\n")
            if self.said < 13:
                line = str(session.view(HUMAN).legal_actions()[0]) + "\n"
            out.write(line)  # as a terminal shows what is typed
            return line

    out = io.StringIO()
    TerminalGame(session, Person(), out).run()
    text = out.getvalue()
    assert text.count("Your card (legal:") >= 10
    before, after = text.split("): board\n", 1)
    assert before.count(legend) == 1
    assert after.count(legend) == 2, "once for board, once for help"


def test_hearts_and_diamonds_are_red_when_the_terminal_has_colour(engine: Engine) -> None:
    out = io.StringIO()
    game = TerminalGame(greedy_session(engine, "belote", 1), io.StringIO(""), out, colour=True)
    game.say("A♥ 10♦ K♠ 7♣ and a name\x1b[2J")
    text = out.getvalue()
    assert "\x1b[31mA♥\x1b[0m \x1b[31m10♦\x1b[0m K♠ 7♣" in text
    assert "\\x1b[2J" in text, "escape codes from elsewhere stay escaped"
    plain = io.StringIO()
    TerminalGame(greedy_session(engine, "belote", 1), io.StringIO(""), plain).say("A♥")
    assert plain.getvalue() == "A♥\n", "a file gets no escape codes"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color_or_term_dumb() -> None:
    from atout.ui.display import terminal_colours

    assert terminal_colours(Tty(), {"TERM": "xterm-256color"})
    assert not terminal_colours(io.StringIO(), {"TERM": "xterm-256color"})
    assert not terminal_colours(Tty(), {"TERM": "xterm-256color", "NO_COLOR": "1"})
    assert terminal_colours(Tty(), {"TERM": "xterm", "NO_COLOR": ""}), "empty NO_COLOR: unset"
    assert not terminal_colours(Tty(), {"TERM": "dumb"})


class FirstLegal(io.StringIO):
    """Plays a random legal action; counts the prompts that offered one card only."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.forced_prompts = 0
        self.rng = random.Random(1)

    def readline(self, size: int | None = -1) -> str:
        view = self.session.view(HUMAN)
        if view.phase == "play" and view.legal & (view.legal - 1) == 0:
            self.forced_prompts += 1
        return str(self.rng.choice(view.legal_actions())) + "\n"


def test_a_forced_card_is_played_by_itself_when_asked(engine: Engine) -> None:
    session = greedy_session(engine, "belote", 5)
    person = FirstLegal(session)
    out = io.StringIO()
    TerminalGame(session, person, out, auto_forced=True).run()
    text = out.getvalue()
    assert session.result is not None
    assert person.forced_prompts == 0
    assert "(your only legal card).\n" in text
    assert all(line.startswith("You play ") for line in text.splitlines() if "only legal" in line)


def test_without_auto_a_forced_card_is_asked_for(engine: Engine) -> None:
    session = greedy_session(engine, "belote", 5)
    person = FirstLegal(session)
    TerminalGame(session, person, io.StringIO()).run()
    assert person.forced_prompts > 0


def test_the_settings_file_turns_auto_forced_on(engine: Engine, tmp_path: Path) -> None:
    savegame.save_settings({"auto_forced": True})
    out = io.StringIO()
    play_match(
        engine,
        "belote",
        engine.default_rules("belote"),
        seed=REDEAL_SEED,
        save=str(tmp_path / "m.json"),
        inp=io.StringIO("pass\npass\n9S\n" + "quit\n"),
        out=out,
    )
    assert "(your only legal card)" in out.getvalue()
    savegame.save_settings({})
    out = io.StringIO()
    play_match(
        engine,
        "belote",
        engine.default_rules("belote"),
        seed=REDEAL_SEED,
        save=str(tmp_path / "n.json"),
        inp=io.StringIO("pass\npass\n9S\n" + "quit\n"),
        out=out,
    )
    assert "(your only legal card)" not in out.getvalue()
