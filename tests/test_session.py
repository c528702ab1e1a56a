"""The session: one match driven by actions, answering events; each seat told only what it
may know; undo by the engine; save and resume through a save file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core import cards_of
from atout.core.engine import Match
from atout.core.errors import RecordError
from atout.core.errors import UnknownNameError
from atout.core.records import deal_from_record
from atout.core.records import match_from_record
from atout.core.session import ANNOUNCE
from atout.core.session import BID
from atout.core.session import BOT
from atout.core.session import DEAL
from atout.core.session import HAND
from atout.core.session import MATCH_OVER
from atout.core.session import NOTICE
from atout.core.session import PERSON
from atout.core.session import PLAY
from atout.core.session import REDEAL
from atout.core.session import SCORE
from atout.core.session import TRICK
from atout.core.session import TURN
from atout.core.session import UNDO
from atout.core.session import Event
from atout.core.session import Player
from atout.core.session import Session
from atout.core.session import for_seat
from atout.core.state import DealState
from helpers import first_trick_record

GAMES = ("decouverte", "belote")


def people(engine: Engine, game: str) -> list[Player]:
    return [Player(PERSON)] * engine.game(game).seats


def random_session(engine: Engine, game: str, seed: int) -> Session:
    """A session of people only, played by the test with random legal actions."""
    return Session(engine, game, players=people(engine, game), seed=seed)


def play_random(session: Session, rng: random.Random) -> list[Event]:
    """Play the current deal to its end with random legal actions; every event."""
    events: list[Event] = []
    while (seat := session.to_act) is not None:
        events += session.act(seat, rng.choice(session.view(seat).legal_actions()))
    return events


def hidden_from(state: DealState, seat: int) -> int:
    """The cards ``seat`` may not know now: every face-down card, and the closed hands
    of the other seats less what the rules showed of them."""
    shown = 0
    for ann in state.announcements:
        shown |= ann.cards
    mask = 0
    for other in range(state.seats):
        mask |= state.hidden[other]
        if other != seat and not state.open_hands:
            mask |= state.hands[other] & ~shown
    if state.turnup is not None:
        mask &= ~(1 << state.turnup)
    return mask


@pytest.mark.parametrize("game", GAMES)
def test_no_event_tells_a_seat_a_card_it_may_not_know(engine: Engine, game: str) -> None:
    """Over 1,500 random deals: after each action, no event a seat is told names a card
    that is face down or in another seat's closed hand (the rule of the views)."""
    rng = random.Random(20261124)
    deals = 0
    while deals < 1500:
        session = random_session(engine, game, rng.randrange(2**31))
        for _ in range(3):
            if not session.needs_deal:
                break
            batches = [session.next_deal()]
            while (seat := session.to_act) is not None:
                batches.append(session.act(seat, rng.choice(session.view(seat).legal_actions())))
                state = session.deal.state  # type: ignore[union-attr]
                for viewer in range(session.seats):
                    secret = hidden_from(state, viewer)
                    for event in for_seat(batches[-1], viewer):
                        leak = event.known_cards() & secret
                        assert not leak, (game, viewer, event)
            deals += 1


@pytest.mark.parametrize("game", GAMES)
def test_a_private_hand_is_told_only_to_its_seat(engine: Engine, game: str) -> None:
    session = random_session(engine, game, 11)
    events = session.next_deal()
    hands = [e for e in events if e.kind == HAND]
    assert [e.seat for e in hands] == list(range(session.seats))
    state = session.deal.state  # type: ignore[union-attr]
    for e in hands:
        assert e.cards == state.hands[e.seat]
        assert e.to == (None if state.open_hands else e.seat)
        for viewer in range(session.seats):
            assert e.visible_to(viewer) == (state.open_hands or viewer == e.seat)


@pytest.mark.parametrize("game", GAMES)
def test_events_agree_with_the_engine(engine: Engine, game: str) -> None:
    """Over 200 deals: the plays are the deal's actions, the tricks its tricks, the
    turned cards every face-down card that became playable, the score the deal's."""
    rng = random.Random(7)
    for _ in range(200):
        session = random_session(engine, game, rng.randrange(2**31))
        events = session.next_deal()
        down = 0
        for row in session.deal.state.layout.piles:  # type: ignore[union-attr]
            for _, beneath in row:
                if beneath is not None:
                    down |= 1 << beneath
        events += play_random(session, rng)
        deal = session.deal
        assert deal is not None
        assert [(e.seat, Action.play(e.card)) for e in events if e.kind == PLAY] == [
            (s, a) for s, a in deal.actions if a.kind == "play"
        ]
        assert [(e.seat, Action.bid(e.text)) for e in events if e.kind == BID] == [
            (s, a) for s, a in deal.actions if a.kind == "bid"
        ]
        assert [e.trick for e in events if e.kind == TRICK] == list(deal.state.tricks)
        assert [e.points for e in events if e.kind == TRICK] == [
            t.points for t in deal.state.tricks
        ]
        turned = [e.card for e in events if e.kind == TURN]
        assert len(turned) == len(set(turned))
        if deal.score is not None and "claim" not in deal.state.extra:
            assert sum(1 << c for c in turned if c is not None) == down
        announced = [(e.seat, e.text) for e in events if e.kind == ANNOUNCE]
        assert announced == [(a.seat, a.text) for a in deal.state.announcements]
        last = events[-1]
        if deal.score is None:
            assert last.kind == REDEAL
        else:
            kinds = [e.kind for e in events]
            assert kinds.count(SCORE) == 1
            score = next(e for e in events if e.kind == SCORE)
            assert score.score == deal.score
            assert score.scores == session.scores


