"""The bots: registered by name, blind to hidden cards, always legal, and the expert's
reading of the play (what it infers, how it samples, when it claims) is sound."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
from atout.core import Action
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Match
from atout.core import View
from atout.core import cards_of
from atout.core.errors import UnknownNameError
from atout.core.model import DealScore
from atout.plugins.bots.basic import GreedyBot
from atout.plugins.bots.basic import RandomBot
from atout.plugins.bots.basic import SearchingBot
from atout.plugins.bots.basic import hand_strength
from atout.plugins.bots.basic import sure_claim
from atout.plugins.bots.belote_expert import DEFAULT_BUDGET as BELOTE_BUDGET
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.plugins.bots.belote_expert import PlayHint
from atout.plugins.bots.belote_expert import deal_utility
from atout.plugins.bots.belote_expert import infer_constraints
from atout.plugins.bots.belote_expert import read_play
from atout.plugins.bots.belote_expert import sample_hands
from atout.plugins.bots.decouverte_expert import DEFAULT_BUDGET as DECOUVERTE_BUDGET
from atout.plugins.bots.decouverte_expert import DecouverteExpert
from atout.plugins.bots.duplicate import count_matches
from atout.plugins.bots.duplicate import run_duplicate
from atout.plugins.search.rules import CardRules
from atout.plugins.search.rules import DealPoints
from atout.plugins.search.stats import normal_interval
from helpers import card
from helpers import cards
from helpers import position
from helpers import shipped_engine

GAMES = ("belote", "decouverte")


@pytest.fixture(scope="module")
def eng() -> Engine:
    return shipped_engine()


def play_deals(
    engine: Engine,
    game: str,
    make: Callable[[int, int], Any],
    deals: int,
    rules: dict[str, Any] | None = None,
    on_view: Callable[[Deal, View], None] | None = None,
) -> Iterator[Deal]:
    """Play seeded deals with ``make(deal_index, seat)`` bots, checking every action
    is one of the deal's legal actions."""
    game_rules = engine.make_rules(game, rules or {})
    seats = engine.game(game).seats
    for d in range(deals):
        match = Match(engine, game, game_rules, seed=1000 + d)
        bots = [make(d, s) for s in range(seats)]

        def choose(deal: Deal, bots: list[Any] = bots, match: Match = match) -> Action:
            view = deal.view(deal.turn, scores=tuple(match.scores))
            if on_view is not None:
                on_view(deal, view)
            action = bots[deal.turn].choose(view)
            assert action in deal.legal_actions(), (action, deal.legal_actions())
            return action

        yield match.play_deal(choose)


def count_whole_deals(deals: Iterator[Deal]) -> int:
    """How many of ``deals`` were played to the end: every one of the 32 cards played
    once, in full tricks, and the deal scored (fails at the first deal that was not)."""
    played = 0
    for deal in deals:
        cards = [c for trick in deal.state.tricks for c in trick.cards]
        assert sorted(cards) == list(range(32)), [str(t) for t in deal.state.tricks]
        assert deal.score is not None
        played += 1
    return played


# --- registration -----------------------------------------------------------------------


def test_random_greedy_and_expert_are_registered_for_both_games(eng: Engine) -> None:
    bots = eng.bots
    for name in ("random", "greedy", "expert"):
        assert name in bots
        for game in GAMES:
            assert game in bots[name].games
            bot = eng.bot(name, game, eng.default_rules(game), seed=1)
            assert callable(bot.choose)
    assert bots["random"].level < bots["greedy"].level < bots["expert"].level


def test_the_experts_give_hints(eng: Engine) -> None:
    for game in GAMES:
        rules = eng.default_rules(game)
        bot = eng.bot("expert", game, rules, seed=1, think=0.05)
        deal = Match(eng, game, rules, seed=5).next_deal()
        hint = bot.hint(deal.view(deal.turn))
        assert getattr(hint, "action", hint) in deal.legal_actions()


