"""The person's settings on the start view: kept in the settings file, read by the table
(a forced card played by itself), the practice switch carried into the match's setup,
the bots and their levels' names."""

from __future__ import annotations

import arcade
import pytest
from atout.core import View
from atout.core.errors import AtoutError
from atout.core.packs import load_rules
from atout.core.packs import user_dir
from atout.ui import i18n
from atout.ui import savegame
from atout.ui.cards_text import HUMAN
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.driver import MatchDriver
from atout.ui.window.table import Table
from ui_helpers import click_button
from ui_helpers import human_to_act
from ui_helpers import press
from ui_helpers import pump
from ui_helpers import step


def forced(view: View | None) -> bool:
    """Whether the person may play one card only (and nothing else)."""
    return (
        view is not None
        and view.phase == "play"
        and not view.can_claim
        and view.legal.bit_count() == 1
    )


def table_until_forced(app: App, seed: int) -> Table:
    """A Découverte match against random bots, the person playing as a greedy bot would,
    stopped at the person's first turn with one legal card."""
    rules = app.engine.default_rules("decouverte")
    table = app.start_match(Setup(game="decouverte", bot="random", seed=seed), rules)
    assert isinstance(table.driver, MatchDriver)
    session = table.driver.session
    stand_in = app.engine.bot("greedy", session.game, session.rules, seed=1)
    for _ in range(3000):
        if table.stage == "deal_over":
            table.driver.start_deal()
        if human_to_act(table):
            if forced(table.view):
                return table
            table.driver.apply(HUMAN, stand_in.choose(session.view(HUMAN)))
        step(table, draw=False)
    raise AssertionError("the person never had a forced card")


def test_a_forced_card_waits_for_the_person_by_default(app: App) -> None:
    table = table_until_forced(app, seed=5)
    assert table.deal is not None
    actions = len(table.deal.actions)
    for _ in range(20):
        step(table, 0.5)
    assert len(table.deal.actions) == actions and forced(table.view)


def test_a_forced_card_is_played_by_itself_with_the_setting(app: App) -> None:
    table = table_until_forced(app, seed=5)
    assert table.deal is not None
    actions = len(table.deal.actions)
    (card,) = [c for c in range(32) if table.view is not None and table.view.legal >> c & 1]
    app.settings["auto_forced"] = True
    step(table, 0.05)
    assert len(table.deal.actions) == actions, "played at once, not after a moment"
    pump(table, lambda: table.deal is not None and len(table.deal.actions) > actions, frames=40)
    seat, action = table.deal.actions[actions]
    assert seat == HUMAN and action.kind == "play" and action.value == card


def test_the_settings_are_kept_and_shown(app: App) -> None:
    view = app.show_start()
    view.on_draw()
    press(app, arcade.key.S)
    dialog = view.dialog
    assert dialog is not None and dialog.name == "settings"
    view.on_draw()
    texts = " ".join(t.text for t in dialog.layer.texts)
    for words in ("Play a forced card automatically", "Confirm before a new match", "Practice"):
        assert words in texts
    assert not savegame.setting(app.settings, "auto_forced")  # off by default
    assert savegame.setting(app.settings, "confirm_new")  # on by default
    click_button(app, dialog.buttons.find("switch:auto_forced"))
    assert savegame.load_settings()["auto_forced"] is True
    assert view.dialog is not None
    switch = view.dialog.buttons.find("switch:auto_forced")
    assert switch is not None and switch.label.text == "On"
    again = app.show_start()
    assert savegame.setting(again.app.settings, "auto_forced")


def test_the_practice_switch_goes_into_the_new_matchs_setup(app: App) -> None:
    view = app.show_start()
    view.on_draw()
    press(app, arcade.key.S)
    assert view.dialog is not None
    view.on_draw()
    click_button(app, view.dialog.buttons.find("switch:practice"))
    press(app, arcade.key.ESCAPE)
    new = view.buttons.find("new")
    assert new is not None and new.label.text.startswith("New practice match")
    click_button(app, new)
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver) and table.setup.practice
    assert table.driver.session.meta["setup"]["practice"] is True
    assert Setup.from_json(table.driver.session.meta["setup"]).practice


def test_the_bots_are_shown_by_their_levels_names(app: App) -> None:
    view = app.show_start()
    labels = {
        b.name.removeprefix("bot:"): b.label.text
        for b in view.buttons.buttons
        if b.name.startswith("bot:")
    }
    assert labels == {"random": "Beginner", "greedy": "Casual", "expert": "Expert"}
    click_button(app, view.buttons.find("bot:expert"))
    assert view.setup.bot == "expert"  # the command line's name stays the bot's name
    assert view.bot_text.text.startswith("Expert: Searches")
    click_button(app, view.buttons.find("bot:random"))
    assert view.bot_text.text.startswith("Beginner (random): ")


def test_the_packs_are_listed_by_their_titles(app: App) -> None:
    view = app.show_start()
    click_button(app, view.buttons.find("game:belote"))
    click_button(app, view.pack_buttons.find("pack:official"))
    button = view.pack_buttons.find("pack:official")
    assert button is not None and button.label.text == "Official rules"
    assert view.pack_text.text.startswith("Official rules (official): The official")


