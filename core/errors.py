"""The typed errors of atout.  Each message says what is wrong, where, and what is allowed."""

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


class UnknownNameError(AtoutError):
    """A game, bot or pack name that nothing provides; the message lists what exists."""
