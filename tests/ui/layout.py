"""What a view draws, as boxes, and the rules a finished table keeps.

:func:`drawn` collects, from a live view just drawn, every visible text (its content's
box from its position, anchors and measured size), every button, every card and the
panels texts belong to, in the view's logical coordinates; :func:`problems` checks them:

* no two texts (or a text and another button) overlap;
* no text runs out of its panel (its button, bubble, the end-of-deal panel, the overlay,
  the felt or the side bar, the window);
* no table text lies under the end-of-deal panel (the seats' names and points stay seen);
* every text's font is at least 12 window pixels high;
* every card lies inside the window (and a table's cards on the felt);
* no card is in flight (a screen is looked at once its cards have landed);
* no name plate, bubble or message lies on a card (or a won-tricks pile), and the name
  plates and bubbles keep clear of the side bar;
* a panel's texts keep clear of its border;
* the hint's frame hides no corner (a card's index) of a card drawn under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

import arcade
from atout.ui.window.frame import MIN_TEXT_PX
from atout.ui.window.frame import Frame
from atout.ui.window.frame import text_px
from atout.ui.window.start_people import PeopleView
from atout.ui.window.start_view import StartView
from atout.ui.window.table import Table
from atout.ui.window.widgets import Button

Box = tuple[float, float, float, float]
"""left, right, bottom, top"""
SLACK = 1.0
"""Pixels of tolerance (rounding of the measured sizes)."""


def rect_box(rect: arcade.Rect) -> Box:
    return rect.left, rect.right, rect.bottom, rect.top


def text_box(text: arcade.Text) -> Box:
    """The box of a text's content (not of its wrapping width)."""
    width = text.content_width
    if text.anchor_x == "center":
        left = text.x - width / 2
    elif text.anchor_x == "right":
        left = text.x - width
    else:
        left = text.x
    return left, left + width, text.bottom, text.top


def overlap(a: Box, b: Box) -> bool:
    return min(a[1], b[1]) - max(a[0], b[0]) > SLACK and min(a[3], b[3]) - max(a[2], b[2]) > SLACK


def inside(a: Box, b: Box) -> bool:
    return (
        a[0] >= b[0] - SLACK
        and a[1] <= b[1] + SLACK
        and a[2] >= b[2] - SLACK
        and a[3] <= b[3] + SLACK
    )


@dataclass
class Item:
    """A text on the screen: its words, box, font and the panel it must stay in."""

    words: str
    box: Box
    size: float
    panel: Box
    panel_name: str
    layer: str = "table"
    """``table``, ``deal`` (the end-of-deal panel) or ``overlay``."""
    pad: float = 0.0
    """The room it keeps from its panel's edge (a panel's border)."""


@dataclass
class Drawn:
    frame: Frame
    texts: list[Item] = field(default_factory=list)
    buttons: list[tuple[str, Box, str]] = field(default_factory=list)
    cards: list[tuple[str, Box, Box]] = field(default_factory=list)
    """name, box, the area it must stay in"""
    plates: list[tuple[str, Box, Box]] = field(default_factory=list)
    """name, box, the area it must stay in (bubbles, messages)"""
    deal_panel: Box | None = None
    overlay: Box | None = None
    in_flight: list[str] = field(default_factory=list)
    """the cards still on their way (a move queued or under way)"""
    piles: list[tuple[str, Box]] = field(default_factory=list)
    """the won-tricks piles drawn on the felt"""
    hidden_corners: list[str] = field(default_factory=list)
    """cards whose index corner a frame (the hint's, the focus's) is drawn over"""


def visible_text(text: arcade.Text) -> bool:
    return bool(text.visible and text.text.strip())


def sprite_box(sprite: arcade.Sprite, w: float, h: float) -> Box:
    """The box of a card of ``w`` x ``h`` (unscaled image pixels) drawn by ``sprite``,
    rotated by its angle."""
    import math

    sx, sy = sprite.scale
    cw, ch = w * sx, h * sy
    a = math.radians(sprite.angle)
    bw = abs(cw * math.cos(a)) + abs(ch * math.sin(a))
    bh = abs(cw * math.sin(a)) + abs(ch * math.cos(a))
    x, y = sprite.center_x, sprite.center_y
    return x - bw / 2, x + bw / 2, y - bh / 2, y + bh / 2


