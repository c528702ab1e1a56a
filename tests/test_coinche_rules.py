"""La Coinche, rule by rule (docs/rules.md, "La Coinche (belote contrée)"), through the
engine with atout's own plugins."""

from __future__ import annotations

from typing import Any

import pytest
from atout.core import Contract
from atout.core import Deal
from atout.core import DealEnd
from atout.core import DealScore
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import parse_card
from atout.core.errors import IllegalMoveError
from atout.core.model import BidInfo
from atout.testing import play_random_deal
from helpers import position as hand_position
from helpers import texts

GAME = "coinche"
TWO = "coinche-decouverte"


def first_deal(
    engine: Engine, rules: dict[str, Any] | None = None, seed: int = 3, game: str = GAME
) -> Deal:
    """The first deal of a seeded match, in its auction."""
    match = Match(engine, game, engine.make_rules(game, rules or {}), seed=seed)
    return match.next_deal()


def bids(deal: Deal, *texts_: str) -> Deal:
    for text in texts_:
        deal.bid(text)
    return deal


def score(
    engine: Engine,
    contract: Contract,
    cards_: tuple[int, int],
    *,
    capot: int | None = None,
    belote: tuple[int, int] = (0, 0),
    declarations: tuple[int, int] = (0, 0),
    rules: dict[str, Any] | None = None,
    game: str = GAME,
) -> DealScore:
    """The score of a deal that ends so, by the game's one scoring (hook
    ``atout_deal_scorer``, as the bots and the review ask it)."""
    compiled = engine.play_rules(game, engine.make_rules(game, rules or {}), contract)
    assert compiled.scorer is not None
    return compiled.scorer(DealEnd(cards_, capot, declarations, belote))


def hearts(value: int, level: int = 1, taker: int = 0) -> Contract:
    return Contract(taker, 2, "H", value, level)


# --- the deal ---------------------------------------------------------------------------------


def test_every_seat_holds_eight_cards_before_the_auction_and_no_card_is_turned(
    engine: Engine,
) -> None:
    deal = first_deal(engine)
    assert deal.phase == "bidding"
    assert [h.bit_count() for h in deal.state.hands] == [8, 8, 8, 8]
    assert deal.state.turnup is None and not deal.state.stock


@pytest.mark.parametrize(
    ("packets", "sizes"), [("3-2-3", (3, 2, 3)), ("4-4", (4, 4)), ("2-3-3", (2, 3, 3))]
)
def test_the_packets_follow_the_deal_packets_option(
    engine: Engine, packets: str, sizes: tuple[int, ...]
) -> None:
    deal = first_deal(engine, {"deal_packets": packets})
    pack = deal.state.layout.pack_order
    dealer = deal.state.dealer
    pos = 0
    for size in sizes:
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            for c in pack[pos : pos + size]:
                assert deal.state.hands[seat] >> c & 1, f"card {pos} goes to seat {seat}"
            pos += size


def test_the_next_deal_is_gathered_and_cut(engine: Engine) -> None:
    match = Match(engine, GAME, engine.make_rules(GAME, {}), seed=8)
    deal = match.next_deal()
    bids(deal, "80 H", "pass", "pass", "pass")
    play_random_deal(deal, 8)
    match.end_deal(deal)
    played = [c for t in deal.state.tricks for c in t.cards]
    pack = list(match.next_deal().state.layout.pack_order)
    at = pack.index(played[0])
    assert pack[at:] + pack[:at] == played, "the tricks, in order, cut once"


def test_decouverte_coinche_deals_the_piles_and_proposes_no_card(engine: Engine) -> None:
    deal = first_deal(engine, game=TWO)
    s = deal.state
    assert s.turnup is None
    assert [len(row) for row in s.layout.piles] == [8, 8]
    assert [h.bit_count() for h in s.hands] == [8, 8]
    assert [h.bit_count() for h in s.hidden] == [8, 8]
    assert deal.legal_bids()[:4] == ["80 C", "80 D", "80 H", "80 S"]


# --- the auction ---------------------------------------------------------------------------------


def test_the_player_at_the_dealers_right_speaks_first(engine: Engine) -> None:
    deal = first_deal(engine)
    assert deal.turn == (deal.state.dealer + 1) % 4


