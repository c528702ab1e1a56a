"""The Découverte table: two players, eight piles each, as the deal lays them.

The opponent (North) sits across the table.  The layout places *spots* (0 at the bottom,
1 across): a network table joined at seat 1 is drawn from that seat's side.  Each player's piles are two rows of four:
positions 0-3 the near row (by the line across the middle of the table), 4-7 the far
row, as :class:`~atout.core.views.PileView` gives them.  The opponent's rows are seen
from across the table, so his positions run from our right to our left.  A face-up card
lies on its face-down card with the face-down card's edge showing; when the rules turn
a face-down card, it flips where it lies.
"""

from __future__ import annotations

from dataclasses import dataclass

import arcade
from atout.core import View

from ..cards_text import suit_label
from ..i18n import N_
from ..i18n import _
from ..i18n import ngettext
from . import sprites
from . import theme
from .board import Place
from .frame import Frame
from .sprites import back_texture
from .sprites import face_texture
from .sprites import legend_texture
from .sprites import rounded_texture
from .table import Table
from .table_layout import Layout
from .table_stage import Stage

LABEL_COLUMN = 192.0
"""The felt's left column: the seats' names, points and bubbles, the proposed trump."""
WON_STACK = 5
"""Face-down cards drawn on a won-tricks pile at most."""
LEGEND_CARD_W = 24.0
"""The width of the legend's card (logical pixels)."""
LEGEND = (N_("Red edge: a card"), N_("face down under it"))
"""The legend of a covered pile, in two lines beside its picture (translated there)."""


@dataclass(frozen=True)
class Geometry:
    """Where everything of the Découverte table lies for one :class:`Frame`.

    The card size is the largest that fits both ways: four rows of cards, the middle band
    (the trick, the status line, the bidding), the column of names at the left and the
    won tricks at the right.  A taller or wider window than needed centres the table.
    """

    scale: float
    pile_x: tuple[float, float, float, float]
    """South's positions 0-3 (and 4-7) from left to right; North's run the other way."""
    rows: dict[tuple[int, str], float]
    """The rows' heights by spot (0 at the bottom, 1 across) and row (near, far)."""
    piles_mid: float
    band: tuple[float, float]
    """The middle band between the two near rows: its bottom and top."""
    won_x: float
    left: float
    """Where the column of names begins."""

    @property
    def names_x(self) -> float:
        """The middle of the column of names."""
        return self.left + LABEL_COLUMN / 2 + 6

    @property
    def card_w(self) -> float:
        return theme.CARD_W * self.scale

    @property
    def card_h(self) -> float:
        return theme.CARD_H * self.scale

    @property
    def mid(self) -> float:
        return (self.band[0] + self.band[1]) / 2

    @property
    def under(self) -> tuple[float, float]:
        """Where a face-down card lies under its face-up card (its edge shows below
        right): a lone face-down card stays there when the card above it is played."""
        return sprites.UNDER[0] * self.scale, -sprites.UNDER[1] * self.scale


def geometry(frame: Frame) -> Geometry:
    """The Découverte table laid out for ``frame`` (see :class:`Geometry`)."""
    felt, height = frame.table_right, frame.height
    by_height = (height - 144) / 5.61 / theme.CARD_H
    by_width = (felt - LABEL_COLUMN - 58) / 5.8 / theme.CARD_W
    scale = round(min(by_height, by_width, 1.0), 3)
    w, h = theme.CARD_W * scale, theme.CARD_H * scale
    total = 5.61 * h + 144
    margin = 0.08 * h + 12 + (height - total) / 2
    far_s = margin + h / 2
    near_s = far_s + 1.1 * h
    band = (near_s + h / 2, near_s + h / 2 + 1.25 * h + 120)
    near_n = band[1] + h / 2
    far_n = near_n + 1.1 * h
    pitch = 1.25 * w
    # the names, the piles and the won tricks, centred across the felt
    needed = LABEL_COLUMN + 14 + 3 * pitch + w + 28 + 1.05 * w + 16
    left = max(0.0, (felt - needed) / 2)
    piles_mid = left + LABEL_COLUMN + 14 + 1.5 * pitch + w / 2
    won_x = min(felt - 0.7 * w - 16, piles_mid + 1.5 * pitch + w / 2 + 28 + 0.35 * w)
    xs = tuple(piles_mid + (i - 1.5) * pitch for i in range(4))
    rows = {(0, "near"): near_s, (0, "far"): far_s, (1, "near"): near_n, (1, "far"): far_n}
    return Geometry(scale, (xs[0], xs[1], xs[2], xs[3]), rows, piles_mid, band, won_x, left)


def pile_xy(geo: Geometry, spot: int, position: int) -> tuple[float, float]:
    """The middle of the pile at ``position`` (0-3 near row, 4-7 far row) of the player
    at ``spot`` (0 at the bottom, 1 across)."""
    row = "near" if position < 4 else "far"
    i = position % 4
    x = geo.pile_x[i] if spot == 0 else 2 * geo.piles_mid - geo.pile_x[i]
    return x, geo.rows[(spot, row)]


