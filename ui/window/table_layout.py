"""What a game's table gives: where every card of a view lies, where each seat's
trick card, name, words and won tricks go, where the bidding and the messages are.

A :class:`~atout.ui.window.table.Table` holds one :class:`Layout`: its methods are the
defaults (or :class:`NotImplementedError` where a layout must answer), and each game's
layout (:class:`~atout.ui.window.table_decouverte.DecouverteLayout`,
:class:`~atout.ui.window.table_belote.BeloteLayout`) overrides them; a game's layout holds
its table for the marks it draws on the felt.  A layout places *spots*, not seats:
:meth:`Layout.spot` turns a seat into its place around the table (0 at the bottom, then
in the direction of play), so a table seen from another seat (a network table joined at
seat 1) is the same layout turned.  This module imports nothing of the table.
"""

from __future__ import annotations

from atout.core import View

from .board import Place
from .frame import Frame


class Layout:
    """The layout's side of a table (see the module's docstring)."""

    card_scale = 0.6
    """The scale of arcade's 140x190 card images on this table."""

    def __init__(self, seats: int, bottom: int) -> None:
        self.seats = seats
        self.bottom = bottom
        """The seat drawn at the bottom of the table (South)."""
        self.frame = Frame(0, 0, 0)
        """The logical table the layout is laid out for (:meth:`lay_out`)."""

    def spot(self, seat: int) -> int:
        """Where ``seat`` sits around the table: 0 at the bottom, then each next seat in
        turn (1 East, 2 North, 3 West at four; 1 North at two)."""
        return (seat - self.bottom) % self.seats

    def seat_at(self, spot: int) -> int:
        """The seat that sits at ``spot`` (the inverse of :meth:`spot`)."""
        return (spot + self.bottom) % self.seats

    # --- to be given by a layout ----------------------------------------------------------

    def lay_out(self, frame: Frame) -> None:
        """Compute the layout's places and :attr:`card_scale` for ``frame`` (called before
        anything is built, and again when the window's size changes)."""
        self.frame = frame

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        """Where every visible card of ``view`` lies (faces by card, face-down cards by a
        key that stays the same while the card stays), the current trick excepted."""
        raise NotImplementedError

    def trick_place(self, seat: int, index: int) -> Place:
        """Where ``seat``'s card lies in the trick (``index``: its order in the trick)."""
        raise NotImplementedError

    def won_pile(self, seat: int) -> tuple[float, float]:
        """Where the tricks ``seat`` wins go."""
        raise NotImplementedError

    def hand_origin(self, seat: int) -> tuple[float, float]:
        """Where a card of ``seat``'s closed hand comes from when it is played."""
        raise NotImplementedError

    def deck_origin(self) -> tuple[float, float]:
        """Where dealt cards come from."""
        return self.frame.felt_mid, self.frame.mid_y

    def seat_anchor(self, seat: int) -> tuple[float, float]:
        """Where ``seat``'s name is written."""
        raise NotImplementedError

    def bubble_anchor(self, seat: int) -> tuple[float, float]:
        """Where what ``seat`` says (bids, belote) appears."""
        x, y = self.seat_anchor(seat)
        return x, y - 44

    def bubble_side(self, seat: int) -> int:
        """Which way ``seat``'s bubble grows from its anchor: 0 both ways, 1 right, -1 left."""
        return 0

    def badge_anchor(self, seat: int) -> tuple[float, float]:
        """Where ``seat``'s dealer and taker marks are drawn."""
        x, y = self.seat_anchor(seat)
        return x, y + 40

    def bid_area(self) -> tuple[float, float]:
        """The middle of the bidding controls."""
        return self.frame.felt_mid, self.frame.mid_y

    def bid_grid_centre(self) -> tuple[float, float]:
        """The middle of a grid of bids (an auction by values): by default the felt's."""
        return self.frame.felt_mid, self.frame.mid_y

    def bid_room(self) -> float:
        """How wide the bidding controls may be (a grid of an auction by values)."""
        return self.frame.table_right - 60

    def bid_grid_band(self) -> tuple[float, float] | None:
        """The bottom and the top between which a grid of bids too wide for
        :meth:`bid_room` may grow in blocks stacked one above the other (``None``: no
        room for more than one block)."""
        return None

    def bid_prompt_position(self) -> tuple[float, float]:
        """Where the question of the bidding is written (above the bid buttons)."""
        x, y = self.bid_area()
        return x, y + 50

    def toast_position(self) -> tuple[float, float]:
        return self.frame.felt_mid, self.frame.mid_y - 90

    def status_position(self) -> tuple[float, float]:
        return self.frame.felt_mid, self.frame.mid_y - 120

    def turn_position(self, seat: int) -> tuple[float, float]:
        """Where the status line says that ``seat`` is to act when two people share the
        screen (on that seat's side; by default where the status line is)."""
        return self.status_position()

    def toast_width(self) -> float:
        """The widest a message on the felt may be."""
        return self.frame.table_right - 40

    def panel_box(self) -> tuple[float, float, float]:
        """The end-of-deal panel's middle and width (clear of the seats' words)."""
        frame = self.frame
        return frame.felt_mid, frame.mid_y, min(560.0, frame.table_right - 40)

    def trump_position(self) -> tuple[float, float]:
        """Where the trump mark lies on the felt once a contract is made."""
        return 80.0, self.frame.mid_y

    def build_marks(self) -> None:
        """Add the layout's marks on the felt (sprites in :attr:`marks`, texts in :attr:`hud`)."""

    def update_marks(self) -> None:
        """Bring the layout's marks up to date with the view (won tricks, the proposal)."""

    def is_own_back(self, key: str) -> bool:
        """Whether the face-down card ``key`` is one of the person's."""
        return False

    def name_room(self, seat: int) -> float | None:
        """How wide ``seat``'s name plate may be (``None``: as wide as its name and tag);
        a longer name is written smaller, then without its bot's level (the side bar
        names the bots too)."""
        return None

    def name_side(self, seat: int) -> int:
        """Which way ``seat``'s name plate grows from :meth:`seat_anchor` (0: the anchor
        is its middle; see :class:`~atout.ui.window.panels.SeatLayout`)."""
        return 0

    def bubble_beside_name(self, seat: int) -> bool:
        """Whether ``seat``'s bubble stands just past its name plate (see
        :class:`~atout.ui.window.panels.SeatLayout`)."""
        return False
