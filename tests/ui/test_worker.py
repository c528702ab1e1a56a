"""Where the window's bots think: the bot process answers as the thread does, keeps each
bot between questions, drops stale questions, falls back to the thread when it must,
and ends with the window.

Waits have generous limits only so that a broken process fails the test instead of
hanging it: nothing here is timed.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Iterator
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

import arcade
import pytest
from atout.core import Action
from atout.core import Engine
from atout.core import Rules
from atout.core import make_plugin_manager
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.plugins.bots.basic import RandomBot
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.botproc import EngineRecipe
from atout.ui.window.botproc import plugin_names
from atout.ui.window.driver import MatchDriver
from atout.ui.window.worker import PROCESS
from atout.ui.window.worker import THREAD
from atout.ui.window.worker import BotWorker
from atout.ui.window.worker import Job
from helpers import third_party_plugins
from ui_helpers import pump

WAIT = 120.0


@pytest.fixture
def process_worker(engine: Engine) -> Iterator[BotWorker]:
    worker = BotWorker(engine, PROCESS)
    yield worker
    worker.stop()


def bots_at_every_seat(engine: Engine, game: str, seed: int, bot: str, **kw: Any) -> Session:
    seats = engine.game(game).seats
    return Session(engine, game, players=[Player(BOT, "", bot)] * seats, seed=seed, **kw)


def answered(job: Job) -> Any:
    assert job.wait(WAIT), "the bot did not answer"
    return job.error if job.error is not None else job.result


def play_twins(worker: BotWorker, engine: Engine, game: str, seed: int, bot: str) -> int:
    """Play a match's first deals twice from one seed, the worker's answers against the
    session's own (thread) bots; every answer must be the same.  Returns the answers."""
    ours = bots_at_every_seat(engine, game, seed, bot)
    twin = bots_at_every_seat(engine, game, seed, bot)
    count = 0
    while ours.result is None and ours.deals_scored < 2:
        if ours.needs_deal:
            ours.next_deal()
            twin.next_deal()
            continue
        seat = ours.to_act
        assert seat is not None and twin.to_act == seat
        job = worker.ask(ours, seat)
        answer = answered(job)
        assert job.where == PROCESS
        assert answer == twin.bot_question(seat)(), f"{game} seed {seed}: answer {count}"
        ours.bot_answer(seat, answer)
        twin.bot_answer(seat, answer)
        count += 1
    return count