def drawn(view: arcade.View, frame: Frame) -> Drawn:
    """Every text, button and card ``view`` draws now."""
    from atout.ui.window import theme

    out = Drawn(frame)
    window_box: Box = (0.0, frame.width, 0.0, frame.height)
    labels: dict[int, tuple[str, Box]] = {}

    def add_buttons(buttons: list[Button], layer: str) -> None:
        for b in buttons:
            if b.visible:
                box = rect_box(b.rect)
                out.buttons.append((b.name, box, layer))
                labels[id(b.label)] = (f"button {b.name}", box)

    def add_texts(
        texts: list[arcade.Text], panel: Box, name: str, layer: str, pad: float = 0.0
    ) -> None:
        for t in texts:
            if not visible_text(t):
                continue
            own = labels.get(id(t))
            p_name, p_box = own if own is not None else (name, panel)
            keep = pad if own is None else 0.0
            out.texts.append(Item(t.text, text_box(t), t.font_size, p_box, p_name, layer, keep))

    if isinstance(view, Table):
        felt: Box = (0.0, frame.table_right, 0.0, frame.height)
        side: Box = (frame.table_right, frame.width, 0.0, frame.height)
        # the side bar's wooden edge and a margin: a plate on the felt stays clear of it
        clear: Box = (0.0, frame.table_right - BAR_EDGE, 0.0, frame.height)
        add_buttons(view.buttons.buttons, "table")
        view_bids = view.input.bid_buttons.buttons if not view.busy() else []
        add_buttons(view_bids, "table")
        panel = view.status_panel
        for seat, plate in panel.bubble_plates.items():
            if plate.visible:
                box = (
                    plate.center_x - plate.width / 2,
                    plate.center_x + plate.width / 2,
                    plate.center_y - plate.height / 2,
                    plate.center_y + plate.height / 2,
                )
                labels[id(panel.bubble_labels[seat])] = (f"bubble of seat {seat}", box)
                out.plates.append((f"the bubble of seat {seat}", box, clear))
        for seat, plate in panel.seat_plates.items():
            if plate.visible:
                out.plates.append((f"the name plate of seat {seat}", plate_box(plate), clear))
        for stack in getattr(view, "won_stacks", {}).values():
            shown = [s for s in stack if s.visible]
            if shown:
                boxes = [sprite_box(s, theme.CARD_W, theme.CARD_H) for s in shown]
                left = min(b[0] for b in boxes)
                right = max(b[1] for b in boxes)
                out.piles.append(
                    (
                        "a won-tricks pile",
                        (left, right, min(b[2] for b in boxes), max(b[3] for b in boxes)),
                    )
                )
        toast = view.toast.plate
        if toast.visible:
            box = (
                toast.center_x - toast.width / 2,
                toast.center_x + toast.width / 2,
                toast.center_y - toast.height / 2,
                toast.center_y + toast.height / 2,
            )
            labels[id(view.toast.label)] = ("message", box)
            out.plates.append(("the message", box, felt))
        review = view.review
        review_box = rect_box(arcade.LRBT(*review.panel_box())) if review is not None else None
        for t in view.hud.texts:
            if not visible_text(t):
                continue
            box = text_box(t)
            if review_box is not None and inside(box, grown(review_box, SLACK)):
                continue  # under the Review screen's panel
            area, name = (
                (felt, "felt") if box[0] < frame.table_right - SLACK else (side, "side bar")
            )
            own = labels.get(id(t))
            p_name, p_box = own if own is not None else (name, area)
            out.texts.append(Item(t.text, box, t.font_size, p_box, p_name))
        if not view.busy():
            add_texts(view.input.bids.texts, felt, "felt", "table")
        if review is not None and review_box is not None:
            add_texts(review.layer.texts, review_box, "review panel", "table")
        elif view.unseen.open:
            add_texts(view.unseen.texts, side, "side bar", "table")
        else:
            add_texts(view.sheet.layer.texts, side, "side bar", "table")
        board = view.board
        for sprite in board.sprites:
            if sprite.visible:
                box = sprite_box(sprite, theme.CARD_W, theme.CARD_H)
                out.cards.append((f"card {sprite.card}", box, felt))
                if sprite.motions:
                    out.in_flight.append(f"card {sprite.card}")
        for ring, (hinted, _) in zip(board.rings, board.ring_cards(), strict=False):
            if not ring.visible:
                continue
            # the frame reaches RING_REACH image pixels beyond its card's edge
            rbox = grown(sprite_box(ring, theme.CARD_W, theme.CARD_H), RING_REACH * ring.scale_x)
            for sprite in board.under_ring(hinted):
                if sprite.visible and sprite.card != hinted and overlap(rbox, corner(sprite)):
                    out.hidden_corners.append(f"card {sprite.card}")
        lobby = getattr(view, "lobby", None)  # a network table waiting for its players
        if lobby is not None and view.stage == "waiting":
            out.deal_panel = rect_box(lobby.rect)
            add_texts(lobby.texts, out.deal_panel, "waiting panel", "deal")
        if view.stage in ("deal_over", "match_over") and review is None:
            deal = view.deal_panel
            out.deal_panel = rect_box(deal.rect)
            add_buttons(deal.buttons.buttons, "deal")
            add_texts(deal.layer.texts, out.deal_panel, "end-of-deal panel", "deal", PANEL_PAD)
        if view.overlay.is_open:
            overlay = view.overlay
            out.overlay = rect_box(overlay.rect)
            add_buttons(overlay.buttons.buttons, "overlay")
            add_texts(
                overlay.layer.texts, out.overlay, f"{overlay.name} panel", "overlay", PANEL_PAD
            )
            for card, rect in overlay.cards:
                out.cards.append((f"last-trick card {card}", rect_box(rect), out.overlay))
    elif isinstance(view, StartView | PeopleView):
        add_buttons(view.buttons.buttons, "table")
        add_texts(view.layer.texts, window_box, "window", "table")
        if isinstance(view, StartView):
            add_buttons(view.pack_buttons.buttons, "table")
            add_texts(view.pack_layer.texts, window_box, "window", "table")
            boxes = [rect_box(b) for b in view.boxes]
        else:
            boxes = [rect_box(b) for b in view.panels]
        # a text or button is in one of the two panels or outside both, never across
        for item in out.texts:
            within = [b for b in boxes if overlap(item.box, b)]
            if within and item.panel_name == "window":
                item.panel, item.panel_name = within[0], "panel"
        for name, box, _ in out.buttons:
            within = [b for b in boxes if overlap(box, b)]
            if within:
                out.plates.append((f"the button {name}", box, within[0]))
    return out


