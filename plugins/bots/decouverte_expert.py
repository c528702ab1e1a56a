"""The Découverte ``expert`` bot: chance-aware search, from a seat's view only.

How it decides (see :mod:`atout.plugins.search.decouverte` for the solvers):

* **Play, last tricks** (7 tricks left by default, more with a larger ``think``
  budget; fewer when many face-down cards are still unknown, see
  :meth:`DecouverteExpert.exact_feasible`): the exact expectiminimax of the position,
  the face-down cards being chance.  A search that overruns its deadline gives way to
  sampling.
* **Play, before that**: a one-trick chance-aware search whose leaves are layouts
  sampled from the pool of unseen face-down cards (:func:`.sampled_values`): each move
  scored on the same samples, the opponent's answer to a lead chosen on the mean over
  the samples; a sampled layout is solved exactly right after the trick once 10 tricks
  or fewer remain, and played by a fast policy until 8 remain before that.  The
  samples race the moves: a move or an answer proved worse than the best leaves the
  race, so the later samples go to the moves still in doubt.  Sampling stops at the
  time budget (0.8 s by default, see :data:`DEFAULT_BUDGET`), or when one move is
  left.
* **What it maximises**: the score sheet of the deal, not the card points: the taker's
  score minus the opponent's (made: ``2x - 162`` for the taker's ``x`` points; failed:
  ``-162``).  Near the 81/82 boundary one point is worth 164 on the sheet, so the bot
  plays to make (or break) the contract first and for points second.
* **Bidding**: for each possible contract (each seat as taker, each suit it could name)
  the value of the visible layout is estimated on sampled layouts (policy playouts, the
  end solved exactly); the two rounds of bidding are then solved as a small game on
  those values (a redeal is worth 0), so the bot takes when taking beats what passing
  leads to, not above a fixed threshold.  The playouts underrate the bot's own play,
  as taker and as defender: it counts :data:`BID_EDGE` points more for its contracts
  and as many less for the opponent's (:func:`bid_options`).

The bot reads only the :class:`~atout.core.views.View` it is given: the piles as the
seat sees them (face-up cards, and whether a face-down card lies beneath), the tricks,
the points and the legal actions.  It never receives the true state.  What it searches
is the deal's rules as its engine compiles them (:meth:`atout.core.Engine.play_rules`,
through :class:`.DealRules`): the legal cards, the trick winner and the card values of
the contract in play, whichever plugin defines them, so a plugin's contract (sans-atout,
tout-atout) or a house rule that changes an obligation is searched as it is played.
The one rule option it reads itself is Découverte's ``reveal_on_lead`` (when a face-down
card turns: the shape of the game, not a play rule).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import TypeVar
from typing import Unpack

from atout.core import AtoutError
from atout.core import Contract
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core.cards import FULL_DECK
from atout.core.cards import SUITS
from atout.core.cards import cards_of
from atout.core.model import Action
from atout.core.model import Bid
from atout.core.model import Play
from atout.core.model import Rules
from atout.core.text import Message
from atout.core.views import View

from ..search.declared import BELOTE_POINTS
from ..search.declared import belote_cards
from ..search.declared import belote_said
from ..search.declared import combination_points
from ..search.declared import played_by
from ..search.decouverte import ChanceSolver
from ..search.decouverte import DealRules
from ..search.decouverte import KnownSolver
from ..search.decouverte import Policy
from ..search.decouverte import Position
from ..search.decouverte import determinize
from ..search.decouverte import legal_cards
from ..search.decouverte import playout
from ..search.decouverte import sampled_values
from ..search.decouverte import score_utility
from ..search.decouverte import tables_for
from ..search.decouverte import to_move
from ..search.rules import SearchTimeout
from ..search.rules import default_engine
from .basic import SearchingBot
from .basic import SearchSettings
from .hints import bid_reason
from .hints import play_reason
from .hints import with_reason

PASS = "pass"
TAKE = "take"

Key = TypeVar("Key", bound=Hashable)

BID_MAX_SAMPLES = 400
"""The most layouts a bidding decision samples (it stops earlier at its time budget)."""

BID_EDGE = 15.0
"""Score-sheet points the expert's own play, as taker or as defender, is worth over the
policy playouts that estimate the contracts' values when it bids (the policy plays worse
than the expert); tuned in duplicate play (``docs/experiments.md``)."""

EARLY_SOLVE_AT = 8
"""Before the last 10 tricks, a sampled layout is played by the policy until this many
tricks are left and solved exactly from there: earlier, the exact solves cost too many
layouts; later, the policy's playouts cost precision (``docs/experiments.md``)."""

