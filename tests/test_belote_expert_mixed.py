"""Mixed bots (``PLAYER+BIDDER-bids``): the bids are one bot's, the cards the other's, in
every game, through the duplicate runner and the bench's spec check."""

from __future__ import annotations

from typing import Any

import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import Match
from atout.core import View
from atout.core.errors import UnknownNameError
from atout.plugins.bots.duplicate import run_duplicate
from atout.plugins.bots.duplicate import run_pairs
from atout.plugins.bots.mixed import MixedBot
from atout.plugins.bots.mixed import make_bot
from atout.plugins.bots.mixed import parse_spec
from atout.plugins.bots.mixed import spec_games
from helpers import shipped_engine


@pytest.fixture(scope="module")
def eng() -> Engine:
    return shipped_engine()


class Recorder:
    """Wraps a bot and records the phase of every view it was asked about."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.phases: list[str] = []

    def choose(self, view: View) -> Action:
        self.phases.append(view.phase)
        action: Action = self.bot.choose(view)
        return action


def test_parse_spec_reads_both_orders_and_plain_names() -> None:
    assert parse_spec("expert+greedy-bids") == ("expert", "greedy")
    assert parse_spec("greedy-bids+expert") == ("expert", "greedy")
    assert parse_spec(" random ") == ("random", None)
    for bad in ("expert+greedy", "a-bids+b-bids", "+greedy-bids", "a+b+c-bids"):
        with pytest.raises(UnknownNameError, match="PLAYER\\+BIDDER-bids"):
            parse_spec(bad)


def test_an_unknown_name_in_a_mixed_spec_lists_the_bots(eng: Engine) -> None:
    with pytest.raises(UnknownNameError, match="greedy"):
        spec_games(eng, "expert+nobody-bids")
    assert set(spec_games(eng, "expert+greedy-bids")) == {
        "belote",
        "decouverte",
        "coinche",
        "coinche-decouverte",
    }


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_the_mixed_bot_bids_with_one_bot_and_plays_with_the_other(eng: Engine, game: str) -> None:
    rules = eng.default_rules(game)
    seats = eng.game(game).seats
    bidders = [Recorder(eng.bot("greedy", game, rules, seed=s)) for s in range(seats)]
    players = [Recorder(eng.bot("random", game, rules, seed=s)) for s in range(seats)]
    bots = [MixedBot(bidders[s], players[s]) for s in range(seats)]
    for seed in range(3):
        match = Match(eng, game, rules, seed=seed)
        match.play_deal(lambda deal: bots[deal.turn].choose(deal.view(deal.turn)))
    bid_phases = {p for b in bidders for p in b.phases}
    play_phases = {p for b in players for p in b.phases}
    assert bid_phases == {"bidding"}
    assert "play" in play_phases and "bidding" not in play_phases


def test_make_bot_builds_a_plain_bot_or_a_mix(eng: Engine) -> None:
    rules = eng.default_rules("belote")
    mixed = make_bot(eng, "random+greedy-bids", "belote", rules, seed=3)
    assert isinstance(mixed, MixedBot)
    assert type(mixed.bidder).__name__ == "GreedyBot"
    assert type(mixed.player).__name__ == "RandomBot"
    assert type(make_bot(eng, "greedy", "belote", rules)).__name__ == "GreedyBot"


def test_a_duplicate_of_same_bidding_and_same_play_is_exactly_even(eng: Engine) -> None:
    # greedy bids and plays in both specs: every pair is the same game twice
    result = run_duplicate(eng, "belote", "greedy+greedy-bids", "greedy", 4, seed=5)
    assert result.deals == 4 and result.mean == 0.0 and result.deals_tied == 4
    # random bids against greedy's, same greedy cards: the bidding alone makes a difference
    other = run_duplicate(eng, "belote", "greedy+random-bids", "greedy", 6, seed=5)
    assert other.deals_tied < 6


# --- bidding-only duplicate matches ---------------------------------------------------------


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_a_bidding_only_match_plays_just_the_pairs_that_bid_differently(
    eng: Engine, game: str
) -> None:
    """Greedy cards on both sides, random bids against greedy's: a pair whose two
    seatings bid alike is scored 0 unplayed (and greedy's play, the same in every seat,
    gives exactly 0 there when played in full); a pair that bids differently is played
    on from its bidding to the very scores of the full match."""
    rules = eng.default_rules(game)
    a, b = "greedy+random-bids", "greedy"
    full = run_pairs(eng, game, rules, a, b, 16, seed=7)
    only = run_pairs(eng, game, rules, a, b, 16, seed=7, bidding_only=True)
    played = [p for p in only if p.played]
    assert 0 < len(played) < len(only), "the deals should include both kinds"
    for whole, part in zip(full, only, strict=True):
        assert whole.index == part.index
        if part.played:
            assert part.scores == whole.scores and part.deal_scores == whole.deal_scores
        else:
            assert part.diff == 0.0 and part.deal_scores is None
            assert whole.diff == 0.0
    result = run_duplicate(eng, game, a, b, 16, seed=7, bidding_only=True)
    assert result.bidding_only and result.deals_played == len(played)
    assert result.deals_tied >= len(only) - len(played)
    assert result.mean == pytest.approx(sum(p.diff for p in played) / len(only))


def test_a_bidding_only_match_needs_bots_that_play_alike(eng: Engine) -> None:
    with pytest.raises(UnknownNameError, match="must play alike"):
        run_duplicate(eng, "belote", "expert", "greedy", 1, bidding_only=True)
    with pytest.raises(UnknownNameError, match="'random'"):
        run_duplicate(eng, "belote", "random+greedy-bids", "greedy", 1, bidding_only=True)
