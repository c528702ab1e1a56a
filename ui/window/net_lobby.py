"""What a network table shows over its felt: until the table starts, a panel that says
where the others join (the address, the table's code, each open seat's token; the host's
button that starts at once), and whenever the connection is in trouble, a line that
says so.

:class:`Lobby` builds its plates and texts on its :class:`~atout.ui.window.table.Table`
from what the table's :class:`~atout.ui.window.net_connect.NetLink` and the server's
``players`` message say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import arcade

from ..i18n import _
from ..messages import bot_title
from . import theme
from .net_connect import NetLink
from .table import Table
from .widgets import Button
from .widgets import Layer
from .widgets import shrink_to

TROUBLE = (150, 30, 30, 235)


def share_lines(link: NetLink, names: Callable[[int], str], you: int | None) -> list[str]:
    """What each open seat's player types to join (a hosted table), else who is there."""
    table = link.table
    states = {p.get("seat"): p for p in table.players}
    lines = []
    for seat in range(table.seats):
        if seat == you:
            continue
        player: dict[str, Any] = states.get(seat, {})
        state = player.get("state", "open")
        if state == "open" and link.tokens:
            lines.append(f"{names(seat)}:  {link.address} {link.tokens[seat]}")
        elif state == "open":
            lines.append(_("{seat}: nobody yet").format(seat=names(seat)))
        else:
            lines.append(
                _("{seat}: {name} is here").format(
                    seat=names(seat), name=player.get("name") or _("a player")
                )
            )
    return lines


class Lobby:
    """The waiting panel and the connection's line (built again with the table)."""

    def __init__(self) -> None:
        self.layer = Layer()
        self.trouble_layer = Layer()
        self.trouble_text: arcade.Text | None = None
        self.texts: list[arcade.Text] = []
        self.start_button: Button | None = None
        self.rect = arcade.LRBT(0, 0, 0, 0)
        """The waiting panel's box."""

    def build(self, table: Table, link: NetLink, start: Callable[[], None] | None) -> None:
        """Lay the panel out over ``table``'s felt; ``start``: the host's start button."""
        layer = Layer()
        cx, cy, width = table.layout.panel_box()
        width = max(width, min(640.0, table.frame.table_right - 40))
        head = _("Table {code} · waiting for players").format(code=link.table.code)
        lines = share_lines(link, table.seat_name, table.you)
        if link.tokens:
            intro = _(
                "Others join with (Join a table, or atout play --join ADDRESS --token TOKEN):"
            )
            foot = _("Seats nobody takes are played by the {level} bot.").format(
                level=bot_title(table.engine.bots, link.table.bot_level)
            )
        else:
            intro = _("At the table:")
            foot = _("The host starts the table (or it starts once every seat is taken).")
        rows = 3 + len(lines) + (1 if start is not None else 0)
        height = 60 + 26 * rows + (44 if start is not None else 0)
        top = cy + height / 2
        self.rect = arcade.LRBT(cx - width / 2, cx + width / 2, top - height, top)
        layer.plate(
            self.rect,
            theme.PANEL,
            theme.PANEL_EDGE,
            18,
            3,
        )
        y = top - 40
        texts = [layer.text(head, cx, y, 18, theme.INK, anchor_x="center", bold=True)]
        y -= 34
        texts.append(layer.text(intro, cx, y, 12, theme.INK_SOFT, anchor_x="center"))
        for line in lines:
            y -= 26
            texts.append(layer.text(line, cx, y, 14, theme.INK, anchor_x="center", bold=True))
        y -= 30
        texts.append(layer.text(foot, cx, y, 12, theme.INK_SOFT, anchor_x="center"))
        for text in texts:  # smaller until it fits the panel
            shrink_to(text, width - 32)
        self.start_button = None
        if start is not None:
            button = Button(
                layer,
                _("Start now: bots take the empty seats"),
                cx,
                y - 40,
                360,
                38,
                start,
                size=13,
                fit=True,
                colour=theme.GREEN_OK,
                hover_colour=theme.GREEN_OK_HOVER,
                name="start-now",
            )
            table.buttons.add(button)
            self.start_button = button
        self.texts = texts
        self.layer = layer
        trouble = Layer()
        mid = table.frame.felt_mid
        ty = table.frame.height - 26
        trouble.plate(arcade.XYWH(mid, ty, min(620.0, table.frame.table_right - 24), 34), TROUBLE)
        self.trouble_text = trouble.text(
            "", mid, ty, 14, theme.WHITE, anchor_x="center", anchor_y="center", bold=True
        )
        self.trouble_layer = trouble

    def draw(self, waiting: bool, trouble: str) -> None:
        """The panel while ``waiting``; the line while there is ``trouble``."""
        if self.start_button is not None:
            self.start_button.visible = waiting
        if waiting:
            self.layer.draw()
        if trouble and self.trouble_text is not None:
            if self.trouble_text.text != trouble:
                self.trouble_text.text = trouble
            self.trouble_layer.draw()