@pytest.mark.parametrize("game", ["decouverte", "belote"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_bot_process_answers_as_the_thread_on_seeded_deals(
    process_worker: BotWorker, engine: Engine, game: str, bot: str
) -> None:
    # the random bot draws from its random source at every question: the process keeps
    # each bot object between questions, or the answers part from the second one
    for seed in (1, 2):
        assert play_twins(process_worker, engine, game, seed, bot) > 20
    assert process_worker.mode == PROCESS and not process_worker.fallback


def test_hints_come_from_the_hint_bot_in_the_process_as_on_the_thread(
    process_worker: BotWorker, engine: Engine
) -> None:
    players = [Player(PERSON, "You"), Player(BOT, "", "random")]
    ours = Session(engine, "decouverte", players=players, seed=4, hint_bot="random")
    twin = Session(engine, "decouverte", players=players, seed=4, hint_bot="random")
    ours.next_deal()
    twin.next_deal()
    hints = []
    for _ in range(6):  # the hint bot's random source goes on from hint to hint
        job = process_worker.ask(ours, ours.to_act or 0, hint=True)
        hints.append(answered(job))
        assert job.where == PROCESS
    assert hints == [twin.hint(twin.to_act or 0) for _ in range(6)]


def test_a_cancelled_question_is_dropped_and_never_reaches_its_bot(
    process_worker: BotWorker, engine: Engine
) -> None:
    ours = bots_at_every_seat(engine, "decouverte", 8, "random")
    twin = bots_at_every_seat(engine, "decouverte", 8, "random")
    ours.next_deal()
    twin.next_deal()
    seat = ours.to_act
    assert seat is not None
    answered(process_worker.ask(ours, seat))  # the process is up, the bot made
    twin.bot_question(seat)()
    release = threading.Event()
    blocker = process_worker.submit(release.wait)  # the worker is busy until released
    stale = process_worker.ask(ours, seat)
    process_worker.cancel_all()
    release.set()
    assert stale.done and stale.cancelled and not process_worker.is_current(stale)
    assert not process_worker.is_current(blocker)
    fresh = process_worker.ask(ours, seat)
    assert process_worker.is_current(fresh)
    # the stale question was never asked: the bot's second answer is its second draw
    assert answered(fresh) == twin.bot_question(seat)()
    assert fresh.where == PROCESS


def test_an_answer_that_arrives_after_an_undo_is_not_current(
    process_worker: BotWorker, engine: Engine
) -> None:
    ours = bots_at_every_seat(engine, "decouverte", 9, "greedy")
    ours.next_deal()
    seat = ours.to_act
    assert seat is not None
    job = process_worker.ask(ours, seat)
    process_worker.cancel_all()  # what the table does on an undo or a new match
    answered(job)
    assert not process_worker.is_current(job)


def test_views_and_rules_travel_to_the_bot_process(engine: Engine) -> None:
    for game in ("decouverte", "belote"):
        session = bots_at_every_seat(engine, game, 3, "random")
        while session.deals_scored < 1:
            if session.needs_deal:
                session.next_deal()
            seat = session.to_act
            assert seat is not None
            view = session.view(seat)
            back = pickle.loads(ForkingPickler.dumps(view))
            assert back == view and isinstance(back.rules, Rules)
            assert back.rules.pack == view.rules.pack
            session.act(seat, RandomBot(seat).choose(view))


# --- the thread, when the process cannot be -----------------------------------------------


def test_bots_handed_in_as_objects_think_on_the_thread(
    window: arcade.Window, engine: Engine, data_home: Path
) -> None:
    app = App(window, engine, speed=0.25, bot_factory=lambda g, s, r, seed: RandomBot(seed))
    try:
        assert app.worker.mode == THREAD
        table = app.start_match(Setup(bot="random", seed=3), engine.default_rules("decouverte"))
        seat = table.driver.session.to_act
        assert seat is not None
        job = app.worker.ask(table.driver.session, seat, hint=not table.driver.session.is_bot(seat))
        assert isinstance(answered(job), Action) and job.where == THREAD
        assert app.worker.process is None
    finally:
        app.leave_table()
        app.shutdown()


def test_an_engine_with_a_plugin_registered_by_hand_keeps_the_bots_on_the_thread() -> None:
    class Extra:
        pass

    pm = make_plugin_manager(disable=third_party_plugins())
    pm.register(Extra(), name="extra")
    engine = Engine(pm)
    assert EngineRecipe.of(engine) is None
    worker = BotWorker(engine, PROCESS)
    try:
        assert worker.mode == THREAD and "by hand" in worker.fallback
        session = bots_at_every_seat(engine, "decouverte", 2, "greedy")
        session.next_deal()
        job = worker.ask(session, session.to_act or 0)
        assert isinstance(answered(job), Action) and job.where == THREAD
    finally:
        worker.stop()


def test_a_bot_process_that_dies_leaves_the_bots_to_the_thread(
    process_worker: BotWorker, engine: Engine
) -> None:
    session = bots_at_every_seat(engine, "belote", 5, "greedy")
    session.next_deal()
    seat = session.to_act
    assert seat is not None
    first = process_worker.ask(session, seat)
    answered(first)
    process = process_worker.process
    assert first.where == PROCESS and process is not None
    process.kill()
    process.join(WAIT)
    job = process_worker.ask(session, seat)
    assert isinstance(answered(job), Action) and job.where == THREAD
    assert process_worker.mode == THREAD and "ended" in process_worker.fallback


PLUGIN = """
from atout.core import hookimpl
from atout.core.model import BotInfo
from atout.plugins.bots.basic import GreedyBot


class LastCard:
    def __init__(self, seed, engine):
        self.bidder = GreedyBot(seed, engine)

    def choose(self, view):
        if view.phase == "play":
            return view.legal_actions()[-1]
        return self.bidder.choose(view)


@hookimpl
def atout_bots():
    make = lambda seed, engine, **kw: LastCard(seed, engine)
    return [BotInfo("last", ("decouverte", "belote"), "The last legal card.", make)]
"""


def test_a_plugin_given_by_file_is_loaded_in_the_bot_process_too(tmp_path: Path) -> None:
    path = tmp_path / "lastcard.py"
    path.write_text(PLUGIN)
    engine = Engine(make_plugin_manager(plugins=[str(path)], disable=third_party_plugins()))
    recipe = EngineRecipe.of(engine)
    assert recipe is not None and recipe.plugins == (str(path.resolve()),)
    assert plugin_names(recipe.build()) == plugin_names(engine)
    worker = BotWorker(engine, PROCESS)
    try:
        assert play_twins(worker, engine, "decouverte", 3, "last") > 20
    finally:
        worker.stop()


# --- the window's life --------------------------------------------------------------------


def test_the_bot_process_ends_when_the_window_closes(app: App) -> None:
    assert app.worker.mode == PROCESS
    table = app.start_match(Setup(bot="greedy", seed=3), app.engine.default_rules("decouverte"))
    assert isinstance(table.driver, MatchDriver) and table.view is not None
    table.driver.human_bid("pass")  # the person passes: the bot is to bid
    assert table.driver.session.is_bot(table.driver.session.to_act or 0)
    asked: list[Job] = []

    def a_bot_answered() -> bool:
        job = getattr(table.driver, "job", None)
        if job is not None and job not in asked:
            asked.append(job)
        return any(j.done for j in asked)

    pump(table, a_bot_answered)
    assert asked[0].where == PROCESS  # the table's own question went to the process
    process = app.worker.process
    assert process is not None and process.is_alive()
    app.on_close()  # what the window's close button calls
    assert not process.is_alive() and process.exitcode is not None


def test_the_bot_process_starts_after_the_first_frame_not_before(app: App) -> None:
    app.show_start()
    assert app.worker.process is None  # nothing started before the first frame
    app.window.draw(1 / 60)  # a frame as pyglet's loop draws it: on_draw, on_refresh
    app.window.dispatch_events()  # (outside the loop, the window queues its events)
    marker = app.worker.submit(lambda: None)  # runs after the start the frame queued
    assert marker.wait(WAIT)
    process = app.worker.process
    assert process is not None and process.is_alive()
