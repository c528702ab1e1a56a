"""The start view's row for learning the game: *Rules* and *Learn: a guided deal*.

A module of its own so that the start view does not import the tables: the guided
deal's table (:mod:`~atout.ui.window.guided`) is imported when its button is clicked,
as the app imports a table when the first one opens.
"""

from __future__ import annotations

from typing import Protocol

from atout.core import Rules

from ..i18n import _
from ..savegame import Setup
from .host import Host
from .rules_view import show_rules
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer


class StartLike(Protocol):
    """What the start view's row of learning buttons needs of it."""

    app: Host
    setup: Setup

    def pack_rules(self) -> Rules | None: ...


def add_learn_row(
    view: StartLike, layer: Layer, row: ButtonRow, width: float, top: float, margin: float
) -> None:
    """The start view's row for learning the game: *Rules* at the top left (the rules of
    the game and pack chosen) and *Learn: a guided deal* at the top right, ``top`` being
    the height of their middle, ``margin`` the start view's edge."""
    app = view.app

    def rules() -> None:
        chosen = view.pack_rules() or app.engine.default_rules(view.setup.game)
        back = app.window.current_view
        if back is not None:
            show_rules(app, chosen, back)

    def guided() -> None:
        from .guided import start_guided

        start_guided(app)

    row.add(Button(layer, _("Rules"), margin + 70, top, 140, 38, rules, size=14, name="rules"))
    row.add(
        Button(
            layer,
            _("Learn: a guided deal"),
            width - margin - 120,
            top,
            240,
            38,
            guided,
            size=14,
            name="guided",
        )
    )
