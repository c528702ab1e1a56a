"""The review values La Coinche's bids, for four players and on Découverte's piles: every
legal bid gets a value from the bidder's view, all of them on the same sampled layouts
(paired), a clear mistake shows a proved loss, and the hidden cards (the other hands,
the face-down cards) change nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from atout.core import Engine
from atout.core.cards import FULL_DECK
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.cards import parse_cards
from atout.plugins.review import SAMPLED
from atout.plugins.review import Decision
from atout.plugins.review import ReviewOptions
from atout.plugins.review import review_record

SAMPLES = 10
"""Enough to prove a loss (the review's ``PROOF_SAMPLES``), few enough to stay fast."""

WEAK = "7C 8C 9C 7D 8D 9D 7S 8S"
"""A hand without a trick in any strain."""
STRONG = "JH 9H AH 10H KH QH AS AD"
"""A hand that makes a hearts contract high, the capot often."""


def coinche_bidding_record(hand: str, bids: Sequence[str], rest: Sequence[str]) -> dict[str, Any]:
    """A four-player La Coinche deal laid out by hand: West deals, South (seat 0, first to
    bid) holds ``hand``, the other seats ``rest`` in turn; ``bids`` are the first bids,
    from South on."""
    others = list(rest)
    return {
        "format": "atout-deal",
        "version": 1,
        "game": "coinche",
        "rules": {},
        "dealer": 3,
        "layout": {"hands": [hand.split(), others[0:8], others[8:16], others[16:24]]},
        "actions": [{"seat": i % 4, "bid": b} for i, b in enumerate(bids)],
    }


def rest_of(hand: str) -> list[str]:
    """The 24 cards ``hand`` leaves, in the pack's order."""
    return [card_str(c) for c in cards_of(FULL_DECK & ~parse_cards(hand))]


def review(engine: Engine, record: dict[str, Any], seat: int = 0) -> list[Decision]:
    return list(
        review_record(
            engine, record, options=ReviewOptions(samples=SAMPLES), seats=[seat]
        ).decisions()
    )


def values(d: Decision) -> dict[str, float]:
    return {v.action: v.value for v in d.legal if v.value is not None}


def legal_bids(engine: Engine, record: dict[str, Any], step: int) -> set[str]:
    from atout.core.records import deal_from_record

    deal = deal_from_record(engine, {**record, "actions": record["actions"][: step - 1]})
    return set(deal.legal_bids())


def test_every_coinche_bid_is_valued_and_a_capot_on_a_weak_hand_is_a_blunder(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """South bids capot in spades on a hand without a trick: each of its ~40 legal bids
    is valued on the same ten layouts (one layout drawn a sample, shared by every bid),
    passing is worth about nothing and the capot loses hundreds, proved."""
    import atout.plugins.review.review as review_module

    drawn: list[int] = []
    real = review_module.auction_deal

    def counted(*args: Any, **kwargs: Any) -> list[int]:
        drawn.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(review_module, "auction_deal", counted)
    record = coinche_bidding_record(WEAK, ["capot S"], rest_of(WEAK))
    (d,) = review(engine, record)
    assert d.method == SAMPLED and d.samples == SAMPLES
    assert len(drawn) == SAMPLES  # one layout a sample, every bid valued on it
    vals = values(d)
    assert set(vals) == legal_bids(engine, record, 1) and len(vals) > 30
    assert abs(vals["pass"]) < 100 and vals["capot S"] < -400
    assert d.best != "capot S" and d.loss > 300 and not d.within_noise
    assert d.loss_interval is not None and d.loss_interval[0] > 0


def test_passing_a_monster_coinche_hand_is_a_mistake_whatever_the_hidden_hands(
    engine: Engine,
) -> None:
    """South passes with the six best hearts and two aces: a hearts contract is best by
    far, the loss proved; the other hands dealt otherwise (South's view the same) give
    the very same review, which reads only South's view."""
    rest = rest_of(STRONG)
    record = coinche_bidding_record(STRONG, ["pass"], rest)
    (d,) = review(engine, record)
    assert d.method == SAMPLED
    vals = values(d)
    assert d.best is not None and d.best.endswith(" H")
    assert vals[d.best] > 150 and d.loss > 100 and d.loss_interval is not None
    assert d.loss_interval[0] > 0
    other = coinche_bidding_record(STRONG, ["pass"], rest[::-1])
    (e,) = review(engine, other)
    assert e.to_json() == d.to_json()


def test_a_later_coinche_bid_is_valued_after_the_bids_before_it(engine: Engine) -> None:
    """North, after South's 80 in hearts and West's pass, holds the trumps' master cards:
    its bids (raising hearts, contre is not among them: its partner bid) are valued, and
    the review does not change when East's and West's hands are swapped."""
    north = "JH 9H AH AC 10C AD 10D KS"
    south = "7H 8H QH 7C 8C 7D 8D 7S"
    rest = [card_str(c) for c in cards_of(FULL_DECK & ~parse_cards(north) & ~parse_cards(south))]
    hands = [south.split(), rest[0:8], north.split(), rest[8:16]]
    record: dict[str, Any] = {
        "format": "atout-deal",
        "version": 1,
        "game": "coinche",
        "rules": {},
        "dealer": 3,
        "layout": {"hands": hands},
        "actions": [
            {"seat": 0, "bid": "80 H"},
            {"seat": 1, "bid": "pass"},
            {"seat": 2, "bid": "pass"},
        ],
    }
    (d,) = review(engine, record, seat=2)
    vals = values(d)
    assert d.method == SAMPLED and set(vals) == legal_bids(engine, record, 3)
    assert "contre" not in vals and "100 H" in vals
    swapped = {**record, "layout": {"hands": [hands[0], hands[3], hands[2], hands[1]]}}
    (e,) = review(engine, swapped, seat=2)
    assert e.to_json() == d.to_json()


# --- Découverte Coinche -----------------------------------------------------------------


def decouverte_coinche_record(
    piles: Sequence[Sequence[tuple[str, str]]], bid: str
) -> dict[str, Any]:
    """A Découverte Coinche deal laid out by hand (each pile a face-up card over a
    face-down one): the dealer is North, South (seat 0) bids ``bid`` first."""
    return {
        "format": "atout-deal",
        "version": 1,
        "game": "coinche-decouverte",
        "rules": {},
        "dealer": 1,
        "layout": {
            "hands": [[up for up, _ in row] for row in piles],
            "piles": [[{"up": up, "down": down} for up, down in row] for row in piles],
        },
        "actions": [{"seat": 0, "bid": bid}],
    }


def test_decouverte_coinche_bids_are_valued_from_the_face_up_cards_only(engine: Engine) -> None:
    """South passes with the trumps' masters face up in hearts and three aces: a hearts
    contract is best, the loss proved; the face-down cards dealt otherwise give the same
    review (no one has seen them)."""
    south = ["JH", "9H", "AH", "10H", "KH", "AS", "AD", "AC"]
    north = ["7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C"]
    down = [
        card_str(c)
        for c in cards_of(FULL_DECK & ~parse_cards(" ".join(south)) & ~parse_cards(" ".join(north)))
    ]
    piles = [list(zip(south, down[0:8], strict=True)), list(zip(north, down[8:16], strict=True))]
    record = decouverte_coinche_record(piles, "pass")
    (d,) = review(engine, record)
    vals = values(d)
    assert d.method == SAMPLED and d.samples == SAMPLES
    assert set(vals) == legal_bids(engine, record, 1) and len(vals) > 30
    assert d.best is not None and d.best.endswith(" H") and d.loss > 100
    assert d.loss_interval is not None and d.loss_interval[0] > 0
    shuffled = down[::-1]
    other = [
        list(zip(south, shuffled[0:8], strict=True)),
        list(zip(north, shuffled[8:16], strict=True)),
    ]
    (e,) = review(engine, decouverte_coinche_record(other, "pass"))
    assert e.to_json() == d.to_json()


def test_the_review_screen_lists_the_best_bids_and_the_one_made_and_counts_the_rest() -> None:
    """Of La Coinche's forty bids the Review screen lists the best ones and the bid made
    wherever it ranks, and says how many more (``atout review`` lists them all); a hand's
    eight cards are all listed, even on a panel short of room."""
    from atout.plugins.review import Valued
    from atout.ui.window.review_labels import BRIEF_VALUES
    from atout.ui.window.review_labels import MOST_VALUES
    from atout.ui.window.review_labels import more_values
    from atout.ui.window.review_labels import values_shown

    bids = [Valued(f"{80 + 10 * (i % 9)} {'HSDC'[i // 9]}", float(-i)) for i in range(36)]
    taken = bids[30].action
    d = Decision(1, 1, 0, "bidding", 0, taken, tuple(bids[::-1]), SAMPLED, best=bids[0].action)
    for most in (MOST_VALUES, BRIEF_VALUES):
        shown, hidden = values_shown(d, most)
        assert [v.action for v in shown] == [v.action for v in bids[: most - 1]] + [taken]
        assert hidden == 36 - most
    assert more_values(28) == "and 28 more, valued lower"
    cards = tuple(
        Valued(c, float(i)) for i, c in enumerate(["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"])
    )
    hand = Decision(1, 1, 0, "play", 1, "7H", cards, SAMPLED)
    shown, hidden = values_shown(hand, BRIEF_VALUES)
    assert len(shown) == 8 and hidden == 0 and shown[0].action == "AH"
