"""docs/rules.md, "Four-player Belote": dealing, bidding and every play obligation.

One test per rule sentence, named after the behaviour.  Seats 0..3 sit in the order of
play (anticlockwise by default); partners are opposite (team = seat % 2); the seat after
the dealer is the dealer's right, first in rotation.
"""

from __future__ import annotations

import random

import pytest
from atout.core import Engine
from atout.core import IllegalMoveError
from atout.core import Match
from atout.core import card_str
from atout.core import cards_of
from atout.core.state import REDEAL
from helpers import GAME
from helpers import card
from helpers import cards
from helpers import position
from helpers import random_choice
from helpers import shipped_engine
from helpers import texts


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


# --- the table --------------------------------------------------------------------------


def test_two_teams_of_two_with_partners_sitting_opposite(engine: Engine) -> None:
    deal = first_deal(engine, seed=0)
    assert deal.state.team_of == (0, 1, 0, 1)
    # Seat 2 is seat 0's partner: void in spades, seat 2 may discard on seat 0's ace;
    # seat 1 and seat 3 are opponents and must trump it.
    assert texts(
        position(engine, ["", "", "7H 8C", ""], trump="H", leader=0, trick="AS 7S").legal_cards()
    ) == {"7H", "8C"}
    assert texts(
        position(engine, ["", "7H 8C", "", ""], trump="H", leader=0, trick="AS").legal_cards()
    ) == {"7H"}
    assert texts(
        position(engine, ["", "", "", "7H 8C"], trump="H", leader=0, trick="AS 7S 8S").legal_cards()
    ) == {"7H"}


@pytest.mark.parametrize(("direction", "step"), [("anticlockwise", 1), ("clockwise", -1)])
def test_bidding_and_play_go_round_from_the_dealers_right(
    engine: Engine, direction: str, step: int
) -> None:
    """Seats are numbered anticlockwise: the seat after the dealer is his right, first
    in rotation.  The clockwise option turns the other way."""
    rules = engine.make_rules(GAME, {"direction": direction})
    deal = engine.new_deal(GAME, rules, 2, random.Random(3))
    bidders = []
    for _ in range(3):
        bidders.append(deal.turn)
        deal.bid("pass")
    bidders.append(deal.turn)
    deal.bid("take")
    assert bidders == [(2 + step * i) % 4 for i in range(1, 5)]
    players = []
    for _ in range(4):
        players.append(deal.turn)
        deal.play(cards_of(deal.legal_cards())[0])
    assert players == [(2 + step * i) % 4 for i in range(1, 5)]


# --- dealing ----------------------------------------------------------------------------


def first_deal(engine: Engine, seed: int, dealer: int = 3):
    return engine.new_deal(GAME, engine.default_rules(GAME), dealer, random.Random(seed))


def test_first_deal_of_a_match_starts_from_a_shuffled_pack(engine: Engine) -> None:
    packs = [
        Match(engine, GAME, seed=seed).next_deal().state.layout.pack_order for seed in range(8)
    ]
    for pack in packs:
        assert sorted(pack) == list(range(32))
        assert pack != tuple(range(32))
    assert len(set(packs)) == len(packs), "different seeds must give different packs"
    again = Match(engine, GAME, seed=3).next_deal().state.layout.pack_order
    assert again == packs[3], "the same seed must give the same pack"


def play_first_real_deal(engine: Engine, seed: int) -> Match:
    """A match whose deals so far end in a played (not passed-out) deal."""
    match = Match(engine, GAME, seed=seed)
    match.play_deal(random_choice(random.Random(seed)))
    return match


@pytest.mark.parametrize("seed", range(10))
def test_later_deals_gather_the_tricks_and_cut_the_pack_never_shuffle(
    engine: Engine, seed: int
) -> None:
    match = play_first_real_deal(engine, seed)
    before = [c for t in match.deals[-1].state.tricks for c in t.cards]
    assert len(before) == 32
    pack = list(match.next_deal().state.layout.pack_order)
    rotations = [before[k:] + before[:k] for k in range(32)]
    assert pack in rotations, "the new pack must be the gathered tricks, only cut"
    cut = rotations.index(pack)
    assert 3 <= cut <= 29, "a cut leaves at least three cards in each part"


