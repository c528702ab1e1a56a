"""The conformance kit: play a rule set through many seeded random deals and check the
invariants that every rule set must keep.

:func:`check_rule_set` plays whole matches with random legal actions (bids included, so
every contract a bidding offers is reached), one seeded match after another, until it has
played the number of deals asked for.  On every action it checks what each seat's view
shows; after every deal, how the cards were played and scored and that the deal's record
replays to the same deal; after every match, that the match record replays.  It returns a
:class:`Report`; nothing is raised for a broken rule (a plugin's exception is a failure
too), so one run lists every problem it meets, each with the seed that repeats it.

The checks (each failure names one of these):

``legal``
    while the play goes on, the seat to play has a non-empty legal set, inside its hand,
    and the bidding offers at least one bid; a move rule that declares ``free_lead``
    (any card may be led, so the engine does not ask it for leads) does allow every card
    in hand on a lead; a move rule that declares ``trick_local`` (a search may remember
    its answers by the hand to play and the trick) gives the same answer in a copy of the
    position where everything else is changed (see :func:`elsewhere`);
``explain``
    a card in hand that is not legal is refused with a reason, a legal card is not;
``cards``
    after a played-out deal every card was played exactly once (no card left in a hand,
    face down or in the stock), in complete tricks;
``points``
    the tricks' points add up to the game's ``GameInfo.total_points``, and the score's
    card points to its ``total_check`` when it gives one; the score has one entry a team;
``views``
    no view shows a card its seat may not know, anywhere (its hands, piles, tricks,
    turn-up or announcements): another seat's closed hand (unless announced), a
    face-down card (``DealState.hidden``, never announced) or a card of the undealt stock;
``replay``
    the deal's JSON record replays to the same actions, tricks, announcements and score,
    and the match record to the same deals and scores;
``error``
    the rule set raised, or a deal or a bidding never ended.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any

from atout.core.cards import FULL_DECK
from atout.core.cards import CardSet
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.cards import cards_str
from atout.core.cards import mask_of
from atout.core.engine import Deal
from atout.core.engine import Engine
from atout.core.engine import Match
from atout.core.errors import AtoutError
from atout.core.errors import PluginError
from atout.core.model import DealEnd
from atout.core.model import DealScore
from atout.core.model import GameInfo
from atout.core.model import MoveRule
from atout.core.model import Rules
from atout.core.pluginmanager import make_plugin_manager
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.records import match_from_record
from atout.core.records import match_to_record
from atout.core.state import BIDDING
from atout.core.state import PLAY
from atout.core.state import REDEAL
from atout.core.state import DealState

CHECKS = ("legal", "explain", "cards", "points", "views", "replay", "error")
"""The names of the checks, as a :class:`Failure` gives them (see the module's docstring)."""

MAX_ACTIONS = 2000
"""A deal with more actions than this never ends: a failure."""

MAX_REDEALS = 50
"""This many redeals in a row: the bidding never ends, a failure."""

_ENGINE_CHECKS = {"atout_legal_moves": "legal", "atout_deal": "cards", "atout_score_deal": "points"}
"""The check each of the engine's own checks belongs to, by the hook it names."""


@dataclass(frozen=True)
class Failure:
    """One broken invariant: which check, what happened, and how to repeat it.

    ``seed`` is the seed of the match (``Match(engine, game, rules, seed=seed)``) and
    ``deal`` the deal's number in it (1 for the first, redeals counted); ``record`` is
    the deal's record up to the failure (save it as JSON and ``atout replay`` it).
    """

    check: str
    message: str
    seed: int
    deal: int
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return f"[{self.check}] match seed {self.seed}, deal {self.deal}: {self.message}"


@dataclass
class Report:
    """What :func:`check_rule_set` played and found."""

    game: str
    rules: Rules
    seed: int
    deals: int = 0
    """Deals played to their end and scored."""
    redeals: int = 0
    """Deals passed out (everybody passed)."""
    matches: int = 0
    actions: int = 0
    views: int = 0
    """Seat views checked for hidden cards."""
    contracts: Counter[str] = field(default_factory=Counter)
    """How often each contract was played (by its name)."""
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every check held."""
        return not self.failures

    def summary(self, limit: int = 10) -> str:
        """The report in words: what was played, then the first ``limit`` failures."""
        contracts = ", ".join(f"{n} {c}" for c, n in sorted(self.contracts.items())) or "none"
        head = (
            f"{self.game}: {self.deals} deals ({self.redeals} passed out) in {self.matches} "
            f"matches from seed {self.seed}, {self.actions} actions, {self.views} views; "
            f"contracts: {contracts}"
        )
        if self.ok:
            return head + "; every check held"
        lines = [head, f"{len(self.failures)} failures:"]
        lines += [f"  {f}" for f in self.failures[:limit]]
        if len(self.failures) > limit:
            lines.append(f"  ... and {len(self.failures) - limit} more")
        return "\n".join(lines)

    def assert_ok(self) -> None:
        """Raise :class:`AssertionError` with the summary when a check failed."""
        if not self.ok:
            raise AssertionError(self.summary())


class _Stop(Exception):
    """Abandon the current match after a failure that leaves it unusable."""


def engine_with(
    *plugins: object,
    entry_points: bool = True,
    disable: tuple[str, ...] = (),
) -> Engine:
    """An engine with extra plugins, for a plugin's own tests before it is installed.

    Each of ``plugins`` is a module or object with hook implementations, or a module
    name or ``.py`` path (as ``--plugin`` takes).  ``entry_points`` loads the installed
    plugins too (the games your plugin extends); ``disable`` blocks plugins by name.
    """
    specs = [p for p in plugins if isinstance(p, str)]
    pm = make_plugin_manager(plugins=specs, disable=disable, entry_points=entry_points)
    for plugin in plugins:
        if not isinstance(plugin, str):
            pm.register(plugin)
    return Engine(pm)


def secret_cards(state: DealState, seat: int) -> CardSet:
    """The cards ``seat`` may not know now: every face-down card, the undealt stock and,
    unless hands are open, the other seats' hands; a card announced aloud (a declaration,
    belote) or the turned-up card is public."""
    public = 0
    for ann in state.announcements:
        public |= ann.cards
    if state.turnup is not None:
        public |= 1 << state.turnup
    secret = 0
    for h in state.hidden:
        secret |= h
    stock = 0
    for c in state.stock:
        stock |= 1 << c
    secret |= stock & ~public
    if not state.open_hands:
        for s in range(state.seats):
            if s != seat:
                secret |= state.hands[s] & ~public
    return secret


def elsewhere(state: DealState, rng: random.Random) -> DealState:
    """A copy of the play position ``state`` that a ``trick_local`` move rule cannot tell
    from it, and any other rule likely can.

    The seat to play, its hand, the trick, the trick's winning card and seat and the
    teams stay; every other field a rule could read changes: the other seats' hands and
    every face-down card (random cards from outside the hand and the trick), the tricks
    played (none), the cards played and won and the points (random), the contract's
    taker and trump, the dealer, the bids, declarations, announcements and notes.
    ``state`` itself is left as it was.
    """
    other = copy.copy(state)
    seats = state.seats
    outside = cards_of(FULL_DECK & ~(state.hands[state.turn] | mask_of(state.trick)))

    def some() -> CardSet:
        return mask_of(rng.sample(outside, rng.randint(0, len(outside))))

    other.hands = [h if seat == state.turn else some() for seat, h in enumerate(state.hands)]
    other.hidden = [some() for _ in range(seats)]
    other.under = {}
    other.loose = 0
    other.stock = []
    other.tricks = []
    other.played = some()
    other.won = [some() for _ in range(seats)]
    other.points = [rng.randint(0, 162) for _ in range(seats)]
    if state.contract is not None:
        trump = state.contract.trump
        other.contract = replace(
            state.contract,
            taker=(state.contract.taker + 1) % seats,
            trump=None if trump is None else (trump + rng.randint(1, 3)) % 4,
        )
    other.dealer = (state.dealer + 1) % seats
    other.bids = []
    other.declarations = []
    other.announcements = []
    other.extra = {}
    other.carry_in = None
    return other


def _plain(data: Any) -> Any:
    """``data`` through JSON and back, as a record written to a file is read."""
    return json.loads(json.dumps(data))


@dataclass
class _Checker:
    """Plays the matches of one check of a game under ``report.rules`` and notes what
    fails in ``report``, up to ``max_failures``; ``check_views`` also checks every
    seat's view."""

    engine: Engine
    info: GameInfo
    report: Report
    check_views: bool
    max_failures: int
    seed: int = field(init=False, default=0)
    """The seed of the match being played."""
    deal_no: int = field(init=False, default=0)
    """The number of the deal being played in that match."""
    probe: random.Random = field(init=False, default_factory=lambda: random.Random(0))
    """Draws the positions of the ``trick_local`` check, apart from the actions' draws
    (so the check does not change which deals are played)."""

    @property
    def rules(self) -> Rules:
        """The rules checked (the report's)."""
        return self.report.rules

    def full(self) -> bool:
        """Whether enough failures were found to stop."""
        return len(self.report.failures) >= self.max_failures

    def fail(self, check: str, message: str, deal: Deal | None = None) -> None:
        if self.full():
            return
        record = None
        if deal is not None:
            try:
                record = _plain(deal_to_record(deal))
            except Exception:
                record = None
        self.report.failures.append(Failure(check, message, self.seed, self.deal_no, record))

    # --- one match -------------------------------------------------------------------

    def match(self, seed: int, deals_left: int) -> None:
        self.seed = seed
        self.deal_no = 0
        self.probe = random.Random(seed)
        report = self.report
        report.matches += 1
        rng = random.Random(seed * 1_000_003 + 17)
        deal: Deal | None = None
        try:
            match = Match(self.engine, self.info.name, self.rules, seed=seed)
            redeals = 0
            played = 0
            while match.result is None and played < deals_left and not self.full():
                deal = match.next_deal()
                self.deal_no += 1
                self.play(deal, rng)
                self.after_deal(deal)
                match.end_deal(deal)
                if deal.state.phase == REDEAL:
                    report.redeals += 1
                    redeals += 1
                    if redeals >= MAX_REDEALS:
                        self.fail("error", f"{redeals} redeals in a row: the bidding never ends")
                        return
                else:
                    redeals = 0
                    played += 1
                    report.deals += 1
            deal = None
            self.replay_match(match)
        except _Stop:
            return
        except PluginError as exc:
            # The engine's own checks raise PluginErrors that name no plugin.
            check = "error" if exc.plugin else _ENGINE_CHECKS.get(exc.hook, "error")
            self.fail(check, str(exc), deal)
        except Exception as exc:
            self.fail("error", f"{type(exc).__name__}: {exc}", deal)

    def play(self, deal: Deal, rng: random.Random) -> None:
        for _ in range(MAX_ACTIONS):
            if deal.is_over:
                return
            self.check_step(deal, rng)
            if self.full():
                raise _Stop
            actions = [a for a in deal.legal_actions() if a.kind != "claim"]
            if not actions:
                self.fail("legal", f"seat {deal.turn} has no action in the {deal.phase}", deal)
                raise _Stop
            deal.apply(rng.choice(actions))
            self.report.actions += 1
        self.fail("error", f"the deal did not end after {MAX_ACTIONS} actions", deal)
        raise _Stop

    # --- on every action ---------------------------------------------------------------

    def check_step(self, deal: Deal, rng: random.Random) -> None:
        s = deal.state
        if s.phase == BIDDING and not deal.legal_bids():
            self.fail("legal", f"the bidding offers seat {s.turn} no bid", deal)
            raise _Stop
        if s.phase == PLAY:
            hand = s.hands[s.turn]
            legal = deal.legal_cards()
            if not legal:
                self.fail(
                    "legal",
                    f"seat {s.turn} has no legal card, holding [{cards_str(hand)}], while "
                    f"{s.in_play().bit_count()} cards are still to be played",
                    deal,
                )
                raise _Stop
            if legal & ~hand:
                self.fail("legal", f"legal cards {cards_str(legal & ~hand)} are not in hand", deal)
                raise _Stop
            moves = deal.rules_compiled.moves if deal.rules_compiled else None
            if moves is not None and moves.free_lead and not s.trick:
                allowed = moves.legal(s)
                if allowed != hand:
                    self.fail(
                        "legal",
                        f"the move rule declares free_lead but allows only "
                        f"[{cards_str(allowed)}] of [{cards_str(hand)}] on a lead",
                        deal,
                    )
                    raise _Stop
            if moves is not None and moves.trick_local:
                self.check_trick_local(deal, moves)
            self.check_explain(deal, hand, legal, rng)
        if self.check_views:
            self.check_seat_views(deal)

    def check_trick_local(self, deal: Deal, moves: MoveRule) -> None:
        s = deal.state
        answer = moves.legal(s)
        try:
            again = moves.legal(elsewhere(s, self.probe))
        except Exception as exc:
            self.fail(
                "legal",
                f"the move rule declares trick_local but fails ({type(exc).__name__}: {exc}) "
                "when only the cards and fields outside the hand to play and the trick change",
                deal,
            )
            raise _Stop from None
        if again != answer:
            self.fail(
                "legal",
                f"the move rule declares trick_local but allows [{cards_str(again)}] instead "
                f"of [{cards_str(answer)}] when only the cards and fields outside the hand "
                "to play and the trick change",
                deal,
            )
            raise _Stop

    def check_explain(self, deal: Deal, hand: CardSet, legal: CardSet, rng: random.Random) -> None:
        refused = hand & ~legal
        if refused:
            card = rng.choice(cards_of(refused))
            reason = deal.explain(card)
            if not isinstance(reason, str) or not reason.strip():
                self.fail("explain", f"{card_str(card)} is refused without a reason", deal)
        card = rng.choice(cards_of(legal))
        if deal.explain(card) is not None:
            self.fail("explain", f"{card_str(card)} is legal but explain refuses it", deal)

    def check_seat_views(self, deal: Deal) -> None:
        s = deal.state
        for seat in range(s.seats):
            view = deal.view(seat)
            self.report.views += 1
            secret = secret_cards(s, seat)
            known = view.known_cards()
            for ann in view.announcements:
                known |= ann.cards
            leak = known & secret
            if leak:
                self.fail("views", f"seat {seat}'s view shows {cards_str(leak)}", deal)
                raise _Stop
            if secret & ~view.unseen:
                self.fail(
                    "views",
                    f"seat {seat}'s view does not count {cards_str(secret & ~view.unseen)} "
                    "as unseen",
                    deal,
                )
                raise _Stop
            if view.hand != s.hands[seat]:
                self.fail("views", f"seat {seat}'s view does not show its own hand", deal)
                raise _Stop

    # --- after a deal ------------------------------------------------------------------

    def after_deal(self, deal: Deal) -> None:
        s = deal.state
        if s.phase == REDEAL:
            if s.played or s.tricks:
                self.fail("cards", "a passed-out deal has cards played", deal)
        else:
            if s.contract is not None:
                self.report.contracts[s.contract.name] += 1
            claimed = "claim" in s.extra and len(s.tricks) < s.tricks_per_deal
            if not claimed:
                self.check_cards(deal)
                self.check_points(deal)
        self.replay_deal(deal)

    def check_cards(self, deal: Deal) -> None:
        s = deal.state
        played = [c for t in s.tricks for c in t.cards]
        twice = {c for c in played if played.count(c) > 1}
        if twice:
            names = " ".join(card_str(c) for c in sorted(twice))
            self.fail("cards", f"{names} played more than once", deal)
        left = s.in_play()
        if left:
            self.fail("cards", f"{cards_str(left)} never played", deal)
        if len(set(played)) != 32 or s.played != FULL_DECK:
            missing = FULL_DECK & ~s.played
            self.fail(
                "cards", f"{len(set(played))} cards played; missing {cards_str(missing)}", deal
            )
        if any(len(t.cards) != s.seats for t in s.tricks):
            self.fail("cards", "a trick does not hold one card from each seat", deal)
        won = 0
        for seat_won in s.won:
            if won & seat_won:
                self.fail("cards", f"{cards_str(won & seat_won)} won by two seats", deal)
            won |= seat_won
        if won != FULL_DECK:
            self.fail("cards", f"{cards_str(FULL_DECK & ~won)} won by nobody", deal)

    def check_points(self, deal: Deal) -> None:
        s = deal.state
        total = sum(t.points for t in s.tricks)
        if total != self.info.total_points:
            self.fail(
                "points",
                f"the tricks hold {total} points; {self.info.name} declares "
                f"{self.info.total_points} a deal (contract {s.contract})",
                deal,
            )
        score = deal.score
        if score is None:
            self.fail("points", "the deal ended without a score", deal)
            return
        if score.total_check is not None and sum(score.card_points) != score.total_check:
            self.fail(
                "points",
                f"card points {list(score.card_points)} add up to {sum(score.card_points)}, "
                f"not the score's total_check {score.total_check}",
                deal,
            )
        if len(score.score) != s.teams:
            self.fail(
                "points", f"the score has {len(score.score)} entries for {s.teams} teams", deal
            )
        self.check_scorer(deal, score)

    def check_scorer(self, deal: Deal, score: DealScore) -> None:
        """The game's scorer for searches (``atout_deal_scorer``) gives a played deal
        the score ``atout_score_deal`` gave it: checked on the deals it can describe
        alone (no declaration shown or counted, nothing carried in, no claim)."""
        s = deal.state
        counted = any(score.declaration_points)
        if s.contract is None or s.declarations or counted or s.carry_in or s.extra.get("claim"):
            return
        scorer = self.engine.play_rules(self.info.name, self.rules, s.contract).scorer
        if scorer is None:
            return
        tricks = len(s.tricks)
        capot = next((t for t in range(s.teams) if s.tricks_won(t) == tricks), None)
        end = DealEnd(tuple(s.team_points()), capot)
        searched = scorer(end).score
        if searched != score.score:
            self.fail(
                "points",
                f"atout_deal_scorer scores {list(searched)} where atout_score_deal scored "
                f"{list(score.score)} ({end})",
                deal,
            )

    def replay_deal(self, deal: Deal) -> None:
        record = _plain(deal_to_record(deal))
        try:
            again = deal_from_record(self.engine, record, f"deal {self.deal_no}")
        except AtoutError as exc:
            self.fail("replay", f"the deal's record does not replay: {exc}", deal)
            return
        a, b = deal.state, again.state
        for what, mine, theirs in (
            ("actions", deal.actions, again.actions),
            ("phase", a.phase, b.phase),
            ("contract", a.contract, b.contract),
            ("tricks", a.tricks, b.tricks),
            ("announcements", a.announcements, b.announcements),
            ("score", deal.score, again.score),
        ):
            if mine != theirs:
                self.fail("replay", f"the replayed deal has other {what}", deal)
                return
        if _plain(deal_to_record(again)) != record:
            self.fail("replay", "the replayed deal writes another record", deal)

    def replay_match(self, match: Match) -> None:
        record = _plain(match_to_record(match))
        try:
            again = match_from_record(self.engine, record, f"match {self.seed}")
        except AtoutError as exc:
            self.fail("replay", f"the match record does not replay: {exc}")
            return
        if (
            again.scores != match.scores
            or len(again.deals) != len(match.deals)
            or again.result != match.result
        ):
            self.fail(
                "replay",
                f"the replayed match ends {again.scores} after {len(again.deals)} deals, "
                f"not {match.scores} after {len(match.deals)}",
            )


