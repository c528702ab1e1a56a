"""What drives the match on a table: the driver's side of a
:class:`~atout.ui.window.table.Table`.

A table holds one :class:`Driver`: :class:`~atout.ui.window.driver.MatchDriver` plays a
local :class:`~atout.core.session.Session` (a person against bots, two people at one
screen), :class:`~atout.ui.window.net_table.NetDriver` a table on a server.  The table
calls these methods (a click on a card, a key, each frame); a driver holds its table and
calls it back to show what happened.  This module imports nothing of the table: the
table knows its driver by this class, the drivers know the table itself.
"""

from __future__ import annotations

from atout.core import Deal
from atout.core import DealScore

from .words import MatchLike


class Driver:
    """The match's side of a table: what a driver gives (see the module's docstring)."""

    def begin(self) -> None:
        """Take the match where it stands (called once the table is built)."""
        raise NotImplementedError

    def drive(self) -> None:
        """One frame of the match: a bot's answer, the end of a deal, a redeal."""
        raise NotImplementedError

    def bot_thinking(self) -> bool:
        """Whether a bot is thinking now (the status line shows running dots)."""
        return False

    def start_deal(self) -> None:
        raise NotImplementedError

    def new_match(self) -> None:
        raise NotImplementedError

    def next_deal_key(self) -> None:
        """The N key: the next deal, or a new match, or why neither now."""
        raise NotImplementedError

    def click_card(self, card: int) -> None:
        """The person clicks a face-up card."""
        raise NotImplementedError

    def human_bid(self, bid: str) -> None:
        raise NotImplementedError

    def claim(self) -> None:
        raise NotImplementedError

    def ask_hint(self) -> None:
        raise NotImplementedError

    def undo(self) -> None:
        raise NotImplementedError

    def leave(self) -> None:
        """The table is left (menu, quit, a new match): save, stop the bots."""
        raise NotImplementedError

    @property
    def match(self) -> MatchLike:
        """The match's scores so far (read only: the driver's source alone changes it)."""
        raise NotImplementedError

    @property
    def deal(self) -> Deal | None:
        """The deal on the table, when the driver holds one (a local session's: the one in
        play, or the last one played; a network table holds none)."""
        return None

    def last_score(self) -> DealScore | None:
        """The score of the deal just over (the end-of-deal panel shows it)."""
        deal = self.deal
        return deal.score if deal is not None else None

    # --- what a driver may add to its table (the defaults add nothing) ------------------------

    def seat_tags(self) -> list[str]:
        """What follows each seat's name on its plate (a bot's level; "" for a person)."""
        raise NotImplementedError

    def name_seats(self, names: list[str]) -> list[str]:
        """The seats' names the driver knows (the players' own), over the table's
        ``names`` ("You" and the game's names for the seats)."""
        return names

    def who_plays(self) -> str:
        """Who plays besides the people, for the side bar ("": the seats' bots)."""
        return ""

    def built(self) -> None:
        """The table has built its plates, texts and buttons (again after a new size):
        the driver adds its own (a network table's lobby, the guided deal's coach)."""

    def changed(self) -> None:
        """The table has brought its words up to date with the view (or opened the
        end-of-deal panel)."""

    def draw(self) -> None:
        """Draw what the driver adds over the table (after the table's own drawing)."""

    def show_again(self, message: str, seconds: float) -> bool:
        """Show ``message`` again in a table laid out anew, when it is the driver's own
        (a hint's line, chosen again for the new room); ``False``: the table shows it."""
        return False