def test_both_experts_keep_the_searching_bots_settings(eng: Engine) -> None:
    """The settings both experts share (:class:`SearchingBot`) mean the same in each: a
    think time is the budget, none is the game's own default, the seed seeds the
    sampling, and the game's own settings stay by keyword."""
    for game, default in (("belote", BELOTE_BUDGET), ("decouverte", DECOUVERTE_BUDGET)):
        rules = eng.default_rules(game)
        timed = eng.bot("expert", game, rules, seed=4, think=0.25)
        assert isinstance(timed, SearchingBot)
        assert (timed.budget, timed.think, timed.samples) == (0.25, 0.25, None)
        assert timed.rng.random() == random.Random(4).random()
        assert eng.bot("expert", game, rules).budget == default
    assert DECOUVERTE_BUDGET != BELOTE_BUDGET
    expert = BeloteExpert(seed=2, samples=3, engine=eng, signals=False)
    assert (expert.samples, expert.signals, expert.read_signals) == (3, False, False)
    assert DecouverteExpert(samples=3, engine=eng).bid_samples == 4


def test_an_unknown_bot_name_lists_the_bots(eng: Engine) -> None:
    with pytest.raises(UnknownNameError, match="greedy"):
        eng.bot("grandmaster", "belote", eng.default_rules("belote"))
    with pytest.raises(UnknownNameError, match=r"'grandmaster'; the bots are: .*expert"):
        eng.bot_info("grandmaster")  # any game
    assert eng.bot_info("expert", "decouverte").name == "expert"
    assert set(eng.bot_info("expert").games) >= {"belote", "decouverte"}


# --- a view is all a bot gets --------------------------------------------------------------


def _reachable(root: object, limit: int = 20000) -> Iterator[object]:
    """Every object reachable from ``root`` by references (breadth first, bounded)."""
    seen = {id(root)}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        yield obj
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, type):
                seen.add(id(ref))
                todo.append(ref)


@pytest.mark.parametrize("game", GAMES)
def test_hidden_cards_are_not_reachable_from_a_view(eng: Engine, game: str) -> None:
    rules = eng.default_rules(game)
    match = Match(eng, game, rules, seed=4)
    deal = match.next_deal()
    rng = random.Random(4)
    while deal.phase == "bidding":
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.phase == "play", "seed 4 should not pass out"
    for _ in range(5):
        deal.play(cards_of(deal.legal_cards())[0])
    s = deal.state
    seat = s.turn
    view = deal.view(seat)
    hidden_hands = {s.hands[o] for o in range(s.seats) if o != seat and not s.open_hands}
    hidden_cards = 0
    for o in range(s.seats):
        hidden_cards |= s.hidden[o]
        if o != seat and not s.open_hands:
            hidden_cards |= s.hands[o] & ~view.shown[o]
    assert hidden_cards, "the position should hide some cards"
    assert not view.known_cards() & hidden_cards
    for obj in _reachable(view):
        assert not isinstance(obj, (DealState, Deal, Match, Engine))
        if isinstance(obj, int) and not isinstance(obj, bool) and obj.bit_count() >= 4:
            assert obj not in hidden_hands, "a hidden hand is reachable from the view"
            assert obj != s.hidden[seat] or not s.hidden[seat]


def test_a_bot_decides_the_same_whatever_the_hidden_cards(eng: Engine) -> None:
    # two deals that differ only in the cards of East and West (hidden from South)
    hands_a = [
        "JH 9H AS 10S KC 7D 8D QC",
        "AH 10H 7S 8S 9S AC 10C JC",
        "KH QH JS QS KS 9C 8C 7C",
        "7H 8H AD 10D KD QD JD 9D",
    ]
    hands_b = [
        "JH 9H AS 10S KC 7D 8D QC",
        "7H 8H AD 10D KD QD JD 9D",
        "KH QH JS QS KS 9C 8C 7C",
        "AH 10H 7S 8S 9S AC 10C JC",
    ]
    views = []
    for hands in (hands_a, hands_b):
        deal = position(eng, hands, trump="H", taker=0, leader=0)
        views.append(deal.view(0))
    assert views[0] == views[1]
    for name in ("greedy", "expert"):
        choices = []
        for view in views:
            bot = (
                BeloteExpert(view.rules, seed=3, engine=eng, samples=4)
                if name == "expert"
                else eng.bot(name, "belote", view.rules, seed=3)
            )
            choices.append(bot.choose(view))
        assert choices[0] == choices[1]


