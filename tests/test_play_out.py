"""The engine's quick paths are the same game: ``Deal.play_out`` against card-by-card
play, the free lead of a move rule, the running points of the state, the direct hook
caller against pluggy's own call, and the deal check's fast path against its slow one."""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Generator
from typing import Any

import pytest
from atout.core import Card
from atout.core import CardSet
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core import Layout
from atout.core import Match
from atout.core import MoveRule
from atout.core import PluginError
from atout.core import cards_of
from atout.core import hookimpl
from atout.core import make_plugin_manager
from atout.core.engine import check_layout
from helpers import third_party_plugins

GAMES = ("belote", "decouverte")


def fresh_engine() -> Engine:
    return Engine(make_plugin_manager(disable=third_party_plugins()))


def dealt(engine: Engine, game: str, seed: int) -> Deal:
    """A seeded deal of ``game`` in its play: the first seat to bid takes."""
    rng = random.Random(seed)
    deal = engine.new_deal(game, engine.default_rules(game), seed % engine.game(game).seats, rng)
    deal.bid("take")
    return deal


def random_policy(seed: int) -> Callable[[CardSet], Card]:
    rng = random.Random(seed)
    return lambda legal: rng.choice(cards_of(legal))


def snapshot(deal: Deal) -> tuple[Any, ...]:
    s = deal.state
    return (
        list(deal.actions),
        list(s.tricks),
        list(s.trick),
        list(s.hands),
        list(s.hidden),
        dict(s.under),
        list(s.won),
        list(s.points),
        s.played,
        s.turn,
        s.leader,
        list(s.announcements),
        deal.score,
    )


@pytest.mark.parametrize("game", GAMES)
def test_play_out_plays_exactly_the_deal_that_card_by_card_play_plays(
    engine: Engine, game: str
) -> None:
    for seed in range(300):
        quick = dealt(engine, game, seed)
        slow = dealt(engine, game, seed)
        quick.play_out(random_policy(seed))
        choose = random_policy(seed)
        while not slow.is_over:
            slow.play(choose(slow.legal_cards()))
        assert snapshot(quick) == snapshot(slow)
        assert quick.score is not None and quick.legal_cards() == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_state_keeps_each_seats_trick_points(engine: Engine, game: str) -> None:
    for seed in range(200):
        deal = dealt(engine, game, seed)
        deal.play_out(random_policy(seed), 7 + seed % 20)
        s = deal.state
        for seat in range(s.seats):
            assert s.points[seat] == sum(t.points for t in s.tricks if t.winner == seat)
        for team, points in enumerate(s.team_points()):
            assert points == sum(t.points for t in s.tricks if s.team_of[t.winner] == team)
        deal.play_out(random_policy(seed))
        assert sum(deal.state.points) == 162


def test_play_out_stops_after_the_cards_asked_and_goes_on_from_there(engine: Engine) -> None:
    deal = dealt(engine, "decouverte", 5)
    asked: list[CardSet] = []

    def lowest(legal: CardSet) -> Card:
        asked.append(legal)
        return (legal & -legal).bit_length() - 1

    deal.play_out(lowest, 3)
    plays = [a for _, a in deal.actions if a.kind == "play"]
    assert len(plays) == 3 and len(asked) == 3 and not deal.is_over
    assert [a.value for a in plays] == [(m & -m).bit_length() - 1 for m in asked]
    legal = deal.legal_cards()
    assert legal and not legal & ~deal.state.hands[deal.turn]
    deal.play_out(lowest)
    plays = [a for _, a in deal.actions if a.kind == "play"]
    assert len(plays) == len(asked) == 32 and deal.is_over and deal.score is not None


def test_play_out_refuses_an_illegal_card_and_changes_nothing(engine: Engine) -> None:
    deal = dealt(engine, "belote", 8)
    deal.play_out(random_policy(8), 5)  # the second card of the second trick is next
    before = snapshot(deal)
    legal = deal.legal_cards()
    illegal = next(
        c for c in cards_of(deal.state.hands[deal.turn] | deal.state.played) if not legal >> c & 1
    )
    with pytest.raises(IllegalMoveError):
        deal.play_out(lambda _legal: illegal)
    assert snapshot(deal) == before


def test_play_out_on_a_finished_deal_says_the_deal_is_over(engine: Engine) -> None:
    deal = dealt(engine, "decouverte", 2)
    deal.play_out(random_policy(2))
    with pytest.raises(IllegalMoveError, match="the deal is over"):
        deal.play_out(random_policy(2))


class CountingMoves(MoveRule):
    """Any card of the hand, counting the calls with and without a trick on the table."""

    def __init__(self, free_lead: bool) -> None:
        self.free_lead = free_lead
        self.leads = 0
        self.follows = 0

    def legal(self, state: DealState) -> CardSet:
        if state.trick:
            self.follows += 1
        else:
            self.leads += 1
        hand: CardSet = state.hands[state.turn]
        return hand


class AnyCard:
    def __init__(self, moves: CountingMoves) -> None:
        self.moves = moves

    @hookimpl(tryfirst=True)
    def atout_legal_moves(self, game: str, rules: Any, contract: Contract) -> MoveRule:
        return self.moves


