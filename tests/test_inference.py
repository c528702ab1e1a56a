"""Policy-based inference (``plugins/bots/inference.py``): the four-player expert weighs
each sampled layout by how likely a cheap model of each seat's play makes every card the
other seats played, never by looking at a hidden card."""

from __future__ import annotations

import random

import pytest
from atout.core import Engine
from atout.core.cards import cards_of
from atout.core.engine import Deal
from atout.core.records import deal_from_record
from atout.core.views import View
from atout.plugins.bots.basic import card_tables
from atout.plugins.bots.belote_expert import BeloteExpert
from atout.plugins.bots.belote_expert import sample_hands
from atout.plugins.bots.inference import EPSILON
from atout.plugins.bots.inference import PlayModel
from atout.plugins.bots.inference import WorldWeights
from atout.plugins.bots.inference import past_plays
from atout.plugins.bots.mixed import bot_settings
from atout.plugins.bots.mixed import make_bot
from helpers import card
from helpers import cards
from helpers import first_trick_record
from helpers import shipped_engine

HANDS = [
    "10S QS KS AD KD 9C 7H 8H",
    "7S JD 10D 8D 7C 9H JH AH",
    "8S 9D 7D QD 8C 10C QC AC",
    "9S JS AS JC KC 10H QH KH",
]
"""West (1) takes hearts; South (0) leads the ten of spades, West and North follow low,
and East (3), last to play, throws the 9 of spades on the opponents' ten though it
holds the ace: a sure rich trick let go."""
FIRST_TRICK = ("10S", "7S", "8S", "9S")


@pytest.fixture(scope="module")
def eng() -> Engine:
    return shipped_engine()


def after_first_trick(eng: Engine, hands: list[str] = HANDS) -> Deal:
    record = first_trick_record([cards(h) for h in hands], "H", taker=1, dealer=3, rules={})
    deal = deal_from_record(eng, record, "inference")
    for text in FIRST_TRICK:
        deal.play(card(text))
    return deal


def layout(view: View, north: str, east: str) -> list[int]:
    """A layout of South's view: West's true cards, North's and East's as given."""
    return [view.hand, cards("JD 10D 8D 7C 9H JH AH"), cards(north), cards(east)]


def test_the_hidden_seats_plays_are_read_in_their_positions(eng: Engine) -> None:
    view = after_first_trick(eng).view(0)
    plays = past_plays(view, card_tables(view, eng))
    assert [(p.seat, p.index, p.last) for p in plays] == [
        (1, 1, False),
        (2, 2, False),
        (3, 3, True),
    ]
    east = plays[2]
    assert east.points == 10 and not east.ours and east.win == card("10S")
    assert east.later == cards("9S")


def test_a_seat_that_let_a_sure_rich_trick_go_makes_the_layout_unlikely(eng: Engine) -> None:
    """The layout that gives East the ace of spades (it ducked, playing last on a ten)
    weighs far less than the one that gives that ace to North, who followed with the 8
    on its partner's ten (a natural card whatever it held)."""
    view = after_first_trick(eng).view(0)
    tables = card_tables(view, eng)
    model = PlayModel(view, tables)
    ducked = layout(view, "9D 7D QD 8C 10C QC AC", "JS AS JC KC 10H QH KH")
    natural = layout(view, "9D 7D QD AS 10C QC AC", "JS 8C JC KC 10H QH KH")
    east = past_plays(view, tables)[2]
    assert model.likelihood(east, ducked[3] | east.later) < 0.1
    assert model.likelihood(east, natural[3] | east.later) > 0.5
    assert model.weight(natural) > 2 * model.weight(ducked)
    weights = WorldWeights(view, tables, signals=False, policy=True)
    assert weights.weight(natural) == pytest.approx(model.weight(natural))


