"""The rules of a game for the terminal: the pages of :func:`atout.ui.rules_pages.rules_pages`
as wrapped lines (the ``rules`` command), an example of cards written in one line.

The module imports no arcade: the terminal loads it.
"""

from __future__ import annotations

import textwrap

from atout.core import Engine
from atout.core import Rules

from .cards_text import show_card
from .i18n import _
from .rules_model import Example
from .rules_model import Page
from .rules_pages import rules_pages

WIDTH = 80
"""The terminal's columns: :func:`rules_text` wraps to them."""


def example_text(example: Example) -> str:
    """An example in one line: the cards (``▒▒`` for a face-down one), those that may not
    be played in brackets, their labels after a slash, then the caption."""
    shown = []
    for i, card in enumerate(example.cards):
        word = "▒▒" if card is None else show_card(card)
        if example.labels:
            word += f"/{example.labels[i]}"
        if example.allowed and not example.allowed[i]:
            word = f"({word})"
        shown.append(word)
    if example.stacked:
        pairs = [
            _("{card} on {under}").format(card=shown[i], under=shown[i + 1])
            for i in range(0, len(shown) - 1, 2)
        ]
        line = ", ".join(pairs)
    else:
        line = " ".join(shown)
    return f"{line}: {example.caption}"


def page_lines(page: Page, width: int = WIDTH) -> list[str]:
    """One page as wrapped lines: its title underlined, paragraphs, examples indented."""
    lines = [page.title, "-" * min(width, len(page.title))]
    for block in page.blocks:
        if isinstance(block, Example):
            lines += textwrap.wrap(
                example_text(block), width, initial_indent="    ", subsequent_indent="      "
            )
        else:
            lines += textwrap.wrap(block, width)
    return lines


def rules_text(rules: Rules, engine: Engine | None = None, width: int = WIDTH) -> str:
    """The whole rules of ``rules.game`` under ``rules`` for the terminal, every line at
    most ``width`` columns (the ``rules`` command prints it)."""
    engine = engine if engine is not None else Engine()
    out: list[str] = []
    for page in rules_pages(engine, rules):
        if out:
            out.append("")
        out += page_lines(page, width)
    return "\n".join(out)


__all__ = ["example_text", "page_lines", "rules_text"]
