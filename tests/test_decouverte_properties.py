"""Properties of Découverte over thousands of seeded random deals.

Every deal: 162 points (more only with a capot bonus), every card played exactly once and
by the seat it was dealt to, each face-down card turned exactly when its cover has left
(at the end of that trick, or at once when led under ``reveal_on_lead``), no view ever
showing a face-down card, and a record that replays to the same deal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from atout.core import Deal
from atout.core import Engine
from atout.core import Match
from atout.core import cards_of
from atout.core.cards import FULL_DECK
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.state import PLAY

GAME = "decouverte"

VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "reveal-on-lead": {"reveal_on_lead": True},
    "everything": {
        "reveal_on_lead": True,
        "belote_rebelote": True,
        "declarations": "on",
        "capot_bonus": 50,
        "dealer_rule": "winner",
    },
}


def random_deals(engine: Engine, rules: dict[str, Any], seed: int, count: int) -> Iterator[Deal]:
    """``count`` finished deals of one seeded match played with random legal actions
    (passed-out deals included in the bidding, not in the count)."""
    match = Match(engine, GAME, engine.make_rules(GAME, rules), seed=seed)
    rng = random.Random(seed)
    for _ in range(count):
        if match.result is not None:
            match = Match(engine, GAME, match.rules, seed=rng.randrange(1 << 30))
        deal = match.play_deal(lambda d: rng.choice(d.legal_actions()))
        yield deal


def expected_hidden(deal: Deal) -> list[int]:
    """The face-down cards the rules say are still face down now, from the layout and
    the cards played: a pile's card is face down until the end of the trick in which its
    cover was played (or, with ``reveal_on_lead``, until its cover is led)."""
    s = deal.state
    reveal = s.rules["reveal_on_lead"]
    in_trick = 0
    for i, c in enumerate(s.trick):
        if not (reveal and i == 0):
            in_trick |= 1 << c
    out = [0, 0]
    for seat, piles in enumerate(s.layout.piles):
        for up, down in piles:
            assert up is not None and down is not None
            if not s.played >> up & 1 or in_trick >> up & 1:
                out[seat] |= 1 << down
    return out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_deal_is_worth_162_and_plays_each_card_once_by_its_owner(
    engine: Engine, variant: str
) -> None:
    rules = VARIANTS[variant]
    bonus = rules.get("capot_bonus", 0)
    for deal in random_deals(engine, rules, seed=1, count=1500):
        s = deal.state
        score = deal.score
        assert score is not None
        capot = any(s.tricks_won(t) == 16 for t in (0, 1))
        assert sum(score.card_points) == 162 + (bonus if capot else 0)
        assert len(s.tricks) == 16
        played = [c for t in s.tricks for c in t.cards]
        assert sorted(played) == list(range(32)), "every card played exactly once"
        assert s.played == FULL_DECK
        assert s.hands == [0, 0] and s.hidden == [0, 0] and s.under == {}
        for t in s.tricks:
            for seat, c in zip(t.seats(2, 1), t.cards, strict=True):
                assert any(c in pile for pile in s.layout.piles[seat]), "played by its owner"
        taker = s.contract.taker if s.contract else -1
        if not capot and not rules.get("belote_rebelote") and not rules.get("declarations"):
            assert score.made == (score.card_points[taker] >= 82)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_face_down_cards_turn_exactly_when_their_cover_has_left_and_no_view_shows_them(
    engine: Engine, variant: str
) -> None:
    rules = engine.make_rules(GAME, VARIANTS[variant])
    rng = random.Random(7)
    for n in range(300):
        deal = engine.new_deal(GAME, rules, n % 2, rng)
        check_views(deal)
        while deal.state.phase == "bidding":
            deal.bid(rng.choice(deal.legal_bids()))
            check_views(deal)
        while deal.state.phase == PLAY:
            deal.play(rng.choice(cards_of(deal.legal_cards())))
            s = deal.state
            if s.phase == PLAY:
                assert s.hidden == expected_hidden(deal)
                for seat in (0, 1):
                    assert not s.hands[seat] & s.hidden[seat]
            check_views(deal)


def check_views(deal: Deal) -> None:
    """Neither seat's view shows a face-down card, anywhere."""
    s = deal.state
    face_down = s.hidden[0] | s.hidden[1]
    for seat in (0, 1):
        view = deal.view(seat)
        assert view.known_cards() & face_down == 0
        assert view.unseen & face_down == face_down
        assert view.legal & face_down == 0
        for row in view.piles:
            for pile in row:
                assert pile.top is None or not face_down >> pile.top & 1
        for ann in view.announcements:
            assert ann.cards & face_down == 0
        assert str(face_down) not in repr(view.extra)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_deal_record_replays_to_the_same_tricks_and_score(engine: Engine, variant: str) -> None:
    for deal in random_deals(engine, VARIANTS[variant], seed=3, count=300):
        data = json.loads(json.dumps(deal_to_record(deal)))
        again = deal_from_record(engine, data, "round trip")
        assert again.state.tricks == deal.state.tricks
        assert again.score == deal.score
        assert again.state.announcements == deal.state.announcements
        assert again.actions == deal.actions
        assert again.state.layout.piles == deal.state.layout.piles
