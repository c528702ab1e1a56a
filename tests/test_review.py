"""The review of a deal (``atout review``): its values are the exact values where it says
so (checked against brute force on endgames of both games), a planted blunder is found
with its exact loss, an expert's own deal shows losses near zero, and no value a seat is
shown depends on a card that seat could not see."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from atout.core import Action
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import cards_of
from atout.core.cards import SUITS
from atout.core.cards import card_str
from atout.core.cards import parse_card
from atout.core.errors import RecordError
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.views import View
from atout.plugins.bots.basic import team_of
from atout.plugins.bots.belote_expert import deal_utility
from atout.plugins.bots.belote_expert import declaration_points
from atout.plugins.bots.decouverte_expert import position_from_view
from atout.plugins.review import DealReview
from atout.plugins.review import Decision
from atout.plugins.review import ReviewCancelled
from atout.plugins.review import ReviewOptions
from atout.plugins.review import paired_loss
from atout.plugins.review import review_record
from atout.plugins.search.belote_dd import BeloteDD
from atout.plugins.search.decouverte import Position
from atout.plugins.search.decouverte import legal_cards
from atout.plugins.search.decouverte import score_utility
from atout.plugins.search.decouverte import successors
from atout.plugins.search.decouverte import to_move
from atout.plugins.search.rules import DealPoints
from atout.plugins.search.stats import interval
from atout.plugins.search.stats import t95
from atout.ui.cli import main
from atout.ui.commands import review as review_command
from helpers import PlayMinimax
from helpers import first_played_deal_record
from helpers import shipped_engine

DATA = Path(__file__).parent / "data" / "review"
FAST = ReviewOptions(samples=6, exact_budget=0.0)
"""Reproducible: six samples a decision, exact searches without a time limit (the tests
that use it keep the exact searches small)."""


# --- building records ---------------------------------------------------------------------


def played_deal(engine: Engine, game: str, seed: int) -> Deal:
    """The first deal of a seeded match, the first bidder taking."""
    match = Match(engine, game, engine.default_rules(game), seed=seed)
    deal = match.next_deal()
    deal.apply(Action.bid("take"))
    return deal


def start_record(deal: Deal) -> dict[str, Any]:
    """A hand-written record of the position ``deal`` stands in (between two tricks, in
    the play): its piles or hands as they lie, the tricks played, no action."""
    s = deal.state
    assert s.contract is not None and not s.trick
    trump = s.contract.trump
    start = {
        "contract": {
            "taker": s.contract.taker,
            "trump": SUITS[trump] if trump is not None else None,
        },
        "leader": s.leader,
        "tricks": [{"leader": t.leader, "cards": [card_str(c) for c in t.cards]} for t in s.tricks],
        "declarations": False,
    }
    layout: dict[str, Any]
    if s.game == "decouverte":
        piles = []
        for seat in range(2):
            row: list[dict[str, str]] = []
            for c in cards_of(s.hands[seat]):
                pile = {"up": card_str(c)}
                if c in s.under:
                    pile["down"] = card_str(s.under[c])
                row.append(pile)
            piles.append(row + [{}] * (8 - len(row)))
        layout = {"hands": [[], []], "piles": piles, "open_hands": True}
    else:
        layout = {"hands": [[card_str(c) for c in cards_of(h)] for h in s.hands]}
    return {
        "format": "atout-deal",
        "version": 1,
        "game": s.game,
        "rules": {},
        "dealer": s.dealer,
        "layout": layout,
        "start": start,
        "actions": [],
    }


def endgame(engine: Engine, game: str, seed: int, tricks_left: int) -> dict[str, Any]:
    """A record of a position with ``tricks_left`` tricks to play, reached from a seeded
    deal by random legal cards."""
    rng = random.Random(seed)
    deal = played_deal(engine, game, seed)
    per_deal = deal.state.tricks_per_deal
    while len(deal.state.tricks) < per_deal - tricks_left or deal.state.trick:
        deal.play(rng.choice(cards_of(deal.legal_cards())))
    return start_record(deal)


def play_on(
    engine: Engine, record: dict[str, Any], choose: Callable[[Deal], int]
) -> dict[str, Any]:
    """``record`` played to its end, each card chosen by ``choose``."""
    deal = deal_from_record(engine, record)
    while not deal.is_over:
        deal.play(choose(deal))
    return deal_to_record(deal)


def views(engine: Engine, record: dict[str, Any]) -> list[tuple[View, Action]]:
    """The view of the seat to act before each action of ``record``, with the action."""
    full = deal_from_record(engine, record)
    deal = deal_from_record(engine, {**record, "actions": []})
    out = []
    for seat, action in full.actions:
        out.append((deal.view(seat), action))
        deal.apply(action)
    return out


def seat_views(engine: Engine, record: dict[str, Any], seat: int) -> list[View]:
    """What ``seat`` sees after each action of ``record`` (and before the first)."""
    full = deal_from_record(engine, record)
    deal = deal_from_record(engine, {**record, "actions": []})
    out = [deal.view(seat)]
    for _, action in full.actions:
        deal.apply(action)
        out.append(deal.view(seat))
    return out


def values(d: Decision) -> dict[str, float]:
    return {v.action: v.value for v in d.legal if v.value is not None}


# --- brute force ----------------------------------------------------------------------------


def chance_brute(pos: Position, utility: Sequence[float]) -> float:
    """The taker's expected utility by plain expectiminimax over every legal card and
    every face-down card a turn may show (no pruning, no table, no merged cards)."""
    if pos.led is None and not pos.remaining:
        return utility[pos.points[pos.taker]]
    vals = [
        sum(p * chance_brute(q, utility) for p, q in successors(pos, c))
        for c in cards_of(legal_cards(pos))
    ]
    return max(vals) if to_move(pos) == pos.taker else min(vals)


def chance_move_values(pos: Position) -> dict[str, float]:
    """Each legal card's exact value for the seat to move (its score difference)."""
    utility = score_utility(pos.rules.cards.total)
    sign = 1.0 if to_move(pos) == pos.taker else -1.0
    return {
        card_str(c): sign * sum(p * chance_brute(q, utility) for p, q in successors(pos, c))
        for c in cards_of(legal_cards(pos))
    }


