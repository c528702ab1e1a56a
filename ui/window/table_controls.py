"""The table's buttons: the side bar's (last trick, hint, undo, help, speed, menu, and the
claim of l'arrêt) and, during the bidding, one button per legal bid.

Module-level functions that build the buttons from the callbacks they call, so they know
nothing of :class:`~atout.ui.window.table.Table` (no import cycle).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from atout.core import View
from atout.core.model import BID_CONTRACT
from atout.core.model import BidInfo

from ..cards_text import strain_key
from ..cards_text import strain_mark
from ..cards_text import value_words
from ..i18n import _
from . import theme
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer
from .widgets import quantize
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
    band: tuple[float, float] | None = None,
) -> ButtonRow:
    """One button per legal bid of ``view`` (their texts only describe the bids the engine
    lists), drawn in ``layer`` and laid out in a row around ``centre``; with the bids as
    the engine describes them (``described``) and more contract bids than a row holds
    (an auction by values), :func:`build_bid_grid` in ``room`` (its width) and ``band``
    (the heights between which it may grow)."""
    contracts = [(b, i) for b, i in described or () if i.kind == BID_CONTRACT]
    if described is not None and len(contracts) > GRID_AFTER:
        return build_bid_grid(layer, view, described, centre, on_bid, room, band)
    infos = dict(described or ())
    return _bid_row(
        layer, view.legal_bids, centre, on_bid, lambda bid: bid_text(bid, view, infos.get(bid))
    )


GRID_FONT = theme.MIN_FONT
"""The grid's labels: the smallest font (many buttons), never smaller."""
GRID_PAD = 10
"""What a grid's button adds to its label's width."""
CALL_PAD = 16
"""What a call's button (pass, contre, surcontre) adds to its label's width."""
GAP, ROW, BLOCK_GAP = 4, 28, 10
"""The grid's spaces between buttons, a row's height, the space between two blocks."""


@dataclass(frozen=True)
class GridShape:
    """How a grid of bids is laid out: each button's label says the value and the
    strain (``whole``) or the value only under a header of strains at the rows' left;
    the value columns in ``blocks`` stacked one above the other; the calls (pass,
    contre, surcontre) in a column at the right or (``calls_below``) in a row under."""

    whole: bool
    blocks: int
    calls_below: bool


SHAPES = (
    GridShape(True, 1, False),
    GridShape(True, 2, False),
    GridShape(False, 1, False),
    GridShape(False, 1, True),
    GridShape(False, 2, True),
)
"""The shapes a grid tries, the clearest first: the first whose size fits is laid out."""


