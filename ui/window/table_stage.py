"""Where a table stands between deals: its :class:`Stage`, and the moves between stages.

A table is at :attr:`Stage.PLAY` while a deal is on (the bidding and the play), at
:attr:`Stage.REDEAL` while the cards of a deal everybody passed are gathered, at
:attr:`Stage.DEAL_OVER` or :attr:`Stage.MATCH_OVER` while the end-of-deal panel is up, and
(a network table, before its first deal) at :attr:`Stage.WAITING`.  :data:`MOVES` is every
move a driver may make; :meth:`Stage.to` refuses any other, so a new stage or a new move is
written here once.
"""

from __future__ import annotations

from enum import StrEnum


class Stage(StrEnum):
    """Where the table stands (a text too: ``Stage.PLAY == "play"``)."""

    PLAY = "play"
    """A deal is on: the bidding or the play."""
    REDEAL = "redeal"
    """Everybody passed twice: the cards are gathered, the next deal comes soon."""
    DEAL_OVER = "deal_over"
    """The deal is scored: its panel is up until the person goes on."""
    MATCH_OVER = "match_over"
    """The match is won: its panel is up (a new match, the start menu)."""
    WAITING = "waiting"
    """A network table before it starts: the lobby says where the others join."""

    @property
    def over(self) -> bool:
        """Whether a deal's panel is up (the deal or the match is over)."""
        return self in (Stage.DEAL_OVER, Stage.MATCH_OVER)

    def to(self, stage: Stage) -> Stage:
        """The stage after moving from this one to ``stage`` (one of :data:`MOVES`);
        any other move is a mistake of the driver's, said at once."""
        if stage not in MOVES[self]:
            raise ValueError(f"a table does not go from {self.value} to {stage.value}")
        return stage


MOVES: dict[Stage, frozenset[Stage]] = {
    # a table starts at PLAY: its driver then takes the match where it stands
    Stage.PLAY: frozenset(
        {Stage.PLAY, Stage.REDEAL, Stage.DEAL_OVER, Stage.MATCH_OVER, Stage.WAITING}
    ),
    Stage.REDEAL: frozenset({Stage.PLAY}),
    Stage.DEAL_OVER: frozenset({Stage.PLAY}),
    Stage.MATCH_OVER: frozenset(),  # for good: a new match is a new table
    Stage.WAITING: frozenset({Stage.PLAY}),
}
"""Each stage and the stages a table may go to from it."""


def after_deal(match_over: bool) -> Stage:
    """The stage once a scored deal's last trick is gathered."""
    return Stage.MATCH_OVER if match_over else Stage.DEAL_OVER
