"""The catalogs: every message of the source is translated in French and German.

The messages are extracted as docs/translating.md says (Babel's own extractor, the
mapping of ``babel.cfg`` and its keywords) from every folder that holds texts a person
reads: the front ends (``ui/``), the rule plugins and the bots (``plugins/``, marked with
``atout.core.text``), the core's own messages (``core/``) and the shipped house-rule
packs' titles and descriptions (``variants/``); so that a text marked in the code and
forgotten in a catalog (or left fuzzy, or with a placeholder lost in translation) fails
here, not in front of a player.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from atout.ui import i18n
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "ui" / "locale"
LANGUAGES = ("fr", "de")
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
    "Message": None,
}
"""The marking functions of :mod:`atout.ui.i18n` and :mod:`atout.core.text`, as Babel's
extractor takes them."""
SOURCES = ("ui", "plugins", "core", "variants")
"""The folders the extraction reads (docs/translating.md's command)."""

Key = tuple[str | None, str]


def extracted() -> dict[Key, tuple[str, ...]]:
    """Every message marked in the sources: (context, message) -> its forms (one, or the
    singular and the plural)."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[Key, tuple[str, ...]] = {}
    for folder in SOURCES:
        for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT / folder), method_map, options_map, keywords=KEYWORDS
        ):
            forms = (message,) if isinstance(message, str) else tuple(message)
            found[(context, forms[0])] = forms
    return found


def catalog(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "atout.po").open("rb") as source:
        return read_po(source, locale=language)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields a message formats."""
    return set(re.findall(r"\{(\w*)\}", text))


def test_the_source_marks_the_windows_texts() -> None:
    """The extraction finds the window's messages (an extractor that found nothing
    would make the test below pass for nothing)."""
    messages = extracted()
    assert (None, "Your bid") in messages
    assert ("bid", "Take {suit}") in messages
    assert messages[(None, "{count} trick")] == ("{count} trick", "{count} tricks")


def test_the_source_marks_the_plugins_and_the_packs_texts() -> None:
    """The extraction finds what the plugins mark (a game's title, an option's
    description, a refused card's rule, a hint's reason), the core's own messages and
    the shipped packs' titles and descriptions, so that the test below covers them."""
    messages = extracted()
    for text in (
        "Belote Découverte",
        "Direction of deal, bidding and play.",
        "must follow {suit}",
        "wins the trick",
        "Beginner",
        "{card} is not among your cards",
        "Always undertrump",
        "Tournament play: only belote-rebelote is declared.",
    ):
        assert (None, text) in messages, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str) -> None:
    """Each message marked in the source is in the catalog, translated (every plural
    form), not fuzzy, and formats the same fields as the English."""
    po = catalog(language)
    assert po.num_plurals == 2
    problems = []
    for (context, message), forms in sorted(extracted().items(), key=str):
        entry = po.get(forms if len(forms) > 1 else message, context=context)
        where = f"{language}: {message!r}" + (f" ({context})" if context else "")
        if entry is None:
            problems.append(f"{where} is not in the catalog")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy:
            problems.append(f"{where} is fuzzy")
        if not all(strings) or (len(forms) > 1 and len(strings) != len(forms)):
            problems.append(f"{where} is not translated")
            continue
        # every form formats only the English fields; the last (the plural) all of them
        fields = set().union(*(placeholders(form) for form in forms))
        for text in strings:
            if not placeholders(text) <= fields or (
                text == strings[-1] and placeholders(text) != placeholders(forms[-1])
            ):
                problems.append(f"{where}: {text!r} does not format {sorted(fields)}")
    assert not problems, "\n".join(problems)


def test_the_template_holds_every_message() -> None:
    """ui/locale/atout.pot, what a new translation starts from, is up to date."""
    with (LOCALE / "atout.pot").open("rb") as source:
        template = read_po(source)
    missing = [
        key
        for key, forms in extracted().items()
        if template.get(forms if len(forms) > 1 else key[1], context=key[0]) is None
    ]
    assert not missing


@pytest.mark.parametrize(
    ("language", "bid", "trick"),
    [("fr", "Je passe", "3 plis"), ("de", "Passen", "3 Stiche"), ("en", "Pass", "3 tricks")],
)
def test_a_chosen_language_is_what_the_texts_say(language: str, bid: str, trick: str) -> None:
    """set_language loads the compiled catalog (the install's, or compiled at first use);
    English has none."""
    try:
        assert i18n.set_language(language) == language
        assert i18n.language() == language
        assert i18n.pgettext("bid", "Pass") == bid
        assert i18n.ngettext("{count} trick", "{count} tricks", 3).format(count=3) == trick
    finally:
        i18n.set_language("en")
    assert i18n._("Your bid") == "Your bid"
