"""The bots at La Coinche: the greedy bot bids a value from its count and doubles an
unlikely contract; the experts play under every contract by the game's own scoring
(its value and level), through the searches that serve Belote and Découverte."""

from __future__ import annotations

import pytest
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core.cards import FULL_DECK
from helpers import cards

GAME = "coinche"


def auction(engine: Engine, south: str, bids: tuple[str, ...] = ()) -> Deal:
    """A four-player deal in its auction, South (seat 0) holding ``south``, the others
    the rest; West (seat 3) deals, so South speaks first; ``bids`` made already."""
    mine = cards(south)
    rest = [c for c in range(32) if not mine >> c & 1]
    hands = (mine, *(sum(1 << c for c in rest[i * 8 : i * 8 + 8]) for i in range(3)))
    state = DealState(GAME, engine.make_rules(GAME, {}), 4, 2, 3, Layout(hands=hands))
    deal = engine.deal_from_state(state)
    for bid in bids:
        deal.bid(bid)
    return deal


def choice(engine: Engine, deal: Deal, bot: str = "greedy") -> str:
    action = engine.bot(bot, GAME, deal.state.rules).choose(deal.view(deal.turn))
    return str(action.value)


def test_the_greedy_bot_bids_a_value_from_its_count(engine: Engine) -> None:
    strong = auction(engine, "JH 9H AH 10H KH AS AC AD")
    bid = choice(engine, strong)
    assert bid.endswith(" H") and int(bid.split()[0]) >= 120
    weak = auction(engine, "7H 8S 7C 8C 9D 7D QS 8D")
    assert choice(engine, weak) == "pass"


def test_the_greedy_bot_bids_only_above_the_last_bid(engine: Engine) -> None:
    deal = auction(engine, "JH 9H AH 10H 7H AS 7C 8D", ("pass", "pass", "pass"))
    assert deal.turn == 3
    deal.bid("150 C")  # West, over South's head: South speaks again
    assert choice(engine, deal) in ("pass", "contre")


def test_the_greedy_bot_doubles_an_unlikely_contract(engine: Engine) -> None:
    # East (seat 1) bids 160 spades; South, next to speak after West passed... South
    # speaks first, so: South passes, East bids, North passes, West passes, South again.
    deal = auction(engine, "JS 9S AS 10S AH AC 7D 8D", ("pass", "160 S", "pass", "pass"))
    assert deal.turn == 0
    assert choice(engine, deal) == "contre"
    calm = auction(engine, "7S 8H 7H AH 7C 8C 7D 8D", ("pass", "160 S", "pass", "pass"))
    assert choice(engine, calm) == "pass"


@pytest.mark.parametrize("bid", ["90 C", "90 sans-atout", "90 tout-atout"])
def test_the_decouverte_expert_plays_decouverte_coinche_by_its_scoring(
    engine: Engine, bid: str
) -> None:
    game = "coinche-decouverte"
    rules = engine.make_rules(game, {"sans_tout_atout": "both"})
    deal = Match(engine, game, rules, seed=3).next_deal()
    deal.bid(bid)
    deal.bid("contre")
    bots = [engine.bot("expert", game, rules, seed=s, think=0.02) for s in (0, 1)]
    while not deal.is_over:
        bot = bots[deal.turn]
        action = bot.choose(deal.view(deal.turn))
        assert not bot.last_info.get("fallback"), bot.last_info
        deal.apply(action)
    assert deal.state.played == FULL_DECK and deal.score is not None


def test_the_expert_bids_and_plays_a_four_player_coinche_deal(engine: Engine) -> None:
    rules = engine.make_rules(GAME, {"sans_tout_atout": "both"})
    match = Match(engine, GAME, rules, seed=5)
    bots = [engine.bot("expert", GAME, rules, seed=s, think=0.02) for s in range(4)]
    played = 0
    while played < 1:
        deal = match.next_deal()
        while not deal.is_over:
            deal.apply(bots[deal.turn].choose(deal.view(deal.turn, tuple(match.scores))))
        match.end_deal(deal)
        played += deal.score is not None
    assert deal.state.played == FULL_DECK


def test_the_review_values_a_doubled_coinche_deal_by_the_games_scoring(engine: Engine) -> None:
    from atout.core.cards import card_str
    from atout.core.cards import cards_of
    from atout.plugins.review import ReviewOptions
    from atout.plugins.review import review_record

    rules = engine.make_rules(GAME, {"declarations": "none"})
    deal = Match(engine, GAME, rules, seed=2).next_deal()
    for bid in ("100 H", "contre", "pass", "pass", "pass"):
        deal.bid(bid)
    greedy = [engine.bot("greedy", GAME, rules, seed=s) for s in range(4)]
    while len(deal.state.tricks) < 5:
        deal.apply(greedy[deal.turn].choose(deal.view(deal.turn)))
    # The last three tricks as a hand-written position under the contré 100.
    s_ = deal.state
    contract = s_.contract
    assert contract is not None and (contract.value, contract.level) == (100, 2)
    record = {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "rules": rules.to_dict(),
        "dealer": s_.dealer,
        "layout": {"hands": [[card_str(c) for c in cards_of(h)] for h in s_.hands]},
        "start": {
            "contract": {"taker": contract.taker, "trump": "H", "value": 100, "level": 2},
            "leader": s_.tricks[0].leader,
            "tricks": [
                {"leader": t.leader, "cards": [card_str(c) for c in t.cards]} for t in s_.tricks
            ],
        },
        "actions": [],
    }
    while not deal.is_over:
        deal.apply(greedy[deal.turn].choose(deal.view(deal.turn)))
    played = [(seat, a.value) for seat, a in deal.actions if a.kind == "play"][-12:]
    record["actions"] = [{"seat": seat, "play": card_str(c)} for seat, c in played]
    review = review_record(engine, record, options=ReviewOptions(samples=2), seats=[contract.taker])
    values = {v.dd for d in review.decisions() for v in d.legal if v.dd is not None}
    assert deal.score is not None and review.summary().score == deal.score.score
    # every end of a contré 100 swings (160 + 100) x 2 = 520 points: the double-dummy
    # values are the game's scores of the contract at its level, nothing in between
    assert values and values <= {520.0, -520.0}
