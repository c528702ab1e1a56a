"""The Arcade table, driven by dispatched clicks and keys on the session's hidden window.

Every number the tests compare comes from the engine (the deal's view, ``deal.explain``,
a record replayed independently); the table must show exactly that.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import arcade
import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import Rules
from atout.core import View
from atout.core import cards_of
from atout.core.packs import list_packs
from atout.core.records import deal_from_record
from atout.core.records import load_json
from atout.plugins.bots.basic import RandomBot
from atout.ui import savegame
from atout.ui.cards_text import HUMAN
from atout.ui.cards_text import show_card
from atout.ui.savegame import Setup
from atout.ui.window import theme
from atout.ui.window.app import App
from atout.ui.window.table import Table
from atout.ui.window.table_belote import BeloteLayout
from atout.ui.window.table_decouverte import DecouverteLayout
from atout.ui.window.words import announce_words
from PIL import Image
from ui_helpers import click
from ui_helpers import click_button
from ui_helpers import human_to_act
from ui_helpers import press
from ui_helpers import pump
from ui_helpers import step

pytestmark = pytest.mark.ui


def start(
    app: App, game: str = "decouverte", seed: int = 5, pack: str = "", practice: bool = False
) -> Table:
    setup = Setup(game=game, pack=pack, bot="random", seed=seed, practice=practice)
    from atout.ui.rules import resolve_rules

    return app.start_match(setup, resolve_rules(app.engine, setup.game, setup.pack, setup.target))


def texts_of(table: Table) -> list[str]:
    return [t.text for t in table.deal_panel.texts]


def play_as_person(app: App, table: Table, rng: random.Random, bid: str = "take") -> None:
    """Act once as the person: a bid button, or a click on a legal card."""
    view = table.view
    assert view is not None
    if view.phase == "bidding":
        button = table.input.bid_buttons.find(f"bid:{bid}") or table.input.bid_buttons.find(
            "bid:pass"
        )
        click_button(app, button)
    else:
        card = rng.choice(list(cards_of(view.legal)))
        sprite = table.board.cards[card]
        click(app, sprite.center_x, sprite.center_y)


def play_deal_by_clicks(app: App, table: Table, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        pump(table, lambda: human_to_act(table) or table.stage != "play", frames=300, dt=0.3)
        if table.stage != "play":
            break
        before = len(table.deal.actions) if table.deal else 0
        play_as_person(app, table, rng)
        assert table.deal is not None and len(table.deal.actions) == before + 1
    pump(table, lambda: table.stage in ("deal_over", "match_over"))


def assert_panel_matches_engine(table: Table, data_home: Path, engine: Engine) -> None:
    """The end-of-deal panel shows the engine's score, and the saved deal record replays
    (independently of the table) to that same score."""
    deal = table.deal
    assert deal is not None and deal.score is not None
    shown = texts_of(table)
    score = deal.score
    for team in range(table.info.teams):
        for value in (score.card_points[team], score.score[team], table.match.scores[team]):
            assert str(value) in shown
    assert table.deal_path is not None and table.deal_path.parent == data_home / "records"
    replayed = deal_from_record(engine, load_json(table.deal_path), "saved record")
    assert replayed.score is not None
    assert replayed.score.score == score.score
    assert replayed.score.card_points == score.card_points
    assert any(t.endswith(table.deal_path.name) for t in shown)  # its name, not the path


# --- the start view ---------------------------------------------------------------------------


def test_start_view_lists_the_shipped_packs_of_each_game(app: App) -> None:
    view = app.show_start()
    packs = list_packs(app.engine)
    for game in ("decouverte", "belote"):
        click_button(app, view.buttons.find(f"game:{game}"))
        expected = {p.name for p in packs if p.game == game}
        assert expected, f"no shipped pack for {game}"
        for _ in range(10):  # the list opens on the chosen pack's page: to the first
            up = view.buttons.find("packs-up")
            if up is None or not up.enabled:
                break
            click_button(app, up)
        listed: set[str] = set()
        for _ in range(10):
            listed |= {b.name.removeprefix("pack:") for b in view.pack_buttons.buttons}
            down = view.buttons.find("packs-down")
            if down is None or not down.enabled:
                break
            click_button(app, down)
        assert listed == expected
    assert view.buttons.find("continue") is None  # nothing saved yet


def test_the_start_views_descriptions_stay_inside_their_panels(app: App) -> None:
    """Every description of a game, bot or pack wraps inside the 530-pixel column of its
    panel instead of running off into the next one."""
    view = app.show_start()
    for game in ("decouverte", "belote"):
        click_button(app, view.buttons.find(f"game:{game}"))
        bots = [
            b.name.removeprefix("bot:") for b in view.buttons.buttons if b.name.startswith("bot:")
        ]
        assert bots
        for bot in bots:
            click_button(app, view.buttons.find(f"bot:{bot}"))
            for text in (view.game_text, view.bot_text, view.pack_text):
                assert text.text and text.content_width <= 530, (game, bot, text.text)


def test_new_match_from_the_start_view_with_a_seed_and_a_pack(app: App) -> None:
    view = app.show_start()
    click_button(app, view.buttons.find("game:decouverte"))
    click_button(app, view.pack_buttons.find("pack:decouverte-reveal-on-lead"))
    click_button(app, view.buttons.find("bot:random"))
    click_button(app, view.buttons.find("seed"))
    app.window.dispatch_event("on_text", "4242")
    app.window.dispatch_events()
    view.on_draw()
    click_button(app, view.buttons.find("new"))
    table = app.window.current_view
    assert isinstance(table.layout, DecouverteLayout)
    assert table.match.seed == 4242
    assert table.match.rules.pack == "decouverte-reveal-on-lead"
    assert table.match.rules["reveal_on_lead"] is True


# --- the Découverte table ---------------------------------------------------------------------


def test_decouverte_table_shows_sixteen_piles_as_the_deal_lays_them(app: App) -> None:
    table = start(app)
    pump(table, lambda: not table.busy())
    assert isinstance(table.layout, DecouverteLayout)
    view = table.view
    assert view is not None
    faces = [s for s in table.board.cards.values() if s.visible]
    assert len(faces) == 16
    for seat in (0, 1):
        for pos, pile in enumerate(view.piles[seat]):
            assert pile.top is not None and pile.covered
            sprite = table.board.cards[pile.top]
            assert (sprite.center_x, sprite.center_y) == table.layout.pile_xy(seat, pos)
            # face up, lying on its face-down card (drawn with it: see the screenshot test)
            assert sprite.face_up and sprite.covered
    assert not any(s.visible for s in table.board.backs.values())


def test_screenshot_has_card_pixels_where_the_piles_are(app: App) -> None:
    table = start(app, seed=8)
    pump(table, lambda: not table.busy())
    table.on_draw()
    image: Image.Image = arcade.get_image().convert("RGB")
    assert image.size == (1280, 720)
    colours = image.resize((160, 90)).getcolors(maxcolors=100000)
    assert colours is not None and len(colours) > 200  # not blank
    half_w = theme.CARD_W * table.layout.card_scale / 2
    for seat in (0, 1):
        for pos in range(8):
            x, y = table.layout.pile_xy(seat, pos)
            # the top-left corner region of a card is white card stock
            px = image.getpixel((int(x - 30), int(720 - (y + 20))))
            assert isinstance(px, tuple) and min(px[:3]) > 200, (seat, pos, px)
            # and right of it shows the red edge of the face-down card beneath
            strip = [
                image.getpixel((int(x + half_w + dx), int(720 - (y - 20)))) for dx in range(1, 8)
            ]
            assert any(isinstance(p, tuple) and p[0] > p[1] + 80 for p in strip), (seat, pos, strip)
    # and the felt between the rows is green
    felt = image.getpixel((40, 360))
    assert isinstance(felt, tuple) and felt[1] > felt[0] + 30 and felt[1] > felt[2] + 20


def test_clicking_a_legal_card_plays_it_and_the_card_beneath_turns(app: App) -> None:
    table = start(app, seed=21)
    rng = random.Random(3)
    pump(table, lambda: human_to_act(table))
    while table.view is not None and table.view.phase == "bidding":
        play_as_person(app, table, rng, bid="take")
        pump(table, lambda: human_to_act(table) or table.stage != "play")
    view = table.view
    assert table.deal is not None and view is not None and view.phase == "play"
    covered = [
        (pos, p.top)
        for pos, p in enumerate(view.piles[HUMAN])
        if p.top is not None and p.covered and view.legal >> p.top & 1
    ]
    pos, card = covered[0]
    tricks = len(view.tricks)
    click(app, *table.layout.pile_xy(HUMAN, pos))
    assert table.deal.actions[-1] == (HUMAN, Action.play(card))
    # the card goes to the trick (or the trick is already complete and held there)
    pump(table, lambda: len(table.view.tricks) > tricks if table.view else False)
    view = table.view
    assert view is not None
    turned = view.piles[HUMAN][pos]
    assert turned.top is not None and not turned.covered
    sprite = table.board.cards[turned.top]
    step(table, 0.01)
    assert sprite.visible and not sprite.face_up, "the turned card starts face down"
    assert any(m.flip for m in sprite.motions)
    pump(table, lambda: not table.busy())
    assert sprite.face_up and (sprite.center_x, sprite.center_y) == table.layout.pile_xy(HUMAN, pos)
    assert not table.board.cards[card].visible  # the trick went to its winner


def test_reveal_on_lead_turns_the_card_at_once(app: App) -> None:
    table = start(app, seed=33, pack="decouverte-reveal-on-lead")
    rng = random.Random(4)
    for _ in range(60):
        pump(table, lambda: human_to_act(table))
        view = table.view
        assert view is not None
        if view.phase == "play" and not view.trick:
            break
        play_as_person(app, table, rng)
    view = table.view
    assert view is not None and table.deal is not None
    pos, card = next(
        (i, p.top) for i, p in enumerate(view.piles[HUMAN]) if p.top is not None and p.covered
    )
    click(app, *table.layout.pile_xy(HUMAN, pos))
    after = table.view
    assert after is not None and after.trick == ((HUMAN, card),)
    turned = after.piles[HUMAN][pos]
    assert turned.top is not None and not turned.covered
    sprite = table.board.cards[turned.top]
    assert any(m.flip for m in sprite.motions)
    pump(table, lambda: not sprite.motions)
    assert sprite.face_up and len(table.view.tricks if table.view else ()) == len(view.tricks)


def test_clicking_an_illegal_card_plays_nothing_and_shows_the_rule(app: App) -> None:
    table = start(app, seed=2)
    rng = random.Random(9)
    for _ in range(80):
        pump(table, lambda: human_to_act(table) or table.stage != "play")
        assert table.stage == "play", "no illegal card came up in this deal"
        view = table.view
        assert view is not None
        illegal = [c for c in cards_of(view.hand) if not view.legal >> c & 1]
        if view.phase == "play" and illegal:
            break
        play_as_person(app, table, rng)
    assert table.deal is not None and view is not None
    card = illegal[0]
    actions = list(table.deal.actions)
    assert table.board.cards[card].dim  # washed grey
    click(app, table.board.cards[card].center_x, table.board.cards[card].center_y)
    assert table.deal.actions == actions
    reason = table.deal.explain(card)
    assert reason and reason in table.toast.message
    assert show_card(card) in table.toast.message


def test_a_whole_decouverte_deal_by_clicks_reaches_the_engines_score(
    app: App, data_home: Path
) -> None:
    table = start(app, seed=13)
    play_deal_by_clicks(app, table, 13)
    assert table.stage == "deal_over"
    assert_panel_matches_engine(table, data_home, app.engine)
    sheet = [t.text for t in table.sheet.texts]
    assert str(table.match.scores[0]) in sheet and str(table.match.scores[1]) in sheet
    table.on_draw()
    click_button(app, table.deal_panel.buttons.find("next-deal"))
    assert table.stage == "play" and len(table.match.history) == 1


def test_last_trick_help_and_menu_overlays(app: App) -> None:
    table = start(app, seed=17)
    rng = random.Random(2)
    pump(table, lambda: human_to_act(table))
    while table.view is not None and not table.view.tricks:
        play_as_person(app, table, rng)
        pump(table, lambda: human_to_act(table) or table.stage != "play")
    press(app, arcade.key.L)
    assert table.overlay.name == "last"
    last = table.view.tricks[-1] if table.view else None
    assert last is not None and [c for c, _ in table.overlay.cards] == list(last.cards)
    table.on_draw()
    press(app, arcade.key.L)
    assert table.overlay.name == ""
    press(app, arcade.key.SLASH)
    assert table.overlay.name == "help"
    assert any(t.text == "U" for t in table.overlay.texts)
    click(app, 20, 20)
    assert table.overlay.name == ""
    press(app, arcade.key.ESCAPE)
    assert table.overlay.name == "menu"
    actions = len(table.deal.actions) if table.deal else 0
    for _ in range(10):  # the menu pauses the table
        step(table, 0.5)
    assert table.deal is not None and len(table.deal.actions) == actions
    click_button(app, table.overlay.buttons.find("resume"))
    assert table.overlay.name == ""


def test_undo_takes_back_the_persons_last_card(app: App) -> None:
    """In a practice match, even after the bots answered (see tests/ui/test_undo.py for
    the refusal outside practice)."""
    table = start(app, seed=19, practice=True)
    rng = random.Random(5)
    pump(table, lambda: human_to_act(table))
    while table.view is not None and table.view.phase == "bidding":
        play_as_person(app, table, rng)
        pump(table, lambda: human_to_act(table))
    before: View | None = table.view
    assert before is not None and table.deal is not None
    n = len(table.deal.actions)
    play_as_person(app, table, rng)
    pump(table, lambda: human_to_act(table) or table.stage != "play")
    assert table.deal is not None and len(table.deal.actions) > n
    press(app, arcade.key.U)
    assert table.deal is not None and len(table.deal.actions) == n
    after = table.view
    assert after is not None
    assert after.hand == before.hand and after.piles == before.piles and after.trick == before.trick
    assert all(table.board.cards[c].visible for c in cards_of(after.hand))


def test_hint_lights_the_card_the_hint_bot_suggests(app: App) -> None:
    app.hint_bot = "random"
    table = start(app, seed=23)
    rng = random.Random(6)
    pump(table, lambda: human_to_act(table))
    while table.view is not None and table.view.phase == "bidding":
        play_as_person(app, table, rng)
        pump(table, lambda: human_to_act(table))
    press(app, arcade.key.H)
    job = table.driver.hint_job
    assert job is not None and job.wait(10)
    step(table, 0.01)
    assert table.hint is not None and table.hint.kind == "play"
    view = table.view
    assert view is not None and view.legal >> table.hint.value & 1
    assert (table.hint.value, (80, 200, 255, 255)) in table.board.glow_cards
    assert show_card(table.hint.value) in table.toast.message


# --- saving and Continue ----------------------------------------------------------------------


def test_quit_and_continue_restore_the_same_position(
    app: App, window: arcade.Window, engine: Engine
) -> None:
    table = start(app, seed=29)
    rng = random.Random(8)
    for _ in range(7):
        pump(table, lambda: human_to_act(table))
        play_as_person(app, table, rng)
    pump(table, lambda: human_to_act(table))
    view = table.view
    assert view is not None and table.deal is not None
    actions = list(table.deal.actions)
    app.on_close()  # what closing the window does (the window itself lives on for the session)
    assert savegame.has_saved_match()

    again = App(window, engine, speed=0.25)
    try:
        start_view = again.show_start()
        continue_button = start_view.buttons.find("continue")
        assert continue_button is not None and continue_button.visible
        start_view.on_draw()
        click_button(again, continue_button)
        resumed = window.current_view
        assert isinstance(resumed.layout, DecouverteLayout)
        assert resumed.deal is not None and resumed.deal.actions == actions
        assert resumed.view == view
        assert resumed.match.seed == table.match.seed
        pump(resumed, lambda: not resumed.busy())
        assert all(
            (resumed.board.cards[p.top].center_x, resumed.board.cards[p.top].center_y)
            == resumed.layout.pile_xy(s, i)
            for s in (0, 1)
            for i, p in enumerate(view.piles[s])
            if p.top is not None
        )
    finally:
        again.leave_table()
        again.shutdown()


# --- the four-player table --------------------------------------------------------------------


def test_a_whole_four_player_deal_by_clicks_reaches_the_engines_score(
    app: App, data_home: Path
) -> None:
    table = start(app, game="belote", seed=3)
    assert isinstance(table.layout, BeloteLayout)
    pump(table, lambda: not table.busy())
    view = table.view
    assert view is not None
    assert sum(1 for s in table.board.backs.values() if s.visible) == sum(view.hand_sizes[1:])
    assert all(table.board.cards[c].visible for c in cards_of(view.hand))
    assert view.turnup is not None and table.board.cards[view.turnup].visible
    play_deal_by_clicks(app, table, 3)
    assert_panel_matches_engine(table, data_home, app.engine)


def test_four_player_announcements_are_shown_once_in_a_bubble(app: App) -> None:
    """Find a seeded deal where someone announces (a declaration, belote, rebelote) and
    check the table says it in the seat's bubble, and not a second time in a message."""
    for seed in range(40):
        table = start(app, game="belote", seed=seed)
        rng = random.Random(seed)
        seen: list[str] = []
        messages: list[str] = []
        say = table.bubble

        def heard(
            seat: int, words: str, seconds: float, say: Any = say, seen: list[str] = seen
        ) -> None:
            seen.append(words.lower())
            say(seat, words, seconds)

        table.bubble = heard  # type: ignore[method-assign]
        for _ in range(200):
            pump(table, lambda t=table: human_to_act(t) or t.stage != "play", dt=0.3)
            if table.stage != "play":
                break
            play_as_person(app, table, rng)
            messages.append(table.toast.message)
        view = table.view
        if view is not None and view.announcements:
            said = [announce_words(a.text, a.cards).lower() for a in view.announcements]
            assert any(words in seen for words in said), "announcements were made but never shown"
            assert not any("announces" in m for m in messages), "said twice"
            return
    pytest.fail("no announcement in 40 seeded deals")


