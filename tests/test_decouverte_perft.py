"""Perft for Découverte: how many legal play sequences of each length a position has.

As python-chess checks its move generator, these counts are a regression net for the
play obligations (judged on face-up cards only) and for the turning of face-down cards,
which changes what can be played after each trick.  The positions and their counts are
in ``tests/data/perft_decouverte/*.json``: each holds a hand-written deal record (the
piles as they lie, the tricks already played, the contract and who leads) and the count
for each depth from 1.  The counts were generated once from this code; the small
end-game position below is also counted by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from atout.core import Deal
from atout.core import Engine
from atout.core import card_str
from atout.core import cards_of
from atout.core import parse_suit
from atout.core.records import deal_from_record
from atout.plugins.tables import beats_table

GAME = "decouverte"
DATA = Path(__file__).parent / "data" / "perft_decouverte"
FILES = sorted(DATA.glob("*.json"))


def branch(engine: Engine, deal: Deal) -> Deal:
    """An independent copy of ``deal`` in its play."""
    state = deal.state.copy()
    state.extra["declarations"] = False
    return engine.deal_from_state(state)


def perft(engine: Engine, deal: Deal, depth: int) -> int:
    """The number of legal sequences of ``depth`` cards from ``deal`` (a sequence that
    ends the deal sooner counts once)."""
    if depth == 0 or deal.is_over:
        return 1
    legal = cards_of(deal.legal_cards())
    if depth == 1:
        return len(legal)
    total = 0
    for c in legal:
        child = branch(engine, deal)
        child.play(c)
        total += perft(engine, child, depth - 1)
    return total


def record_of_position(deal: Deal) -> dict[str, Any]:
    """A hand-written-style record of a deal standing at the start of a trick: each pile
    as it lies now (``up``/``down``, a lone turned card as ``up``, an empty place as
    ``{}``), the tricks already played with their leaders, the contract and the leader."""
    s = deal.state
    assert not s.trick and s.contract is not None
    piles = []
    for row in s.layout.piles:
        out = []
        for up, down in row:
            if up is not None and not s.played >> up & 1:
                pile = {"up": card_str(up)}
                if down is not None:
                    pile["down"] = card_str(down)
                out.append(pile)
            elif down is not None and not s.played >> down & 1:
                out.append({"up": card_str(down)})
            else:
                out.append({})
        piles.append(out)
    return {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "rules": {},
        "dealer": s.dealer,
        "layout": {"hands": [[], []], "piles": piles, "open_hands": True},
        "start": {
            "contract": {"taker": s.contract.taker, "trump": s.contract.name},
            "leader": s.leader,
            "tricks": [
                {"leader": t.leader, "cards": [card_str(c) for c in t.cards]} for t in s.tricks
            ],
        },
        "actions": [],
    }


def load(path: Path) -> tuple[dict[str, Any], list[int]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["record"], data["perft"]


def test_there_are_perft_positions() -> None:
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_perft_counts_match_the_stored_counts(engine: Engine, path: Path) -> None:
    record, counts = load(path)
    deal = deal_from_record(engine, record, path.name)
    assert [perft(engine, deal, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("path", FILES[:2], ids=lambda p: p.stem)
def test_reveal_on_lead_changes_what_is_known_not_what_can_be_played(
    engine: Engine, path: Path
) -> None:
    """With two players the leader does not play again before the trick ends, when his
    card is turned anyway: the counts are the same."""
    record, counts = load(path)
    record = {**record, "rules": {"reveal_on_lead": True}}
    deal = deal_from_record(engine, record, path.name)
    assert [perft(engine, deal, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_stored_record_is_the_position_it_describes(engine: Engine, path: Path) -> None:
    """Rewriting the set-up deal as a record gives back the stored record."""
    record, _ = load(path)
    deal = deal_from_record(engine, record, path.name)
    assert record_of_position(deal)["layout"] == record["layout"]
    assert len(deal.state.tricks) == len(record["start"]["tricks"])


ENDGAME = {
    "format": "atout-deal",
    "version": 1,
    "game": GAME,
    "rules": {},
    "dealer": 1,
    "layout": {
        "hands": [[], []],
        "piles": [
            [{"up": "AH", "down": "7S"}, {"up": "8C"}],
            [{"up": "KC", "down": "9S"}, {"up": "10D"}],
        ],
    },
    "start": {"contract": {"taker": 0, "trump": "S"}, "leader": 0, "tricks": []},
    "actions": [],
}


def test_an_end_game_counted_by_hand(engine: Engine) -> None:
    """Trump spades, South to lead; South: AH over the face-down 7S, and a lone 8C;
    North: KC over the face-down 9S, and a lone 10D.

    * depth 1: South leads AH or 8C: 2.
    * depth 2: on AH North, without face-up hearts or trumps, plays KC or 10D (his 9S is
      face down: it neither forces him to trump nor can be played); on 8C he must follow
      with KC: 3.
    * depth 3: after AH KC South wins, 7S and 9S are turned, South leads 8C or 7S; after
      AH 10D South wins, 7S is turned, South leads 8C or 7S; after 8C KC North wins, 9S
      is turned, North leads 10D or 9S: 6.
    * depth 4: every one of those leads has one answer (North must trump 8C with 9S and
      beat 7S with 9S; with only KC face up he plays it; South's only face-up card is AH
      after 8C KC): 6.
    """
    record = json.loads(json.dumps(ENDGAME))
    rest = sorted(c for c in range(32) if card_str(c) not in {"AH", "7S", "8C", "KC", "9S", "10D"})
    # 13 tricks of the other cards, each led and won by South: the stronger card first.
    beats = beats_table(parse_suit("S"))
    tricks = []
    for a, b in zip(rest[::2], rest[1::2], strict=True):
        first, second = (b, a) if beats[a] >> b & 1 else (a, b)
        tricks.append({"leader": 0, "cards": [card_str(first), card_str(second)]})
    record["start"]["tricks"] = tricks
    deal = deal_from_record(engine, record, "end game")
    assert deal.turn == 0
    assert [perft(engine, deal, d) for d in range(1, 7)] == [2, 3, 6, 6, 6, 6]
