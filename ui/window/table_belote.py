"""The four-player Belote table: your hand at the bottom, three bots around.

Seats as the game numbers them: 0 South (you), 1 East, 2 North (your partner), 3 West.
The other hands are face down, except the cards the view says are known (the turn-up
the taker received, declared cards).  The turn-up lies in the middle during the bidding.
"""

from __future__ import annotations

import arcade
from atout.core import View, cards_of
from atout.core.cards import sort_for_display

from ..cards_text import HUMAN, suit_label, suit_order
from . import theme
from .board import Place
from .driver import MatchTable
from .sprites import back_texture

HAND_SCALE = 0.72
TRICK_SCALE = 0.6
BOT_SCALE = 0.45
EAST, NORTH, WEST = 1, 2, 3
TRICK_SPOTS = {
    HUMAN: (480.0, 294.0, -3.0),
    EAST: (556.0, 362.0, 84.0),
    NORTH: (480.0, 428.0, 4.0),
    WEST: (404.0, 358.0, -86.0),
}
DECK = (446.0, 404.0)
TURNUP = (516.0, 404.0)
WON_STACK = 5


class BeloteTable(MatchTable):
    """Four-player Belote: you and North against East and West."""

    card_scale = TRICK_SCALE

    def build_marks(self) -> None:
        self.deck: list[arcade.Sprite] = []
        for i in range(3):
            sprite = arcade.Sprite(back_texture(), scale=TRICK_SCALE)
            sprite.position = (DECK[0] - i * 2, DECK[1] + i * 2)
            sprite.visible = False
            self.marks.append(sprite)
            self.deck.append(sprite)
        self.won_stacks: dict[int, list[arcade.Sprite]] = {}
        self.pile_texts: dict[int, arcade.Text] = {}
        for team in (0, 1):
            x, y = self.won_pile(team)
            stack = []
            for i in range(WON_STACK):
                sprite = arcade.Sprite(back_texture(), scale=0.42)
                sprite.position = (x + i * 2.5, y + i * 2.5)
                sprite.visible = False
                self.marks.append(sprite)
                stack.append(sprite)
            self.won_stacks[team] = stack
            dy = -66 if team == HUMAN % 2 else -58
            self.pile_texts[team] = self.hud.text("", x, y + dy, 11, theme.CREAM, anchor_x="center")

    # --- the layout --------------------------------------------------------------------------

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        faces: dict[int, Place] = {}
        backs: dict[str, Place] = {}
        hand = sort_for_display(view.hand, suit_order(view.trump))
        n = len(hand)
        step = min(82.0, 600.0 / max(1, n - 1))
        mid = (n - 1) / 2
        my_turn = view.turn == HUMAN and view.phase == "play"
        for i, card in enumerate(hand):
            off = i - mid
            lift = 16.0 if my_turn and view.legal >> card & 1 else 0.0
            faces[card] = Place(
                480 + off * step, 90 - abs(off) ** 2 * 1.4 + lift, off * 2.0, HAND_SCALE, 10 + i
            )
        for seat in (EAST, NORTH, WEST):
            shown = list(cards_of(view.shown[seat]))
            closed = max(0, view.hand_sizes[seat] - len(shown))
            items: list[int | None] = [*shown, *([None] * closed)]
            for i, item in enumerate(items):
                place = self.bot_place(seat, i, len(items))
                if item is None:
                    backs[f"h{seat}-{i - len(shown)}"] = place
                else:
                    faces[item] = place
        if view.phase == "bidding" and view.turnup is not None:
            faces[view.turnup] = Place(*TURNUP, 0.0, TRICK_SCALE, 5)
        return faces, backs

    def bot_place(self, seat: int, i: int, n: int) -> Place:
        """The ``i``-th of ``n`` cards of a bot's fan."""
        off = i - (n - 1) / 2
        if seat == NORTH:
            return Place(480 + off * 26, 652, 180.0, BOT_SCALE, 10 + i)
        if seat == WEST:
            return Place(66, 380 - off * 24, 90.0, BOT_SCALE, 10 + i)
        return Place(894, 380 + off * 24, -90.0, BOT_SCALE, 10 + i)

    def trick_place(self, seat: int, index: int) -> Place:
        x, y, angle = TRICK_SPOTS[seat]
        return Place(x, y, angle, TRICK_SCALE, 100 + index)

    def won_pile(self, seat: int) -> tuple[float, float]:
        return (830.0, 112.0) if seat % 2 == HUMAN % 2 else (830.0, 650.0)

    def hand_origin(self, seat: int) -> tuple[float, float]:
        spots = {
            HUMAN: (480.0, 90.0),
            EAST: (894.0, 380.0),
            NORTH: (480.0, 652.0),
            WEST: (66.0, 380.0),
        }
        return spots[seat]

    def deck_origin(self) -> tuple[float, float]:
        return DECK

    def seat_anchor(self, seat: int) -> tuple[float, float]:
        spots = {
            HUMAN: (150.0, 176.0),
            EAST: (850.0, 540.0),
            NORTH: (290.0, 650.0),
            WEST: (110.0, 540.0),
        }
        return spots[seat]

    def bubble_anchor(self, seat: int) -> tuple[float, float]:
        spots = {
            HUMAN: (300.0, 206.0),
            EAST: (800.0, 470.0),
            NORTH: (480.0, 560.0),
            WEST: (160.0, 470.0),
        }
        return spots[seat]

    def bid_area(self) -> tuple[float, float]:
        return 480.0, 242.0

    def bid_prompt_position(self) -> tuple[float, float]:
        return 480.0, 300.0

    def toast_position(self) -> tuple[float, float]:
        return 480.0, 518.0

    def status_position(self) -> tuple[float, float]:
        return 480.0, 192.0

    # --- marks ------------------------------------------------------------------------------

    def update_marks(self) -> None:
        view = self.view
        if view is None:
            return
        bidding = view.phase == "bidding" and self.stage == "play"
        for sprite in self.deck:
            sprite.visible = bidding
        won = [0, 0]
        for t in view.tricks:
            won[t.winner % 2] += 1
        for team in (0, 1):
            n = won[team]
            for i, sprite in enumerate(self.won_stacks[team]):
                sprite.visible = i < n
            self.pile_texts[team].text = (
                f"{self.team_name(team)}: {view.points[team]} pts · {n} trick{'s' if n != 1 else ''}"
                if not bidding
                else ""
            )
        if bidding and view.turn == HUMAN and view.turnup is not None:
            suit = suit_label(view.turnup >> 3)
            self.bid_prompt.text = (
                f"Take {suit} (with the turn-up), or pass?"
                if "take" in view.legal_bids
                else "Round 2: name another suit as trump, or pass"
            )
        else:
            self.bid_prompt.text = ""
