"""The Rules screen: reached from the start view and from the table's help, paged with the
arrows, back with Esc to the view that opened it, readable at every window size."""

from __future__ import annotations

import arcade
import pytest
from atout.ui.rules import resolve_rules
from atout.ui.rules_pages import rules_pages
from atout.ui.window.app import App
from atout.ui.window.frame import frame_for
from atout.ui.window.gallery import SIZES
from atout.ui.window.gallery import draw_at
from atout.ui.window.gallery import start
from atout.ui.window.rules_view import FOOT
from atout.ui.window.rules_view import MARGIN
from atout.ui.window.rules_view import RulesView
from atout.ui.window.start_view import StartView
from layout import Drawn
from layout import Item
from layout import problems
from layout import rect_box
from layout import text_box
from layout import visible_text
from ui_helpers import click_button
from ui_helpers import press
from ui_helpers import step

pytestmark = pytest.mark.ui


def drawn_rules(view: RulesView) -> Drawn:
    """The texts, buttons and cards of the Rules screen, each in the panel."""
    out = Drawn(view.frame)
    panel = rect_box(view.panel)
    labels = {id(b.label): (f"button {b.name}", rect_box(b.rect)) for b in view.buttons.buttons}
    for b in view.buttons.buttons:
        if b.visible:
            out.buttons.append((b.name, rect_box(b.rect), "table"))
    for t in view.layer.texts:
        if visible_text(t):
            name, box = labels.get(id(t), ("rules panel", panel))
            out.texts.append(Item(t.text, text_box(t), t.font_size, box, name))
    for card, rect in view.cards:
        out.cards.append((f"card {card}", rect_box(rect), panel))
    return out


@pytest.mark.parametrize("game", ["decouverte", "belote"])
def test_every_page_reads_at_every_size(app: App, game: str) -> None:
    """Every page at 800x600, 1280x720, 1920x1080 and 900x1200: no text overlaps
    another or a button, none runs out of the panel or is under 12 pixels, every card
    lies in the panel, and the page's blocks end above the row of buttons."""
    back = app.show_start()
    view = RulesView(app, resolve_rules(app.engine, game, ""), back)
    app.window.show_view(view)
    found: list[str] = []
    try:
        for index in range(len(view.pages)):
            for size in SIZES:
                app.render_offscreen(size)
                view.show_page(index)
                draw_at(app, view, size)
                assert view.frame == frame_for(*size)
                where = f"page {index + 1} at {size[0]}x{size[1]}"
                found += [f"{where}: {p}" for p in problems(drawn_rules(view))]
                if view.content_bottom < MARGIN + FOOT:
                    found.append(f"{where}: the page runs under the buttons")
    finally:
        app.render_offscreen(None)
    assert not found, "\n".join(found)


def test_the_start_views_rules_button_opens_the_chosen_games_rules_and_esc_goes_back(
    app: App,
) -> None:
    start_view = app.show_start()
    click_button(app, start_view.buttons.find("game:belote"))
    click_button(app, start_view.buttons.find("rules"))
    view = app.window.current_view
    assert isinstance(view, RulesView) and view.rules.game == "belote"
    assert view.index == 0
    press(app, arcade.key.RIGHT)
    press(app, arcade.key.RIGHT)
    assert view.index == 2
    press(app, arcade.key.LEFT)
    assert view.index == 1
    press(app, arcade.key.END)
    assert view.index == len(view.pages) - 1
    assert view.pages[-1].title == "The house rules in force"
    press(app, arcade.key.RIGHT)  # the last page stays the last
    assert view.index == len(view.pages) - 1
    view.on_draw()
    previous = view.buttons.find("previous")
    click_button(app, previous)
    assert view.index == len(view.pages) - 2
    press(app, arcade.key.ESCAPE)
    assert app.window.current_view is start_view
    assert start_view.setup.game == "belote"  # the choices are as they were


def test_the_start_views_rules_are_those_of_the_pack_chosen(app: App) -> None:
    start_view = app.show_start()
    click_button(app, start_view.buttons.find("game:decouverte"))
    start_view.select_pack("decouverte-exoty")
    click_button(app, start_view.buttons.find("rules"))
    view = app.window.current_view
    assert isinstance(view, RulesView)
    assert view.rules.pack == "decouverte-exoty"
    words = [str(b) for p in view.pages for b in p.blocks]
    assert any("Belote-rebelote: the trump king" in w for w in words)
    assert any("The rules in force: decouverte-exoty" in w for w in words)


def test_the_help_panel_leads_to_the_rules_of_the_match_and_back_to_the_table(
    app: App,
) -> None:
    table = start(app, "decouverte")
    for _ in range(4):
        step(table)
    table.open_overlay("help")
    button = table.overlay.buttons.find("The rules of the game")
    click_button(app, button)
    view = app.window.current_view
    assert isinstance(view, RulesView)
    assert view.rules == table.match.rules
    assert [p.title for p in view.pages] == [
        p.title for p in rules_pages(app.engine, table.match.rules)
    ]
    view.on_draw()
    click_button(app, view.buttons.find("back"))
    assert app.window.current_view is table
    assert not table.overlay.is_open
    step(table)  # the table goes on where it was


def test_the_rules_pictures_are_the_tables_card_faces(app: App) -> None:
    back = app.show_start()
    view = RulesView(app, app.engine.default_rules("decouverte"), back)
    view.show_page(0)
    assert any(card is not None for card, _ in view.cards)
    assert len(view.sprites) == len(view.cards)
    assert isinstance(back, StartView)
