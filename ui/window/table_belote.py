"""The four-player Belote table: your hand at the bottom, three bots around.

Seats as the game numbers them: 0 South (you), 1 East, 2 North (your partner), 3 West.
The other hands are face down, except the cards the view says are known (the turn-up
the taker received, declared cards).  The turn-up lies in the middle during the bidding.  The layout places *spots* (0 at the
bottom, 1 East, 2 North, 3 West): a network table joined at another seat is drawn from
that seat's side, its hand at the bottom.
"""

from __future__ import annotations

import arcade
from atout.core import View
from atout.core import cards_of
from atout.core.cards import sort_for_display

from ..cards_text import HUMAN
from ..cards_text import suit_label
from ..cards_text import suit_order
from ..i18n import _
from ..i18n import ngettext
from . import theme
from .board import Place
from .frame import Frame
from .sprites import back_texture
from .table import Table
from .table_layout import Layout
from .table_stage import Stage

HAND_SCALE = 0.72
TRICK_SCALE = 0.6
BOT_SCALE = 0.45
"""The card sizes on a 960x720 felt; the table scales them (and every distance) with the
felt (see :meth:`BeloteLayout.lay_out`)."""
EAST, NORTH, WEST = 1, 2, 3
NAME_ROOM = 200.0
"""The width a name plate at the top may take: North's fan moves right on a narrow felt
so that North's plate, left of it, stays clear of the trump at the top left."""
PILE_WORDS = 88.0
"""Half the width of the words under a won-tricks pile, and a margin: the hand keeps
clear of them."""
WON_STACK = 5


