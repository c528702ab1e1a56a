"""The rules' text as data, and the numbers it reads from the engine.

A page of the rules is a :class:`Page`: a title, paragraphs and small :class:`Example`
pictures of cards (:mod:`atout.ui.rules_pages` writes them, the window's Rules screen
draws them, :mod:`atout.ui.rules_text` writes them for the terminal).  The cards' order
and points, the dix de der and the tricks of a deal are never written again: a
:class:`Numbers` is read from the engine's compiled rules of a contract
(:meth:`atout.core.Engine.play_rules`).  The module imports no arcade.
"""

from __future__ import annotations

from dataclasses import dataclass

from atout.core import Contract
from atout.core import Engine
from atout.core import Rules
from atout.core.cards import SUITS
from atout.core.cards import parse_card
from atout.core.engine import PlayRules

from .cards_text import rank_letter
from .i18n import _

EXAMPLE_TRUMP = 0
"""The trump of the examples: clubs (the order and points are the same for any suit)."""
EXAMPLE_PLAIN = 2
"""The plain suit of the examples: hearts."""


@dataclass(frozen=True)
class Example:
    """A small picture of cards: a row of cards, each with a few words under it, and a
    caption.  ``None`` in ``cards`` is a face-down card (its back is drawn)."""

    cards: tuple[int | None, ...]
    caption: str
    labels: tuple[str, ...] = ()
    """Words under each card (its points, "yes" or "no"), as many as ``cards`` or none."""
    allowed: tuple[bool, ...] = ()
    """Which cards may be played (the others are drawn washed), or empty: all drawn alike."""
    stacked: bool = False
    """Draw the cards in pairs, each face-up card over a face-down one (Découverte's
    piles): ``cards`` then alternates a face-up card and ``None``."""
    trick: tuple[int, ...] = ()
    """For an example of what may be played: the cards already in the trick, in order,
    the last played by the seat just before the player's."""
    trump: int | None = None
    """And the trump suit (the tests play the example through the engine)."""


Block = str | Example
"""A page is paragraphs and pictures, in order."""


@dataclass(frozen=True)
class Page:
    """One page of the rules: a title and its blocks."""

    title: str
    blocks: tuple[Block, ...]


def cards(text: str) -> tuple[int, ...]:
    """Cards from their text (``"JC 9C AC"``), for the examples."""
    return tuple(parse_card(word) for word in text.split())


# --- what the engine knows ------------------------------------------------------------------


@dataclass(frozen=True)
class Numbers:
    """The numbers of a game as its rules compile them: read, never written again."""

    trump_order: tuple[int, ...]
    """The ranks of a trump suit, highest first (indexes into ``RANKS``)."""
    plain_order: tuple[int, ...]
    """The ranks of another suit, highest first."""
    trump_points: tuple[int, ...]
    """The points of each rank (``RANKS`` order) in trumps."""
    plain_points: tuple[int, ...]
    """The points of each rank in another suit."""
    last_trick: int
    """The dix de der: what the last trick adds."""
    card_total: int
    """The cards' points in a deal (152)."""
    tricks: int
    """How many tricks a deal has."""

    @property
    def deal_total(self) -> int:
        """The points of a deal, cards and dix de der (162)."""
        return self.card_total + self.last_trick

    @property
    def half(self) -> int:
        """Half the points of a deal (81): the taker needs more."""
        return self.deal_total // 2


def numbers(engine: Engine, rules: Rules) -> Numbers:
    """The order and points of the cards, the dix de der and the tricks of a deal, from
    the engine's rules of a contract in :data:`EXAMPLE_TRUMP`."""
    compiled = engine.play_rules(
        rules.game, rules, Contract(0, EXAMPLE_TRUMP, SUITS[EXAMPLE_TRUMP])
    )
    return Numbers(
        trump_order=_order(compiled, EXAMPLE_TRUMP),
        plain_order=_order(compiled, EXAMPLE_PLAIN),
        trump_points=tuple(compiled.points[EXAMPLE_TRUMP * 8 + r] for r in range(8)),
        plain_points=tuple(compiled.points[EXAMPLE_PLAIN * 8 + r] for r in range(8)),
        last_trick=compiled.values.last_trick,
        card_total=sum(compiled.points),
        tricks=compiled.tricks,
    )


def _order(compiled: PlayRules, suit: int) -> tuple[int, ...]:
    """The ranks of ``suit``, highest first: a card is beaten by the cards above it
    (the trick-winner table's ``beats[c]``: the cards that take the lead from ``c``)."""
    mask = 0xFF << (suit * 8)

    def above(rank: int) -> int:
        return (compiled.beats[suit * 8 + rank] & mask).bit_count()

    return tuple(sorted(range(8), key=above))


def order_text(order: tuple[int, ...]) -> str:
    """Ranks highest first: ``J 9 A 10 K Q 8 7`` (in the chosen language's letters)."""
    return " ".join(rank_letter(r) for r in order)


def points_text(order: tuple[int, ...], points: tuple[int, ...]) -> str:
    """The ranks that score, in order, with their points: ``J 20, 9 14, ...``; the
    others "nothing"."""
    scoring = [f"{rank_letter(r)} {points[r]}" for r in order if points[r]]
    nothing = [rank_letter(r) for r in order if not points[r]]
    text = ", ".join(scoring)
    if nothing:
        text += _("; {ranks} nothing").format(ranks=" ".join(nothing))
    return text


__all__ = [
    "EXAMPLE_PLAIN",
    "EXAMPLE_TRUMP",
    "Block",
    "Example",
    "Numbers",
    "Page",
    "cards",
    "numbers",
    "order_text",
    "points_text",
]
