"""The install's one build step beyond pyproject.toml: compile the translation catalogs.

``ui/locale/*/LC_MESSAGES/atout.po`` are the catalogs translators edit; the game reads the
compiled ``atout.mo`` beside each.  The ``.mo`` files are never committed: this
``build_py`` compiles them with Babel (a build requirement) into the built package for
``pip install .``, and into the checkout for ``pip install -e .`` (where the package is
the checkout itself).  Everything else about the distribution is in ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
LOCALE = ROOT / "ui" / "locale"


def compile_catalogs(target: Path) -> None:
    """Write ``target/CODE/LC_MESSAGES/atout.mo`` for every catalog under ``ui/locale``."""
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/atout.po")):
        relative = po.relative_to(LOCALE).with_suffix(".mo")
        mo = target / relative
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        with mo.open("wb") as out:
            write_mo(out, catalog, use_fuzzy=False)


class BuildWithCatalogs(build_py):
    """``build_py`` that also compiles the catalogs (see the module's docstring)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            compile_catalogs(LOCALE)
        else:
            compile_catalogs(Path(self.build_lib) / "atout" / "ui" / "locale")


setup(cmdclass={"build_py": BuildWithCatalogs})
