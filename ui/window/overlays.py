"""Panels over the table: the keys (help), the last trick, the menu, and the end of a
deal or of the match.

An :class:`Overlay` pauses the table while it is open (the bots wait); a
:class:`DealPanel` shows the engine's score of the deal that has just ended, and the
result when the match is over.  Each builds one :class:`~atout.ui.window.widgets.Layer`
when it opens; its buttons call what the table gives it, so neither knows the match.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path

import arcade
from atout.core import DealScore
from atout.core import GameInfo
from atout.core import View

from ..cards_text import capital
from ..i18n import N_
from ..i18n import _
from ..i18n import ngettext
from ..messages import outcome_words
from ..messages import shown
from . import theme
from .review_labels import HELP_LINE
from .review_labels import help_line
from .rules_view import open_table_rules
from .sprites import face_texture
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Colour
from .widgets import Layer
from .widgets import set_plate
from .widgets import shrink_to
from .words import YOU
from .words import MatchLike
from .words import team_long_name
from .words import team_name
from .words import your_team

Action = Callable[[], None]
MenuItem = tuple[str, Action, str]
"""A menu button: its label, what it does, its name."""

KEYS = [
    (N_("Click"), N_("a highlighted card plays it; a dimmed one says why not")),
    (N_("Arrows"), N_("move the white frame over the playable cards (or the bids)")),
    (N_("Enter"), N_("play the framed card (or make the framed bid)")),
    ("H", N_("a hint from the expert bot; Enter then plays it")),
    ("C", N_("the cards not seen yet (side bar), on or off")),
    ("N", N_("next deal (after a deal), new match (after a match)")),
    ("U", N_("undo your last card, if it revealed nothing (any card in practice)")),
    ("L", N_("look at the last trick")),
    ("R", N_("review the deal just played (←/→, Home/End step; Esc back)")),
    ("", HELP_LINE),
    ("F", N_("full screen on or off")),
    ("Esc", N_("menu (the match is saved; Continue resumes it)")),
    ("?", N_("this help")),
]
"""The help overlay's lines: a key and what it does (marked here, translated when shown;
the letters are the keys themselves)."""


def deal_headline(score: DealScore, taker: int | None, info: GameInfo) -> str:
    """The end-of-deal panel's title, from the score's outcome (the engine's words, not
    a rule); ``taker`` is the seat that took the contract, if any."""
    teams = info.teams
    who = team_long_name(info, taker % teams) if taker is not None else _("The takers")
    plural = who == _(YOU) or "&" in who
    if score.outcome == "capot":
        winner = score.capot
        name = team_long_name(info, winner) if winner is not None else _("One side")
        return _("Capot! {team} won every trick").format(team=name)
    if score.outcome == "dedans":
        if plural:
            return _("Dedans: {team} fail the contract").format(team=who)
        return _("Dedans: {team} fails the contract").format(team=who)
    if score.outcome == "litige":
        return _("Litige: the points wait for the next deal")
    if score.outcome == "abeyance":
        return _("A tie: the points are held in abeyance")
    if score.made:
        if plural:
            return _("{team} make the contract").format(team=who)
        return _("{team} makes the contract").format(team=who)
    return capital(outcome_words(score.outcome))


class Overlay:
    """The panel over the table: ``name`` is ``""`` (closed), ``help``, ``last`` or
    ``menu``."""

    def __init__(self) -> None:
        self.name = ""
        self.layer = Layer()
        self.texts: list[arcade.Text] = []
        self.cards: list[tuple[int, arcade.Rect]] = []
        """The last trick's cards and where they are drawn."""
        self.buttons = ButtonRow()
        self.rect = arcade.LRBT(0, 0, 0, 0)
        """Where the panel is drawn."""
        self.centre = (0.0, 0.0)

    @property
    def is_open(self) -> bool:
        return bool(self.name)

    def close(self) -> None:
        self.name = ""

    def draw(self) -> None:
        self.layer.draw()

    def open(
        self,
        name: str,
        view: View | None,
        seat_name: Callable[[int], str],
        menu: Sequence[MenuItem] = (),
        centre: tuple[float, float] = (480.0, 375.0),
    ) -> bool:
        """Open the panel ``name`` over the table; ``False`` when there is nothing to
        show (no trick played yet for ``last``), and the table stays as it was."""
        layer = Layer()
        self.texts = []
        self.cards = []
        self.buttons = ButtonRow()
        if name == "last" and (view is None or not view.tricks):
            return False
        self.name = name
        self.layer = layer
        cx, cy = centre
        self.centre = centre
        layer.plate(arcade.LRBT(cx - 324, cx + 336, cy - 233, cy + 217), (0, 0, 0, 90), None, 18)
        self.rect = arcade.LRBT(cx - 330, cx + 330, cy - 225, cy + 225)
        layer.plate(self.rect, theme.PANEL, theme.PANEL_EDGE, 18, 3)
        if name == "help":
            self._help(layer)
        elif name == "last" and view is not None:
            self._last_trick(layer, view, seat_name)
        elif name == "menu":
            self._menu(layer, menu)
        return True

    def _help(self, layer: Layer) -> None:
        (cx, cy), t = self.centre, self.texts
        t.append(layer.text(_("Keys"), cx, cy + 177, 22, theme.INK, anchor_x="center", bold=True))
        room = self.rect.right - 20 - (cx - 222)  # clear of the panel's border
        for i, (key, what) in enumerate(KEYS):
            y = cy + 142 - i * 23
            name = layer.text(
                _(key) if key else "", cx - 240, y, 14, theme.INK, anchor_x="right", bold=True
            )
            # a long key name (a translation's) is written smaller, clear of the border
            while (
                name.x - name.content_width < self.rect.left + 22
                and name.font_size > theme.MIN_FONT
            ):
                name.font_size -= 1
            t.append(name)
            line = layer.text(
                help_line() if what == HELP_LINE else _(what), cx - 222, y, 13, theme.INK
            )
            shrink_to(line, room)
            t.append(line)
        self.buttons.add(
            Button(
                layer, _("The rules of the game"), cx, cy - 165, 280, 36, open_table_rules, size=13
            )
        )
        t.append(
            layer.text(
                _("Click anywhere to close"), cx, cy - 202, 12, theme.INK_SOFT, anchor_x="center"
            )
        )

    def _last_trick(self, layer: Layer, view: View, seat_name: Callable[[int], str]) -> None:
        (cx, cy), t = self.centre, self.texts
        trick = view.tricks[-1]
        seats = trick.seats(view.seats, view.direction)
        n = len(trick.cards)
        w = 110
        left = cx - (n - 1) * (w + 16) / 2
        t.append(
            layer.text(
                _("Last trick (trick {number})").format(number=len(view.tricks)),
                cx,
                cy + 173,
                20,
                theme.INK,
                anchor_x="center",
                bold=True,
            )
        )
        for i, (seat, card) in enumerate(zip(seats, trick.cards, strict=True)):
            x = left + i * (w + 16)
            sprite = arcade.Sprite(face_texture(card), scale=w / theme.CARD_W)
            sprite.position = (x, cy + 20)
            layer.plates.append(sprite)
            self.cards.append((card, arcade.XYWH(x, cy + 20, w, w * theme.CARD_H / theme.CARD_W)))
            t.append(
                layer.text(
                    seat_name(seat),
                    x,
                    cy - 78,
                    13,
                    theme.INK,
                    anchor_x="center",
                    bold=seat == trick.winner,
                )
            )
        t.append(
            layer.text(
                ngettext(
                    "Won by {winner}: {points} point · led by {leader}",
                    "Won by {winner}: {points} points · led by {leader}",
                    trick.points,
                ).format(
                    winner=seat_name(trick.winner),
                    points=trick.points,
                    leader=seat_name(trick.leader),
                ),
                cx,
                cy - 124,
                14,
                theme.INK,
                anchor_x="center",
            )
        )
        t.append(
            layer.text(
                _("Click anywhere or press L to close"),
                cx,
                cy - 202,
                12,
                theme.INK_SOFT,
                anchor_x="center",
            )
        )

    def _menu(self, layer: Layer, items: Sequence[MenuItem]) -> None:
        cx, cy = self.centre
        self.texts.append(
            layer.text(_("Menu"), cx, cy + 177, 22, theme.INK, anchor_x="center", bold=True)
        )
        for i, (label, action, key) in enumerate(items):
            self.buttons.add(
                Button(layer, label, cx, cy + 115 - i * 52, 300, 42, action, size=14, name=key)
            )


