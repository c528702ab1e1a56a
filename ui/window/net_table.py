"""The window at a table on a server: a :class:`~atout.ui.net.client.RemoteTable` drawn
and played like a local match.

:class:`NetDriver` is what :class:`~atout.ui.window.driver.MatchDriver` is to a local
session, for a table on a server: the server deals, plays the bots and checks every
action, and the window only sends the person's intentions and shows what comes back.
It computes no rule: the legal cards, the events and the scores all come from the views
and events the server sends.

* Each frame takes the server's messages without waiting (``Client.poll``); they wait in
  order and an ``update`` is shown only once the cards of the one before have stopped
  moving (and, after a deal, once the person has closed its panel), so a burst of bot
  plays is seen card by card.
* An action is sent with a ``ref``; until its answer comes no other is sent; a refusal
  is shown as a message.
* Until the table starts, a panel over the felt says where the others join (a hosted
  table: the address, the table's code and each open seat's token) and the host may
  start at once, the bots playing the empty seats.
* Network trouble (the connection lost, being made again, closed) is a line over the
  felt, never a freeze: the table waits for the server to say where it stands.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from typing import Any

from atout.core import CLAIM
from atout.core import Action
from atout.core import DealScore
from atout.core import GameInfo
from atout.core import MatchResult
from atout.core import Rules
from atout.core import Trick
from atout.core import View
from atout.core.cards import CardParseError
from atout.core.cards import card_str
from atout.core.cards import parse_card
from atout.core.errors import AtoutError
from atout.core.files import write_new
from atout.core.records import record_text
from atout.core.session import DEAL
from atout.core.session import MATCH_OVER
from atout.core.session import REDEAL
from atout.core.session import SCORE
from atout.core.session import TRICK
from atout.core.session import Event
from atout.core.text import Message
from atout.ui.net.client import CONNECTION
from atout.ui.net.protocol import action_to_json

from .. import savegame
from ..cards_text import show_card
from ..i18n import N_
from ..i18n import _
from ..messages import bot_title
from ..messages import shown
from .net_connect import NetLink
from .net_lobby import Lobby
from .table import Table
from .table_driver import Driver
from .table_stage import Stage
from .table_stage import after_deal
from .table_tell import tell

ANSWER_WAIT = 15.0
"""Seconds an action waits for the server's answer before the person may try again."""
STATES = {"bot": "bot", "away": "away", "open": "open", "person": ""}
"""A seat's state (the server's ``players`` message) as its name plate says it."""


class NetScores:
    """The match as a network table knows it: the scores the server sends and each deal's
    score from its ``score`` event (what the side bar and the end-of-deal panel read)."""

    def __init__(self, info: GameInfo, rules: Rules) -> None:
        self.info = info
        self.rules = rules
        self.seed = 0
        self.history: list[DealScore] = []
        self.scores: tuple[int, ...] = (0,) * info.teams
        self.result: MatchResult | None = None


