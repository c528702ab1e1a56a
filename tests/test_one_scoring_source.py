"""One scoring source: the bots and the review value a deal by the rule plugin's own
scoring (hook ``atout_deal_scorer``), never by a copy of it.

A test plugin gives four-player Belote and Découverte an odd scoring (the takers need 100
card points, and a made contract scores double); the expert's valuation follows it, and
the plugin kit catches a plugin whose two scoring hooks disagree.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Generator

from atout.core import DealEnd
from atout.core import DealScore
from atout.core import DealScorer
from atout.core import Engine
from atout.core import hookimpl
from atout.core.model import Contract
from atout.core.model import Rules
from atout.core.state import DealState
from atout.plugins.bots.belote_expert import deal_utility
from atout.plugins.search.decouverte import score_utility
from atout.plugins.search.rules import CardRules
from atout.plugins.search.rules import DealPoints
from atout.testing import check_rule_set
from atout.testing import engine_with
from helpers import position

NEED = 100
"""The odd scoring's bar: the takers make the contract with 100 card points or more."""


def odd_settle(takers: int, end: DealEnd) -> DealScore:
    """Made (100 or more): each team scores its card points, the takers double; else the
    defenders score everything."""
    cards = list(end.card_points)
    total = sum(cards)
    made = cards[takers] >= NEED
    score = [0, 0]
    if made:
        score = list(cards)
        score[takers] *= 2
    else:
        score[1 - takers] = total
    return DealScore(tuple(cards), (0, 0), tuple(score), "made" if made else "dedans", made)


class OddScoring:
    """Both scoring hooks of both games, tried before the games' own."""

    @hookimpl(tryfirst=True)
    def atout_deal_scorer(self, game: str, rules: Rules, contract: Contract) -> DealScorer:
        return functools.partial(odd_settle, contract.taker % 2)

    @hookimpl(tryfirst=True)
    def atout_score_deal(self, game: str, rules: Rules, state: DealState) -> DealScore:
        assert state.contract is not None
        return odd_settle(state.contract.taker % 2, DealEnd(tuple(state.team_points())))


class ScoreOnlyWrapped:
    """A plugin that changes the played deal's score but not the searches' scorer: the
    two disagree, which the plugin kit must report."""

    @hookimpl(wrapper=True)
    def atout_score_deal(
        self, game: str, rules: Rules, state: DealState
    ) -> Generator[None, DealScore | None, DealScore | None]:
        score = yield
        if score is None:
            return None
        return dataclasses.replace(score, score=tuple(p + 1 for p in score.score))


def test_the_four_player_expert_values_a_deal_by_the_plugins_scoring(engine: Engine) -> None:
    odd = engine_with(OddScoring())
    for eng, expected in ((engine, (100 - 62, 82 - 80)), (odd, (2 * 100 - 62, -162))):
        deal = position(eng, ["JH", "7C", "8C", "9C"], trump="H", taker=0, leader=0)
        view = deal.view(0)
        assert view.contract is not None
        total = CardRules.of(eng.play_rules("belote", view.rules, view.contract)).total
        got = tuple(deal_utility(view, DealPoints(x, [0, 0], total), engine=eng) for x in (100, 82))
        assert got == expected


def test_the_decouverte_expert_values_a_deal_by_the_plugins_scoring(engine: Engine) -> None:
    rules = engine.default_rules("decouverte")
    shipped = score_utility(162, rules, engine=engine)
    odd = score_utility(162, rules, engine=engine_with(OddScoring()))
    assert (shipped[82], shipped[99], shipped[100]) == (2, 36, 38)
    assert (odd[82], odd[99], odd[100]) == (-162, -162, 2 * 100 - 62)


def test_the_kit_reports_a_score_the_searches_would_not_give(engine: Engine) -> None:
    report = check_rule_set(engine_with(ScoreOnlyWrapped()), "belote", deals=6, views=False)
    assert not report.ok
    assert {f.check for f in report.failures} == {"points"}
    assert "atout_deal_scorer" in report.failures[0].message


def test_the_kit_passes_a_plugin_whose_two_scoring_hooks_agree(engine: Engine) -> None:
    for game in ("belote", "decouverte"):
        report = check_rule_set(engine_with(OddScoring()), game, deals=6, views=False)
        report.assert_ok()
