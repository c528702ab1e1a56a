"""The typed errors of atout.  Each message says what is wrong, where, and what is allowed.

An error a person meets (a bad pack, record, save, seed, name; an unknown game, bot or
plugin) is raised with a :class:`~atout.core.text.Message`: ``str(exc)`` is the English
sentence (logs, records, the protocol), and a front end shows it in the person's language
(``atout.ui.messages.shown_error``).  The names of files, keys and values stay as they
are written.
"""

from __future__ import annotations


class AtoutError(Exception):
    """Base class of every error atout raises on purpose."""


class IllegalMoveError(AtoutError):
    """An action that the rules forbid; the message names the rule ("must follow hearts")."""


class RecordError(AtoutError):
    """A deal or match record that cannot be read or replayed."""


class PackError(AtoutError):
    """A house-rule pack that cannot be loaded; the message names file, line and key."""


class PluginError(AtoutError):
    """A plugin that failed: it raised inside a hook, answered nonsense, or cannot load.

    The message names the plugin and the hook.
    """

    def __init__(self, message: str, plugin: str = "", hook: str = "") -> None:
        super().__init__(message)
        self.plugin = plugin
        self.hook = hook


def error_message(exc: BaseException) -> str:
    """An error's message as it was raised: its :class:`~atout.core.text.Message` (kept
    so that a front end translates it, or so that another message holds it) when it has
    one, else its text."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


class UnknownNameError(AtoutError):
    """A game, bot or pack name that nothing provides; the message lists what exists."""
