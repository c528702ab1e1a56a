"""The person's on/off settings, kept in ``settings.json`` (see :mod:`atout.ui.savegame`),
and the one of them that reaches the bots: whether they signal.

:data:`SETTINGS` names each setting with its default and what it does (the window's
Settings panel shows them all, :func:`setting` reads one); :func:`settings_problem` says
in one line when the file holds a value that is not on or off (the default is then
used, and the file is left as it is until the person changes the setting).

``bot_signals`` is the choice of a person who does not know the club players' signals
(:mod:`atout.plugins.bots.signals`) or plays another convention: off, the bots of a game
with partners neither make nor read them.  It reaches a bot through its spec
(``expert:signals=off``, read by :meth:`atout.core.Engine.bot`), which
:func:`signals_spec` writes; the window's matches, the terminal's and the tables a person
hosts all make their bots from that spec, and no rule is written here.
"""

from __future__ import annotations

from typing import Any

from atout.core import Engine
from atout.core.engine import bot_settings
from atout.core.errors import AtoutError

from .i18n import N_
from .i18n import _

SIGNALS = "bot_signals"
"""The setting that says whether the bots of a game with partners signal."""
SETTINGS: dict[str, tuple[bool, str]] = {
    "auto_forced": (
        False,
        N_(
            "Play a forced card automatically: when one card only may be played, it is "
            "played for you after a short moment."
        ),
    ),
    "confirm_new": (
        True,
        N_(
            "Confirm before a new match: New match asks first when a match is saved "
            "(the saved match is kept either way)."
        ),
    ),
    "four_colour": (
        False,
        N_(
            "Four-colour deck: ♠ black, ♥ red, ♦ blue, ♣ green (each suit keeps its "
            "symbol); the window and the terminal."
        ),
    ),
    SIGNALS: (
        True,
        N_(
            "Bots signal (appel direct): in Belote and La Coinche for four, the bots call "
            "and refuse suits with their discards and leads, and read yours (Rules, Signals)."
        ),
    ),
}
"""The person's settings kept in ``settings.json`` (beside the start view's choices):
name -> (default, what it does, in one line)."""
SIGNALS_KEY = "signals"
"""The bot setting :data:`SIGNALS` sets (a keyword of the bots' factories)."""


def setting(settings: dict[str, Any], name: str) -> bool:
    """The person's setting ``name`` (one of :data:`SETTINGS`) in ``settings``, else
    its default."""
    value = settings.get(name)
    return value if isinstance(value, bool) else SETTINGS[name][0]


def settings_problem(settings: dict[str, Any]) -> str:
    """One line about the first setting of :data:`SETTINGS` whose value in ``settings``
    is not true or false (what it is, what is allowed, what is used instead); ``""``
    when there is none."""
    for name, (default, _text) in SETTINGS.items():
        value = settings.get(name)
        if name in settings and not isinstance(value, bool):
            shown = repr(value)
            return _(
                "settings.json: {name} is true or false, not {value}; it is {default} "
                "until you change it in Settings."
            ).format(
                name=name,
                value=shown if len(shown) <= 40 else shown[:39] + "…",
                default=_("on") if default else _("off"),
            )
    return ""


def signals_spec(engine: Engine, bot: str, game: str, signals: bool) -> str:
    """The spec of the ``bot`` that plays ``game`` with the signals ``signals`` asks for:
    ``bot:signals=on`` or ``off`` when the bot has that setting and its default differs,
    ``bot`` itself otherwise (a game without partners, a bot without the setting, a spec
    that names its signals already, or one the engine will refuse when it makes it)."""
    info = engine.games.get(game)
    if info is None or info.seats <= info.teams:
        return bot
    try:
        name, chosen = bot_settings(bot)
        switches = engine.bot_switches(name, game)
    except AtoutError:
        return bot
    if SIGNALS_KEY in chosen or SIGNALS_KEY not in switches:
        return bot
    if switches[SIGNALS_KEY] is signals:
        return bot
    return f"{bot}:{SIGNALS_KEY}={'on' if signals else 'off'}"


def named_signals(bot: str) -> tuple[str, bool | None]:
    """The bot name of the spec ``bot`` and the signals it names (``None``: it names
    none, or it is no spec the engine reads): ``expert:signals=off`` is ``("expert",
    False)``, for a front end that chooses the level and the signals apart."""
    try:
        name, chosen = bot_settings(bot)
    except AtoutError:
        return bot, None
    return name, chosen.get(SIGNALS_KEY)