def test_no_layout_the_view_allows_weighs_zero(eng: Engine) -> None:
    """Every play keeps at least the epsilon floor: over sampled layouts later in the
    deal, each weight is at least (EPSILON / 8) per play read."""
    deal = after_first_trick(eng)
    for _ in range(6):  # two more tricks and two cards, each seat's lowest legal card
        deal.play(cards_of(deal.legal_cards())[0])
    view = deal.view(0)
    tables = card_tables(view, eng)
    weights = WorldWeights(view, tables, signals=True, policy=True)
    assert weights.plays == 7
    floor = (EPSILON / 8) ** weights.plays
    rng = random.Random(2)
    for _ in range(200):
        w = weights.weight(sample_hands(view, rng, engine=eng))
        assert w >= floor
        assert w <= 1.0


def test_the_weighted_layouts_give_east_the_ace_less_often(eng: Engine) -> None:
    """Among layouts sampled for South, the weighted share of those that give East the
    ace of spades is well below its unweighted share."""
    view = after_first_trick(eng).view(0)
    weights = WorldWeights(view, card_tables(view, eng), signals=False, policy=True)
    rng = random.Random(5)
    ace = card("AS")
    count = total = held = weighted = 0.0
    for _ in range(300):
        hands = sample_hands(view, rng, engine=eng)
        w = weights.weight(hands)
        holds = hands[3] >> ace & 1
        count += 1
        total += w
        held += holds
        weighted += w * holds
    assert held / count > 0.1
    assert weighted / total < 0.7 * (held / count)


def test_the_experts_decision_is_the_same_whatever_the_hidden_cards(eng: Engine) -> None:
    """Two deals that differ only in North's and East's unplayed cards show South the
    same view; the expert (same seed, inference on) plays the same card with the same
    values in both."""
    swapped = list(HANDS)
    swapped[2] = "8S 9D 7D QD AS 10C QC AC"
    swapped[3] = "9S JS 8C JC KC 10H QH KH"
    decisions = []
    for hands in (HANDS, swapped):
        view = after_first_trick(eng, hands).view(0)
        expert = BeloteExpert(engine=eng, samples=8, seed=3, infer=True)
        assert expert.infer
        decisions.append((view, expert.play(view), expert.last_info["values"]))
    assert decisions[0][0] == decisions[1][0]
    assert decisions[0][1:] == decisions[1][1:]


def test_the_expert_weighs_its_layouts_by_the_play_only_with_infer(eng: Engine) -> None:
    view = after_first_trick(eng).view(0)
    reading = BeloteExpert(engine=eng, samples=12, seed=3, signals=False, infer=True)
    reading.play(view)
    assert reading.last_info["inferred_plays"] == 3
    assert reading.last_info["effective_samples"] < 12
    assert reading.last_info["weighing_seconds"] > 0
    blind = BeloteExpert(engine=eng, samples=12, seed=3, signals=False, infer=False)
    blind.play(view)
    assert blind.last_info["inferred_plays"] == 0
    assert blind.last_info["effective_samples"] == pytest.approx(12)


def test_a_decision_with_fixed_samples_is_reproducible(eng: Engine) -> None:
    view = after_first_trick(eng).view(0)
    runs = []
    for _ in range(2):
        expert = BeloteExpert(engine=eng, samples=10, seed=7, infer=True)
        runs.append((expert.play(view), expert.last_info["values"]))
        assert expert.last_info["effective_samples"] < 10
    assert runs[0] == runs[1]


def test_the_setting_parses_from_a_bot_spec(eng: Engine) -> None:
    rules = eng.make_rules("belote", {})
    assert bot_settings("expert:infer=off") == ("expert", {"infer": False})
    off = make_bot(eng, "expert:infer=off", "belote", rules)
    assert isinstance(off, BeloteExpert) and not off.infer
    on = make_bot(eng, "expert:infer=on", "belote", rules)
    assert isinstance(on, BeloteExpert) and on.infer
    # off by default (it measured no difference), in every four-player game
    default = make_bot(eng, "expert", "belote", rules)
    assert isinstance(default, BeloteExpert) and not default.infer
    coinche = make_bot(eng, "expert", "coinche", eng.make_rules("coinche", {}))
    assert isinstance(coinche, BeloteExpert) and not coinche.infer
