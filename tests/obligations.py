"""Rule plugins that change a play obligation, for the bot and solver tests.

Each is a hook wrapper on ``atout_legal_moves`` that narrows the game's own move rule, as
a house-rule plugin would: the bots know nothing of them and must still propose only
cards they allow, and the solvers must search them exactly.

* :class:`NoTrumpLead`: a seat may not lead a trump while it holds a card of another
  suit (a rule that reads only the hand and the trick: ``trick_local``).
* :class:`NoAceDiscard`: a seat that does not follow the suit led may not play an ace
  while it holds another card it may play (declared not ``trick_local``, so a search asks
  it at every node).
"""

from __future__ import annotations

from collections.abc import Generator

from atout.core import hookimpl
from atout.core.cards import ACE
from atout.core.cards import SUIT_MASKS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import card_name
from atout.core.cards import make_card
from atout.core.engine import Engine
from atout.core.model import Contract
from atout.core.model import MoveRule
from atout.core.model import Rules
from atout.core.state import DealState
from atout.testing import engine_with
from helpers import third_party_plugins

ACES: CardSet = sum(1 << make_card(s, ACE) for s in range(4))


class Narrowed(MoveRule):
    """A move rule that allows a part of what ``inner`` allows (see the subclasses)."""

    free_lead = False

    def __init__(self, inner: MoveRule) -> None:
        self.inner = inner

    def base(self, state: DealState) -> CardSet:
        """What the game's own rule allows now."""
        if self.inner.free_lead and not state.trick:
            return state.hands[state.turn]
        return self.inner.legal(state)

    def narrow(self, state: DealState, legal: CardSet) -> CardSet:
        """The part of ``legal`` this rule keeps (never empty)."""
        raise NotImplementedError

    def legal(self, state: DealState) -> CardSet:
        return self.narrow(state, self.base(state))

    def explain(self, state: DealState, card: Card) -> str:
        if self.base(state) >> card & 1:
            return self.reason(card)
        return self.inner.explain(state, card)

    def reason(self, card: Card) -> str:
        """Why this rule forbids ``card``."""
        raise NotImplementedError


class NoTrumpLeadRule(Narrowed):
    """No trump lead while the seat holds a card of another suit."""

    trick_local = True

    def __init__(self, inner: MoveRule, trumps: CardSet) -> None:
        super().__init__(inner)
        self.trumps = trumps

    def narrow(self, state: DealState, legal: CardSet) -> CardSet:
        if state.trick:
            return legal
        return legal & ~self.trumps or legal

    def reason(self, card: Card) -> str:
        return f"may not lead {card_name(card)}, a trump, while holding another suit"


class NoAceDiscardRule(Narrowed):
    """No ace off the suit led while the seat may play another card."""

    trick_local = False

    def narrow(self, state: DealState, legal: CardSet) -> CardSet:
        if not state.trick:
            return legal
        led = SUIT_MASKS[state.trick[0] >> 3]
        off_aces = ACES & ~led
        return legal & ~off_aces or legal

    def reason(self, card: Card) -> str:
        return f"may not discard {card_name(card)}"


class NoTrumpLead:
    """The plugin of :class:`NoTrumpLeadRule` (under a contract with a trump suit)."""

    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        rule = yield
        if rule is None or contract.trump is None:
            return rule
        return NoTrumpLeadRule(rule, SUIT_MASKS[contract.trump])


class NoAceDiscard:
    """The plugin of :class:`NoAceDiscardRule` (under every contract)."""

    @hookimpl(wrapper=True)
    def atout_legal_moves(
        self, game: str, rules: Rules, contract: Contract
    ) -> Generator[None, MoveRule | None, MoveRule | None]:
        rule = yield
        return None if rule is None else NoAceDiscardRule(rule)


def engine_with_rule(*plugins: object) -> Engine:
    """atout's own plugins (no installed third party) plus ``plugins``."""
    return engine_with(*plugins, disable=tuple(third_party_plugins()))