SOLVE_AFTER_TRICK = 10
"""From this many tricks left (the current one included), each sampled layout is solved
exactly right after the trick, the policy playing no trick: closer to the exact
chance-aware values than letting the policy play the next trick first
(``docs/experiments.md``)."""

DEFAULT_BUDGET = 0.8
"""Seconds a decision may take by default: sampling stops there (earlier when racing
leaves one move); the exact search gives up past ``EXACT_SHARE * budget`` and falls
back to sampling, which then stops at ``FALLBACK_SHARE * budget``.  With the default
every decision ends within a second (``atout bench --only bot_decisions``)."""

EXACT_SHARE = 0.7
"""The share of the budget an exact search may take before it gives way to sampling."""

FALLBACK_SHARE = 1.1
"""Where the sampling after a given-up exact search stops, in budgets (it has at least
the remaining ``FALLBACK_SHARE - EXACT_SHARE`` of a budget)."""

CAP_SHARE = 1.2
"""Where a decision stops sampling even short of its minimum number of samples (one
sample at least), in budgets: on a loaded machine the minimum would otherwise hold a
decision well past its budget."""


def read_piles(view: View) -> tuple[list[int], int, list[bool]]:
    """What the piles of ``view`` show: each seat's face-up cards, the face-up cards that
    still cover a face-down card, and per seat whether a face-down card lies uncovered,
    waiting to be turned at the end of the trick (its cover was led to this trick)."""
    hands = [0, 0]
    covers = 0
    waiting = [False, False]
    for seat, row in enumerate(view.piles):
        for pile in row:
            if pile.top is not None:
                hands[seat] |= 1 << pile.top
                if pile.covered:
                    covers |= 1 << pile.top
            elif pile.covered:
                waiting[seat] = True
    return hands, covers, waiting


def position_from_view(view: View, engine: Engine | None = None) -> Position:
    """The solvers' position as ``view`` shows it: face-up cards, the covers that still
    hide a face-down card, the unseen face-down cards (the pool), the trick and points,
    under the rules ``engine`` (default: :func:`.default_engine`) compiles for the view's
    rules and contract.

    Reads only the view; raises ``ValueError`` if the view is not a Découverte play view.
    """
    if view.contract is None or len(view.piles) != 2:
        raise ValueError("not a Découverte view in the play")
    hands, covers, waiting = read_piles(view)
    played = 0
    for t in view.tricks:
        for c in t.cards:
            played |= 1 << c
    led = None
    if view.trick:
        led = view.trick[0][1]
        played |= 1 << led
        if waiting[view.leader]:
            covers |= 1 << led
    pool = FULL_DECK & ~played & ~hands[0] & ~hands[1]
    if pool.bit_count() != covers.bit_count():
        raise ValueError("the view's face-down cards do not match its covers")
    eng = default_engine(engine)
    return Position(
        rules=DealRules.of(eng, view.rules, view.contract),
        taker=view.contract.taker,
        leader=view.leader,
        hands=(hands[0], hands[1]),
        covers=covers,
        pool=pool,
        led=led,
        points=(view.points[0], view.points[1]),
    )


