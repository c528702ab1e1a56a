"""The two contracts, rule by rule, through atout's engine with the plugin installed."""

from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path

import pytest
from atout.core import Action
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import card_str
from atout.core import cards_of
from atout.core import parse_card
from atout.core import parse_cards
from atout.core.packs import resolve
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.records import match_to_record
from atout.core.views import View
from atout.testing import play_random_deal
from atout_sans_tout_atout import SANS_ATOUT
from atout_sans_tout_atout import TOUT_ATOUT
from atout_sans_tout_atout.rules import card_values

PACKS = Path(__file__).resolve().parent.parent / "packs"
ON = {"sans_tout_atout": "both"}


@pytest.fixture
def engine(atout_engine: Engine) -> Engine:
    """atout's engine with every installed plugin: this one comes through its entry point."""
    return atout_engine


def texts(mask: int) -> set[str]:
    return {card_str(c) for c in cards_of(mask)}


def position(
    engine: Engine,
    contract: str,
    hands: list[str],
    trick: str = "",
    leader: int = 0,
    game: str = "belote",
) -> Deal:
    """A deal in its play under ``contract``, set up by hand: ``hands[s]`` is what seat
    ``s`` holds now; the ``trick`` cards were played from ``leader`` on (each checked)."""
    seats = len(hands)
    played = [parse_card(t) for t in trick.split()]
    masks = [parse_cards(h) for h in hands]
    for i, c in enumerate(played):
        masks[(leader + i) % seats] |= 1 << c
    state = DealState(
        game, engine.make_rules(game, ON), seats, 2, (leader - 1) % seats, Layout(tuple(masks))
    )
    state.contract = Contract(0, None, contract)
    state.phase = "play"
    state.leader = state.turn = leader
    deal = engine.deal_from_state(state)
    for c in played:
        deal.play(c)
    return deal


# --- the published tables -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "table"),
    [
        (SANS_ATOUT, {"A": 19, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}),
        (TOUT_ATOUT, {"J": 14, "9": 9, "A": 6, "10": 5, "K": 3, "Q": 1, "8": 0, "7": 0}),
    ],
)
def test_every_card_is_worth_what_the_ffb_table_says(contract: str, table: dict[str, int]) -> None:
    values = card_values(contract)
    for suit in "CDHS":
        for rank, points in table.items():
            assert values.points[parse_card(rank + suit)] == points
    assert sum(values.points) + values.last_trick == 162


@pytest.mark.parametrize(
    ("contract", "order"),
    [(SANS_ATOUT, "A 10 K Q J 9 8 7"), (TOUT_ATOUT, "J 9 A 10 K Q 8 7")],
)
def test_the_highest_card_of_the_suit_led_wins_in_the_published_order(
    engine: Engine, contract: str, order: str
) -> None:
    ranks = order.split()
    for high, low in itertools.pairwise(ranks):
        # Seat 1 leads the lower heart, seat 2 plays the higher one; seats 3 and 0 discard.
        deal = position(engine, contract, ["7C", "", "", ""], f"{low}H {high}H 8S", leader=1)
        deal.play(parse_card("7C"))
        assert deal.state.tricks[-1].winner == 2, f"{high} beats {low} under {contract}"


@pytest.mark.parametrize("contract", [SANS_ATOUT, TOUT_ATOUT])
def test_no_suit_trumps_another(engine: Engine, contract: str) -> None:
    # The jack of spades and the nine of diamonds are the best cards of tout atout, but
    # not of the suit led: the seven of hearts led by seat 0 wins.
    deal = position(engine, contract, ["", "", "", "7C"], trick="7H JS 9D", leader=0)
    deal.play(parse_card("7C"))
    assert deal.state.tricks[-1].winner == 0


# --- play obligations ---------------------------------------------------------------------------


def test_sans_atout_must_follow_suit_but_need_not_beat(engine: Engine) -> None:
    deal = position(engine, SANS_ATOUT, ["", "AH 7H JS", "", ""], trick="KH", leader=0)
    assert texts(deal.legal_cards()) == {"AH", "7H"}
    assert deal.explain(parse_card("JS")) == "must follow hearts (sans atout)"


def test_sans_atout_void_in_the_suit_led_plays_any_card(engine: Engine) -> None:
    deal = position(engine, SANS_ATOUT, ["", "JS 7D", "", ""], trick="KH", leader=0)
    assert texts(deal.legal_cards()) == {"JS", "7D"}


def test_tout_atout_must_beat_the_best_card_of_the_trick(engine: Engine) -> None:
    deal = position(engine, TOUT_ATOUT, ["", "JH 7H AS", "", ""], trick="AH", leader=0)
    assert texts(deal.legal_cards()) == {"JH"}
    reason = deal.explain(parse_card("7H"))
    assert reason is not None and "must beat the ace of hearts" in reason
    assert deal.explain(parse_card("AS")) == "must follow hearts (tout atout)"


def test_tout_atout_must_beat_even_the_partners_winning_card(engine: Engine) -> None:
    # Seat 0 leads the ace; seat 1 follows low; seat 2, the leader's partner, must go over.
    deal = position(engine, TOUT_ATOUT, ["", "", "9H 7H", ""], trick="AH 8H", leader=0)
    assert texts(deal.legal_cards()) == {"9H"}


def test_tout_atout_unable_to_beat_plays_any_card_of_the_suit(engine: Engine) -> None:
    deal = position(engine, TOUT_ATOUT, ["", "8H 7H KS", "", ""], trick="JH", leader=0)
    assert texts(deal.legal_cards()) == {"8H", "7H"}