# --- responsiveness ---------------------------------------------------------------------------


class SlowBot:
    """A bot that computes (holding the interpreter, as a search does) until released."""

    def __init__(self, seed: int, release: threading.Event, started: threading.Event) -> None:
        self.inner = RandomBot(seed)
        self.release = release
        self.started = started

    def choose(self, view: View) -> Action:
        self.started.set()
        total = 0
        while not self.release.is_set():
            total += sum(range(2000))
        return self.inner.choose(view)


def test_the_window_keeps_drawing_while_a_slow_bot_thinks(
    window: arcade.Window, engine: Engine, data_home: Path
) -> None:
    release = threading.Event()
    started = threading.Event()

    def factory(game: str, seat: int, rules: Rules, seed: int) -> Any:
        return SlowBot(seed, release, started)

    app = App(window, engine, speed=0.25, bot_factory=factory)
    try:
        # North deals the first deal, so... find a seed where North acts first in the play
        table = start(app, seed=31)
        rng = random.Random(1)
        for _ in range(40):
            pump(table, lambda: human_to_act(table) or table.driver.job is not None)
            if table.driver.job is not None:
                break
            play_as_person(app, table, rng, bid="pass")
        assert table.driver.job is not None and started.wait(10)
        assert table.deal is not None
        actions = len(table.deal.actions)
        frames = table.frames
        for _ in range(30):
            table.on_update(1 / 60)
            table.on_draw()
        assert table.frames == frames + 30
        assert not table.driver.job.done and len(table.deal.actions) == actions
        assert table.status_panel.status.text.startswith("North")
        release.set()
        pump(table, lambda: table.deal is not None and len(table.deal.actions) > actions)
    finally:
        release.set()
        app.leave_table()
        app.shutdown()
