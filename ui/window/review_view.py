"""The Review screen: the deal just played, decision by decision, as the person saw it.

A :class:`ReviewMode` is a mode of the table (like its overlays): opened from the
end-of-deal panel (its *Review* button or ``R``), it values the person's decisions
with :func:`~atout.plugins.bots.review.review_record` on a plain daemon thread (the
bot process stays free for the bots, and the table never waits: the frame loop only
reads a queue), and shows:

* a progress bar, decisions valued out of :attr:`DealReview.total`;
* the position at the chosen decision, replayed with the engine from the deal's
  record and drawn by the table's own board and layout (the person's ``View``: what
  they knew then, never the deal's state);
* the card played (a glow in its label's colour) and the best alternative (the
  hint's frame);
* the decision's label, from its loss in points (:func:`label`, thresholds
  :data:`SMALL_LOSS`, :data:`MISTAKE`, :data:`BLUNDER`, stated in the help; *within
  noise* when another action only looked better by a margin the samples do not prove);
* the step list: one chip per decision, bids and cards alike, in its label's colour,
  the one shown outlined (a click on a chip shows its decision);
* a line graph of the expected score: the value of the action taken, decision by
  decision, a dot in its label's colour on each; a forced decision (or one not valued)
  has no value of its own, the line goes through it (between its neighbours' values).

←/→ step, Home/End go to the first or last decision, a click on a chip to its
decision; Esc cancels the review (its ``cancel`` callable) and goes back to the
end-of-deal panel.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any
from typing import Protocol

import arcade
from atout.core import Action
from atout.core import Engine
from atout.core import Trick
from atout.core import View
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.core.cards import parse_card
from atout.core.records import deal_from_record
from atout.plugins.bots.review import FORCED
from atout.plugins.bots.review import UNVALUED
from atout.plugins.bots.review import DealReview
from atout.plugins.bots.review import Decision
from atout.plugins.bots.review import ReviewCancelled
from atout.plugins.bots.review import ReviewOptions
from atout.plugins.bots.review import review_record

from ..cards_text import HUMAN
from ..cards_text import capital
from ..cards_text import show_card
from . import theme
from .board import HINT_COLOUR
from .board import Board
from .frame import Frame
from .review_labels import LABEL_COLOURS
from .review_labels import label
from .widgets import Layer
from .words import bid_text


class ReviewedTable(Protocol):
    """What the Review screen asks of the table it is shown on (the table's own board
    and layout draw each position): :class:`~atout.ui.window.table_base.TableView`."""

    engine: Engine
    view: View | None
    board: Board
    frame: Frame

    def relayout(self, won: Trick | None, animate: bool) -> None: ...

    def after_change(self) -> None: ...

    def close_review(self) -> None: ...


def taken_value(decision: Decision) -> float | None:
    """The value of the action taken (the expected score difference after it)."""
    return next((v.value for v in decision.legal if v.action == decision.action), None)


def _value_of(decision: Decision, action: str | None) -> float:
    """The value of ``action`` among the decision's legal actions (0 when it has none)."""
    return next((v.value or 0.0 for v in decision.legal if v.action == action), 0.0)


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


def chip_text(decision: Decision) -> str:
    """A decision in a few letters for the step list: the card (``J♥``) or the bid
    (``Pass``, ``Take``, a suit's symbol)."""
    action = decision.action
    if decision.phase == "play":
        try:
            return show_card(parse_card(action))
        except ValueError:
            return action[:4]
    if action in SUITS:
        return SUIT_SYMBOLS[SUITS.index(action)]
    return capital(action.replace("-", " "))[:4]


@dataclass(frozen=True)
class _Done:
    """The thread's last message: ``error`` is why it stopped early (``""``: finished)."""

    error: str = ""