def test_a_passed_out_deal_is_gathered_and_cut_not_shuffled(engine: Engine) -> None:
    match = Match(engine, GAME, seed=11)
    deal = match.next_deal()
    for _ in range(8):
        deal.bid("pass")
    match.end_deal(deal)
    s = deal.state
    gathered = [c for seat in range(4) for c in cards_of(s.hands[seat])] + list(s.stock)
    pack = list(match.next_deal().state.layout.pack_order)
    assert pack in [gathered[k:] + gathered[:k] for k in range(3, 30)]


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_gives_3_then_2_to_each_from_his_right_then_turns_up_the_next_card(
    engine: Engine, dealer: int
) -> None:
    deal = first_deal(engine, seed=dealer + 40, dealer=dealer)
    s = deal.state
    p = s.layout.pack_order
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        expected = set(p[3 * i : 3 * i + 3]) | set(p[12 + 2 * i : 14 + 2 * i])
        assert set(cards_of(s.hands[seat])) == expected, f"seat {seat}"
    assert s.turnup == p[20]
    assert all(len(cards_of(h)) == 5 for h in s.hands)


@pytest.mark.parametrize("taker_offset", range(4))
def test_taker_receives_the_turnup_then_3_to_the_others_and_2_to_the_taker_from_dealers_right(
    engine: Engine, taker_offset: int
) -> None:
    dealer = 2
    deal = first_deal(engine, seed=50 + taker_offset, dealer=dealer)
    s = deal.state
    p = s.layout.pack_order
    before = list(s.hands)
    for _ in range(taker_offset):
        deal.bid("pass")
    taker = deal.turn
    deal.bid("take")
    assert s.contract is not None and s.contract.taker == taker
    assert s.hands[taker] >> p[20] & 1, "the taker holds the turn-up"
    pos = 21
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        n = 2 if seat == taker else 3
        extra = set(cards_of(s.hands[seat] & ~before[seat])) - {p[20]}
        assert extra == set(p[pos : pos + n]), f"seat {seat}"
        pos += n
    assert pos == 32


@pytest.mark.parametrize("seed", range(12))
def test_everyone_holds_8_cards_when_the_play_starts(engine: Engine, seed: int) -> None:
    deal = first_deal(engine, seed)
    rng = random.Random(seed)
    while deal.phase == "bidding":
        bids = deal.legal_bids()
        deal.bid(rng.choice([b for b in bids if b != "pass"] if rng.random() < 0.3 else bids))
    if deal.phase == "play":
        assert [len(cards_of(h)) for h in deal.state.hands] == [8, 8, 8, 8]
        assert deal.state.stock == []


# --- bidding ----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_round_1_starts_at_the_dealers_right_with_take_or_pass(engine: Engine, dealer: int) -> None:
    deal = first_deal(engine, seed=1, dealer=dealer)
    seen = []
    for _ in range(4):
        seen.append(deal.turn)
        assert sorted(deal.legal_bids()) == ["pass", "take"]
        deal.bid("pass")
    assert seen == [(dealer + 1 + i) % 4 for i in range(4)]


def test_taking_in_round_1_makes_the_turnup_suit_trump(engine: Engine) -> None:
    deal = first_deal(engine, seed=2)
    turnup = deal.state.turnup
    assert turnup is not None
    deal.bid("pass")
    deal.bid("take")
    assert deal.state.contract is not None
    assert deal.state.contract.trump == turnup >> 3
    assert deal.state.contract.taker == 1


def test_round_2_offers_the_three_other_suits_or_pass_from_the_dealers_right(
    engine: Engine,
) -> None:
    deal = first_deal(engine, seed=3)
    turnup = deal.state.turnup
    assert turnup is not None
    for _ in range(4):
        deal.bid("pass")
    assert deal.turn == 0
    others = sorted(s for s in "CDHS" if s != card_str(turnup)[-1])
    assert sorted(deal.legal_bids()) == [*others, "pass"]