# --- legal actions over many deals ----------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_random_and_greedy_play_only_legal_actions(eng: Engine, game: str) -> None:
    makers = (lambda d, s: RandomBot(d * 10 + s), lambda d, s: GreedyBot(d, eng))
    assert sum(count_whole_deals(play_deals(eng, game, maker, 60)) for maker in makers) == 120


def test_greedy_plays_legally_under_every_house_rule_of_play(eng: Engine) -> None:
    rules = {"undertrump": "always", "must_head_trick": True, "must_trump_partner": True}
    deals = play_deals(eng, "belote", lambda d, s: GreedyBot(d, eng), 40, rules)
    assert count_whole_deals(deals) == 40


def test_the_four_player_expert_plays_only_legal_actions(eng: Engine) -> None:
    def make(d: int, s: int) -> BeloteExpert:
        return BeloteExpert(eng.default_rules("belote"), seed=d * 4 + s, engine=eng, samples=2)

    assert count_whole_deals(play_deals(eng, "belote", make, 2)) == 2


def test_the_four_player_expert_plays_legally_under_house_rules(eng: Engine) -> None:
    rules = {"undertrump": "always", "must_head_trick": True, "must_trump_partner": True}
    game_rules = eng.make_rules("belote", rules)

    def make(d: int, s: int) -> BeloteExpert:
        return BeloteExpert(game_rules, seed=d * 4 + s, engine=eng, samples=2)

    assert count_whole_deals(play_deals(eng, "belote", make, 2, rules)) == 2


def test_the_decouverte_expert_plays_only_legal_actions(eng: Engine) -> None:
    rules = eng.default_rules("decouverte")

    def make(d: int, s: int) -> Any:
        return eng.bot("expert", "decouverte", rules, seed=d * 2 + s, think=0.05)

    assert count_whole_deals(play_deals(eng, "decouverte", make, 1)) == 1


# --- what the expert reads from the play ------------------------------------------------------


def test_inferred_voids_and_trump_limits_never_exclude_the_true_cards(eng: Engine) -> None:
    """Soundness: over random deals (every house rule of play), no card a seat really
    holds is ever inferred absent."""
    checked = 0
    for rules in (
        {},
        {"undertrump": "always"},
        {"must_head_trick": True, "must_trump_partner": True},
    ):

        def check(deal: Deal, view: View) -> None:
            nonlocal checked
            if view.phase != "play":
                return
            forbid = infer_constraints(view, eng)
            for s in range(4):
                assert not forbid[s] & deal.state.hands[s], (s, forbid[s], deal.state.hands[s])
            checked += 1

        for _ in play_deals(eng, "belote", lambda d, s: RandomBot(d * 7 + s), 25, rules, check):
            pass
    assert checked > 1500


def test_a_seat_that_did_not_follow_is_void_and_one_that_discarded_has_no_trump(
    eng: Engine,
) -> None:
    # South leads the ace of spades; East (seat 1) discards a club: void in spades and,
    # his partner not winning, without trumps (hearts).
    deal = position(
        eng,
        [
            "AS 7S 8S 9S 10S JS QS KS",
            "7C 8C 9C 10C JC QC KC AC",
            "7H 8H 9H 10H JD QD KD AD",
            "JH QH KH AH 7D 8D 9D 10D",
        ],
        trump="H",
        leader=0,
    )
    deal.play(card("AS"))
    deal.play(card("7C"))
    view = deal.view(2)
    forbid = infer_constraints(view, eng)
    spades = cards("7S 8S 9S 10S JS QS KS")
    hearts = cards("JH QH KH AH")
    assert spades | hearts <= view.unseen
    assert forbid[1] & spades == spades
    assert forbid[1] & hearts == hearts
    assert forbid[3] & (spades | hearts) == 0  # West has not played yet
    assert forbid[2] == 0  # the seat's own view


def _west_ducks(eng: Engine) -> View:
    """South's view after a trick West, playing last, let South win: spades trump, South
    led the king of hearts, East followed with the 7, North the 8, West the 9 (holding
    the ace and the ten)."""
    deal = position(
        eng,
        [
            "KH 7D 8D 9D 10D JD QD KD",
            "7H 7C 8C 9C 10C JC QC KC",
            "8H JS QS KS 7S 8S 9S AD",
            "9H AH 10H QH JH AC AS 10S",
        ],
        trump="S",
        leader=0,
    )
    for c in ("KH", "7H", "8H", "9H"):
        deal.play(card(c))
    return deal.view(0)


