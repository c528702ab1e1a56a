"""The side bar's lists below its words: the score sheet and, in its place on the C key,
the cards not seen yet.

A :class:`ScoreSheet` is laid out again only when a deal has been scored; an
:class:`UnseenPanel` when the view changes while it is open.  Both start below the words of
the table's :class:`~atout.ui.window.panels.StatusPanel` (its ``drop``) and compute no
rule.
"""

from __future__ import annotations

import arcade
from atout.core import GameInfo
from atout.core import View
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS

from ..cards_text import show_card
from ..cards_text import suit_order
from ..i18n import N_
from ..i18n import _
from ..i18n import ngettext
from ..i18n import pgettext
from . import theme
from .frame import Frame
from .panels import SAID_TOP
from .widgets import Layer
from .words import MatchLike
from .words import team_name

ROW = 22.0
"""The height of a row of the score sheet."""

PRACTICE_MARK = N_("Practice — free undo")
"""What the score sheet's title row says of a practice match (undo is free; translated
where shown)."""


def sheet_marks() -> dict[str, str]:
    """The score sheet's short mark of a deal by its outcome, in the chosen language (the
    club words, and "held" where a tie's points wait for the next deal); the column is
    narrow, so these are shorter than :func:`~atout.ui.messages.outcome_words`."""
    return {
        "dedans": pgettext("score sheet mark", "dedans"),
        "capot": pgettext("score sheet mark", "capot"),
        "litige": pgettext("score sheet mark", "litige"),
        "abeyance": pgettext("score sheet mark", "held"),
    }


class ScoreSheet:
    """The score sheet in the side bar: every deal's score and the totals, and the mark
    of a practice match."""

    def __init__(self, info: GameInfo, frame: Frame) -> None:
        self.info = info
        self.frame = frame
        self.layer = Layer()
        self.texts: list[arcade.Text] = []
        self.y = 400.0
        """Where the totals are written."""
        self.key: tuple[int, tuple[int, ...], int] | None = None
        self.drop = 0.0
        """How much lower than its usual place the sheet starts (the side bar's words
        above it take more lines: :attr:`StatusPanel.drop`)."""

    def draw(self) -> None:
        self.layer.draw()

    def refresh(self, match: MatchLike, keep_count_yourself: bool) -> None:
        """Lay the sheet out again if a deal has been scored since (or the match is
        another one); under l'arrêt only the target shows, the totals are "?"."""
        key = (len(match.history), tuple(match.scores), id(match))
        if key == self.key:
            return
        self.key = key
        layer = Layer()
        x0 = self.frame.table_right + 24
        top = self.frame.height - 184 - self.drop
        teams = self.info.teams
        cols = [x0 + 130 + 92 * team for team in range(teams)]
        history = match.history
        practice = bool(getattr(match, "practice", False))  # a network table has no flag
        room = int((top - 52 - (SAID_TOP + 30) - 60 - (ROW if practice else 0)) // ROW)
        shown = history[-max(1, room) :]
        first = len(history) - len(shown)
        if keep_count_yourself:
            shown = []
        rows_y = [top - 48 - ROW * i for i in range(len(shown))]
        total_y = (rows_y[-1] if rows_y else top - 26) - 34
        self.y = total_y
        layer.plate(arcade.LRBT(x0 - 4, x0 + 256, top - 30, top - 29), (255, 255, 255, 60), None, 0)
        layer.plate(
            arcade.LRBT(x0 - 4, x0 + 256, total_y + 22, total_y + 23), (255, 255, 255, 80), None, 0
        )
        texts = [
            layer.text(_("Score sheet"), x0, top, 14, theme.GOLD, bold=True),
            layer.text(_("Deal"), x0, top - 22, 12, theme.GOLD),
        ]
        for team in range(teams):
            texts.append(
                layer.text(
                    team_name(self.info, team),
                    cols[team],
                    top - 22,
                    12,
                    theme.GOLD,
                    anchor_x="center",
                    bold=True,
                )
            )
        marks = sheet_marks()
        for i, score in enumerate(shown):
            y = rows_y[i]
            texts.append(layer.text(str(first + i + 1), x0, y, 12, theme.CREAM))
            texts.append(layer.text(marks.get(score.outcome, ""), x0 + 28, y, 12, theme.CREAM))
            for team in range(teams):
                texts.append(
                    layer.text(
                        str(score.score[team]), cols[team], y, 12, theme.WHITE, anchor_x="center"
                    )
                )
        texts.append(layer.text(_("Total"), x0, total_y, 13, theme.GOLD, bold=True))
        for team in range(teams):
            texts.append(
                layer.text(
                    "?" if keep_count_yourself else str(match.scores[team]),
                    cols[team],
                    total_y,
                    15,
                    theme.WHITE,
                    anchor_x="center",
                    bold=True,
                )
            )
        target = match.rules.get("target")
        below = total_y - 26
        if target is not None:
            texts.append(
                layer.text(_("Game to {target}").format(target=target), x0, below, 12, theme.CREAM)
            )
            below -= ROW
        if practice:
            texts.append(layer.text(_(PRACTICE_MARK), x0, below, 12, theme.GOLD, bold=True))
        self.layer = layer
        self.texts = texts


UNSEEN_RED = (255, 140, 130, 255)
"""Hearts and diamonds in the list of cards not seen yet (light on the dark side bar)."""
UNSEEN_FOUR = ((150, 225, 160, 255), (150, 190, 255, 255), UNSEEN_RED, theme.CREAM)
"""The list's inks in the four-colour deck (clubs, diamonds, hearts, spades), as light."""


def unseen_ink(suit: int) -> tuple[int, int, int, int]:
    """The ink of a suit in the list of cards not seen yet, in the deck in use."""
    if theme.four_colour():
        return UNSEEN_FOUR[suit]
    return UNSEEN_RED if SUITS[suit] in "DH" else theme.CREAM


class UnseenPanel:
    """The cards not seen yet, in the side bar in place of the score sheet (the C key):
    every card of the deal the seat's view does not show (``View.unseen``: in Découverte
    the face-down cards), by suit, the highest first."""

    def __init__(self) -> None:
        self.open = False
        self.layer = Layer()
        self.texts: list[arcade.Text] = []

    def draw(self) -> None:
        self.layer.draw()

    def refresh(self, view: View | None, frame: Frame, drop: float) -> None:
        """Write the list for ``view`` in the side bar of ``frame`` (``drop``: how much
        lower than usual the side bar's words end, :attr:`StatusPanel.drop`)."""
        layer = Layer()
        self.layer = layer
        self.texts = []
        if view is None:
            return
        x0 = frame.table_right + 24
        top = frame.height - 184 - drop
        unseen = view.unseen
        count = bin(unseen).count("1")
        self.texts.append(
            layer.text(
                ngettext("Not seen yet: {count} card", "Not seen yet: {count} cards", count).format(
                    count=count
                ),
                x0,
                top,
                14,
                theme.GOLD,
                bold=True,
            )
        )
        y = top - 30
        for suit in suit_order(view.trump):
            index = SUITS.index(suit)
            cards = [c for c in range(index * 8 + 7, index * 8 - 1, -1) if unseen >> c & 1]
            colour = unseen_ink(index)
            ranks = "  ".join(show_card(c)[:-1] for c in cards) or "–"  # the rank, as written
            self.texts.append(layer.text(SUIT_SYMBOLS[index], x0, y, 16, colour, bold=True))
            self.texts.append(layer.text(ranks, x0 + 30, y, 14, colour, bold=True))
            y -= 26
        self.texts.append(layer.text(_("C hides this list"), x0, y - 4, 12, theme.CREAM))
