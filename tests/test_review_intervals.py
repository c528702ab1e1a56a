"""The review's intervals tell the truth: where it samples a Découverte decision, the
exact chance-aware values and loss lie inside the 95% intervals it states at least 95%
of the time; with seven tricks left or fewer it is exact, whatever the number of unseen
face-down cards.

The sampled estimate solves each layout of the face-down cards as if both players saw
it; that is biased (neither does), and an interval of its samples alone counts only
their noise: on such positions it held the exact loss 80 to 90% of the time.  The
review widens it by a bound of that bias (:data:`~atout.plugins.review.review.PLAY_BIAS`).
"""

from __future__ import annotations

import random

import pytest
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.views import View
from atout.plugins.bots.decouverte_expert import position_from_view
from atout.plugins.review import Decision
from atout.plugins.review import ReviewOptions
from atout.plugins.review import review_record
from atout.plugins.review.review import EXACT_TRICKS
from atout.plugins.review.review import UNVALUED
from atout.plugins.review.review import estimate_play
from atout.plugins.search.decouverte import ChanceSolver
from atout.plugins.search.decouverte import Position
from atout.plugins.search.decouverte import deal
from atout.plugins.search.decouverte import hide
from atout.plugins.search.decouverte import legal_cards
from atout.plugins.search.decouverte import play_known
from atout.plugins.search.decouverte import random_play
from atout.plugins.search.decouverte import score_utility
from atout.plugins.search.decouverte import tables_for
from atout.plugins.search.decouverte import to_move
from helpers import shipped_engine
from test_review import played_deal
from test_review import start_record
from test_review import values

POSITIONS = 200
"""Seeded positions with eight tricks left (one more than the review solves exactly
whatever the unseen cards), two to four face-down cards unseen (where the exact value
takes a tenth of a second), half of them in the middle of a trick."""

SAMPLES = 12
"""Samples a decision: the review's fewest at its default budget, the widest noise."""


def positions(seed: int, n: int, tricks_left: int = 8) -> list[Position]:
    """``n`` seeded real positions with ``tricks_left`` tricks to play and 2 to 4
    face-down cards unseen, each with more than one legal card."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        full = random_play(deal(rng), rng, 2 * (16 - tricks_left))
        if rng.random() < 0.5:
            full = play_known(full, rng.choice(cards_of(legal_cards(full))))
        pos = hide(full)
        legal = legal_cards(pos)
        if 2 <= pos.pool.bit_count() <= 4 and legal & (legal - 1):
            out.append(pos)
    return out


def test_the_sampled_intervals_hold_the_exact_values_95_percent_of_the_time() -> None:
    rng = random.Random(7)
    loss_in = value_in = values = 0
    misses = []
    for pos in positions(2026, POSITIONS):
        utility = score_utility(pos.rules.cards.total)
        legal = legal_cards(pos)
        solver = ChanceSolver(tables_for(pos.rules), pos.covers, pos.taker, utility)
        exact = solver.move_values(pos, window=False)
        taken = rng.choice(cards_of(legal))
        seat = to_move(pos)
        base = Decision(1, 1, seat, "play", 9, card_str(taken), (), UNVALUED)
        d = estimate_play(base, pos, legal, utility, random.Random(rng.random()), range(SAMPLES))
        assert d.method == "sampled" and d.samples == SAMPLES
        assert d.loss_interval is not None and d.raw_loss is not None
        best = max(exact[c] for c in cards_of(legal))
        loss = best - exact[taken]
        low, high = d.loss_interval
        assert low <= d.raw_loss <= high
        if low - 1e-6 <= loss <= high + 1e-6:
            loss_in += 1
        else:
            misses.append((pos.describe(), loss, d.loss_interval))
        for v in d.legal:
            c = next(c for c in cards_of(legal) if card_str(c) == v.action)
            assert v.low is not None and v.high is not None and v.value is not None
            values += 1
            value_in += v.low - 1e-6 <= exact[c] <= v.high + 1e-6
        # a loss reported as proved is a real one
        if d.loss > 0:
            assert loss > 0, (pos.describe(), d.to_json())
    assert loss_in >= 0.95 * POSITIONS, (loss_in, misses[:5])
    assert value_in >= 0.95 * values, (value_in, values)


def test_the_review_is_exact_with_seven_tricks_left_and_six_cards_unseen() -> None:
    """Seven tricks left, three face-down cards still covered on each side (the most
    there may be), a card led: the answer is valued exactly, even with a tight time
    budget (the exact search runs to its end), every card as the chance-aware solver
    values it."""
    engine = shipped_engine()
    rng = random.Random(5)
    for seed in range(40):
        d = played_deal(engine, "decouverte", seed)
        while len(d.state.tricks) < 16 - EXACT_TRICKS or d.state.trick:
            d.play(uncovering_last(d.view(d.turn), rng))
        record = start_record(d)
        d.play(uncovering_last(d.view(d.turn), rng))  # the lead
        view = d.view(d.turn)
        if sum(p.covered for row in view.piles for p in row) == 6 and len(view.legal_actions()) > 1:
            break
    pos = position_from_view(view, engine)
    assert pos.tricks_left == EXACT_TRICKS and pos.pool.bit_count() == 6
    play = deal_from_record(engine, record)
    for _, action in d.actions[-1:]:
        play.apply(action)
    play.play(rng.choice(cards_of(view.legal)))
    options = ReviewOptions(samples=2, exact_budget=0.01)
    review = review_record(engine, deal_to_record(play), options=options, seats=[view.seat])
    (decision,) = list(review.decisions())
    assert decision.method == "exact", decision.to_json()
    utility = score_utility(pos.rules.cards.total, view.rules)
    solver = ChanceSolver(tables_for(pos.rules), pos.covers, pos.taker, utility)
    exact = solver.move_values(pos, window=False)
    assert values(decision) == pytest.approx(
        {card_str(c): exact[c] for c in cards_of(view.legal)}, abs=1e-6
    )


def uncovering_last(view: View, rng: random.Random) -> int:
    """A random legal card of ``view``, one that covers no face-down card if any."""
    covering = {p.top for row in view.piles for p in row if p.covered}
    legal = [c for c in cards_of(view.legal) if c not in covering]
    return rng.choice(legal or cards_of(view.legal))
