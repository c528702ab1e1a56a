"""Hints that say why: the expert bots' ``hint(view)`` answers an action with a one-line
``reason``, which every caller may use as the plain action."""

from __future__ import annotations

import json
from dataclasses import replace

from atout.core import Action
from atout.core import Bid
from atout.core import Engine
from atout.core import Play
from atout.core.cards import parse_card
from atout.core.records import deal_to_record
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import TRICK
from atout.core.session import Player
from atout.core.session import Session
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.plugins.bots.decouverte_expert import DecouverteExpert
from atout.plugins.bots.hints import play_reason
from atout.plugins.bots.hints import with_reason
from atout.ui.hint_text import hint_line


def session_of(engine: Engine, game: str, seed: int) -> Session:
    seats = engine.game(game).seats
    players = [Player(PERSON, "You")] + [Player(BOT, "", "greedy")] * (seats - 1)
    session = Session(engine, game, players=players, seed=seed)
    session.next_deal()
    return session


def test_a_hint_is_the_plain_action_for_every_caller(engine: Engine) -> None:
    hint = with_reason(Play(parse_card("9S")), "wins the trick")
    plain = Action.play(parse_card("9S"))
    assert hint == plain and plain == hint and hash(hint) == hash(plain)
    assert hint in [plain] and {plain: 1}[hint] == 1
    assert hint.reason == "wins the trick" and plain.reason == ""
    assert hint.plain == plain and hint.plain.reason == "" and type(hint) is Play
    assert hint != Action.play(parse_card("10S"))
    assert Play(parse_card("10S"), reason="x") != hint


def test_a_hint_played_as_the_action_is_recorded_as_a_plain_action(engine: Engine) -> None:
    session = session_of(engine, "decouverte", 3)
    view = session.view(0)
    legal = view.legal_actions()[0]
    session.act(0, with_reason(legal, "a reason"))
    deal = session.deal
    assert deal is not None
    text = json.dumps(deal_to_record(deal))
    assert "a reason" not in text


def test_the_decouverte_expert_hint_says_why_with_the_gap_to_the_next_card(
    engine: Engine,
) -> None:
    """Every hint of the expert in the last tricks of a deal (its exact search) is a
    legal action with a one-line reason; where several cards were valued it names the
    next best card and the difference."""
    session = session_of(engine, "decouverte", 5)
    stand_in = engine.bot("greedy", "decouverte", session.rules, seed=5)
    expert = DecouverteExpert(seed=1, samples=6, engine=engine)
    gaps = 0
    while True:
        session.play_bots()
        if session.to_act is None:
            if session.deal is not None and session.deal.score is None:
                session.next_deal()  # both passed twice: the next deal
                continue
            break
        view = session.view(0)
        if len(view.tricks) < 10:
            session.act(0, stand_in.choose(view))
            continue
        hint = expert.hint(view)
        assert hint in view.legal_actions()
        assert hint.reason, f"no reason for {hint}"
        assert "\n" not in hint.reason and len(hint.reason) < 90
        if "better than" in hint.reason or "as good as" in hint.reason:
            gaps += 1
        if len(view.legal_actions()) == 1:
            assert hint.reason.startswith("the only")
        session.act(0, hint)
    assert gaps >= 2


def test_wins_the_trick_is_said_exactly_when_the_card_wins_it(engine: Engine) -> None:
    """For the last card of a trick the reason says it wins ("wins 14 points", "wins the
    trick") exactly when the engine then gives the trick to the seat (checked on the
    cards actually played)."""
    checked = 0
    for game in ("decouverte", "belote"):
        for seed in range(10):
            session = session_of(engine, game, seed)
            stand_in = engine.bot("greedy", game, session.rules, seed=seed)
            while True:
                session.play_bots()
                if session.to_act is None:
                    break
                view = session.view(0)
                action = stand_in.choose(view)
                events = session.act(0, action)
                if action.kind != "play" or len(view.trick) != view.seats - 1:
                    continue
                reason = play_reason(view, action.value, None, engine)
                won = next(e for e in events if e.kind == TRICK).seat == 0
                if len(view.legal_actions()) > 1:
                    assert reason.startswith("wins ") == won, (reason, won)
                    checked += 1
    assert checked > 20


def test_the_gap_is_told_from_the_values(engine: Engine) -> None:
    session = session_of(engine, "decouverte", 5)
    while session.view(0).phase == "bidding":
        view = session.view(0)
        if view.to_act:
            session.act(0, Action.bid(view.legal_bids[0]))
        else:
            session.play_bots()
    session.play_bots()
    view = session.view(0)
    legal = [a.value for a in view.legal_actions() if a.kind == "play"]
    assert len(legal) >= 2
    best, other = legal[0], legal[1]
    values = {best: 30.0, other: 18.0}
    reason = play_reason(view, best, values, engine)
    assert reason.endswith(f"12 points better than {hint_line(Action.play(other))[11:]}")
    close = play_reason(view, best, {best: 30.0, other: 29.6}, engine)
    assert "about as good as" in close


def test_the_hint_line_says_the_action_and_the_reason(engine: Engine) -> None:
    view = session_of(engine, "decouverte", 5).view(0)
    assert hint_line(Play(parse_card("9S"), reason="wins the trick")) == (
        "Hint: play 9♠ — wins the trick"
    )
    assert hint_line(Action.play(parse_card("9S"))) == "Hint: play 9♠"
    assert view.turnup is not None
    line = hint_line(Bid("take", reason="6 points better than pass"), view)
    assert line.startswith("Hint: take ") and line.endswith("— 6 points better than pass")
    assert hint_line(replace(Bid("H", reason="x"), reason="")) == "Hint: name ♥ hearts as trump"


def test_the_belote_expert_hint_says_why(engine: Engine) -> None:
    session = session_of(engine, "belote", 4)
    expert = BeloteExpert(seed=1, samples=6, engine=engine)
    reasons = []
    plays = 0
    while plays < 4:
        session.play_bots()
        if session.to_act is None:
            session.next_deal()
            continue
        view = session.view(0)
        plays += view.phase == "play"
        hint = expert.hint(view)
        assert hint in view.legal_actions()
        reasons.append(hint.reason)
        session.act(0, hint)
    assert all(reasons) and any("better than" in r for r in reasons)
