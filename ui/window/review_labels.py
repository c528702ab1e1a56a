"""The labels of the Review screen: a decision's loss in points, in a player's words,
and the names it writes for an action reviewed (:func:`action_name`) and for the deal's
summary (:func:`summary_lines`).

Kept apart from :mod:`~atout.ui.window.review_view` so that the help overlay can state
the thresholds without importing the screen.  Every label has a colour *and* a shape
(:data:`LABEL_SHAPES`, drawn in the step list and the graph as the characters of
:data:`~atout.ui.review_words.LABEL_GLYPHS`, named in its legend), so that nothing is
told by colour alone; the words that explain a decision are
:mod:`atout.ui.review_words`'s, shared with ``atout review``.
"""

from __future__ import annotations

from atout.core import Engine
from atout.core import View
from atout.core.model import BidInfo
from atout.plugins.review import Decision
from atout.plugins.review import Summary
from atout.plugins.review import Valued

from ..cards_text import show_card
from ..i18n import _
from ..i18n import ngettext
from ..review_words import BLUNDER
from ..review_words import HELP_LINE
from ..review_words import LABEL_GLYPHS
from ..review_words import MISTAKE
from ..review_words import SMALL_LOSS
from ..review_words import TURNED_GLYPH
from ..review_words import action_words
from ..review_words import explanation
from ..review_words import face_down
from ..review_words import help_line
from ..review_words import label
from ..review_words import legend
from ..review_words import points
from ..review_words import spread
from ..review_words import summary_words
from ..review_words import turned_note
from ..review_words import verdict
from . import theme
from .widgets import Colour

LABEL_COLOURS: dict[str, Colour] = {
    "best": theme.GREEN_OK,
    "within noise": (70, 135, 110, 255),
    "small loss": (190, 150, 0, 255),
    "mistake": (215, 110, 20, 255),
    "blunder": theme.RED,
    "forced": (120, 120, 120, 255),
    "not valued": (120, 120, 120, 255),
}
"""The colour of each label (the text, the chip, the graph's mark, the glow under the card
played)."""

LABEL_SHAPES: dict[str, str] = {
    "best": "disc",
    "within noise": "ring",
    "small loss": "open-down",
    "mistake": "down",
    "blunder": "cross",
    "forced": "dot",
    "not valued": "dot",
}
"""How the screen draws each label's shape (the characters of
:data:`~atout.ui.review_words.LABEL_GLYPHS`, in primitives)."""


def action_name(engine: Engine, view: View, action: str, card: int | None = None) -> str:
    """An action of the review as the table writes it: a card ``J♥``, a bid as its
    button and bubble say it, from the engine's description of it (``80 ♣``,
    ``Contre``), else in words (``Pass``): :func:`~atout.ui.review_words.action_words`,
    as ``atout review`` says it."""
    if card is not None:
        return show_card(card)
    return action_words(engine, view, action)


def decision_bid(engine: Engine, decision: Decision, view: View | None) -> BidInfo | None:
    """The engine's description of ``decision``'s bid at its position ``view``
    (``None``: a card, or its position not replayed yet), for its chip."""
    if decision.phase != "bidding" or view is None:
        return None
    return engine.describe_bid(view.game, view.rules, decision.action)


MOST_VALUES = 8
"""The most legal actions whose values the panel lists (two columns of four): every card
of a hand, every bid of Belote and Découverte; of La Coinche's some forty bids the best
ones and the bid made (``atout review`` lists them all)."""
BRIEF_VALUES = 6
"""How many of a longer list the panel lists when it is short of room (the decision told
briefly): three rows and the line of those left out, no taller than a hand's eight."""


def values_shown(decision: Decision, most: int = MOST_VALUES) -> tuple[list[Valued], int]:
    """The legal actions the panel lists, best first (the highest value; ties: the action
    taken first): all of them up to :data:`MOST_VALUES`; of more, ``most``: the best, and
    the action taken wherever it ranks; and how many are left out (each worth less than
    those listed but the action taken)."""
    rows = sorted(
        decision.legal,
        key=lambda v: (v.value is None, -(v.value or 0.0), v.action != decision.action),
    )
    if len(rows) <= MOST_VALUES:
        return rows, 0
    shown = rows[:most]
    if all(v.action != decision.action for v in shown):
        shown = [*rows[: most - 1], *(v for v in rows if v.action == decision.action)]
    return shown, len(rows) - len(shown)


def more_values(count: int) -> str:
    """The line under the values listed that says how many were left out."""
    return ngettext(
        "and {count} more, valued lower", "and {count} more, valued lower", count
    ).format(count=count)


def summary_lines(summary: Summary) -> tuple[str, str]:
    """The deal's summary in two short lines (:func:`~atout.ui.review_words.summary_words`; the
    person's cards are the ones reviewed)."""
    first, second = summary_words(summary)
    if first == _("Not decided by a card reviewed"):
        first = _("Not decided by a card of yours")
    return first, second


__all__ = [
    "BLUNDER",
    "BRIEF_VALUES",
    "HELP_LINE",
    "LABEL_COLOURS",
    "LABEL_GLYPHS",
    "LABEL_SHAPES",
    "MISTAKE",
    "MOST_VALUES",
    "SMALL_LOSS",
    "TURNED_GLYPH",
    "action_name",
    "explanation",
    "face_down",
    "help_line",
    "label",
    "legend",
    "more_values",
    "points",
    "spread",
    "summary_lines",
    "summary_words",
    "turned_note",
    "values_shown",
    "verdict",
]
