"""Deal and match records: round trips, set-up positions, and malformed records.

A malformed record, or one whose action is illegal, gives exactly one
:class:`RecordError` whose single line names the file (or source) and the action
number, and the file is never touched.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core import RecordError
from atout.core import card_str
from atout.core import parse_card
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.records import load_json
from atout.core.records import match_from_record
from atout.core.records import match_to_record
from atout.core.records import record_players
from atout.core.records import save_json
from atout.core.records import trace
from atout.core.session import Session
from atout.core.session import seats_of
from helpers import GAME
from helpers import deal_record
from helpers import random_choice
from helpers import random_deal
from helpers import shipped_engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


# A hand-written deal (see test_belote_scoring.MADE): seat 0 takes hearts.
MADE = [
    "JH 7H 8H 10H",
    "9H AH KH QH",
    "7S AS 8S 9S",
    "10S KS QS JS",
    "7C AC 8C 9C",
    "10C KC QC JC",
    "7D 8D AD 9D",
    "10D KD QD JD",
]


def one_line_error(excinfo: pytest.ExceptionInfo[RecordError]) -> str:
    message = str(excinfo.value)
    assert "\n" not in message
    return message


# --- round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_deal_record_saved_and_loaded_replays_to_the_same_deal(
    engine: Engine, tmp_path: Path, seed: int
) -> None:
    _, deal = random_deal(engine, seed)
    path = save_json(tmp_path / "deal.json", deal_to_record(deal, seed=seed))
    again = deal_from_record(engine, load_json(path), str(path))
    assert again.state.layout.hands == deal.state.layout.hands
    assert again.actions == deal.actions
    assert again.state.tricks == deal.state.tricks
    assert again.score == deal.score
    assert deal_to_record(again, seed=seed) == deal_to_record(deal, seed=seed)


def test_a_record_holds_rules_layout_and_every_action(engine: Engine) -> None:
    _, deal = random_deal(engine, 4, {"undertrump": "always"})
    record = deal_to_record(deal)
    assert record["format"] == "atout-deal" and record["version"] == 1
    assert record["rules"]["undertrump"] == "always"
    assert len(record["layout"]["hands"]) == 4
    assert len(record["layout"]["stock"]) == 12
    assert record["layout"]["turnup"] == record["layout"]["stock"][0]
    plays = [a for a in record["actions"] if "play" in a]
    assert len(plays) == 32
    assert deal.score is not None
    assert record["result"]["score"] == list(deal.score.score)


def test_an_unfinished_deal_record_replays_to_where_it_stopped(engine: Engine) -> None:
    match = Match(engine, GAME, seed=8)
    deal = match.next_deal()
    rng = random.Random(8)
    while deal.phase == "bidding" or len(deal.state.tricks) < 3:
        if deal.is_over:
            match.end_deal(deal)
            deal = match.next_deal()
        deal.apply(rng.choice(deal.legal_actions()))
    again = deal_from_record(engine, json.loads(json.dumps(deal_to_record(deal))))
    assert again.turn == deal.turn
    assert again.state.hands == deal.state.hands
    assert again.legal_cards() == deal.legal_cards()
    assert again.score is None


def play_match(engine: Engine, seed: int, deals: int) -> Match:
    match = Match(engine, GAME, seed=seed)
    rng = random.Random(seed)
    for _ in range(deals):
        match.play_deal(random_choice(rng))
    return match


def test_a_match_record_replays_the_match_from_its_seed(engine: Engine) -> None:
    match = play_match(engine, 12, 3)
    record = json.loads(json.dumps(match_to_record(match)))
    again = match_from_record(engine, record, "match.json")
    assert again.scores == match.scores
    assert again.dealer == match.dealer
    assert [d.actions for d in again.deals] == [d.actions for d in match.deals]
    assert [d.score for d in again.deals] == [d.score for d in match.deals]


def test_a_replayed_match_deals_on_exactly_as_the_original(engine: Engine) -> None:
    match = play_match(engine, 13, 2)
    again = match_from_record(engine, json.loads(json.dumps(match_to_record(match))))
    assert again.next_deal().state.layout == match.next_deal().state.layout


def test_a_match_record_holds_passed_out_deals_too(engine: Engine) -> None:
    match = Match(engine, GAME, seed=14)
    deal = match.next_deal()
    for _ in range(8):
        deal.bid("pass")
    match.end_deal(deal)
    match.play_deal(random_choice(random.Random(14)))
    record = match_to_record(match)
    assert record["deals"][0]["result"] == {"outcome": "redeal"}
    again = match_from_record(engine, json.loads(json.dumps(record)))
    assert [d.state.dealer for d in again.deals] == [3, 0]
    assert again.scores == match.scores


# --- set-up positions ---------------------------------------------------------------------------


def setup_record() -> dict[str, Any]:
    """Hearts trump, seat 1 took; six tricks already played; seat 0 to lead."""
    return {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "dealer": 3,
        "layout": {"hands": [["AS", "7S"], ["KS", "8H"], ["9S", "7C"], ["7H", "8C"]]},
        "start": {
            "contract": {"taker": 1, "trump": "H"},
            "leader": 0,
            "tricks": [
                ["JH", "9H", "AH", "10H"],
                ["KH", "QH", "8S", "10S"],
                ["AC", "9C", "10C", "JC"],
                ["KC", "QC", "8D", "9D"],
                ["AD", "7D", "10D", "JD"],
                {"leader": 0, "cards": ["KD", "QD", "JS", "QS"]},
            ],
        },
        "actions": [],
    }


def test_a_set_up_position_finds_each_played_tricks_winner_and_points(engine: Engine) -> None:
    deal = deal_from_record(engine, setup_record(), "position")
    s = deal.state
    assert s.contract is not None and (s.contract.taker, s.contract.trump) == (1, 2)
    assert [t.winner for t in s.tricks] == [0] * 6
    # J 20 + 9 14 + A 11 + 10 10 = 55; K 4 + Q 3 + 10S 10 = 17; A 11 + 10 10 + J 2 = 23;
    # K 4 + Q 3 = 7; A 11 + 10 10 + J 2 = 23; K 4 + Q 3 + J 2 + Q 3 = 12.
    assert [t.points for t in s.tricks] == [55, 17, 23, 7, 23, 12]
    assert deal.turn == 0 and deal.phase == "play"


def test_a_set_up_position_plays_on_and_scores_like_any_deal(engine: Engine) -> None:
    record = setup_record()
    record["actions"] = [
        {"seat": s, "play": c}
        for s, c in [(0, "AS"), (1, "KS"), (2, "9S"), (3, "7H"), (3, "8C"), (0, "7S")]
    ] + [{"seat": 1, "play": "8H"}, {"seat": 2, "play": "7C"}]
    deal = deal_from_record(engine, record, "position")
    assert deal.score is not None
    # Team 0 took 137 in the six tricks; trick 7 (A 11 + K 4 + 7H 0) goes to seat 3,
    # trick 8 (0 + dix de der 10) to seat 3: team 1 has 25, 137 > 25: seat 1 is dedans.
    assert deal.score.card_points == (137, 25)
    assert (deal.score.outcome, deal.score.score) == ("dedans", (162, 0))


def test_a_set_up_deal_writes_its_start_back_into_its_record(engine: Engine) -> None:
    deal = deal_from_record(engine, setup_record(), "position")
    deal.play(deal.legal_cards().bit_length() - 1)
    record = json.loads(json.dumps(deal_to_record(deal)))
    assert record["start"] == setup_record()["start"]
    again = deal_from_record(engine, record)
    assert again.state.trick == deal.state.trick and again.turn == deal.turn


def test_a_set_up_position_at_the_first_trick_finds_the_declarations(engine: Engine) -> None:
    # Seat 1 holds the king and queen of hearts, the trump: belote-rebelote.
    belote = ["JH KH 8H 10H", "9H QH 7H AH", *MADE[2:]]
    record = {**deal_record(engine, belote, trump="H", taker=0), "actions": []}
    deal = deal_from_record(engine, record)
    assert [(d.seat, d.kind) for d in deal.state.declarations] == [(1, "belote")]
    record["start"]["declarations"] = False
    assert deal_from_record(engine, record).state.declarations == []


# --- malformed records ---------------------------------------------------------------------------


def good(engine: Engine) -> dict[str, Any]:
    return deal_record(engine, MADE, trump="H", taker=0)


def test_bad_json_is_one_error_naming_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "atout-deal",\n "version": 1,,}\n', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_json(path)
    message = one_line_error(info)
    assert str(path) in message and "line 2" in message and "not valid JSON" in message


def test_a_missing_file_is_one_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file") as info:
        load_json(tmp_path / "nothing.json")
    assert "nothing.json" in one_line_error(info)


def test_a_json_list_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        load_json(path)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("format", "chess-pgn", "format: expected 'atout-deal', found 'chess-pgn'"),
        ("version", 99, "version: this atout reads version 1, found 99"),
        ("game", "skat", "unknown game 'skat'"),
        ("dealer", 7, "dealer: a seat is a number from 0 to 3, not 7"),
        ("rules", {"direction": "sideways"}, "rule option 'direction' must be one of"),
        ("rules", {"trumps": 5}, "unknown rule option 'trumps'"),
        ("rules", [1, 2], "rules: expected an object of rule options"),
        ("actions", 5, "actions: expected a list of actions"),
    ],
)
def test_a_malformed_header_is_one_error_naming_the_source_and_field(
    engine: Engine, field: str, value: object, expected: str
) -> None:
    record = good(engine)
    record[field] = value
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    message = one_line_error(info)
    assert message.startswith("deal.json: ")
    assert message.count("deal.json") == 1
    assert expected in message


def test_an_unknown_card_in_the_layout_names_where_it_is(engine: Engine) -> None:
    record = good(engine)
    record["layout"]["hands"][2][3] = "ZZ"
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    message = one_line_error(info)
    assert message.startswith("deal.json: layout.hands[2][3]: 'ZZ' is not a card")


def test_a_card_dealt_twice_is_one_error(engine: Engine) -> None:
    record = good(engine)
    record["layout"]["hands"][1][0] = record["layout"]["hands"][0][0]
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    assert "twice" in one_line_error(info)


def test_an_unknown_card_in_an_action_names_the_action_number(engine: Engine) -> None:
    record = good(engine)
    record["actions"][6]["play"] = "11H"
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    message = one_line_error(info)
    assert message.startswith("deal.json: action 7.play: '11H' is not a card")


def test_an_illegal_action_names_the_action_number_and_the_rule(engine: Engine) -> None:
    # Action 10 is seat 1's card in trick 3 (spades led by seat 0): JC instead of AS.
    record = good(engine)
    assert record["actions"][9] == {"seat": 1, "play": "AS"}
    record["actions"][9]["play"] = "JC"
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    message = one_line_error(info)
    assert message.startswith("deal.json: action 10: ")
    assert "must follow spades" in message


def test_an_action_by_the_wrong_seat_names_the_action_number(engine: Engine) -> None:
    record = good(engine)
    record["actions"][4]["seat"] = 2
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    assert one_line_error(info) == ("deal.json: action 5: seat 2 acts, but it is seat 0's turn")


def test_an_action_after_the_end_of_the_deal_is_an_error(engine: Engine) -> None:
    record = good(engine)
    record["actions"].append({"seat": 0, "play": "JH"})
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    assert "action 33: the deal is already over" in one_line_error(info)


def test_an_illegal_bid_names_the_action_number(engine: Engine) -> None:
    _, deal = random_deal(engine, 21)
    record = deal_to_record(deal)
    first_play = next(i for i, a in enumerate(record["actions"]) if "play" in a)
    assert first_play >= 1
    record["actions"][0]["bid"] = "double"
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    message = one_line_error(info)
    assert message.startswith("deal.json: action 1: ") and "'double' is not allowed" in message


def test_a_layout_without_a_turnup_is_a_record_error_naming_the_key_not_a_plugin(
    engine: Engine,
) -> None:
    _, deal = random_deal(engine, 22)
    record = deal_to_record(deal)
    del record["layout"]["turnup"]
    with pytest.raises(RecordError) as info:
        deal_from_record(engine, record, "deal.json")
    message = one_line_error(info)
    assert message.startswith("deal.json: layout: turnup: ") and "not none" in message
    assert "plugin" not in message


def test_a_match_record_names_the_deal_and_action_number(engine: Engine) -> None:
    record = match_to_record(play_match(engine, 15, 2))
    n = len(record["deals"])
    actions = record["deals"][-1]["actions"]
    k = next(i for i, a in enumerate(actions) if "play" in a) + 1
    actions[k - 1]["play"] = "ZZ"
    with pytest.raises(RecordError) as info:
        match_from_record(engine, record, "match.json")
    assert one_line_error(info).startswith(f"match.json: deal {n} action {k}.play: 'ZZ' is not")


def test_a_match_record_whose_layout_is_not_its_seeds_is_refused(engine: Engine) -> None:
    record = match_to_record(play_match(engine, 16, 1))
    hands = record["deals"][0]["layout"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    with pytest.raises(RecordError) as info:
        match_from_record(engine, record, "match.json")
    assert one_line_error(info) == (
        "match.json: deal 1: its layout is not what the match's seed deals"
    )


def test_a_match_record_with_a_deal_after_an_unfinished_one_is_refused(engine: Engine) -> None:
    record = match_to_record(play_match(engine, 17, 2))
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:3]
    with pytest.raises(RecordError) as info:
        match_from_record(engine, record, "match.json")
    assert one_line_error(info).startswith("match.json: deal ")


def test_replay_never_touches_the_file(engine: Engine, tmp_path: Path) -> None:
    record = good(engine)
    record["actions"][9]["play"] = "JC"
    path = save_json(tmp_path / "bad.json", record)
    before = path.read_bytes()
    with pytest.raises(RecordError):
        deal_from_record(engine, load_json(path), str(path))
    with pytest.raises(RecordError):
        list(trace(load_json(path), engine, str(path)))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_every_single_field_made_junk_gives_a_record_error_or_a_valid_deal(
    engine: Engine,
) -> None:
    """Replace each field of a real record, one at a time, by junk of every JSON type:
    only RecordError may come out (or a deal, when the junk happens to be valid)."""
    _, deal = random_deal(engine, 23)
    record = json.loads(json.dumps(deal_to_record(deal)))
    junk: list[object] = [None, 5, -1, 2.5, True, "x", "JH", [], {}, [1], {"a": 1}, ["JH"]]

    def paths(value: object, path: tuple[object, ...] = ()):
        yield path
        if isinstance(value, dict):
            for key, item in value.items():
                yield from paths(item, (*path, key))
        elif isinstance(value, list):
            for i, item in enumerate(value[:3]):
                yield from paths(item, (*path, i))

    tried = 0
    for path in [p for p in paths(record) if p]:
        for value in junk:
            bad = copy.deepcopy(record)
            target: Any = bad
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
            try:
                deal_from_record(engine, bad, "junk.json")
            except RecordError as exc:
                assert str(exc).startswith("junk.json: ") and "\n" not in str(exc)
            tried += 1
    assert tried > 500


def test_trace_gives_each_step_the_tricks_and_the_final_score(engine: Engine) -> None:
    record = good(engine)
    steps = list(trace(record, engine, "deal.json"))
    plays = [s for s in steps if "step" in s]
    tricks = [s for s in steps if "trick" in s]
    assert len(plays) == 32 and len(tricks) == 8
    leader_hand = sorted(parse_card(t) for t in record["layout"]["hands"][0])
    assert plays[0] == {
        "step": 1,
        "seat": 0,
        "phase": "play",
        "legal": [card_str(c) for c in leader_hand],
        "action": "JH",
    }
    assert tricks[0] == {"trick": 1, "cards": ["JH", "7H", "8H", "10H"], "winner": 0, "points": 30}
    assert tricks[-1]["points"] == 19 + 10
    assert steps[-1]["end"] is True and steps[-1]["score"] == [132, 30]


# --- who played: the match record's players ------------------------------------------

PEOPLE = [
    {"kind": "person", "name": "Anna", "bot": ""},
    {"kind": "person", "name": "Ben", "bot": ""},
]


def test_a_session_record_names_both_people_and_reads_back(engine: Engine) -> None:
    session = Session(
        engine, "decouverte", players=seats_of(["person", "person"], "", ["Anna", "Ben"]), seed=3
    )
    session.next_deal()
    seat = session.to_act
    assert seat is not None
    session.act(seat, session.view(seat).legal_actions()[0])
    record = json.loads(json.dumps(session.record()))
    assert record["players"] == PEOPLE
    assert record_players(record, "r.json", 2) == PEOPLE
    assert match_from_record(engine, record).deals[0].actions == session.match.deals[0].actions


def test_a_record_without_players_still_reads(engine: Engine) -> None:
    match = Match(engine, "decouverte", seed=4)
    record = match_to_record(match)
    assert "players" not in record
    assert record_players(record, "r.json", 2) is None
    match_from_record(engine, record)


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        ("Anna", "players: expected a list of 2 players"),
        ([PEOPLE[0]], "players: expected a list of 2 players"),
        ([PEOPLE[0], "Ben"], "players[1]: a player is an object"),
        (
            [PEOPLE[0], {"kind": "ghost", "name": "Ben"}],
            "players[1].kind: one of person, bot, remote",
        ),
        ([PEOPLE[0], {"kind": "person", "name": 7}], "players[1].name: a text of at most 100"),
        (
            [PEOPLE[0], {"kind": "person", "name": "B" * 101}],
            "players[1].name: a text of at most 100",
        ),
        ([PEOPLE[0], {"kind": "bot", "name": "Ben"}], "players[1].bot: a bot seat names its bot"),
    ],
)
def test_a_bad_players_field_is_one_line_naming_it(
    engine: Engine, players: Any, expected: str
) -> None:
    record = match_to_record(Match(engine, "decouverte", seed=4)) | {"players": players}
    with pytest.raises(RecordError) as excinfo:
        match_from_record(engine, record, "m.json")
    assert one_line_error(excinfo).startswith(f"m.json: {expected}")
