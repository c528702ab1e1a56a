"""Shared fixtures: one engine with the shipped plugins for the whole session."""

from __future__ import annotations

import pytest
from atout.core import Engine


@pytest.fixture(scope="session")
def engine() -> Engine:
    """The engine with every installed plugin, as ``atout`` itself builds it."""
    return Engine()