def problems(d: Drawn) -> list[str]:
    """Every broken rule, in words."""
    frame = d.frame
    window_box: Box = (0.0, frame.width, 0.0, frame.height)
    found: list[str] = []
    # what is hidden under a modal overlay is not seen: only the overlay counts there
    texts = [
        t
        for t in d.texts
        if d.overlay is None or t.layer == "overlay" or not overlap(t.box, d.overlay)
    ]
    buttons = [
        b
        for b in d.buttons
        if d.overlay is None or b[2] == "overlay" or not overlap(b[1], d.overlay)
    ]
    for t in texts:
        px = text_px(t.size, frame.scale)
        if px < MIN_TEXT_PX - 0.01:
            found.append(f"{t.words!r} is {px:.1f} px high")
        if not inside(t.box, t.panel):
            found.append(
                f"{t.words!r} runs out of its {t.panel_name}: {fmt(t.box)} in {fmt(t.panel)}"
            )
        elif not inside(t.box, grown(t.panel, -t.pad)):
            found.append(f"{t.words!r} runs into its {t.panel_name}'s border: {fmt(t.box)}")
        if not inside(t.box, window_box):
            found.append(f"{t.words!r} runs out of the window: {fmt(t.box)}")
        if d.deal_panel is not None and t.layer == "table" and overlap(t.box, d.deal_panel):
            found.append(f"{t.words!r} is under the end-of-deal panel")
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if overlap(a.box, b.box):
                found.append(f"{a.words!r} overlaps {b.words!r}: {fmt(a.box)} / {fmt(b.box)}")
    for t in texts:
        for name, box, _ in buttons:
            if t.panel_name != f"button {name}" and overlap(t.box, box):
                found.append(f"{t.words!r} overlaps the button {name}")
    for i, (name, box, _) in enumerate(buttons):
        for other, obox, _ in buttons[i + 1 :]:
            if overlap(box, obox):
                found.append(f"the buttons {name} and {other} overlap")
        if not inside(box, window_box):
            found.append(f"the button {name} runs out of the window: {fmt(box)}")
    for name, box, area in d.plates:
        if not inside(box, area):
            found.append(f"{name} runs out of its area: {fmt(box)} in {fmt(area)}")
        if name == "the message":
            for card, cbox, _ in d.cards:
                if overlap(grown(box, HALO), cbox):
                    found.append(f"the message covers {card} (or its halo)")
        elif d.overlay is None or not overlap(box, d.overlay):
            for card, cbox, _ in [*d.cards, *[(p, b, b) for p, b in d.piles]]:
                if overlap(box, cbox):
                    found.append(f"{name} lies on {card}: {fmt(box)} / {fmt(cbox)}")
        if not name.startswith("the bubble") or (d.overlay and overlap(box, d.overlay)):
            continue  # (a bubble under a panel over the table is not seen)
        # a bubble stands clear of the buttons and of the other words
        room = grown(box, CLEARANCE)
        for other, obox, _ in buttons:
            if overlap(room, obox):
                found.append(f"{name} stands against the button {other}")
        for t in texts:
            if t.panel != box and overlap(room, t.box):
                found.append(f"{name} stands against {t.words!r}")
    for card in d.in_flight:
        found.append(f"{card} is in flight (its move has not ended)")
    for card in d.hidden_corners:
        found.append(f"a card's frame hides the corner of {card}")
    for name, box, area in d.cards:
        if not inside(box, window_box):
            found.append(f"{name} is not fully inside the window: {fmt(box)}")
        elif not inside(box, area):
            found.append(f"{name} runs out of its area: {fmt(box)} in {fmt(area)}")
    return found


