"""The Review screen: the deal just played, decision by decision, as the person saw it.

A :class:`ReviewMode` is a mode of the table (like its overlays): opened from the
end-of-deal panel (its *Review* button or ``R``), it values the person's decisions
with :func:`~atout.plugins.review.review_record` on a plain daemon thread (the
bot process stays free for the bots, and the table never waits: the frame loop only
reads a queue), and shows:

* a progress bar, decisions valued out of :attr:`DealReview.total`, and once every
  decision is valued the deal's summary in two lines (where the contract was decided,
  the biggest loss: the review's :class:`~atout.plugins.review.Summary`, as
  ``atout review`` prints it);
* the position at the chosen decision, replayed with the engine from the deal's
  record and drawn by the table's own board and layout (the person's ``View``: what
  they knew then, never the deal's state);
* the card played (a glow in its label's colour) and the best alternative (the
  hint's frame); in the bidding the proposed card (the turn-up) lit as the table lights it
  and named;
* the decision's label with its shape and colour (:mod:`.review_labels`: thresholds
  :data:`SMALL_LOSS`, :data:`MISTAKE`, :data:`BLUNDER`), every legal action with its
  value (``±`` its 95% interval when estimated), best first, the one taken marked
  ``▶`` and the best (when another) ``★``, a sentence saying what the label rests on
  (:func:`~atout.ui.review_words.explanation`), and where the margin fell while a
  face-down card turned, a line saying so (:func:`~atout.ui.review_words.turned_note`);
* the step list: one chip per decision, bids and cards alike, with its label's shape
  and colour, the one shown outlined (a click on a chip shows its decision); a later
  card the person had not yet seen at the decision shown is a ``?``;
* the graph of the person's side's expected margin (its score less the other side's,
  the value of the action taken), on a fixed symmetric scale in points
  (:data:`~.review_graph.SCALES`) with its values written, the tricks numbered along the bottom, each
  decision marked with its label's shape, and a ``▲`` where a face-down card turned
  since the decision before (larger where the margin fell by :data:`MISTAKE` points or
  more): a drop there may be new information, not a mistake.  A
  forced decision (or one not valued) has no value of its own, the line goes through it.

←/→ step, Home/End go to the first or last decision, a click on a chip to its
decision; Esc cancels the review (its ``cancel`` callable) and goes back to the
end-of-deal panel.
"""

from __future__ import annotations

import math
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
from atout.core.engine import Deal
from atout.core.records import deal_from_record
from atout.plugins.review import FORCED
from atout.plugins.review import UNVALUED
from atout.plugins.review import DealReview
from atout.plugins.review import Decision
from atout.plugins.review import ReviewCancelled
from atout.plugins.review import ReviewOptions
from atout.plugins.review import Summary
from atout.plugins.review import review_record

from ..cards_text import HUMAN
from ..cards_text import show_card
from ..i18n import _
from ..review_words import action_words
from . import theme
from .board import HINT_COLOUR
from .board import Board
from .frame import Frame
from .review_graph import TURNED_COLOUR
from .review_graph import chip_text
from .review_graph import draw_shape
from .review_graph import graph_scale
from .review_graph import graph_values
from .review_graph import known_card
from .review_labels import BRIEF_VALUES
from .review_labels import LABEL_COLOURS
from .review_labels import LABEL_SHAPES
from .review_labels import MOST_VALUES
from .review_labels import TURNED_GLYPH
from .review_labels import action_name
from .review_labels import decision_bid
from .review_labels import explanation
from .review_labels import face_down
from .review_labels import label
from .review_labels import legend
from .review_labels import more_values
from .review_labels import points
from .review_labels import spread
from .review_labels import summary_lines
from .review_labels import turned_note
from .review_labels import values_shown
from .review_labels import verdict
from .widgets import Layer
from .widgets import shrink_to


class ReviewedTable(Protocol):
    """What the Review screen asks of the table it is shown on (the table's own board
    and layout draw each position): :class:`~atout.ui.window.table.Table`."""

    engine: Engine
    view: View | None
    board: Board
    frame: Frame

    def relayout(self, won: Trick | None, animate: bool) -> None: ...

    def after_change(self) -> None: ...

    def close_review(self) -> None: ...