def test_the_first_bids_are_80_to_160_and_capot_in_the_four_suits(engine: Engine) -> None:
    options = first_deal(engine).legal_bids()
    values = ["80", "90", "100", "110", "120", "130", "140", "150", "160", "capot"]
    assert options == [f"{v} {s}" for v in values for s in "CDHS"] + ["pass"]


def test_sans_atout_and_tout_atout_are_offered_by_the_option(engine: Engine) -> None:
    options = first_deal(engine, {"sans_tout_atout": "both"}).legal_bids()
    assert options[:6] == ["80 C", "80 D", "80 H", "80 S", "80 sans-atout", "80 tout-atout"]
    only = first_deal(engine, {"sans_tout_atout": "tout-atout"}).legal_bids()
    assert "80 tout-atout" in only and "80 sans-atout" not in only


def test_each_bid_must_be_higher_than_the_last(engine: Engine) -> None:
    deal = bids(first_deal(engine), "100 S")
    options = deal.legal_bids()
    assert "100 H" not in options and "90 C" not in options
    assert options[0] == "110 C"
    with pytest.raises(IllegalMoveError, match="not allowed"):
        deal.bid("100 H")
    deal.bid("pass")
    assert "110 D" in deal.legal_bids(), "a player may bid over his partner"


def test_nothing_is_bid_above_capot(engine: Engine) -> None:
    deal = bids(first_deal(engine), "160 H", "capot S")
    assert deal.legal_bids() == ["contre", "pass"]
    deal.bid("pass")
    assert deal.legal_bids() == ["pass"], "the capot bidder's partner"


def test_only_an_opponent_of_the_last_bidder_may_say_contre(engine: Engine) -> None:
    deal = bids(first_deal(engine), "90 H")
    assert "contre" in deal.legal_bids()
    deal.bid("pass")
    assert "contre" not in deal.legal_bids(), "the bidder's partner"
    deal.bid("pass")
    deal.bid("contre")
    assert "contre" not in deal.legal_bids()


def test_only_the_doubled_side_may_say_surcontre(engine: Engine) -> None:
    deal = bids(first_deal(engine), "90 H", "contre")
    assert "surcontre" in deal.legal_bids(), "the bidder's partner"
    deal.bid("pass")
    assert deal.legal_bids() == ["pass"], "the doubler's partner"
    deal.bid("pass")
    assert "surcontre" in deal.legal_bids(), "the bidder"


def test_no_bid_follows_a_contre_by_default(engine: Engine) -> None:
    deal = bids(first_deal(engine), "90 H", "contre")
    assert deal.legal_bids() == ["surcontre", "pass"]
    deal.bid("pass")
    assert deal.legal_bids() == ["pass"]


def test_with_bid_after_contre_a_higher_bid_cancels_the_contre(engine: Engine) -> None:
    deal = bids(first_deal(engine, {"bid_after_contre": True}), "90 H", "contre")
    assert "100 C" in deal.legal_bids()
    bids(deal, "100 C", "pass", "pass", "pass")
    assert deal.state.contract is not None
    assert (deal.state.contract.value, deal.state.contract.level) == (100, 1)


def test_three_passes_after_a_bid_end_the_auction(engine: Engine) -> None:
    deal = bids(first_deal(engine), "pass", "80 D", "pass", "pass")
    assert deal.phase == "bidding"
    deal.bid("pass")
    assert deal.phase == "play"


def test_a_surcontre_ends_the_auction_at_once(engine: Engine) -> None:
    deal = first_deal(engine)
    first = deal.turn
    bids(deal, "90 H", "contre", "surcontre")
    assert deal.phase == "play"
    assert deal.state.contract == Contract(first, 2, "H", 90, 4)


def test_the_contract_is_the_last_bid_with_its_level(engine: Engine) -> None:
    deal = first_deal(engine, {"sans_tout_atout": "both"})
    bidder = (deal.turn + 1) % 4
    bids(deal, "80 S", "110 sans-atout", "contre", "pass", "pass", "pass")
    assert deal.state.contract == Contract(bidder, None, "sans-atout", 110, 2)
    two = bids(first_deal(engine, game=TWO), "90 C", "pass")
    assert two.state.contract is not None and two.state.contract.value == 90, "one pass at two"


