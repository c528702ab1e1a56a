"""The labels of the Review screen: a decision's loss in points, in a player's words.

Kept apart from :mod:`~atout.ui.window.review_view` so that the help overlay can state
the thresholds without importing the screen.
"""

from __future__ import annotations

from atout.plugins.bots.review import FORCED
from atout.plugins.bots.review import UNVALUED
from atout.plugins.bots.review import Decision

from . import theme
from .widgets import Colour

SMALL_LOSS = 1.0
"""A loss below this many points is the best play (sampling noise aside)."""
MISTAKE = 10.0
"""From :data:`SMALL_LOSS` up to this, a small loss; from here, a mistake."""
BLUNDER = 30.0
"""From this many points lost, a blunder."""

LABEL_COLOURS: dict[str, Colour] = {
    "best": theme.GREEN_OK,
    "within noise": (70, 135, 110, 255),
    "small loss": (190, 150, 0, 255),
    "mistake": (215, 110, 20, 255),
    "blunder": theme.RED,
    "forced": (120, 120, 120, 255),
    "not valued": (120, 120, 120, 255),
}
"""The colour of each label (the text and the glow under the card played)."""

HELP_LINE = (
    f"loss <{SMALL_LOSS:g} best, <{MISTAKE:g} small, <{BLUNDER:g} mistake, else blunder; "
    "within noise"
)
"""The thresholds as the help overlay states them."""


def label(decision: Decision) -> str:
    """The decision's label from its reported loss: ``best``, ``small loss``,
    ``mistake`` or ``blunder``; ``within noise`` when another action's estimate was
    higher by a margin the samples do not prove (the loss reported is 0); ``forced`` for
    a single legal action, ``not valued`` when the review could not value it."""
    if decision.method == FORCED:
        return "forced"
    if decision.method == UNVALUED:
        return "not valued"
    if decision.within_noise:
        return "within noise"
    if decision.loss < SMALL_LOSS:
        return "best"
    if decision.loss < MISTAKE:
        return "small loss"
    if decision.loss < BLUNDER:
        return "mistake"
    return "blunder"
