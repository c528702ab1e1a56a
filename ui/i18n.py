"""The language a person reads: every text shown to a person goes through these functions.

``_(text)`` translates a message, ``ngettext(singular, plural, n)`` a message with a count,
``pgettext(context, text)`` a card or rule term whose translation depends on where it is
used.  :func:`set_language` chooses the catalog; until it is called (and for English) the
texts are shown as written.  :func:`choose_language` says which language a start asks for
(``--lang``, the start view's remembered choice, the environment).  The catalogs are
``locale/CODE/LC_MESSAGES/atout.po`` (see docs/translating.md); the install compiles
them.  Records, packs and the network protocol never go through here: they stay
language-free.

``N_`` and ``NP_`` (marking a text kept in a constant) are :mod:`atout.core.text`'s, the
same markers the plugins use; the texts a plugin writes are shown through
:func:`atout.ui.messages.shown`.  :func:`extract_pack` is Babel's extractor for the
shipped packs' titles and descriptions (``babel.cfg``).

The command line's own words (``usage:``, ``options:``, ``error:``, ``invalid choice``)
are argparse's: it translates them through :mod:`gettext`'s default text domain, which
is bound to nothing.  :func:`use` makes argparse ask atout's chosen catalog instead, and
:data:`ARGPARSE_TEXTS` keeps its messages (as argparse of Python 3.11 to 3.13 writes
them) in the catalogs.
"""

from __future__ import annotations

import gettext
import os
import tempfile
from collections.abc import Iterator
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO

from atout.core.text import N_
from atout.core.text import NP_

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


PACK_TEXTS = ("title", "description")
"""The keys of a pack whose texts a person reads (translated for the shipped packs)."""


def extract_pack(
    fileobj: BinaryIO, keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor for the shipped packs (``babel.cfg``): the ``title`` and the
    ``description`` of a pack file, each with its line and a comment naming the pack's
    key.  A file that is no YAML mapping gives nothing (``atout variants --check`` is
    where a pack's problems are told)."""
    import yaml  # only the extraction reads YAML here

    try:
        node = yaml.compose(fileobj.read().decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return
    if not isinstance(node, yaml.MappingNode):
        return
    for key, value in node.value:
        if key.value in PACK_TEXTS and isinstance(value, yaml.ScalarNode) and value.value:
            yield value.start_mark.line + 1, "", value.value, [f"pack {key.value}"]


ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""argparse's own messages that atout's command lines can show, exactly as argparse
writes them (Python 3.11 to 3.13): marked here so that the extraction keeps them in
the catalogs, where argparse finds them once :func:`use` bound it."""


def use(translation: gettext.NullTranslations) -> None:
    """Show every text through ``translation`` from now on, argparse's own words
    included: argparse calls the ``_`` and ``ngettext`` it imported from :mod:`gettext`
    (the default text domain, bound to no catalog), so they are pointed at atout's."""
    global _translation
    _translation = translation
    import argparse  # the command line's parser; cheap, and imported by then anyway

    setattr(argparse, "_", _)  # noqa: B010 - argparse's private name, not in its stubs
    setattr(argparse, "ngettext", ngettext)  # noqa: B010


LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch"}
"""The languages atout speaks, by code, each named in its own words (the start view's
choice); English is the language the texts are written in (no catalog)."""

SETTING = "language"
"""The settings file's key for the language chosen on the start view."""

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name a language, in gettext's order: the first
non-empty one decides."""

LOCALE = Path(__file__).resolve().parent / "locale"
"""Where the catalogs are: ``locale/CODE/LC_MESSAGES/atout.po`` and its compiled ``.mo``."""

_language = "en"


def language() -> str:
    """The code of the language the texts are shown in now."""
    return _language


def language_code(value: str | None) -> str | None:
    """The language a setting or locale name means (``fr_FR.UTF-8`` → ``fr``), ``None``
    for an empty one; a language atout does not speak is English."""
    if not value:
        return None
    # LANGUAGE may list several (fr:de); the first is the person's choice.
    first = value.split(":")[0].strip()
    code = first.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    if not code:
        return None
    return code if code in LANGUAGES else "en"


def choose_language(
    argument: str | None, settings: Mapping[str, object], environ: Mapping[str, str]
) -> str:
    """The language to show: ``--lang``, else the start view's remembered choice (the
    settings' ``"language"``), else the environment (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``: the first non-empty), else English."""
    remembered = settings.get(SETTING)
    for value in (argument, remembered if isinstance(remembered, str) else None):
        code = language_code(value)
        if code is not None:
            return code
    for name in ENVIRONMENT:
        code = language_code(environ.get(name))
        if code is not None:
            return code
    return "en"


def catalog_path(code: str) -> Path:
    """The compiled catalog of a language (it may not exist yet: see :func:`set_language`)."""
    return LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.mo"


def _compiled(code: str) -> Path | None:
    """The compiled catalog of ``code``.  An installed atout has the ``.mo`` its install
    compiled (and no ``.po``).  A checkout (``pip install -e .``, or run in place) has
    the ``.po`` too: when it changed since it was compiled, or was never compiled, it is
    compiled now, beside the ``.po`` when the folder is writable, else in a cache folder.
    ``None`` when there is no catalog."""
    mo = catalog_path(code)
    po = mo.with_suffix(".po")
    if not po.is_file() or (mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime):
        return mo if mo.is_file() else None
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # Babel is a dependency; without it, the catalog as compiled
        return mo if mo.is_file() else None
    with po.open("rb") as source:
        catalog = read_po(source, locale=code)
    user = os.getuid() if hasattr(os, "getuid") else 0
    cache = Path(tempfile.gettempdir()) / f"atout-{user}" / "locale"
    for target in (mo, cache / code / "LC_MESSAGES" / f"{DOMAIN}.mo"):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as out:
                write_mo(out, catalog, use_fuzzy=False)
        except OSError:
            continue
        return target
    return mo if mo.is_file() else None


def set_language(code: str) -> str:
    """Show every text in the language ``code`` (``"en"``, ``"fr"``, ``"de"``; any other
    code is English) from now on; returns the code used."""
    global _language
    code = code if code in LANGUAGES else "en"
    path = None if code == "en" else _compiled(code)
    if path is None:
        use(gettext.NullTranslations())
        code = "en"
    else:
        with path.open("rb") as source:
            use(gettext.GNUTranslations(source))
    _language = code
    return code


__all__ = [
    "ARGPARSE_TEXTS",
    "DOMAIN",
    "ENVIRONMENT",
    "LANGUAGES",
    "LOCALE",
    "NP_",
    "N_",
    "SETTING",
    "_",
    "catalog_path",
    "choose_language",
    "extract_pack",
    "language",
    "language_code",
    "ngettext",
    "pgettext",
    "set_language",
    "use",
]
