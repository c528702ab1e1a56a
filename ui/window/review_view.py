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
  :data:`SMALL_LOSS`, :data:`MISTAKE`, :data:`BLUNDER`, stated in the help);
* a line graph of the expected score: the value of the action taken, decision by
  decision.

←/→ step, Home/End go to the first or last decision; Esc cancels the review (its
``cancel`` callable) and goes back to the end-of-deal panel.
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
        self.played_name = show_card(played) if played is not None else decision.action
        best_name = decision.best or decision.action
        self.best_name = show_card(best) if best is not None else best_name
        marks = [] if played is None else [(played, LABEL_COLOURS[label(decision)])]
        table.board.highlight(view, False, best, marks)
        self.build()

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
            if d.method not in (FORCED, UNVALUED):
                y -= 26
                best = self.best_name if d.best != d.action else "this one"
                layer.text(f"Loss {d.loss:.0f} points; best {best}", x, y, 12, theme.INK)
        elif self.finished:
            layer.text("No decision of yours to review.", x, y, 13, theme.INK)
        layer.text("Expected score", x, bottom + 178, 12, theme.INK_SOFT)
        layer.text("←/→ Home/End step, Esc back", x, bottom + 12, 12, theme.INK_SOFT)

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
        """The graph's points: one per valued decision with a value, x by decision."""
        left, right, bottom, top = self.graph_box()
        values = [(i, taken_value(d)) for i, d in enumerate(self.decisions)]
        shown = [(i, v) for i, v in values if v is not None]
        if not shown:
            return []
        low = min(0.0, *(v for _, v in shown))
        high = max(0.0, *(v for _, v in shown))
        span = high - low or 1.0
        steps = max(1, self.total - 1)
        return [
            (left + (right - left) * i / steps, bottom + (top - bottom) * (v - low) / span)
            for i, v in shown
        ]

    def draw_graph(self) -> None:
        left, right, bottom, top = self.graph_box()
        arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, theme.PANEL_EDGE, 1)
        points = self.graph_points()
        values = [v for v in map(taken_value, self.decisions) if v is not None]
        if values and min(values) < 0 < max(values):  # the zero line: even
            low, high = min(values), max(values)
            y0 = bottom + (top - bottom) * -low / (high - low)
            arcade.draw_line(left, y0, right, y0, theme.INK_SOFT, 1)
        if len(points) > 1:
            arcade.draw_line_strip(points, HINT_COLOUR, 2)
        if points and self.decisions:
            steps = max(1, self.total - 1)
            x = left + (right - left) * self.index / steps
            arcade.draw_line(x, bottom, x, top, theme.INK_SOFT, 1)
