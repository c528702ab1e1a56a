"""The Review screen of the Arcade table: opened from the end-of-deal panel, valued on a
thread with a progress bar, stepped with the arrow keys, cancelled with Esc."""

from __future__ import annotations

import time
from typing import Any

import arcade
import pytest
from atout.core import View
from atout.core.cards import parse_card
from atout.core.records import deal_from_record
from atout.plugins.review import Decision
from atout.plugins.review import ReviewOptions
from atout.plugins.review import Valued
from atout.ui.cards_text import show_card
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.review_graph import chip_text
from atout.ui.window.review_graph import graph_scale
from atout.ui.window.review_graph import graph_values
from atout.ui.window.review_labels import BLUNDER
from atout.ui.window.review_labels import LABEL_COLOURS
from atout.ui.window.review_labels import LABEL_GLYPHS
from atout.ui.window.review_labels import MISTAKE
from atout.ui.window.review_labels import SMALL_LOSS
from atout.ui.window.review_labels import label
from atout.ui.window.review_labels import legend
from atout.ui.window.review_labels import points
from atout.ui.window.review_labels import summary_lines
from atout.ui.window.review_labels import turned_note
from atout.ui.window.review_view import ReviewMode
from atout.ui.window.review_view import face_down
from atout.ui.window.table import Table
from ui_helpers import click
from ui_helpers import click_button
from ui_helpers import press
from ui_helpers import pump
from ui_helpers import step

pytestmark = pytest.mark.ui

FAST = ReviewOptions(budget=0.01, exact_budget=0.05, samples=2, min_samples=1, max_samples=2)
"""A small fixed budget: a whole deal reviewed in seconds."""


def deal_over(app: App, game: str = "decouverte", seed: int = 5) -> Table:
    """A table at the end of its first deal (every card played at once)."""
    from atout.ui.rules import resolve_rules

    setup = Setup(game=game, pack="", bot="random", seed=seed)
    table = app.start_match(setup, resolve_rules(app.engine, setup.game, setup.pack, setup.target))
    table.review_options = FAST
    for _ in range(5):  # a deal passed out is dealt again
        pump(table, lambda: table.stage != "redeal" and not table.busy(), frames=100)
        table.driver.autoplay_to(99)
        pump(table, lambda: table.stage in ("deal_over", "match_over", "redeal"))
        if table.stage != "redeal":
            break
    assert table.stage == "deal_over"
    return table


def finish(table: Table, review: ReviewMode) -> None:
    """Draw frames until every decision is valued (the frame loop never waits)."""
    deadline = time.monotonic() + 120
    while not review.finished and time.monotonic() < deadline:
        step(table, 0.05)
        time.sleep(0.01)
    assert review.finished, "the review did not finish"


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_review_opens_from_the_panel_values_every_decision_and_steps(app: App, game: str) -> None:
    table = deal_over(app, game)
    click_button(app, table.deal_panel.buttons.find("review"))
    review = table.review
    assert review is not None and review.total > 0
    finish(table, review)
    assert review.error == ""
    assert review.done == review.total
    assert all(d.seat == 0 for d in review.decisions)
    assert review.index == 0
    press(app, arcade.key.END)
    assert review.index == review.total - 1
    press(app, arcade.key.RIGHT)
    assert review.index == review.total - 1
    press(app, arcade.key.HOME)
    assert review.index == 0
    press(app, arcade.key.RIGHT)
    assert review.index == min(1, review.total - 1)
    # the table shows the person's view at that decision: the deal up to its step
    d = review.decisions[review.index]
    assert table.view is not None
    if d.phase == "play":
        assert len(table.view.tricks) == d.trick - 1
        assert table.view.turn == 0
        assert any(review.played_name in t.text for t in review.layer.texts)
    # every decision has a point on the graph (a forced one on the line through it) and
    # a chip in the step list, bids included
    assert len(review.graph_points()) == review.done
    review.show(review.total - 1)  # at the last decision every chip's card is known
    chips = [chip_text(d) for d in review.decisions]
    texts = [t.text for t in review.layer.texts]
    assert all(c in texts for c in chips)
    bids = [d for d in review.decisions if d.phase == "bidding"]
    assert bids and chip_text(bids[0]) in texts
    review.show(review.decisions.index(bids[0]))
    assert any(t.text.startswith("You bid ") for t in review.layer.texts)
    # the proposed card (the turn-up) is named beside the bids' values
    turnup = review.views[review.index].turnup
    assert turnup is not None
    assert any(t.text == f"proposed {show_card(turnup)}" for t in review.layer.texts)
    # a click on a chip puts its decision on the table
    last = review.total - 1
    cx, cy = review.chips[last]
    click(app, cx, cy)
    assert review.index == last
    step(table, 0.05)