class NetDriver(Driver):
    """The driver of a table on a server, seen from the seat this window holds (or
    watched)."""

    def __init__(self, table: Table, link: NetLink) -> None:
        self.table = table
        """The table the server's table is drawn on."""
        self.link = link
        self.remote = link.table
        self.remote.bot_title = bot_title(table.engine.bots, self.remote.bot_level)
        seat = self.remote.seat
        self.table.you = seat
        self.table.me = self.table.bottom = seat if seat is not None else 0
        self.kept = NetScores(self.remote.info, self.remote.rules)
        self.kept.scores = self.remote.scores
        self.kept.history = self.remote.scored  # the remote table keeps it, from the match's start
        self.inbox: deque[dict[str, Any]] = deque()
        self.asked: int | None = None
        """The ``ref`` of the action waiting for the server's answer."""
        self.asked_at = 0.0
        self.deal_done = False
        """The last update scored the deal: its panel opens once the cards stop."""
        self.trouble = ""
        """What is wrong with the connection ("" when nothing is)."""
        self.record_saved = False
        self.left = False
        self.lobby = Lobby()
        self.table.leaving = N_("table ends") if link.server is not None else N_("bot plays on")

    # --- names -------------------------------------------------------------------------

    def name_seats(self, names: list[str]) -> list[str]:
        for player in self.remote.players:
            seat, name = player.get("seat"), player.get("name")
            if (
                isinstance(seat, int)
                and 0 <= seat < self.table.seats
                and seat != self.table.you
                and name
            ):
                names[seat] = str(name)[:24]
        return names

    def who_plays(self) -> str:
        return _("Bots: {bots}").format(bots=self.remote.bot_title)

    def seat_tags(self) -> list[str]:
        tags = [""] * self.table.seats
        for player in self.remote.players:
            seat = player.get("seat")
            if isinstance(seat, int) and 0 <= seat < self.table.seats and seat != self.table.you:
                state = STATES.get(str(player.get("state")), "")
                tags[seat] = self.remote.bot_title if state == "bot" else state
        return tags

    # --- the match ---------------------------------------------------------------------------

    @property
    def match(self) -> NetScores:
        return self.kept

    def last_score(self) -> DealScore | None:
        """The score of the deal just over, as its ``score`` event told it."""
        return self.kept.history[-1] if self.kept.history else None

    def begin(self) -> None:
        """Take the table where it stands: waiting to start, or a deal on."""
        view = self.remote.latest_view
        if view is None:
            self.table.go_to(Stage.WAITING)
        else:
            self.table.go_to(Stage.MATCH_OVER if self.remote.result is not None else Stage.PLAY)
            self.table.view = view
            self.table.relayout(None, animate=False)
        self.table.after_change()
        self.build_lobby()

    def built(self) -> None:
        self.build_lobby()

    def build_lobby(self) -> None:
        """The panel that says where the others join (until the table starts), and the
        line that says what is wrong with the connection."""
        start = self.start_now if self.link.host_token is not None else None
        self.lobby.build(self.table, self.link, start)

    def draw(self) -> None:
        self.lobby.draw(self.table.stage == Stage.WAITING, self.trouble)

    def drive(self) -> None:
        """One frame: take the server's messages in (never waiting for one), then show
        the next update once the table is ready for it."""
        if self.left:
            return
        self.inbox.extend(self.remote.client.poll())
        if self.asked is not None and time.monotonic() > self.asked_at + ANSWER_WAIT:
            self.asked = None
            self.table.toast.show(
                _("The server did not answer in time; try again."), self.table.clock
            )
        if self.deal_done and not self.table.busy():
            self.deal_done = False
            self.end_of_deal()
        while self.inbox:
            msg = self.inbox[0]
            if msg.get("type") == "update" and not self.ready_for_update():
                return
            self.inbox.popleft()
            self.take(msg)

    def ready_for_update(self) -> bool:
        """Whether the next update may be shown now: no card moving, no deal's panel
        waiting to be closed, no Review screen, no panel over the table."""
        return not (
            self.table.busy()
            or self.deal_done
            or self.table.stage.over
            or self.table.overlay.is_open
        )

    def take(self, msg: dict[str, Any]) -> None:
        """One message from the server."""
        kind = msg.get("type")
        ref = msg.get("ref")
        if ref is not None and ref == self.asked:
            self.asked = None
            if kind == "error":
                self.table.toast.show(
                    _("Refused: {problem}.").format(problem=msg.get("message")),
                    self.table.clock,
                    4.5,
                )
                return
        if kind == "update":
            self.show(self.remote.absorb(msg))
        elif kind == "players":
            self.remote.absorb(msg)
            self.table.rebuild()  # the players changed: their names and plates again
        elif kind == CONNECTION:
            self.remote.absorb(msg)  # its words are the line over the felt, below
            state = msg.get("state")
            if state == "lost":
                self.trouble = _("Connection lost: reconnecting…")
                self.asked = None
            elif state == "back":
                self.trouble = ""
                self.table.toast.show(_("Reconnected."), self.table.clock)
            else:
                self.trouble = _("The connection is closed: {problem}. Esc: the menu.").format(
                    problem=self.remote.closed
                )
        elif kind == "explained":
            reason, card = msg.get("reason"), msg.get("card")
            if isinstance(reason, str) and isinstance(card, str):
                reason = shown(Message.from_json(msg.get("message")) or reason)
                with contextlib.suppress(CardParseError):
                    card = show_card(parse_card(card))
                self.table.toast.show(
                    _("You cannot play {card}: {reason}.").format(card=card, reason=reason),
                    self.table.clock,
                    4.5,
                )
        elif kind == "record":
            record = msg.get("record")
            if isinstance(record, dict):
                self.save_record(record)
        elif kind == "error":
            self.table.toast.show(
                _("Server: {problem}.").format(problem=msg.get("message")), self.table.clock, 4.5
            )

    def show(self, events: list[Event]) -> None:
        """Show an update: the seat's new view, animated, with the words of the events."""
        view = self.remote.latest_view
        if view is None:
            return
        if self.table.stage == Stage.WAITING or any(e.kind == DEAL for e in events):
            self.table.go_to(Stage.PLAY)
            self.table.deal_panel.close()
            self.table.clear_bubbles()
            self.table.board.clear()
        self.table.hint = None
        self.table.view = view
        self.kept.scores = self.remote.scores
        won: Trick | None = None
        for e in events:
            if e.kind == TRICK:
                won = e.trick
            elif e.kind == SCORE and e.score is not None:
                self.deal_done = True
            elif e.kind == MATCH_OVER:
                self.kept.result = e.result
            elif e.kind == REDEAL:
                self.table.toast.show(
                    _("Both players passed twice: the cards are gathered and dealt again.")
                    if self.table.seats == 2
                    else _("Everybody passed twice: the cards are gathered and dealt again."),
                    self.table.clock,
                )
            else:
                tell(self.table, e, view)
        self.table.relayout(won, animate=True)
        self.table.after_change()

    def end_of_deal(self) -> None:
        """The deal's last trick has gone to its winner: its panel (the match's result
        when it is over; the record is asked for then)."""
        self.table.go_to(after_deal(self.kept.result is not None))
        if self.table.stage == Stage.MATCH_OVER and not self.record_saved:
            self.remote.client.send({"type": "record"})
        self.table.after_change()
        self.table.open_deal_panel()

    def save_record(self, record: dict[str, Any]) -> None:
        """Keep the match record the server sent, as the terminal does."""
        if self.record_saved or not self.table.app.persist:
            return
        self.record_saved = True
        try:
            path = write_new(
                savegame.records_dir(),
                f"{self.remote.game}-table-{self.remote.code}",
                record_text(record),
            )
        except (OSError, AtoutError) as exc:
            self.table.toast.show(
                _("The match record could not be saved: {problem}").format(problem=exc),
                self.table.clock,
                6,
            )
            return
        self.table.toast.show(
            _("The match record is saved in {file}.").format(file=path.name), self.table.clock, 6
        )

    def start_deal(self) -> None:
        """The person closes the deal's panel: the next deal (the server has dealt it)."""
        if self.table.stage == Stage.DEAL_OVER:
            self.table.deal_panel.close()
            self.table.go_to(Stage.PLAY)
            self.table.after_change()

    def new_match(self) -> None:
        """A network table's match is the server's: leaving it goes back to the start."""
        self.table.to_menu()

    def next_deal_key(self) -> None:
        if self.table.stage == Stage.DEAL_OVER:
            self.start_deal()
        elif self.table.stage == Stage.MATCH_OVER:
            self.table.to_menu()
        else:
            self.table.toast.show(
                _("Finish this deal first (Esc opens the menu)."), self.table.clock
            )

    def start_now(self) -> None:
        """The host starts the table now: the bots play the empty seats."""
        token = self.link.host_token
        if token is not None and self.table.stage == Stage.WAITING:
            self.remote.client.send({"type": "start", "table": self.remote.code, "host": token})
            self.table.toast.show(_("Starting: the bots take the empty seats."), self.table.clock)

    def leave(self) -> None:
        """The table is left: the connection closes (the seat goes to the table's bot
        after the server's grace period) and a hosted server stops."""
        if self.left:
            return
        self.left = True
        self.link.close()

    # --- the person's actions ------------------------------------------------------------

    def send(self, action: Action) -> None:
        """Send the seat's action for the position on the table (one at a time)."""
        if self.asked is not None or self.table.you is None:
            return
        ref = self.remote.client.new_ref()
        self.asked, self.asked_at = ref, time.monotonic()
        self.remote.client.send(
            {
                "type": "act",
                "seat": self.table.you,
                "deal": self.remote.deal,
                "step": self.remote.step,
                "action": action_to_json(action),
                "ref": ref,
            }
        )

    def acting(self) -> View | None:
        """The view when this seat may act now (its turn, the table ready), else ``None``."""
        view = self.table.view
        if (
            view is None
            or self.table.stage != Stage.PLAY
            or self.inbox
            or self.deal_done
            or self.trouble
        ):
            return None
        if self.table.you is None or view.turn != self.table.you or self.asked is not None:
            return None
        return view if view.phase in ("bidding", "play") else None

    def human_bid(self, bid: str) -> None:
        view = self.acting()
        if view is not None and view.phase == "bidding" and bid in view.legal_bids:
            self.send(Action.bid(bid))

    def claim(self) -> None:
        view = self.acting()
        if view is not None and view.can_claim:
            self.send(CLAIM)

    def click_card(self, card: int) -> None:
        view = self.table.view
        if view is None or self.table.stage != Stage.PLAY or not view.hand >> card & 1:
            return
        if self.table.input.refuse_not_yet(view, self.table.you):
            return
        if self.acting() is None:
            return
        if not view.legal >> card & 1:  # the server says why (the window knows no rule)
            self.remote.client.send({"type": "explain", "card": card_str(card)})
            return
        self.send(Action.play(card))

    def ask_hint(self) -> None:
        self.table.toast.show(_("No hints at a table with other people."), self.table.clock)

    def undo(self) -> None:
        self.table.toast.show(
            _("No undo at a table with other people: they have seen it."), self.table.clock
        )