class DealPanel:
    """The end-of-deal panel (with the end-of-match result when the match is over)."""

    def __init__(self) -> None:
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.texts: list[arcade.Text] = []
        self.rect = arcade.LRBT(0, 0, 0, 0)
        """Where the panel is drawn (it is as tall as what it says)."""

    def close(self) -> None:
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.texts = []

    def draw(self) -> None:
        self.layer.draw()

    def open(
        self,
        match: MatchLike,
        score: DealScore | None,
        headline: str,
        *,
        info: GameInfo,
        keep_count_yourself: bool,
        deal_path: Path | None,
        next_deal: Action,
        new_match: Action,
        start_menu: Action,
        review: Action | None = None,
        box: tuple[float, float, float] = (480.0, 360.0, 560.0),
    ) -> None:
        """The engine's score of the deal (``info``: the game, its seats named as the table
        calls them), its notes, the match total (unless players
        keep count themselves), the name of the deal's record; then the next deal's
        button, or the match's result and its buttons.

        ``box`` is the panel's middle and width (the layout keeps the seats' names and
        points clear of it); the panel is as tall as what it says.  The declarations'
        row shows only when the deal scored some or the game has them.
        """
        layer = Layer()
        self.layer = layer
        self.buttons = ButtonRow()
        cx, cy, width = box
        left, right = cx - width / 2, cx + width / 2
        shadow = layer.plate(arcade.LRBT(left + 6, right + 6, 0, 10), (0, 0, 0, 90), None, 18)
        plate = layer.plate(arcade.LRBT(left, right, 0, 10), theme.PANEL, theme.PANEL_EDGE, 18, 3)
        t: list[arcade.Text] = []
        self.texts = t
        teams = info.teams
        y = 0.0
        inner = width - 48

        def fitted(words: str, size: float, colour: Colour, bold: bool) -> arcade.Text:
            """A centred line, its font made smaller (not below the smallest) to fit."""
            text = layer.text(words, cx, y, size, colour, anchor_x="center", bold=bold)
            shrink_to(text, inner)
            return text

        if score is not None:
            y -= 34
            t.append(fitted(headline, 20, theme.INK, True))
            col_w = min(120.0, (inner - 150) / teams)
            cols = [right - 24 - col_w * (teams - team - 0.5) for team in range(teams)]
            y -= 38
            heads = [
                layer.text(
                    team_long_name(info, team),
                    cols[team],
                    y,
                    13,
                    theme.INK,
                    anchor_x="center",
                    bold=True,
                )
                for team in range(teams)
            ]
            if any(h.content_width > col_w - 8 for h in heads):  # "Us" and "Them" fit
                for team, name in enumerate(heads):
                    name.text = team_name(info, team)
            t.extend(heads)
            rows = [(_("Card points"), score.card_points)]
            if any(score.declaration_points) or declarations_count(match):
                rows.append((_("Declarations, belote"), score.declaration_points))
            rows.append((_("Score"), score.score))
            if not keep_count_yourself:
                rows.append((_("Match total"), tuple(match.scores)))
            for label, values in rows:
                y -= 28
                bold = label in (_("Score"), _("Match total"))
                size = 15 if bold else 13
                words = layer.text(label, left + 24, y, 13, theme.INK, bold=bold)
                if words.right > cols[0] - col_w / 2 and "," in label:
                    words.text = label.split(",")[0]  # "Declarations" when room is short
                t.append(words)
                numbers = [
                    layer.text(
                        str(values[team]),
                        cols[team],
                        y,
                        size,
                        theme.INK,
                        anchor_x="center",
                        bold=bold,
                    )
                    for team in range(teams)
                ]
                t.extend(numbers)
                # the table's seat plates (a bot's level in the language) may narrow the panel
                shrink_to(words, numbers[0].left - 8 - words.left)
            y -= 6
            for note in score.notes:
                y -= 22
                t.append(fitted(capital(shown(note)), 12, theme.INK_SOFT, False))
            if deal_path is not None:
                y -= 24
                t.append(
                    fitted(
                        _("Record: {file}").format(file=deal_path.name), 12, theme.INK_SOFT, False
                    )
                )
        result = match.result
        if result is not None:
            ours = your_team(info)
            if result.winner is None:
                head, colour = _("The match is drawn"), theme.INK
            elif result.winner == ours:
                head, colour = _("You win the match!"), theme.GREEN_OK
            else:
                who = team_long_name(info, result.winner)
                lost = theme.RED if ours is not None else theme.GREEN_OK
                won = (
                    _("{team} wins the match") if teams == info.seats else _("{team} win the match")
                )
                head, colour = won.format(team=who), lost
            y -= 38
            t.append(fitted(head, 20, colour, True))
            y -= 24
            t.append(fitted(capital(shown(result.reason)), 12, theme.INK_SOFT, False))
            y -= 42
            half = min(200.0, (inner - 16) / 2)
            self.buttons.add(
                Button(
                    layer,
                    _("New match  N"),
                    cx - half / 2 - 8,
                    y,
                    int(half),
                    42,
                    new_match,
                    size=13,
                    colour=theme.GREEN_OK,
                    name="new-match",
                )
            )
            self.buttons.add(
                Button(
                    layer,
                    _("Start menu"),
                    cx + half / 2 + 8,
                    y,
                    int(half),
                    42,
                    start_menu,
                    size=13,
                    name="start-menu",
                )
            )
        else:
            y -= 42
            self.buttons.add(
                Button(
                    layer,
                    _("Next deal  N"),
                    cx,
                    y,
                    220,
                    44,
                    next_deal,
                    size=15,
                    colour=theme.GREEN_OK,
                    name="next-deal",
                )
            )
        if review is not None and score is not None:
            y -= 50
            self.buttons.add(
                Button(layer, _("Review  R"), cx, y, 220, 40, review, size=13, name="review")
            )
        height = -y + 36
        top = cy + height / 2
        for text in t:
            text.y += top
        for button in self.buttons.buttons:
            button.move_to(button.rect.x, button.rect.y + top)
        self.rect = arcade.LRBT(left, right, top - height, top)
        set_plate(plate, self.rect, theme.PANEL, theme.PANEL_EDGE, 18, 3)
        set_plate(
            shadow,
            arcade.LRBT(left + 6, right + 6, top - height - 8, top - 8),
            (0, 0, 0, 90),
            None,
            18,
        )


def declarations_count(match: MatchLike) -> bool:
    """Whether the match's rules score declarations (their ``declarations`` option is
    on): a game without them shows no row of zeros."""
    return match.rules.get("declarations") in ("on", True)
