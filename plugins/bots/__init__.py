"""The shipped bots, registered through the ``atout_bots`` hook like any plugin's."""

from __future__ import annotations

from atout.core import hookimpl
from atout.core.model import BotInfo

from .basic import RandomBot


@hookimpl
def atout_bots() -> list[BotInfo]:
    return [
        BotInfo(
            "random",
            ("belote", "decouverte"),
            "Plays a uniformly random legal action.",
            lambda game, rules, seed=0, think=0.0, engine=None: RandomBot(seed),
            level=0,
        ),
    ]
