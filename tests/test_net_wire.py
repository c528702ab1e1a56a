"""The server's encoded views say exactly what the views' JSON forms say: the texts it
puts together from cached parts (a trick, a row of piles, a set of cards) are the same
objects as :func:`view_seat_json` and :func:`view_public_json`, over whole deals of
both games."""

from __future__ import annotations

import json
import random

import pytest
from atout.core import Engine
from atout.core.session import REMOTE
from atout.core.session import Player
from atout.core.session import Session
from atout.ui.net import protocol as p


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_the_encoded_view_is_the_views_json(game: str) -> None:
    engine = Engine()
    seats = engine.game(game).seats
    session = Session(
        engine, game, engine.default_rules(game), players=[Player(REMOTE)] * seats, seed=7
    )
    rng = random.Random(7)
    checked = 0
    while session.result is None and checked < 600:
        if session.needs_deal:
            session.next_deal()
            continue
        for seat in range(seats):
            view = session.view(seat)
            assert json.loads(p.view_seat_text(view)) == p.view_seat_json(view)
            assert json.loads(p.view_public_text(view)) == p.view_public_json(view)
            checked += 1
        seat = session.to_act
        assert seat is not None
        session.act(seat, rng.choice(session.view(seat).legal_actions()))
    assert checked >= 100