def test_your_own_rules_are_saved_as_a_pack_and_chosen(app: App) -> None:
    view = app.show_start()
    click_button(app, view.buttons.find("game:belote"))
    click_button(app, view.pack_buttons.find("pack:official"))
    press(app, arcade.key.E)
    dialog = view.dialog
    assert dialog is not None and dialog.name == "rules"
    view.on_draw()
    click_button(app, dialog.buttons.find("option:direction"))
    assert view.dialog is not None
    button = view.dialog.buttons.find("option:direction")
    assert button is not None and button.label.text == "Clockwise"  # the choice by its title
    view.on_draw()
    click_button(app, view.dialog.buttons.find("save-rules"))
    assert view.dialog is None and view.setup.pack == "my-belote"
    path = user_dir() / "my-belote.yaml"
    rules = load_rules(app.engine, str(path))
    assert rules == app.engine.default_rules("belote").replace(direction="clockwise")
    assert view.pack_text.text.startswith("My rules (my-belote): ")
    # a second save never replaces the first
    press(app, arcade.key.E)
    assert view.dialog is not None
    click_button(app, view.dialog.buttons.find("save-rules"))
    assert view.setup.pack == "my-belote-2" and path.exists()
    click_button(app, view.buttons.find("new"))
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver) and table.match.rules["direction"] == "clockwise"


def test_own_rules_the_game_refuses_are_not_written(app: App) -> None:
    with pytest.raises(AtoutError):
        savegame.save_own_pack(app.engine, "belote", {"direction": "sideways"}, "x")
    assert not user_dir().exists() or not list(user_dir().iterdir())


def test_the_language_is_chosen_on_the_settings_panel_and_kept(app: App) -> None:
    """Français in the settings panel: the start view is built again at once in French
    (its panel open), the choice is kept in the settings file for the next start, and
    English takes everything back."""
    view = app.show_start()
    view.on_draw()
    press(app, arcade.key.S)
    assert view.dialog is not None
    try:
        click_button(app, view.dialog.buttons.find("language:fr"))
        assert i18n.language() == "fr"
        assert savegame.load_settings()["language"] == "fr"
        assert view.dialog is not None and view.dialog.name == "settings"
        chosen = view.dialog.buttons.find("language:fr")
        assert chosen is not None and chosen.selected
        view.on_draw()
        shown = " ".join(t.text for t in view.layer.texts)
        assert "Score à atteindre" in shown and "Target score" not in shown
        assert i18n.choose_language(None, savegame.load_settings(), {"LANG": "de_DE"}) == "fr"
        click_button(app, view.dialog.buttons.find("language:en"))
        assert "Target score" in " ".join(t.text for t in view.layer.texts)
        assert savegame.load_settings()["language"] == "en"
    finally:
        i18n.set_language("en")


def ink_counts(card: str) -> tuple[int, int, int]:
    """How many pixels of the card's face are mostly red, mostly blue, mostly green."""
    from atout.core.cards import parse_card
    from atout.ui.window.sprites import face_image

    pixels = list(face_image(parse_card(card)).convert("RGB").getdata())
    red = sum(1 for r, g, b in pixels if r > 150 and g < 90 and b < 90)
    blue = sum(1 for r, g, b in pixels if b > 150 and r < 90 and g < 130)
    green = sum(1 for r, g, b in pixels if g > 100 and r < 60 and b < 90)
    return red, blue, green


def test_the_four_colour_deck_is_a_setting_kept_for_the_window_and_the_terminal(
    app: App,
) -> None:
    """The Settings panel's switch paints diamonds blue and clubs green on the cards and
    in the side bar's words, hearts stay red and spades black; it is kept in the
    settings file, where the terminal reads it too, and a new start keeps it."""
    from atout.core.cards import CLUBS
    from atout.core.cards import DIAMONDS
    from atout.core.cards import HEARTS
    from atout.ui.terminal_match import four_colour_setting
    from atout.ui.window import theme
    from atout.ui.window.words import suit_colour

    assert ink_counts("9D")[0] > 200 and ink_counts("9D")[1] == 0  # arcade's red diamonds
    view = app.show_start()
    view.on_draw()
    press(app, arcade.key.S)
    assert view.dialog is not None
    view.on_draw()
    texts = " ".join(t.text for t in view.dialog.layer.texts)
    assert "Four-colour deck" in texts
    try:
        click_button(app, view.dialog.buttons.find("switch:four_colour"))
        assert savegame.load_settings()["four_colour"] is True and four_colour_setting()
        assert theme.four_colour()
        red, blue, green = ink_counts("9D")
        assert blue > 200 and red == 0, (red, blue, green)
        red, blue, green = ink_counts("KC")
        assert green > 200 and red == 0, (red, blue, green)
        assert ink_counts("9H")[0] > 200  # hearts stay red
        assert suit_colour(DIAMONDS) == theme.BLUE_DIAMONDS
        assert suit_colour(CLUBS) == theme.GREEN_CLUBS and suit_colour(HEARTS) == theme.RED
        again = App(app.window, app.engine, speed=0.25)
        assert theme.four_colour() and savegame.setting(again.settings, "four_colour")
        again.shutdown()
    finally:
        theme.set_four_colour(False)


def test_the_levels_the_packs_and_the_games_are_named_in_the_language(app: App) -> None:
    """The start view names the bots' levels, the game and the shipped packs in the
    chosen language (they come from the plugins and the packs, marked for the catalogs)."""
    i18n.set_language("fr")
    try:
        view = app.show_start()
        labels = {b.name: b.label.text for b in view.buttons.buttons if b.name.startswith("bot:")}
        assert labels == {"bot:random": "Débutant", "bot:greedy": "Amateur", "bot:expert": "Expert"}
        click_button(app, view.buttons.find("bot:random"))
        assert view.bot_text.text.startswith("Débutant (random)\u00a0: Joue une carte permise")
        click_button(app, view.buttons.find("game:belote"))
        assert view.game_text.text.startswith("La Belote classique à quatre")
        click_button(app, view.pack_buttons.find("pack:official"))
        button = view.pack_buttons.find("pack:official")
        assert button is not None and button.label.text == "Règles officielles"
        assert view.pack_text.text.startswith("Règles officielles (official)\u00a0: Les règles")
    finally:
        i18n.set_language("en")