def test_labels_follow_the_thresholds() -> None:
    from atout.plugins.review import EXACT
    from atout.plugins.review import FORCED
    from atout.plugins.review import Decision

    def d(loss: float, method: str = EXACT) -> Decision:
        return Decision(1, 1, 0, "play", 1, "7H", (), method, loss=loss)

    assert label(d(0.0)) == "best"
    assert label(d(SMALL_LOSS)) == "small loss"
    assert label(d(MISTAKE)) == "mistake"
    assert label(d(BLUNDER)) == "blunder"
    assert label(d(0.0, FORCED)) == "forced"
    noise = Decision(1, 1, 0, "play", 1, "7H", (), "sampled", within_noise=True)
    assert label(noise) == "within noise"
    assert set(LABEL_COLOURS) >= {"best", "within noise", "small loss", "mistake", "blunder"}


def test_the_graph_goes_through_forced_decisions() -> None:
    """A forced decision (one legal action: no value of its own) lies on the line
    between its neighbours; at either end, level with the nearest value."""
    from atout.plugins.review import Decision
    from atout.plugins.review import Valued

    def d(value: float | None) -> Decision:
        if value is None:
            return Decision(1, 1, 0, "play", 1, "7H", (Valued("7H", None),), "forced")
        return Decision(1, 1, 0, "play", 1, "7H", (Valued("7H", value),), "exact")

    assert graph_values([d(None), d(10.0), d(None), d(None), d(40.0), d(None)]) == [
        10.0,
        10.0,
        20.0,
        30.0,
        40.0,
        40.0,
    ]
    assert graph_values([d(None)]) == []


def test_r_opens_the_review_and_esc_cancels_it_leaving_the_table_usable(app: App) -> None:
    table = deal_over(app)
    table.review_options = ReviewOptions(budget=5.0, min_samples=200, max_samples=300)
    final = table.view
    press(app, arcade.key.R)
    review = table.review
    assert review is not None
    step(table, 0.05)
    press(app, arcade.key.ESCAPE)
    assert table.review is None
    assert review.stop.is_set()
    review.thread.join(30)
    assert not review.thread.is_alive()
    assert table.view is final
    assert table.deal_panel.buttons.find("next-deal") is not None
    press(app, arcade.key.N)
    pump(table, lambda: table.stage == "play")
    step(table)


def test_leaving_the_table_stops_the_review(app: App) -> None:
    table = deal_over(app)
    table.review_options = ReviewOptions(budget=5.0, min_samples=200, max_samples=300)
    table.open_review()
    review = table.review
    assert review is not None
    app.leave_table()
    assert review.stop.is_set()
    review.thread.join(30)
    assert not review.thread.is_alive()


