"""pytest fixtures for rule-plugin authors, registered by installing atout (the ``pytest11``
entry point ``atout``; ``-p no:atout`` turns them off).

* ``atout_engine`` — one :class:`~atout.core.engine.Engine` for the session, with every
  installed plugin (as the ``atout`` command builds it).
* ``atout_check`` — a function ``atout_check(game, rules=None, deals=200, seed=0,
  engine=None)`` that runs :func:`~atout.testing.check_rule_set` and fails the test with
  the report's summary when a check breaks; it returns the
  :class:`~atout.testing.Report`.

``pytest --atout-deals N`` plays ``N`` deals in every ``atout_check`` instead of the
number the test asks for: a quick run (``--atout-deals 20``) or a long one before a
release (``--atout-deals 5000``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from typing import Protocol

import pytest
from atout.core.engine import Engine
from atout.core.model import Rules

from .kit import Report
from .kit import check_rule_set


class AtoutCheck(Protocol):
    """The type of the ``atout_check`` fixture."""

    def __call__(
        self,
        game: str,
        rules: Rules | Mapping[str, Any] | None = None,
        deals: int = 200,
        seed: int = 0,
        engine: Engine | None = None,
    ) -> Report: ...


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("atout", "atout conformance kit")
    group.addoption(
        "--atout-deals",
        type=int,
        default=None,
        metavar="N",
        help="deals each atout_check plays (overrides the number the test gives)",
    )


@pytest.fixture(scope="session")
def atout_engine() -> Engine:
    """An engine with every installed plugin."""
    return Engine()


@pytest.fixture
def atout_check(atout_engine: Engine, pytestconfig: pytest.Config) -> AtoutCheck:
    """Run the conformance kit on a game and rules; fail the test on a broken check."""
    override = pytestconfig.getoption("atout_deals", default=None)

    def run(
        game: str,
        rules: Rules | Mapping[str, Any] | None = None,
        deals: int = 200,
        seed: int = 0,
        engine: Engine | None = None,
    ) -> Report:
        report = check_rule_set(
            engine or atout_engine, game, rules, deals=override or deals, seed=seed
        )
        if not report.ok:
            pytest.fail(report.summary(), pytrace=False)
        return report

    return run