def test_a_card_is_turned_after_the_trick_it_ends(engine: Engine) -> None:
    """Découverte's default: the face-down card under a played card is turned when the
    trick is over, so its event follows the trick's."""
    rng = random.Random(3)
    session = random_session(engine, "decouverte", 3)
    session.next_deal()
    while (seat := session.to_act) is not None:
        events = session.act(seat, rng.choice(session.view(seat).legal_actions()))
        kinds = [e.kind for e in events]
        if TURN in kinds:
            assert TRICK in kinds
            assert kinds.index(TRICK) < kinds.index(TURN)
        else:
            continue


def test_a_seat_out_of_turn_or_an_illegal_card_changes_nothing(engine: Engine) -> None:
    session = random_session(engine, "belote", 5)
    session.next_deal()
    seat = session.to_act
    assert seat is not None
    version = session.version
    other = (seat + 1) % 4
    with pytest.raises(IllegalMoveError, match="turn"):
        session.act(other, session.view(other).legal_actions()[0] if False else Action.bid("pass"))
    with pytest.raises(IllegalMoveError):
        session.act(seat, Action.bid("no such bid"))
    assert session.version == version
    assert session.deal is not None and session.deal.actions == []


def test_match_over_ends_the_match(engine: Engine) -> None:
    rng = random.Random(1)
    rules = engine.make_rules("decouverte", {"target": 300})
    session = Session(engine, "decouverte", rules, players=people(engine, "decouverte"), seed=9)
    events: list[Event] = []
    while session.needs_deal:
        events += session.next_deal()
        events += play_random(session, rng)
    assert events[-1].kind == MATCH_OVER
    assert events[-1].result == session.result
    assert session.to_act is None
    with pytest.raises(IllegalMoveError, match="over"):
        session.act(0, Action.bid("pass"))


def test_bots_play_their_seats(engine: Engine) -> None:
    session = Session(engine, "belote", seed=4)  # a person at seat 0, greedy bots
    session.next_deal()
    events = session.play_bots()
    assert session.to_act == 0 or session.needs_deal
    assert all(e.seat != 0 for e in events if e.kind in (BID, PLAY))
    assert session.is_bot(1) and not session.is_bot(0)


def test_a_failing_bot_is_replaced_by_its_first_legal_action(engine: Engine) -> None:
    class Broken:
        def choose(self, view: object) -> Action:
            raise RuntimeError("no idea")

    players = [Player(PERSON), Player(BOT, "", "greedy")]
    session = Session(engine, "decouverte", players=players, seed=2, bots={1: Broken()})
    session.next_deal()
    rng = random.Random(0)
    while session.to_act == 0:
        session.act(0, rng.choice(session.view(0).legal_actions()))
    expected = session.deal.legal_actions()[0]  # type: ignore[union-attr]
    events = session.play_bots()
    assert events[0].kind == NOTICE and "no idea" in events[0].text
    assert events[1].seat == 1 and (events[1].kind, events[1].text or events[1].card) == (
        expected.kind,
        expected.value,
    )


def test_an_unknown_bot_is_refused_at_once(engine: Engine) -> None:
    with pytest.raises(UnknownNameError, match="no-such-bot"):
        Session(engine, "decouverte", players=[Player(PERSON), Player(BOT, "", "no-such-bot")])


# --- undo ------------------------------------------------------------------------------


@pytest.mark.parametrize("practice", [True, False])
@pytest.mark.parametrize("game", GAMES)
def test_undo_takes_back_the_last_card_and_what_followed(
    engine: Engine, game: str, practice: bool
) -> None:
    """Over 100 deals: after undo the person's view is what it was before its last
    card, and the deal plays on from there (in a practice match, whatever followed the
    card; else only where the undo is fair, see tests/test_undo_fairness.py)."""
    rng = random.Random(99)
    for _ in range(100):
        session = Session(engine, game, seed=rng.randrange(2**31), practice=practice)
        session.next_deal()
        session.play_bots()
        views = []
        while session.to_act == 0:
            view = session.view(0)
            if view.phase == "play":
                views.append(view)
            session.act(0, rng.choice(view.legal_actions()))
            session.play_bots()
            if views and rng.random() < 0.3 and session.can_undo(0):
                events = session.undo(0)
                assert events[0].kind == UNDO and events[0].seat == 0
                assert session.view(0) == views.pop()
        if session.deal is not None and session.deal.is_over:
            assert not session.can_undo(0)