def test_a_seat_that_let_the_opponents_take_a_trick_held_no_sure_winner(eng: Engine) -> None:
    # Spades are trump.  South leads the king of hearts, East follows with the 7 and
    # West, playing last, with the 9: had West held the ace or the ten of hearts he would
    # have taken the trick, so the play hints those cards away from West (not a proof).
    view = _west_ducks(eng)
    reading = read_play(view, eng)
    assert reading.forbid == infer_constraints(view, eng)
    west = [h for h in reading.hints if h.seat == 3]
    assert [h.cards for h in west] == [cards("AH 10H")]
    assert not reading.forbid[3] & cards("AH 10H")  # a likelihood, not a proof
    # East played second, his partner still to come: nothing is read from his 7.
    assert not [h for h in reading.hints if h.seat == 1]
    # Without hints the same reading proves the same and hints nothing.
    bare = read_play(view, eng, hints=False)
    assert bare.forbid == reading.forbid
    assert bare.hints == ()


def test_a_seat_playing_last_on_its_partners_trick_gives_its_richest_plain_card(
    eng: Engine,
) -> None:
    # Spades trump.  South leads the 7 of clubs, East takes with the ace, North follows
    # with the 9 and West, last on his partner's trick, gives the 8 (no points) although
    # he holds the ten: the hint says he held no club worth more.  (North, with nothing
    # that could beat the ace, is hinted nothing.)
    deal = position(
        eng,
        [
            "7C 7D 8D 9D 10D JD QD KD",
            "AC 10H KH 7S 8S 9S 8H AD",
            "9C JS QS KS JC QC KC AS",
            "8C 10C 7H 9H QH JH AH 10S",
        ],
        trump="S",
        leader=0,
    )
    for c in ("7C", "AC", "9C", "8C"):
        deal.play(card(c))
    view = deal.view(0)
    hints = read_play(view, eng).hints
    assert not [h for h in hints if h.seat == 2]
    west = [h for h in hints if h.seat == 3]
    # South cannot tell West's clubs from North's: every unseen club worth more is
    # hinted away (the other suits were not legal, West had to follow)
    assert [h.cards for h in west] == [cards("10C JC QC KC")]


def test_sensible_play_never_contradicts_the_hints(eng: Engine) -> None:
    """The hints read every seat as the greedy bot plays: over whole deals of greedy
    bots, no seat ever held a card a hint of its play says it did not (so the reading
    follows the legal alternatives the deal's rule gave, under every play option)."""
    checked = 0
    for rules in ({}, {"undertrump": "always"}, {"must_head_trick": True}):

        def check(deal: Deal, view: View) -> None:
            nonlocal checked
            if view.phase != "play":
                return
            for h in read_play(view, eng).hints:
                assert not h.cards & deal.state.hands[h.seat], (h, deal.state.hands)
                checked += 1

        for _ in play_deals(
            eng, "belote", lambda d, s: GreedyBot(d * 5 + s, eng), 12, rules, check
        ):
            pass
    assert checked > 300


def test_samples_follow_the_hints_odds(eng: Engine) -> None:
    view = _west_ducks(eng)
    forbid = infer_constraints(view, eng)
    rng = random.Random(4)
    hint = PlayHint(3, cards("AH 10H"), 0.0)
    for _ in range(200):
        hands = sample_hands(view, rng, forbid, engine=eng, hints=(hint,))
        assert not hands[3] & hint.cards
    held = sum(
        bool(sample_hands(view, rng, forbid, engine=eng)[3] & hint.cards) for _ in range(200)
    )
    assert held > 100  # without the hint West often holds one of them