def texts_of(review: ReviewMode) -> list[str]:
    return [t.text for t in review.layer.texts if t.visible]


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_each_decision_lists_every_legal_action_with_its_value_and_the_summary(
    app: App, game: str
) -> None:
    table = deal_over(app, game)
    table.open_review()
    review = table.review
    assert review is not None
    finish(table, review)
    assert review.summary is not None
    texts = texts_of(review)
    assert all(line in texts for line in summary_lines(review.summary))
    assert all(line in texts for line in legend())
    for i, d in enumerate(review.decisions):
        review.show(i)
        texts = texts_of(review)
        view = review.views[i]
        # the label with its shape, and every legal action with its value; the one
        # taken marked, the best first
        assert any(t.startswith(LABEL_GLYPHS[label(d)]) for t in texts)
        if d.method in ("exact", "sampled"):
            rows = [t for t in texts if any(t.startswith(m) for m in ("▶", "")) and " " in t]
            for v in d.legal:
                name = review._name(view, v.action)
                assert v.value is not None
                assert any(name in t and points(v.value) in t for t in rows), (name, texts)
            mine = [t for t in texts if t.startswith("▶") and not t.startswith("▶ yours")]
            assert len(mine) == 1 and review.played_name in mine[0]
            starred = [t for t in texts if t.startswith("★")]
            if d.best != d.action:
                assert len(starred) == 1 and review.best_name in starred[0]
            else:
                assert not starred


def replayed(table: Table, record: dict[str, Any], actions: int) -> View:
    """Seat 0's view after the first ``actions`` actions of ``record``, replayed anew."""
    engine = table.engine
    full = deal_from_record(engine, record, "record")
    start = {k: v for k, v in record.items() if k not in ("actions", "result")}
    deal = deal_from_record(engine, {**start, "actions": []}, "record")
    for _, action in full.actions[:actions]:
        deal.apply(action)
    return deal.view(0)


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_the_review_never_shows_a_card_the_seat_did_not_know_then(app: App, game: str) -> None:
    """At every decision, stepping forward and back again from the deal's end, every card
    drawn face up and every card the panel names is one the person's view knew then."""
    table = deal_over(app, game)
    table.open_review()
    review = table.review
    assert review is not None
    finish(table, review)
    order = [*range(review.done), *reversed(range(review.done))]
    for i in order:
        review.show(i)
        view = review.views[i]
        assert table.view is view
        d = review.decisions[i]
        truth = replayed(table, review.record, d.step - 1)  # the record on its own
        assert view.known_cards() == truth.known_cards()
        known = view.known_cards()
        for sprite in table.board.sprites:
            if sprite.visible and sprite.card is not None and sprite.face_up:
                assert known >> sprite.card & 1, f"{game}: card {sprite.card} shown at {i}"
        # the panel names no other card (the step list's later cards included: a card
        # not yet seen is a '?')
        shown = " ".join(texts_of(review))
        unknown = [show_card(c) for c in range(32) if not known >> c & 1]
        assert not [c for c in unknown if c in shown], (game, i, shown)


def test_a_gap_within_noise_is_told_with_the_interval_of_the_same_number(app: App) -> None:
    """An action whose average is 100 higher on two samples, but whose fair (cross-fitted)
    estimate is 0 with an interval of 0 to 0, is not told to have 'looked 100 better'
    beside that interval: the screen gives the fair estimate with its own interval."""
    table = deal_over(app)
    table.open_review()
    review = table.review
    assert review is not None
    finish(table, review)
    i = next(i for i, d in enumerate(review.decisions) if d.phase == "play" and len(d.legal) > 1)
    d = review.decisions[i]
    taken, other = d.action, next(v.action for v in d.legal if v.action != d.action)
    review.decisions[i] = Decision(
        d.deal, d.step, d.seat, d.phase, d.trick, taken,
        (Valued(taken, 0.0, -100.0, 100.0), Valued(other, 100.0, -1170.0, 1370.0)),
        "sampled", samples=2, loss=0.0, loss_interval=(0.0, 0.0), raw_loss=0.0,
        within_noise=True, best=other,
    )  # fmt: skip
    review.show(i)
    shown = " ".join(texts_of(review))
    assert "100 better" not in shown
    assert "fair test gives 0 (95%: 0 to 0)" in shown
    assert "not proved, 2 samples" in shown
    other_name = show_card(parse_card(other))
    assert f"{other_name} averaged 100 more;" in shown


