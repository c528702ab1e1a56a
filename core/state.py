"""The one true state of a deal.

Only the engine and the rule plugins touch a :class:`DealState`; seats (people, bots, the
UI) see a :class:`~atout.core.views.View` derived from it.  The state is a plain mutable
object with ``__slots__``: the play loop updates a few ints per card.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Any

from .cards import Card
from .cards import CardSet
from .model import Announcement
from .model import Contract
from .model import Declaration
from .model import Layout
from .model import Rules
from .model import Trick


class Phase(StrEnum):
    """Where a deal stands.  A phase is also its text (``Phase.PLAY == "play"``), the form
    records and the network protocol carry."""

    BIDDING = "bidding"
    """The bidding: the seats bid in turn until a contract or a redeal."""
    PLAY = "play"
    """The play: the seats play their cards, trick by trick."""
    OVER = "over"
    """The deal is over and scored."""
    REDEAL = "redeal"
    """Everybody passed: the cards are gathered and dealt again, nothing scored."""


BIDDING = Phase.BIDDING
PLAY = Phase.PLAY
OVER = Phase.OVER
REDEAL = Phase.REDEAL


@functools.cache
def _team_of(seats: int, teams: int) -> tuple[int, ...]:
    """``[seat]``: the seat's team (partners sit ``teams`` seats apart)."""
    return tuple(s % teams for s in range(seats))


_LISTS = (
    "announcements",
    "bids",
    "declarations",
    "hands",
    "hidden",
    "points",
    "stock",
    "trick",
    "tricks",
    "won",
)
"""The state's lists, which a copy must not share (the rules change them in place)."""


class DealState:
    """Everything about one deal, hidden cards included.

    Seats are numbered in the order of play for ``direction == 1``; with
    ``direction == -1`` play goes the other way round.  ``hands[s]`` holds the cards seat
    ``s`` may play from; ``hidden[s]`` its face-down cards (nobody may see or play them);
    ``under`` maps a covering card to the face-down card beneath it; ``loose`` holds the
    face-down cards that lie under no card (a hand-written position may have some), for
    the rules to turn when they see fit.  ``won[s]`` are the cards seat ``s`` has won in
    tricks and ``points[s]`` their card points (with the last-trick bonus once the last
    trick is won).
    """

    __slots__ = (
        "announcements",
        "bidding_round",
        "bids",
        "carry_in",
        "contract",
        "dealer",
        "declarations",
        "direction",
        "extra",
        "game",
        "hands",
        "hidden",
        "layout",
        "leader",
        "loose",
        "open_hands",
        "phase",
        "played",
        "points",
        "rules",
        "seats",
        "stock",
        "team_of",
        "teams",
        "trick",
        "tricks",
        "turn",
        "turnup",
        "under",
        "win_card",
        "win_seat",
        "won",
    )

    def __init__(
        self,
        game: str,
        rules: Rules,
        seats: int,
        teams: int,
        dealer: int,
        layout: Layout,
        direction: int = 1,
    ) -> None:
        self.game = game
        self.rules = rules
        self.seats = seats
        self.teams = teams
        self.team_of: tuple[int, ...] = _team_of(seats, teams)
        self.dealer = dealer
        self.direction = direction
        self.layout = layout
        self.hands: list[CardSet] = list(layout.hands)
        self.hidden: list[CardSet] = [0] * seats
        self.under: dict[Card, Card] = {}
        under = self.under
        loose = 0
        for seat, piles in enumerate(layout.piles):
            down = 0
            for top, beneath in piles:
                if beneath is not None:
                    down |= 1 << beneath
                    if top is not None:
                        under[top] = beneath
                    else:
                        loose |= 1 << beneath
            self.hidden[seat] = down
        self.loose: CardSet = loose
        self.open_hands = layout.open_hands
        self.stock: list[Card] = list(layout.stock)
        self.turnup: Card | None = layout.turnup
        self.phase: Phase = BIDDING
        self.bids: list[tuple[int, str]] = []
        self.bidding_round = 1
        self.contract: Contract | None = None
        self.turn = self.next_seat(dealer)
        self.leader = self.turn
        self.trick: list[Card] = []
        self.win_card = -1
        self.win_seat = -1
        self.tricks: list[Trick] = []
        self.won: list[CardSet] = [0] * seats
        self.points: list[int] = [0] * seats
        self.played: CardSet = 0
        self.declarations: list[Declaration] = []
        self.announcements: list[Announcement] = []
        self.carry_in: Any = None
        self.extra: dict[str, Any] = {}

    # --- seats -----------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the direction of play."""
        return (seat + self.direction) % self.seats

    def trick_seats(self) -> list[int]:
        """The seats that played the cards of the current trick, in order."""
        return [(self.leader + i * self.direction) % self.seats for i in range(len(self.trick))]

    def partner_winning(self, seat: int) -> bool:
        """Whether another seat of ``seat``'s team is winning the current trick."""
        w = self.win_seat
        return w >= 0 and w != seat and self.team_of[w] == self.team_of[seat]

    @property
    def trump(self) -> int | None:
        """The trump suit, once the bidding is over."""
        return self.contract.trump if self.contract else None

    @property
    def tricks_per_deal(self) -> int:
        """How many tricks a deal has: every card is played once."""
        return 32 // self.seats

    def in_play(self) -> CardSet:
        """Every card not yet played: in hands, face down, or in the stock."""
        mask = 0
        for h in self.hands:
            mask |= h
        for h in self.hidden:
            mask |= h
        for c in self.stock:
            mask |= 1 << c
        return mask

    def team_cards(self, team: int) -> CardSet:
        """The cards won in tricks by ``team``."""
        mask = 0
        for seat in range(self.seats):
            if self.team_of[seat] == team:
                mask |= self.won[seat]
        return mask

    def team_points(self) -> list[int]:
        """``[team]``: the card points each team has won in tricks (its seats'
        ``points``, the last-trick bonus included once the last trick is won)."""
        out = [0] * self.teams
        for seat, won in enumerate(self.points):
            out[self.team_of[seat]] += won
        return out

    def tricks_won(self, team: int) -> int:
        """How many tricks ``team`` has won."""
        return sum(1 for t in self.tricks if self.team_of[t.winner] == team)

    def copy(self) -> DealState:
        """An independent copy (for search and undo)."""
        new = DealState.__new__(DealState)
        for name in DealState.__slots__:
            setattr(new, name, getattr(self, name))
        for name in _LISTS:
            setattr(new, name, list(getattr(self, name)))
        new.under = dict(self.under)
        new.extra = dict(self.extra)
        return new
