"""The frame that every game of the Belote family shares as a rule plugin.

Four-player Belote and Découverte answer most hooks the same way: the two-round bidding
on a proposed suit, the play obligations, the trick winner and the card points under one
trump, the end of a match; and the hooks whose answers differ (the deal, the
declarations, the scoring) differ only in the rule they call.  Each of those hooks exists
once, here, as a method of :class:`BeloteFamily`.  A game is a subclass that says what
is its own: its :class:`~atout.core.model.GameInfo`, its options, how it deals, declares
and scores, and any hook only it answers (l'arrêt, turning face-down cards).

A game's module stays the plugin its entry point names (``atout.plugins.belote``): it
makes one instance of its game and publishes that instance's hook implementations as
the module's own (:meth:`BeloteFamily.hooks`), so ``atout plugins`` lists the same
hooks under the same name.  Both games' hooks then share this module's code; the engine
tells whose hook failed by the instance the failing method ran on.
"""

from __future__ import annotations

import functools
import random
from abc import ABC
from abc import abstractmethod
from collections.abc import Callable
from typing import Any
from typing import ClassVar

from atout.core import hookimpl
from atout.core.model import BiddingStep
from atout.core.model import CardValues
from atout.core.model import Contract
from atout.core.model import DealEnd
from atout.core.model import DealScore
from atout.core.model import DealScorer
from atout.core.model import Declaration
from atout.core.model import GameInfo
from atout.core.model import Layout
from atout.core.model import MatchResult
from atout.core.model import MoveRule
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.state import DealState

from . import common
from .tables import DEAL_POINTS
from .tables import LAST_TRICK_BONUS
from .tables import beats_table
from .tables import card_points


def family_game(name: str, title: str, seat_names: tuple[str, ...], description: str) -> GameInfo:
    """The :class:`~atout.core.model.GameInfo` of a game of the family: a seat for each of
    ``seat_names``, two sides (teams of partners, or two players alone) and the 162
    points of a deal."""
    return GameInfo(
        name, title, len(seat_names), 2, description, DEAL_POINTS, seat_names=seat_names
    )