@pytest.mark.parametrize("free_lead", [False, True])
def test_a_free_lead_is_never_asked_of_the_move_rule(free_lead: bool) -> None:
    engine = fresh_engine()
    moves = CountingMoves(free_lead)
    engine.pm.register(AnyCard(moves), name="any-card")
    deal = dealt(engine, "belote", 4)
    while not deal.is_over:
        hand = deal.state.hands[deal.turn]
        assert deal.legal_cards() == hand
        deal.play(cards_of(hand)[-1])
    assert moves.follows == 24
    assert moves.leads == (0 if free_lead else 8)


class FollowFails(CountingMoves):
    """A move rule that fails whenever a card must be answered."""

    def legal(self, state: DealState) -> CardSet:
        if state.trick:
            raise ZeroDivisionError("no answer")
        return super().legal(state)


def test_a_move_rule_that_fails_fails_on_the_next_ask_not_after_a_card() -> None:
    """The legal cards of the next seat are worked out when asked, so a played card is
    never followed by an error: the card is booked, the next question fails."""
    engine = fresh_engine()
    engine.pm.register(AnyCard(FollowFails(free_lead=True)), name="follow-fails")
    deal = dealt(engine, "belote", 4)
    lead = cards_of(deal.legal_cards())[0]
    deal.play(lead)
    assert deal.state.trick == [lead]
    with pytest.raises(PluginError, match=r"follow-fails.*atout_legal_moves.*no answer"):
        deal.legal_cards()
    with pytest.raises(PluginError, match="follow-fails"):
        deal.play_out(random_policy(4))
    assert deal.state.trick == [lead]


def test_the_direct_hook_caller_answers_as_pluggy_does(engine: Engine) -> None:
    pm = engine.pm
    match = Match(engine, "decouverte", seed=11)
    deal = match.play_deal(lambda d: d.legal_actions()[0])
    state = deal.state
    calls: list[tuple[str, dict[str, Any]]] = [
        ("atout_games", {}),
        ("atout_rule_options", {"game": "belote"}),
        ("atout_declarations", {"game": "decouverte", "rules": state.rules, "state": state}),
        ("atout_score_deal", {"game": "decouverte", "rules": state.rules, "state": state}),
        ("atout_bots", {}),
    ]
    for hook, kwargs in calls:
        assert pm.caller(hook)(kwargs) == getattr(pm.hook, hook)(**kwargs), hook


class Wrapper:
    """A hook wrapper that sees every scoring: the direct caller must step aside."""

    def __init__(self) -> None:
        self.seen = 0

    @hookimpl(wrapper=True)
    def atout_score_deal(self, game: str, rules: Any, state: Any) -> Generator[None, Any, Any]:
        self.seen += 1
        return (yield)


def test_a_hook_wrapper_sees_the_engines_calls() -> None:
    engine = fresh_engine()
    wrapper = Wrapper()
    engine.pm.register(wrapper, name="wrapper")
    deal = dealt(engine, "decouverte", 1)
    deal.play_out(random_policy(1))
    assert wrapper.seen == 1 and deal.score is not None
    engine.pm.unregister(name="wrapper")
    deal = dealt(engine, "decouverte", 2)
    deal.play_out(random_policy(2))
    assert wrapper.seen == 1


def test_a_deal_with_a_number_that_is_no_card_is_refused_in_one_line(engine: Engine) -> None:
    info = engine.game("decouverte")
    good = dealt(engine, "decouverte", 3).state.layout
    check_layout(good, info)
    row = ((good.piles[0][0][0], 40), *good.piles[0][1:])
    bad = Layout(good.hands, (row, good.piles[1]), turnup=good.turnup, open_hands=True)
    with pytest.raises(
        PluginError, match=r"^atout_deal for decouverte dealt 40, which is not a card \(0-31\)$"
    ):
        check_layout(bad, info)
    twice = ((good.piles[0][0][0], good.piles[0][1][1]), *good.piles[0][1:])
    bad = Layout(good.hands, (twice, good.piles[1]), turnup=good.turnup, open_hands=True)
    with pytest.raises(PluginError, match=r"dealt \S+ twice$"):
        check_layout(bad, info)


def test_rules_answer_get_and_in_for_their_own_options(engine: Engine) -> None:
    rules = engine.default_rules("decouverte")
    assert rules.get("target") == rules["target"] == 1000
    assert rules.get("direction") is None and rules.get("direction", "x") == "x"
    assert "target" in rules and "direction" not in rules


class LateScorer:
    """A scorer registered after the engine has called the scoring hook directly."""

    @hookimpl(tryfirst=True)
    def atout_score_deal(self, game: str, rules: Any, state: Any) -> Any:
        raise ZeroDivisionError("the late scorer answers")


def test_a_plugin_registered_later_is_called_by_the_next_deal() -> None:
    engine = fresh_engine()
    deal = dealt(engine, "decouverte", 6)
    deal.play_out(random_policy(6))
    assert deal.score is not None
    engine.pm.register(LateScorer(), name="late")
    deal = dealt(engine, "decouverte", 7)
    with pytest.raises(PluginError, match="the late scorer answers") as caught:
        deal.play_out(random_policy(7))
    assert caught.value.plugin == "late" and caught.value.hook == "atout_score_deal"