def test_the_turnup_suit_and_take_are_refused_in_round_2(engine: Engine) -> None:
    deal = first_deal(engine, seed=4)
    turnup = deal.state.turnup
    assert turnup is not None
    for _ in range(4):
        deal.bid("pass")
    for bid in (card_str(turnup)[-1], "take"):
        with pytest.raises(IllegalMoveError, match="not allowed now"):
            deal.bid(bid)


def test_naming_a_suit_in_round_2_makes_it_trump_for_that_player(engine: Engine) -> None:
    deal = first_deal(engine, seed=5)
    turnup = deal.state.turnup
    assert turnup is not None
    for _ in range(5):
        deal.bid("pass")
    named = next(s for s in "CDHS" if s != card_str(turnup)[-1])
    deal.bid(named)
    contract = deal.state.contract
    assert contract is not None
    assert (contract.taker, contract.trump) == (1, "CDHS".index(named))
    assert deal.phase == "play"


def test_all_passing_twice_redeals_and_the_next_player_deals(engine: Engine) -> None:
    match = Match(engine, GAME, seed=6)
    assert match.dealer == 3
    deal = match.next_deal()
    for _ in range(8):
        deal.bid("pass")
    assert deal.state.phase == REDEAL and deal.is_over
    assert match.end_deal(deal) is None
    assert match.history == [], "a passed-out deal scores nothing"
    again = match.next_deal()
    assert again.state.dealer == 0, "the dealer's right deals next"
    assert again.turn == 1


def test_after_a_played_deal_the_next_player_deals(engine: Engine) -> None:
    match = play_first_real_deal(engine, 8)
    dealer = match.deals[-1].state.dealer
    assert match.next_deal().state.dealer == (dealer + 1) % 4


# --- play: who leads ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_the_dealers_right_leads_to_the_first_trick(engine: Engine, dealer: int) -> None:
    deal = first_deal(engine, seed=7, dealer=dealer)
    deal.bid("pass")
    deal.bid("pass")
    deal.bid("take")
    assert deal.phase == "play"
    assert deal.turn == (dealer + 1) % 4 == deal.state.leader


def test_the_winner_of_a_trick_leads_to_the_next(engine: Engine) -> None:
    deal = position(
        engine,
        ["7S 8C", "AS 8D", "KS 9C", "QS 9D"],
        trump="H",
        leader=0,
        trick="7S AS KS QS",
    )
    assert deal.state.tricks[-1].winner == 1
    assert deal.turn == 1 and deal.state.leader == 1


def test_a_trump_wins_a_plain_trick_and_its_player_leads_next(engine: Engine) -> None:
    deal = position(engine, ["7C", "8C", "9C", "10C"], trump="H", leader=0, trick="AS 7H KS QS")
    assert deal.state.tricks[-1].winner == 1
    assert deal.turn == 1


# --- play: following suit -----------------------------------------------------------------


def test_you_must_follow_suit_if_you_can(engine: Engine) -> None:
    deal = position(engine, ["", "7S AS JH 8C", "", ""], trump="H", leader=0, trick="KS")
    assert texts(deal.legal_cards()) == {"7S", "AS"}


def test_following_a_plain_suit_you_may_play_low_even_if_you_could_beat(engine: Engine) -> None:
    deal = position(engine, ["", "7S AS", "", ""], trump="H", leader=0, trick="KS")
    assert card("7S") in cards_of(deal.legal_cards())


def test_following_a_plain_suit_that_was_trumped_you_must_still_follow(engine: Engine) -> None:
    deal = position(engine, ["", "", "7S AS JH", ""], trump="H", leader=0, trick="KS 7H")
    assert texts(deal.legal_cards()) == {"7S", "AS"}


def test_playing_another_suit_when_you_can_follow_names_the_rule(engine: Engine) -> None:
    deal = position(engine, ["", "7S AS JH 8C", "", ""], trump="H", leader=0, trick="KS")
    with pytest.raises(IllegalMoveError, match="must follow spades"):
        deal.play(card("8C"))
    with pytest.raises(IllegalMoveError, match="must follow spades"):
        deal.play(card("JH"))