def test_tout_atout_void_in_the_suit_led_plays_any_card_and_cannot_win(engine: Engine) -> None:
    deal = position(engine, TOUT_ATOUT, ["", "JS 7D", "", ""], trick="7H", leader=0)
    assert texts(deal.legal_cards()) == {"JS", "7D"}
    deal.play(parse_card("JS"))
    assert deal.state.win_card == parse_card("7H")


# --- bidding ---------------------------------------------------------------------------------


def first_deal(engine: Engine, game: str, rules: dict[str, str], seed: int = 5) -> Deal:
    match = Match(engine, game, engine.make_rules(game, rules), seed=seed)
    return match.next_deal()


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_both_rounds_offer_the_contracts_before_pass(engine: Engine, game: str) -> None:
    deal = first_deal(engine, game, ON)
    round_one = deal.legal_bids()
    assert round_one[-3:] == [SANS_ATOUT, TOUT_ATOUT, "pass"]
    assert "take" in round_one
    for _ in range(deal.state.seats):
        deal.bid("pass")
    round_two = deal.legal_bids()
    assert round_two[-3:] == [SANS_ATOUT, TOUT_ATOUT, "pass"]
    assert len(round_two) == 3 + 3  # three other suits, the two contracts, pass


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_by_default_the_bidding_is_the_games_own(engine: Engine, game: str) -> None:
    deal = first_deal(engine, game, {})
    assert deal.legal_bids() == ["take", "pass"]


@pytest.mark.parametrize("bid", [SANS_ATOUT, TOUT_ATOUT])
def test_the_bid_makes_a_contract_without_a_trump_suit_and_the_taker_gets_the_turnup(
    engine: Engine, bid: str
) -> None:
    deal = first_deal(engine, "belote", ON)
    bidder = deal.turn
    turnup = deal.state.turnup
    assert turnup is not None
    deal.bid("pass")
    deal.bid(bid)
    assert deal.state.contract == Contract((bidder + 1) % 4, None, bid)
    assert deal.state.hands[(bidder + 1) % 4] >> turnup & 1
    assert [bin(h).count("1") for h in deal.state.hands] == [8, 8, 8, 8]


@pytest.mark.parametrize("bid", [SANS_ATOUT, TOUT_ATOUT])
def test_no_belote_rebelote_is_announced_under_either_contract(engine: Engine, bid: str) -> None:
    held = 0
    for seed in range(40):
        deal = first_deal(engine, "belote", ON, seed=seed)
        deal.bid(bid)
        hands = list(deal.state.hands)
        held += any(
            h & parse_cards(f"K{s} Q{s}") == parse_cards(f"K{s} Q{s}")
            for h in hands
            for s in "CDHS"
        )
        assert all(d.kind != "belote" for d in deal.state.declarations)
        play_random_deal(deal, seed)
        assert all("belote" not in a.text for a in deal.state.announcements)
        assert sum(t.points for t in deal.state.tricks) == 162
    assert held > 0, "some deal dealt a king and queen of one suit to one player"


def test_a_decouverte_deal_under_tout_atout_turns_every_card_and_counts_162(
    engine: Engine,
) -> None:
    deal = first_deal(engine, "decouverte", ON, seed=11)
    deal.bid(TOUT_ATOUT)
    play_random_deal(deal, 11)
    assert len(deal.state.tricks) == 16
    assert deal.score is not None and sum(deal.score.card_points) == 162


# --- records, packs and the terminal ---------------------------------------------------------


def test_a_deal_record_under_sans_atout_replays_exactly(engine: Engine) -> None:
    deal = first_deal(engine, "belote", ON, seed=21)
    deal.bid(SANS_ATOUT)
    play_random_deal(deal, 21)
    record = json.loads(json.dumps(deal_to_record(deal)))
    again = deal_from_record(engine, record)
    assert again.state.tricks == deal.state.tricks
    assert again.score == deal.score


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_the_shipped_packs_switch_both_contracts_on(engine: Engine, game: str) -> None:
    pack = resolve(engine, str(PACKS / f"{game}-sans-tout-atout.yaml"), game)
    assert pack.rules["sans_tout_atout"] == "both"
    assert pack.plugins == ("sans-tout-atout",)


def test_a_terminal_match_under_the_pack_plays_sans_atout(engine: Engine, tmp_path: Path) -> None:
    from atout.core.session import Session
    from atout.ui.terminal import HUMAN
    from atout.ui.terminal import TerminalGame

    rules = resolve(engine, str(PACKS / "belote-sans-tout-atout.yaml"), "belote").rules
    match = Match(engine, "belote", rules, seed=3)
    rng = random.Random(3)

    class Person(io.StringIO):
        """Bids sans atout, plays a random legal card, and quits when the deal is over."""

        def readline(self, size: int | None = -1) -> str:
            deal = match.current
            assert deal is not None
            if len(match.deals) > 1:
                return "quit\n"
            view = deal.view(HUMAN)
            if view.phase == "bidding":
                return SANS_ATOUT + "\n"
            return str(rng.choice(view.legal_actions())) + "\n"

    out = io.StringIO()
    bots = {s: _RandomSeat(engine, s) for s in range(1, 4)}
    TerminalGame(Session(engine, match=match, bots=bots), Person(), out).run()
    text = out.getvalue()
    assert f"Your bid (take / {SANS_ATOUT} / {TOUT_ATOUT} / pass)" in text
    assert "Contract: Sans atout" in text
    assert "End of the deal" in text
    assert match_to_record(match)["rules"]["sans_tout_atout"] == "both"


class _RandomSeat:
    """A bot that plays a random legal action of its view."""

    def __init__(self, engine: Engine, seat: int) -> None:
        self.rng = random.Random(seat)

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions())
