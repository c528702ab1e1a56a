"""Panels over the table: the keys (help), the last trick, the menu, and the end of a
deal or of the match.

An :class:`Overlay` pauses the table while it is open (the bots wait); a
:class:`DealPanel` shows the engine's score of the deal that has just ended, and the
result when the match is over.  Each builds one :class:`~atout.ui.window.widgets.Layer`
when it opens; its buttons call what the table gives it, so neither knows the match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import arcade
from atout.core import DealScore, GameInfo, Match, View

from ..cards_text import HUMAN, capital, team_long_name
from . import theme
from .sprites import face_texture
from .widgets import Button, ButtonRow, Layer, set_plate

Action = Callable[[], None]
MenuItem = tuple[str, Action, str]
"""A menu button: its label, what it does, its name."""

KEYS = [
    ("Click", "a highlighted card plays it; a dimmed one says why not"),
    ("N", "next deal (after a deal), new match (after a match)"),
    ("H", "a hint from the expert bot"),
    ("U", "undo your last card"),
    ("L", "look at the last trick"),
    ("F", "full screen on or off"),
    ("Esc", "menu (the match is saved; Continue resumes it)"),
    ("?", "this help"),
]
"""The help overlay's lines: a key and what it does."""


def deal_headline(score: DealScore, taker: int | None, info: GameInfo) -> str:
    """The end-of-deal panel's title, from the score's outcome (the engine's words, not
    a rule); ``taker`` is the seat that took the contract, if any."""
    teams = info.teams
    who = team_long_name(info, taker % teams) if taker is not None else "The takers"
    plural = who == "You" or "&" in who
    if score.outcome == "capot":
        winner = score.capot
        name = team_long_name(info, winner) if winner is not None else "One side"
        return f"Capot! {name} won every trick"
    if score.outcome == "dedans":
        return f"Dedans: {who} {'fail' if plural else 'fails'} the contract"
    if score.outcome == "litige":
        return "Litige: the points wait for the next deal"
    if score.outcome == "abeyance":
        return "A tie: the points are held in abeyance"
    if score.made:
        return f"{who} {'make' if plural else 'makes'} the contract"
    return capital(score.outcome)


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
        layer.plate(arcade.LRBT(156, 816, 142, 592), (0, 0, 0, 90), None, 18)
        layer.plate(arcade.LRBT(150, 810, 150, 600), theme.PANEL, theme.PANEL_EDGE, 18, 3)
        if name == "help":
            self._help(layer)
        elif name == "last" and view is not None:
            self._last_trick(layer, view, seat_name)
        elif name == "menu":
            self._menu(layer, menu)
        return True

    def _help(self, layer: Layer) -> None:
        cx, t = 480.0, self.texts
        t.append(layer.text("Keys", cx, 552, 22, theme.INK, anchor_x="center", bold=True))
        for i, (key, what) in enumerate(KEYS):
            y = 500 - i * 36
            t.append(layer.text(key, 250, y, 14, theme.INK, anchor_x="right", bold=True))
            t.append(layer.text(what, 268, y, 13, theme.INK))
        t.append(
            layer.text("Click anywhere to close", cx, 176, 11, theme.INK_SOFT, anchor_x="center")
        )

    def _last_trick(self, layer: Layer, view: View, seat_name: Callable[[int], str]) -> None:
        cx, t = 480.0, self.texts
        trick = view.tricks[-1]
        seats = trick.seats(view.seats, view.direction)
        n = len(trick.cards)
        w = 110
        left = cx - (n - 1) * (w + 16) / 2
        t.append(
            layer.text(
                f"Last trick (trick {len(view.tricks)})",
                cx,
                548,
                20,
                theme.INK,
                anchor_x="center",
                bold=True,
            )
        )
        for i, (seat, card) in enumerate(zip(seats, trick.cards, strict=True)):
            x = left + i * (w + 16)
            sprite = arcade.Sprite(face_texture(card), scale=w / theme.CARD_W)
            sprite.position = (x, 380)
            layer.plates.append(sprite)
            self.cards.append((card, arcade.XYWH(x, 380, w, w * theme.CARD_H / theme.CARD_W)))
            t.append(
                layer.text(
                    seat_name(seat),
                    x,
                    282,
                    13,
                    theme.INK,
                    anchor_x="center",
                    bold=seat == trick.winner,
                )
            )
        t.append(
            layer.text(
                f"Won by {seat_name(trick.winner)}: {trick.points} points · "
                f"led by {seat_name(trick.leader)}",
                cx,
                236,
                14,
                theme.INK,
                anchor_x="center",
            )
        )
        t.append(
            layer.text(
                "Click anywhere or press L to close",
                cx,
                176,
                11,
                theme.INK_SOFT,
                anchor_x="center",
            )
        )

    def _menu(self, layer: Layer, items: Sequence[MenuItem]) -> None:
        cx = 480.0
        self.texts.append(layer.text("Menu", cx, 552, 22, theme.INK, anchor_x="center", bold=True))
        for i, (label, action, key) in enumerate(items):
            self.buttons.add(
                Button(layer, label, cx, 490 - i * 52, 300, 42, action, size=14, name=key)
            )


