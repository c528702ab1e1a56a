"""La Coinche over many seeded deals (docs/rules.md, "La Coinche"): the conformance kit
on both forms and their variations, Belote's play obligations under a suit contract, and
the searches' scoring agreeing with the deal's score at every level."""

from __future__ import annotations

import random
from typing import Any

import pytest
from atout.core import DealEnd
from atout.core import Engine
from atout.core import Match
from atout.core.cards import cards_of
from atout.testing import check_rule_set
from helpers import reference_legal

GAMES = ("coinche", "coinche-decouverte")


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("coinche", {}),
        ("coinche", {"sans_tout_atout": "both", "bid_after_contre": True, "scoring": "announced"}),
        ("coinche", {"deal_packets": "4-4", "between_deals": "shuffle", "undertrump": "always"}),
        ("coinche-decouverte", {"reveal_on_lead": True, "tie": "litige"}),
    ],
)
def test_the_conformance_kit_holds_on_every_form(
    engine: Engine, game: str, rules: dict[str, Any]
) -> None:
    report = check_rule_set(engine, game, rules, deals=80, seed=11)
    report.assert_ok()
    assert report.deals == 80


@pytest.mark.parametrize("game", GAMES)
def test_thousands_of_deals_keep_the_invariants(engine: Engine, game: str) -> None:
    # Views are checked in the test above; here many deals: legal sets never empty,
    # every card once, 162 points a deal, scores as the scorer says, records replay.
    report = check_rule_set(
        engine, game, {"sans_tout_atout": "both"}, deals=1000, seed=3, views=False
    )
    report.assert_ok()
    assert report.deals == 1000
    assert len(report.contracts) == 6, "every strain was played"


def test_the_play_obligations_are_belotes_under_a_suit(engine: Engine) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(60):
        match = Match(engine, "coinche", engine.make_rules("coinche", {}), seed=seed)
        deal = match.next_deal()
        deal.bid(rng.choice([b for b in deal.legal_bids() if b[-1] in "CDHS"]))
        while deal.phase == "bidding":
            deal.bid("pass")
        trump = deal.state.trump
        while not deal.is_over:
            s = deal.state
            hand = list(cards_of(s.hands[s.turn]))
            trick = [((s.leader + i) % 4, c) for i, c in enumerate(s.trick)]
            assert set(cards_of(deal.legal_cards())) == reference_legal(hand, trick, trump, s.turn)
            checked += 1
            deal.play(rng.choice(list(cards_of(deal.legal_cards()))))
    assert checked == 60 * 32


@pytest.mark.parametrize("game", GAMES)
def test_the_searches_scoring_agrees_with_the_deal_score(engine: Engine, game: str) -> None:
    levels = set()
    for seed in range(80):
        rng = random.Random(seed)
        match = Match(engine, game, engine.make_rules(game, {"rounding": 0}), seed=seed)
        deal = match.next_deal()
        mode = seed % 3  # 0: never double, 1: contre only, 2: contre and surcontre
        while deal.phase == "bidding":
            options = [b for b in deal.legal_bids() if b not in ("contre", "surcontre")[mode:]]
            doubles = [b for b in options if b in ("contre", "surcontre")]
            deal.bid(doubles[0] if doubles else rng.choice(options))
        if deal.phase != "play":
            continue
        contract = deal.state.contract
        assert contract is not None and contract.value is not None
        levels.add(contract.level)
        while not deal.is_over:
            deal.play(rng.choice(list(cards_of(deal.legal_cards()))))
        s = deal.state
        scorer = deal.rules_compiled.scorer
        assert scorer is not None and deal.score is not None
        tricks = len(s.tricks)
        capot = next((t for t in (0, 1) if s.tricks_won(t) == tricks), None)
        belote = [0, 0]
        for d in s.declarations:
            belote[s.team_of[d.seat]] += d.points
        if game == "coinche-decouverte":
            belote = [0, 0]
            for a in s.announcements:
                if a.text in ("rebelote", "belote-rebelote"):
                    belote[a.seat] = 20
        end = DealEnd(tuple(s.team_points()), capot, (0, 0), tuple(belote))
        assert scorer(end).score == deal.score.score, f"seed {seed}"
    assert levels == {1, 2, 4}