def test_undo_without_a_card_is_refused(engine: Engine) -> None:
    session = Session(engine, "decouverte", seed=1)
    session.next_deal()
    assert not session.can_undo(0)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        session.undo(0)


def test_a_position_set_up_by_hand_has_nothing_to_undo(engine: Engine) -> None:
    """A deal set up from a position (a record's ``start``) cannot be rewound: undo
    says so, and can_undo agrees, rather than offering what it cannot do."""
    cards = list(range(32))
    random.Random(4).shuffle(cards)
    hands = [sum(1 << c for c in cards[8 * s : 8 * s + 8]) for s in range(4)]
    match = Match(engine, "belote")
    match.deals.append(deal_from_record(engine, first_trick_record(hands, "H", 0, 3, {})))
    session = Session(engine, players=[Player(PERSON)] * 4, match=match)
    seat = session.to_act
    assert seat is not None
    session.act(seat, session.view(seat).legal_actions()[0])
    assert not session.can_undo(seat)
    with pytest.raises(IllegalMoveError, match=r"^nothing to undo: a deal set up from a position"):
        session.undo(seat)


def test_rewound_deal_equals_the_deal_played_to_there(engine: Engine) -> None:
    rng = random.Random(5)
    session = random_session(engine, "belote", 8)
    session.next_deal()
    play_random(session, rng)
    deal = session.deal
    assert deal is not None
    for back in (0, 1, 7, len(deal.actions)):
        rewound = deal.rewound(back)
        replay = deal.restarted()
        for _, action in deal.actions[: len(deal.actions) - back]:
            replay.apply(action)
        assert rewound.actions == replay.actions
        assert rewound.view(0) == replay.view(0)
    with pytest.raises(IllegalMoveError):
        deal.rewound(len(deal.actions) + 1)


# --- saving ----------------------------------------------------------------------------


def finish_match(session: Session, rng: random.Random) -> None:
    while session.needs_deal:
        session.next_deal()
        play_random(session, rng)


@pytest.mark.parametrize("game", GAMES)
def test_resume_stands_where_the_save_was(engine: Engine, game: str, tmp_path: Path) -> None:
    rng = random.Random(12)
    path = tmp_path / "save.jsonl"
    session = Session(engine, game, seed=31)
    session.attach(path, {"pack": "official"})
    for _ in range(2):
        session.next_deal()
        session.play_bots()
        while session.to_act == 0:
            session.act(0, rng.choice(session.view(0).legal_actions()))
            session.play_bots()
    session.next_deal()
    session.play_bots()
    if session.to_act == 0:
        session.act(0, session.view(0).legal_actions()[0])
        session.play_bots()
    back = Session.resume(engine, path)
    assert back.meta == {"pack": "official"}
    assert back.scores == session.scores
    assert back.view(0) == session.view(0)
    assert back.players == session.players
    # the resumed session follows the file: one more action, and a second resume agrees
    if back.to_act == 0:
        back.act(0, back.view(0).legal_actions()[0])
        back.play_bots()
    again = Session.resume(engine, path)
    assert again.view(0) == back.view(0)


@pytest.mark.parametrize("practice", [True, False])
def test_a_resumed_session_keeps_practice_and_its_undo(
    engine: Engine, tmp_path: Path, practice: bool
) -> None:
    """A save of a practice match resumes as one; and a save resumed in the middle of a
    deal (after an undo wrote the deal's actions whole) allows and refuses exactly the
    undos the session it was saved from allowed and refused."""
    rng = random.Random(21)
    path = tmp_path / "save.jsonl"
    players = [Player(PERSON), Player(BOT, "", "random")]
    undos = 0
    for _ in range(30):
        session = Session(
            engine, "decouverte", players=players, seed=rng.randrange(2**31), practice=practice
        )
        session.attach(path)
        session.next_deal()
        while (seat := session.to_act) is not None:
            session.act(seat, rng.choice(session.view(seat).legal_actions()))
            if seat == 0 and session.can_undo(0) and rng.random() < 0.5:
                session.undo(0)
                session.act(0, rng.choice(session.view(0).legal_actions()))
                undos += 1
            back = Session.resume(engine, path)
            assert back.practice == practice
            assert [back.undo_refusal(s) for s in range(2)] == [
                session.undo_refusal(s) for s in range(2)
            ]
        session.detach()
    assert undos > 20
    assert Session.resume(engine, path).practice == practice


