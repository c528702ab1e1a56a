"""The conformance kit (``atout.testing``): it passes the shipped rule sets, and each of its
checks catches the rule-set bug it is there for."""

from __future__ import annotations

import importlib.metadata
import itertools
import random
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path

import pytest
from atout.core import Announcement
from atout.core import BiddingStep
from atout.core import CardValues
from atout.core import Contract
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import MoveRule
from atout.core import Rules
from atout.core import Trick
from atout.core import hookimpl
from atout.core import parse_cards
from atout.core.cards import RANK_MASKS
from atout.core.cards import cards_of
from atout.core.model import CardPlayed
from atout.core.model import EndOfTrick
from atout.testing import Report
from atout.testing import check_rule_set
from atout.testing import engine_with
from atout.testing import secret_cards
from atout.testing.kit import elsewhere
from atout.testing.pytest_plugin import AtoutCheck

pytest_plugins = ["pytester"]


def third_party() -> tuple[str, ...]:
    """The ``atout.plugins`` entry points of other installed distributions."""
    eps = importlib.metadata.entry_points(group="atout.plugins")
    return tuple(ep.name for ep in eps if ep.dist is not None and ep.dist.name != "atout")


def shipped_engine(*extra: object) -> Engine:
    """The shipped plugins only (whatever else is installed), plus ``extra``."""
    return engine_with(*extra, disable=third_party())


@pytest.fixture(scope="module")
def shipped() -> Engine:
    return shipped_engine()


# --- the shipped rule sets pass -----------------------------------------------------------


@pytest.mark.parametrize("game", ["belote", "decouverte", "coinche", "coinche-decouverte"])
def test_the_shipped_games_keep_every_invariant(
    atout_check: AtoutCheck, shipped: Engine, game: str
) -> None:
    report = atout_check(game, deals=120, seed=0, engine=shipped)
    assert report.deals == 120
    assert report.views > report.actions  # every seat's view, on every action
    assert sum(report.contracts.values()) == 120


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("belote", {"direction": "clockwise", "declarations_shown": "when-held"}),
        ("belote", {"undertrump": "always", "must_head_trick": True, "tie": "litige"}),
        (
            "belote",
            {"between_deals": "shuffle", "deal_packets": "dealer", "belote_king_first": True},
        ),
        ("decouverte", {"reveal_on_lead": True, "belote_rebelote": True}),
        ("decouverte", {"declarations": "on", "dealer_rule": "winner", "capot_bonus": 50}),
        ("coinche", {"sans_tout_atout": "both", "declarations": "on", "tie": "litige"}),
        ("coinche-decouverte", {"sans_tout_atout": "both", "bid_after_contre": True}),
    ],
)
def test_the_shipped_variations_keep_every_invariant(
    atout_check: AtoutCheck, shipped: Engine, game: str, rules: dict[str, object]
) -> None:
    atout_check(game, rules, deals=30, seed=5, engine=shipped)


def test_the_same_seed_plays_the_same_deals(shipped: Engine) -> None:
    first = check_rule_set(shipped, "decouverte", deals=8, seed=42)
    again = check_rule_set(shipped, "decouverte", deals=8, seed=42)
    other = check_rule_set(shipped, "decouverte", deals=8, seed=43)
    assert (first.actions, first.contracts) == (again.actions, again.contracts)
    assert (first.actions, first.contracts) != (other.actions, other.contracts)


# --- each check catches its bug -----------------------------------------------------------------


class NoDixDeDer:
    """Drops the last trick's bonus: the deal no longer adds up to the declared 162."""

    @hookimpl(wrapper=True)
    def atout_card_points(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, CardValues | None, CardValues | None]:
        values = yield
        return replace(values, last_trick=0) if values is not None else None


class StingyMoves(MoveRule):
    """Forbids the lowest-numbered card of every hand: a last card is never legal."""

    def __init__(self, inner: MoveRule) -> None:
        self.inner = inner

    def legal(self, state: DealState) -> int:
        hand = state.hands[state.turn]
        return self.inner.legal(state) & ~(hand & -hand)


class Stingy:
    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        moves = yield
        return StingyMoves(moves) if moves is not None else None


class MuteMoves(MoveRule):
    """The game's legality, but an empty reason for every refused card."""

    def __init__(self, inner: MoveRule) -> None:
        self.inner = inner

    def legal(self, state: DealState) -> int:
        return self.inner.legal(state)

    def explain(self, state: DealState, card: int) -> str:
        return ""


class NoTrumpLeadMoves(MoveRule):
    """Forbids leading a trump while holding another card, yet says any card may be led:
    the engine, trusting ``free_lead``, would let the trump be led."""

    free_lead = True

    def __init__(self, inner: MoveRule, trump: int | None) -> None:
        self.inner = inner
        self.trump_mask = 0xFF << 8 * trump if trump is not None else 0

    def legal(self, state: DealState) -> int:
        hand = state.hands[state.turn]
        if state.trick:
            return self.inner.legal(state)
        return hand & ~self.trump_mask or hand


