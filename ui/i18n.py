"""The language a person reads: every text shown to a person goes through these functions.

``_(text)`` translates a message, ``ngettext(singular, plural, n)`` a message with a count,
``pgettext(context, text)`` a card or rule term whose translation depends on where it is
used.  :func:`set_language` chooses the catalog; until it is called (and for English) the
texts are shown as written.  Records, packs and the network protocol never go through
here: they stay language-free.
"""

from __future__ import annotations

import gettext

DOMAIN = "atout"
"""The gettext domain of atout's catalogs."""

_translation: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the chosen language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message, for ``n``, in the chosen language."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the chosen language, as used in ``context`` (a card or rule term)."""
    return _translation.pgettext(context, message)


def use(translation: gettext.NullTranslations) -> None:
    """Show every text through ``translation`` from now on."""
    global _translation
    _translation = translation
