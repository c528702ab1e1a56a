"""The Review screen's graph and step list, in plain functions: the value of each
decision and the graph's scale, a decision's chip, the labels' shapes.

They read a :class:`~atout.plugins.review.Decision` and draw with arcade's primitives;
the Review screen (:mod:`.review_view`) lays them out.
"""

from __future__ import annotations

import arcade
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.core.cards import parse_card
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_REDOUBLE
from atout.core.model import BidInfo
from atout.plugins.review import Decision

from ..cards_text import bid_short
from ..cards_text import show_card
from ..cards_text import strain_mark
from ..cards_text import value_words
from ..i18n import pgettext
from .widgets import Colour

SCALES = (50.0, 100.0, 200.0, 400.0, 800.0)
"""The graph's half-heights in points: the smallest that holds every value is used, so a
swing of a few points stays a few points high (never zoomed to fill the graph)."""

TURNED_COLOUR: Colour = (40, 90, 200, 255)
"""The colour of the graph's ``▲`` where a face-down card turned."""


def taken_value(decision: Decision) -> float | None:
    """The value of the action taken (the expected score difference after it)."""
    return next((v.value for v in decision.legal if v.action == decision.action), None)


def graph_values(decisions: list[Decision]) -> list[float]:
    """One value per decision for the graph: the value of the action taken, and for a
    decision without one (forced, not valued) the line through it: between the nearest
    valued decisions before and after it, or level with the only one there is (empty
    when no decision has a value)."""
    raw = [taken_value(d) for d in decisions]
    known = [i for i, v in enumerate(raw) if v is not None]
    if not known:
        return []
    out: list[float] = []
    for i, v in enumerate(raw):
        if v is not None:
            out.append(v)
            continue
        before = max((k for k in known if k < i), default=None)
        after = min((k for k in known if k > i), default=None)
        if before is None or after is None:
            near = before if before is not None else after
            assert near is not None
            out.append(float(raw[near] or 0.0))
            continue
        a, b = float(raw[before] or 0.0), float(raw[after] or 0.0)
        out.append(a + (b - a) * (i - before) / (after - before))
    return out


def graph_scale(values: list[float]) -> float:
    """The graph's half-height: the first of :data:`SCALES` holding every value (the
    largest when none does; the values beyond it are drawn at its edge)."""
    top = max((abs(v) for v in values), default=0.0)
    return next((s for s in SCALES if top <= s), SCALES[-1])


def chip_text(decision: Decision, info: BidInfo | None = None, compact: bool = False) -> str:
    """A decision in a few letters for the step list: the card (``J♥``) or the bid
    (``pass``, ``take``, a suit's symbol; with the engine's description of the bid,
    ``info``, as its button says it: ``90 ♥``, ``capot ♠``, ``Contre``).  ``compact``:
    a chip's width at most, for a panel short of room (``90♥``, ``cap♠``, and the
    multiplier the side bar writes for a contre, ``×2``, and a surcontre, ``×4``)."""
    action = decision.action
    if info is not None and decision.phase == "bidding":
        if compact and info.kind == BID_CONTRACT:
            return f"{value_words(info)[: 3 if info.capot else None]}{strain_mark(info)}"
        if compact and info.kind in (BID_DOUBLE, BID_REDOUBLE):
            return "×2" if info.kind == BID_DOUBLE else "×4"
        short = bid_short(info)
        if short is not None:
            return short
    if decision.phase == "play":
        try:
            return show_card(parse_card(action))
        except ValueError:
            return action[:4]
    if action in SUITS:
        return SUIT_SYMBOLS[SUITS.index(action)]
    if action == "take":
        return pgettext("review chip", "take")
    if action == "pass":
        return pgettext("review chip", "pass")
    return action.replace("-", " ")[:4]  # lower case: four letters fit a chip


def known_card(action: str, known: int) -> bool:
    """Whether the card ``action`` names is among ``known`` (not a card: yes)."""
    try:
        return bool(known >> parse_card(action) & 1)
    except ValueError:
        return True


def draw_shape(kind: str, x: float, y: float, r: float, colour: Colour) -> None:
    """A label's shape (:data:`~atout.ui.window.review_labels.LABEL_SHAPES`) centred on
    (``x``, ``y``), ``r`` its radius; ``up`` is the turned card's triangle."""
    if kind == "disc":
        arcade.draw_circle_filled(x, y, r, colour)
    elif kind == "ring":
        arcade.draw_circle_outline(x, y, r, colour, 2)
    elif kind in ("down", "open-down"):
        pts = (x - r, y + r * 0.8, x + r, y + r * 0.8, x, y - r)
        if kind == "down":
            arcade.draw_triangle_filled(*pts, colour)
        else:
            arcade.draw_triangle_outline(*pts, colour, 2)
    elif kind == "up":
        arcade.draw_triangle_filled(x - r, y - r * 0.8, x + r, y - r * 0.8, x, y + r, colour)
    elif kind == "cross":
        arcade.draw_line(x - r, y - r, x + r, y + r, colour, 3)
        arcade.draw_line(x - r, y + r, x + r, y - r, colour, 3)
    else:
        arcade.draw_circle_filled(x, y, r * 0.6, colour)
