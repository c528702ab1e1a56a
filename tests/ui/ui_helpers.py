"""Driving the Arcade table as a person would: clicks dispatched to the window, time
advanced by calling the view's ``on_update`` and ``on_draw`` directly."""

from __future__ import annotations

from collections.abc import Callable

import arcade
from atout.ui.cards_text import HUMAN
from atout.ui.window.app import App
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