class BeloteLayout(Layout):
    """Four-player Belote's layout: the bottom player and the one across against the
    two at the sides."""

    def __init__(self, table: Table) -> None:
        super().__init__(table.seats, table.bottom)
        self.table = table
        """The table the layout draws its marks on (and reads the view of)."""

    def lay_out(self, frame: Frame) -> None:
        """The table's unit ``k``: 1 on a 960x720 felt, more on a larger one, less on a
        narrower one (the fans of East and West and the names beside them need their
        room); every place below is measured from the felt's edges or middle in it."""
        super().lay_out(frame)
        self.felt = frame.table_right
        self.top = frame.height
        self.k = k = max(0.7, min(frame.height / 720, self.felt / 920, 1.8))
        self.card_scale = TRICK_SCALE * k
        self.cx = self.felt / 2
        self.my = frame.height / 2 - 6 * k
        # North's plate lies left of North's fan, clear of the trump's plate (top left)
        trump_right = self.trump_position()[0] + 48 + 8
        reach = trump_right + NAME_ROOM + 12 + self.north_half()
        self.north_x = max(self.cx, reach)

    def north_half(self) -> float:
        """Half the width of North's fan of eight cards."""
        return (3.5 * 26 + 0.5 * theme.CARD_W * BOT_SCALE) * self.k

    def north_bottom(self) -> float:
        """The bottom of North's fan."""
        return self.top - (68 + 0.5 * theme.CARD_H * BOT_SCALE) * self.k

    def mx(self, x: float) -> float:
        """A distance across from the felt's middle (960x720 units) on this table."""
        return self.cx + (x - 480) * self.k

    def build_marks(self) -> None:
        k = self.k
        deck = self.deck_origin()
        self.deck: list[arcade.Sprite] = []
        for i in range(3):
            sprite = arcade.Sprite(back_texture(), scale=TRICK_SCALE * k)
            sprite.position = (deck[0] - i * 2, deck[1] + i * 2)
            sprite.visible = False
            self.table.marks.append(sprite)
            self.deck.append(sprite)
        self.won_stacks: dict[int, list[arcade.Sprite]] = {}
        self.pile_texts: dict[int, arcade.Text] = {}
        for team in (0, 1):
            x, y = self.won_pile(team)
            stack = []
            for i in range(WON_STACK):
                sprite = arcade.Sprite(back_texture(), scale=0.42 * k)
                sprite.position = (x + i * 2.5, y + i * 2.5)
                sprite.visible = False
                self.table.marks.append(sprite)
                stack.append(sprite)
            self.won_stacks[team] = stack
            dy = -(0.21 * theme.CARD_H * k + 20)
            self.pile_texts[team] = self.table.hud.text(
                "", x, y + dy, 12, theme.CREAM, anchor_x="center"
            )

    # --- the layout --------------------------------------------------------------------------

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        faces: dict[int, Place] = {}
        backs: dict[str, Place] = {}
        k = self.k
        hand = sort_for_display(view.hand, suit_order(view.trump))
        n = len(hand)
        side = 2 * (66 + 0.5 * theme.CARD_H * BOT_SCALE + 12) * k
        room = self.felt - side - theme.CARD_W * HAND_SCALE * k
        step = min(82.0 * k, room / max(1, n - 1))
        mid = (n - 1) / 2
        if view.phase != "bidding" and mid > 0:  # clear of our won tricks' words (right)
            reach = self.won_pile(self.bottom)[0] - PILE_WORDS - self.cx
            step = min(step, (reach - 0.5 * theme.CARD_W * HAND_SCALE * k) / mid)
        my_turn = view.turn == self.table.me and view.phase == "play"
        for i, card in enumerate(hand):
            off = i - mid
            lift = 16.0 * k if my_turn and view.legal >> card & 1 else 0.0
            y = (92 - abs(off) ** 2 * 1.4) * k + lift  # the outer cards of eight inside too
            faces[card] = Place(self.cx + off * step, y, off * 2.0, HAND_SCALE * k, 10 + i)
        for spot in (EAST, NORTH, WEST):
            seat = self.seat_at(spot)
            shown = list(cards_of(view.shown[seat]))
            closed = max(0, view.hand_sizes[seat] - len(shown))
            items: list[int | None] = [*shown, *([None] * closed)]
            for i, item in enumerate(items):
                place = self.bot_place(spot, i, len(items))
                if item is None:
                    backs[f"h{seat}-{i - len(shown)}"] = place
                else:
                    faces[item] = place
        if view.phase == "bidding" and view.turnup is not None:
            x, y = self.deck_origin()
            faces[view.turnup] = Place(x + 70 * k, y, 0.0, TRICK_SCALE * k, 5)
        return faces, backs

    def bot_place(self, seat: int, i: int, n: int) -> Place:
        """The ``i``-th of ``n`` cards of the fan at spot ``seat`` (East, North, West)."""
        k = self.k
        off = i - (n - 1) / 2
        scale = BOT_SCALE * k
        if seat == NORTH:
            return Place(self.north_x + off * 26 * k, self.top - 68 * k, 180.0, scale, 10 + i)
        y = self.my + (20 - off * 24) * k
        if seat == WEST:
            return Place(66 * k, y, 90.0, scale, 10 + i)
        return Place(self.felt - 66 * k, self.my + (20 + off * 24) * k, -90.0, scale, 10 + i)

    def trick_place(self, seat: int, index: int) -> Place:
        k = self.k
        dx, dy, angle = {
            HUMAN: (0.0, -66.0, -3.0),
            EAST: (76.0, 2.0, 84.0),
            NORTH: (0.0, 68.0, 4.0),
            WEST: (-76.0, -2.0, -86.0),
        }[self.spot(seat)]
        return Place(self.cx + dx * k, self.my + dy * k, angle, TRICK_SCALE * k, 100 + index)

    def won_pile(self, seat: int) -> tuple[float, float]:
        k = self.k
        x = self.felt - 130 * k
        return (x, 112.0 * k) if self.spot(seat) % 2 == 0 else (x, self.top - 70 * k)

    def hand_origin(self, seat: int) -> tuple[float, float]:
        k = self.k
        spots = {
            HUMAN: (self.cx, 90.0 * k),
            EAST: (self.felt - 66 * k, self.my),
            NORTH: (self.north_x, self.top - 68 * k),
            WEST: (66 * k, self.my),
        }
        return spots[self.spot(seat)]

    def deck_origin(self) -> tuple[float, float]:
        return self.cx - 34 * self.k, self.my + 44 * self.k

    def seat_anchor(self, seat: int) -> tuple[float, float]:
        """South's plate is centred on its anchor; the others grow from an edge (see
        :meth:`name_side`): East's and West's from the felt's edges inwards, North's
        leftwards from beside its fan."""
        k = self.k
        fan = (3.5 * 24 + 0.5 * theme.CARD_W * BOT_SCALE + 22) * k
        spot = self.spot(seat)
        if spot == HUMAN:
            return max(self.cx - 330 * k, 96.0), 176.0 * k
        if spot == NORTH:
            return self.north_x - self.north_half() - 12, self.top - 76 * k
        x = 12.0 if spot == WEST else self.felt - 12
        return x, self.my + 20 * k + fan

    def name_side(self, seat: int) -> int:
        return {HUMAN: 0, EAST: -1, NORTH: -1, WEST: 1}[self.spot(seat)]

    def bubble_anchor(self, seat: int) -> tuple[float, float]:
        x, y = self.seat_anchor(seat)
        spot = self.spot(seat)
        if spot == HUMAN:  # above the marks by the name, growing right (clear of West)
            return x - 30, y + 80
        if spot == NORTH:  # under the fan, above the message's place
            below_fan = self.north_bottom() - 22
            # on a narrow felt no higher than needed, clear of the won tricks' words
            return self.north_x, min(below_fan, self.toast_position()[1] + 48 * self.k)
        # beside the name (bubble_beside_name): West's on its row, East's a row higher
        # (both may speak at once, and a narrow felt has no room for two side by side)
        return x, y + (42 if spot == EAST else 6)

    def bubble_side(self, seat: int) -> int:
        return {HUMAN: 1, EAST: -1, NORTH: 0, WEST: 1}[self.spot(seat)]

    def bubble_beside_name(self, seat: int) -> bool:
        return self.spot(seat) in (EAST, WEST)

    def badge_anchor(self, seat: int) -> tuple[float, float]:
        x, y = self.seat_anchor(seat)
        return x, y + (40 if self.spot(seat) != NORTH else -26)

    def trump_position(self) -> tuple[float, float]:
        return 62.0, self.top - 58

    def bid_area(self) -> tuple[float, float]:
        return self.cx, self.my - 118 * self.k

    def bid_prompt_position(self) -> tuple[float, float]:
        x, y = self.bid_area()
        return x, y + 44

    def bid_room(self) -> float:
        """Between West's and East's hands."""
        return self.felt - 230 * self.k

    def bid_grid_band(self) -> tuple[float, float] | None:
        """Above the status line, below the names of West and East (and so North's fan)."""
        west = self.seat_anchor(next(s for s in range(4) if self.spot(s) == WEST))
        return self.status_position()[1] + 20, min(west[1] - 24, self.north_bottom() - 12)

    def toast_position(self) -> tuple[float, float]:
        """Between North's fan and North's card in the trick (it covers no card)."""
        k = self.k
        fan_bottom = self.north_bottom()
        trick_top = self.my + (68 + 0.5 * theme.CARD_H * TRICK_SCALE + 6) * k
        return self.cx, (fan_bottom + trick_top) / 2

    def status_position(self) -> tuple[float, float]:
        return self.cx, 192.0 * self.k

    def panel_box(self) -> tuple[float, float, float]:
        # between the names of East and West (a name is 180 wide at most)
        k = self.k
        panel = self.table.status_panel
        spots = [self.seat_at(WEST), self.seat_at(EAST)]
        west, east = (panel.seat_plates[seat] for seat in spots)
        named_west, named_east = (panel.seat_labels[seat] for seat in spots)
        bound = 66 * k + 0.5 * theme.CARD_H * BOT_SCALE * k
        # clear of the plates and of the names themselves (a long name, a translation's,
        # may reach past its plate until the plate is drawn again)
        left = max(bound, west.right + 8, named_west.x + named_west.content_width / 2 - 7)
        right = min(
            self.felt - bound, east.left - 8, named_east.x - named_east.content_width / 2 + 7
        )
        # centred on the felt: as wide as the nearer name leaves room for
        half = min(self.cx - left, right - self.cx)
        return self.cx, self.my, min(560.0, 2 * half - 16)

    # --- marks ------------------------------------------------------------------------------

    def keep_on_felt(self, text: arcade.Text, x: float) -> None:
        """Centre ``text`` under its pile at ``x``, moved left just enough to end before
        the side bar's edge (a long count in German: "Gegner: 135 Pkt. · 6 Stiche")."""
        text.x = min(x, self.table.frame.table_right - 10 - text.content_width / 2)

    def update_marks(self) -> None:
        view = self.table.view
        if view is None:
            return
        bidding = view.phase == "bidding" and self.table.stage == Stage.PLAY
        undealt = sum(view.hand_sizes) < 32  # no pack left when every card was dealt
        for sprite in self.deck:
            sprite.visible = bidding and undealt
        won = [0, 0]
        for t in view.tricks:
            won[t.winner % 2] += 1
        for team in (0, 1):
            n = won[team]
            for i, sprite in enumerate(self.won_stacks[team]):
                sprite.visible = i < n
            self.pile_texts[team].text = (
                _("{team}: {points} pts · {tricks}").format(
                    team=self.table.team_name(team),
                    points=view.points[team],
                    tricks=ngettext("{count} trick", "{count} tricks", n).format(count=n),
                )
                if not bidding
                else ""
            )
            self.keep_on_felt(self.pile_texts[team], self.won_pile(team)[0])
        if bidding and view.turn == self.table.me and view.turnup is not None:
            self.table.ask_bid(
                view,
                _("Take {suit} (with the turn-up), or pass?").format(
                    suit=suit_label(view.turnup >> 3)
                ),
            )
        else:
            self.table.bid_prompt.text = ""
