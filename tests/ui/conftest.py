"""The Arcade tests: ONE hidden window for the whole session, headless.

``ARCADE_HEADLESS`` is set before arcade is imported (Mesa's software renderer is
enough).  Each test gets its own :class:`~atout.ui.window.app.App` on the shared window, with
its own data folder (saved match, records, settings) and an empty user pack folder.
"""

from __future__ import annotations

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

from collections.abc import Iterator
from pathlib import Path

import arcade
import pyglet
import pytest
from atout.core import Engine
from atout.ui.window.app import App
from atout.ui.window.app import make_window

pytestmark = pytest.mark.ui


@pytest.fixture(scope="session")
def window() -> Iterator[arcade.Window]:
    """The one window of the session (1280x720, hidden)."""
    if not pyglet.options["headless"] and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        pytest.fail(
            "arcade was imported before tests/ui/conftest.py could set ARCADE_HEADLESS=1 "
            "(a test module imported it first): run the tests with ARCADE_HEADLESS=1"
        )
    win = make_window(visible=False)
    yield win
    win.close()


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data folder (and no user packs) for one test."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "data" / "atout"


@pytest.fixture
def app(window: arcade.Window, engine: Engine, data_home: Path) -> Iterator[App]:
    """An app on the session's window, animations at a quarter of the normal pace."""
    application = App(window, engine, speed=0.25)
    yield application
    application.leave_table()
    application.shutdown()