def test_all_passing_is_a_redeal_by_the_next_dealer(engine: Engine) -> None:
    match = Match(engine, GAME, engine.make_rules(GAME, {}), seed=4)
    deal = bids(match.next_deal(), "pass", "pass", "pass")
    assert deal.phase == "bidding"
    deal.bid("pass")
    assert deal.phase == "redeal"
    dealer = deal.state.dealer
    match.end_deal(deal)
    assert match.next_deal().state.dealer == (dealer + 1) % 4


def test_bids_are_described_in_parts_for_the_front_ends(engine: Engine) -> None:
    rules = engine.make_rules(GAME, {})
    assert engine.describe_bid(GAME, rules, "90 H") == BidInfo("contract", 90, False, "H", 2)
    assert engine.describe_bid(GAME, rules, "capot sans-atout") == BidInfo(
        "contract", 250, True, "sans-atout", None
    )
    assert engine.describe_bid(GAME, rules, "contre").kind == "double"
    assert engine.describe_bid(GAME, rules, "surcontre").kind == "redouble"
    assert engine.describe_bid(GAME, rules, "pass").kind == "pass"
    assert engine.describe_bid("belote", engine.make_rules("belote", {}), "take").kind == "other"


# --- play ----------------------------------------------------------------------------------


def position(
    engine: Engine, contract: Contract, hands: list[str], trick: str = "", leader: int = 0
) -> Deal:
    """A four-player Coinche deal in its play under ``contract``, set up by hand."""
    return hand_position(engine, hands, leader=leader, trick=trick, game=GAME, contract=contract)


def test_sans_atout_follows_suit_and_any_card_when_void(engine: Engine) -> None:
    sa = Contract(0, None, "sans-atout", 90)
    deal = position(engine, sa, ["", "AH 7H JS", "", ""], trick="KH")
    assert texts(deal.legal_cards()) == {"AH", "7H"}
    assert deal.explain(parse_card("JS")) == "must follow hearts"
    void = position(engine, sa, ["", "JS 7D", "", ""], trick="KH")
    assert texts(void.legal_cards()) == {"JS", "7D"}


def test_tout_atout_must_beat_the_best_card_of_the_suit_led(engine: Engine) -> None:
    ta = Contract(0, None, "tout-atout", 90)
    deal = position(engine, ta, ["", "", "9H 7H AS", ""], trick="AH 8H")
    assert texts(deal.legal_cards()) == {"9H"}, "even over the partner's ace"
    assert "must beat" in (deal.explain(parse_card("7H")) or "")
    deal = position(engine, ta, ["", "JS 7D", "", ""], trick="7H")
    assert texts(deal.legal_cards()) == {"JS", "7D"}
    deal.play(parse_card("JS"))
    assert deal.state.win_card == parse_card("7H"), "no suit takes another"


@pytest.mark.parametrize("name", ["sans-atout", "tout-atout", "H"])
def test_the_switched_contracts_are_worth_162(engine: Engine, name: str) -> None:
    trump = 2 if name == "H" else None
    values = engine.play_rules(
        GAME, engine.make_rules(GAME, {}), Contract(0, trump, name, 80)
    ).values
    assert sum(values.points) + values.last_trick == 162
    expected = {"sans-atout": (19, 2), "tout-atout": (6, 14), "H": (11, 20)}[name]
    assert (values.points[parse_card("AH")], values.points[parse_card("JH")]) == expected


def test_the_player_at_the_dealers_right_leads_first(engine: Engine) -> None:
    deal = first_deal(engine)
    leader = (deal.state.dealer + 1) % 4
    bids(deal, "pass", "80 H", "pass", "pass", "pass")
    assert deal.state.contract is not None and deal.state.contract.taker != leader
    assert deal.turn == leader


# --- belote and declarations -----------------------------------------------------------------


def test_belote_rebelote_counts_towards_the_contract_and_stays_with_its_side(
    engine: Engine,
) -> None:
    # 82 card points and belote make a 100 contract: 100 + 102.
    made = score(engine, hearts(100), (82, 80), belote=(20, 0))
    assert made.made and made.score == (200, 80)
    # Fallen, doubled: the takers keep their belote.
    fallen = score(engine, hearts(120, 2), (82, 80), belote=(20, 0))
    assert fallen.made is False and fallen.score == (20, 560)
    found = bids(first_deal(engine, seed=0), "80 H", "pass", "pass", "pass").state.declarations
    assert all(d.kind == "belote" for d in found), "only belote-rebelote by default"


