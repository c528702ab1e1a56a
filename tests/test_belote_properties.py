"""Properties of four-player Belote over thousands of seeded random deals.

Every deal is the first deal of a seeded match (a shuffled pack, a random bidding with
redeals, then random legal cards), played through the public engine API.  The checks:
the legal set is never empty while cards remain; it is exactly what an independent
reading of docs/rules.md's play rules allows; every card is played exactly once; a deal is
worth 162 card points (252 on capot); a record survives a JSON round trip and replays
to the identical deal; and no seat's view ever holds a card of another seat's hand that
was not made public.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from atout.core import FULL_DECK
from atout.core import Deal
from atout.core import Engine
from atout.core import Match
from atout.core import cards_of
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from helpers import reference_legal
from helpers import shipped_engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


GAME = "belote"
DEALS = 1000
"""Deals per property and rule set: with the three rule sets and the independent
legality check (twice as many), each property sees thousands of deals in all."""

RULE_SETS = {
    "default": {},
    "clockwise-always-pisser": {"direction": "clockwise", "undertrump": "always"},
    "club-rules": {"must_head_trick": True, "must_trump_partner": True, "tie": "litige"},
}


def random_deals(
    engine: Engine, count: int, rules: dict[str, object], seed0: int = 0
) -> Iterator[tuple[int, Deal, random.Random]]:
    """Start ``count`` seeded deals in their bidding: yields (seed, deal, rng); the
    caller plays each to its end with ``rng`` (redeals are replaced by the next deal)."""
    game_rules = engine.make_rules(GAME, rules)
    for seed in range(seed0, seed0 + count):
        match = Match(engine, GAME, game_rules, seed=seed)
        rng = random.Random(seed)
        deal = match.next_deal()
        yield seed, deal, rng
        while deal.state.phase == "redeal":
            match.end_deal(deal)
            deal = match.next_deal()
            yield seed, deal, rng


def finish(deal: Deal, rng: random.Random) -> None:
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


# --- properties ---------------------------------------------------------------------------------


@pytest.mark.parametrize("pack", sorted(RULE_SETS))
def test_the_legal_set_is_never_empty_while_cards_remain_and_holds_only_own_cards(
    engine: Engine, pack: str
) -> None:
    plays = 0
    for _, deal, rng in random_deals(engine, DEALS, RULE_SETS[pack]):
        while not deal.is_over:
            if deal.phase == "play":
                hand = deal.state.hands[deal.turn]
                legal = deal.legal_cards()
                assert hand, "a seat to play always holds a card"
                assert legal and legal & ~hand == 0
                plays += 1
            else:
                assert deal.legal_bids()
            deal.apply(rng.choice(deal.legal_actions()))
    assert plays > DEALS * 28


def test_the_legal_set_is_exactly_what_the_play_rules_allow(engine: Engine) -> None:
    checked = 0
    for _, deal, rng in random_deals(engine, 2 * DEALS, {}):
        while not deal.is_over:
            s = deal.state
            if deal.phase == "play":
                assert s.contract is not None and s.contract.trump is not None
                trick = list(zip(s.trick_seats(), s.trick, strict=True))
                expected = reference_legal(
                    list(cards_of(s.hands[s.turn])), trick, s.contract.trump, s.turn
                )
                assert set(cards_of(deal.legal_cards())) == expected, (trick, s.turn)
                checked += 1
            deal.apply(rng.choice(deal.legal_actions()))
    assert checked > 2 * DEALS * 28


@pytest.mark.parametrize("pack", sorted(RULE_SETS))
def test_every_card_is_played_exactly_once_each_from_the_hand_that_held_it(
    engine: Engine, pack: str
) -> None:
    for _, deal, rng in random_deals(engine, DEALS // 2, RULE_SETS[pack]):
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over:
            continue
        held = list(deal.state.hands)
        finish(deal, rng)
        played = [c for t in deal.state.tricks for c in t.cards]
        assert len(played) == 32 and len(set(played)) == 32
        assert sorted(played) == list(range(32))
        info = engine.game(GAME)
        for t in deal.state.tricks:
            for seat, c in zip(t.seats(info.seats, deal.state.direction), t.cards, strict=True):
                assert held[seat] >> c & 1, f"seat {seat} played a card it did not hold"
        assert deal.state.hands == [0, 0, 0, 0]


@pytest.mark.parametrize("pack", sorted(RULE_SETS))
def test_a_deal_is_worth_162_card_points_or_252_on_capot(engine: Engine, pack: str) -> None:
    capots = 0
    for _, deal, rng in random_deals(engine, DEALS, RULE_SETS[pack]):
        finish(deal, rng)
        if deal.score is None:
            continue
        assert sum(t.points for t in deal.state.tricks) == 162
        winners = {t.winner % 2 for t in deal.state.tricks}
        if len(winners) == 1:
            capots += 1
            assert deal.score.capot == winners.pop()
            assert sorted(deal.score.card_points) == [0, 252]
        else:
            assert deal.score.capot is None
            assert sum(deal.score.card_points) == 162
    assert capots > 0, "some random deals end in a capot"


def test_the_score_follows_made_and_dedans(engine: Engine) -> None:
    """Made: both teams score their points; dedans: the takers score only their
    belote-rebelote and the opponents at least 162."""
    for _, deal, rng in random_deals(engine, DEALS, {}):
        finish(deal, rng)
        score = deal.score
        if score is None:
            continue
        assert deal.state.contract is not None
        takers = deal.state.contract.taker % 2
        totals = [score.card_points[t] + score.declaration_points[t] for t in (0, 1)]
        belote = [
            sum(d.points for d in deal.state.declarations if d.kind == "belote" and d.seat % 2 == t)
            for t in (0, 1)
        ]
        if score.capot is None:
            assert score.made == (totals[takers] >= totals[1 - takers])
        if score.made:
            assert list(score.score) == totals
        else:
            assert score.score[takers] == belote[takers]
            assert score.score[1 - takers] >= 162


@pytest.mark.parametrize("pack", sorted(RULE_SETS))
def test_replaying_a_record_after_a_json_round_trip_gives_the_identical_deal(
    engine: Engine, pack: str
) -> None:
    for seed, deal, rng in random_deals(engine, DEALS // 3, RULE_SETS[pack]):
        finish(deal, rng)
        text = json.dumps(deal_to_record(deal, seed=seed))
        again = deal_from_record(engine, json.loads(text), f"seed {seed}")
        assert again.state.tricks == deal.state.tricks
        assert again.state.bids == deal.state.bids
        assert again.state.contract == deal.state.contract
        assert again.state.announcements == deal.state.announcements
        assert again.score == deal.score
        assert again.state.phase == deal.state.phase


def public_cards(deal: Deal) -> int:
    """Cards made public so far: everything announced (declarations shown, belote,
    rebelote) and the turn-up, which the taker is seen to pick up."""
    s = deal.state
    mask = 0
    for a in s.announcements:
        mask |= a.cards
    if s.turnup is not None:
        mask |= 1 << s.turnup
    return mask


def test_no_view_ever_shows_a_card_of_another_seats_hand(engine: Engine) -> None:
    steps = 0
    for _, deal, rng in random_deals(engine, DEALS // 4, {}):
        while True:
            s = deal.state
            public = public_cards(deal)
            for seat in range(4):
                view = deal.view(seat)
                assert view.hand == s.hands[seat]
                others = 0
                for other in range(4):
                    if other != seat:
                        assert view.hands[other] is None
                        others |= s.hands[other]
                leaked = view.known_cards() & others & ~public
                assert not leaked, f"seat {seat} sees {cards_of(leaked)}"
                assert view.unseen & s.hands[seat] == 0
                assert view.unseen | view.known_cards() | s.played == FULL_DECK
            steps += 1
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
    assert steps > DEALS // 4 * 32


def test_what_is_announced_is_only_declared_cards_of_the_announcing_seat(engine: Engine) -> None:
    for _, deal, rng in random_deals(engine, DEALS, {}):
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over:
            continue
        declared = {}
        for d in deal.state.declarations:
            declared[d.seat] = declared.get(d.seat, 0) | d.cards
        held = list(deal.state.hands)
        finish(deal, rng)
        for a in deal.state.announcements:
            assert a.cards & ~declared.get(a.seat, 0) == 0
            assert a.cards & ~held[a.seat] == 0
