"""The hook implementations of the Sans Atout / Tout Atout plugin.

atout loads this module through the entry point ``sans-tout-atout`` of the group
``atout.plugins`` (see ``pyproject.toml``).  It changes nothing in atout and owns no game:
it adds two bids to the bidding of Belote Découverte and four-player Belote, and answers
the per-deal play hooks for the two contracts those bids make.

* ``atout_rule_options``: the option ``sans_tout_atout`` (``off``, ``both``,
  ``sans-atout`` or ``tout-atout``), which a house-rule pack sets like any other
  variation.  It is ``off`` by default: like every variation of the seeds, these
  contracts change the official game only when a pack chooses them (``packs/`` holds one
  pack for each game), so installing the plugin never changes a match that did not ask.
* ``atout_bid_options`` (a wrapper): the game's bids, plus ``sans-atout`` and
  ``tout-atout`` before ``pass``, in both bidding rounds.
* ``atout_bidding_step`` (``tryfirst``): either bid ends the bidding with
  ``Contract(bidder, None, bid)``; every other bid is left to the game's own plugin.
* ``atout_legal_moves``, ``atout_trick_winner``, ``atout_card_points`` (``tryfirst``):
  the play under those two contracts (:mod:`atout_sans_tout_atout.rules`); any other
  contract is left to the game's plugin.

Everything else stays the game's: dealing (in four-player Belote the taker still receives
the turned-up card), declarations, the scoring (both contracts total 162 like a suit
contract), the match.  Belote-rebelote does not exist under these contracts: the games
only look for it in a trump suit, and there is none here.  Carrés and sequences count as
the game's rules say; none of them is a trump sequence.
"""

from __future__ import annotations

from collections.abc import Generator

from atout.core import hookimpl
from atout.core.model import BiddingStep
from atout.core.model import CardValues
from atout.core.model import Contract
from atout.core.model import MoveRule
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.state import DealState

from .rules import CONTRACTS
from .rules import SANS_ATOUT
from .rules import TOUT_ATOUT
from .rules import SansAtoutMoves
from .rules import ToutAtoutMoves
from .rules import beats_table
from .rules import card_values

GAMES = ("belote", "decouverte")
"""The games whose bidding this plugin extends."""

OPTION = "sans_tout_atout"
OFFERS: dict[str, tuple[str, ...]] = {
    "off": (),
    "both": CONTRACTS,
    SANS_ATOUT: (SANS_ATOUT,),
    TOUT_ATOUT: (TOUT_ATOUT,),
}
PASS = "pass"


@hookimpl
def atout_rule_options(game: str) -> list[RuleOption] | None:
    """Declare the plugin's one option for the games it extends."""
    if game not in GAMES:
        return None
    return [
        RuleOption(
            OPTION,
            "choice",
            "off",
            "Which of the contracts sans atout (no trumps) and tout atout (all trumps) the "
            "bidding offers besides the suits: off, both, sans-atout or tout-atout.",
            tuple(OFFERS),
            source="FFB coinche rules",
        )
    ]


def offered(rules: Rules) -> tuple[str, ...]:
    """The contracts the bidding offers under ``rules`` (the option's value)."""
    return OFFERS.get(str(rules.get(OPTION, "off")), ())


@hookimpl(wrapper=True)
def atout_bid_options(
    game: str, rules: Rules, state: DealState
) -> Generator[None, list[str] | None, list[str] | None]:
    """Add the two contracts to whatever the game offers, before ``pass``."""
    options = yield
    if game not in GAMES or not options:
        return options
    extra = [bid for bid in offered(rules) if bid not in options]
    if not extra:
        return options
    return [o for o in options if o != PASS] + extra + [o for o in options if o == PASS]


@hookimpl(tryfirst=True)
def atout_bidding_step(game: str, rules: Rules, state: DealState) -> BiddingStep | None:
    """A ``sans-atout`` or ``tout-atout`` bid ends the bidding; other bids are the game's.

    A wrapper cannot keep the game's own step from seeing a bid it does not know, so this
    is a plain implementation that answers first, and only for its own bids.
    """
    if game not in GAMES or not state.bids:
        return None
    seat, bid = state.bids[-1]
    if bid not in CONTRACTS:
        return None
    bidding_round = 1 if len(state.bids) <= state.seats else 2
    return BiddingStep(contract=Contract(seat, None, bid), round=bidding_round)


@hookimpl(tryfirst=True)
def atout_legal_moves(game: str, rules: Rules, contract: Contract) -> MoveRule | None:
    if contract.name == SANS_ATOUT:
        return SansAtoutMoves()
    if contract.name == TOUT_ATOUT:
        return ToutAtoutMoves()
    return None


@hookimpl(tryfirst=True)
def atout_trick_winner(game: str, rules: Rules, contract: Contract) -> tuple[int, ...] | None:
    return beats_table(contract.name) if contract.name in CONTRACTS else None


@hookimpl(tryfirst=True)
def atout_card_points(game: str, rules: Rules, contract: Contract) -> CardValues | None:
    return card_values(contract.name) if contract.name in CONTRACTS else None
