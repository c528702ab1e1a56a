"""Driving the Arcade table as a person would: clicks dispatched to the window, time
advanced by calling the view's ``on_update`` and ``on_draw`` directly."""

from __future__ import annotations

import time
from collections.abc import Callable

import arcade
from atout.ui.cards_text import HUMAN
from atout.ui.net.client import Client
from atout.ui.net.client import create_table
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.net_connect import join
from atout.ui.window.net_table import NetDriver
from atout.ui.window.table import Table
from atout.ui.window.widgets import Button


def click(app: App, x: float, y: float) -> None:
    """A left click at the logical point ``(x, y)``, through the window's events."""
    wx, wy = app.to_window(x, y)
    app.window.dispatch_event("on_mouse_press", wx, wy, arcade.MOUSE_BUTTON_LEFT, 0)
    app.window.dispatch_events()


def press(app: App, symbol: int) -> None:
    """A key press through the window's events."""
    app.window.dispatch_event("on_key_press", symbol, 0)
    app.window.dispatch_events()


def click_button(app: App, button: Button | None) -> None:
    assert button is not None and button.visible, "the button is not on the screen"
    click(app, *button.center)


def step(table: Table, dt: float = 0.25, draw: bool = True) -> None:
    """One frame: wait for a bot that is thinking (the window would go on drawing), then
    advance the table's clock by ``dt`` and draw."""
    job = table.driver.job
    if job is not None and not job.done:
        assert job.wait(30), "a bot did not answer within 30 seconds"
    table.on_update(dt)
    if draw:
        table.on_draw()


def pump(table: Table, until: Callable[[], bool], frames: int = 400, dt: float = 0.25) -> None:
    """Advance frames until ``until()`` holds (fails after ``frames`` frames)."""
    for _ in range(frames):
        if until():
            return
        step(table, dt)
    assert until(), "the table did not reach the expected state"


def human_to_act(table: Table) -> bool:
    view = table.view
    return (
        table.stage == "play"
        and view is not None
        and view.turn == HUMAN
        and view.phase in ("bidding", "play")
        and not table.busy()
    )


def sprite_center(table: Table, card: int) -> tuple[float, float]:
    sprite = table.board.cards[card]
    assert sprite.visible, "the card is not on the table"
    return sprite.center_x, sprite.center_y


def seat_at_server_table(app: App, creator: Client, port: int) -> Table:
    """Through ``creator``, create a Découverte table (seed 5, a random bot in the empty
    seat) on the server at ``port``, join it at seat 0 as Anna in ``app``'s window, start
    it, and wait until the table shows the play's first view."""
    made = create_table(creator, app.engine.default_rules("decouverte"), bot="random", seed=5)
    link = join(f"127.0.0.1:{port}/{made['table']} {made['tokens'][0]}", "Anna")
    creator.request({"type": "start", "table": made["table"], "host": made["host"]})
    table = app.show_net_table(Setup(game="decouverte"), link)
    assert isinstance(table.driver, NetDriver)
    for _ in range(200):
        table.on_update(0.3)
        if table.view is not None and not table.busy():
            break
        time.sleep(0.005)
    assert table.stage == "play" and table.view is not None
    return table