def minimax_of(engine: Engine, deal: Deal) -> PlayMinimax:
    """Plain minimax of ``deal``'s play over the engine's compiled rules of its contract."""
    s = deal.state
    assert s.contract is not None
    state = DealState(s.game, s.rules, 4, 2, s.dealer, Layout(hands=(0, 0, 0, 0)))
    state.contract = s.contract
    state.phase = "play"
    return PlayMinimax(engine.play_rules(s.game, s.rules, s.contract), state, s.direction)


def dd_brute(engine: Engine, record: dict[str, Any], step: int) -> dict[str, float]:
    """Each legal card's double-dummy value (the deciding team's score difference) before
    action ``step`` of ``record``, by plain minimax on the true hands."""
    deal = deal_from_record(engine, {**record, "actions": record["actions"][: step - 1]})
    s = deal.state
    view = deal.view(deal.turn)
    team = team_of(view, view.seat)
    mm = minimax_of(engine, deal)
    hands = list(s.hands)
    trick = list(s.trick)
    out = {}
    for c in cards_of(deal.legal_cards()):
        h2 = list(hands)
        h2[s.turn] &= ~(1 << c)
        pts = view.points[team] + mm.points(h2, s.leader, [*trick, c], team)
        out[card_str(c)] = deal_utility(view, DealPoints(pts, declaration_points(view), 162))
    return out


# --- Découverte -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_decouverte_values_are_the_exact_values_on_endgames(seed: int) -> None:
    engine = shipped_engine()
    rng = random.Random(seed)
    record = play_on(
        engine,
        endgame(engine, "decouverte", seed, 4),
        lambda d: rng.choice(cards_of(d.legal_cards())),
    )
    review = review_record(engine, record, options=FAST)
    decisions = list(review.decisions())
    checked = 0
    for d, (view, _) in zip(decisions, views(engine, record), strict=True):
        assert d.method in ("exact", "forced")
        if d.method == "exact":
            exact = chance_move_values(position_from_view(view, engine))
            assert values(d) == pytest.approx(exact, abs=1e-6), d.to_json()
            best = max(exact.values())
            assert d.loss == pytest.approx(best - exact[d.action], abs=1e-6)
            checked += 1
    assert checked >= 3