class NoTrumpLead:
    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        moves = yield
        return NoTrumpLeadMoves(moves, contract.trump) if moves is not None else None


class TrumpsWaitMoves(MoveRule):
    """A house rule that is not trick-local: no trump may be led until a trump has been
    played (unless the leader holds nothing else).  It reads the cards played before the
    trick; with ``trick_local = True`` it says it does not."""

    def __init__(self, inner: MoveRule, trump: int | None, trick_local: bool) -> None:
        self.inner = inner
        self.trump_mask = 0xFF << 8 * trump if trump is not None else 0
        self.trick_local = trick_local

    def legal(self, state: DealState) -> int:
        hand = state.hands[state.turn]
        if state.trick:
            return self.inner.legal(state)
        if state.played & self.trump_mask:
            return hand
        return hand & ~self.trump_mask or hand

    def explain(self, state: DealState, card: int) -> str:
        if not state.trick:
            return "no trump may be led until a trump has been played"
        return self.inner.explain(state, card)


class TrumpsWait:
    def __init__(self, trick_local: bool) -> None:
        self.trick_local = trick_local

    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        moves = yield
        if moves is None:
            return None
        return TrumpsWaitMoves(moves, contract.trump, self.trick_local)


class Mute:
    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        moves = yield
        return MuteMoves(moves) if moves is not None else None


class FickleTrump:
    """Names the trump from a counter, not from the cards: a record cannot replay it."""

    def __init__(self) -> None:
        self.calls = itertools.count()

    @hookimpl(tryfirst=True)
    def atout_bidding_step(self, game: str, rules: Rules, state: DealState) -> BiddingStep | None:
        seat, bid = state.bids[-1]
        if bid != "take":
            return None
        trump = next(self.calls) % 4
        return BiddingStep(contract=Contract(seat, trump, "CDHS"[trump]), round=1)


class Swap:
    """Once a deal, swaps a 7 or 8 of the leader's hand for a 7 or 8 of the trick just
    played (both worth nothing, so the points still add up): one card is played twice,
    the other never."""

    @hookimpl
    def atout_end_of_trick(self, game: str, rules: Rules, contract: Contract) -> EndOfTrick | None:
        if game != "belote":
            return None

        def swap(state: DealState, trick: Trick) -> None:
            low = [c for c in trick.cards if c & 7 <= 1]
            mine = state.hands[trick.leader] & (RANK_MASKS[0] | RANK_MASKS[1])
            if low and mine and "swapped" not in state.extra:
                state.extra["swapped"] = True
                state.hands[trick.leader] ^= (mine & -mine) | 1 << low[0]

        return swap


class Peek:
    """Announces the face-down card beneath each card played: a leak in Découverte."""

    @hookimpl(tryfirst=True)
    def atout_card_played(self, game: str, rules: Rules, contract: Contract) -> CardPlayed | None:
        def peek(state: DealState, seat: int, card: int) -> None:
            beneath = state.under.get(card)
            if beneath is not None:
                state.announcements.append(Announcement(seat, "peek", 1 << beneath))

        return peek


class Crash:
    @hookimpl(tryfirst=True)
    def atout_score_deal(self, game: str, rules: Rules, state: DealState) -> None:
        raise ZeroDivisionError("no score today")


@pytest.mark.parametrize(
    ("plugin", "game", "check", "words"),
    [
        (NoDixDeDer(), "belote", "points", "152"),
        (Stingy(), "belote", "legal", "no card"),
        (NoTrumpLead(), "belote", "legal", "declares free_lead"),
        (TrumpsWait(trick_local=True), "belote", "legal", "declares trick_local"),
        (Mute(), "decouverte", "explain", "without a reason"),
        (FickleTrump(), "belote", "replay", "record does not replay"),
        (Swap(), "belote", "cards", "played more than once"),
        (Peek(), "decouverte", "views", "view shows"),
        (Crash(), "decouverte", "error", "ZeroDivisionError: no score today"),
    ],
)
def test_each_check_catches_its_bug(plugin: object, game: str, check: str, words: str) -> None:
    engine = shipped_engine(plugin)
    # A card given back is also a card others saw in a trick: the views check would stop
    # the deal first, so it is off to see the cards check alone.
    views = check != "cards"
    report = check_rule_set(engine, game, deals=6, seed=1, max_failures=3, views=views)
    assert len(report.failures) <= 3
    assert not report.ok
    caught = [f for f in report.failures if f.check == check]
    assert caught, report.summary()
    assert any(words in f.message for f in caught), report.summary()
    failure = caught[0]
    assert failure.seed >= 1 and failure.deal >= 1
    assert f"match seed {failure.seed}, deal {failure.deal}" in report.summary()
    with pytest.raises(AssertionError, match=check):
        report.assert_ok()


