"""The translation functions: the texts as written until a catalog is chosen."""

from __future__ import annotations

import gettext

from atout.ui import i18n


class Shouting(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return message.upper()


def test_texts_are_shown_as_written_without_a_catalog() -> None:
    assert i18n._("Your turn") == "Your turn"
    assert i18n.ngettext("1 trick", "{n} tricks", 2) == "{n} tricks"
    assert i18n.pgettext("card", "J") == "J"


def test_a_chosen_translation_is_used_until_another_is() -> None:
    i18n.use(Shouting())
    try:
        assert i18n._("Your turn") == "YOUR TURN"
    finally:
        i18n.use(gettext.NullTranslations())
    assert i18n._("Your turn") == "Your turn"
