"""What a view asks of the window that shows it.

The start view and the tables receive the :class:`~atout.ui.window.app.App` that shows
them, but they know it only as a :class:`Host`: the engine, the bot thread, the settings,
the logical table laid out for the window's size, and the switching between views.  So
no view imports the app (the app alone imports the views), and a test may show a view
on a host of its own.
"""

from __future__ import annotations

from typing import Any
from typing import Protocol

import arcade
from atout.core import Engine
from atout.core import Rules

from ..savegame import BotFactory
from ..savegame import Setup
from .frame import Frame
from .worker import BotWorker


class StartLike(Protocol):
    """What a table asks of the start view it goes back to."""

    def open_confirm(self) -> None:
        """Ask before a new match (the saved one is kept aside)."""
        ...


class Host(Protocol):
    """The window's side of a view (:class:`~atout.ui.window.app.App` is the one host)."""

    window: arcade.Window
    engine: Engine
    bot_factory: BotFactory | None
    """Makes the tables' bots instead of the engine (``None``: the engine's bots)."""
    persist: bool
    """Whether the match, the deal records and the settings are written to disk."""
    hint_bot: str
    """The bot whose ``hint(view)`` (or ``choose``) answers the H key."""
    settings: dict[str, Any]
    speed_name: str
    speed: float
    """A factor on every delay and animation (0 plays at once)."""
    worker: BotWorker
    frame: Frame
    """The logical table for the window's size (the views lay themselves out for it)."""

    def fit(self) -> Frame:
        """The logical table for the window's current size (and the camera set for it)."""
        ...

    def begin_frame(self) -> None:
        """Clear the window and draw through the logical table's camera."""
        ...

    def to_logical(self, x: float, y: float) -> tuple[float, float]:
        """A window point (as mouse events give it) in the table's logical coordinates."""
        ...

    def toggle_fullscreen(self) -> None: ...

    def set_speed(self, name: str) -> None:
        """Use the named speed (slow, normal, fast) and keep it for next time."""
        ...

    def show_start(self, message: str = "") -> StartLike:
        """Show the start view (with ``message``)."""
        ...

    def start_match(self, setup: Setup, rules: Rules) -> object:
        """Start a new match and show its table."""
        ...

    def start_people(self, setup: Setup, rules: Rules, names: list[str]) -> object:
        """Start a match of two people at this screen and show its table."""
        ...

    def show_people(self, setup: Setup) -> object:
        """Show the screen of the matches with people."""
        ...

    def show_net_table(self, setup: Setup, link: Any) -> object:
        """Show the table on a server that ``link`` (a
        :class:`~atout.ui.window.net_connect.NetLink`) holds a seat at."""
        ...

    def continue_match(self) -> object:
        """Resume the saved match (or say on the start view why it cannot be)."""
        ...