class DealPanel:
    """The end-of-deal panel (with the end-of-match result when the match is over)."""

    def __init__(self) -> None:
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.texts: list[arcade.Text] = []

    def close(self) -> None:
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.texts = []

    def draw(self) -> None:
        self.layer.draw()

    def open(
        self,
        match: Match,
        score: DealScore | None,
        headline: str,
        *,
        keep_count_yourself: bool,
        deal_path: Path | None,
        next_deal: Action,
        new_match: Action,
        start_menu: Action,
    ) -> None:
        """The engine's score of the deal, its notes, the match total (unless players
        keep count themselves), where the record is; then the next deal's button, or
        the match's result and its buttons."""
        info = match.info
        layer = Layer()
        self.layer = layer
        self.buttons = ButtonRow()
        cx, top = 480.0, 600.0
        shadow = layer.plate(arcade.LRBT(186, 786, 62, 602), (0, 0, 0, 90), None, 18)
        plate = layer.plate(arcade.LRBT(180, 780, 70, 610), theme.PANEL, theme.PANEL_EDGE, 18, 3)
        t: list[arcade.Text] = []
        self.texts = t
        teams = info.teams
        y = top - 46
        if score is not None:
            t.append(layer.text(headline, cx, y, 22, theme.INK, anchor_x="center", bold=True))
            cols = [cx + 40 + 130 * team for team in range(teams)]
            y -= 48
            for team in range(teams):
                name = team_long_name(info, team)
                t.append(
                    layer.text(name, cols[team], y, 13, theme.INK, anchor_x="center", bold=True)
                )
            rows = [
                ("Card points", score.card_points),
                ("Declarations, belote", score.declaration_points),
                ("Scores", score.score),
                ("Match total", tuple(match.scores)),
            ]
            if keep_count_yourself:
                rows.pop()
            for label, values in rows:
                y -= 32
                bold = label in ("Scores", "Match total")
                size = 15 if bold else 13
                t.append(layer.text(label, 220, y, 13, theme.INK, bold=bold))
                for team in range(teams):
                    value = str(values[team])
                    t.append(
                        layer.text(
                            value, cols[team], y, size, theme.INK, anchor_x="center", bold=bold
                        )
                    )
            y -= 10
            for note in score.notes:
                y -= 22
                t.append(layer.text(capital(note), cx, y, 12, theme.INK_SOFT, anchor_x="center"))
            if deal_path is not None:
                y -= 28
                where = f"Deal record: {deal_path}"
                t.append(layer.text(where, cx, y, 10, theme.INK_SOFT, anchor_x="center"))
        result = match.result
        if result is not None:
            ours = HUMAN % teams
            if result.winner is None:
                head, colour = "The match is drawn", theme.INK
            elif result.winner == ours:
                head, colour = "You win the match!", theme.GREEN_OK
            else:
                verb = "wins" if teams == info.seats else "win"
                who = team_long_name(info, result.winner)
                head, colour = f"{who} {verb} the match", theme.RED
            y -= 44
            t.append(layer.text(head, cx, y, 20, colour, anchor_x="center", bold=True))
            y -= 26
            reason = capital(result.reason)
            t.append(layer.text(reason, cx, y, 12, theme.INK_SOFT, anchor_x="center"))
            y -= 46
            self.buttons.add(
                Button(
                    layer,
                    "New match  N",
                    cx - 110,
                    y,
                    200,
                    44,
                    new_match,
                    size=14,
                    colour=theme.GREEN_OK,
                    name="new-match",
                )
            )
            self.buttons.add(
                Button(
                    layer,
                    "Start menu",
                    cx + 110,
                    y,
                    200,
                    44,
                    start_menu,
                    size=14,
                    name="start-menu",
                )
            )
        else:
            y -= 50
            self.buttons.add(
                Button(
                    layer,
                    "Next deal  N",
                    cx,
                    y,
                    220,
                    46,
                    next_deal,
                    size=15,
                    colour=theme.GREEN_OK,
                    name="next-deal",
                )
            )
        bottom = y - 40
        set_plate(
            plate, arcade.LRBT(180, 780, bottom, top + 10), theme.PANEL, theme.PANEL_EDGE, 18, 3
        )
        set_plate(shadow, arcade.LRBT(186, 786, bottom - 8, top + 2), (0, 0, 0, 90), None, 18)