def test_declarations_count_as_in_belote_when_switched_on(engine: Engine) -> None:
    kinds: set[str] = set()
    for seed in range(30):
        deal = bids(
            first_deal(engine, {"declarations": "on"}, seed=seed), "80 H", "pass", "pass", "pass"
        )
        kinds |= {d.kind for d in deal.state.declarations}
    assert kinds - {"belote"}, "sequences or carrés are found"
    made = score(engine, hearts(100), (70, 92), declarations=(50, 0), rules={"declarations": "on"})
    assert made.made and made.score == (220, 90)


# --- scoring -------------------------------------------------------------------------------


def test_the_contract_is_made_when_the_takers_reach_its_value(engine: Engine) -> None:
    assert score(engine, hearts(110), (110, 52)).made
    assert not score(engine, hearts(110), (109, 53)).made


def test_reaching_the_value_is_not_enough_without_beating_the_defenders(engine: Engine) -> None:
    result = score(engine, hearts(80), (90, 72), declarations=(0, 20), rules={"declarations": "on"})
    assert result.made is False


def test_a_capot_contract_needs_every_trick(engine: Engine) -> None:
    capot = Contract(0, 2, "H", 250)
    assert score(engine, capot, (162, 0), capot=0).made
    result = score(engine, capot, (152, 10))
    assert result.made is False and result.score == (0, 410)


def test_made_the_takers_score_the_value_plus_their_points(engine: Engine) -> None:
    result = score(engine, hearts(110, taker=1), (49, 113))
    assert result.outcome == "made" and result.score == (50, 220)


def test_announced_scoring_gives_only_the_value(engine: Engine) -> None:
    rules = {"scoring": "announced"}
    assert score(engine, hearts(110), (113, 49), rules=rules).score == (110, 0)
    assert score(engine, hearts(110), (100, 62), rules=rules).score == (0, 110)


def test_fallen_the_defenders_score_160_plus_the_value(engine: Engine) -> None:
    result = score(engine, hearts(130), (120, 42))
    assert result.outcome == "dedans" and result.score == (0, 290)


def test_a_capot_made_scores_500(engine: Engine) -> None:
    assert score(engine, Contract(0, 2, "H", 250), (162, 0), capot=0).score == (500, 0)


def test_an_unannounced_capot_counts_250_points(engine: Engine) -> None:
    assert score(engine, hearts(90), (162, 0), capot=0).score == (340, 0)
    assert score(engine, hearts(90), (162, 0), capot=0, rules={"capot_points": 162}).score == (
        250,
        0,
    )


def test_a_contre_doubles_and_the_winner_takes_all(engine: Engine) -> None:
    assert score(engine, hearts(100, 2), (110, 52)).score == (520, 0)
    assert score(engine, hearts(100, 2), (90, 72)).score == (0, 520)


def test_a_surcontre_multiplies_by_four(engine: Engine) -> None:
    result = score(engine, hearts(100, 4), (110, 52), belote=(0, 20))
    assert result.score == (1040, 20), "the defenders keep their belote"


def test_a_tie_is_fallen_by_default(engine: Engine) -> None:
    result = score(engine, hearts(80), (81, 81))
    assert result.made is False and result.score == (0, 240)


def test_a_litige_holds_the_takers_points_for_the_next_deal(engine: Engine) -> None:
    rules = {"tie": "litige"}
    result = score(engine, hearts(80), (81, 81), rules=rules)
    assert result.outcome == "litige" and result.made is None
    assert result.score == (0, 80)
    assert result.carry == {"held": [{"kind": "litige", "takers": 0, "points": 161}]}
    # The next deal: the side that wins it receives the held points.
    match = Match(engine, GAME, engine.make_rules(GAME, rules), seed=2)
    deal = match.next_deal()
    deal.state.carry_in = result.carry
    taker = deal.turn
    bids(deal, "80 C", "pass", "pass", "pass")
    play_random_deal(deal, 2)
    assert deal.score is not None
    side = taker % 2 if deal.score.made else 1 - taker % 2
    assert "the litige points go to the winners of this deal" in deal.score.notes
    assert deal.score.score[side] >= 160


