"""The expert's card play at La Coinche reads the auction: a suit a seat opened is its
best suit or close to it, a pass while no contract stood shows no suit to open with;
the sampled layouts follow both (docs/bots.md, *What the expert reads*)."""

from __future__ import annotations

import random

from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core.cards import SUITS
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.bots.basic import scaled_count
from atout.plugins.bots.belote_expert import AuctionHint
from atout.plugins.bots.belote_expert import infer_constraints
from atout.plugins.bots.belote_expert import read_auction
from atout.plugins.bots.belote_expert import sample_hands
from helpers import cards

GAME = "coinche"
HEARTS = SUITS.index("H")
SPADES = SUITS.index("S")
DIAMONDS = SUITS.index("D")


def deal_after(engine: Engine, bids: tuple[str, ...]) -> Deal:
    """A four-player deal (the cards in order, eight by seat) after ``bids``; West
    (seat 3) deals, so South (seat 0) speaks first."""
    hands = tuple(sum(1 << c for c in range(s * 8, s * 8 + 8)) for s in range(4))
    state = DealState(GAME, engine.make_rules(GAME, {}), 4, 2, 3, Layout(hands=hands))
    deal = engine.deal_from_state(state)
    for bid in bids:
        deal.bid(bid)
    return deal


def test_the_reading_takes_openings_and_the_passes_before_any_contract(engine: Engine) -> None:
    bids = ("pass", "80 H", "90 S", "100 H", "pass", "110 D", "pass", "pass", "pass")
    deal = deal_after(engine, bids)
    assert deal.state.phase == "play"
    # North (seat 2) reads: South's first pass (no contract stood), East's hearts, and
    # East's diamonds (hearts left out: East named them); not West's raise of its
    # partner's hearts, not the passes over a contract, not its own spades
    assert read_auction(deal.view(2), engine) == (
        AuctionHint(0, None),
        AuctionHint(1, HEARTS),
        AuctionHint(1, DIAMONDS, 1 << HEARTS),
    )
    # East reads North's spades and South's pass, never its own bids
    assert read_auction(deal.view(1), engine) == (AuctionHint(0, None), AuctionHint(2, SPADES))


def test_an_opening_fits_a_hand_whose_suit_counts_near_its_best() -> None:
    hearts = AuctionHint(1, HEARTS)
    assert hearts.fits(cards("JH 9H AH 7S 8S 7C 8C 7D"))  # hearts its best suit
    assert not hearts.fits(cards("7H 8H JS 9S AS 10S 7C 8C"))  # spades far better
    near = cards("JH 9H 8H JS 9S AS KS 7C")  # hearts a little below spades
    assert scaled_count(near, HEARTS) < scaled_count(near, SPADES)
    assert hearts.fits(near)
    # a second suit is compared with the suits not named before it
    assert AuctionHint(1, HEARTS, 1 << SPADES).fits(cards("7H 8H JS 9S AS 10S 7C 8C"))
    passed = AuctionHint(0, None)
    assert passed.fits(cards("7H 8H 9S 7S 8C 7C 8D 7D"))
    assert not passed.fits(cards("JH 9H AH 10H 7S 8S 7C 8C"))


def test_every_greedy_opening_and_pass_fits_the_reading(engine: Engine) -> None:
    """The reading holds for the greedy bot's bidding: over seeded auctions of four
    greedy bots, every hint read from any seat fits the hand the bidder really held."""
    rules = engine.make_rules(GAME, {})
    read = 0
    for seed in range(400):
        match = Match(engine, GAME, rules, seed=7000 + seed)
        deal = match.next_deal()
        bots = [GreedyBot(seed * 4 + s, engine) for s in range(4)]
        while deal.state.phase == "bidding":
            deal.apply(bots[deal.turn].choose(deal.view(deal.turn)))
        if deal.state.phase != "play":
            continue
        for seat in range(4):
            for hint in read_auction(deal.view(seat), engine):
                assert hint.fits(deal.state.hands[hint.seat]), (seed, hint, deal.state.bids)
                read += 1
    assert read > 1000


def test_the_samples_follow_the_auction(engine: Engine) -> None:
    """East opened hearts: nearly every layout sampled with the auction's reading gives
    East a hand whose hearts count near its best suit, where about half do without."""
    deal = deal_after(engine, ("pass", "80 H", "pass", "pass", "pass"))
    view = deal.view(0)
    (hint, *_) = [h for h in read_auction(view, engine) if h.seat == 1]
    forbid = infer_constraints(view, engine)
    rng = random.Random(3)
    n = 400
    read = sum(
        hint.fits(sample_hands(view, rng, forbid, engine=engine, auction=(hint,))[1])
        for _ in range(n)
    )
    plain = sum(hint.fits(sample_hands(view, rng, forbid, engine=engine)[1]) for _ in range(n))
    assert read > 0.9 * n
    assert plain < 0.75 * n
