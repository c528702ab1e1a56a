"""The hooks called with their declared types: one method per hook.

The plugin manager answers every hook with ``Any``; :class:`Hooks` (an engine's
``engine.hooks``) is the one place that says what each hook returns, as
:mod:`~atout.core.hookspecs` declares it, so that the engine, the records and the bots
that ask a hook get a typed answer and a type checker follows it.  Each method takes
the hook's arguments by keyword, as the hooks are called.

A **firstresult** hook the engine cannot do without (dealing, bidding, the per-deal rules
of the play, scoring, the next dealer) returns its answer, and a hook nobody answered is
a :class:`~atout.core.errors.PluginError` (:meth:`Engine.decide`); the others return
``None`` when nobody answered.  A **merged** hook returns the list of every plugin's
answer (``None`` for a plugin with nothing to say).  A plugin's exception is a
:class:`~atout.core.errors.PluginError` naming the plugin and the hook, as for
:meth:`Engine.call`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from .model import BiddingStep
    from .model import BidInfo
    from .model import BotInfo
    from .model import CardPlayed
    from .model import CardValues
    from .model import Contract
    from .model import DealScore
    from .model import DealScorer
    from .model import Declaration
    from .model import EndOfTrick
    from .model import GameInfo
    from .model import Layout
    from .model import MatchResult
    from .model import MoveRule
    from .model import RuleOption
    from .model import Rules
    from .state import DealState

Caller = Callable[[str, dict[str, Any]], Any]
"""How a hook is called: its name and its keyword arguments, the answer back."""


class Hooks:
    """Every hook of :mod:`~atout.core.hookspecs` as a typed method (see the module).

    ``call`` calls a hook (``None`` when nobody answered a firstresult hook) and
    ``decide`` calls one that must be answered; the engine hands in its own two.
    """

    __slots__ = ("_call", "_decide")

    def __init__(self, call: Caller, decide: Caller) -> None:
        self._call = call
        self._decide = decide

    # --- registration (merged) ---------------------------------------------------------

    def games(self) -> list[list[GameInfo] | None]:
        answers: list[list[GameInfo] | None] = self._call("atout_games", {})
        return answers

    def rule_options(self, *, game: str) -> list[list[RuleOption] | None]:
        answers: list[list[RuleOption] | None] = self._call("atout_rule_options", {"game": game})
        return answers

    def bots(self) -> list[list[BotInfo] | None]:
        answers: list[list[BotInfo] | None] = self._call("atout_bots", {})
        return answers

    # --- dealing -----------------------------------------------------------------------

    def deal(
        self,
        *,
        game: str,
        rules: Rules,
        dealer: int,
        rng: random.Random,
        previous: DealState | None,
    ) -> Layout:
        kw = {"game": game, "rules": rules, "dealer": dealer, "rng": rng, "previous": previous}
        layout: Layout = self._decide("atout_deal", kw)
        return layout

    def complete_deal(self, *, game: str, rules: Rules, state: DealState) -> bool | None:
        done: bool | None = self._call(
            "atout_complete_deal", {"game": game, "rules": rules, "state": state}
        )
        return done

    def next_dealer(self, *, game: str, rules: Rules, state: DealState, redeal: bool) -> int:
        kw = {"game": game, "rules": rules, "state": state, "redeal": redeal}
        dealer: int = self._decide("atout_next_dealer", kw)
        return dealer

    # --- checking hand-written records (merged) ----------------------------------------

    def check_layout(
        self, *, game: str, rules: Rules, layout: Layout, dealer: int, bidding: bool
    ) -> list[str | None]:
        kw = {"game": game, "rules": rules, "layout": layout, "dealer": dealer, "bidding": bidding}
        problems: list[str | None] = self._call("atout_check_layout", kw)
        return problems

    def check_carry_in(self, *, game: str, rules: Rules, carry_in: Any) -> list[str | None]:
        kw = {"game": game, "rules": rules, "carry_in": carry_in}
        problems: list[str | None] = self._call("atout_check_carry_in", kw)
        return problems

    # --- bidding -----------------------------------------------------------------------

    def bid_options(self, *, game: str, rules: Rules, state: DealState) -> list[str]:
        kw = {"game": game, "rules": rules, "state": state}
        bids: list[str] = self._decide("atout_bid_options", kw)
        return bids

    def bidding_step(self, *, game: str, rules: Rules, state: DealState) -> BiddingStep:
        kw = {"game": game, "rules": rules, "state": state}
        step: BiddingStep = self._decide("atout_bidding_step", kw)
        return step

    def describe_bid(self, *, game: str, rules: Rules, bid: str) -> BidInfo | None:
        info: BidInfo | None = self._call(
            "atout_describe_bid", {"game": game, "rules": rules, "bid": bid}
        )
        return info

    def declarations(
        self, *, game: str, rules: Rules, state: DealState
    ) -> list[list[Declaration] | None]:
        kw = {"game": game, "rules": rules, "state": state}
        answers: list[list[Declaration] | None] = self._call("atout_declarations", kw)
        return answers

    # --- the play, asked once per deal -------------------------------------------------

    def legal_moves(self, *, game: str, rules: Rules, contract: Contract) -> MoveRule:
        kw = {"game": game, "rules": rules, "contract": contract}
        moves: MoveRule = self._decide("atout_legal_moves", kw)
        return moves

    def trick_winner(self, *, game: str, rules: Rules, contract: Contract) -> tuple[int, ...]:
        kw = {"game": game, "rules": rules, "contract": contract}
        beats: tuple[int, ...] = tuple(self._decide("atout_trick_winner", kw))
        return beats

    def card_points(self, *, game: str, rules: Rules, contract: Contract) -> CardValues:
        kw = {"game": game, "rules": rules, "contract": contract}
        values: CardValues = self._decide("atout_card_points", kw)
        return values

    def end_of_trick(self, *, game: str, rules: Rules, contract: Contract) -> EndOfTrick | None:
        kw = {"game": game, "rules": rules, "contract": contract}
        run: EndOfTrick | None = self._call("atout_end_of_trick", kw)
        return run

    def card_played(self, *, game: str, rules: Rules, contract: Contract) -> CardPlayed | None:
        kw = {"game": game, "rules": rules, "contract": contract}
        run: CardPlayed | None = self._call("atout_card_played", kw)
        return run

    def can_claim(self, *, game: str, rules: Rules, state: DealState, seat: int) -> str | None:
        kw = {"game": game, "rules": rules, "state": state, "seat": seat}
        offer: str | None = self._call("atout_can_claim", kw)
        return offer

    # --- scoring and the match ---------------------------------------------------------

    def score_deal(self, *, game: str, rules: Rules, state: DealState) -> DealScore:
        kw = {"game": game, "rules": rules, "state": state}
        score: DealScore = self._decide("atout_score_deal", kw)
        return score

    def deal_scorer(self, *, game: str, rules: Rules, contract: Contract) -> DealScorer | None:
        kw = {"game": game, "rules": rules, "contract": contract}
        scorer: DealScorer | None = self._call("atout_deal_scorer", kw)
        return scorer

    def match_over(
        self, *, game: str, rules: Rules, scores: tuple[int, ...], history: list[DealScore]
    ) -> MatchResult | None:
        kw = {"game": game, "rules": rules, "scores": scores, "history": history}
        result: MatchResult | None = self._call("atout_match_over", kw)
        return result