def test_a_rule_that_reads_the_cards_played_passes_when_it_is_not_called_trick_local() -> None:
    """The trick_local check blames the declaration, not the rule: the same rule without
    it keeps every invariant."""
    report = check_rule_set(shipped_engine(TrumpsWait(trick_local=False)), "belote", deals=6)
    assert report.ok, report.summary()
    lying = check_rule_set(shipped_engine(TrumpsWait(trick_local=True)), "belote", deals=6)
    assert lying.failures
    assert all(f.check == "legal" and "declares trick_local" in f.message for f in lying.failures)


def test_the_changed_position_keeps_only_what_a_trick_local_rule_reads(shipped: Engine) -> None:
    deal = Match(shipped, "belote", seed=4).next_deal()
    deal.bid("take")
    for _ in range(6):  # one trick and two cards of the next
        deal.play(cards_of(deal.legal_cards())[0])
    s = deal.state
    before = (list(s.hands), s.played, list(s.tricks), s.contract)
    other = elsewhere(s, random.Random(1))
    assert (list(s.hands), s.played, list(s.tricks), s.contract) == before
    assert (other.turn, other.hands[s.turn], other.trick) == (s.turn, s.hands[s.turn], s.trick)
    assert (other.win_card, other.win_seat, other.team_of) == (s.win_card, s.win_seat, s.team_of)
    assert other.tricks == [] and other.played != s.played
    assert other.contract is not None and s.contract is not None
    assert other.contract.trump != s.contract.trump
    changed = [seat for seat in range(4) if seat != s.turn and other.hands[seat] != s.hands[seat]]
    assert changed


def test_a_failure_carries_the_deal_record_to_replay_it() -> None:
    report = check_rule_set(shipped_engine(NoDixDeDer()), "belote", deals=2, max_failures=1)
    record = report.failures[0].record
    assert record is not None
    assert record["format"] == "atout-deal" and len(record["actions"]) > 32


# --- what a seat may not know --------------------------------------------------------------------


def test_the_secret_cards_are_the_other_hands_the_face_down_cards_and_the_stock(
    shipped: Engine,
) -> None:
    rules = shipped.default_rules("belote")
    hands = (parse_cards("7C 8C"), parse_cards("7D"), parse_cards("7H"), parse_cards("7S"))
    layout = Layout(hands=hands, stock=(parse_cards("8D").bit_length() - 1,))
    state = DealState("belote", rules, 4, 2, 3, layout)
    assert secret_cards(state, 0) == parse_cards("7D 7H 7S 8D")
    state.announcements.append(Announcement(1, "shown", parse_cards("7D")))
    assert secret_cards(state, 0) == parse_cards("7H 7S 8D")
    state.open_hands = True
    assert secret_cards(state, 0) == parse_cards("8D")
    state.hidden[2] = parse_cards("9H")
    state.announcements.append(Announcement(2, "peek", parse_cards("9H")))
    assert secret_cards(state, 0) == parse_cards("8D 9H")


# --- the fixtures, as a plugin author's test suite uses them ------------------------------------


def test_the_fixtures_fail_a_test_with_the_report_and_obey_atout_deals(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        from atout.core import hookimpl

        class NoDixDeDer:
            @hookimpl(wrapper=True)
            def atout_card_points(self, game, rules, contract):
                values = yield
                return values and type(values)(values.points, 0)

        def test_good(atout_check):
            report = atout_check("belote", deals=50)
            assert report.deals == 3

        def test_bad(atout_check):
            from atout.testing import engine_with
            atout_check("belote", deals=50, engine=engine_with(NoDixDeDer()))
        """
    )
    result = pytester.runpytest("--atout-deals", "3", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*[[]points[]] match seed 0, deal 1: *152*"])


def test_engine_with_loads_a_plugin_file(tmp_path: Path) -> None:
    path = tmp_path / "extra_game.py"
    path.write_text(
        "from atout.core import hookimpl\n"
        "from atout.core.model import GameInfo\n"
        "@hookimpl\n"
        "def atout_games():\n"
        "    return [GameInfo('extra', 'Extra', 2, 2, 'A game with no rules yet.')]\n"
    )
    engine = engine_with(str(path))
    assert engine.game("extra").title == "Extra"
    assert "belote" in engine.games


def test_a_report_reads_as_one_summary(shipped: Engine) -> None:
    report: Report = check_rule_set(shipped, "belote", deals=3, seed=2)
    assert report.ok
    assert report.summary().startswith("belote: 3 deals")
    assert "every check held" in report.summary()