def test_a_planted_decouverte_blunder_is_found_with_its_exact_loss() -> None:
    engine = shipped_engine()
    for seed in range(10, 30):
        start = endgame(engine, "decouverte", seed, 4)
        deal = deal_from_record(engine, start)
        exact = chance_move_values(position_from_view(deal.view(deal.turn), engine))
        if max(exact.values()) - min(exact.values()) > 5:
            break
    worst = min(exact, key=lambda c: exact[c])
    planted = {"planted": False}

    def choose(d: Deal) -> int:
        # the blunder first, then the best card by brute force
        if not planted["planted"]:
            planted["planted"] = True
            return parse_card(worst)
        vals = chance_move_values(position_from_view(d.view(d.turn), engine))
        return parse_card(max(vals, key=lambda c: vals[c]))

    record = play_on(engine, start, choose)
    review = review_record(engine, record, options=FAST)
    decisions = list(review.decisions())
    first = decisions[0]
    assert first.action == worst
    assert first.loss == pytest.approx(max(exact.values()) - exact[worst], abs=1e-6)
    assert all(d.loss == pytest.approx(0, abs=1e-6) for d in decisions[1:])
    summary = review.summary()
    assert summary.mistakes[0].step == first.step
    assert summary.lost[first.seat] == pytest.approx(first.loss)
    assert summary.lost[1 - first.seat] == pytest.approx(0, abs=1e-6)


def endgame_of(engine: Engine, record: dict[str, Any], played: int) -> dict[str, Any]:
    """The rest of a recorded deal from the end of its trick ``played``: a record of the
    position then, with the actions that followed."""
    actions = record["actions"]
    recorded = deal_from_record(engine, record).actions
    deal = deal_from_record(engine, {**record, "actions": []})
    k = 0
    while len(deal.state.tricks) < played or deal.state.trick or deal.phase != "play":
        deal.apply(recorded[k][1])
        k += 1
    return {**start_record(deal), "actions": actions[k:]}


def test_an_experts_own_deal_shows_no_loss_where_the_review_is_exact() -> None:
    """The expert solves the last tricks exactly as the review does: from the sixth
    trick before the end its losses are zero, where the greedy bot's are not."""
    engine = shipped_engine()
    opts = ReviewOptions(samples=4, exact_budget=0.0)
    for name, lost in (("decouverte_expert_12.json", False), ("decouverte_greedy_11.json", True)):
        record = endgame_of(engine, json.loads((DATA / name).read_text()), 10)
        decisions = list(review_record(engine, record, options=opts).decisions())
        assert len(decisions) == 12
        assert all(d.method in ("exact", "forced") for d in decisions)
        total = sum(d.loss for d in decisions)
        assert total > 1 if lost else total == pytest.approx(0, abs=1e-6), name


def test_two_records_differing_in_face_down_cards_give_the_same_review() -> None:
    """Two face-down cards still covered when the record stops are swapped: South's
    review (bidding and play, sampled and exact) is identical."""
    engine = shipped_engine()
    rng = random.Random(5)
    deal = played_deal(engine, "decouverte", 5)
    while len(deal.state.tricks) < 11:
        deal.play(rng.choice(cards_of(deal.legal_cards())))
    covered = [(c, d) for c, d in deal.state.under.items()]
    assert len(covered) >= 2
    (_, a), (_, b) = covered[0], covered[-1]
    record = deal_to_record(deal)
    text = json.dumps(record)
    swapped = json.loads(
        text.replace(f'"down": "{card_str(a)}"', '"down": "@"')
        .replace(f'"down": "{card_str(b)}"', f'"down": "{card_str(a)}"')
        .replace('"down": "@"', f'"down": "{card_str(b)}"')
    )
    assert swapped != record
    assert seat_views(engine, swapped, 0) == seat_views(engine, record, 0)
    opts = ReviewOptions(samples=5, exact_budget=0.0)
    one = [d.to_json() for d in review_record(engine, record, options=opts, seats=[0]).decisions()]
    two = [d.to_json() for d in review_record(engine, swapped, options=opts, seats=[0]).decisions()]
    assert any(d["method"] == "exact" for d in one)
    assert any(d["method"] == "sampled" and d["phase"] == "bidding" for d in one)
    assert one == two


# --- four-player ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_belote_double_dummy_values_are_the_exact_values_on_endgames(seed: int) -> None:
    engine = shipped_engine()
    rng = random.Random(seed)
    record = play_on(
        engine,
        endgame(engine, "belote", seed, 3),
        lambda d: rng.choice(cards_of(d.legal_cards())),
    )
    review = review_record(engine, record, options=ReviewOptions(samples=3))
    checked = 0
    for d in review.decisions():
        exact = dd_brute(engine, record, d.step)
        dd = {v.action: v.dd for v in d.legal}
        if d.method == "forced":
            assert dd == pytest.approx(exact)
            continue
        assert dd == pytest.approx(exact), d.to_json()
        assert d.dd_loss == pytest.approx(max(exact.values()) - exact[d.action])
        # the single-dummy estimate is the mean of its samples' values, inside its interval
        for v in d.legal:
            assert v.low is not None and v.high is not None and v.value is not None
            assert v.low <= v.value <= v.high
        checked += 1
    assert checked >= 2