def build_bid_grid(
    layer: Layer,
    view: View,
    described: list[tuple[str, BidInfo]],
    centre: tuple[float, float],
    on_bid: Callable[[str], None],
    room: float,
    band: tuple[float, float] | None = None,
) -> ButtonRow:
    """An auction by values: a grid of the legal contract bids, a column for each value
    (capot last) and a row for each strain (the suits, then the others), with the other
    bids (contre, surcontre, pass) in a column at its right; the whole centred on
    ``centre`` within ``room`` (its width).  Each column is as wide as its longest
    label in the grid's font (in the language: ``capot`` is a word).  A grid wider than
    ``room`` takes the next of :data:`SHAPES` that fits: blocks of values stacked in
    ``band`` (the bottom and top between which the table lets it grow, ``None``: one
    block's height only), the value alone on each button under a header of strains,
    the calls in a row under it.  Built from the engine's description of each bid alone
    (``described``), never from its text."""
    contracts = [(b, i) for b, i in described if i.kind == BID_CONTRACT]
    others = [b for b, i in described if i.kind != BID_CONTRACT]
    infos = dict(described)
    values = sorted({(i.capot, i.value or 0) for _, i in contracts})
    strains = list(dict.fromkeys(strain_key(i) for _, i in contracts))
    marks = {strain_key(i): strain_mark(i) for _, i in contracts}
    probe = Layer()

    def wide(words: str, pad: int) -> int:
        return quantize(probe.text(words, 0, 0, GRID_FONT, bold=True).content_width + pad, 2)

    calls = {b: bid_text(b, view, infos[b]) for b in others}
    call_w = max([92, *(wide(words, CALL_PAD) for words in calls.values())])
    header_w = max(wide(mark, 8) for mark in marks.values())
    block_h = len(strains) * (ROW + GAP) - GAP
    tall = band[1] - band[0] if band is not None else block_h + 2 * (ROW + GAP)

    def labels(shape: GridShape) -> dict[str, str]:
        if shape.whole:
            return {bid: bid_text(bid, view, info) for bid, info in contracts}
        return {bid: value_words(info) for bid, info in contracts}

    def widths(words: dict[str, str]) -> list[int]:
        out = [30] * len(values)
        for bid, info in contracts:
            column = values.index((info.capot, info.value or 0))
            out[column] = max(out[column], wide(words[bid], GRID_PAD))
        return out

    def chunks(blocks: int) -> list[list[int]]:
        size = -(-len(values) // blocks)
        return [list(range(i, min(i + size, len(values)))) for i in range(0, len(values), size)]

    def size(shape: GridShape) -> tuple[float, float]:
        w = widths(labels(shape))
        row = max(sum(w[c] + GAP for c in chunk) for chunk in chunks(shape.blocks))
        row += 0 if shape.whole else header_w + GAP
        height = shape.blocks * block_h + (shape.blocks - 1) * BLOCK_GAP
        if shape.calls_below:
            return max(row - GAP, sum(call_w + GAP for _ in others) - GAP), height + ROW + GAP
        return row + call_w, max(height, len(others) * (ROW + GAP) - GAP)

    shape = next((s for s in SHAPES if size(s)[0] <= room and size(s)[1] <= tall), SHAPES[-1])
    words = labels(shape)
    w = widths(words)
    grid_w, grid_h = size(shape)
    cx, cy = centre
    if band is not None and shape.blocks > 1:
        cy = (band[0] + band[1]) / 2
    left = cx - grid_w / 2
    top = cy + grid_h / 2 - ROW / 2
    columns_left = left + (0 if shape.whole else header_w + GAP)
    place: dict[int, tuple[float, float]] = {}  # a value column: its middle x, its top y
    for b, chunk in enumerate(chunks(shape.blocks)):
        x = columns_left
        y = top - b * (block_h + BLOCK_GAP)
        for c in chunk:
            place[c] = (x + w[c] / 2, y)
            x += w[c] + GAP
        if not shape.whole:  # the header of strains at the block's left
            for line, key in enumerate(strains):
                layer.text(
                    marks[key],
                    left + header_w / 2,
                    y - line * (ROW + GAP),
                    GRID_FONT,
                    theme.WHITE,
                    anchor_x="center",
                    anchor_y="center",
                    bold=True,
                )
    row = ButtonRow()
    for bid, info in contracts:
        column = values.index((info.capot, info.value or 0))
        line = strains.index(strain_key(info))
        x, y = place[column]
        row.add(
            Button(
                layer,
                words[bid],
                x,
                y - line * (ROW + GAP),
                w[column],
                ROW,
                partial(on_bid, bid),
                size=GRID_FONT,
                name=f"bid:{bid}",
            )
        )
    for i, bid in enumerate(others):
        if shape.calls_below:
            span = len(others) * (call_w + GAP) - GAP
            x, y = cx - span / 2 + call_w / 2 + i * (call_w + GAP), top - grid_h + ROW
        else:
            x, y = left + grid_w - call_w / 2, top - i * (ROW + GAP)
        plain = bid != "pass"
        row.add(
            Button(
                layer,
                calls[bid],
                x,
                y,
                call_w,
                ROW,
                partial(on_bid, bid),
                size=GRID_FONT,
                colour=theme.BUTTON if plain else (120, 60, 50, 255),
                hover_colour=theme.BUTTON_HOVER if plain else (160, 80, 64, 255),
                name=f"bid:{bid}",
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
