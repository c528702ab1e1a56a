"""The shipped bots, registered through the ``atout_bots`` hook like any plugin's.

``random`` and ``greedy`` play both games; ``expert`` is the strongest bot of each game:
perfect-information Monte Carlo over a double-dummy solver for four-player Belote
(:mod:`.belote_expert`), a chance-aware search for Découverte (:mod:`.decouverte_expert`).
A factory is called as ``factory(game=..., rules=..., seed=..., think=..., engine=...)``
and returns an object with ``choose(view) -> Action`` (the experts also ``hint(view)``).
The four-player bots read the rules of the play from ``engine`` (the deal's compiled
rules: move rule, trick winner, card values), never from a rule plugin's code; without
an engine they use the engine of the installed plugins.
"""

from __future__ import annotations

from typing import Any

from atout.core import hookimpl
from atout.core.engine import Engine
from atout.core.model import BotInfo
from atout.core.model import Rules

from .basic import GreedyBot
from .basic import RandomBot

GAMES = ("belote", "decouverte")


def make_random(
    game: str,
    rules: Rules | None = None,
    seed: int = 0,
    think: float = 0.0,
    engine: Engine | None = None,
) -> RandomBot:
    """A :class:`RandomBot`."""
    return RandomBot(seed)


def make_greedy(
    game: str,
    rules: Rules | None = None,
    seed: int = 0,
    think: float = 0.0,
    engine: Engine | None = None,
    signals: bool = False,
) -> GreedyBot:
    """A :class:`GreedyBot` (it reads the card order and points from the engine's
    compiled rules of the deal); with ``signals``, the scripted partner that follows the
    signalling convention (:mod:`.signals`)."""
    return GreedyBot(seed, engine, signals=signals)


def make_expert(
    game: str,
    rules: Rules | None = None,
    seed: int = 0,
    think: float = 0.0,
    engine: Engine | None = None,
    signals: bool = True,
    inference: bool | None = None,
) -> Any:
    """The expert of ``game``: the PIMC expert for four players, the chance-aware
    search for Découverte.  The four-player expert's settings: ``signals`` (it makes the
    convention's signals, :mod:`.signals`) and ``inference`` (it weighs its sampled
    layouts by the signals it saw; by default as ``signals``)."""
    if game == "decouverte":
        from .decouverte_expert import DecouverteExpert

        return DecouverteExpert(rules, seed=seed, think=think, engine=engine)
    from .belote_expert import BeloteExpert

    return BeloteExpert(
        rules, seed=seed, think=think, engine=engine, signals=signals, read_signals=inference
    )


@hookimpl
def atout_bots() -> list[BotInfo]:
    return [
        BotInfo(
            "random",
            GAMES,
            "Plays any legal card at random, and bids at random.",
            make_random,
            level=0,
            title="Beginner",
        ),
        BotInfo(
            "greedy",
            GAMES,
            "One trick at a time: wins cheaply when it is worth it, else discards its "
            "least valuable card; bids from a point count of the hand.",
            make_greedy,
            level=1,
            title="Casual",
        ),
        BotInfo(
            "expert",
            GAMES,
            "Searches: sampled layouts solved double-dummy (four players), a "
            "chance-aware exact search (Découverte).",
            make_expert,
            level=2,
            title="Expert",
        ),
    ]
