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
from atout.core.model import BID_CONTRACT
from atout.core.model import BidInfo

from ..cards_text import strain_key
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


GRID_AFTER = 6
"""More contract bids than this are laid out as a grid of values by strains."""


def build_bid_buttons(
    layer: Layer,
    view: View,
    centre: tuple[float, float],
    on_bid: Callable[[str], None],
    described: list[tuple[str, BidInfo]] | None = None,
    room: float = 640.0,
) -> ButtonRow:
    """One button per legal bid of ``view`` (their texts only describe the bids the engine
    lists), drawn in ``layer`` and laid out in a row around ``centre``; with the bids as
    the engine describes them (``described``) and more contract bids than a row holds
    (an auction by values), :func:`build_bid_grid` in ``room`` (its width)."""
    contracts = [(b, i) for b, i in described or () if i.kind == BID_CONTRACT]
    if described is not None and len(contracts) > GRID_AFTER:
        return build_bid_grid(layer, view, described, centre, on_bid, room)
    infos = dict(described or ())
    return _bid_row(
        layer, view.legal_bids, centre, on_bid, lambda bid: bid_text(bid, view, infos.get(bid))
    )


def build_bid_grid(
    layer: Layer,
    view: View,
    described: list[tuple[str, BidInfo]],
    centre: tuple[float, float],
    on_bid: Callable[[str], None],
    room: float,
) -> ButtonRow:
    """An auction by values: a grid of the legal contract bids, a column for each value
    (capot last) and a row for each strain (the suits, then the others), with the other
    bids (contre, surcontre, pass) in a column at its right; the whole centred on
    ``centre`` within ``room`` (its width).  Built from the engine's description of each
    bid alone (``described``), never from its text."""
    cx, cy = centre
    contracts = [(b, i) for b, i in described if i.kind == BID_CONTRACT]
    others = [b for b, i in described if i.kind != BID_CONTRACT]
    values = sorted({(i.capot, i.value or 0) for _, i in contracts})
    strains = list(dict.fromkeys(strain_key(i) for _, i in contracts))
    gap, height, call_w, wider = 4, 28, 92, 20
    capot = any(c for c, _ in values)  # its column is wider: "capot" is a word
    fit = (room - call_w - gap * len(values) - wider * capot) / len(values)
    width = int(max(44, min(72, fit)))
    widths = [width + wider * c for c, _ in values]
    lefts = [cx - (sum(widths) + gap * len(values) + call_w) / 2]
    for w in widths:
        lefts.append(lefts[-1] + w + gap)
    top = cy + (len(strains) * (height + gap) - gap) / 2 - height / 2
    row = ButtonRow()
    for bid, info in contracts:
        column = values.index((info.capot, info.value or 0))
        line = strains.index(strain_key(info))
        row.add(
            Button(
                layer,
                bid_text(bid, view, info),
                lefts[column] + widths[column] / 2,
                top - line * (height + gap),
                widths[column],
                height,
                partial(on_bid, bid),
                size=11,
                name=f"bid:{bid}",
            )
        )
    call_x = lefts[-1] + call_w / 2
    for i, bid in enumerate(others):
        plain = bid != "pass"
        row.add(
            Button(
                layer,
                bid_text(bid, view, dict(described)[bid]),
                call_x,
                top - i * (height + gap),
                call_w,
                height,
                partial(on_bid, bid),
                size=12,
                colour=theme.BUTTON if plain else (120, 60, 50, 255),
                hover_colour=theme.BUTTON_HOVER if plain else (160, 80, 64, 255),
                name=f"bid:{bid}",
                fit=True,
            )
        )
    return row


def _bid_row(
    layer: Layer,
    bids: tuple[str, ...] | list[str],
    centre: tuple[float, float],
    on_bid: Callable[[str], None],
    words: Callable[[str], str],
) -> ButtonRow:
    """One button per bid of ``bids``, labelled ``words(bid)``, in a row around ``centre``."""
    cx, cy = centre
    gap = 10
    row = ButtonRow()
    for bid in bids:
        plain = bid != "pass"
        row.add(
            Button(
                layer,
                words(bid),
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