def test_a_planted_belote_blunder_is_found_with_its_exact_double_dummy_loss() -> None:
    engine = shipped_engine()
    for seed in range(10, 40):
        start = endgame(engine, "belote", seed, 3)
        exact = dd_brute(engine, start, 1)
        if max(exact.values()) - min(exact.values()) >= 20:
            break
    worst = min(exact, key=lambda c: exact[c])
    deal = deal_from_record(engine, start)
    seat = deal.turn
    record = play_on(
        engine,
        start,
        lambda d: parse_card(worst) if not d.actions else min(cards_of(d.legal_cards())),
    )
    review = review_record(engine, record, options=ReviewOptions(samples=4), seats=[seat])
    first = next(iter(review.decisions()))
    assert first.action == worst
    assert first.dd_loss == pytest.approx(max(exact.values()) - exact[worst])


def test_belote_single_dummy_values_never_read_a_hidden_hand() -> None:
    """From a position five tricks before the end, two cards of one suit that neither of
    two hidden seats has played are swapped between them: the seat's single-dummy values
    are identical (only the double-dummy values, which read every hand by definition,
    may change)."""
    engine = shipped_engine()
    rng = random.Random(7)
    deal = deal_from_record(engine, endgame(engine, "belote", 7, 5))
    while len(deal.state.tricks) < 5:
        deal.play(rng.choice(cards_of(deal.legal_cards())))
    record = deal_to_record(deal)
    seat = deal.turn
    others = [s for s in range(4) if s != seat]
    swapped = None
    for x in others:
        for y in others:
            if x >= y:
                continue
            for a in cards_of(deal.state.hands[x]):
                for b in cards_of(deal.state.hands[y]):
                    if a >> 3 != b >> 3:
                        continue
                    layout = record["layout"]
                    hands = [list(h) for h in layout["hands"]]
                    for pile in hands:
                        for i, t in enumerate(pile):
                            if t == card_str(a):
                                pile[i] = card_str(b)
                            elif t == card_str(b):
                                pile[i] = card_str(a)
                    cand = {**record, "layout": {**layout, "hands": hands}}
                    try:
                        deal_from_record(engine, cand)
                    except RecordError:  # the swap made a recorded action illegal
                        continue
                    if seat_views(engine, cand, seat) != seat_views(engine, record, seat):
                        continue  # the swap shows (a turn-up, a declaration)
                    swapped = cand
                    break
                if swapped:
                    break
            if swapped:
                break
        if swapped:
            break
    assert swapped is not None and swapped != record

    def seen(rec: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for d in review_record(
            engine, rec, options=ReviewOptions(samples=4), seats=[seat]
        ).decisions():
            j = d.to_json()
            for v in j["legal"]:
                v.pop("dd", None)
            for k in ("dd_loss", "dd_best", "settled"):
                j.pop(k, None)
            out.append(j)
        return out

    one, two = seen(record), seen(swapped)
    assert any(d["method"] == "sampled" for d in one)
    assert one == two


# --- running it -----------------------------------------------------------------------------


def test_a_review_can_be_cancelled_between_samples() -> None:
    engine = shipped_engine()
    record = json.loads((DATA / "decouverte_expert_11.json").read_text())
    calls = {"n": 0}

    def cancel() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    review = DealReview(engine, record, ReviewOptions(samples=50), cancel=cancel)
    with pytest.raises(ReviewCancelled):
        list(review.decisions())
    assert len(review.reviewed) < 2


def test_atout_review_prints_one_json_object_per_decision_then_the_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    engine = shipped_engine()
    rng = random.Random(3)
    record = play_on(
        engine, endgame(engine, "decouverte", 3, 3), lambda d: rng.choice(cards_of(d.legal_cards()))
    )
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path), "--json", "--samples", "4"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(record["actions"]) + 1
    assert lines[-1]["summary"] is True and lines[-1]["outcome"] == record["result"]["outcome"]
    for d in lines[:-1]:
        assert {"seat", "phase", "legal", "action", "loss", "method", "samples"} <= set(d)
        assert {"raw_loss", "loss_interval", "within_noise"} <= set(d)
    assert main(["review", str(path), "--samples", "4", "--seat", "0"]) == 0
    text = capsys.readouterr().out
    assert "Trick 14" in text and "Summary" in text and "North" not in text.split("Summary")[0]


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_atout_review_is_whole_without_the_bots_plugin(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    """The review is a package of its own: with the bots plugin disabled it reviews a
    deal of either game exactly as with it (the same figures, decision by decision)."""
    engine = shipped_engine()
    rng = random.Random(5)
    record = play_on(
        engine, endgame(engine, game, 5, 2), lambda d: rng.choice(cards_of(d.legal_cards()))
    )
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    argv = ["review", str(path), "--json", "--samples", "2", "--seat", "all"]
    assert main(argv) == 0
    with_bots = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main([*argv, "--disable-plugin", "bots"]) == 0
    without = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    for line in with_bots + without:
        line.pop("seconds", None)
    assert len(with_bots) == len(record["actions"]) + 1
    assert without == with_bots


def test_atout_review_text_is_the_persons_seat_in_80_columns_unless_asked_for_all(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The text review shows the person's seat (a record naming no person: seat 0) in at
    most 80 columns, every legal card's value under each decision, the label's shape and
    the summary's line; ``--seat all`` shows every seat; ``--json`` is every seat."""
    engine = shipped_engine()
    rng = random.Random(3)
    record = play_on(
        engine, endgame(engine, "decouverte", 3, 4), lambda d: rng.choice(cards_of(d.legal_cards()))
    )
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    assert main(["review", str(path), "--samples", "4"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    body = text.split("Summary")[0]
    seat0 = engine.game("decouverte").seat_name(0)
    seat1 = engine.game("decouverte").seat_name(1)
    assert f"{seat0} played" in body and f"{seat1} played" not in body
    assert any(line.strip().startswith("▶") or "   ▶" in line for line in lines)
    assert any(g in body for g in ("● Best", "○ Within", "▽ Small", "▼ Mistake", "✖ Blunder"))
    assert "Decided at trick" in text or "Not decided" in text
    assert main(["review", str(path), "--samples", "4", "--seat", "all"]) == 0
    text = capsys.readouterr().out
    assert f"{seat1} played" in text.split("Summary")[0]
    assert max(len(line) for line in text.splitlines()) <= 80
    assert main(["review", str(path), "--samples", "4", "--seat", "east"]) == 1
    assert "--seat: give a seat's number or 'all'" in capsys.readouterr().err


def test_a_drop_while_a_face_down_card_turned_is_told_as_new_information() -> None:
    """The margin falling 10 points or more between two decisions of a seat while a
    face-down card turned is told as new information (the window and the text say it
    alike); a smaller drop, a rise, or no card turned says nothing."""
    from atout.plugins.review import Valued
    from atout.ui.review_words import turned_note

    d = Decision(1, 9, 0, "play", 4, "JD", (Valued("JD", -162.0), Valued("QC", -170.0)), "exact")
    assert turned_note(57.0, d, True).startswith("▲ Down 219: a card turned")
    assert "not a mistake" in turned_note(57.0, d, True)
    assert turned_note(57.0, d, False) == ""
    assert turned_note(-155.0, d, True) == ""  # down 7: under the threshold
    assert turned_note(-200.0, d, True) == ""  # up
    assert turned_note(None, d, True) == ""


def test_the_text_review_shows_the_seats_a_person_played() -> None:
    from atout.ui.commands.review import chosen_seats
    from atout.ui.commands.review import people

    players = [{"kind": "bot", "bot": "expert"}, {"kind": "person", "name": "Ben"}]
    assert people({"players": players}) == [1]
    assert people({}) == [0]
    assert chosen_seats(None, {"players": players}, as_json=False) == [1]
    assert chosen_seats(None, {"players": players}, as_json=True) is None
    assert chosen_seats(["all"], {}, as_json=False) is None
    assert chosen_seats(["0", "1"], {}, as_json=False) == [0, 1]


def test_atout_review_of_a_match_record_reviews_the_deal_asked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    engine = shipped_engine()
    match = Match(engine, "decouverte", engine.default_rules("decouverte"), seed=4)
    bot = engine.bot("random", "decouverte", match.rules, seed=1)
    for _ in range(2):
        deal = match.next_deal()
        while not deal.is_over:
            deal.apply(bot.choose(deal.view(deal.turn)))
        match.end_deal(deal)
    from atout.core.records import match_to_record

    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_to_record(match)))
    assert (
        main(["review", str(path), "--json", "--samples", "2", "--deal", "1", "--seat", "1"]) == 0
    )
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[-1]["deal"] == 1 and all(d["seat"] == 1 for d in lines[:-1])
    data = json.loads(path.read_text())
    review = review_record(engine, data, 1, seats=[1])
    assert review.total == len(lines) - 1 > 0
    assert main(["review", str(path), "--deal", "9"]) == 1
    assert "no deal 9" in capsys.readouterr().err


def test_review_in_the_terminal_prints_the_last_finished_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``review`` typed at the terminal's prompt prints the table of the deal just
    played (a local session), and says so when no deal is finished yet."""
    import io

    import atout.plugins.review.review as review_module
    from atout.core.session import BOT
    from atout.core.session import PERSON
    from atout.core.session import Player
    from atout.core.session import Session
    from atout.ui.terminal import TerminalGame

    monkeypatch.setattr(review_module, "DEFAULT_OPTIONS", ReviewOptions(samples=2))
    engine = shipped_engine()
    session = Session(
        engine,
        "decouverte",
        players=[Player(PERSON, "You"), Player(BOT, "", "random")],
        seed=3,
    )
    out = io.StringIO()
    game = TerminalGame(session, io.StringIO(), out)
    session.next_deal()
    assert game.read_action("review", session.view(0)) is None
    assert "No finished deal" in out.getvalue()
    rng = random.Random(1)
    while True:
        session.play_bots()
        if session.needs_deal and any(d.actions and d.is_over for d in session.match.deals):
            deal = session.match.deals[-1]
            if deal.score is not None:
                break
            session.next_deal()
            continue
        view = session.view(0)
        session.act(0, rng.choice(view.legal_actions()))
    session.next_deal()
    assert game.read_action("review", session.view(0)) is None
    text = out.getvalue()
    assert "Trick 16" in text and "You" in text and "Summary" in text


def test_the_bench_reviews_the_fixed_records(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bench reviews the records of ``tests/data/review``: found beside the package in
    the checkout, not in an installed atout (which ships no tests), so the test names the
    checkout's folder and runs against either."""
    monkeypatch.setattr(review_command, "RECORDS", DATA)
    assert main(["bench", "--only", "review", "--quick", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in (
        "review_decouverte_deal_s",
        "review_belote_deal_s",
        "review_coinche_deal_s",
        "review_coinche_decouverte_deal_s",
    ):
        assert data[key] > 0 and data[f"{key}_deals"] == 1
    for key in ("review_coinche_bid_ms", "review_coinche_decouverte_bid_ms"):
        assert data[key] > 0 and data[f"{key}_count"] > 0


def belote_bidding_record(hand: str, others: str, stock: str, bid: str) -> dict[str, Any]:
    """A four-player deal record laid out by hand: West deals, seat 0 (South, first to
    bid) holds ``hand`` and bids ``bid``."""
    cards = others.split()
    return {
        "format": "atout-deal",
        "version": 1,
        "game": "belote",
        "rules": {},
        "dealer": 3,
        "layout": {
            "hands": [hand.split(), cards[0:5], cards[5:10], cards[10:15]],
            "stock": stock.split(),
            "turnup": stock.split()[0],
        },
        "actions": [{"seat": 0, "bid": bid}],
    }


def test_a_four_player_bid_is_valued_and_passing_a_monster_hand_is_a_mistake() -> None:
    engine = shipped_engine()
    hand = "JH 9H AH 10H AS"
    stock = "KH 7C 8C 9C 10C JC QC KC AC 7D 8D 9D"
    others = "7S 8S 9S 10S JS QS KS 7H 8H QH 10D JD QD KD AD"
    record = belote_bidding_record(hand, others, stock, "pass")
    review = review_record(engine, record, options=ReviewOptions(samples=10))
    assert review.total == 1
    (d,) = list(review.decisions())
    assert d.method == "sampled" and d.samples == 10
    vals = values(d)
    assert set(vals) == {"take", "pass"}
    assert d.best == "take" and vals["take"] > 50 and d.loss > 20
    assert d.loss_interval is not None and d.loss_interval[0] < d.loss < d.loss_interval[1]
    # the values read only what seat 0 saw: the other hands and the stock reshuffled
    # (the turn-up kept) give the same review
    shuffled = others.split()[::-1]
    other = belote_bidding_record(
        hand, " ".join(shuffled), "KH " + " ".join(stock.split()[1:][::-1]), "pass"
    )
    (e,) = list(review_record(engine, other, options=ReviewOptions(samples=10)).decisions())
    assert e.to_json() == d.to_json()


# --- losses that are not noise ------------------------------------------------------------


def test_the_cross_fitted_loss_is_unbiased_where_the_best_mean_is_not() -> None:
    """Many decisions of six equally good actions, each valued on ten noisy samples:
    the best of the means beats the action taken by about 4 points on average (the bias
    of a maximum of noisy estimates), and its paired interval excludes zero some 7% of
    the time (2.5% was meant); the cross-fitted loss averages zero and is proved a loss
    about 2.5% of the time (3.5% at most over other seeds: the halves are not quite
    independent, each picks its best on the samples the other is measured on).  A real
    difference is still found."""
    rng = random.Random(11)
    naive_sum = fitted_sum = 0.0
    naive_proved = fitted_proved = 0
    trials = 2000
    for _ in range(trials):
        world = [rng.gauss(0, 30) for _ in range(10)]  # shared by the actions: paired
        vals = {a: [w + rng.gauss(0, 10) for w in world] for a in "abcdef"}
        means = {a: sum(v) / 10 for a, v in vals.items()}
        best = max(means, key=lambda a: means[a])
        naive_sum += means[best] - means["a"]
        if best != "a":
            _, low, _ = interval([x - y for x, y in zip(vals[best], vals["a"], strict=True)])
            naive_proved += low > 0
        raw, ci = paired_loss(vals, "a")
        assert ci is not None and ci[0] <= raw <= ci[1]
        fitted_sum += raw
        fitted_proved += ci[0] > 0
    assert naive_sum / trials > 3.0
    assert naive_proved / trials > 0.05
    assert abs(fitted_sum / trials) < 0.5
    assert fitted_proved / trials <= 0.035
    # a clear best is picked on both halves: its paired difference on every sample
    vals = {"a": [0.0, 1.0, 2.0, 3.0], "b": [10.0, 12.0, 11.0, 13.0]}
    raw, ci = paired_loss(vals, "a")
    assert raw == pytest.approx(10.0) and ci is not None and ci[0] > 0
    assert paired_loss(vals, "b") == (0.0, (0.0, 0.0))


def test_the_interval_is_students() -> None:
    assert t95(1) == pytest.approx(12.706)
    assert t95(9) == pytest.approx(2.262)
    assert t95(40) == pytest.approx(2.021, abs=1e-3)
    assert t95(120) == pytest.approx(1.980, abs=1e-3)
    mean, low, high = interval([1.0, 3.0])
    assert (mean, low, high) == pytest.approx((2.0, 2.0 - 12.706, 2.0 + 12.706))


WHOLE_DEAL = {
    "decouverte": ReviewOptions(samples=10, exact_budget=0.0),
    "belote": ReviewOptions(samples=14, exact_budget=0.0),
}
"""The whole-deal tests' budget per game, reproducible, a deal in one to four seconds:
ten samples a decision in Découverte; fourteen in four-player Belote, whose
single-dummy values spread wider (with ten, a random bot's deal may show no proved
loss at all)."""

NEAR_ZERO = 5.0
"""The expert's loss per side per deal, on average, that still counts as near zero at
:data:`WHOLE_DEAL`: with ten samples the standard error of a paired difference is about
5 to 8 points, so a decision whose actions are equal is reported a loss (its interval
above zero) about 2.5 to 3.5% of the time, and then by some 10 to 20 points; a side has
about ten close sampled decisions a deal: some 4 points a deal from noise at most.  A
random bot loses over 50."""


def random_deal_record(engine: Engine, game: str, seed: int) -> dict[str, Any]:
    """The first played deal (redeals skipped) of a seeded match of random bots."""
    rules = engine.default_rules(game)
    bots = [engine.bot("random", game, rules, seed=s) for s in range(4)]
    return first_played_deal_record(engine, game, bots, seed)


def reported_losses(engine: Engine, record: dict[str, Any]) -> tuple[float, ...]:
    """Each side's points lost in the review of ``record`` (every decision, bidding and
    play, at :data:`WHOLE_DEAL`), each decision's reported loss checked against the rule
    (exact, or sampled with its interval above zero; else 0)."""
    review = review_record(engine, record, options=WHOLE_DEAL[record["game"]])
    decisions = list(review.decisions())
    for d in decisions:
        if d.method == "sampled":
            assert d.raw_loss is not None and d.loss_interval is not None
            proved = d.best != d.action and d.loss_interval[0] > 0 and d.samples >= 10
            assert d.loss == (d.raw_loss if proved else 0.0), d.to_json()
            assert d.within_noise == (d.best != d.action and not proved)
    summary = review.summary()
    assert summary.lost == pytest.approx(
        [sum(d.loss for d in decisions if d.seat % 2 == side) for side in (0, 1)]
    )
    return summary.lost


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_the_experts_own_deals_lose_near_zero_a_random_bots_do_not(game: str) -> None:
    """The whole deals the expert played against itself (the fixed records of
    ``tests/data/review``, bidding included), reviewed at a small budget: the points each
    side is reported to lose average under :data:`NEAR_ZERO` a deal (before the noise
    rule, the best of the noisy means made them 13 to 29 at the default budget); the same
    review of two random bots' deals reports each side losing far more."""
    engine = shipped_engine()
    expert = [json.loads(p.read_text()) for p in sorted(DATA.glob(f"{game}_expert_*.json"))]
    assert len(expert) == 3
    lost = [x for record in expert for x in reported_losses(engine, record)]
    assert sum(lost) / len(lost) <= NEAR_ZERO, lost
    contrast = [
        x
        for seed in (1, 2)
        for x in reported_losses(engine, random_deal_record(engine, game, seed))
    ]
    assert sum(contrast) / len(contrast) > 4 * NEAR_ZERO, contrast


def test_the_play_is_valued_with_the_contract_played_not_one_met_in_the_bidding() -> None:
    """A four-player deal taken in spades in the second round; South's first bid (a
    pass) is valued on sampled deals whose contracts are solved first (South taking in
    hearts), and its later cards must be valued with the spade contract's solver: the
    double-dummy values of its last cards equal a plain minimax of the deal as played.
    A review keeping one solver per direction (the first contract met) does not."""
    engine = shipped_engine()
    record = belote_bidding_record(
        "JH 9H AH 10H AS",
        "7S 8S 9S 10S JS QS KS 7H 8H QH 10D JD QD KD AD",
        "KH 7C 8C 9C 10C JC QC KC AC 7D 8D 9D",
        "pass",
    )
    record["actions"] = [
        *({"seat": s, "bid": "pass"} for s in (0, 1, 2, 3, 0)),
        {"seat": 1, "bid": "S"},
    ]
    deal = deal_from_record(engine, record)
    assert deal.state.contract is not None and SUITS[deal.state.contract.trump or 0] == "S"
    rng = random.Random(1)
    while not deal.is_over:
        deal.play(rng.choice(cards_of(deal.legal_cards())))
    record = deal_to_record(deal)

    def last_cards(solver: Callable[[DealReview, View, Contract], BeloteDD]) -> list[bool]:
        """Whether each of South's cards in the last three tricks is valued right."""
        asked: list[Contract] = []

        def spy(review: DealReview, view: View, contract: Contract) -> BeloteDD:
            asked.append(contract)
            return solver(review, view, contract)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(DealReview, "_dd_solver", spy)
            opts = ReviewOptions(samples=2, exact_budget=0.0)
            decisions = list(review_record(engine, record, options=opts, seats=[0]).decisions())
        # the first solver asked for is another contract's: a hearts contract of South
        assert SUITS[asked[0].trump or 0] != "S"
        return [
            {v.action: v.dd for v in d.legal} == pytest.approx(dd_brute(engine, record, d.step))
            for d in decisions
            if d.phase == "play" and d.trick >= 6
        ]

    right = last_cards(DealReview._dd_solver)
    assert len(right) >= 3 and all(right)

    def per_direction(review: DealReview, view: View, contract: Contract) -> BeloteDD:
        # the bug: one solver per direction, built for the first contract asked for
        cache: dict[int, BeloteDD] = review.__dict__.setdefault("_old", {})
        if view.direction not in cache:
            cache[view.direction] = BeloteDD.for_contract(
                engine, view.game, view.rules, contract, view.direction
            )
        return cache[view.direction]

    assert not any(last_cards(per_direction))


def test_the_review_values_a_deal_by_the_scoring_of_its_own_engine() -> None:
    """A review built on an engine whose plugin scores otherwise values every decision by
    that scoring (one scoring source), not by the installed games' scoring."""
    from atout.testing import engine_with
    from test_one_scoring_source import OddScoring

    shipped = shipped_engine()
    odd = engine_with(OddScoring())
    rng = random.Random(1)  # an endgame whose taker can still make the contract
    record = play_on(
        shipped,
        endgame(shipped, "decouverte", 1, 4),
        lambda d: rng.choice(cards_of(d.legal_cards())),
    )
    by_engine = [
        [values(d) for d in review_record(engine, record, options=FAST).decisions()]
        for engine in (shipped, odd)
    ]
    assert len(by_engine[0]) == len(by_engine[1]) > 0
    assert by_engine[0] != by_engine[1]
