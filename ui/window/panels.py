"""What the table writes: the status line, the seats' names and bubbles, the side bar's
words (the contract, the card points, the announcements).

A :class:`StatusPanel` puts its plates and texts in the table's HUD layer once and only
changes their words when the view changes.  It reads a :class:`~atout.core.views.View`
and the match's scores and computes no rule; the words for seats, bids and contracts are
:mod:`~atout.ui.window.words`; the lists below the side bar's words (the score sheet,
the cards not seen yet) are :mod:`~atout.ui.window.side_bar`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import arcade
from atout.core import GameInfo
from atout.core import View
from atout.core.model import BidInfo

from ..cards_text import bid_spoken
from ..cards_text import suit_label
from ..i18n import _
from ..i18n import ngettext
from ..i18n import pgettext
from ..messages import announcement_words
from ..messages import shown
from . import theme
from .frame import SIDEBAR
from .frame import Frame
from .widgets import Layer
from .widgets import Toast
from .widgets import quantize
from .widgets import set_plate
from .widgets import shrink_to
from .words import contract_name
from .words import contract_symbol
from .words import seat_name
from .words import second_round
from .words import suit_colour
from .words import team_name

SAID_TOP = 256.0
"""The side bar's "Announced" heading (the last announcements below it, the buttons under
them); the score sheet ends above it."""
SAID_LINES = 4
RULES_WIDTH = 272
"""The width the rules' description wraps in, in the side bar."""
PEOPLE_TAGS = ("person", "away", "open", "")
"""A seat plate's tags that name no bot (a network table's seats)."""
SEAT_PLATE = (0, 0, 0, 110)
SEAT_PLATE_TURN = (250, 204, 64, 235)
BUBBLE = (255, 252, 235, 245)


class SeatLayout(Protocol):
    """Where a table writes its words (each game's table answers)."""

    frame: Frame

    def seat_anchor(self, seat: int) -> tuple[float, float]: ...

    def spot(self, seat: int) -> int:
        """Where ``seat`` sits around the table (0: at the bottom)."""
        ...

    def bubble_anchor(self, seat: int) -> tuple[float, float]: ...

    def bubble_side(self, seat: int) -> int:
        """Which way a bubble grows from its anchor: 0 both ways, 1 right, -1 left."""
        ...

    def name_room(self, seat: int) -> float | None:
        """How wide a name plate may be (``None``: as wide as its name and tag)."""
        ...

    def name_side(self, seat: int) -> int:
        """Which way a name plate grows from its anchor: 0 both ways (the anchor is its
        middle), 1 right (the anchor is its left edge), -1 left (its right edge)."""
        ...

    def bubble_beside_name(self, seat: int) -> bool:
        """Whether ``seat``'s bubble starts just past its name plate's far edge (growing
        the plate's way, at the height :meth:`bubble_anchor` gives) instead of at the
        anchor's ``x``."""
        ...

    def status_position(self) -> tuple[float, float]: ...

    def turn_position(self, seat: int) -> tuple[float, float]:
        """Where the status line says that ``seat`` (one of two people at one screen) is
        to act: on that seat's side of the table."""
        ...

    def bid_prompt_position(self) -> tuple[float, float]: ...

    def badge_anchor(self, seat: int) -> tuple[float, float]: ...

    def trump_position(self) -> tuple[float, float]: ...