def test_scores_are_rounded_to_tens_but_the_contract_is_judged_before(engine: Engine) -> None:
    assert score(engine, hearts(80), (79, 83)).made is False
    assert score(engine, hearts(110), (113, 49)).score == (220, 50)
    assert score(engine, hearts(110), (113, 49), rules={"rounding": 0}).score == (223, 49)


# --- the match -------------------------------------------------------------------------------


def test_the_match_is_played_to_2000(engine: Engine) -> None:
    rules = engine.make_rules(GAME, {})
    assert rules["target"] == 2000
    assert (
        engine.call("atout_match_over", game=GAME, rules=rules, scores=(1990, 0), history=[])
        is None
    )
    over = engine.call("atout_match_over", game=GAME, rules=rules, scores=(2010, 300), history=[])
    assert over is not None and over.winner == 0


def test_a_contracts_value_and_level_travel_in_events_and_a_belotes_contract_as_before() -> None:
    from atout.core.session import ContractEvent
    from atout.core.session import Event

    doubled = Contract(1, 2, "H", 90, 2)
    event = ContractEvent(seat=1, deal=1, contract=doubled)
    assert event.to_json()["contract"] == {
        "taker": 1,
        "trump": 2,
        "name": "H",
        "value": 90,
        "level": 2,
    }
    assert Event.from_json(event.to_json()).contract == doubled
    plain = ContractEvent(seat=0, deal=1, contract=Contract(0, 3, "S"))
    assert plain.to_json()["contract"] == {"taker": 0, "trump": 3, "name": "S"}
    assert Event.from_json(plain.to_json()).contract == Contract(0, 3, "S")


def test_a_hand_written_position_sets_the_contracts_value_and_level(engine: Engine) -> None:
    from atout.core.errors import RecordError
    from atout.core.records import deal_from_record

    hands = [
        "JH 9H AH 10H JS 9S AS 10S",
        "7H 8H QH KH 7S 8S QS KS",
        "JC 9C AC 10C JD 9D AD 10D",
        "7C 8C QC KC 7D 8D QD KD",
    ]
    record: dict[str, Any] = {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "rules": {},
        "dealer": 3,
        "layout": {"hands": [h.split() for h in hands]},
        "start": {
            "contract": {"taker": 0, "trump": "H", "value": 120, "level": 2},
            "leader": 0,
            "tricks": [],
        },
        "actions": [],
    }
    try:
        deal = deal_from_record(engine, record)
    except RecordError as exc:  # the record's format, as docs/records.md writes it
        pytest.fail(str(exc))
    assert deal.state.contract == Contract(0, 2, "H", 120, 2)
    record["start"]["contract"]["level"] = 3
    with pytest.raises(RecordError, match=r"start\.contract\.level"):
        deal_from_record(engine, record)


def test_a_hand_written_auction_starts_with_eight_cards_a_hand_and_whole_piles(
    engine: Engine,
) -> None:
    """Belote's check of the hands' size and Découverte's of the piles, as La Coinche's
    two forms ask them: each names the first seat that is wrong."""
    from atout.plugins.decouverte import layout_from_pack

    def problems(game: str, layout: Layout) -> list[str]:
        rules = engine.default_rules(game)
        found = engine.hooks.check_layout(
            game=game, rules=rules, layout=layout, dealer=0, bidding=True
        )
        return [p for p in found if p is not None]

    mask = [sum(1 << c for c in range(a, b)) for a, b in ((0, 8), (8, 16), (16, 24), (24, 32))]
    assert problems(GAME, Layout(hands=tuple(mask))) == []
    short = Layout(hands=(mask[0] | 1 << 8, mask[1] & ~(1 << 8), mask[2], mask[3]))
    assert problems(GAME, short) == ["hands: seat 0 holds 9 cards; the auction starts with 8"]
    piles = layout_from_pack(range(32), 0)
    assert problems("coinche-decouverte", piles) == []
    row = ((piles.piles[1][0][0], None), *piles.piles[1][1:])
    broken = Layout(piles.hands, (piles.piles[0], row), stock=(piles.piles[1][0][1],))
    assert problems("coinche-decouverte", broken) == [
        "piles: seat 1 needs 8 piles, each a face-up and a face-down card"
    ]