class DecouverteExpert(SearchingBot):
    """The strongest Découverte bot: ``choose(view)`` and ``hint(view)`` return the
    action it judges best for the view's seat.

    Set as every searching bot (:class:`~.basic.SearchingBot`: ``rules``, ``seed``,
    ``think``, ``samples``, ``engine``), with the default budget :data:`DEFAULT_BUDGET`;
    more time means more samples before the last tricks and a deeper
    exact search.  A fixed number of ``samples`` leaves the exact search no deadline.
    """

    default_budget = DEFAULT_BUDGET

    def __init__(self, rules: Rules | None = None, **settings: Unpack[SearchSettings]) -> None:
        super().__init__(rules, **settings)
        think, samples = self.think, self.samples
        self.exact_tricks = 7 if think <= DEFAULT_BUDGET else (8 if think < 5 else 9)
        self.bid_samples = 12 if think <= DEFAULT_BUDGET else max(12, int(24 * think))
        if samples is not None:
            self.bid_samples = max(4, samples)
        self.early_solve_at = EARLY_SOLVE_AT
        self.solve_after_trick = SOLVE_AFTER_TRICK
        """Where the sampled layouts' policy playouts stop (:data:`EARLY_SOLVE_AT`,
        :data:`SOLVE_AFTER_TRICK`); a plugin may set them for its own expert."""
        self.edge = BID_EDGE
        """What the bot's own play is worth over the playouts that value the contracts
        (:func:`bid_options`); 0 bids on the playouts' values alone."""
        self.utilities: dict[
            tuple[
                int,
                Rules | None,
                tuple[tuple[int, int], tuple[int, int]],
                tuple[int, int] | None,
            ],
            list[float],
        ] = {}
        self.exact_values = False
        """Whether the exact search values every card exactly (a hint tells the
        difference to the next best card) instead of only proving the best one."""

    # --- the interface ---------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """The action for ``view`` (whose seat must be the one to act)."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        self.last_info = {}
        if len(legal) == 1:
            return legal[0]
        try:
            if view.phase == "bidding":
                action: Action = Bid(self._bid(view))
            else:
                action = Play(self._play(view))
        except (ValueError, KeyError, IndexError) as exc:
            # A view this bot does not understand (a rule it does not model): stay legal,
            # and say why in ``last_info``.
            self.last_info = {"fallback": f"{type(exc).__name__}: {exc}"}
            return legal[0]
        if action not in legal:
            self.last_info = {"fallback": f"{action} is not legal"}
            return legal[0]
        return action

    def hint(self, view: View) -> Action:
        """The action the bot judges best for the seat of ``view`` (the UI's hint), as a
        :class:`~.hints.Hint`: an action that also says why in one line (the reason
        class and the value difference to the next best card or bid, from this
        decision's values; the exact search values every card exactly for it)."""
        self.exact_values = True
        try:
            action = self.choose(view)
        finally:
            self.exact_values = False
        info = self.last_info
        if isinstance(action, Play):
            values = info.get("values")
            reason = play_reason(
                view, action.card, values if isinstance(values, dict) else None, self.engine
            )
        elif isinstance(action, Bid):
            bids = info.get("bids")
            reason = bid_reason(view, action.text, bids if isinstance(bids, dict) else None)
            if len(view.legal_bids) == 1:
                reason = Message("the only bid you may make")
        else:
            reason = ""
        return with_reason(action, reason)

    # --- play --------------------------------------------------------------------------

    def _play(self, view: View) -> int:
        pos = position_from_view(view, self.engine)
        legal = view.legal & legal_cards(pos)
        if not legal:
            raise ValueError("no legal card in the view")
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        return self.best_card(pos, legal, known_declarations(view))

    def exact_feasible(self, pos: Position) -> bool:
        """Whether the exact chance-aware search is worth trying in ``pos``: its cost
        grows with the tricks left and the unknown cards (at 7 tricks left, about ten
        times more with 6 unknown cards than with 4).
        A search that overruns its deadline falls back to sampling anyway."""
        n = pos.tricks_left
        pool = pos.pool.bit_count()
        if not pool or n <= 5:
            return True
        extra = self.exact_tricks - 7
        limit = {6: 6, 7: 5, 8: 4, 9: 3}.get(n - extra, 0)
        return pool <= limit

    def best_card(
        self,
        pos: Position,
        legal: int | None = None,
        known: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
    ) -> int:
        """The card the bot plays in ``pos`` (its seat is the one to move), the
        declarations ``known`` so far counted (:func:`known_declarations`)."""
        start = time.perf_counter()
        deadline = start + self.budget
        if legal is None:
            legal = legal_cards(pos)
        mover = to_move(pos)
        sign = 1.0 if mover == pos.taker else -1.0
        t = tables_for(pos.rules)
        utility = self.utility(pos.rules.cards.total, pos.rules.rules, known, pos.rules.contract)
        if self.exact_feasible(pos):
            solver = ChanceSolver(t, pos.covers, pos.taker, utility)
            if self.samples is None:
                solver.deadline.set(start + EXACT_SHARE * self.budget)
            try:
                values = solver.move_values(pos, window=not self.exact_values)
            except SearchTimeout:
                deadline = start + FALLBACK_SHARE * self.budget
            else:
                self.last_info = {
                    "method": "exact",
                    "nodes": solver.deadline.count,
                    "values": {c: values[c] for c in cards_of(legal)},
                }
                return max(cards_of(legal), key=lambda c: (values[c], -c))
        # Sample layouts; merged equivalent cards share one evaluation.
        rem = pos.remaining | (1 << pos.led if pos.led is not None else 0)
        reps = t.merge(legal, ~pos.covers, rem)
        if reps & (reps - 1) == 0:
            return reps.bit_length() - 1
        moves = list(cards_of(reps))
        # Solving from ``tricks_left`` solves each layout right after the trick.
        if pos.tricks_left <= self.solve_after_trick:
            solve_at = pos.tricks_left
        else:
            solve_at = self.early_solve_at
        if self.samples is None:
            means, n = sampled_values(
                pos,
                moves,
                utility,
                self.rng,
                max(deadline, time.perf_counter() + 0.05),
                solve_at=solve_at,
                racing=True,
                cap=start + CAP_SHARE * self.budget,
            )
        else:
            means, n = sampled_values(
                pos, moves, utility, self.rng, math.inf, self.samples, self.samples, solve_at
            )
        self.last_info = {
            "method": "sampled",
            "samples": n,
            "values": {c: sign * v for c, v in means.items()},
        }
        return max(means, key=lambda c: (sign * means[c], -c))

    # --- bidding -----------------------------------------------------------------------

    def _bid(self, view: View) -> str:
        legal = list(view.legal_bids)
        if view.turnup is None:
            # No proposed card: an auction by values (Découverte Coinche).
            return self.auction_bid(view)
        # Bids a plugin adds (sans-atout, tout-atout, ...): their contracts, asked of the
        # rules, for either seat (assumed offered in both rounds, as such bids are).
        others = [b for b in legal if b not in (TAKE, PASS) and b not in SUITS]
        extra = {
            (seat, bid): contract
            for bid in others
            for seat in (0, 1)
            if (contract := self.contract_of(view, seat, bid)) is not None
        }
        values = self.contract_values(view, extra)
        options = bid_options(
            values, legal, view.seat, view.dealer, len(view.bids), view.turnup >> 3, self.edge
        )
        self.last_info = {"bids": options}
        return max(legal, key=lambda b: (options.get(b, -1e9), b == PASS))

    def auction_bid(self, view: View) -> str:
        """The bid of an auction by values (Découverte Coinche) with the best expected
        score: :meth:`auction_values`; ties go to a pass, then the lowest bid."""
        values = self.auction_values(view)
        order = {b: i for i, b in enumerate(view.legal_bids)}
        return max(values, key=lambda b: (values[b], b == PASS, -order[b]))

    def auction_values(self, view: View) -> dict[str, float]:
        """Per legal bid, this seat's expected score minus the opponent's if the
        auction ends with it (:func:`~.basic.auction_contract`: the opponent passes),
        over layouts of the face-down cards sampled as for the suit contracts
        (:func:`contract_points`: both sides play the policy, the last tricks solved
        exactly, each layout shared by every contract): each contract scored by the
        game's own scoring at its value and level (:meth:`utility`), a bid that ends
        with no contract at 0.  The play of a strain is sampled once for all the values
        and levels bid in it.  ``last_info`` keeps the values and the samples."""
        from .basic import auction_contract

        contracts = {bid: auction_contract(view, bid, self.engine) for bid in view.legal_bids}
        plays: dict[tuple[int, str], DealRules] = {}
        for c in contracts.values():
            if c is not None and (c.taker, c.name) not in plays:
                plays[c.taker, c.name] = DealRules.of(self.engine, view.rules, c)
        totals = dict.fromkeys(contracts, 0.0)
        n = 0
        if plays:
            hands, covers, _ = read_piles(view)
            base = Position(
                rules=next(iter(plays.values())),
                taker=0,
                leader=1 - view.dealer,
                hands=(hands[0], hands[1]),
                covers=covers,
                pool=FULL_DECK & ~hands[0] & ~hands[1],
            )
            start = time.perf_counter()
            limit = self.bid_samples if self.samples is not None else BID_MAX_SAMPLES
            deadline, cap = start + self.budget, start + CAP_SHARE * self.budget
            while n < limit:
                now = time.perf_counter()
                if (
                    self.samples is None
                    and n
                    and (now >= cap or (n >= self.bid_samples and now >= deadline))
                ):
                    break
                n += 1
                points = contract_points(determinize(base, self.rng), plays, 6)
                for bid, c in contracts.items():
                    if c is None:
                        continue
                    mine, total = points[c.taker, c.name]
                    value = self.utility(total, view.rules, contract=c)[mine]
                    totals[bid] += value if c.taker == view.seat else -value
        values = {bid: t / max(1, n) for bid, t in totals.items()}
        self.last_info = {"samples": n, "values": values}
        return values

    def contract_of(self, view: View, seat: int, bid: str) -> Contract | None:
        """The contract ``bid`` by ``seat`` would make now, as the rules say
        (``atout_bidding_step`` asked on a state of what ``view`` shows); ``None`` when
        the bid makes no contract at once."""
        hands, _, _ = read_piles(view)
        state = DealState(
            view.game, view.rules, 2, 2, view.dealer, Layout(hands=(hands[0], hands[1]))
        )
        state.turnup = view.turnup
        state.bids = [*view.bids, (seat, bid)]
        state.turn = seat
        try:
            step = self.engine.hooks.bidding_step(game=view.game, rules=view.rules, state=state)
        except AtoutError:
            return None  # a bid the rules cannot judge from what the view shows
        contract = step.contract
        return contract if contract is not None and contract.taker == seat else None

    def contract_values(
        self, view: View, extra: Mapping[tuple[int, str], Contract] | None = None
    ) -> dict[tuple[int, int | str], float]:
        """The estimated score-sheet value of each contract for its taker, the taker's
        expected score minus the opponent's, on layouts sampled from the unseen face-down
        cards (both sides play the policy, the last tricks are solved exactly): keyed
        ``(taker, suit)`` for the suit contracts, and as in ``extra`` (``(taker, bid) ->
        contract``) for the contracts of other bids."""
        hands, covers, _ = read_piles(view)
        pool = FULL_DECK & ~hands[0] & ~hands[1]
        if view.turnup is None:
            raise ValueError("no proposed card in the view")
        suit = view.turnup >> 3
        base = Position(
            rules=DealRules.of(self.engine, view.rules, Contract(0, suit, SUITS[suit])),
            taker=0,
            leader=1 - view.dealer,
            hands=(hands[0], hands[1]),
            covers=covers,
            pool=pool,
        )
        contracts: dict[tuple[int, int | str], DealRules] = {
            (taker, trump): DealRules.of(
                self.engine, view.rules, Contract(taker, trump, SUITS[trump])
            )
            for taker in (0, 1)
            for trump in range(4)
        }
        for key, contract in (extra or {}).items():
            contracts[key] = DealRules.of(self.engine, view.rules, contract)

        def utility(total: int) -> list[float]:
            return self.utility(total, view.rules)

        if self.samples is not None:
            return estimate_values(base, contracts, utility, self.rng, self.bid_samples)
        start = time.perf_counter()
        return estimate_values(
            base,
            contracts,
            utility,
            self.rng,
            BID_MAX_SAMPLES,
            start + self.budget,
            self.bid_samples,
            cap=start + CAP_SHARE * self.budget,
        )

    def utility(
        self,
        total: int,
        rules: Rules | None = None,
        known: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0)),
        contract: Contract | None = None,
    ) -> list[float]:
        """The score-sheet utility (:func:`.score_utility`) of a deal worth ``total``
        under ``rules`` (default: the game's default scoring) and ``contract`` (its value
        and level, when the game's scoring reads them), with the declarations ``known``
        (:func:`known_declarations`)."""
        scored = None if contract is None or contract.value is None else contract
        level = None if scored is None or scored.value is None else (scored.value, scored.level)
        key = (total, rules, known, level)
        found = self.utilities.get(key)
        if found is None:
            found = self.utilities[key] = score_utility(
                total, rules, *known, engine=self.engine, contract=scored
            )
        return found