class ReviewMode:
    """The Review screen over ``table``: the review thread, the decision shown, its panel."""

    def __init__(
        self, table: ReviewedTable, record: dict[str, Any], options: ReviewOptions
    ) -> None:
        self.table = table
        self.record = record
        self.stop = threading.Event()
        self.review: DealReview = review_record(
            table.engine, record, options=options, seats=[HUMAN], cancel=self.stop.is_set
        )
        self.total = self.review.total
        self.decisions: list[Decision] = []
        self.index = 0
        """The decision shown (an index into :attr:`decisions`)."""
        self.finished = False
        self.error = ""
        self.inbox: queue.Queue[Decision | _Done] = queue.Queue()
        self.layer = Layer()
        self.chips: list[tuple[float, float]] = []
        """The middle of each decision's chip in the step list, as last built (clicks)."""
        self.played_name = ""
        """The action taken at the decision shown, as the table writes it (``J♥``)."""
        self.best_name = ""
        """The best action there, as the table writes it."""
        self.thread = threading.Thread(target=self._run, name="atout-review", daemon=True)
        self.thread.start()

    # --- the worker thread ----------------------------------------------------------------

    def _run(self) -> None:
        """Value the decisions one by one and post each (never touches the table)."""
        try:
            for decision in self.review.decisions():
                self.inbox.put(decision)
        except ReviewCancelled:
            return
        except Exception as exc:  # the table must survive a review that fails
            self.inbox.put(_Done(str(exc) or type(exc).__name__))
            return
        self.inbox.put(_Done())

    def cancel(self) -> None:
        """Ask the thread to stop (it reads this between samples and decisions)."""
        self.stop.set()

    # --- the frame loop ---------------------------------------------------------------------

    def poll(self) -> None:
        """Take what the thread has valued since the last frame."""
        changed = False
        while True:
            try:
                item = self.inbox.get_nowait()
            except queue.Empty:
                break
            changed = True
            if isinstance(item, _Done):
                self.finished = True
                self.error = item.error
            else:
                self.decisions.append(item)
                if len(self.decisions) == 1:
                    self.show(0)
        if changed:
            self.build()

    @property
    def done(self) -> int:
        """How many decisions are valued so far."""
        return len(self.decisions)

    def on_click(self, x: float, y: float) -> bool:
        """A click at the logical point (``x``, ``y``): a chip of the step list puts its
        decision on the table.  Whether a chip was hit."""
        half_w, half_h = self.CHIP_W / 2, self.CHIP_H / 2
        for i, (cx, cy) in enumerate(self.chips):
            if abs(x - cx) <= half_w and abs(y - cy) <= half_h:
                if i != self.index:
                    self.show(i)
                return True
        return False

    def on_key(self, symbol: int) -> None:
        """←/→ one decision, Home/End the first or last valued one, Esc back."""
        k = arcade.key
        last = self.done - 1
        if symbol == k.ESCAPE:
            self.table.close_review()
        elif symbol == k.LEFT and self.index > 0:
            self.show(self.index - 1)
        elif symbol == k.RIGHT and self.index < last:
            self.show(self.index + 1)
        elif symbol == k.HOME and last >= 0:
            self.show(0)
        elif symbol == k.END and last >= 0:
            self.show(last)

    # --- the position -----------------------------------------------------------------------

    def position(self, decision: Decision) -> View:
        """The person's view just before ``decision``: the record replayed up to it."""
        engine = self.table.engine
        full = deal_from_record(engine, self.record, "record")
        start = dict(self.record)
        start["actions"] = []
        start.pop("result", None)
        deal = deal_from_record(engine, start, "record")
        for _, action in full.actions[: decision.step - 1]:
            deal.apply(action)
        return deal.view(HUMAN)

    def show(self, index: int) -> None:
        """Put decision ``index`` on the table: its position, the card played lit in its
        label's colour and the best alternative framed."""
        self.index = index
        decision = self.decisions[index]
        view = self.position(decision)
        table = self.table
        table.view = view
        table.relayout(None, animate=False)
        table.after_change()
        played = self._card(view, decision.action)
        best = self._card(view, decision.best) if decision.best != decision.action else None
        self.played_name = self._name(view, decision.action, played)
        self.best_name = self._name(view, decision.best or decision.action, best)
        marks = [] if played is None else [(played, LABEL_COLOURS[label(decision)])]
        table.board.highlight(view, False, best, marks)
        self.build()

    @staticmethod
    def _name(view: View, action: str, card: int | None) -> str:
        """An action as the table writes it: a card ``J♥``, a bid in words."""
        if card is not None:
            return show_card(card)
        return bid_text(action, view) if view.phase == "bidding" else action

    @staticmethod
    def _card(view: View, name: str | None) -> int | None:
        """The card called ``name`` among ``view``'s legal actions (``None`` for a bid)."""
        if name is None or view.phase != "play":
            return None
        action: Action | None = next((a for a in view.legal_actions() if str(a) == name), None)
        return action.value if action is not None and action.kind == "play" else None

    # --- the panel --------------------------------------------------------------------------

    def panel_box(self) -> tuple[float, float, float, float]:
        """The panel's left, right, bottom and top: the side bar above its buttons (it
        covers the side bar's words, the score sheet is not drawn meanwhile)."""
        frame = self.table.frame
        return frame.table_right + 2, frame.width - 2, 140.0, frame.height - 2

    def bar_box(self) -> tuple[float, float, float, float]:
        left, right, _, top = self.panel_box()
        return left + 16, right - 16, top - 96, top - 84

    def graph_box(self) -> tuple[float, float, float, float]:
        left, right, bottom, _ = self.panel_box()
        return left + 16, right - 16, bottom + 40, bottom + 164

    def build(self) -> None:
        """The panel's plate and texts for the decision shown (rebuilt when it changes)."""
        layer = Layer()
        self.layer = layer
        left, right, bottom, top = self.panel_box()
        layer.plate(arcade.LRBT(left, right, bottom, top), theme.PANEL, theme.PANEL_EDGE, 14, 3)
        x = left + 16
        layer.text("Review of the deal", x, top - 34, 18, theme.INK, bold=True)
        state = (
            f"Stopped: {self.error}"
            if self.error
            else ("All valued" if self.finished else "Valuing")
        )
        layer.text(f"{state}: {self.done} / {self.total}", x, top - 66, 12, theme.INK_SOFT)
        y = top - 130
        if self.decisions:
            d = self.decisions[self.index]
            name = label(d)
            where = f"trick {d.trick}" if d.phase == "play" else "bidding"
            layer.text(f"Decision {self.index + 1} of {self.done}, {where}", x, y, 13, theme.INK)
            y -= 30
            verb = "played" if d.phase == "play" else "bid"
            layer.text(f"You {verb} {self.played_name}", x, y, 15, theme.INK, bold=True)
            y -= 28
            colour = LABEL_COLOURS[name]
            layer.text(capital(name), x, y, 15, colour, bold=True)
            if d.within_noise and d.loss_interval is not None:
                y -= 26
                looked = _value_of(d, d.best) - (taken_value(d) or 0.0)
                layer.text(f"{self.best_name} looked {looked:.0f} better,", x, y, 12, theme.INK)
                y -= 20
                low, high = d.loss_interval
                layer.text(f"not proved (95%: {low:.0f} to {high:.0f})", x, y, 12, theme.INK)
            elif d.method not in (FORCED, UNVALUED):
                y -= 26
                best = self.best_name if d.best != d.action else "this one"
                layer.text(f"Loss {d.loss:.0f} points; best {best}", x, y, 12, theme.INK)
            self.build_steps(layer, top - 262)
        elif self.finished:
            layer.text("No decision of yours to review.", x, y, 13, theme.INK)
        layer.text("Expected score", x, bottom + 178, 12, theme.INK_SOFT)
        layer.text("←/→ Home/End step, Esc back", x, bottom + 12, 12, theme.INK_SOFT)

    CHIP_W = 42.0
    CHIP_H = 24.0
    CHIP_GAP = 2.0

    def build_steps(self, layer: Layer, top: float) -> None:
        """The step list from ``top`` down: a chip per decision valued, bids and cards
        alike, filled in its label's colour; the one shown outlined in ink."""
        left, right, _, _ = self.panel_box()
        x0 = left + 16
        per_row = max(1, int((right - left - 32 + self.CHIP_GAP) // (self.CHIP_W + self.CHIP_GAP)))
        self.chips = []
        for i, d in enumerate(self.decisions):
            row, col = divmod(i, per_row)
            cx = x0 + col * (self.CHIP_W + self.CHIP_GAP) + self.CHIP_W / 2
            cy = top - row * (self.CHIP_H + self.CHIP_GAP) - self.CHIP_H / 2
            self.chips.append((cx, cy))
            shown = i == self.index
            colour = LABEL_COLOURS[label(d)]
            fill = (colour[0], colour[1], colour[2], 90)
            edge = theme.INK if shown else colour
            rect = arcade.XYWH(cx, cy, self.CHIP_W, self.CHIP_H)
            layer.plate(rect, fill, edge, 5, 3 if shown else 1)
            text = chip_text(d)
            layer.text(text, cx, cy, 12, theme.INK, anchor_x="center", anchor_y="center")

    def draw(self) -> None:
        """The panel, the progress bar and the graph (a few draw calls)."""
        self.layer.draw()
        left, right, bottom, top = self.bar_box()
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, (0, 0, 0, 60))
        share = self.done / self.total if self.total else 1.0
        if share > 0:
            fill = left + (right - left) * share
            arcade.draw_lrbt_rectangle_filled(left, fill, bottom, top, theme.GREEN_OK)
        self.draw_graph()

    def graph_points(self) -> list[tuple[float, float]]:
        """The graph's points: one per valued decision (:func:`graph_values`: a forced
        one on the line through it), x by decision, y from the lowest value (or 0) to
        the highest (or 0)."""
        left, right, bottom, top = self.graph_box()
        values = graph_values(self.decisions)
        if not values:
            return []
        low = min(0.0, *values)
        high = max(0.0, *values)
        span = high - low or 1.0
        steps = max(1, self.total - 1)
        return [
            (left + (right - left) * i / steps, bottom + (top - bottom) * (v - low) / span)
            for i, v in enumerate(values)
        ]

    def draw_graph(self) -> None:
        left, right, bottom, top = self.graph_box()
        arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, theme.PANEL_EDGE, 1)
        points = self.graph_points()
        values = graph_values(self.decisions)
        if values and min(values) < 0 < max(values):  # the zero line: even
            low, high = min(values), max(values)
            y0 = bottom + (top - bottom) * -low / (high - low)
            arcade.draw_line(left, y0, right, y0, theme.INK_SOFT, 1)
        if len(points) > 1:
            arcade.draw_line_strip(points, HINT_COLOUR, 2)
        for (px, py), d in zip(points, self.decisions, strict=False):
            arcade.draw_circle_filled(px, py, 3.5, LABEL_COLOURS[label(d)])
        if points and self.decisions:
            steps = max(1, self.total - 1)
            x = left + (right - left) * self.index / steps
            arcade.draw_line(x, bottom, x, top, theme.INK_SOFT, 1)
