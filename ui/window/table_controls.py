"""The table's buttons: the side bar's (last trick, hint, undo, help, speed, menu, and the
claim of l'arrêt) and, during the bidding, one button per legal bid.

Module-level functions that build the buttons from the callbacks they call, so they know
nothing of :class:`~atout.ui.window.table.Table` (no import cycle).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from functools import partial

from atout.core import View

from ..i18n import _
from . import theme
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer
from .words import bid_text


def build_side_buttons(
    hud: Layer,
    buttons: ButtonRow,
    right: float,
    bid_area: tuple[float, float],
    actions: Mapping[str, Callable[[], None]],
) -> tuple[Button, Button]:
    """Add the side bar's buttons to ``buttons`` (drawn in ``hud``, right of the table's
    edge ``right``) and the hidden claim button at ``bid_area``; ``actions`` gives each
    button's callback by name (last, hint, undo, help, speed, menu, claim).  Returns the
    speed button and the claim button."""
    bx = right + 76
    row = [
        (_("Last trick  L"), actions["last"], "last"),
        (_("Hint  H"), actions["hint"], "hint"),
        (_("Undo  U"), actions["undo"], "undo"),
        (_("Help  ?"), actions["help"], "help"),
    ]
    for i, (label_text, action, name) in enumerate(row):
        buttons.add(
            Button(
                hud,
                label_text,
                bx + (i % 2) * 150,
                112 - (i // 2) * 44,
                140,
                36,
                action,
                size=12,
                name=name,
            )
        )
    speed_button = buttons.add(
        Button(hud, "", bx, 24, 140, 34, actions["speed"], size=12, name="speed")
    )
    buttons.add(
        Button(
            hud,
            _("Menu  Esc"),
            bx + 150,
            24,
            140,
            34,
            actions["menu"],
            size=12,
            name="menu",
        )
    )
    claim_button = buttons.add(
        Button(
            hud,
            _("L'arrêt!  Claim the match"),
            *bid_area,
            300,
            44,
            actions["claim"],
            size=14,
            colour=(176, 60, 30, 255),
            hover_colour=(210, 80, 40, 255),
            name="claim",
        )
    )
    claim_button.visible = False
    return speed_button, claim_button


def build_bid_buttons(
    layer: Layer,
    view: View,
    centre: tuple[float, float],
    on_bid: Callable[[str], None],
) -> ButtonRow:
    """One button per legal bid of ``view`` (their texts only describe the bids the engine
    lists), drawn in ``layer`` and laid out in a row around ``centre``."""
    cx, cy = centre
    gap = 10
    row = ButtonRow()
    for bid in view.legal_bids:
        plain = bid != "pass"
        row.add(
            Button(
                layer,
                bid_text(bid, view),
                cx,
                cy,
                96,
                44,
                partial(on_bid, bid),
                size=13,
                colour=theme.BUTTON if plain else (120, 60, 50, 255),
                hover_colour=theme.BUTTON_HOVER if plain else (160, 80, 64, 255),
                name=f"bid:{bid}",
                fit=True,
            )
        )
    buttons = row.buttons
    total = sum(b.rect.width for b in buttons) + gap * (len(buttons) - 1)
    x = cx - total / 2
    for button in buttons:
        button.move_to(x + button.rect.width / 2, cy)
        x += button.rect.width + gap
    return row
