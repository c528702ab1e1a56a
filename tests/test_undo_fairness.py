"""A fair undo: no seat takes back a card after it was shown what the card revealed.

Without undo, what a seat knows only grows: the cards it holds, the face-up cards, the
cards played, the cards turned.  A free undo broke that: play a card that ends a
Découverte trick, see the face-down cards turned, take the card back (they go face down
again), and play it again or another; or, at four, see the others answer and choose
again.  These tests drive the session alone (actions in, events out) over thousands of
deals and hold, at every step, that every card a seat was ever shown is one it knows in
the true state of the deal; only a practice match allows the free undo, and the tests
show that its switch is real.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core.records import match_to_record
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import PLAY
from atout.core.session import TURN
from atout.core.session import Event
from atout.core.session import Player
from atout.core.session import Session
from atout.core.session import for_seat
from atout.core.state import DealState
from atout.ui.cli import main
from atout.ui.savegame import Setup
from atout.ui.savegame import start_session

GAMES = ("decouverte", "belote")


def known_to(state: DealState, seat: int) -> int:
    """The cards ``seat`` knows in the true state of a deal, undo aside: the cards
    played, its own hand, every hand in an open game (Découverte: the face-up and the
    turned cards), the cards announced, the turn-up.  Without undo this set only grows
    as the deal goes on."""
    known = state.played | state.hands[seat]
    if state.open_hands:
        for hand in state.hands:
            known |= hand
    for ann in state.announcements:
        known |= ann.cards
    if state.turnup is not None:
        known |= 1 << state.turnup
    return known


def people(engine: Engine, game: str) -> list[Player]:
    """Every seat a person (the test chooses every action)."""
    return [Player(PERSON)] * engine.game(game).seats


def against_bots(engine: Engine, game: str) -> list[Player]:
    """A person at seat 0 and bots elsewhere (the test may still choose for the bots:
    a bot is told nothing but the views it is asked in)."""
    return [Player(PERSON)] + [Player(BOT, "", "random")] * (engine.game(game).seats - 1)


def turned(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == TURN]


def to_a_trick_that_turns_cards(
    engine: Engine, practice: bool = False
) -> tuple[Session, Action, list[Event]]:
    """A Découverte session of a person (seat 0) against a bot, played at random up to
    a card of the person that ends a trick and turns face-down cards; the card and the
    events it caused."""
    rng = random.Random(3)
    while True:
        session = Session(
            engine,
            "decouverte",
            players=against_bots(engine, "decouverte"),
            seed=rng.randrange(2**31),
            **({"practice": True} if practice else {}),
        )
        session.next_deal()
        while (seat := session.to_act) is not None:
            action = rng.choice(session.view(seat).legal_actions())
            closes = seat == 0 and action.kind == "play" and len(session.view(0).trick) == 1
            events = session.act(seat, action)
            if closes and turned(events) and session.to_act is not None:
                return session, action, events


# --- the hole, and the switch that keeps it for practice --------------------------------


def test_a_card_that_turned_cards_cannot_be_taken_back(engine: Engine) -> None:
    """The card that ends a trick turns the face-down cards under the trick's cards:
    taking it back would hide them again, and playing it again would show the same
    cards, so any pile could be looked under.  The undo is refused, with the card that
    was turned named, and nothing changes."""
    seat = 0
    session, _, events = to_a_trick_that_turns_cards(engine)
    before = session.view(seat)
    version = session.version
    assert not session.can_undo(seat)
    with pytest.raises(
        IllegalMoveError, match=r"^undo refused: (your|\w+'s) \S+ has been turned since$"
    ):
        session.undo(seat)
    first = turned(events)[0]
    whose = "your" if first.seat == seat else f"{session.seat_name(first.seat)}'s"
    assert session.undo_refusal(seat) is not None
    assert f"{whose} " in (session.undo_refusal(seat) or "")
    assert session.view(seat) == before
    assert session.version == version


def test_in_practice_the_same_card_turns_the_same_cards_again(engine: Engine) -> None:
    """A practice match keeps the free undo: take the card back, the turned cards go
    face down again; play it again, the same cards come up (the same TURN events)."""
    seat = 0
    session, action, events = to_a_trick_that_turns_cards(engine, practice=True)
    assert session.practice
    assert session.can_undo(seat)
    session.undo(seat)
    view = session.view(seat)
    assert not any(view.hand >> e.card & 1 for e in turned(events) if e.card is not None)
    again = session.act(seat, action)
    assert turned(again) == turned(events)


def test_at_four_an_undo_after_the_others_answered_is_refused(engine: Engine) -> None:
    """Four-player Belote, a person against three bots: once the bots have answered a
    card, the person has seen their cards; taking the card back is refused."""
    rng = random.Random(8)
    refused = 0
    for _ in range(20):
        session = Session(engine, "belote", seed=rng.randrange(2**31))
        session.next_deal()
        session.play_bots()
        while session.to_act == 0:
            view = session.view(0)
            if view.phase == "play" and len(view.trick) < 3:
                session.act(0, rng.choice(view.legal_actions()))
                answers = session.play_bots()
                others = [e for e in answers if e.kind == PLAY and e.seat != 0]
                if others and session.to_act is not None:
                    name = session.seat_name(others[0].seat)
                    with pytest.raises(
                        IllegalMoveError, match=f"^undo refused: {name} has played since$"
                    ):
                        session.undo(0)
                    refused += 1
                continue
            session.act(0, rng.choice(view.legal_actions()))
            session.play_bots()
    assert refused > 50


@pytest.mark.parametrize("game", GAMES)
def test_a_misclick_before_anyone_answered_is_taken_back(engine: Engine, game: str) -> None:
    """A card of the person that no one answered yet and that turned nothing revealed
    nothing: it is taken back, and the person's view is what it was before the card."""
    rng = random.Random(12)
    taken = 0
    for _ in range(100):
        session = Session(
            engine, game, players=against_bots(engine, game), seed=rng.randrange(2**31)
        )
        session.next_deal()
        while (seat := session.to_act) is not None:
            view = session.view(seat)
            action = rng.choice(view.legal_actions())
            events = session.act(seat, action)
            news = [e for e in events if e.kind == TURN or (e.kind == PLAY and e.seat != seat)]
            if seat == 0 and action.kind == "play" and not news and session.to_act is not None:
                assert session.can_undo(0)
                session.undo(0)
                assert session.view(0) == view
                session.act(0, action)
                taken += 1
    assert taken > 100


