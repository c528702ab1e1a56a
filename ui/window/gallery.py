"""Every screen of the window, at every window size: the gallery of screenshots.

:func:`screens` drives an :class:`~atout.ui.window.app.App` through each screen of both
games with seeded matches (the start view, the screen of the matches with people, two
people at one screen, a hosted table waiting for players, the bidding once the deal has
landed, the play with a hint, the help, the menu, the last trick, the cards not seen yet,
the end of a deal and its review (at a card and at a bid), the end of a match; La Coinche
for four and for two: the auction's grid, the contract in the side bar (doubled; a
capot), the end of the deal and its review; every page of the Rules screen, the guided
deal's steps) and stops at each one;
:func:`write_gallery` draws every stop at each size of :data:`SIZES` on an offscreen
surface and writes a PNG of :data:`COLOURS` colours (``atout play --screenshots DIR``).  The layout tests walk the
same screens and check what they draw.

Bots play at once (speed 0) and think on the app's worker; the hint comes from the greedy
bot (the gallery is about the table, not the search), but for the guided deal's, which
is the expert's and says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import arcade
from atout.core import Action
from atout.core import Engine
from atout.core.cards import SUIT_MASKS
from atout.core.cards import cards_of
from atout.core.cards import popcount
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.plugins.review import ReviewOptions
from PIL import Image

from ..cards_text import HUMAN
from ..i18n import _
from ..rules import resolve_rules
from ..savegame import Setup
from .app import App
from .app import make_window
from .driver import match_driver
from .table import Table
from .table_stage import Stage

SIZES: tuple[tuple[int, int], ...] = ((1280, 720), (800, 600), (1920, 1080), (900, 1200))
"""The window sizes of the gallery and the layout tests: the usual, the smallest, a
large one and a tall one."""
COLOURS = 64
"""The PNGs' palette: a table is flat colours and a few card pictures, and 64 colours
keep the files small enough for the repository (docs/screenshots)."""
SEEDS = {"decouverte": 11, "belote": 3, "coinche": 6, "coinche-decouverte": 4}
"""The matches the screens come from (chosen so that the person bids in both rounds of
Belote and Découverte, and may say contre in La Coinche for four)."""


@dataclass
class Screen:
    """One stop of the walk: its name (the PNG's) and the view on the window."""

    name: str
    view: arcade.View


def step(table: Table, dt: float = 0.05) -> None:
    """One frame of the table (a bot's question is waited for: the frame after it is the
    one that plays its answer)."""
    job = getattr(table.driver, "job", None)
    if job is not None and not job.done:
        job.wait(30)
    hint = getattr(table.driver, "hint_job", None)
    if hint is not None and not hint.done:
        hint.wait(30)
    table.on_update(dt)


def run_until(table: Table, done: Callable[[], bool], frames: int = 3000) -> bool:
    """Frames until ``done()`` holds (``False`` if it never does within ``frames``)."""
    for _step in range(frames):
        if done():
            return True
        step(table)
    return done()


def person_to(table: Table, phase: str) -> bool:
    view = table.view
    return (
        table.stage == Stage.PLAY
        and view is not None
        and view.turn == HUMAN
        and view.phase == phase
        and not table.busy()
    )


def play_out(table: Table) -> None:
    """The person's seat plays as a greedy bot would until the deal or the match ends."""
    session = match_driver(table).session
    stand_in = table.engine.bot("greedy", session.game, session.rules, seed=1)
    for _step in range(3000):  # a redeal (everybody passed) goes on to the next deal
        if table.stage.over:
            break
        if table.stage == Stage.PLAY and session.to_act == HUMAN and not table.busy():
            match_driver(table).apply(HUMAN, stand_in.choose(session.view(HUMAN)))
        step(table)


def start(app: App, game: str, target: int | None = None) -> Table:
    setup = Setup(game=game, bot="greedy", seed=SEEDS[game], target=target)
    rules = resolve_rules(app.engine, game, setup.pack, target)
    table = app.start_match(setup, rules)
    match_driver(table)  # a local session's
    return table


def screens(app: App) -> Iterator[Screen]:
    """Walk the window through every screen of both games, stopping at each."""
    app.speed = 0.0
    app.hint_bot = "greedy"
    for game in ("decouverte", "belote"):
        view = app.show_start()
        button = view.buttons.find(f"game:{game}")
        if button is not None:
            button.action()
        yield Screen(f"start-{game}", view)
        if game == "decouverte":
            yield from people_screens(app, view.chosen_setup())
        yield from deal_screens(app, start(app, game), game)
        table = start(app, game, target=100)
        for _step in range(10):
            play_out(table)
            if table.stage != Stage.DEAL_OVER:
                break
            table.driver.start_deal()
        if table.stage == Stage.MATCH_OVER:
            yield Screen(f"{game}-match-over", table)
        app.leave_table()
    yield from coinche_screens(app)
    yield from learning_screens(app)


def coinche_screens(app: App) -> Iterator[Screen]:
    """La Coinche for four and for two (standard rules), a deal each: the auction's grid
    (for four at the person's first bid over a contract bid standing: only the legal
    bids on it, contre among them; for two at the person's first bid), the table at the person's
    first card with the contract in the side bar (for four the person says contre to the
    opponents' contract when they may; for two the person bids a capot in their longest
    suit), the end of the deal with its score sheet, its review at a card and at a bid.
    The bids are chosen from the engine's description of each (no rule of the game)."""
    for game in ("coinche", "coinche-decouverte"):
        yield from coinche_deal(app, game)


def coinche_deal(app: App, game: str) -> Iterator[Screen]:
    """One deal of a Coinche game's screens (:func:`coinche_screens`)."""
    table = start(app, game)
    engine = table.engine

    def bidding() -> bool:
        return person_to(table, "bidding")

    def acting() -> bool:
        return bidding() or person_to(table, "play") or table.stage != Stage.PLAY

    if not run_until(table, bidding):
        app.leave_table()
        return
    shown = False
    for _step in range(12):  # the person's turns to bid, until the auction ends
        view = table.view
        if view is None or not bidding():
            break
        described = {b: engine.describe_bid(view.game, view.rules, b) for b in view.legal_bids}
        standing = any(
            engine.describe_bid(view.game, view.rules, b).kind == BID_CONTRACT
            for _s, b in view.bids
        )
        if not shown and (standing or game == "coinche-decouverte"):
            shown = True  # the grid of the bids left (above a contract bid standing)
            yield Screen(f"{game}-auction", table)
        doubles = [b for b, i in described.items() if i.kind == BID_DOUBLE]
        capots = sorted(
            (b for b, i in described.items() if i.capot and i.trump is not None),
            key=lambda b: -popcount(view.hand & SUIT_MASKS[described[b].trump or 0]),
        )
        if game == "coinche" and doubles:
            table.driver.human_bid(doubles[0])
        elif game == "coinche-decouverte" and capots and _step == 0:
            table.driver.human_bid(capots[0])
        else:
            table.driver.human_bid("pass")
        run_until(table, acting)
        if table.stage == Stage.REDEAL:  # everybody passed: the next deal's auction
            run_until(table, acting)
    if run_until(table, lambda: person_to(table, "play")):
        step(table)
        yield Screen(f"{game}-contract", table)
    play_out(table)
    if table.stage == Stage.DEAL_OVER:
        yield Screen(f"{game}-deal-over", table)
        yield from review_screen(table, game)
    app.leave_table()


def learning_screens(app: App) -> Iterator[Screen]:
    """Every page of the Rules screen of both games (the standard rules), then the
    guided deal's steps: the bidding, the first lead and the expert's hint for it (with
    its reason), a card to follow with the rule that refuses the others, a card turned,
    the count at the end."""
    from .guided import FIRST_TURN
    from .guided import GuidedDriver
    from .guided import start_guided
    from .rules_view import RulesView

    back = app.show_start()
    for game in ("decouverte", "belote"):
        rules_view = RulesView(app, app.engine.default_rules(game), back)
        app.window.show_view(rules_view)
        for index in range(len(rules_view.pages)):
            rules_view.show_page(index)
            yield Screen(f"rules-{game}-{index + 1}", rules_view)
    table = start_guided(app)
    coach = table.driver
    assert isinstance(coach, GuidedDriver)

    def ready() -> bool:
        return person_to(table, "bidding") or person_to(table, "play")

    def settled() -> Table:
        """The table after a frame more: the cards stand where the view puts them."""
        step(table)
        return table

    run_until(table, ready)
    yield Screen("guided-bidding", settled())
    table.driver.human_bid("take")
    run_until(table, ready)
    yield Screen("guided-lead", settled())
    hint_bot, app.hint_bot = app.hint_bot, "expert"  # a hint that says why
    try:
        table.driver.ask_hint()
        run_until(table, lambda: table.hint is not None, frames=400)
    finally:
        app.hint_bot = hint_bot
    if table.hint is not None:
        yield Screen("guided-hint", settled())
    shown = {"follow": False, "turned": False}
    while table.stage == Stage.PLAY:
        if not run_until(table, lambda: ready() or table.stage != Stage.PLAY):
            break
        if table.stage != Stage.PLAY:
            break
        view = match_driver(table).session.view(HUMAN)
        words = coach.coach_text.text if coach.coach_text is not None else ""
        if not shown["turned"] and _(FIRST_TURN) in words:
            shown["turned"] = True
            yield Screen("guided-turned", settled())
        elif not shown["follow"] and view.trick and view.to_act and view.hand & ~view.legal:
            # following, some cards refused: the coach says why not
            shown["follow"] = True
            yield Screen("guided-follow", settled())
        # the lowest card: the opponent leads some tricks, and the person follows
        card = min(cards_of(view.legal), key=lambda c: (c & 7 in (2, 4), c & 7))
        match_driver(table).apply(HUMAN, Action.play(card))
    run_until(table, lambda: table.stage != Stage.PLAY and not table.busy())
    yield Screen("guided-count", settled())
    app.leave_table()


def people_screens(app: App, setup: Setup) -> Iterator[Screen]:
    """The screen of the matches with people, two people at one screen a few tricks into
    a deal, and a table hosted from the window waiting for the others (its server runs
    on this machine only, on a free port, while the screen is shown)."""
    from atout.ui.net.address import TableOrder

    from .net_connect import host

    view = app.show_people(setup)
    view.values.update(first="Anna", second="Ben")
    view.refresh()
    yield Screen("people", view)
    setup = Setup(game="decouverte", bot="greedy", seed=SEEDS["decouverte"])
    rules = resolve_rules(app.engine, setup.game, setup.pack)
    table = app.start_people(setup, rules, ["Anna", "Ben"])
    session = match_driver(table).session
    stand_in = app.engine.bot("greedy", session.game, session.rules, seed=4)
    for _step in range(3000):
        view_now = table.view
        if view_now is not None and len(view_now.tricks) >= 3 and not table.busy():
            break
        seat = session.to_act
        if table.stage == Stage.PLAY and seat is not None and not table.busy():
            match_driver(table).apply(seat, stand_in.choose(session.view(seat)))
        step(table)
    run_until(table, lambda: not table.toast.visible(table.clock) and not table.busy())
    yield Screen("decouverte-two-people", table)
    link = host(app.engine, TableOrder(rules, "greedy", setup.seed, "Anna"), ("127.0.0.1", 0))
    yield Screen("decouverte-hosted", app.show_net_table(setup, link))
    app.leave_table()  # the table's connection closes and its server stops


def deal_screens(app: App, table: Table, game: str) -> Iterator[Screen]:
    """The screens of one deal: the bidding (both rounds: the person passes), the play
    with a hint, the panels over the table, the end of the deal."""

    def bidding() -> bool:
        return person_to(table, "bidding")

    def playing() -> bool:
        return person_to(table, "play")

    def acting() -> bool:
        return bidding() or playing()

    if run_until(table, bidding):
        yield Screen(f"{game}-bidding", table)
    for _step in range(4):  # the person passes until the second round (or the play) comes
        view = table.view
        if view is None or view.phase != "bidding" or "take" not in view.legal_bids:
            break
        table.driver.human_bid("pass")
        run_until(table, acting)
    if bidding():
        yield Screen(f"{game}-bidding-round-2", table)
        table.driver.human_bid("pass")
    run_until(table, lambda: playing() or table.stage != Stage.PLAY)
    if table.stage == Stage.REDEAL:
        run_until(table, acting)
        while bidding():
            view = table.view
            assert view is not None
            table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])
            run_until(table, acting)
    if playing():
        stand_in = app.engine.bot(
            "greedy", match_driver(table).session.game, match_driver(table).session.rules, seed=2
        )
        while table.view is not None and len(table.view.tricks) < 2:  # a trick or two in
            if not run_until(table, playing):
                break
            match_driver(table).apply(
                HUMAN, stand_in.choose(match_driver(table).session.view(HUMAN))
            )
        run_until(table, playing)
        table.driver.ask_hint()
        run_until(table, lambda: table.hint is not None, frames=400)
        yield Screen(f"{game}-play-hint", table)
        for panel in ("last", "help", "menu"):
            table.open_overlay(panel)
            yield Screen(f"{game}-{'last-trick' if panel == 'last' else panel}", table)
        table.close_overlay()
        if game == "decouverte":  # the cards not seen yet, in the side bar (the C key)
            table.toggle_unseen()
            yield Screen(f"{game}-not-seen", table)
            table.toggle_unseen()
    play_out(table)
    if table.stage == Stage.DEAL_OVER:
        yield Screen(f"{game}-deal-over", table)
        yield from review_screen(table, game)