def known_declarations(view: View) -> tuple[tuple[int, int], tuple[int, int]]:
    """The declaration points the view already shows, the taker's and the opponent's:
    all of them (the combinations announced, compared as the game compares them, and
    belote-rebelote), then belote-rebelote alone.

    Belote-rebelote scores for the player who plays both the trump king and queen, and
    each player plays exactly the cards dealt to him, so it counts as soon as both are
    known to be one player's: said, or both face up among his cards or played by him.
    A face-down king or queen is unknown to everyone, its owner included, until turned:
    a belote that needs one counts from the moment it is turned."""
    contract = view.contract
    if contract is None:
        return ((0, 0), (0, 0))
    combos = combination_points(view)
    known = belote_said(view)
    if view.trump is not None and view.rules.get("belote_rebelote", False):
        kq = belote_cards(view.trump)
        for s, played in enumerate(played_by(view)):
            if ((view.hands[s] or 0) | played) & kq == kq:
                known[s] = True
    said = [BELOTE_POINTS if k else 0 for k in known]
    t, o = contract.taker, 1 - contract.taker
    return ((combos[t] + said[t], combos[o] + said[o]), (said[t], said[o]))


def bid_options(
    values: Mapping[tuple[int, int | str], float],
    legal: Sequence[str],
    seat: int,
    dealer: int,
    bids: int,
    proposed: int,
    edge: float = 0.0,
) -> dict[str, float]:
    """The value for ``seat`` of each of its ``legal`` bids, the two rounds of bidding
    solved as a small game on the contract ``values`` (``(taker, suit)`` for the suit
    contracts, ``(taker, bid)`` for a plugin's bids; each the taker's expected score
    minus the opponent's), ``bids`` bids having been made and ``proposed`` the suit of
    the proposed card.  A redeal (the fourth pass) is worth 0 to either.

    ``edge`` is what the bot's own play is worth over the playouts that estimated the
    values (see :data:`BID_EDGE`): added to ``seat``'s contracts, taken off the
    opponent's (which it defends).
    """
    vals = {k: v + (edge if k[0] == seat else -edge) for k, v in values.items()}
    others = [b for b in legal if b not in (TAKE, PASS) and b not in SUITS]
    first = 1 - dealer

    def seat_of(i: int) -> int:
        return first if i % 2 == 0 else 1 - first

    def take_value(i: int) -> float:
        s = seat_of(i)
        own = [vals[s, bid] for bid in others if (s, bid) in vals]
        if i < 2:
            return max([vals[s, proposed], *own])
        return max([vals[s, t] for t in range(4) if t != proposed] + own)

    def pass_value(i: int) -> float:
        # After the fourth pass the deal is redealt: worth nothing to either.
        return 0.0 if i >= 3 else -best_value(i + 1)

    def best_value(i: int) -> float:
        return max(take_value(i), pass_value(i))

    options: dict[str, float] = {}
    for bid in legal:
        if bid == TAKE:
            options[bid] = vals[seat, proposed]
        elif bid == PASS:
            options[bid] = pass_value(bids)
        elif bid in SUITS:
            options[bid] = vals[seat, SUITS.index(bid)]
        elif (seat, bid) in vals:
            options[bid] = vals[seat, bid]
    return options