def check_rule_set(
    engine: Engine,
    game: str,
    rules: Rules | Mapping[str, Any] | None = None,
    deals: int = 200,
    seed: int = 0,
    *,
    views: bool = True,
    max_failures: int = 20,
) -> Report:
    """Play ``deals`` random deals of ``game`` under ``rules`` and check every invariant.

    :param engine: the engine with the plugins under test (:func:`engine_with` builds one
        for a plugin that is not installed yet).
    :param rules: :class:`~atout.core.model.Rules`, or option values to apply over the
        game's defaults (``{"sans_tout_atout": "both"}``), or ``None`` for the defaults.
    :param deals: how many deals to play to their score (passed-out deals come on top).
    :param seed: the first match's seed; match ``k`` uses ``seed + k``.  The same
        arguments always play the same deals.
    :param views: check every seat's view on every action (the slowest check).
    :param max_failures: stop early once this many failures are found.
    :return: a :class:`Report`; ``report.assert_ok()`` raises with its summary.
    """
    info = engine.game(game)
    if rules is None:
        resolved = engine.default_rules(game)
    elif isinstance(rules, Rules):
        resolved = rules
    else:
        resolved = engine.make_rules(game, rules)
    report = Report(game, resolved, seed)
    checker = _Checker(engine, info, report, views, max_failures)
    match_seed = seed
    # Every match plays a deal or records a failure, so the loop ends.
    while report.deals < deals and not checker.full():
        checker.match(match_seed, deals - report.deals)
        match_seed += 1
    return report


def play_random_deal(deal: Deal, seed: int = 0) -> Deal:
    """Play ``deal`` to its end with random legal actions (claims aside), seeded."""
    rng = random.Random(seed)
    while not deal.is_over:
        actions = [a for a in deal.legal_actions() if a.kind != "claim"]
        deal.apply(rng.choice(actions))
    return deal