def test_a_record_without_practice_is_not_practice(engine: Engine) -> None:
    """Every record written before the key reads as before; a bad value is one error."""
    session = Session(engine, "decouverte", seed=5)
    session.next_deal()
    record = session.record()
    assert "practice" not in record
    assert not match_from_record(engine, record).practice
    assert match_from_record(engine, {**record, "practice": True}).practice
    with pytest.raises(RecordError, match="practice: expected true or false, not 'yes'"):
        match_from_record(engine, {**record, "practice": "yes"}, "m.json")


def test_only_actions_are_appended_between_deals(engine: Engine, tmp_path: Path) -> None:
    """The save file is written whole at a deal's start and end; each action in between
    adds one line (the match record is not rewritten after every card)."""
    path = tmp_path / "save.jsonl"
    session = random_session(engine, "decouverte", 6)
    session.attach(path)
    session.next_deal()
    header = path.read_text().splitlines()[0]
    rng = random.Random(6)
    for n in range(1, 6):
        seat = session.to_act
        assert seat is not None
        session.act(seat, rng.choice(session.view(seat).legal_actions()))
        lines = path.read_text().splitlines()
        assert lines[0] == header
        assert len(lines) == 1 + n
        assert json.loads(lines[-1])["seat"] == seat


def test_a_torn_last_line_loses_only_that_action(engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "save.jsonl"
    session = random_session(engine, "belote", 2)
    session.attach(path)
    session.next_deal()
    rng = random.Random(2)
    for _ in range(5):
        seat = session.to_act
        assert seat is not None
        session.act(seat, rng.choice(session.view(seat).legal_actions()))
    text = path.read_text()
    lines = text.splitlines()
    path.write_text(text[: -len(lines[-1]) // 2 - 1])  # the last append cut short
    back = Session.resume(engine, path)
    assert back.deal is not None
    assert back.deal.actions == session.deal.actions[:-1]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: [lines[0], "not json", *lines[1:]], "line 2: not valid JSON"),
        (lambda lines: [lines[0], '{"seat": 9, "play": "JH"}'], "line 2"),
        (lambda lines: [lines[0], '{"seat": 0, "play": "ZZ"}'], "line 2"),
        (lambda lines: [json.dumps({**json.loads(lines[0]), "version": 99})], "another version"),
        (lambda lines: ["[]"], "not a saved atout match"),
        (lambda lines: [""], "empty"),
    ],
)
def test_a_bad_save_is_one_message_naming_the_file(
    engine: Engine, tmp_path: Path, change: object, message: str
) -> None:
    path = tmp_path / "save.jsonl"
    session = random_session(engine, "decouverte", 4)
    session.attach(path)
    session.next_deal()
    lines = path.read_text().splitlines()
    path.write_text("\n".join(change(lines)) + "\n")  # type: ignore[operator]
    before = path.read_bytes()
    with pytest.raises(RecordError, match=message) as info:
        Session.resume(engine, path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == before


def test_an_action_the_rules_refuse_names_its_line(engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "save.jsonl"
    session = random_session(engine, "decouverte", 4)
    session.attach(path)
    session.next_deal()
    seat = session.to_act
    path.write_text(path.read_text() + json.dumps({"seat": seat, "bid": "nonsense"}) + "\n")
    with pytest.raises(RecordError, match="line 2"):
        Session.resume(engine, path)


def test_a_session_record_replays_identically(engine: Engine) -> None:
    rng = random.Random(44)
    session = Session(engine, "belote", players=people(engine, "belote"), seed=44)
    finish_match(session, rng)
    match = match_from_record(engine, session.record())
    assert match.scores == session.match.scores
    assert [d.actions for d in match.deals] == [d.actions for d in session.match.deals]


def test_events_have_a_json_form(engine: Engine) -> None:
    rng = random.Random(8)
    session = random_session(engine, "belote", 8)
    events = session.next_deal() + play_random(session, rng)
    kinds = {e.kind for e in events}
    assert {DEAL, HAND, BID, PLAY, TRICK} <= kinds
    for e in events:
        data = json.loads(json.dumps(e.to_json()))
        assert data["kind"] == e.kind
        if e.card is not None:
            assert data["card"]
        if e.kind == HAND:
            assert len(data["cards"]) == len(cards_of(e.cards))


def test_the_guide_s_example_plays_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """The example of docs/session.md runs as written and plays a whole deal."""
    guide = Path(__file__).resolve().parent.parent / "docs" / "session.md"
    code = guide.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, str(guide), "exec"), {})
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = [e["kind"] for e in printed]
    assert kinds[-1] in (SCORE, REDEAL, MATCH_OVER)
    assert PLAY in kinds or REDEAL in kinds
