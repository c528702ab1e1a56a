"""Texts a rule plugin or the core wrote, as a person reads them in the chosen language.

The plugins and the core mark their texts (:mod:`atout.core.text`): a fixed text with
``N_`` (a game's title, a bot's level, an option's description), a sentence with parts
that vary as a :class:`~atout.core.text.Message` (why a card is refused, a deal's notes,
a hint's reason).  :func:`shown` is the one way a front end turns either into the
chosen language: the message id is translated, then its parameters are written in the
language (a card, a suit, a seat).  A house-rule pack's texts are translated for the
shipped packs only (:func:`shown_pack`): a pack someone wrote is shown as written.
"""

from __future__ import annotations

from collections.abc import Mapping

from atout.core.engine import BOT_SETTING
from atout.core.model import BotInfo
from atout.core.model import RuleOption
from atout.core.packs import yaml_text
from atout.core.text import CardCode
from atout.core.text import CardSign
from atout.core.text import CardWord
from atout.core.text import Message
from atout.core.text import SeatWord
from atout.core.text import SuitWord

from . import cards_text
from .i18n import _
from .i18n import pgettext


def shown(text: str) -> str:
    """A text a plugin or the core wrote, as a person reads it in the chosen language.

    A :class:`~atout.core.text.Message` is translated by its message id, then its
    parameters are filled in, each in the chosen language (a card, a suit, a seat, a
    message within the message); a plain text is a fixed text the plugin marked with
    ``N_`` and is translated as it is (a text the catalogs do not have, such as a
    third party's, is shown as written)."""
    if isinstance(text, Message):
        params = {key: _shown_param(value) for key, value in text.params.items()}
        try:
            return _(text.msgid).format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):  # wrong fields
            return text.msgid.format(**params)
    return _(text) if text else text


def origin_words(origin: str) -> str:
    """Where a house-rule pack comes from, in the chosen language: ``shipped`` (with
    atout), ``user`` (the person's folder), ``file`` (a path given)."""
    words = {
        "shipped": pgettext("pack origin", "shipped"),
        "user": pgettext("pack origin", "user"),
        "file": pgettext("pack origin", "file"),
    }
    return words.get(origin, origin)


def option_title(option: RuleOption) -> str:
    """A rule option's name for a person: its title in the chosen language, else its key
    in words (``capot_bonus``: ``Capot bonus``)."""
    if option.title:
        return shown(option.title)
    words = option.key.replace("_", " ")
    return words[:1].upper() + words[1:]


def option_value(option: RuleOption, value: object) -> str:
    """A rule option's value for a person: yes or no for a switch, a choice by its title
    in the chosen language, else as a pack writes it (a number)."""
    if isinstance(value, bool):
        return pgettext("option value", "yes") if value else pgettext("option value", "no")
    if value in option.choices and len(option.choice_titles) == len(option.choices):
        return shown(option.choice_titles[option.choices.index(value)])
    return yaml_text(value)


def bot_title(bots: Mapping[str, BotInfo], name: str) -> str:
    """A bot for a person, by the name the command line and the records use
    (``greedy``, or a spec with its settings, ``greedy:signals=on``): its level's title
    in the chosen language ("Casual", "Intermédiaire"), else its name as it is (a bot
    without a title, or one the engine does not have, such as a network table's)."""
    info = bots.get(name.partition(BOT_SETTING)[0].strip())
    return shown(info.title) if info is not None and info.title else name


def shown_error(exc: BaseException) -> str:
    """An error's message in the chosen language: a refused card's rule (the engine's
    :class:`~atout.core.errors.IllegalMoveError` carries the rule's
    :class:`~atout.core.text.Message`) translated, any other as it is written."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return shown(first) if isinstance(first, Message) else str(exc)


def _shown_param(value: object) -> str:
    """One parameter of a message in the chosen language."""
    if isinstance(value, str):
        return shown(value) if isinstance(value, Message) else value
    if isinstance(value, CardWord):
        return cards_text.card_name(value.card)
    if isinstance(value, (CardSign, CardCode)):
        return cards_text.show_card(value.card)
    if isinstance(value, SuitWord):
        return cards_text.suit_name(value.suit)
    if isinstance(value, SeatWord):
        return cards_text.seat_word(value.name)
    return str(value)


def shown_pack(text: str, origin: str) -> str:
    """A house-rule pack's title or description as a person reads it: a shipped pack's in
    the chosen language (its texts are in the catalogs, see :func:`extract_pack`), a
    pack someone wrote (``origin`` ``"user"`` or ``"file"``) as it is written."""
    return _(text) if origin == "shipped" and text else text


def announcement_words(text: str) -> str:
    """An announcement as the players say it in the chosen language: a declaration
    ("tierce to the jack of hearts", the rule plugin's message) translated; ``belote``,
    ``rebelote`` as the players say them (the same in French and German); another text
    as the rule plugin wrote it."""
    words = {
        "belote": pgettext("announcement", "belote"),
        "rebelote": pgettext("announcement", "rebelote"),
        "belote-rebelote": pgettext("announcement", "belote-rebelote"),
    }
    return words.get(text) or shown(text)


def outcome_words(outcome: str) -> str:
    """A deal's outcome (the engine's fixed word) in the chosen language: ``made``,
    ``dedans``, ``capot``, ``litige``, ``abeyance``, ``arret`` (a claim ended it); another
    outcome (a third party's) as it is written."""
    words = {
        "made": pgettext("deal outcome", "made"),
        "dedans": pgettext("deal outcome", "dedans"),
        "capot": pgettext("deal outcome", "capot"),
        "litige": pgettext("deal outcome", "litige"),
        "abeyance": pgettext("deal outcome", "abeyance"),
        "arret": pgettext("deal outcome", "l'arrêt"),
    }
    return words.get(outcome, outcome)


__all__ = [
    "announcement_words",
    "bot_title",
    "option_title",
    "option_value",
    "origin_words",
    "outcome_words",
    "shown",
    "shown_error",
    "shown_pack",
]