GALLERY_REVIEW = ReviewOptions(budget=0.01, exact_budget=0.05, samples=2, max_samples=2)
"""The gallery's review: a small fixed budget (the screen, not the values, is shown)."""


def review_screen(table: Table, game: str) -> Iterator[Screen]:
    """The Review screen of the deal just ended, every decision valued, at its fourth
    decision, then at the person's last bid (when they bid)."""
    table.review_options = GALLERY_REVIEW
    table.open_review()
    review = table.review
    if review is None:
        return
    deadline = time.monotonic() + 120
    while not review.finished and time.monotonic() < deadline:
        review.thread.join(0.05)
        review.poll()
    if review.decisions:
        review.show(min(3, review.done - 1))
        yield Screen(f"{game}-review", table)
        bids = [i for i, d in enumerate(review.decisions) if d.phase == "bidding"]
        if bids:  # a bid, with the proposed card and each bid's value
            review.show(bids[-1])
            yield Screen(f"{game}-review-bidding", table)
    table.close_review()


def draw_at(app: App, view: arcade.View, size: tuple[int, int]) -> None:
    """Draw ``view`` on an offscreen surface of ``size`` pixels (laid out for it)."""
    app.render_offscreen(size)
    view.on_draw()
    app.window.ctx.finish()


def write_gallery(
    folder: Path, sizes: tuple[tuple[int, int], ...] = SIZES, engine: Engine | None = None
) -> list[Path]:
    """Write a PNG of every screen at every size in ``folder`` (``NAME-WxH.png``); the
    window is hidden, nothing is saved, the user's files are untouched."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        window = arcade.get_window()
    except RuntimeError:
        window = make_window(visible=False)
    app = App(window, engine or Engine(), speed=0.0, persist=False)
    written: list[Path] = []
    try:
        for screen in screens(app):
            for size in sizes:
                draw_at(app, screen.view, size)
                path = folder / f"{screen.name}-{size[0]}x{size[1]}.png"
                image = app.snapshot().quantize(
                    COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
                )
                image.save(path, optimize=True)
                written.append(path)
            app.render_offscreen(None)
    finally:
        app.render_offscreen(None)
        app.leave_table()
        app.shutdown()
    return written