def test_another_person_who_saw_the_card_keeps_it_played(engine: Engine) -> None:
    """Two people at one table: once the other has been told the card, it stays
    played, though nothing was turned and no one answered yet."""
    session = Session(engine, "belote", players=people(engine, "belote"), seed=6)
    session.next_deal()
    while (seat := session.to_act) is not None and session.view(seat).phase == "bidding":
        bids = session.view(seat).legal_actions()
        session.act(seat, next((b for b in bids if b.value != "pass"), bids[0]))
    seat = session.to_act
    assert seat is not None
    session.act(seat, session.view(seat).legal_actions()[0])
    with pytest.raises(IllegalMoveError, match=r"^undo refused: \w+ has seen your card$"):
        session.undo(seat)


# --- what each seat was shown, over thousands of deals ----------------------------------


def tell(events: list[Event], shown: list[int], told: list[int]) -> None:
    """Add to ``shown[seat]`` every card the events named to each seat in ``told``."""
    for viewer in told:
        for event in for_seat(events, viewer):
            shown[viewer] |= event.known_cards()


def play_and_watch(
    engine: Engine, game: str, seating: str, deals: int, seed: int, practice: bool
) -> tuple[Counter[str], int]:
    """Play ``deals`` deals of ``game``, the test choosing every action at random, with
    undo (of any seat), hint, the last trick and explain interleaved at random.
    ``seating``: ``"bots"`` (a person at seat 0, bots elsewhere) or ``"people"``.

    Every card a seat is shown goes into its *shown* set: the view it acts in and, for
    a person, the events it is told, the hint's view and the last trick.  A bot is
    shown nothing else: a front end asks it only when it is to act, and drops an
    answer an undo made stale (the bot never acted on it).  After every step, the cards a seat was shown
    that it does not know in the true state (:func:`known_to`) are counted.  Returns
    what was done, and that count (0 for a fair undo)."""
    rng = random.Random(seed)
    done: Counter[str] = Counter()
    beyond = 0
    players = against_bots(engine, game) if seating == "bots" else people(engine, game)
    told = [seat for seat, p in enumerate(players) if p.kind == PERSON]
    seats = len(players)
    session: Session | None = None
    for _ in range(deals):
        if session is None or not session.needs_deal:
            session = Session(
                engine,
                game,
                players=players,
                seed=rng.randrange(2**31),
                hint_bot="random",
                **({"practice": True} if practice else {}),
            )
        shown = [0] * seats
        tell(session.next_deal(), shown, told)
        last = -1
        while (seat := session.to_act) is not None:
            roll = rng.random()
            if roll < 0.25 and last >= 0:
                # an undo: mostly of the card just played (a misclick), else of any seat
                who = last if rng.random() < 0.7 else rng.randrange(seats)
                if session.can_undo(who):
                    tell(session.undo(who), shown, told)
                    done["undone"] += 1
                else:
                    view, version = session.view(who), session.version
                    with pytest.raises(IllegalMoveError) as refused:
                        session.undo(who)
                    reason = str(refused.value)
                    assert (session.view(who), session.version) == (view, version)
                    assert reason == session.undo_refusal(who)
                    done["refused" if reason.startswith("undo refused") else "nothing"] += 1
            elif roll < 0.30 and seat in told:
                view = session.view(seat)
                shown[seat] |= view.known_cards()
                hint = session.hint(seat)
                assert hint in view.legal_actions()
                done["hint"] += 1
            elif roll < 0.35 and seat in told:
                view = session.view(seat)
                if view.tricks:
                    for c in view.tricks[-1].cards:
                        shown[seat] |= 1 << c
                    done["last trick"] += 1
            elif roll < 0.40:
                text = session.explain(rng.randrange(32))
                assert text is None or isinstance(text, str)
                done["explain"] += 1
            else:
                view = session.view(seat)
                shown[seat] |= view.known_cards()
                tell(session.act(seat, rng.choice(view.legal_actions())), shown, told)
                last = seat
            state = session.deal.state  # type: ignore[union-attr]
            for viewer in range(seats):
                beyond += (shown[viewer] & ~known_to(state, viewer)).bit_count()
        done["deals"] += 1
    return done, beyond