def test_samples_respect_every_inferred_constraint(eng: Engine) -> None:
    rng = random.Random(2)
    count = 0

    def check(deal: Deal, view: View) -> None:
        nonlocal count
        if view.phase != "play" or count > 400:
            return
        forbid = infer_constraints(view, eng)
        hands = sample_hands(view, rng, forbid, engine=eng)
        total = 0
        for s in range(4):
            assert hands[s].bit_count() == view.hand_sizes[s]
            assert not total & hands[s]
            total |= hands[s]
            if s != view.seat:
                assert not hands[s] & forbid[s]
                assert hands[s] & view.shown[s] == view.shown[s]
        assert hands[view.seat] == view.hand
        shown = 0
        for m in view.shown:
            shown |= m
        assert total & ~view.hand == view.unseen | shown
        count += 1

    for _ in play_deals(eng, "belote", lambda d, s: GreedyBot(d, eng), 20, None, check):
        pass
    assert count > 300


# --- the score the expert plays for, and l'arrêt ----------------------------------------------


def test_deal_utility_follows_the_contract(eng: Engine) -> None:
    deal = position(eng, ["JH", "7C", "8C", "9C"], trump="H", taker=0, leader=0)
    view = deal.view(0)
    assert view.contract is not None
    total = CardRules.of(eng.play_rules("belote", view.rules, view.contract)).total
    assert total == 162
    assert deal_utility(view, DealPoints(100, [0, 0], total)) == 100 - 62
    assert (
        deal_utility(view, DealPoints(81, [0, 0], total)) == 0
    )  # a tie: the takers make it by default
    assert deal_utility(view, DealPoints(70, [0, 0], total)) == -162
    assert deal_utility(view, DealPoints(70, [0, 20], total)) == -182
    defender = deal.view(1)
    assert deal_utility(defender, DealPoints(92, [0, 0], total)) == 162


def test_no_claim_without_the_running_scores(eng: Engine) -> None:
    deal = position(eng, ["JH 9H", "7C 8C", "10C 9C", "AC KC"], trump="H", rules={"arret": True})
    assert not sure_claim(deal.view(0), eng)


def test_claims_by_the_bots_are_always_right(eng: Engine) -> None:
    """With l'arrêt on and a low target, every claim the bots make wins the match."""
    rules = eng.make_rules("belote", {"arret": True, "target": 120})
    claims = 0
    for seed in range(12):
        match = Match(eng, "belote", rules, seed=seed)
        bots = [GreedyBot(seed, eng) for _ in range(4)]
        while match.result is None:

            def choose(deal: Deal, bots: list[GreedyBot] = bots, match: Match = match) -> Action:
                return bots[deal.turn].choose(deal.view(deal.turn, scores=tuple(match.scores)))

            deal = match.play_deal(choose)
            if "claim" in deal.state.extra:
                claims += 1
                seat, _ = deal.state.extra["claim"]
                assert match.result is not None and match.result.winner == seat % 2
    assert claims > 0


def test_hand_strength_counts_high_trumps_most() -> None:
    jack_nine = (1 << (16 + 4)) | (1 << (16 + 2))  # JH 9H
    aces = (1 << 7) | (1 << 15)  # AC AD
    assert hand_strength(jack_nine, 2) > hand_strength(aces, 2)
    assert hand_strength(jack_nine, 2) > hand_strength(jack_nine, 0)


# --- duplicate matches ----------------------------------------------------------------------


def test_a_bot_against_itself_scores_exactly_even_in_duplicate(eng: Engine) -> None:
    result = run_duplicate(eng, "belote", "greedy", "greedy", 12, seed=3)
    assert result.mean == 0 and result.deals_won == result.deals_lost == 0
    assert result.deals_tied == 12


def test_greedy_beats_random_in_a_short_duplicate(eng: Engine) -> None:
    for game in GAMES:
        result = run_duplicate(eng, game, "greedy", "random", 40, seed=1)
        assert result.ci95_low > 0, result


def test_confidence_interval_and_matches_are_computed_as_documented(eng: Engine) -> None:
    mean, low, high = normal_interval([10.0, 20.0, 30.0, 40.0])
    assert mean == 25.0 and low < mean < high
    assert high - mean == pytest.approx(1.96 * 12.909944 / 2, rel=1e-5)
    rules = eng.default_rules("belote")
    deal = DealScore((100, 62), (0, 0), (300, 100), "made", True)
    results = count_matches(eng, "belote", rules, [deal] * 7)
    # 300 a deal reaches 1000 on the fourth deal; three more deals do not finish a match
    assert len(results) == 1 and results[0].winner == 0
