"""The window's layout, checked on every screen of both games at every window size.

The walk is the gallery's (:func:`atout.ui.window.gallery.screens`: seeded matches, the
start view, the bidding in both rounds, the play with a hint, the last trick, the help,
the menu, the end of a deal and of a match; La Coinche for four and for two: the
auction's grid, a contract doubled or a capot in the side bar, the end of the deal, its
review at a card and at a bid); each stop is drawn on an offscreen surface
of each size of :data:`~atout.ui.window.gallery.SIZES` (800x600, 1280x720, 1920x1080 and
a tall 900x1200) and what it draws is checked by :func:`layout.problems`; a table is
also looked at as the walk reached it (its cards landed, none still in flight).
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade
import pytest
from atout.ui.i18n import set_language
from atout.ui.window import theme
from atout.ui.window.app import App
from atout.ui.window.frame import MIN_H
from atout.ui.window.frame import MIN_TEXT_PX
from atout.ui.window.frame import MIN_W
from atout.ui.window.frame import frame_for
from atout.ui.window.frame import text_px
from atout.ui.window.gallery import SIZES
from atout.ui.window.gallery import draw_at
from atout.ui.window.gallery import person_to
from atout.ui.window.gallery import run_until
from atout.ui.window.gallery import screens
from atout.ui.window.gallery import start
from atout.ui.window.start_view import StartView
from atout.ui.window.table import Table
from atout.ui.window.words import announce_words
from layout import drawn
from layout import problems

pytestmark = pytest.mark.ui


def check(
    app: App, view: arcade.View, name: str, sizes: Sequence[tuple[int, int]] = SIZES
) -> list[str]:
    """The problems of ``view`` at every size (the view is laid out again for each)."""
    found = []
    for size in sizes:
        draw_at(app, view, size)
        frame = frame_for(*size)
        found += [f"{name} at {size[0]}x{size[1]}: {p}" for p in problems(drawn(view, frame))]
    return found


@pytest.mark.parametrize("width", [800, 1024, 1280, 1600, 1920, 2560, 3840])
@pytest.mark.parametrize("height", [600, 720, 1080, 1440, 2160])
def test_the_logical_table_fits_the_window_and_keeps_text_readable(width: int, height: int) -> None:
    """From 800x600 up: the logical table fills the window (no bands), is never smaller
    than the design's 1024x720, and the smallest font is at least 12 pixels high."""
    frame = frame_for(width, height)
    assert frame.width >= MIN_W - 0.01 and frame.height >= MIN_H - 0.01
    assert frame.width * frame.scale == pytest.approx(width)
    assert frame.height * frame.scale == pytest.approx(height)
    assert text_px(theme.MIN_FONT, frame.scale) >= MIN_TEXT_PX


def walk(app: App, sizes: Sequence[tuple[int, int]] = SIZES) -> tuple[list[str], list[str]]:
    """The gallery's walk: the names of the screens reached and their layout problems at
    each of ``sizes``."""
    found: list[str] = []
    names = []
    try:
        for screen in screens(app):
            names.append(screen.name)
            view = screen.view
            if isinstance(view, Table):  # as reached, before a size lays it out again
                found += [
                    f"{screen.name} as reached: {card} is in flight"
                    for card in drawn(view, view.frame).in_flight
                ]
            found += check(app, view, screen.name, sizes)
    finally:
        app.render_offscreen(None)
    return names, found


def test_every_screen_at_every_size_keeps_the_layout_rules(app: App) -> None:
    names, found = walk(app)
    for game in ("decouverte", "belote"):
        for stop in (
            "bidding",
            "bidding-round-2",
            "play-hint",
            "deal-over",
            "review",
            "match-over",
        ):
            assert f"{game}-{stop}" in names, f"the walk never reached {game}-{stop}"
    for game in ("coinche", "coinche-decouverte"):  # the auction's grid, a contract with
        for stop in ("auction", "contract", "deal-over", "review", "review-bidding"):
            assert f"{game}-{stop}" in names, f"the walk never reached {game}-{stop}"
    assert not found, "\n".join(found)


@pytest.mark.parametrize("language", ["fr", "de"])
def test_every_screen_keeps_the_layout_rules_in_french_and_german(app: App, language: str) -> None:
    """The same walk, at every size, with the texts in French and in German (longer
    words than the English: buttons write them smaller, panels wrap them), and the
    settings panel where the language is chosen."""
    assert set_language(language) == language
    try:
        names, found = walk(app)
        start_view = app.show_start()
        start_view.open_settings()  # the language choice
        found += check(app, start_view, "start-settings")
    finally:
        set_language("en")
    assert "belote-review" in names and "decouverte-match-over" in names
    assert "coinche-auction" in names and "coinche-decouverte-review-bidding" in names
    assert not found, "\n".join(found)


def test_every_bots_description_fits_the_start_view(app: App) -> None:
    """The longest description (the greedy bot's) wraps within its panel and above the
    next heading, for each game at each size."""
    view = app.show_start()
    found: list[str] = []
    try:
        for game in ("decouverte", "belote"):
            button = view.buttons.find(f"game:{game}")
            assert button is not None
            button.action()
            for bot in view.bots_for(game):
                view.select_bot(bot)
                found += check(app, view, f"start {game} {bot}")
    finally:
        app.render_offscreen(None)
    assert not found, "\n".join(found)


def test_the_chosen_pack_is_on_the_page_shown(app: App) -> None:
    view: StartView = app.show_start()
    for game in ("decouverte", "belote"):
        button = view.buttons.find(f"game:{game}")
        assert button is not None
        button.action()
        assert view.setup.pack
        shown = [b for b in view.pack_buttons.buttons if b.selected]
        assert [b.name for b in shown] == [f"pack:{view.setup.pack}"]


LONGEST = {
    "decouverte": announce_words("belote-rebelote", 0),
    "belote": announce_words("carré of queens", 0),
}
"""The widest bubbles of each game (a bid's bubble is narrower): "Belote-rebelote!",
"Carré of queens!" (a sequence is said "Quinte to Q♦!")."""


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_every_seats_longest_bubble_stands_clear_of_the_cards_at_every_size(
    app: App, game: str
) -> None:
    """At the first card of the play (full hands), every seat says the widest thing the
    game says, all at once: no bubble lies on a card, a pile or a name, at any size."""
    table = start(app, game)
    app.speed = 0.0
    while not person_to(table, "play"):
        assert run_until(table, lambda: person_to(table, "bidding") or person_to(table, "play"))
        view = table.view
        if view is not None and view.phase == "bidding":
            table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])
    for seat in range(table.seats):
        table.bubble(seat, LONGEST[game], 60)
    try:
        found = check(app, table, f"{game} bubbles")
    finally:
        app.render_offscreen(None)
    assert not found, "\n".join(found)