def estimate_contracts(
    base: Position,
    utility: Sequence[float],
    rng: random.Random,
    samples: int,
    deadline: float = math.inf,
    min_samples: int = 1,
    solve_at: int = 6,
    engine: Engine | None = None,
) -> dict[tuple[int, int], float]:
    """The mean utility for the taker of every (taker, trump) contract from the deal
    ``base`` (its contract ignored; its rule options kept), each played under the rules
    ``engine`` (default: :func:`.default_engine`) compiles for it; see
    :func:`estimate_values`.  ``utility`` is indexed by the taker's final card points."""
    eng = default_engine(engine)
    options = base.rules.rules
    contracts = {
        (taker, trump): DealRules.of(eng, options, Contract(taker, trump, SUITS[trump]))
        for taker in (0, 1)
        for trump in range(4)
    }
    return estimate_values(
        base, contracts, lambda total: utility, rng, samples, deadline, min_samples, solve_at
    )


def estimate_values(
    base: Position,
    contracts: Mapping[Key, DealRules],
    utility: Callable[[int], Sequence[float]],
    rng: random.Random,
    samples: int,
    deadline: float = math.inf,
    min_samples: int = 1,
    solve_at: int = 6,
    cap: float = math.inf,
) -> dict[Key, float]:
    """The mean utility for its taker of each contract of ``contracts`` (each with its
    deal rules, its taker in its contract) from the deal ``base``, over sampled layouts
    shared by all contracts: ``samples`` of them, or fewer (at least ``min_samples``)
    when the ``deadline`` (``time.perf_counter``) passes, and at least one when the
    ``cap`` passes.  Both sides play
    :class:`Policy` and the last ``solve_at`` tricks are solved exactly.  ``utility``
    gives the utility of a deal worth ``total`` points, indexed by the taker's points."""
    sums: dict[Key, float] = {k: 0.0 for k in contracts}
    n = 0
    while n < samples:
        now = time.perf_counter()
        if n and (now >= cap or (n >= min_samples and now >= deadline)):
            break
        n += 1
        layout = determinize(base, rng)
        for key, (mine, total) in contract_points(layout, contracts, solve_at).items():
            sums[key] += utility(total)[mine]
    return {k: v / n for k, v in sums.items()}


def contract_points(
    layout: Position, contracts: Mapping[Key, DealRules], solve_at: int
) -> dict[Key, tuple[int, int]]:
    """On one fully known (sampled) layout, each contract's taker's card points and the
    deal's total: both sides play :class:`Policy` and the last ``solve_at`` tricks are
    solved exactly.  The expert's bidding and the review sample with it."""
    under = dict(layout.under)
    hid = 0
    for d in under.values():
        hid |= 1 << d
    L = layout.leader
    out: dict[Key, tuple[int, int]] = {}
    for key, rules in contracts.items():
        tables = tables_for(rules)
        solver = KnownSolver(tables, under)
        R = rules.cards.total
        got = playout(
            Policy(tables),
            solver.under_bits,
            layout.hands[L],
            layout.hands[1 - L],
            hid,
            L,
            R,
            solver,
            solve_at,
        )
        out[key] = (got if rules.contract.taker == L else R - got, R)
    return out
