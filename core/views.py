"""What one seat may know of a deal.

Bots and front ends receive a :class:`View`, never the :class:`~atout.core.state.DealState`:
other seats' closed hands and every face-down card are absent from it, by construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any
from typing import Protocol

from .cards import FULL_DECK
from .cards import Card
from .cards import CardSet
from .cards import cards_of
from .model import CLAIM
from .model import Action
from .model import Announcement
from .model import Bid
from .model import Contract
from .model import Play
from .model import Rules
from .model import Trick
from .state import DealState
from .state import Phase

if TYPE_CHECKING:
    from .engine import Engine


@dataclass(frozen=True)
class PileView:
    """A pile as a seat sees it: its top card (or ``None``) and whether a face-down card
    still lies beneath it."""

    top: Card | None
    covered: bool


@dataclass(frozen=True)
class View:
    """A seat's knowledge of a deal, with what it may do now.

    ``hands[s]`` is seat ``s``'s playable cards when this seat may see them (its own
    hand, or every hand in an open game), else ``None``.  ``shown[s]`` holds cards known
    to be in seat ``s``'s closed hand (declared, or the turn-up the taker received).
    ``unseen`` is every card not yet played that this seat cannot see.
    """

    game: str
    rules: Rules
    seat: int
    seats: int
    teams: int
    dealer: int
    direction: int
    phase: Phase
    turn: int
    hand: CardSet
    hands: tuple[CardSet | None, ...]
    hand_sizes: tuple[int, ...]
    piles: tuple[tuple[PileView, ...], ...]
    unseen: CardSet
    shown: tuple[CardSet, ...]
    turnup: Card | None
    bids: tuple[tuple[int, str], ...]
    contract: Contract | None
    leader: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    announcements: tuple[Announcement, ...]
    points: tuple[int, ...]
    legal: CardSet = 0
    legal_bids: tuple[str, ...] = ()
    can_claim: bool = False
    scores: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def trump(self) -> int | None:
        """The trump suit, once known."""
        return self.contract.trump if self.contract else None

    @property
    def to_act(self) -> bool:
        """Whether this seat is the one to act."""
        return self.turn == self.seat and self.phase in (Phase.BIDDING, Phase.PLAY)

    def legal_actions(self) -> list[Action]:
        """Every action this seat may take now (empty when it is not its turn)."""
        if not self.to_act:
            return []
        if self.phase == Phase.BIDDING:
            return [Bid(b) for b in self.legal_bids]
        actions: list[Action] = [Play(c) for c in cards_of(self.legal)]
        if self.can_claim:
            actions.append(CLAIM)
        return actions

    def known_cards(self) -> CardSet:
        """Every card this view shows anywhere (for the no-leak checks)."""
        mask = self.hand
        for h in self.hands:
            mask |= h or 0
        for s in self.shown:
            mask |= s
        for row in self.piles:
            for p in row:
                if p.top is not None:
                    mask |= 1 << p.top
        for _, c in self.trick:
            mask |= 1 << c
        for t in self.tricks:
            for c in t.cards:
                mask |= 1 << c
        if self.turnup is not None:
            mask |= 1 << self.turnup
        return mask


def make_view(
    state: DealState,
    seat: int,
    legal: CardSet = 0,
    legal_bids: tuple[str, ...] = (),
    can_claim: bool = False,
    scores: tuple[int, ...] = (),
) -> View:
    """Derive ``seat``'s view of ``state``: the only way a seat learns about a deal."""
    seats = state.seats
    visible = [state.open_hands or s == seat for s in range(seats)]
    hands = tuple(state.hands[s] if visible[s] else None for s in range(seats))
    shown = [0] * seats
    for ann in state.announcements:
        if not visible[ann.seat]:
            shown[ann.seat] |= ann.cards & state.hands[ann.seat]
    contract = state.contract
    if (
        state.turnup is not None
        and contract is not None
        and not visible[contract.taker]
        and state.hands[contract.taker] >> state.turnup & 1
    ):
        shown[contract.taker] |= 1 << state.turnup
    piles: list[tuple[PileView, ...]] = []
    for s, row in enumerate(state.layout.piles):
        pv = []
        for top, beneath in row:
            if top is not None and state.hands[s] >> top & 1:
                pv.append(
                    PileView(top, beneath is not None and state.hidden[s] >> beneath & 1 == 1)
                )
            elif beneath is not None and state.hands[s] >> beneath & 1:
                pv.append(PileView(beneath, False))
            elif beneath is not None and state.hidden[s] >> beneath & 1:
                pv.append(PileView(None, True))
            else:
                pv.append(PileView(None, False))
        piles.append(tuple(pv))
    played = state.played
    seen = played
    for s in range(seats):
        if visible[s]:
            seen |= state.hands[s]
        seen |= shown[s]
    turnup_visible = state.turnup is not None and not (played >> state.turnup & 1)
    if turnup_visible and state.turnup is not None:
        seen |= 1 << state.turnup
    unseen = FULL_DECK & ~seen
    points = state.team_points()
    trick_seats = state.trick_seats()
    return View(
        game=state.game,
        rules=state.rules,
        seat=seat,
        seats=seats,
        teams=state.teams,
        dealer=state.dealer,
        direction=state.direction,
        phase=state.phase,
        turn=state.turn,
        hand=state.hands[seat],
        hands=hands,
        hand_sizes=tuple((h.bit_count()) for h in state.hands),
        piles=tuple(piles),
        unseen=unseen,
        shown=tuple(shown),
        turnup=state.turnup if turnup_visible else None,
        bids=tuple(state.bids),
        contract=contract,
        leader=state.leader,
        trick=tuple(zip(trick_seats, state.trick, strict=True)),
        tricks=tuple(state.tricks),
        announcements=tuple(state.announcements),
        points=tuple(points),
        legal=legal if state.turn == seat else 0,
        legal_bids=legal_bids if state.turn == seat else (),
        can_claim=can_claim and state.turn == seat,
        scores=scores,
    )


class Bot(Protocol):
    """What every bot is: it sees one seat's view and answers an action."""

    def choose(self, view: View) -> Action:
        """The action this bot takes in ``view`` (one of ``view.legal_actions()``)."""
        ...


class BotFactory(Protocol):
    """How a bot is made (:attr:`~atout.core.model.BotInfo.factory`): the engine calls it
    with keywords only, for one game under its rules, and gets a :class:`Bot`."""

    def __call__(
        self, *, game: str, rules: Rules, seed: int, think: float, engine: Engine
    ) -> Bot: ...