def back_key(seat: int, position: int) -> str:
    return f"p{seat}{position}"


class DecouverteLayout(Layout):
    """Belote Découverte's layout: the bottom player (South) and the one across (North)."""

    def __init__(self, table: Table) -> None:
        super().__init__(table.seats, table.bottom)
        self.table = table
        """The table the layout draws its marks on (and reads the view of)."""

    def lay_out(self, frame: Frame) -> None:
        super().lay_out(frame)
        self.geo = geometry(frame)
        self.card_scale = self.geo.scale

    def pile_xy(self, seat: int, position: int) -> tuple[float, float]:
        """The middle of ``seat``'s pile at ``position`` on this table."""
        return pile_xy(self.geo, self.spot(seat), position)

    def build_marks(self) -> None:
        geo = self.geo
        scale = geo.scale
        slot = rounded_texture(
            int(geo.card_w) + 8, int(geo.card_h) + 8, 8, (0, 0, 0, 38), (255, 255, 255, 46), 2
        )
        self.slots: dict[tuple[int, int], arcade.Sprite] = {}
        for seat in range(2):
            for pos in range(8):
                sprite = arcade.Sprite(slot)
                sprite.position = self.pile_xy(seat, pos)
                sprite.visible = False
                self.table.marks.append(sprite)
                self.slots[seat, pos] = sprite
        line = rounded_texture(int(4.6 * geo.card_w), 2, 0, (255, 255, 255, 30))
        divider = arcade.Sprite(line)
        divider.position = (geo.piles_mid, geo.band[0] + 6)
        self.table.marks.append(divider)
        self.won_stacks: dict[int, list[arcade.Sprite]] = {}
        self.won_texts: dict[int, arcade.Text] = {}
        for seat in range(2):
            x, y = self.won_pile(seat)
            stack = []
            for i in range(WON_STACK):
                sprite = arcade.Sprite(back_texture(), scale=scale * 0.7)
                sprite.position = (x + i * 2.5, y + i * 2.5)
                sprite.visible = False
                self.table.marks.append(sprite)
                stack.append(sprite)
            self.won_stacks[seat] = stack
            self.won_texts[seat] = self.table.hud.text(
                "", x + 5, y - 0.35 * geo.card_h - 22, 12, theme.CREAM, anchor_x="center"
            )
        self.build_legend()
        px, py = self.proposal_xy()
        self.proposal = arcade.Sprite(back_texture(), scale=scale * 1.05)
        self.proposal.position = (px, py)
        self.proposal.visible = False
        self.table.marks.append(self.proposal)
        half = 0.525 * geo.card_h
        self.proposal_caption = self.table.hud.text(
            "", px, py + half + 12, 13, theme.CREAM, anchor_x="center", bold=True
        )
        self.proposal_note = self.table.hud.text(
            "", px, py - half - 24, 12, theme.CREAM, anchor_x="center"
        )

    def build_legend(self) -> None:
        """The legend of a covered pile, in the names' column between the bottom
        player's bubble and the proposed trump's note: a blank card on a face-down card,
        and what its red edge means."""
        geo = self.geo
        bubble_top = geo.rows[0, "near"] + 15
        note_bottom = geo.mid - 0.525 * geo.card_h - 28
        y = (bubble_top + note_bottom) / 2
        x = geo.left + 22
        self.legend_icon = arcade.Sprite(legend_texture(), scale=LEGEND_CARD_W / theme.CARD_W)
        self.legend_icon.position = (x, y)
        self.legend_icon.visible = False
        self.table.marks.append(self.legend_icon)
        self.legend_texts = [
            self.table.hud.text(_(words), x + 22, y + 2 - 18 * i, 12, theme.CREAM)
            for i, words in enumerate(LEGEND)
        ]
        for text in self.legend_texts:
            text.visible = False

    def proposal_xy(self) -> tuple[float, float]:
        """Where the proposed trump lies during the bidding (the names' column)."""
        return self.geo.names_x, self.geo.mid

    # --- the layout -------------------------------------------------------------------------

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        faces: dict[int, Place] = {}
        backs: dict[str, Place] = {}
        scale = self.geo.scale
        ux, uy = self.geo.under
        for seat, row in enumerate(view.piles):
            for pos, pile in enumerate(row):
                x, y = self.pile_xy(seat, pos)
                key = back_key(seat, pos)
                if pile.top is not None:
                    faces[pile.top] = Place(
                        x, y, scale=scale, z=10 + pos, from_back=key, covered=pile.covered
                    )
                if pile.covered:
                    backs[key] = Place(
                        x + ux,
                        y + uy,
                        scale=scale,
                        z=pos,
                        fly=False,
                        drawn=pile.top is None,
                    )
        return faces, backs

    def trick_place(self, seat: int, index: int) -> Place:
        geo = self.geo
        x, y = geo.piles_mid, geo.mid + 18
        dx, dy = 0.23 * geo.card_w, 0.19 * geo.card_h
        if self.spot(seat) == 0:
            return Place(x - dx, y - dy, -5.0, geo.scale, 100 + index)
        return Place(x + dx, y + dy, 6.0, geo.scale, 100 + index)

    def won_pile(self, seat: int) -> tuple[float, float]:
        geo = self.geo
        rows = geo.rows
        spot = self.spot(seat)
        return geo.won_x, (rows[spot, "far"] + rows[spot, "near"]) / 2 + 14

    def hand_origin(self, seat: int) -> tuple[float, float]:
        return self.geo.piles_mid, self.geo.rows[self.spot(seat), "far"]

    def deck_origin(self) -> tuple[float, float]:
        return self.geo.piles_mid, self.geo.mid

    def seat_anchor(self, seat: int) -> tuple[float, float]:
        return self.geo.names_x, self.geo.rows[self.spot(seat), "far"] - 4

    def bubble_anchor(self, seat: int) -> tuple[float, float]:
        return self.geo.names_x, self.geo.rows[self.spot(seat), "near"]

    def name_room(self, seat: int) -> float | None:
        """The column of the names, left of the piles."""
        return LABEL_COLUMN

    def badge_anchor(self, seat: int) -> tuple[float, float]:
        return self.geo.names_x, self.geo.rows[self.spot(seat), "far"] + 40

    def trump_position(self) -> tuple[float, float]:
        return self.geo.names_x, self.geo.mid

    def bid_area(self) -> tuple[float, float]:
        geo = self.geo
        return (geo.left + LABEL_COLUMN + geo.won_x + 0.35 * geo.card_w) / 2, geo.mid - 18

    def bid_prompt_position(self) -> tuple[float, float]:
        x, y = self.bid_area()
        return x, y + 40

    def bid_grid_centre(self) -> tuple[float, float]:
        """The middle band's middle, so that the grid leaves both fields in sight."""
        return self.frame.felt_mid, (self.geo.band[0] + self.geo.band[1]) / 2 + 12

    def toast_position(self) -> tuple[float, float]:
        return self.status_position()

    def status_position(self) -> tuple[float, float]:
        # clear of the near row's halos below and of the trick above
        return self.geo.piles_mid, self.geo.band[0] + 34

    def toast_width(self) -> float:
        # the message is centred on the piles, not on the felt: it stays on the felt
        x = self.status_position()[0]
        return 2 * min(x, self.frame.table_right - x) - 24

    def turn_position(self, seat: int) -> tuple[float, float]:
        # across: as far from the middle as the status line, by the far side's near row
        # (that seat's card of the trick is not there yet: it is to play it)
        x, y = self.status_position()
        return (x, y) if self.spot(seat) == 0 else (x, 2 * self.geo.mid - y)

    def panel_box(self) -> tuple[float, float, float]:
        geo = self.geo
        left = geo.left + LABEL_COLUMN + 12
        right = geo.won_x - 0.35 * geo.card_w - 16
        return (left + right) / 2, geo.mid, min(560.0, right - left)

    def is_own_back(self, key: str) -> bool:
        return key.startswith(f"p{self.table.me}")

    # --- marks ----------------------------------------------------------------------------

    def update_marks(self) -> None:
        view = self.table.view
        dealt = view is not None and self.table.stage != Stage.WAITING  # (a hosted table's lobby)
        self.legend_icon.visible = dealt
        for text in self.legend_texts:
            text.visible = dealt
        if view is None:
            return
        for (seat, pos), slot in self.slots.items():
            pile = view.piles[seat][pos]
            # an empty place shows its outline; under a card it would only cost drawing
            slot.visible = pile.top is None and not pile.covered
        won = [0, 0]
        for t in view.tricks:
            won[t.winner] += 1
        for seat in range(2):
            n = won[seat]
            for i, sprite in enumerate(self.won_stacks[seat]):
                sprite.visible = i < n
            self.won_texts[seat].text = (
                ngettext("{count} trick won", "{count} tricks won", n).format(count=n) if n else ""
            )
        bidding = (
            view.phase == "bidding" and view.turnup is not None and self.table.stage == Stage.PLAY
        )
        self.proposal.visible = bidding
        if not bidding or view.turnup is None:
            for label in (self.proposal_caption, self.proposal_note, self.table.bid_prompt):
                label.text = ""
            return
        card = view.turnup
        self.proposal.texture = face_texture(card)
        self.proposal.scale = self.geo.scale * 1.05
        self.proposal_caption.text = _("Proposed trump")
        if view.dealer == self.table.you:
            self.proposal_note.text = _("stays with you")
        else:
            self.proposal_note.text = _("stays with {name}").format(
                name=self.table.seat_name(view.dealer)
            )
        if view.turn == self.table.me:
            self.table.ask_bid(
                view, _("Take {suit} as trump, or pass?").format(suit=suit_label(card >> 3))
            )
        else:
            self.table.bid_prompt.text = ""