class StatusPanel:
    """The status line, the seats and their bubbles, the side bar's words."""

    def __init__(
        self,
        hud: Layer,
        layout: SeatLayout,
        info: GameInfo,
        pack: str,
        tags: Sequence[str],
        you: int | None,
        who: str = "",
    ) -> None:
        self.hud = hud
        self.layout = layout
        self.info = info
        self.seats = info.seats
        self.you = you
        """The seat called "you" (``None``: two people share the screen)."""
        # who plays besides the people: the bots of the seats (``who`` says it instead)
        bots = sorted({tag for tag in tags if tag and tag not in PEOPLE_TAGS})
        frame = layout.frame
        x0 = frame.table_right
        mid = frame.sidebar_mid
        top = frame.height
        hud.plate(arcade.LBWH(x0 - 3, 0, 6, top), theme.WOOD, None, 0)
        hud.text(shown(info.title), mid, top - 34, 18, theme.GOLD, anchor_x="center", bold=True)
        who = who or (_("Bots: {bots}").format(bots=", ".join(bots)) if bots else _("No bots"))
        self.rules_text = hud.text(
            pack,
            mid,
            top - 46,
            12,
            theme.CREAM,
            anchor_x="center",
            anchor_y="top",
            width=RULES_WIDTH,
            multiline=True,
            align="center",
        )
        """The rules in force in words (the pack's description), wrapped in the bar."""
        self.drop = max(0.0, self.rules_text.content_height - 20)
        """How much lower than on one line the side bar's words and score sheet start
        (the rules' description takes more lines)."""
        top -= self.drop
        hud.text(who, mid, top - 84, 12, theme.CREAM, anchor_x="center")
        self.contract_text = hud.text(
            "", mid, top - 110, 14, theme.WHITE, anchor_x="center", bold=True
        )
        self.taker_text = hud.text("", mid, top - 130, 12, theme.CREAM, anchor_x="center")
        self.points_text = hud.text("", mid, top - 150, 12, theme.CREAM, anchor_x="center")
        self.said_title = hud.text("", x0 + 24, SAID_TOP, 13, theme.GOLD, bold=True)
        self.said_text = hud.text(
            "", x0 + 24, SAID_TOP - 8, 12, theme.CREAM, width=260, multiline=True, anchor_y="top"
        )
        sx, sy = layout.status_position()
        self.status = hud.text(
            "", sx, sy, 16, theme.WHITE, anchor_x="center", anchor_y="center", bold=True
        )
        self.thinking = hud.text("", sx, sy, 16, theme.GOLD, anchor_y="center", bold=True)
        self.bid_prompt = hud.text(
            "", *layout.bid_prompt_position(), 15, theme.WHITE, anchor_x="center", bold=True
        )
        """The bidding's question; a layout writes it (the bid buttons come from the view)."""
        self.seat_plates: dict[int, arcade.Sprite] = {}
        self.seat_labels: dict[int, arcade.Text] = {}
        self.seat_points: dict[int, arcade.Text] = {}
        self.bubble_plates: dict[int, arcade.Sprite] = {}
        self.bubble_labels: dict[int, arcade.Text] = {}
        self.bubble_until: dict[int, float] = {}
        for seat in range(self.seats):
            x, y = layout.seat_anchor(seat)
            name = seat_name(info, seat)
            if tags[seat]:
                name += f" · {tags[seat]}"
            self.seat_plates[seat] = hud.plate(arcade.XYWH(x, y + 6, 120, 28), SEAT_PLATE)
            label = hud.text(name, x, y, 14, theme.WHITE, anchor_x="center", bold=True)
            room = layout.name_room(seat)
            if room is not None and not shrink_to(label, room - 30):
                label.text = seat_name(info, seat)  # the bots are named in the side bar
                label.font_size = 14
                shrink_to(label, room - 30)
            self.seat_labels[seat] = label
            x = self.plate_x(seat)
            label.x = x
            set_plate(
                self.seat_plates[seat],
                arcade.XYWH(x, y + 6, quantize(label.content_width + 30), 28),
                SEAT_PLATE,
            )
            self.seat_points[seat] = hud.text("", x, y - 20, 11, theme.CREAM, anchor_x="center")
            bx, by = layout.bubble_anchor(seat)
            plate = hud.plate(arcade.XYWH(bx, by, 100, 30), BUBBLE, theme.PANEL_EDGE)
            plate.visible = False
            self.bubble_plates[seat] = plate
            bubble = hud.text(
                "", bx, by, 13, theme.INK, anchor_x="center", anchor_y="center", bold=True
            )
            bubble.visible = False
            self.bubble_labels[seat] = bubble
        self.badges: dict[int, list[tuple[arcade.Sprite, arcade.Text]]] = {}
        for seat in range(self.seats):
            pair = []
            for fill in (theme.GOLD, theme.CREAM):
                plate = hud.plate(arcade.XYWH(0, 0, 60, 24), fill, None, 12)
                text = hud.text(
                    "", 0, 0, 12, theme.INK, anchor_x="center", anchor_y="center", bold=True
                )
                plate.visible = text.visible = False
                pair.append((plate, text))
            self.badges[seat] = pair
        tx, ty = layout.trump_position()
        self.trump_plate = hud.plate(
            arcade.XYWH(tx, ty, 96, 84), theme.CREAM, theme.PANEL_EDGE, 14, 2
        )
        self.trump_caption = hud.text(
            pgettext("rule", "Trump"),
            tx,
            ty + 24,
            12,
            theme.INK_SOFT,
            anchor_x="center",
            anchor_y="center",
            bold=True,
        )
        self.trump_mark = hud.text(
            "", tx, ty - 10, 30, theme.INK, anchor_x="center", anchor_y="center", bold=True
        )
        self.trump_plate.visible = self.trump_caption.visible = self.trump_mark.visible = False

    def plate_x(self, seat: int) -> float:
        """The middle of ``seat``'s name plate: its anchor, or half the plate's width
        from it the way the layout lets it grow."""
        x, _skip = self.layout.seat_anchor(seat)
        width = quantize(self.seat_labels[seat].content_width + 30)
        return x + self.layout.name_side(seat) * width / 2

    def tick(self, now: float, toast: Toast, ready: bool, thinking: bool) -> None:
        """What changes with time alone: messages, bubbles, the thinking dots.

        ``ready``: no card is moving (the bidding's question shows); ``thinking``: a bot
        is thinking (the dots run after the status line).
        """
        toast.update(now)
        covered = toast.visible(now) and toast.y == self.status.y
        if self.status.visible == covered:
            self.status.visible = not covered
        for seat, until in list(self.bubble_until.items()):
            if now > until:
                del self.bubble_until[seat]
                self.bubble_plates[seat].visible = False
                self.bubble_labels[seat].visible = False
        if self.bid_prompt.visible != ready:
            self.bid_prompt.visible = ready
        dots = "." * (1 + int(now * 3) % 3) if thinking and not covered else ""
        if self.thinking.text != dots:
            self.thinking.text = dots

    def bubble(self, seat: int, words: str, until: float) -> None:
        """Show what ``seat`` says next to it until the clock reads ``until``."""
        label = self.bubble_labels[seat]
        label.text = words
        x, y = self.layout.bubble_anchor(seat)
        width = quantize(label.content_width + 30)
        side = self.layout.bubble_side(seat)
        if self.layout.bubble_beside_name(seat):  # just past the plate's far edge
            plate = self.seat_plates[seat]
            x = plate.center_x + side * (plate.width / 2 + 10)
        x += width / 2 * side  # grows away from the anchor on that side
        felt = self.layout.frame.table_right
        x = max(8 + width / 2, min(x, felt - 8 - width / 2))  # and stays on the felt
        label.x = x
        set_plate(self.bubble_plates[seat], arcade.XYWH(x, y, width, 30), BUBBLE, theme.PANEL_EDGE)
        label.visible = self.bubble_plates[seat].visible = True
        self.bubble_until[seat] = until

    def hide_bubble(self, seat: int) -> None:
        """Take ``seat``'s bubble away now."""
        self.bubble_until.pop(seat, None)
        self.bubble_plates[seat].visible = self.bubble_labels[seat].visible = False

    def clear_bubbles(self) -> None:
        """Let every bubble go at the next frame."""
        for seat in list(self.bubble_until):
            self.bubble_until[seat] = -1.0

    def update_status(self, view: View | None, playing: bool, me: int) -> None:
        """Say who is to act (``playing``: a deal is on; ``me``: the seat acting from this
        screen) and light that seat's name.  Two people at one screen: the name of the one
        to act, in gold, with an arrow towards their side of the table."""
        words = ""
        people = self.you is None
        if view is not None and playing:
            name = seat_name(self.info, view.turn)
            if people and view.turn == me and view.phase in ("bidding", "play"):
                arrow = "▼" if self.layout.spot(view.turn) == 0 else "▲"
                act = _("{name} to bid") if view.phase == "bidding" else _("{name} to play")
                words = f"{arrow}  {act.format(name=name)}  {arrow}"
            elif view.turn == me and view.phase == "bidding":
                words = _("Your bid")
            elif view.turn == me and view.phase == "play":
                words = _("Your turn: play a highlighted card")
            elif view.phase in ("bidding", "play"):
                acts = _("{name} bids") if view.phase == "bidding" else _("{name} plays")
                words = acts.format(name=name)
        self.status.text = words
        if view is not None:
            x, y = self.layout.turn_position(view.turn) if people else self.layout.status_position()
            if (self.status.x, self.status.y) != (x, y):
                self.status.x, self.status.y = x, y
                self.thinking.y = y
        colour = theme.GOLD if people and words else theme.WHITE
        if tuple(self.status.color) != colour:
            self.status.color = colour
        self.thinking.x = self.status.x + self.status.content_width / 2 + 4
        self.update_seats(view, playing)

    def update_seats(self, view: View | None, playing: bool) -> None:
        """Light the name of the seat to act."""
        for seat in range(self.seats):
            to_act = (
                view is not None
                and playing
                and view.turn == seat
                and view.phase in ("bidding", "play")
            )
            label = self.seat_labels[seat]
            colour = theme.INK if to_act else theme.WHITE
            if tuple(label.color) != colour:
                label.color = colour
            _skip, y = self.layout.seat_anchor(seat)
            x = self.plate_x(seat)
            set_plate(
                self.seat_plates[seat],
                arcade.XYWH(x, y + 6, quantize(label.content_width + 30), 28),
                SEAT_PLATE_TURN if to_act else SEAT_PLATE,
            )

    def badges_stacked(self, seat: int, row: float, y: float) -> bool:
        """Whether ``seat``'s marks (the dealer's, the taker's) stand one above the other
        instead of side by side: a side seat's marks above its name plate whose row
        would be wider than the plate (the felt's middle, where the end-of-deal panel
        stands, begins just past it on a small window)."""
        plate = self.seat_plates[seat]
        above = y > self.layout.seat_anchor(seat)[1]
        return self.layout.name_side(seat) != 0 and above and row > plate.width

    def update_marks(self, view: View | None, playing: bool) -> None:
        """The dealer's mark, the taker's mark (with the trump suit) next to their names,
        and the trump on the felt once a contract is made."""
        contract = view.contract if view is not None else None
        for seat in range(self.seats):
            words = []
            if view is not None and view.dealer == seat:
                words.append(_("Dealer"))
            if contract is not None and contract.taker == seat:
                words.append(
                    _("Takes {contract}").format(
                        contract=contract_symbol(contract.trump, contract.name)
                    )
                )
            x, y = self.layout.badge_anchor(seat)
            if self.layout.name_side(seat):  # centred on the plate, wherever it grew
                x = self.seat_plates[seat].center_x
            pairs = self.badges[seat]
            widths = []
            for (_plate, text), word in zip(pairs, words, strict=False):
                text.text = word
                widths.append(quantize(text.content_width + 18))
            row = sum(widths) + 8 * (len(widths) - 1)
            stacked = self.badges_stacked(seat, row, y)
            left = x - row / 2
            for i, (plate, text) in enumerate(pairs):
                on = i < len(words)
                plate.visible = text.visible = on
                if not on:
                    continue
                width = widths[i]
                mid = x if stacked else left + width / 2
                left += width + 8
                if stacked and i:
                    y += BADGE_STEP
                dealer = words[i] == _("Dealer")
                fill = theme.GOLD if dealer else theme.CREAM
                set_plate(plate, arcade.XYWH(mid, y, width, 24), fill, None, 12)
                text.x, text.y = mid, y
                colour = theme.INK if dealer or contract is None else suit_colour(contract.trump)
                if tuple(text.color) != colour:
                    text.color = colour
        on = contract is not None
        self.trump_plate.visible = self.trump_caption.visible = self.trump_mark.visible = on
        if contract is not None:
            trump = contract.trump
            self.trump_mark.text = contract_symbol(trump, contract.name)
            self.trump_mark.font_size = 30 if trump is not None else 14
            colour = suit_colour(trump)
            if tuple(self.trump_mark.color) != colour:
                self.trump_mark.color = colour

    def refresh_points(
        self, view: View, keep_count_yourself: bool, bid: BidInfo | None = None
    ) -> None:
        """The contract (with a value, as ``bid``, the engine's description of the bid
        that made it, says it: ``capot ♥ hearts``), the running card points (unless
        players keep count themselves), each seat's tricks, the last announcements."""
        info = self.info
        c = view.contract
        taker = ""
        if c is not None:
            self.contract_text.text = _("Trump: {contract}").format(
                contract=contract_name(c.trump, c.name)
            )
            if c.value is not None:  # a contract with a value and a level (La Coinche)
                level = f" ×{c.level}" if c.level > 1 else ""
                words = bid_spoken(bid) if bid is not None else None
                self.contract_text.text = _("Contract: {contract}").format(
                    contract=f"{words or f'{c.value} {contract_name(c.trump, c.name)}'}{level}"
                )
                shrink_to(self.contract_text, SIDEBAR - 24)
            taker = _("taken by {name}").format(name=seat_name(info, c.taker))
        elif view.phase == "bidding" and view.turnup is not None:
            self.contract_text.text = (
                _("Bidding, round 2")
                if second_round(view)
                else _("Bidding on {suit}").format(suit=suit_label(view.turnup >> 3))
            )
        else:
            self.contract_text.text = ""
        self.taker_text.text = taker
        tricks = [0] * view.teams
        for t in view.tricks:
            tricks[t.winner % view.teams] += 1
        parts = [f"{team_name(info, team)} {view.points[team]}" for team in range(view.teams)]
        self.points_text.text = (
            _("Card points: {points}").format(points=" · ".join(parts)) if view.tricks else ""
        )
        if keep_count_yourself:
            self.points_text.text = _("L'arrêt: keep count yourself")
        for seat in range(self.seats):
            team = seat % view.teams
            words = ""
            if info.teams == self.seats and view.phase != "bidding":
                n = tricks[team]
                won = ngettext("{count} trick", "{count} tricks", n).format(count=n)
                words = _("{points} pts · {tricks}").format(points=view.points[team], tricks=won)
                if keep_count_yourself:
                    words = won
            self.seat_points[seat].text = words
        said = [
            _("{name}: {description}").format(
                name=seat_name(info, a.seat), description=announcement_words(a.text)
            )
            for a in view.announcements
        ]
        self.said_title.text = _("Announced") if said else ""
        self.said_text.text = "\n".join(said[-SAID_LINES:])


BADGE_STEP = 30.0
"""How far above the other a seat's second mark stands when they are stacked."""
