"""The shipped bots, registered through the ``atout_bots`` hook like any plugin's.

``random`` and ``greedy`` play every shipped game; ``expert`` is the strongest bot of each
game: perfect-information Monte Carlo over a double-dummy solver for four-player Belote
and La Coinche (:mod:`.belote_expert`), a chance-aware search for Découverte and
Découverte Coinche (:mod:`.decouverte_expert`).  In La Coinche's auction by values the
bots bid from the greedy bot's count (:meth:`.basic.GreedyBot.auction_bid`), reading the
bids through the engine's description of them; the searches value the play by the game's
own scoring of the contract, its value and level included.
A factory is called as ``factory(game=..., rules=..., seed=..., think=..., engine=...)``
and returns an object with ``choose(view) -> Action`` (the experts also ``hint(view)``).
The four-player bots read the rules of the play from ``engine`` (the deal's compiled
rules: move rule, trick winner, card values), never from a rule plugin's code; without
an engine they use the engine of the installed plugins.
"""

from __future__ import annotations

from atout.core import hookimpl
from atout.core.engine import Engine
from atout.core.model import BotInfo
from atout.core.model import Rules
from atout.core.text import N_
from atout.core.views import Bot

from .basic import GreedyBot
from .basic import RandomBot

GAMES = ("belote", "decouverte", "coinche", "coinche-decouverte")


def make_random(*, seed: int = 0, **_: object) -> RandomBot:
    """A :class:`RandomBot` (a :class:`~atout.core.views.BotFactory`: it needs only the
    seed of the keywords the engine passes)."""
    return RandomBot(seed)


def make_greedy(
    *, seed: int = 0, engine: Engine | None = None, signals: bool = False, **_: object
) -> GreedyBot:
    """A :class:`GreedyBot` (it reads the card order and points from the engine's
    compiled rules of the deal); with ``signals``, the scripted partner that follows the
    signalling convention (:mod:`.signals`)."""
    return GreedyBot(seed, engine, signals=signals)


def make_expert(
    *,
    game: str,
    rules: Rules | None = None,
    seed: int = 0,
    think: float = 0.0,
    engine: Engine | None = None,
    signals: bool = True,
    inference: bool | None = None,
    infer: bool = False,
) -> Bot:
    """The expert of ``game``: the PIMC expert for four players, the chance-aware
    search for Découverte.  The four-player expert's settings: ``signals`` (it makes the
    convention's signals, :mod:`.signals`) and ``inference`` (it weighs its sampled
    layouts by the signals it saw; by default as ``signals``) and ``infer`` (it weighs
    them by how likely a model of each seat's play makes every card the others played,
    :mod:`.inference`; off by default: over 800 duplicate pairs it measured no
    difference, docs/bots.md)."""
    if game in ("decouverte", "coinche-decouverte"):
        from .decouverte_expert import DecouverteExpert

        return DecouverteExpert(rules, seed=seed, think=think, engine=engine)
    from .belote_expert import BeloteExpert

    return BeloteExpert(
        rules,
        seed=seed,
        think=think,
        engine=engine,
        signals=signals,
        read_signals=inference,
        infer=infer,
    )


@hookimpl
def atout_bots() -> list[BotInfo]:
    return [
        BotInfo(
            "random",
            GAMES,
            N_("Plays any legal card at random, and bids at random."),
            make_random,
            level=0,
            title=N_("Beginner"),
        ),
        BotInfo(
            "greedy",
            GAMES,
            N_(
                "One trick at a time: wins cheaply when it is worth it, else discards its "
                "least valuable card; bids from a point count of the hand."
            ),
            make_greedy,
            level=1,
            title=N_("Casual"),
        ),
        BotInfo(
            "expert",
            GAMES,
            N_(
                "Searches: sampled layouts solved double-dummy (four players), a "
                "chance-aware exact search (Découverte)."
            ),
            make_expert,
            level=2,
            title=N_("Expert"),
        ),
    ]
