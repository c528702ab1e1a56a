"""The Découverte table: two players, eight piles each, as the deal lays them.

The opponent (North) sits across the table.  Each player's piles are two rows of four:
positions 0-3 the near row (by the line across the middle of the table), 4-7 the far
row, as :class:`~atout.core.views.PileView` gives them.  The opponent's rows are seen
from across the table, so his positions run from our right to our left.  A face-up card
lies on its face-down card with the face-down card's edge showing; when the rules turn
a face-down card, it flips where it lies.
"""

from __future__ import annotations

import arcade
from atout.core import View

from ..cards_text import HUMAN, suit_label
from . import sprites, theme
from .board import Place
from .driver import MatchTable
from .sprites import back_texture, face_texture, rounded_texture

PILE_X = (315.0, 425.0, 535.0, 645.0)
"""South's positions 0-3 (and 4-7) from left to right; North's run the other way."""
ROW_Y = {(HUMAN, "near"): 189.0, (HUMAN, "far"): 67.0, (1, "near"): 531.0, (1, "far"): 653.0}
SCALE = 0.6
UNDER = (sprites.UNDER[0] * SCALE, -sprites.UNDER[1] * SCALE)
"""Where a face-down card lies under its face-up card (its edge shows below right): a
lone face-down card stays there when the card above it is played."""
CARD_W = theme.CARD_W * SCALE
CARD_H = theme.CARD_H * SCALE
WON_STACK = 5
"""Face-down cards drawn on a won-tricks pile at most."""
PROPOSAL = (170.0, 360.0)


def pile_xy(seat: int, position: int) -> tuple[float, float]:
    """The middle of ``seat``'s pile at ``position`` (0-3 near row, 4-7 far row)."""
    row = "near" if position < 4 else "far"
    i = position % 4
    x = PILE_X[i] if seat == HUMAN else theme.TABLE_RIGHT - PILE_X[i]
    return x, ROW_Y[(seat, row)]


def back_key(seat: int, position: int) -> str:
    return f"p{seat}{position}"


class DecouverteTable(MatchTable):
    """Belote Découverte: you (South) against one bot (North)."""

    card_scale = SCALE

    def build_marks(self) -> None:
        slot = rounded_texture(
            int(CARD_W) + 8, int(CARD_H) + 8, 8, (0, 0, 0, 38), (255, 255, 255, 46), 2
        )
        self.slots: dict[tuple[int, int], arcade.Sprite] = {}
        for seat in (HUMAN, 1):
            for pos in range(8):
                sprite = arcade.Sprite(slot)
                sprite.position = pile_xy(seat, pos)
                sprite.visible = False
                self.marks.append(sprite)
                self.slots[seat, pos] = sprite
        line = rounded_texture(460, 2, 0, (255, 255, 255, 30))
        divider = arcade.Sprite(line)
        divider.position = (480, 360)
        self.marks.append(divider)
        self.won_stacks: dict[int, list[arcade.Sprite]] = {}
        self.won_texts: dict[int, arcade.Text] = {}
        for seat in (HUMAN, 1):
            x, y = self.won_pile(seat)
            stack = []
            for i in range(WON_STACK):
                sprite = arcade.Sprite(back_texture(), scale=SCALE * 0.7)
                sprite.position = (x + i * 2.5, y + i * 2.5)
                sprite.visible = False
                self.marks.append(sprite)
                stack.append(sprite)
            self.won_stacks[seat] = stack
            self.won_texts[seat] = self.hud.text("", x, y - 78, 11, theme.CREAM, anchor_x="center")
        self.proposal = arcade.Sprite(back_texture(), scale=SCALE * 1.1)
        self.proposal.position = PROPOSAL
        self.proposal.visible = False
        self.marks.append(self.proposal)
        px, py = PROPOSAL
        self.proposal_caption = self.hud.text(
            "", px, py + 80, 13, theme.CREAM, anchor_x="center", bold=True
        )
        self.proposal_note = self.hud.text("", px, py - 80, 11, theme.CREAM, anchor_x="center")

    # --- the layout -------------------------------------------------------------------------

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        faces: dict[int, Place] = {}
        backs: dict[str, Place] = {}
        for seat, row in enumerate(view.piles):
            for pos, pile in enumerate(row):
                x, y = pile_xy(seat, pos)
                key = back_key(seat, pos)
                if pile.top is not None:
                    faces[pile.top] = Place(
                        x, y, scale=SCALE, z=10 + pos, from_back=key, covered=pile.covered
                    )
                if pile.covered:
                    backs[key] = Place(
                        x + UNDER[0],
                        y + UNDER[1],
                        scale=SCALE,
                        z=pos,
                        fly=False,
                        drawn=pile.top is None,
                    )
        return faces, backs

    def trick_place(self, seat: int, index: int) -> Place:
        if seat == HUMAN:
            return Place(462.0, 338.0, -5.0, SCALE, 100 + index)
        return Place(500.0, 382.0, 6.0, SCALE, 100 + index)

    def won_pile(self, seat: int) -> tuple[float, float]:
        return (842.0, 140.0) if seat == HUMAN else (842.0, 600.0)

    def hand_origin(self, seat: int) -> tuple[float, float]:
        return (480.0, 60.0) if seat == HUMAN else (480.0, 660.0)

    def seat_anchor(self, seat: int) -> tuple[float, float]:
        return (130.0, 150.0) if seat == HUMAN else (130.0, 600.0)

    def bubble_anchor(self, seat: int) -> tuple[float, float]:
        return (130.0, 214.0) if seat == HUMAN else (130.0, 536.0)

    def bid_area(self) -> tuple[float, float]:
        return 640.0, 352.0

    def bid_prompt_position(self) -> tuple[float, float]:
        return 640.0, 400.0

    def toast_position(self) -> tuple[float, float]:
        return 480.0, 266.0

    def status_position(self) -> tuple[float, float]:
        return 480.0, 266.0

    def is_own_back(self, key: str) -> bool:
        return key.startswith(f"p{HUMAN}")

    # --- marks ----------------------------------------------------------------------------

    def update_marks(self) -> None:
        view = self.view
        if view is None:
            return
        for (seat, pos), slot in self.slots.items():
            pile = view.piles[seat][pos]
            # an empty place shows its outline; under a card it would only cost drawing
            slot.visible = pile.top is None and not pile.covered
        won = [0, 0]
        for t in view.tricks:
            won[t.winner] += 1
        for seat in (HUMAN, 1):
            n = won[seat]
            for i, sprite in enumerate(self.won_stacks[seat]):
                sprite.visible = i < n
            self.won_texts[seat].text = f"{n} trick{'s' if n != 1 else ''} won" if n else ""
        bidding = view.phase == "bidding" and view.turnup is not None and self.stage == "play"
        self.proposal.visible = bidding
        if not bidding or view.turnup is None:
            for label in (self.proposal_caption, self.proposal_note, self.bid_prompt):
                label.text = ""
            return
        card = view.turnup
        self.proposal.texture = face_texture(card)
        self.proposal.scale = SCALE * 1.1
        self.proposal_caption.text = f"Proposed trump: {suit_label(card >> 3)}"
        owner = "your" if view.dealer == HUMAN else f"{self.seat_name(view.dealer)}'s"
        self.proposal_note.text = f"(the card stays in {owner} pile)"
        if view.turn == HUMAN:
            self.bid_prompt.text = (
                f"Take {suit_label(card >> 3)} as trump, or pass?"
                if "take" in view.legal_bids
                else "Round 2: name another suit as trump, or pass"
            )
        else:
            self.bid_prompt.text = ""
