"""A bot that bids as one bot and plays as another: to measure what bidding alone is worth.

A duplicate match of ``expert`` against ``expert+greedy-bids`` plays the same cards on
both teams (the expert's) and differs only in the bidding, so its result is the value of
the expert's bidding over the greedy's.  The spec of such a bot is written

    ``PLAYER+BIDDER-bids``   (or ``BIDDER-bids+PLAYER``)

where ``PLAYER`` and ``BIDDER`` are names of registered bots (``atout bots``) that play
the game: ``BIDDER`` chooses every action of the bidding phase, ``PLAYER`` every other
one (the cards, l'arrêt).  A plain bot name is a spec too.  The spec is game-agnostic: it
mixes any two bots of any game whose deals have a ``"bidding"`` phase, and it only reads
the view each bot is handed, as every bot does.

:func:`make_bot` builds the bot of a spec through the engine's registry
(:meth:`~atout.core.Engine.bot`), so an unknown name fails with the known names.

Two more forms serve the measures of partnerships:

* a name may carry its bot's **settings**, ``NAME:SETTING=on|off`` (several joined by
  ``:``): ``expert:signals=off`` is the expert that neither makes nor reads signals,
  ``greedy:signals=on`` the scripted partner that follows the signalling convention.
  The settings are the factory's on/off keyword arguments (``signals`` and ``inference``
  of the four-player expert), so a plugin's bot declares its own the same way; an
  unknown one fails with those there are.  The engine reads them
  (:meth:`~atout.core.Engine.bot`), so a spec with settings is a bot name wherever one
  is taken (``atout play --bot``, a network table's bots, the window's);
* ``FIRST/SECOND`` is a **partnership** of two specs: ``FIRST`` plays the first seat of
  each team (seats 0 and 1 of four), ``SECOND`` the other, so ``expert/greedy:signals=on``
  is an expert partnered with the scripted partner.
"""

from __future__ import annotations

from collections.abc import Callable

from atout.core.engine import Engine
from atout.core.engine import bot_settings
from atout.core.errors import UnknownNameError
from atout.core.model import Action
from atout.core.model import Rules
from atout.core.views import Bot
from atout.core.views import View

BIDS_SUFFIX = "-bids"
"""Marks the part of a mixed spec that bids."""
BIDDING = "bidding"
"""The phase whose actions the bidder chooses."""
PARTNERS = "/"
"""Joins the two specs of a partnership."""


class MixedBot:
    """Chooses the actions of the bidding with ``bidder`` and all others with ``player``.

    Each bot sees the same views it would see alone; neither is told about the other.
    ``hint`` asks the bot of the phase for its hint when it has one.
    """

    def __init__(self, bidder: Bot, player: Bot) -> None:
        self.bidder = bidder
        self.player = player

    def _bot(self, view: View) -> Bot:
        return self.bidder if view.phase == BIDDING else self.player

    def choose(self, view: View) -> Action:
        """The action of the bot whose phase ``view`` is in."""
        return self._bot(view).choose(view)

    def hint(self, view: View) -> Action:
        """The hint of the bot of the phase (its ``choose`` when it has no ``hint``)."""
        bot = self._bot(view)
        ask: Callable[[View], Action] = getattr(bot, "hint", bot.choose)
        return ask(view)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """``(player, bidder)`` of a bot spec: ``bidder`` is ``None`` for a plain name.

    >>> parse_spec("expert+greedy-bids")
    ('expert', 'greedy')
    >>> parse_spec("greedy")
    ('greedy', None)
    """
    text = spec.strip()
    if "+" not in text:
        return text, None
    parts = [p.strip() for p in text.split("+")]
    bidders = [p[: -len(BIDS_SUFFIX)] for p in parts if p.endswith(BIDS_SUFFIX)]
    players = [p for p in parts if not p.endswith(BIDS_SUFFIX)]
    if len(parts) != 2 or len(bidders) != 1 or len(players) != 1 or not all(bidders + players):
        raise UnknownNameError(
            f"bot {spec!r}: a mixed bot is written PLAYER+BIDDER-bids, e.g. expert+greedy-bids"
        )
    return players[0], bidders[0]


class PartnersBot:
    """A partnership: ``first`` chooses for the first seat of each team (the seats
    below the number of teams), ``second`` for the other seats."""

    def __init__(self, first: Bot, second: Bot) -> None:
        self.first = first
        self.second = second

    def _bot(self, view: View) -> Bot:
        return self.first if view.seat < view.teams else self.second

    def choose(self, view: View) -> Action:
        """The action of the partner in ``view``'s seat."""
        return self._bot(view).choose(view)

    def hint(self, view: View) -> Action:
        """The hint of the partner in ``view``'s seat (its ``choose`` when it has no
        ``hint``)."""
        bot = self._bot(view)
        ask: Callable[[View], Action] = getattr(bot, "hint", bot.choose)
        return ask(view)


def _one_bot(engine: Engine, part: str, game: str, rules: Rules, seed: int, think: float) -> Bot:
    """The registered bot of one part of a spec, with its settings
    (:meth:`~atout.core.Engine.bot` reads them)."""
    return engine.bot(part, game, rules, seed=seed, think=think)


def make_bot(
    engine: Engine, spec: str, game: str, rules: Rules, seed: int = 0, think: float = 0.0
) -> Bot:
    """The bot of ``spec`` for ``game``: a registered bot (with its settings), a
    :class:`MixedBot` of two, or a :class:`PartnersBot` of two specs (each built with
    the same seed and think time)."""
    if PARTNERS in spec:
        first, _, second = spec.partition(PARTNERS)
        return PartnersBot(
            make_bot(engine, first, game, rules, seed, think),
            make_bot(engine, second, game, rules, seed, think),
        )
    player, bidder = parse_spec(spec)
    play_bot = _one_bot(engine, player, game, rules, seed, think)
    if bidder is None:
        return play_bot
    bid_bot = _one_bot(engine, bidder, game, rules, seed, think)
    return MixedBot(bid_bot, play_bot)


def spec_games(engine: Engine, spec: str) -> tuple[str, ...]:
    """The games the bot of ``spec`` plays (those all its bots play); an unknown name
    fails with the known names."""
    infos = [
        engine.bot_info(bot_settings(n)[0])
        for partner in spec.split(PARTNERS)
        for n in parse_spec(partner)
        if n is not None
    ]
    return tuple(g for g in infos[0].games if all(g in i.games for i in infos))