def test_the_leader_may_lead_any_card(engine: Engine) -> None:
    deal = position(engine, ["7S AS JH 8C", "", "", ""], trump="H", leader=0)
    assert texts(deal.legal_cards()) == {"7S", "AS", "JH", "8C"}


# --- play: trump led ------------------------------------------------------------------------


def test_on_a_trump_lead_you_must_beat_the_highest_trump_even_when_your_partner_wins(
    engine: Engine,
) -> None:
    # Seat 3 (seat 1's partner) leads the ace; seat 0 plays under it; seat 1 holds the 9.
    deal = position(engine, ["", "9H KH QS", "", ""], trump="H", leader=3, trick="AH 7H")
    assert deal.state.win_seat == 3
    assert texts(deal.legal_cards()) == {"9H"}


def test_on_a_trump_lead_you_must_beat_an_opponents_trump(engine: Engine) -> None:
    deal = position(engine, ["", "JH 8H 7S", "", ""], trump="H", leader=0, trick="10H")
    assert texts(deal.legal_cards()) == {"JH"}


def test_on_a_trump_lead_any_trump_when_you_cannot_beat_the_highest(engine: Engine) -> None:
    deal = position(engine, ["", "AH 8H 7S", "", ""], trump="H", leader=0, trick="9H")
    assert texts(deal.legal_cards()) == {"AH", "8H"}


def test_on_a_trump_lead_with_no_trump_you_may_play_any_card(engine: Engine) -> None:
    deal = position(engine, ["", "7S AD 8C", "", ""], trump="H", leader=0, trick="9H")
    assert texts(deal.legal_cards()) == {"7S", "AD", "8C"}


def test_playing_under_the_highest_trump_on_a_trump_lead_names_the_card_to_beat(
    engine: Engine,
) -> None:
    deal = position(engine, ["", "JS 8S 7H", "", ""], trump="S", leader=0, trick="9S")
    with pytest.raises(IllegalMoveError, match="must beat the 9 of spades"):
        deal.play(card("8S"))


# --- play: void in a plain suit ------------------------------------------------------------


def test_void_in_a_plain_suit_you_must_trump_when_an_opponent_is_winning(engine: Engine) -> None:
    deal = position(engine, ["", "7H 8C", "", ""], trump="H", leader=0, trick="AS")
    assert texts(deal.legal_cards()) == {"7H"}
    with pytest.raises(IllegalMoveError, match="must trump"):
        deal.play(card("8C"))


def test_void_in_a_plain_suit_you_may_play_any_card_when_your_partner_is_winning(
    engine: Engine,
) -> None:
    deal = position(engine, ["", "", "7H 8C 9D", ""], trump="H", leader=0, trick="AS 7S")
    assert deal.state.win_seat == 0
    assert texts(deal.legal_cards()) == {"7H", "8C", "9D"}


def test_void_you_must_overtrump_an_opponents_trump(engine: Engine) -> None:
    deal = position(engine, ["", "", "JH 7H 8C", ""], trump="H", leader=0, trick="7S 9H")
    assert texts(deal.legal_cards()) == {"JH"}


def test_void_playing_a_lower_trump_when_you_could_overtrump_names_the_card(
    engine: Engine,
) -> None:
    deal = position(engine, ["", "", "JS 7S 8C", ""], trump="S", leader=0, trick="7D 9S")
    with pytest.raises(IllegalMoveError, match="must overtrump the 9 of spades"):
        deal.play(card("7S"))


def test_void_discarding_when_you_could_overtrump_names_the_card_to_beat(
    engine: Engine,
) -> None:
    deal = position(engine, ["", "", "JH 7H 8C", ""], trump="H", leader=0, trick="7S 9H")
    with pytest.raises(IllegalMoveError, match="must overtrump the 9 of hearts"):
        deal.play(card("8C"))


def test_void_you_must_undertrump_when_you_cannot_overtrump(engine: Engine) -> None:
    deal = position(engine, ["", "", "KH 7H 8C", ""], trump="H", leader=0, trick="7S 9H")
    assert texts(deal.legal_cards()) == {"KH", "7H"}
    with pytest.raises(
        IllegalMoveError, match="must trump: you cannot beat the 9 of hearts, so undertrump"
    ):
        deal.play(card("8C"))


