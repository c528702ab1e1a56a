"""Perft for four-player Belote: the number of legal play sequences from fixed positions.

As python-chess counts move sequences to check its move generator, these counts are a
regression net for the play rules: any change in what is legal changes a count.  Each
position is a deal record with a ``start`` (hands, contract, leader, tricks already
played) in ``tests/data/perft_belote/``, beside ``perft``: the count of sequences of
1, 2, 3 ... cards.  ``python tests/test_belote_perft.py`` rewrites the counts (after a
deliberate rule change, and only then).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core import Match
from atout.core import card_str
from atout.core import cards_of
from atout.core.records import deal_from_record
from helpers import perft
from helpers import reference_perft
from helpers import shipped_engine


@pytest.fixture(scope="module")
def engine() -> Engine:
    """atout's own plugins only (see ``helpers.shipped_engine``)."""
    return shipped_engine()


DATA = Path(__file__).parent / "data" / "perft_belote"
FILES = sorted(DATA.glob("*.json"))
DEFAULT_RULES_FILES = [
    p for p in FILES if not json.loads(p.read_text(encoding="utf-8"))["record"]["rules"]
]
"""The positions under the default options, which the reference rules read."""


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def counts(engine: Engine, record: dict[str, Any], depth: int) -> list[int]:
    deal = deal_from_record(engine, record, "perft position")
    return [perft(engine, deal, d) for d in range(1, depth + 1)]


def test_there_are_perft_positions() -> None:
    assert len(FILES) >= 4 and len(DEFAULT_RULES_FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft_counts_match_the_stored_counts(engine: Engine, path: Path) -> None:
    data = load(path)
    assert counts(engine, data["record"], len(data["perft"])) == data["perft"]


@pytest.mark.parametrize("path", DEFAULT_RULES_FILES, ids=[p.stem for p in DEFAULT_RULES_FILES])
def test_perft_counts_agree_with_an_independent_reading_of_the_rules(
    engine: Engine, path: Path
) -> None:
    data = load(path)
    deal = deal_from_record(engine, data["record"])
    s = deal.state
    assert s.contract is not None and not s.trick
    hands = [list(cards_of(h)) for h in s.hands]
    expected = [
        reference_perft(hands, s.leader, s.contract.trump, d)
        for d in range(1, len(data["perft"]) + 1)
    ]
    assert expected == data["perft"]


def test_perft_of_the_hand_written_last_two_tricks_is_counted_by_hand(engine: Engine) -> None:
    """Hearts are trump; seat 0 leads with AS 7S; seat 1 holds KS 8H, seat 2 9S 7C,
    seat 3 (seat 1's partner) 7H 8C.

    * Seat 0 leads AS: seats 1 and 2 must follow (KS, 9S); seat 3, void in spades with
      an opponent winning, must trump (7H) and wins; the last trick is forced: 1 way.
    * Seat 0 leads 7S: seats 1 and 2 must follow (KS, 9S); seat 3's partner is winning,
      so it may trump or discard (7H or 8C): 2 ways, each with a forced last trick.

    So 2 ways after 1, 2 and 3 cards, then 1 + 2 = 3 from the fourth card to the end.
    """
    data = load(DATA / "hand_written_last_two_tricks.json")
    assert counts(engine, data["record"], 8) == [2, 2, 2, 3, 3, 3, 3, 3]


def test_perft_of_a_finished_deal_is_one(engine: Engine) -> None:
    data = load(DATA / "hand_written_last_two_tricks.json")
    deal = deal_from_record(engine, data["record"])
    while not deal.is_over:
        deal.play(cards_of(deal.legal_cards())[-1])
    assert perft(engine, deal, 3) == 1


# --- regenerating the data files ---------------------------------------------------------------


def record_after(engine: Engine, seed: int, tricks: int, rules: dict[str, Any]) -> dict[str, Any]:
    """A set-up record of the first played deal of match ``seed`` (random bids and cards)
    after ``tricks`` tricks."""
    match = Match(engine, "belote", engine.make_rules("belote", rules), seed=seed)
    rng = random.Random(seed)
    while True:
        deal = match.next_deal()
        while deal.phase == "bidding":
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase == "play":
            break
        match.end_deal(deal)
    while len(deal.state.tricks) < tricks:
        deal.apply(rng.choice(deal.legal_actions()))
    s = deal.state
    assert s.contract is not None and s.contract.trump is not None
    return {
        "format": "atout-deal",
        "version": 1,
        "game": "belote",
        "rules": rules,
        "dealer": s.dealer,
        "layout": {"hands": [[card_str(c) for c in cards_of(h)] for h in s.hands]},
        "start": {
            "contract": {"taker": s.contract.taker, "trump": "CDHS"[s.contract.trump]},
            "leader": s.tricks[0].leader if s.tricks else s.leader,
            "tricks": [
                {"leader": t.leader, "cards": [card_str(c) for c in t.cards]} for t in s.tricks
            ],
        },
        "actions": [],
    }


HAND_WRITTEN = {
    "format": "atout-deal",
    "version": 1,
    "game": "belote",
    "rules": {},
    "dealer": 3,
    "layout": {"hands": [["AS", "7S"], ["KS", "8H"], ["9S", "7C"], ["7H", "8C"]]},
    "start": {
        "contract": {"taker": 0, "trump": "H"},
        "leader": 0,
        "tricks": [
            ["JH", "9H", "AH", "10H"],
            ["KH", "QH", "8S", "10S"],
            ["AC", "9C", "10C", "JC"],
            ["KC", "QC", "8D", "9D"],
            ["AD", "7D", "10D", "JD"],
            ["KD", "QD", "JS", "QS"],
        ],
    },
    "actions": [],
}

POSITIONS: list[tuple[str, str, dict[str, Any] | None, int, int, dict[str, Any]]] = [
    # name, description, hand-written record, seed, tricks already played, rules
    (
        "hand_written_last_two_tricks",
        "The last two tricks of a hand-written deal; counted by hand in the test.",
        HAND_WRITTEN,
        0,
        0,
        {},
    ),
    ("seed_5_last_three_tricks", "Match seed 5, after five tricks.", None, 5, 5, {}),
    ("seed_4_last_four_tricks", "Match seed 4, after four tricks.", None, 4, 4, {}),
    ("seed_23_first_trick", "Match seed 23: a full deal, its first trick.", None, 23, 0, {}),
    (
        "seed_31_first_trick_always_undertrump",
        "Match seed 31 with 'on est toujours obligé de pisser', clockwise: first trick.",
        None,
        31,
        0,
        {"undertrump": "always", "direction": "clockwise"},
    ),
]

DEPTHS = {0: 5, 4: 8, 5: 12}


def regenerate() -> None:
    """Recompute every position's counts and rewrite the data files."""
    engine = Engine()
    DATA.mkdir(parents=True, exist_ok=True)
    for name, description, written, seed, tricks, rules in POSITIONS:
        record = written if written is not None else record_after(engine, seed, tricks, rules)
        depth = 8 if written is not None else DEPTHS[tricks]
        data = {
            "name": name,
            "description": description,
            "record": record,
            "perft": counts(engine, record, depth),
        }
        path = DATA / f"{name}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{path}: {data['perft']}")


if __name__ == "__main__":
    regenerate()