@pytest.mark.parametrize(
    ("game", "seating", "deals"),
    [
        ("decouverte", "bots", 800),
        ("belote", "bots", 500),
        ("decouverte", "people", 300),
        ("belote", "people", 200),
    ],
)
def test_no_seat_is_ever_shown_a_card_it_does_not_know(
    engine: Engine, game: str, seating: str, deals: int
) -> None:
    """With undo tried at random (refused or not), hint, last trick and explain
    interleaved, no seat is ever shown a card it does not know in the true state of
    the deal.  Against bots the person's undo both happens (misclicks) and is refused
    (after news) many times; between people, once the others are told a card it stays
    played."""
    done, beyond = play_and_watch(engine, game, seating, deals, seed=20261127, practice=False)
    assert beyond == 0, done
    assert done["refused"] > deals // 4, done
    if seating == "bots":
        assert done["undone"] > deals // 4, done
    else:
        assert done["undone"] == 0, done
    assert done["hint"] and done["last trick"] and done["explain"], done


@pytest.mark.parametrize("game", GAMES)
def test_practice_allows_the_free_undo(engine: Engine, game: str) -> None:
    """The practice switch is real: the same play with free undo takes back cards after
    news, and seats are then shown cards they do not know."""
    done, beyond = play_and_watch(engine, game, "bots", 60, seed=20261127, practice=True)
    assert done["refused"] == 0, done
    assert done["undone"] > 60, done
    assert beyond > 0, done


def test_a_practice_match_says_so_in_its_record(engine: Engine) -> None:
    practice = Session(engine, "decouverte", seed=4, practice=True)
    plain = Session(engine, "decouverte", seed=4)
    assert practice.practice and practice.match.practice
    assert not plain.practice and not plain.match.practice
    assert match_to_record(practice.match)["practice"] is True
    assert "practice" not in match_to_record(plain.match)


# --- the practice switch through the front ends ------------------------------------------


def test_a_setup_keeps_practice_and_starts_a_practice_match(engine: Engine) -> None:
    setup = Setup(game="belote", seed=2, practice=True)
    assert Setup.from_json(json.loads(json.dumps(asdict(setup)))) == setup
    assert not Setup.from_json({"practice": "yes"}).practice
    assert not Setup.from_json({}).practice
    rules = engine.default_rules("belote")
    assert start_session(engine, setup, rules, persist=False).practice
    assert not start_session(engine, Setup(game="belote"), rules, persist=False).practice


def test_atout_play_practice_in_the_terminal_and_its_replay_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "match.json"
    result = subprocess.run(
        [sys.executable, "-m", "atout.ui.cli", "play", "--text", "--practice", "--seed", "3",
         "--save", str(record)],
        input="quit\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "A practice match: undo is free." in result.stdout
    assert json.loads(record.read_text(encoding="utf-8"))["practice"] is True
    assert main(["replay", str(record)]) == 0
    assert "A practice match: undo was free." in capsys.readouterr().out
    assert main(["replay", str(record), "--json"]) == 0
    assert {"practice": True} in [
        json.loads(line) for line in capsys.readouterr().out.split("\n") if line
    ]


def test_atout_play_practice_starts_the_window_on_a_practice_match(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--practice`` skips the start view (whose own switch is the window's way to
    choose it) and starts the match at once."""
    import atout.ui.display
    import atout.ui.window.app

    calls: list[tuple[Setup | None, bool]] = []

    def run(engine: Engine, setup: Setup | None = None, start: bool = False, **_: Any) -> int:
        calls.append((setup, start))
        return 0

    monkeypatch.setattr(atout.ui.display, "display_problem", lambda: None)
    monkeypatch.setattr(atout.ui.window.app, "run", run)
    assert main(["play", "belote", "--practice", "--seed", "5"]) == 0
    assert main(["play", "belote", "--seed", "5"]) == 0
    (first, start_first), (second, start_second) = calls
    assert first is not None and first.practice and first.seed == 5 and start_first
    assert second is not None and not second.practice and not start_second


@pytest.mark.parametrize(
    ("other", "named"),
    [
        (["--join", "h:1/ABCDEF"], "--join"),
        (["--host"], "--host"),
        (["--text", "--continue"], "--continue"),
    ],
)
def test_practice_with_another_match_is_one_line(
    other: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--practice", *other]) == 1
    assert capsys.readouterr().err == (
        f"atout: --practice starts a new match of your own; it does not go with {named}\n"
    )
