"""The rules of a match as a player chose them: a house-rule pack and a target score.

``atout play --pack --target``, ``atout bench --pack`` and the Arcade start view ask for a
match's rules the same way, through :func:`resolve_rules`, so one choice gives the same
rules whichever front end starts the match.  It lives in ``atout.ui`` and not in
:mod:`atout.core.packs` because it knows one option by name, ``target``, and the core
knows no rule.  It imports nothing heavy: the command line loads it before any window.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from atout.core import Engine
from atout.core import Rules
from atout.core.errors import UnknownNameError
from atout.core.packs import resolve

from .i18n import _
from .messages import shown


def resolve_rules(
    engine: Engine,
    game: str | None,
    pack: str | None = None,
    target: int | None = None,
    warn: Callable[[str], None] | None = None,
) -> Rules:
    """The rules of a match of ``game``: ``pack``'s, with ``target`` as the target score.

    ``pack`` is a pack's name or a pack file (:func:`atout.core.packs.resolve`); ``None``
    or ``""`` means the game's default rules.  ``game=None`` takes the pack's own game
    (``Rules.game`` tells which).  ``warn`` receives each of the pack's warnings (a user
    pack that shadows nothing, ...); without it they are dropped.

    :raises UnknownNameError: an unknown game, or a ``target`` for a game whose rules have
        no ``target`` option (a choice the match could not honour is refused, not dropped).
    :raises PackError: a pack that does not load, or a pack of another game.
    """
    if pack:
        if game is not None:
            engine.game(game)  # an unknown game is named before any pack problem
        resolved = resolve(engine, pack, game)
        for warning in resolved.warnings:
            if warn is not None:
                warn(warning)
        rules = resolved.rules
    elif game is None:
        raise ValueError("resolve_rules needs a game or a pack")
    else:
        engine.game(game)
        rules = engine.default_rules(game)
    if target is not None:
        if "target" not in rules:
            raise UnknownNameError(
                _("{game} has no target score: its rules have no 'target' option").format(
                    game=rules.game
                )
            )
        rules = engine.make_rules(rules.game, {**rules.to_dict(), "target": target}, rules.pack)
    return rules


def print_warning(text: str) -> None:
    """A pack's warning as the command line shows it: one line on stderr."""
    print(_("atout: warning: {text}").format(text=shown(text)), file=sys.stderr)