@dataclass(frozen=True)
class _Done:
    """The thread's last message: ``error`` is why it stopped early (``""``: finished);
    ``summary`` the deal's summary when every decision was valued."""

    error: str = ""
    summary: Summary | None = None


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
        self.views: list[View] = []
        """The person's view at each decision valued (what they knew then)."""
        self.turned: list[bool] = []
        """Per decision: whether a face-down card turned since the decision before."""
        self.index = 0
        """The decision shown (an index into :attr:`decisions`)."""
        self.finished = False
        self.error = ""
        self.summary: Summary | None = None
        self.inbox: queue.Queue[Decision | _Done] = queue.Queue()
        self.layer = Layer()
        self.chips: list[tuple[float, float]] = []
        """The middle of each decision's chip in the step list, as last built (clicks)."""
        self.chip_widths: list[float] = []
        """The width of each chip (a bid's words may take more than a card's)."""
        self.played_name = ""
        """The action taken at the decision shown, as the table writes it (``J♥``)."""
        self.best_name = ""
        """The best action there, as the table writes it."""
        self.graph_rect: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
        """The graph's left, right, bottom and top, as last built."""
        self.brief = False
        """Whether the panel, short of room, tells the decision briefly."""
        self._replay: Deal | None = None
        self._replayed = 0
        self._actions: list[tuple[int, Action]] = []
        self.thread = threading.Thread(target=self._run, name="atout-review", daemon=True)
        self.thread.start()

    # --- the worker thread ----------------------------------------------------------------

    def _run(self) -> None:
        """Value the decisions one by one and post each (never touches the table)."""
        try:
            for decision in self.review.decisions():
                self.inbox.put(decision)
            summary = self.review.summary()
        except ReviewCancelled:
            return
        except Exception as exc:  # the table must survive a review that fails
            self.inbox.put(_Done(str(exc) or type(exc).__name__))
            return
        self.inbox.put(_Done(summary=summary))

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
                self.summary = item.summary
            else:
                self.decisions.append(item)
                view = self.position(item)
                self.turned.append(bool(self.views) and face_down(view) < face_down(self.views[-1]))
                self.views.append(view)
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
        half_h = self.CHIP_H / 2
        for i, ((cx, cy), w) in enumerate(zip(self.chips, self.chip_widths, strict=False)):
            if abs(x - cx) <= w / 2 and abs(y - cy) <= half_h:
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
        """The person's view just before ``decision``: the record replayed up to it (one
        replay carried forward as the decisions come, in order; from the start for an
        earlier one)."""
        engine = self.table.engine
        target = decision.step - 1
        if self._replay is None or self._replayed > target:
            start = dict(self.record)
            start["actions"] = []
            start.pop("result", None)
            self._replay = deal_from_record(engine, start, "record")
            self._replayed = 0
            self._actions = deal_from_record(engine, self.record, "record").actions
        deal = self._replay
        for _seat, action in self._actions[self._replayed : target]:
            deal.apply(action)
        self._replayed = target
        return deal.view(HUMAN)

    def show(self, index: int) -> None:
        """Put decision ``index`` on the table: its position, the card played lit in its
        label's colour and the best alternative framed."""
        self.index = index
        decision = self.decisions[index]
        view = self.views[index] if index < len(self.views) else self.position(decision)
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

    def _name(self, view: View, action: str, card: int | None = None) -> str:
        """An action as the table writes it: a card ``J♥``, a bid in words."""
        return action_name(self.table.engine, view, action, card)

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
        left, right, _skip, top = self.panel_box()
        return left + 16, right - 16, top - 52, top - 44

    def graph_box(self) -> tuple[float, float, float, float]:
        """The graph's left, right, bottom and top (laid out by :meth:`build`)."""
        return self.graph_rect

    CHIP_W = 42.0
    CHIP_H = 21.0
    CHIP_GAP = 2.0
    LINE = 18.0
    """The distance between two lines of the panel's small text."""

    MIN_GRAPH = 40.0
    """The graph's least height; below it the decision's text is told briefly."""

    def build(self) -> None:
        """The panel's plate and texts for the decision shown (rebuilt when it changes),
        laid out from the top down (the summary, the decision, its values, the step
        list, the graph as tall as the room allows, its legend) and the keys at the
        bottom; when the graph would be too short, again with the decision told briefly
        (without the note on a turned card: the graph's ``▲`` still says it)."""
        if not self._build(brief=False):
            self._build(brief=True)

    def _build(self, brief: bool) -> bool:
        """One layout of the panel; whether the graph got its least height."""
        self.brief = brief
        layer = Layer()
        self.layer = layer
        left, right, bottom, top = self.panel_box()
        layer.plate(arcade.LRBT(left, right, bottom, top), theme.PANEL, theme.PANEL_EDGE, 14, 3)
        x, x_end = left + 16, right - 16
        layer.text(_("Review"), x, top - 32, 18, theme.INK, bold=True)
        state = (
            _("Stopped: {problem}").format(problem=self.error)
            if self.error
            else (_("All valued") if self.finished else _("Valuing"))
        )
        layer.text(
            _("{state}: {done}/{total}").format(state=state, done=self.done, total=self.total),
            x_end,
            top - 32,
            12,
            theme.INK_SOFT,
            anchor_x="right",
        )
        if self.summary is not None:
            first, second = summary_lines(self.summary)
            layer.text(first, x, top - 72, 12, theme.INK)
            layer.text(second, x, top - 72 - self.LINE, 12, theme.INK)
        y = top - 120
        if self.decisions:
            y = self.build_decision(layer, x, x_end, y)
            y = self.build_steps(layer, y - 6)
        elif self.finished:
            layer.text(_("No decision of yours to review."), x, y, 13, theme.INK)
            y -= 30
        # the graph under the step list, as tall as the room allows (within bounds), its
        # legend under it, the keys at the bottom
        layer.text(_("←/→ Home/End step, Esc back"), x, bottom + 10, 12, theme.INK_SOFT)
        below = 26 + len(legend()) * self.LINE + 4  # the tricks' numbers, the legend
        lowest = bottom + 30 + below
        g_top = y - 34
        fits = g_top - lowest >= self.MIN_GRAPH
        g_bottom = max(lowest, g_top - 220)
        g_top = max(g_top, g_bottom + self.MIN_GRAPH)
        self.graph_rect = (x + 40, x_end - 4, g_bottom, g_top)
        for i, line in enumerate(legend()):
            layer.text(line, x, g_bottom - 40 - i * self.LINE, 12, theme.INK)
        view = self.table.view
        title = (
            _("Your team's expected margin")
            if view is not None and view.seats > 2
            else _("Your expected margin, points")
        )
        layer.text(title, x, g_top + 14, 12, theme.INK_SOFT)
        self.build_axes(layer)
        return fits

    def build_decision(self, layer: Layer, x: float, x_end: float, y: float) -> float:
        """The decision shown: what was done, its label, every legal action's value, and
        why; the ``y`` below it."""
        d = self.decisions[self.index]
        view = self.views[self.index] if self.index < len(self.views) else None
        did = _("You played {what}") if d.phase == "play" else _("You bid {what}")
        said = layer.text(did.format(what=self.played_name), x, y, 15, theme.INK, bold=True)
        shrink_to(said, x_end - x)
        where = _("trick {number}").format(number=d.trick) if d.phase == "play" else _("bidding")
        y -= 24
        # the points lost are in the sentence below
        shown = layer.text(verdict(d, lost=False), x, y, 14, LABEL_COLOURS[label(d)], bold=True)
        if d.phase == "bidding" and view is not None and view.turnup is not None:
            where = _("proposed {card}").format(card=show_card(view.turnup))  # the card bid on
        aside = layer.text(where, x_end, y, 12, theme.INK_SOFT, anchor_x="right")
        # the label and what it is about share the line while they fit (a translation may
        # be longer): the label smaller, else the second goes to a line of its own
        if not shrink_to(shown, x_end - x - aside.content_width - 8):
            y -= 18
            aside.y = y
        y -= 22
        if d.method not in (FORCED, UNVALUED):  # else no values: the sentence says why
            head = layer.text("", x, y, 12, theme.INK_SOFT)
            y -= self.LINE
            y, spreads = self.build_values(layer, d, view, x, x_end, y)
            head.text = _("▶ yours, ★ best, ± 95%") if spreads else _("▶ yours, ★ best")
        text = explanation(d, self.best_name, self.played_name)
        note = layer.text(
            text, x, y + 10, 12, theme.INK, anchor_y="top", width=int(x_end - x), multiline=True
        )
        y = y + 10 - note.content_height
        if not self.brief and 0 < self.index < len(self.turned):
            before = graph_values(self.decisions)[self.index - 1]
            words = turned_note(before, d, self.turned[self.index])
            if words:
                turned = layer.text(
                    words,
                    x,
                    y - 2,
                    12,
                    TURNED_COLOUR,
                    anchor_y="top",
                    width=int(x_end - x),
                    multiline=True,
                )
                y = y - 2 - turned.content_height
        return y

    def build_values(
        self, layer: Layer, d: Decision, view: View | None, x: float, x_end: float, y: float
    ) -> tuple[float, bool]:
        """The legal actions and their values (:func:`values_shown`, best first; the one
        taken ``▶``, the best ``★``) in two columns, with their 95% intervals when they fit
        (the explanation gives the loss's).  The ``y`` below, and whether they are written."""
        rows, hidden = values_shown(d, BRIEF_VALUES if self.brief else MOST_VALUES)
        half = (x_end - x) / 2
        texts: list[arcade.Text] = []
        spreads = True
        for spreads in (True, False):
            texts = []
            for v in rows:
                mark = "▶" if v.action == d.action else "★" if v.action == d.best else ""
                name = action_words(self.table.engine, view, v.action)
                value = "–" if v.value is None else points(v.value)
                extra = f" {spread(v.low, v.high)}" if spreads else ""
                texts.append(
                    layer.text(f"{mark}{name} {value}{extra}".rstrip(), x, y, 12, theme.INK)
                )
            if not spreads or all(t.content_width <= half - 2 for t in texts):
                break
            for t in texts:
                layer.texts.remove(t)
                t.visible = False
        columns = 2 if len(texts) > 1 and all(t.content_width <= half - 2 for t in texts) else 1
        per_column = math.ceil(len(texts) / columns)
        for i, t in enumerate(texts):
            col, row = divmod(i, per_column)
            t.x = x + col * (half + 2)
            t.y = y - row * self.LINE
        if hidden:  # La Coinche's forty bids: the best, the one made, how many more
            per_column += 1
            below = y - (per_column - 1) * self.LINE
            shrink_to(layer.text(more_values(hidden), x, below, 12, theme.INK_SOFT), x_end - x)
        return y - per_column * self.LINE, spreads

    def build_steps(self, layer: Layer, top: float) -> float:
        """The step list from ``top`` down: a chip per decision valued, bids and cards
        alike, filled in its label's colour with its shape (drawn by :meth:`draw`); the
        one shown outlined in ink.  A chip is :attr:`CHIP_W` wide, wider for a bid whose
        words need it (``Surcontre``; told briefly, a bid's chip is written compact:
        ``×4``); the chips fill each row in turn.  The ``y`` below
        it."""
        left, right, _skip, _skip2 = self.panel_box()
        x0, x_end = left + 16, right - 16
        self.chips = []
        self.chip_widths = []
        known = self.views[self.index].known_cards() if self.index < len(self.views) else 0
        x, row = x0, 0
        for i, d in enumerate(self.decisions):
            shown = i == self.index
            bid = decision_bid(self.table.engine, d, self.views[i] if i < len(self.views) else None)
            text = chip_text(d, bid, compact=self.brief)
            if d.phase == "play" and i > self.index and not known_card(d.action, known):
                text = "?"  # a card the person had not yet seen at the decision shown
            written = layer.text(text, 0, 0, 12, theme.INK, anchor_x="center", anchor_y="center")
            wide = max(self.CHIP_W, min(x_end - x0, written.content_width + 6))
            width = self.CHIP_W if self.brief else wide
            if x > x0 and x + width > x_end + 0.5:
                x, row = x0, row + 1
            cx = x + width / 2
            cy = top - row * (self.CHIP_H + self.CHIP_GAP) - self.CHIP_H / 2
            x += width + self.CHIP_GAP
            self.chips.append((cx, cy))
            self.chip_widths.append(width)
            colour = LABEL_COLOURS[label(d)]
            fill = (colour[0], colour[1], colour[2], 60)
            edge = theme.INK if shown else colour
            layer.plate(arcade.XYWH(cx, cy, width, self.CHIP_H), fill, edge, 5, 3 if shown else 1)
            written.x, written.y = cx, cy
            shrink_to(written, width - 8)  # a bid's word in another language
        rows = row + 1 if self.decisions else 0
        return top - rows * (self.CHIP_H + self.CHIP_GAP)

    def build_axes(self, layer: Layer) -> None:
        """The graph's written values (its scale, the zero line) and the tricks' numbers
        along its bottom (as many as fit)."""
        left, right, bottom, top = self.graph_rect
        scale = graph_scale(graph_values(self.decisions))
        mid = (bottom + top) / 2
        for value, y in ((scale, top), (0.0, mid), (-scale, bottom)):
            layer.text(
                points(value), left - 4, y, 12, theme.INK_SOFT, anchor_x="right", anchor_y="center"
            )
        last_x = -math.inf
        previous = None
        for i, d in enumerate(self.decisions):
            if d.phase != "play" or d.trick == previous:
                continue
            previous = d.trick
            px = self.x_of(i)
            words = str(d.trick)
            if px - last_x < 24 or px + 10 > right + 8:
                continue
            last_x = px
            layer.text(words, px, bottom - 6, 12, theme.INK_SOFT, anchor_x="center", anchor_y="top")

    def x_of(self, i: int) -> float:
        """The graph's x of decision ``i``."""
        left, right, _skip, _skip2 = self.graph_rect
        steps = max(1, self.total - 1)
        return left + 6 + (right - left - 12) * i / steps

    def draw(self) -> None:
        """The panel, the progress bar, the chips' shapes and the graph (a few draw
        calls)."""
        self.layer.draw()
        left, right, bottom, top = self.bar_box()
        arcade.draw_lrbt_rectangle_filled(left, right, bottom, top, (0, 0, 0, 60))
        share = self.done / self.total if self.total else 1.0
        if share > 0:
            fill = left + (right - left) * share
            arcade.draw_lrbt_rectangle_filled(left, fill, bottom, top, theme.GREEN_OK)
        for (cx, cy), w, d in zip(self.chips, self.chip_widths, self.decisions, strict=False):
            name = label(d)
            corner_x, corner_y = cx - w / 2 + 3, cy + self.CHIP_H / 2 - 1
            draw_shape(LABEL_SHAPES[name], corner_x, corner_y, 4.5, LABEL_COLOURS[name])
        self.draw_graph()

    def graph_points(self) -> list[tuple[float, float]]:
        """The graph's points: one per valued decision (:func:`graph_values`: a forced
        one on the line through it), x by decision, y on the fixed scale
        (:func:`graph_scale`: zero in the middle)."""
        _skip, _skip2, bottom, top = self.graph_rect
        values = graph_values(self.decisions)
        if not values:
            return []
        scale = graph_scale(values)
        mid, half = (bottom + top) / 2, (top - bottom) / 2
        return [
            (self.x_of(i), mid + half * max(-1.0, min(1.0, v / scale)))
            for i, v in enumerate(values)
        ]

    def draw_graph(self) -> None:
        left, right, bottom, top = self.graph_rect
        arcade.draw_lrbt_rectangle_outline(left, right, bottom, top, theme.PANEL_EDGE, 1)
        mid = (bottom + top) / 2
        arcade.draw_line(left, mid, right, mid, theme.INK_SOFT, 1)  # zero: even
        for y in ((mid + top) / 2, (mid + bottom) / 2):
            arcade.draw_line(left, y, right, y, (0, 0, 0, 30), 1)
        previous = None
        for i, d in enumerate(self.decisions):  # the tricks' ticks
            if d.phase == "play" and d.trick != previous:
                previous = d.trick
                px = self.x_of(i)
                arcade.draw_line(px, bottom, px, bottom + 5, theme.INK_SOFT, 1)
        values = graph_values(self.decisions)
        for i, turned in enumerate(self.turned):  # new information, not a mistake
            if turned and 0 < i < len(values):
                px = (self.x_of(i - 1) + self.x_of(i)) / 2
                fell = bool(turned_note(values[i - 1], self.decisions[i], True))
                draw_shape("up", px, bottom + 7, 7.0 if fell else 4.5, TURNED_COLOUR)
        points_ = self.graph_points()
        if len(points_) > 1:
            arcade.draw_line_strip(points_, HINT_COLOUR, 2)
        for (px, py), d in zip(points_, self.decisions, strict=False):
            name = label(d)
            draw_shape(LABEL_SHAPES[name], px, py, 4.5, LABEL_COLOURS[name])
        if points_ and self.decisions:
            x = self.x_of(self.index)
            arcade.draw_line(x, bottom, x, top, theme.INK_SOFT, 1)


__all__ = ["TURNED_GLYPH", "ReviewMode"]