class BeloteFamily(ABC):
    """One game of the Belote family as a rule plugin: the hooks every such game answers
    alike, each answering only for :attr:`info`'s game.

    A subclass gives :attr:`info` and the rules that are its own (the abstract methods,
    and :meth:`next_dealer` when the next dealer is not simply the next seat); it may add
    hook implementations of its own, which :meth:`hooks` publishes too.
    """

    info: ClassVar[GameInfo]
    """The game this plugin provides (answer of ``atout_games``)."""

    def __init__(self) -> None:
        self.game = self.info.name

    def hooks(self) -> dict[str, Callable[..., Any]]:
        """This game's hook implementations by name, bound to this instance.

        The game's module puts them in its namespace (``globals().update(...)``), which
        makes the module, the object the entry point names, the registered plugin.
        """
        bound = {name: getattr(self, name) for name in dir(self) if name.startswith("atout_")}
        return {name: method for name, method in bound.items() if hasattr(method, "atout_impl")}

    # --- what each game says for itself -------------------------------------------------

    @abstractmethod
    def options(self) -> list[RuleOption]:
        """Every variation of the game a house-rule pack may switch, with its default."""

    @abstractmethod
    def deal(
        self, rules: Rules, dealer: int, rng: random.Random, previous: DealState | None
    ) -> Layout:
        """How the cards lie when a deal starts (``atout_deal``)."""

    @abstractmethod
    def complete_deal(self, rules: Rules, state: DealState) -> None:
        """Deal what is left once the bidding has a taker (``atout_complete_deal``)."""

    @abstractmethod
    def declarations(self, rules: Rules, state: DealState) -> list[Declaration]:
        """Every seat's declarations as the play starts (``atout_declarations``)."""

    @abstractmethod
    def score_deal(self, rules: Rules, state: DealState) -> DealScore:
        """The score of a finished deal (``atout_score_deal``)."""

    @abstractmethod
    def settle(self, rules: Rules, takers: int, end: DealEnd) -> DealScore:
        """The score of a deal the team ``takers`` took that ends as ``end``: the one
        scoring rule of the game, which :meth:`score_deal` applies to a played deal and
        ``atout_deal_scorer`` hands to the searches."""

    def next_dealer(self, rules: Rules, state: DealState, redeal: bool) -> int:
        """Who deals after ``state``'s deal: the next seat in the direction of play."""
        return state.next_seat(state.dealer)

    def bid_options(self, rules: Rules, state: DealState) -> list[str]:
        """The bids the seat to act may make (``atout_bid_options``): by default the
        two-round bidding on a proposed suit; a game with an auction of its own says its
        own."""
        return common.proposal_bids(state)

    def bidding_step(self, rules: Rules, state: DealState) -> BiddingStep:
        """What follows the bid just made (``atout_bidding_step``): by default the
        two-round bidding on a proposed suit."""
        return common.proposal_step(state)

    def moves(self, rules: Rules, contract: Contract) -> MoveRule:
        """The play obligations under ``contract`` (``atout_legal_moves``): Belote's
        under one trump, with the options of ``rules``."""
        return common.make_moves(rules, contract.trump)

    def beats(self, rules: Rules, contract: Contract) -> tuple[int, ...]:
        """Which card takes a trick from which under ``contract`` (``atout_trick_winner``)."""
        return beats_table(contract.trump)

    def card_values(self, rules: Rules, contract: Contract) -> CardValues:
        """What the cards are worth under ``contract`` (``atout_card_points``)."""
        return CardValues(card_points(contract.trump), LAST_TRICK_BONUS)

    def scorer(self, rules: Rules, contract: Contract) -> DealScorer:
        """The deal's scoring by how it ends (``atout_deal_scorer``): :meth:`settle` for
        the contract's taking side; a game whose scoring reads more of the contract (its
        value, its level) says so."""
        return functools.partial(self.settle, rules, contract.taker % self.info.teams)

    def layout_problem(self, rules: Rules, layout: Layout, dealer: int) -> str | None:
        """What is wrong with a hand-written layout that starts at the bidding (the
        proposed card not where the game puts it), or ``None``; the game says where."""
        return None

    def carry_in_problem(self, rules: Rules, carry_in: Any) -> str | None:
        """What is wrong with a record's points held over (``None`` when fine); a game
        that holds none over refuses any."""
        return f"{self.info.title} holds no points over between deals"

    # --- registration --------------------------------------------------------------------

    @hookimpl
    def atout_games(self) -> list[GameInfo]:
        return [self.info]

    @hookimpl
    def atout_rule_options(self, game: str) -> list[RuleOption] | None:
        return self.options() if game == self.game else None

    # --- dealing -----------------------------------------------------------------------------

    @hookimpl
    def atout_deal(
        self, game: str, rules: Rules, dealer: int, rng: random.Random, previous: DealState | None
    ) -> Layout | None:
        return self.deal(rules, dealer, rng, previous) if game == self.game else None

    @hookimpl
    def atout_complete_deal(self, game: str, rules: Rules, state: DealState) -> bool | None:
        if game != self.game:
            return None
        self.complete_deal(rules, state)
        return True

    @hookimpl
    def atout_next_dealer(
        self, game: str, rules: Rules, state: DealState, redeal: bool
    ) -> int | None:
        return self.next_dealer(rules, state, redeal) if game == self.game else None

    # --- checking hand-written records ----------------------------------------------------------

    @hookimpl
    def atout_check_layout(
        self, game: str, rules: Rules, layout: Layout, dealer: int, bidding: bool
    ) -> str | None:
        if game != self.game or not bidding:
            return None
        return self.layout_problem(rules, layout, dealer)

    @hookimpl
    def atout_check_carry_in(self, game: str, rules: Rules, carry_in: Any) -> str | None:
        return self.carry_in_problem(rules, carry_in) if game == self.game else None

    # --- bidding on a proposed suit ------------------------------------------------------------

    @hookimpl
    def atout_bid_options(self, game: str, rules: Rules, state: DealState) -> list[str] | None:
        return self.bid_options(rules, state) if game == self.game else None

    @hookimpl
    def atout_bidding_step(self, game: str, rules: Rules, state: DealState) -> BiddingStep | None:
        return self.bidding_step(rules, state) if game == self.game else None

    # --- declarations ------------------------------------------------------------------------

    @hookimpl
    def atout_declarations(
        self, game: str, rules: Rules, state: DealState
    ) -> list[Declaration] | None:
        return self.declarations(rules, state) if game == self.game else None

    # --- play under one trump ------------------------------------------------------------------

    @hookimpl
    def atout_legal_moves(self, game: str, rules: Rules, contract: Contract) -> MoveRule | None:
        return self.moves(rules, contract) if game == self.game else None

    @hookimpl
    def atout_trick_winner(
        self, game: str, rules: Rules, contract: Contract
    ) -> tuple[int, ...] | None:
        return self.beats(rules, contract) if game == self.game else None

    @hookimpl
    def atout_card_points(self, game: str, rules: Rules, contract: Contract) -> CardValues | None:
        return self.card_values(rules, contract) if game == self.game else None

    # --- scoring and the match -------------------------------------------------------------------

    @hookimpl
    def atout_score_deal(self, game: str, rules: Rules, state: DealState) -> DealScore | None:
        return self.score_deal(rules, state) if game == self.game else None

    @hookimpl
    def atout_deal_scorer(self, game: str, rules: Rules, contract: Contract) -> DealScorer | None:
        return self.scorer(rules, contract) if game == self.game else None

    @hookimpl
    def atout_match_over(
        self, game: str, rules: Rules, scores: tuple[int, ...], history: list[DealScore]
    ) -> MatchResult | None:
        return common.match_over(rules, scores, history) if game == self.game else None
