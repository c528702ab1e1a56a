"""Views: what one seat of a four-player deal may know (DESIGN.md, "Cards and state").

A view holds the seat's own hand, the cards played, the tricks, the declarations shown,
the trump, the taker and the scores; it never holds another seat's closed cards.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from atout.core import FULL_DECK
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import View
from atout.core import cards_of
from atout.core.records import deal_from_record
from helpers import GAME
from helpers import cards
from helpers import complete_hands
from helpers import deal_with_hands
from helpers import position
from helpers import shipped_engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


def bidding_deal(engine: Engine, seed: int = 1) -> Deal:
    return engine.new_deal(GAME, engine.default_rules(GAME), 3, random.Random(seed))


def test_a_view_holds_its_own_hand_and_no_other(engine: Engine) -> None:
    deal = bidding_deal(engine)
    for seat in range(4):
        view = deal.view(seat)
        assert view.seat == seat
        assert view.hand == deal.state.hands[seat]
        assert view.hands[seat] == deal.state.hands[seat]
        assert [h is None for h in view.hands] == [s != seat for s in range(4)]
        assert view.hand_sizes == (5, 5, 5, 5)


def test_a_view_holds_no_reference_to_the_true_state(engine: Engine) -> None:
    deal = bidding_deal(engine)
    view = deal.view(0)
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        assert not isinstance(value, DealState | Layout | Deal), f.name
    assert not hasattr(view, "layout") and not hasattr(view, "stock")


def test_a_view_cannot_be_changed(engine: Engine) -> None:
    view = bidding_deal(engine).view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = FULL_DECK  # type: ignore[misc]


def test_during_the_bidding_everyone_sees_the_turnup_and_the_bids(engine: Engine) -> None:
    deal = bidding_deal(engine)
    deal.bid("pass")
    for seat in range(4):
        view = deal.view(seat)
        assert view.turnup == deal.state.turnup
        assert view.bids == ((0, "pass"),)
        assert view.phase == "bidding" and view.contract is None


def test_only_the_seat_to_act_is_offered_actions(engine: Engine) -> None:
    deal = bidding_deal(engine)
    assert set(deal.view(0).legal_bids) == {"take", "pass"}
    for seat in (1, 2, 3):
        assert deal.view(seat).legal_bids == ()
        assert deal.view(seat).legal_actions() == []
    deal.bid("take")
    leader = deal.turn
    assert deal.view(leader).legal == deal.legal_cards()
    assert deal.view(leader).legal_actions() == deal.legal_actions()
    for seat in range(4):
        if seat != leader:
            assert deal.view(seat).legal == 0


def test_after_the_take_everyone_sees_trump_taker_and_the_turnup_in_the_takers_hand(
    engine: Engine,
) -> None:
    deal = bidding_deal(engine, seed=2)
    turnup = deal.state.turnup
    assert turnup is not None
    deal.bid("pass")
    deal.bid("take")
    for seat in range(4):
        view = deal.view(seat)
        assert view.contract is not None and view.contract.taker == 1
        assert view.trump == turnup >> 3
        if seat != 1:
            assert view.shown[1] == 1 << turnup, "the taker is seen to pick up the turn-up"
    assert deal.view(1).hand >> turnup & 1


def test_the_turnup_is_no_longer_shown_in_the_takers_hand_once_played(engine: Engine) -> None:
    deal = bidding_deal(engine, seed=2)
    turnup = deal.state.turnup
    assert turnup is not None
    deal.bid("pass")
    deal.bid("take")
    rng = random.Random(0)
    while deal.state.hands[1] >> turnup & 1:
        legal = deal.legal_cards()
        if deal.turn == 1 and legal >> turnup & 1:
            deal.play(turnup)
        else:
            deal.play(rng.choice(cards_of(legal)))
    assert deal.view(0).shown[1] == 0


def test_a_view_shows_the_trick_with_its_seats_the_tricks_and_the_points(engine: Engine) -> None:
    deal = position(engine, ["7C 8C", "8D", "9C", "9D"], trump="H", leader=0, trick="7S AS KS QS")
    deal.play(cards_of(cards("8D"))[0])
    view = deal.view(2)
    assert len(view.tricks) == 1 and view.tricks[0].winner == 1
    assert view.trick == ((1, cards_of(cards("8D"))[0]),)
    assert view.points == (0, 11 + 4 + 3)
    assert view.leader == 1 and view.turn == 2


def test_a_view_carries_the_match_scores_it_is_given(engine: Engine) -> None:
    deal = bidding_deal(engine)
    assert deal.view(0, scores=(120, 340)).scores == (120, 340)


def test_declared_cards_are_shown_only_once_announced(engine: Engine) -> None:
    deal = deal_with_hands(engine, complete_hands(["", "7C 8C 9C", "", ""], "H"), "H")
    assert deal.view(0).shown[1] == 0
    deal.play(cards_of(deal.legal_cards())[0])
    deal.play(cards_of(deal.legal_cards())[0])
    assert deal.view(0).shown[1] == cards("7C 8C 9C") & deal.state.hands[1]
    assert deal.view(0).shown[1] != 0


def test_a_set_up_position_leaks_no_hand_through_its_view(engine: Engine) -> None:
    """The initial state of a set-up position (boardgame.io #1159 leaked it)."""
    record = {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "dealer": 3,
        "layout": {"hands": complete_hands(["JH 9H", "", "", ""], "H")},
        "start": {"contract": {"taker": 0, "trump": "H"}, "leader": 0},
    }
    record["layout"]["hands"] = [h.split() for h in record["layout"]["hands"]]
    deal = deal_from_record(engine, record)
    for seat in range(4):
        view = deal.view(seat)
        others = FULL_DECK & ~deal.state.hands[seat]
        assert view.known_cards() & others == 0
        assert view.unseen == others


def test_a_view_of_a_finished_deal_shows_every_trick_but_no_hand(engine: Engine) -> None:
    match = Match(engine, GAME, seed=3)
    rng = random.Random(3)
    deal = match.play_deal(lambda d: rng.choice(d.legal_actions()))
    view: View = deal.view(2)
    assert view.phase == "over"
    assert len(view.tricks) == 8
    assert view.known_cards() == FULL_DECK
    assert view.hand == 0 and view.legal == 0 and view.legal_actions() == []
