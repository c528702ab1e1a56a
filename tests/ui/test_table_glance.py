"""Découverte at a glance: a card just turned glows and the message line says what it
lay under, a covered pile shows a red edge (with a legend on the table), and the C key
lists the cards not seen yet, from the seat's view."""

from __future__ import annotations

import arcade
import pytest
from atout.core.cards import RANKS
from atout.core.cards import SUIT_SYMBOLS
from atout.ui.cards_text import HUMAN
from atout.ui.cards_text import show_card
from atout.ui.window import theme
from atout.ui.window.app import App
from atout.ui.window.board import TURNED_COLOUR
from atout.ui.window.gallery import person_to
from atout.ui.window.gallery import run_until
from atout.ui.window.gallery import start
from atout.ui.window.sprites import UNDER
from atout.ui.window.table import Table
from ui_helpers import press

pytestmark = pytest.mark.ui


def to_play(table: Table) -> None:
    while not person_to(table, "play"):
        assert run_until(table, lambda: person_to(table, "bidding") or person_to(table, "play"))
        view = table.view
        if view is not None and view.phase == "bidding":
            table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])


def test_a_card_turned_glows_and_the_message_says_what_it_lay_under(app: App) -> None:
    table = start(app, "decouverte")
    to_play(table)
    view = table.view
    assert view is not None
    covered = [
        p.top
        for p in view.piles[HUMAN]
        if p.covered and p.top is not None and view.legal >> p.top & 1
    ]
    assert covered, "the person may play a card lying on a face-down card"
    played = covered[0]
    table.driver.click_card(played)
    assert run_until(table, lambda: any(c in view_tops(table, HUMAN) for c in table.turned))
    turned = next(c for c in table.turned if c in view_tops(table, HUMAN))
    assert f"Your {show_card(played)} turned: {show_card(turned)}" in table.toast.message
    assert run_until(table, lambda: not table.board.busy(table.clock))
    table.on_draw()
    assert (turned, TURNED_COLOUR) in table.board.glow_cards
    lit = zip(table.board.glows, table.board.glow_cards, strict=False)
    assert all(g.visible for g, (c, _) in lit if c == turned)
    for _ in range(int(theme.TURNED_GLOW / 0.05) + 4):  # the moment passes
        table.on_update(0.05)
    assert (turned, TURNED_COLOUR) not in table.board.glow_cards


def view_tops(table: Table, seat: int) -> set[int]:
    view = table.view
    assert view is not None
    return {p.top for p in view.piles[seat] if p.top is not None}


def test_a_covered_pile_shows_a_red_edge_and_the_table_says_what_it_means(app: App) -> None:
    """Beside a card that lies on a face-down card, half-way along the face-down card's
    edge, the pixels are the backs' red (not the white of a card's margin)."""
    app.speed = 0.0
    table = start(app, "decouverte")
    assert run_until(table, lambda: person_to(table, "bidding"))
    table.on_draw()
    image = app.snapshot()
    view = table.view
    assert view is not None
    reds = 0
    for pile in view.piles[HUMAN]:
        assert pile.covered and pile.top is not None
        sprite = table.board.cards[pile.top]
        half_w = theme.CARD_W * sprite.scale_x / 2
        x = sprite.center_x + half_w + UNDER[0] * sprite.scale_x / 2
        wx, wy = app.to_window(x, sprite.center_y)
        pixel = image.getpixel((int(wx), int(image.height - wy)))
        assert isinstance(pixel, tuple)
        r, g, b = pixel[:3]
        reds += r > 150 and g < 110 and b < 110
    assert reds == 8, f"{reds} of 8 covered piles show a red edge"
    words = " ".join(t.text for t in table.hud.texts if t.visible)
    assert "face down under it" in words


def test_the_c_key_lists_the_cards_not_seen_yet(app: App) -> None:
    table = start(app, "decouverte")
    to_play(table)
    press(app, arcade.key.C)
    assert table.unseen.open
    view = table.view
    assert view is not None
    unseen = view.unseen
    texts = [t.text for t in table.unseen.texts]
    assert f"Not seen yet: {bin(unseen).count('1')} cards" in texts
    for suit in range(4):
        symbol = texts.index(SUIT_SYMBOLS[suit])
        ranks = texts[symbol + 1].split()
        wanted = [RANKS[c & 7] for c in range(suit * 8 + 7, suit * 8 - 1, -1) if unseen >> c & 1]
        assert ranks == (wanted or ["–"])
    # no card the table shows is listed: the face-up cards are all seen
    for row in view.piles:
        for pile in row:
            assert pile.top is None or not unseen >> pile.top & 1
    press(app, arcade.key.C)
    assert not table.unseen.open