def test_void_with_no_trump_you_may_play_any_card(engine: Engine) -> None:
    deal = position(engine, ["", "", "8C 9D", ""], trump="H", leader=0, trick="7S 9H")
    assert texts(deal.legal_cards()) == {"8C", "9D"}


def test_void_when_your_partner_has_trumped_you_may_discard(engine: Engine) -> None:
    # Seat 1 trumps seat 0's lead and seat 2 follows: seat 3, seat 1's partner, may discard.
    deal = position(engine, ["", "", "", "JH 7H 8C"], trump="H", leader=0, trick="AS 9H 7S")
    assert deal.state.win_seat == 1
    assert card("8C") in cards_of(deal.legal_cards())


def test_whenever_you_trump_over_your_partner_you_must_beat_the_trumps_played(
    engine: Engine,
) -> None:
    # Seat 1 (partner of seat 3) trumped with the 9; seat 3 may discard, or trump with
    # the jack, but not under the 9 when it holds the jack.
    deal = position(engine, ["", "", "", "JH 7H 8C"], trump="H", leader=0, trick="AS 9H 7S")
    assert texts(deal.legal_cards()) == {"JH", "8C"}
    with pytest.raises(IllegalMoveError, match="must overtrump the 9 of hearts"):
        deal.play(card("7H"))


def test_trumping_your_partners_plain_card_any_trump_beats_it(engine: Engine) -> None:
    deal = position(engine, ["", "", "7H 8C", ""], trump="H", leader=0, trick="AS 7S")
    assert texts(deal.legal_cards()) == {"7H", "8C"}


def test_over_your_partners_trump_a_lower_trump_is_allowed_when_you_cannot_beat_it(
    engine: Engine,
) -> None:
    deal = position(engine, ["", "", "", "8H 7H 8C"], trump="H", leader=0, trick="AS 9H 7S")
    assert texts(deal.legal_cards()) == {"8H", "7H", "8C"}


def test_an_opponents_overtrump_over_your_partner_must_be_beaten(engine: Engine) -> None:
    # Seat 1 trumps (winning), seat 2 overtrumps it: seat 3 (partner of seat 1) now
    # faces an opponent's trump and must overtrump it.
    deal = position(engine, ["", "", "", "JH 7H 8C"], trump="H", leader=0, trick="AS 7H 9H")
    assert deal.state.win_seat == 2
    assert texts(deal.legal_cards()) == {"JH"}


# --- illegal plays ------------------------------------------------------------------------


def test_an_illegal_card_changes_nothing(engine: Engine) -> None:
    deal = position(engine, ["", "7S AS JH 8C", "", ""], trump="H", leader=0, trick="KS")
    before = (list(deal.state.hands), list(deal.state.trick), deal.turn, len(deal.actions))
    with pytest.raises(IllegalMoveError):
        deal.play(card("JH"))
    assert (list(deal.state.hands), list(deal.state.trick), deal.turn, len(deal.actions)) == before


def test_a_card_you_do_not_hold_is_refused_as_not_among_your_cards(engine: Engine) -> None:
    deal = position(engine, ["7S AS", "8S", "", ""], trump="H", leader=0)
    with pytest.raises(IllegalMoveError, match="8S is not among your cards"):
        deal.play(card("8S"))


def test_no_card_may_be_played_during_the_bidding(engine: Engine) -> None:
    deal = first_deal(engine, seed=9)
    hand = deal.state.hands[deal.turn]
    with pytest.raises(IllegalMoveError, match="the play has not started"):
        deal.play(next(iter(cards_of(hand))))
    assert deal.state.hands[deal.turn] == hand


def test_the_legal_set_offers_only_cards_of_the_seat_to_play(engine: Engine) -> None:
    deal = position(engine, ["7S AS", "8S 9S", "10S", "JS"], trump="H", leader=0)
    assert deal.legal_cards() == cards("7S AS")