def test_the_graph_keeps_a_fixed_symmetric_scale_and_marks_turned_cards(app: App) -> None:
    assert graph_scale([3.0, -2.0]) == 50.0
    assert graph_scale([-120.0, 20.0]) == 200.0
    assert graph_scale([]) == 50.0
    table = deal_over(app)
    table.open_review()
    review = table.review
    assert review is not None
    finish(table, review)
    texts = texts_of(review)
    scale = graph_scale(graph_values(review.decisions))
    assert {points(scale), "0", points(-scale)} <= set(texts)
    assert "1" in texts  # the tricks along the bottom
    assert any("expected margin" in t for t in texts)
    # a face-down card turned between two decisions where the face-down count fell
    counts = [face_down(v) for v in review.views]
    assert review.turned == [i > 0 and counts[i] < counts[i - 1] for i in range(len(counts))]
    assert any(review.turned)
    # where the margin fell while a card turned, the screen says it was new information
    values = graph_values(review.decisions)
    told = 0
    for i in range(1, review.done):
        words = turned_note(values[i - 1], review.decisions[i], review.turned[i])
        review.show(i)
        if words and not review.brief:
            assert words in texts_of(review)
            told += 1
    assert told  # this deal has such a drop
    # a value of a few points stays near the middle: never zoomed to fill the graph
    _, _, bottom, top = review.graph_box()
    for (_, y), v in zip(review.graph_points(), graph_values(review.decisions), strict=True):
        assert y == pytest.approx(
            (bottom + top) / 2 + (top - bottom) / 2 * max(-1, min(1, v / scale))
        )


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_the_panel_keeps_the_layout_rules_at_every_decision_and_size(app: App, game: str) -> None:
    """Every decision of a deal, at each window size of the gallery: no text of the
    Review panel overlaps another or a button, runs out of the panel or is too small
    (:func:`layout.problems`, the layout tests' rules)."""
    from atout.ui.window.frame import frame_for
    from atout.ui.window.gallery import SIZES
    from atout.ui.window.gallery import draw_at
    from layout import drawn
    from layout import problems

    table = deal_over(app, game)
    table.open_review()
    review = table.review
    assert review is not None
    finish(table, review)
    found: list[str] = []
    try:
        for size in SIZES:
            draw_at(app, table, size)
            for i in range(review.done):
                review.show(i)
                table.on_draw()
                shown = drawn(table, frame_for(*size))
                panel = [t.words for t in shown.texts if t.panel_name == "review panel"]
                found += [
                    f"{size} decision {i}: {p}"
                    for p in problems(shown)
                    if any(repr(w) in p for w in panel)
                ]
    finally:
        app.render_offscreen(None)
    assert not found, "\n".join(found)


def test_a_deal_not_decided_by_a_card_of_yours_is_said_so_in_every_language() -> None:
    from atout.plugins.review import Summary
    from atout.ui.i18n import _
    from atout.ui.i18n import set_language

    summary = Summary(0, "decouverte", 0, "made", (100, 62), (0.0, 0.0), None, (), None, 0, 0.0)
    for language in ("en", "fr", "de"):
        set_language(language)
        try:
            first, _second = summary_lines(summary)
            assert first == _("Not decided by a card of yours"), language
        finally:
            set_language("en")


@pytest.mark.parametrize(
    ("language", "take", "pass_", "help_words"),
    [("fr", "pris", "passe", "faute"), ("de", "ann.", "pass", "Patzer")],
)
def test_the_bid_chips_and_the_thresholds_help_are_in_the_language(
    language: str, take: str, pass_: str, help_words: str
) -> None:
    """The step list's bid chips and the help's line of the review's thresholds are in
    the chosen language (they were the English ``take``, ``pass``, ``mistake``)."""
    from atout.plugins.review import EXACT
    from atout.ui.commands.review import decision_lines
    from atout.ui.i18n import set_language
    from atout.ui.review_words import help_line

    def bid(action: str) -> Decision:
        return Decision(1, 1, 0, "bidding", 1, action, (), EXACT)

    set_language(language)
    try:
        assert [chip_text(bid(a)) for a in ("take", "pass", "H")] == [take, pass_, "♥"]
        line = help_line()
        assert help_words in line and "mistake" not in line and f"<{MISTAKE:g}" in line
        said = " ".join(decision_lines(bid("take"), lambda seat: "Nord"))
        assert " take" not in said
    finally:
        set_language("en")