CLEARANCE = 10.0
"""The room a bubble keeps round it."""
BAR_EDGE = 8.0
"""The room a plate on the felt keeps from the side bar (its wooden edge and a margin)."""
PANEL_PAD = 10.0
"""The room a panel's text keeps from the panel's edge (its border and a margin)."""
RING_REACH = 16.0
"""How far the hint's frame reaches beyond its card, in image pixels."""
CORNER = (0.24, 0.3)
"""The part of a card (of its width, of its height) where its index is printed."""


def plate_box(plate: arcade.Sprite) -> Box:
    w, h = plate.width, plate.height
    return (
        plate.center_x - w / 2,
        plate.center_x + w / 2,
        plate.center_y - h / 2,
        plate.center_y + h / 2,
    )


def corner(sprite: arcade.Sprite) -> Box:
    """The top-left corner of a card, where its index is printed (its box as drawn)."""
    from atout.ui.window import theme

    left, _, _, top = sprite_box(sprite, theme.CARD_W, theme.CARD_H)
    w = theme.CARD_W * sprite.scale_x
    h = theme.CARD_H * sprite.scale_y
    return left, left + CORNER[0] * w, top - CORNER[1] * h, top


HALO = 8.0
"""The room a lit card's halo takes round it."""


def grown(box: Box, by: float) -> Box:
    return box[0] - by, box[1] + by, box[2] - by, box[3] + by


def fmt(box: Box) -> str:
    return "(" + ", ".join(f"{v:.0f}" for v in box) + ")"
