"""docs/rules.md, "Belote Découverte (two players)": one test per rule sentence, and the options.

Seat 0 is South, seat 1 North; each seat is its own team.  Positions are set up through
hand-written deal records (``start``): each pile is written ``"UP/DOWN"`` (a face-up card
covering a face-down card) or ``"UP"`` (a lone face-up card whose face-down card was
already turned); the cards not in the piles are given as tricks already played.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import pytest
from atout.core import Deal
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core import Match
from atout.core import card_str
from atout.core import cards_of
from atout.core import parse_card
from atout.core import parse_cards
from atout.core import parse_suit
from atout.core.records import deal_from_record
from atout.core.state import PLAY
from atout.core.state import REDEAL
from atout.plugins.decouverte import layout_from_pack
from atout.plugins.decouverte import options as decouverte_options
from atout.plugins.tables import beats_table

GAME = "decouverte"


# --- helpers --------------------------------------------------------------------------------


def texts(mask: int) -> set[str]:
    """The cards of ``mask`` as texts, for readable assertions."""
    return {card_str(c) for c in cards_of(mask)}


def dealt(engine: Engine, seed: int, dealer: int = 1, **rules: Any) -> Deal:
    """A freshly dealt deal (in its bidding) from a seeded random source."""
    return engine.new_deal(GAME, engine.make_rules(GAME, rules), dealer, random.Random(seed))


def taken(engine: Engine, seed: int, dealer: int = 1, **rules: Any) -> Deal:
    """A dealt deal whose non-dealer took the proposed suit in round 1."""
    deal = dealt(engine, seed, dealer, **rules)
    deal.bid("take")
    return deal


def _pile(text: str) -> dict[str, str]:
    up, _, down = text.partition("/")
    return {k: v for k, v in (("up", up), ("down", down)) if v}


def _filler(used: int, trump: int, leader: int) -> list[dict[str, Any]]:
    """Tricks made of every card not in ``used``, the last one won by ``leader`` (so that
    ``leader`` leads the set-up position)."""
    rest = [c for c in range(32) if not used >> c & 1]
    assert len(rest) % 2 == 0
    tricks = [
        {"leader": 0, "cards": [card_str(rest[i]), card_str(rest[i + 1])]}
        for i in range(0, len(rest) - 2, 2)
    ]
    if rest:
        a, b = rest[-2], rest[-1]
        first, second = (b, a) if beats_table(trump)[a] >> b & 1 else (a, b)
        tricks.append({"leader": leader, "cards": [card_str(first), card_str(second)]})
    return tricks


def record(
    piles: Sequence[str],
    trump: str = "H",
    taker: int = 0,
    leader: int = 0,
    tricks: Sequence[tuple[int, str]] | None = None,
    rules: Mapping[str, Any] | None = None,
    dealer: int | None = None,
) -> dict[str, Any]:
    """A hand-written Découverte record standing at the start of a trick.

    ``piles[s]`` lists seat ``s``'s piles (``"AH/7S 8C"``; ``"/7C"`` is a face-down card
    with nothing above it).  ``tricks`` are the tricks
    already played as ``(leader, "c1 c2")``; by default every card not in the piles is
    made into such tricks, the last one won by ``leader``.
    """
    rows = [[_pile(p) for p in row.split()] for row in piles]
    used = 0
    counts = []
    for row in piles:
        mask = parse_cards(row.replace("/", " "))
        counts.append(mask.bit_count())
        used |= mask
    assert counts[0] == counts[1], f"both seats must have as many cards left: {piles}"
    if tricks is None:
        played = _filler(used, parse_suit(trump), leader)
    else:
        played = [{"leader": seat, "cards": cards.split()} for seat, cards in tricks]
    return {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "rules": dict(rules or {}),
        "dealer": 1 - leader if dealer is None else dealer,
        "layout": {"hands": [[], []], "piles": rows, "open_hands": True},
        "start": {
            "contract": {"taker": taker, "trump": trump},
            "leader": leader,
            "tricks": played,
        },
        "actions": [],
    }


def position(engine: Engine, piles: Sequence[str], **kw: Any) -> Deal:
    """The deal a hand-written record sets up (see :func:`record`)."""
    return deal_from_record(engine, record(piles, **kw), "hand-written position")


def play(deal: Deal, *cards: str) -> None:
    for text in cards:
        deal.play(parse_card(text))


def play_randomly(deal: Deal, rng: random.Random) -> None:
    while deal.state.phase == PLAY:
        deal.play(rng.choice(cards_of(deal.legal_cards())))


# --- the game ---------------------------------------------------------------------------


def test_decouverte_is_a_game_for_two_seats_south_and_north(engine: Engine) -> None:
    info = engine.game(GAME)
    assert (info.seats, info.teams, info.total_points) == (2, 2, 162)
    assert info.seat_names == ("South", "North")


def test_the_options_a_pack_may_set_have_these_keys_defaults_and_sources(
    engine: Engine,
) -> None:
    # Other installed plugins may add options of their own; these are Découverte's.
    own = {o.key for o in decouverte_options()}
    options = {k: o for k, o in engine.rule_options(GAME).items() if k in own}
    defaults = {k: o.default for k, o in options.items()}
    assert defaults == {
        "reveal_on_lead": False,
        "belote_rebelote": False,
        "declarations": "none",
        "dealer_rule": "alternate",
        "capot_bonus": 0,
        "target": 1000,
        "both_past_target": "draw",
    }
    assert options["declarations"].choices == ("none", "on")
    assert options["dealer_rule"].choices == ("alternate", "winner")
    assert options["both_past_target"].choices == ("draw", "play-on")
    assert all(o.source in ("001", "published") for o in options.values())
    assert options["capot_bonus"].check(-1) is not None


# --- the deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_deal_follows_the_seeds_order_of_rows(dealer: int) -> None:
    """4 face down to the non-dealer's near row, 4 to the dealer's near row, 4 to the
    non-dealer's far row, 4 to the dealer's far row, then the same pattern face up."""
    pack = list(range(32))
    random.Random(dealer).shuffle(pack)
    layout = layout_from_pack(pack, dealer)
    other = 1 - dealer
    for i in range(4):
        assert layout.piles[other][i] == (pack[16 + i], pack[i]), f"non-dealer near {i}"
        assert layout.piles[dealer][i] == (pack[20 + i], pack[4 + i]), f"dealer near {i}"
        assert layout.piles[other][4 + i] == (pack[24 + i], pack[8 + i]), f"non-dealer far {i}"
        assert layout.piles[dealer][4 + i] == (pack[28 + i], pack[12 + i]), f"dealer far {i}"
    assert layout.pack_order == tuple(pack)


def test_each_player_has_eight_piles_a_face_down_card_under_each_face_up_card(
    engine: Engine,
) -> None:
    s = dealt(engine, seed=5).state
    for seat in (0, 1):
        piles = s.layout.piles[seat]
        assert len(piles) == 8
        ups = {up for up, _ in piles}
        downs = {down for _, down in piles}
        assert set(cards_of(s.hands[seat])) == ups, "only the face-up cards are playable"
        assert set(cards_of(s.hidden[seat])) == downs, "the face-down cards are hidden"
        for up, down in piles:
            assert s.under[up] == down
    assert s.hands[0] | s.hands[1] | s.hidden[0] | s.hidden[1] == (1 << 32) - 1


def test_every_deal_is_shuffled_from_the_matchs_random_source(engine: Engine) -> None:
    match = Match(engine, GAME, seed=12)
    packs = []
    for _ in range(4):
        deal = match.play_deal(lambda d: random.Random(len(d.actions)).choice(d.legal_actions()))
        packs.append(deal.state.layout.pack_order)
    assert len(set(packs)) == len(packs)
    for before, after in itertools.pairwise(packs):
        gathered = [before[k:] + before[:k] for k in range(32)]
        assert after not in gathered, "a Découverte deal is shuffled, not gathered and cut"
    again = Match(engine, GAME, seed=12).next_deal().state.layout.pack_order
    assert again == packs[0], "the same seed deals the same cards"


# --- the bidding ------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_proposal_card_is_the_last_card_dealt_the_dealers_last_face_up(
    engine: Engine, dealer: int
) -> None:
    s = dealt(engine, seed=20 + dealer, dealer=dealer).state
    assert s.turnup == s.layout.pack_order[31]
    assert s.turnup == s.layout.piles[dealer][7][0]
    assert s.hands[dealer] >> s.turnup & 1


@pytest.mark.parametrize("dealer", [0, 1])
def test_round_one_is_take_or_pass_on_the_proposed_suit_non_dealer_first(
    engine: Engine, dealer: int
) -> None:
    deal = dealt(engine, seed=30, dealer=dealer)
    assert deal.turn == 1 - dealer
    assert deal.legal_bids() == ["take", "pass"]
    deal.bid("pass")
    assert deal.turn == dealer
    assert deal.legal_bids() == ["take", "pass"]
    deal.bid("take")
    s = deal.state
    assert s.contract is not None
    assert (s.contract.taker, s.contract.trump) == (dealer, s.turnup >> 3)


def test_round_two_is_another_suit_or_pass_non_dealer_first(engine: Engine) -> None:
    deal = dealt(engine, seed=31, dealer=1)
    deal.bid("pass")
    deal.bid("pass")
    proposed = "CDHS"[deal.state.turnup >> 3]
    assert deal.turn == 0, "the non-dealer is first in round 2 too"
    assert deal.legal_bids() == [s for s in "CDHS" if s != proposed] + ["pass"]
    with pytest.raises(IllegalMoveError):
        deal.bid(proposed)
    other = next(s for s in "CDHS" if s != proposed)
    deal.bid("pass")
    deal.bid(other)
    assert deal.state.contract is not None
    assert (deal.state.contract.taker, deal.state.contract.trump) == (1, "CDHS".index(other))


@pytest.mark.parametrize("bids", [["take"], ["pass", "take"], ["pass", "pass", "X"]])
def test_the_taker_does_not_take_the_proposal_card(engine: Engine, bids: list[str]) -> None:
    deal = dealt(engine, seed=32, dealer=1)
    s = deal.state
    before = (list(s.hands), list(s.hidden))
    for bid in bids:
        if bid == "X":
            bid = next(x for x in "CDHS" if "CDHS".index(x) != s.turnup >> 3)
        deal.bid(bid)
    assert s.phase == PLAY
    assert (s.hands, s.hidden) == before, "nothing is dealt or taken after the bidding"
    assert s.hands[1] >> s.turnup & 1, "the proposal card stays the dealer's"
    assert s.stock == []


def test_both_passing_twice_redeals_and_the_other_player_deals(engine: Engine) -> None:
    match = Match(engine, GAME, seed=33)
    first = match.next_deal()
    assert first.state.dealer == 1
    for _ in range(4):
        first.bid("pass")
    assert first.state.phase == REDEAL
    match.end_deal(first)
    second = match.next_deal()
    assert second.state.dealer == 0
    assert second.state.layout.pack_order != first.state.layout.pack_order
    assert match.scores == [0, 0]


# --- the play ---------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_non_dealer_leads_to_the_first_trick(engine: Engine, dealer: int) -> None:
    deal = dealt(engine, seed=40, dealer=dealer)
    deal.bid("pass")
    deal.bid("take")
    assert deal.turn == deal.state.leader == 1 - dealer


def test_only_face_up_cards_can_be_played(engine: Engine) -> None:
    deal = taken(engine, seed=41)
    s = deal.state
    leader = deal.turn
    assert deal.legal_cards() == s.hands[leader]
    hidden = cards_of(s.hidden[leader])[0]
    with pytest.raises(IllegalMoveError):
        deal.play(hidden)
    assert s.hidden[leader] >> hidden & 1 and not s.trick, "a refused card changes nothing"


def test_refusing_a_face_down_card_does_not_say_where_it_lies(engine: Engine) -> None:
    deal = taken(engine, seed=42)
    s = deal.state
    mine = cards_of(s.hidden[deal.turn])[0]
    theirs = cards_of(s.hidden[1 - deal.turn])[0]
    opponents = cards_of(s.hands[1 - deal.turn])[0]
    said = [deal.explain(c) or "" for c in (mine, theirs, opponents)]
    shapes = {
        text.replace(card_str(c), "CARD")
        for text, c in zip(said, (mine, theirs, opponents), strict=True)
    }
    assert len(shapes) == 1, said


def test_obligations_are_judged_on_face_up_cards_only_void_means_trump(
    engine: Engine,
) -> None:
    # North has hearts only face down: void in hearts, so he must trump with a face-up trump.
    deal = position(engine, ["AH/7C 8D/KC", "9S/QH JD/10H"], trump="S", leader=0)
    play(deal, "AH")
    assert texts(deal.legal_cards()) == {"9S"}
    with pytest.raises(IllegalMoveError, match="must trump"):
        play(deal, "JD")


def test_obligations_on_face_up_cards_only_no_trump_face_up_means_any_card(
    engine: Engine,
) -> None:
    deal = position(engine, ["AH/7C 8D/KC", "10C/9S JD/10H"], trump="S", leader=0)
    play(deal, "AH")
    assert texts(deal.legal_cards()) == {"10C", "JD"}


def test_a_face_up_card_of_the_led_suit_must_follow(engine: Engine) -> None:
    deal = position(engine, ["AH/7C 8D/KC", "7H/9S JD/10H"], trump="S", leader=0)
    play(deal, "AH")
    assert texts(deal.legal_cards()) == {"7H"}


def test_on_a_trump_lead_the_answer_must_beat_it_with_a_face_up_trump(engine: Engine) -> None:
    deal = position(engine, ["9S/7C 8D/KC", "JS/QH AS/10H"], trump="S", leader=0)
    play(deal, "9S")
    assert texts(deal.legal_cards()) == {"JS"}


def test_the_opponent_is_never_a_partner_so_a_void_answer_must_trump_a_trump(
    engine: Engine,
) -> None:
    # South trumps nothing here: he leads a plain card; North, void, must trump, and
    # must do so even though no "partner" could relieve him.
    deal = position(engine, ["AC/7C 8D/KC", "7S/QH AS/10H"], trump="S", leader=0)
    play(deal, "AC")
    assert not deal.state.partner_winning(1)
    assert texts(deal.legal_cards()) == {"7S", "AS"}


def test_cards_no_longer_covered_are_turned_after_each_trick(engine: Engine) -> None:
    deal = taken(engine, seed=43)
    s = deal.state
    for _ in range(16):
        leader = s.turn
        first = cards_of(deal.legal_cards())[0]
        beneath_first = s.under.get(first)
        deal.play(first)
        if beneath_first is not None:
            assert s.hidden[leader] >> beneath_first & 1, "not turned before the trick ends"
            assert not s.hands[leader] >> beneath_first & 1
        follower = s.turn
        second = cards_of(deal.legal_cards())[-1]
        beneath_second = s.under.get(second)
        deal.play(second)
        for seat, beneath in ((leader, beneath_first), (follower, beneath_second)):
            if beneath is not None:
                assert s.hands[seat] >> beneath & 1, "turned face up after the trick"
                assert not s.hidden[seat] >> beneath & 1
        assert s.hidden[0] | s.hidden[1] == sum(1 << d for d in s.under.values())
    assert s.phase != PLAY and len(s.tricks) == 16


def test_a_lone_turned_card_can_be_played_and_turns_nothing(engine: Engine) -> None:
    deal = position(engine, ["AH/8H 9C/8C", "KH/7D 10C/QD"], trump="S", leader=0)
    play(deal, "AH", "KH")
    s = deal.state
    assert texts(s.hands[0]) == {"8H", "9C"}, "8H is turned and lies alone"
    assert texts(s.hands[1]) == {"7D", "10C"}
    assert s.turn == 0
    assert "8H" in texts(deal.legal_cards())
    play(deal, "8H", "7D")
    assert texts(s.hands[0]) == {"9C"}
    assert texts(s.hands[1]) == {"10C"}, "the lone cards covered nothing"
    assert texts(s.hidden[1]) == {"QD"}


def test_a_hand_written_face_down_card_without_cover_is_turned_after_the_next_trick(
    engine: Engine,
) -> None:
    deal = position(engine, ["AH/8H 9C/8C JD", "KH/7D 10C/QD /7C"], trump="S", leader=0)
    s = deal.state
    assert "7C" in texts(s.hidden[1])
    play(deal, "AH")
    assert "7C" not in texts(deal.legal_cards())
    play(deal, "KH")
    assert "7C" in texts(s.hands[1]) and "7C" not in texts(s.hidden[1])


def test_the_winner_of_a_trick_leads_to_the_next_sixteen_tricks(engine: Engine) -> None:
    deal = taken(engine, seed=44)
    play_randomly(deal, random.Random(44))
    s = deal.state
    assert len(s.tricks) == 16
    assert s.tricks[0].leader == 1 - s.dealer
    for before, after in itertools.pairwise(s.tricks):
        assert after.leader == before.winner


def test_reveal_on_lead_turns_the_leaders_card_at_once(engine: Engine) -> None:
    deal = position(
        engine, ["AH/8H 9C/8C", "KH/7D 10C/QD"], trump="S", leader=0, rules={"reveal_on_lead": True}
    )
    play(deal, "AH")
    s = deal.state
    assert texts(s.hands[0]) == {"8H", "9C"}, "turned before the opponent answers"
    view = deal.view(1)
    assert view.hands[0] is not None and "8H" in texts(view.hands[0])
    assert view.piles[0][0].top == parse_card("8H") and not view.piles[0][0].covered
    play(deal, "KH")
    assert texts(s.hands[1]) == {"7D", "10C"}, "the answer's card is turned after the trick"


def test_without_reveal_on_lead_the_leaders_card_waits_for_the_end_of_the_trick(
    engine: Engine,
) -> None:
    deal = position(engine, ["AH/8H 9C/8C", "KH/7D 10C/QD"], trump="S", leader=0)
    play(deal, "AH")
    view = deal.view(1)
    assert view.piles[0][0].top is None and view.piles[0][0].covered
    assert parse_card("8H") not in cards_of(view.known_cards())


# --- scoring ----------------------------------------------------------------------------

# Trump hearts.  South (seat 0) wins tricks 1-8 (81 card points: all eight trumps, 62,
# and AC KC JC JD, 19); North wins tricks 9-15 (69) and the last trick, JS 9S (2 + dix
# de der 10): 81.  The 82 variant gives South QD instead of JD and North JD instead of
# QD: 82 against 80.
TRICKS_81 = [
    (0, "AH KH"),
    (0, "JH QH"),
    (0, "9H 10H"),
    (0, "8H 7H"),
    (0, "AC 7C"),
    (0, "KC 8C"),
    (0, "JC 9C"),
    (0, "JD 7D"),
    (1, "10C QC"),
    (1, "AD 8D"),
    (1, "10D 9D"),
    (1, "KD QD"),
    (1, "AS 7S"),
    (1, "10S 8S"),
    (1, "KS QS"),
]
TRICKS_82 = [(s, {"JD 7D": "QD 7D", "KD QD": "KD JD"}.get(c, c)) for s, c in TRICKS_81]


def last_trick_played(
    engine: Engine, tricks: list[tuple[int, str]], taker: int, **rules: Any
) -> Deal:
    deal = position(engine, ["9S", "JS"], taker=taker, tricks=tricks, rules=rules)
    assert deal.turn == 1
    play(deal, "JS", "9S")
    assert deal.score is not None
    return deal


def test_card_points_and_dix_de_der_make_162(engine: Engine) -> None:
    deal = last_trick_played(engine, TRICKS_81, taker=0)
    assert deal.score is not None
    assert deal.score.card_points == (81, 81)
    assert deal.state.tricks[-1].points == 2 + 10


def test_the_taker_with_81_points_fails_and_the_opponent_scores_162(engine: Engine) -> None:
    score = last_trick_played(engine, TRICKS_81, taker=0).score
    assert score is not None
    assert (score.made, score.outcome, score.score) == (False, "dedans", (0, 162))


def test_the_taker_with_82_points_makes_it_and_both_score_their_points(engine: Engine) -> None:
    score = last_trick_played(engine, TRICKS_82, taker=0).score
    assert score is not None
    assert score.card_points == (82, 80)
    assert (score.made, score.outcome, score.score) == (True, "made", (82, 80))


def test_the_other_seat_as_taker_with_80_is_dedans(engine: Engine) -> None:
    score = last_trick_played(engine, TRICKS_82, taker=1).score
    assert score is not None
    assert (score.made, score.score) == (False, (162, 0))


CAPOT = [(0, c) for _, c in TRICKS_81[:8]] + [
    (0, "10C QC"),
    (0, "AD 8D"),
    (0, "10D 9D"),
    (0, "KD QD"),
    (0, "AS 7S"),
    (0, "10S 8S"),
    (0, "KS QS"),
]


def test_capot_scores_no_bonus_by_default(engine: Engine) -> None:
    deal = position(engine, ["JS", "9S"], taker=1, tricks=CAPOT)
    play(deal, "JS", "9S")
    score = deal.score
    assert score is not None
    assert (score.capot, score.card_points, score.score) == (0, (162, 0), (162, 0))


@pytest.mark.parametrize("taker", [0, 1])
def test_the_published_capot_bonus_goes_to_the_player_who_won_every_trick(
    engine: Engine, taker: int
) -> None:
    deal = position(engine, ["JS", "9S"], taker=taker, tricks=CAPOT, rules={"capot_bonus": 50})
    play(deal, "JS", "9S")
    score = deal.score
    assert score is not None
    assert score.total_check == 212
    assert score.card_points == (212, 0)
    assert score.score == (212, 0)
    assert score.made is (taker == 0)


def test_no_declarations_and_no_belote_rebelote_by_default(engine: Engine) -> None:
    # South holds a face-up tierce and the trump king and queen.
    deal = position(
        engine, ["KH/7C QH/8C JH/9C 7D/10C", "AS/7S KS/8S QS/9S 8D/10S"], trump="H", leader=0
    )
    assert deal.state.declarations == []
    play_randomly(deal, random.Random(1))
    assert deal.state.announcements == []
    assert deal.score is not None and deal.score.declaration_points == (0, 0)


# --- belote-rebelote (option) -------------------------------------------------------------


def test_belote_then_rebelote_when_both_are_face_up(engine: Engine) -> None:
    deal = position(
        engine,
        ["KH/7C QH/8C 9D/9C", "AS/7S KS/8S QS/9S"],
        trump="H",
        leader=0,
        rules={"belote_rebelote": True},
    )
    play(deal, "KH", "AS")
    said = [(a.seat, a.text) for a in deal.state.announcements]
    assert said == [(0, "belote")]
    assert deal.turn == 0, "the trump king won the trick"
    play(deal, "QH", "KS")
    said = [(a.seat, a.text) for a in deal.state.announcements]
    assert said == [(0, "belote"), (0, "rebelote")]


def test_belote_is_not_said_while_the_other_card_is_face_down(engine: Engine) -> None:
    # The trump queen lies face down under South's king: saying "belote" would reveal it.
    deal = position(
        engine, ["KH/QH 9D/9C", "AS/7S KS/8S"], trump="H", leader=0, rules={"belote_rebelote": True}
    )
    play(deal, "KH", "AS")
    assert deal.state.announcements == []
    assert texts(deal.state.hands[0]) == {"QH", "9D"}
    play(deal, "QH", "KS")
    assert [(a.seat, a.text) for a in deal.state.announcements] == [(0, "belote-rebelote")]


def test_with_reveal_on_lead_a_card_turned_by_the_lead_counts_as_face_up_for_belote(
    engine: Engine,
) -> None:
    rules = {"belote_rebelote": True, "reveal_on_lead": True}
    deal = position(engine, ["KH/QH 9D/9C", "AS/7S KS/8S"], trump="H", leader=0, rules=rules)
    play(deal, "KH")
    assert [(a.seat, a.text) for a in deal.state.announcements] == [(0, "belote")]
    play(deal, "AS", "QH")
    assert [(a.seat, a.text) for a in deal.state.announcements] == [
        (0, "belote"),
        (0, "rebelote"),
    ]


def test_belote_rebelote_scores_20_for_the_player_who_played_both(engine: Engine) -> None:
    rules = {"belote_rebelote": True}
    deal = position(engine, ["KH/QH 9D/9C", "AS/7S KS/8S"], trump="H", leader=0, rules=rules)
    play_randomly(deal, random.Random(2))
    score = deal.score
    assert score is not None
    assert score.declaration_points == (20, 0)
    assert sum(score.card_points) == 162
    south, north = score.card_points
    assert score.made == (south + 20 > north)
    assert score.score == ((south + 20, north) if score.made else (20, 162))


def test_trump_king_and_queen_split_between_players_score_nothing(engine: Engine) -> None:
    rules = {"belote_rebelote": True}
    deal = position(engine, ["KH/7C 9D/9C", "QH/7S KS/8S"], trump="H", leader=0, rules=rules)
    play_randomly(deal, random.Random(3))
    assert deal.state.announcements == []
    assert deal.score is not None and deal.score.declaration_points == (0, 0)


# --- declarations (option) -----------------------------------------------------------------


def test_declarations_are_judged_from_the_face_up_cards_and_shown_at_the_first_trick(
    engine: Engine,
) -> None:
    # South's face-up 7C 8C 9C make a tierce (his face-down AD KD QD would make another,
    # which does not count); North's face-up 9S 10S only become a tierce with the
    # face-down JS, which does not count either.
    rec = record(
        ["7C/AD 8C/KD 9C/QD AH", "9S/JS 10S/7H 8D/9D KH"],
        trump="H",
        leader=0,
        rules={"declarations": "on"},
    )
    rec["start"]["declarations"] = True
    deal = deal_from_record(engine, rec)
    found = [(d.seat, d.kind, texts(d.cards)) for d in deal.state.declarations]
    assert found == [(0, "tierce", {"7C", "8C", "9C"})]
    assert deal.state.announcements == []
    play(deal, "AH")
    assert [(a.seat, a.text) for a in deal.state.announcements] == [
        (0, str(deal.state.declarations[0]))
    ]


def test_only_the_best_declaration_scores(engine: Engine) -> None:
    # South's face-up tierce in clubs against North's face-up quarte in spades.
    rec = record(
        ["7C/AD 8C/KD 9C/QD AH/10D", "9S/7S 10S/7H JS/9D QS/8D"],
        trump="H",
        leader=0,
        rules={"declarations": "on"},
    )
    rec["start"]["declarations"] = True
    deal = deal_from_record(engine, rec)
    kinds = sorted((d.seat, d.kind) for d in deal.state.declarations)
    assert kinds == [(0, "tierce"), (1, "quarte")]
    play_randomly(deal, random.Random(4))
    assert deal.score is not None
    assert deal.score.declaration_points == (0, 50)


# --- dealer and match ---------------------------------------------------------------------


def test_by_default_the_players_deal_in_turn(engine: Engine) -> None:
    match = Match(engine, GAME, seed=50)
    rng = random.Random(50)
    dealers = []
    for _ in range(4):
        deal = match.play_deal(lambda d: rng.choice(d.legal_actions()))
        dealers.append(deal.state.dealer)
    assert all(a != b for a, b in itertools.pairwise(dealers))


def test_winner_deals_the_published_variant(engine: Engine) -> None:
    rules = engine.make_rules(GAME, {"dealer_rule": "winner"})
    match = Match(engine, GAME, rules, seed=51)
    rng = random.Random(51)
    for _ in range(6):
        deal = match.play_deal(lambda d: rng.choice(d.legal_actions()))
        score = deal.score
        contract = deal.state.contract
        assert score is not None and contract is not None
        winner = contract.taker if score.made else 1 - contract.taker
        assert score.score[winner] > score.score[1 - winner]
        assert match.dealer == winner


def test_a_redeal_passes_the_deal_even_when_the_winner_deals(engine: Engine) -> None:
    rules = engine.make_rules(GAME, {"dealer_rule": "winner"})
    match = Match(engine, GAME, rules, seed=52)
    deal = match.next_deal()
    for _ in range(4):
        deal.bid("pass")
    match.end_deal(deal)
    assert match.dealer == 1 - deal.state.dealer


def test_the_match_ends_when_a_player_reaches_the_target(engine: Engine) -> None:
    rules = engine.make_rules(GAME, {"target": 300})
    match = Match(engine, GAME, rules, seed=53)
    rng = random.Random(53)
    while match.result is None:
        match.play_deal(lambda d: rng.choice(d.legal_actions()))
    assert match.result is not None
    assert max(match.scores) >= 300
    if min(match.scores) < 300:
        assert match.result.winner == match.scores.index(max(match.scores))
    else:
        assert match.result.winner is None, "both past the target on one deal: drawn"
    before = [sum(h.score[t] for h in match.history[:-1]) for t in (0, 1)]
    assert max(before) < 300, "the match went on until the target was reached"


@pytest.mark.parametrize(
    ("choice", "winner"), [("draw", None), ("play-on", 0)], ids=["draw", "play-on"]
)
def test_both_players_past_the_target_on_one_deal(
    engine: Engine, choice: str, winner: int | None
) -> None:
    rules = engine.make_rules(GAME, {"both_past_target": choice})
    result = engine.call(
        "atout_match_over", game=GAME, rules=rules, scores=(1010, 1002), history=[]
    )
    assert result is not None and result.winner == winner
    assert (
        engine.call("atout_match_over", game=GAME, rules=rules, scores=(990, 999), history=[])
        is None
    )
