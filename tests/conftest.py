"""Shared fixtures: engines with the plugins a test needs, built once per session."""

from __future__ import annotations

import os
from pathlib import Path

# Arcade reads this when it is first imported, by whichever test module comes first.
os.environ["ARCADE_HEADLESS"] = "1"

from collections.abc import Iterator

import pytest
from atout.core import Engine
from atout.ui import i18n
from helpers import shipped_engine
from wheel_check import WHEEL_ENV
from wheel_check import wheel_install_problems


def pytest_configure(config: pytest.Config) -> None:
    """A run against the wheel (``ATOUT_TEST_WHEEL`` names it) stops at once, saying why,
    when atout or the example plugin is not imported from that wheel's install."""
    wheel = os.environ.get(WHEEL_ENV)
    if wheel:
        problems = wheel_install_problems(Path(wheel))
        if problems:
            raise pytest.UsageError(
                f"{WHEEL_ENV}={wheel}: this run does not test the installed wheel:\n  "
                + "\n  ".join(problems)
            )


@pytest.fixture(autouse=True)
def _own_data_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test saves into a folder of its own, never into the person's data folder
    (the terminal game and the table save every match there)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts in English, whatever the machine's locale (a command chooses
    its language from the environment), and leaves English behind it."""
    for name in i18n.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    yield
    i18n.set_language("en")


@pytest.fixture(scope="session")
def engine() -> Engine:
    """The engine with atout's own plugins only: the rule tests check the rules as atout
    ships them, whatever third-party plugin is installed beside it."""
    return shipped_engine()


@pytest.fixture(scope="session")
def installed_engine() -> Engine:
    """The engine with every installed plugin, as the ``atout`` command builds it."""
    return Engine()
