"""The client side: a remote table over a connection any front end can use.

:class:`RemoteTable` gives the terminal game what it needs of a table (the view, acting,
the events) over a :class:`~atout.ui.net.connection.Client` (which this module also
offers, with :class:`~atout.ui.net.connection.NetworkError`, :data:`CONNECTION` and
:func:`create_table`): it is to a server's table what a
:class:`~atout.core.session.Session` is to a local match.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from atout.core import Action
from atout.core import GameInfo
from atout.core import IllegalMoveError
from atout.core import View
from atout.core.cards import Card
from atout.core.cards import card_str
from atout.core.model import DealScore
from atout.core.model import MatchResult
from atout.core.session import SCORE
from atout.core.session import Event
from atout.core.session import NoticeEvent
from atout.core.text import Message

from ..cards_text import seat_word
from ..i18n import _
from ..i18n import pgettext
from . import protocol as p
from .connection import CONNECTION as CONNECTION
from .connection import Client as Client
from .connection import NetworkError as NetworkError
from .connection import create_table as create_table

# --- the table seen from a client ------------------------------------------------------


class RemoteTable:
    """A table on a server, seen by one seat (or a spectator): what the terminal game
    needs of a table, over a :class:`Client`.

    The server plays the bots and deals; this object sends the person's actions and
    turns the server's ``update`` messages back into :class:`Event` lists and a
    :class:`View`.
    """

    def __init__(
        self, client: Client, table: str, token: str | None = None, name: str = ""
    ) -> None:
        self.client = client
        self.code = table
        msg: dict[str, Any] = {"type": "join", "table": table, "name": name}
        if token is not None:
            msg["token"] = token
        joined = client.request(msg)
        self.seat: int | None = joined.get("seat")
        self.game: str = joined["game"]
        self.rules = p.rules_from_json(joined["rules"])
        names = tuple(str(n) for n in joined.get("seat_names", ()))
        self.info = GameInfo(
            self.game,
            str(joined.get("title", self.game)),
            int(joined["seats"]),
            int(joined["teams"]),
            "",
            seat_names=names,
        )
        self.bot_level = str(joined.get("bot", ""))
        self.bot_title = self.bot_level
        """The bot's level as a person reads it: a front end that has the engine's bots
        sets its title in the language (:func:`atout.ui.messages.bot_title`)."""
        self.scored: list[DealScore] = scored_deals(joined)
        """The score of every deal of the match scored so far, the first first: those
        scored before this client joined (the ``joined`` message) and each ``score``
        event since (what a score sheet shows)."""
        self._view: View | None = None
        self.deal = 0
        self.step = 0
        self._to_act: int | None = None
        self._scores: tuple[int, ...] = (0,) * self.info.teams
        self._result: MatchResult | None = None
        self.deals_scored = 0
        self.started = False
        self.players: list[dict[str, Any]] = []
        self._people_seen: set[int] = set()
        """The seats a person has held since this client joined (one coming again to
        such a seat is back)."""
        self.closed = ""
        """Why the connection is closed for good ("" while it is not)."""
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:  # where the table stands, before anything else
            got = client.get(max(0.0, deadline - time.monotonic()))
            if got is None:
                break
            self.absorb(got)
            if got.get("type") == "update":
                break

    # --- what stands -------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.info.seats

    @property
    def scores(self) -> tuple[int, ...]:
        return self._scores

    @property
    def result(self) -> MatchResult | None:
        return self._result

    @property
    def to_act(self) -> int | None:
        """The seat to act, once every message received has been taken in (``None``
        while some wait for :meth:`wait`: the state here is not the latest yet)."""
        return None if self.pending else self._to_act

    @property
    def pending(self) -> bool:
        """Whether messages from the server wait to be taken in (:meth:`wait`)."""
        return not self.client.inbox.empty()

    @property
    def needs_deal(self) -> bool:
        """Always ``False``: the server deals."""
        return False

    def seat_name(self, seat: int) -> str:
        """The name of the player at ``seat`` as the server last told it (``players``),
        else the game's name for the seat (``North``)."""
        for player in self.players:
            if not isinstance(player, dict) or player.get("seat") != seat:
                continue
            name = player.get("name")
            if isinstance(name, str) and name:
                return name
        return self.info.seat_name(seat)

    def view(self, seat: int) -> View:
        """The latest view the server sent (for this client's seat only)."""
        if self._view is None:
            raise IllegalMoveError("no deal has been dealt yet")
        if seat != self.seat:
            raise IllegalMoveError("a remote table shows only its own seat's view")
        return self._view

    @property
    def latest_view(self) -> View | None:
        """The latest view sent (a spectator's is the public one), if any."""
        return self._view

    def is_bot(self, seat: int) -> bool:
        """``False``: bots are played on the server."""
        return False

    def bot_question(self, seat: int) -> Any:
        raise IllegalMoveError("the server plays the bots of a remote table")

    def bot_answer(self, seat: int, answer: object) -> list[Event]:
        raise IllegalMoveError("the server plays the bots of a remote table")

    def next_deal(self) -> list[Event]:
        """Nothing: the server deals (the deal's events arrive through :meth:`wait`)."""
        return []

    # --- messages ----------------------------------------------------------------------------

    def absorb(self, msg: dict[str, Any]) -> list[Event]:
        """Take in one message from the server; the events it tells."""
        kind = msg.get("type")
        if kind == "update":
            self.deal = int(msg["deal"])
            self.step = int(msg["step"])
            self._to_act = msg.get("to_act")
            self._scores = tuple(int(s) for s in msg.get("scores", ()))
            self.deals_scored = int(msg.get("deals_scored", 0))
            self.started = bool(msg.get("started"))
            r = msg.get("result")
            self._result = (
                None
                if r is None
                else MatchResult(
                    r["winner"], Message.from_json(r.get("message")) or str(r["reason"])
                )
            )
            v = msg.get("view")
            self._view = None if v is None else p.view_from_json(v, self.game, self.rules)
            events = [Event.from_json(e) for e in msg.get("events", ())]
            self.scored.extend(deal_scores(events))
            return events
        if kind == "joined":
            # joined again after a lost connection: the deals scored meanwhile included
            self.scored[:] = scored_deals(msg)
        elif kind == "players":
            before, self.players = self.players, list(msg.get("players", ()))
            self.started = bool(msg.get("started"))
            return [NoticeEvent(deal=self.deal, text=t) for t in self.comings(before)]
        elif kind == CONNECTION:
            state = msg.get("state")
            if state == "closed":  # the front end says why (``closed``) and stops
                self.closed = str(msg.get("reason", "closed"))
                return []
            if state == "lost":
                self._to_act = None  # nothing to do until the server says where it stands
            text = (
                _("connection lost; reconnecting (for up to {seconds} s)...").format(
                    seconds=f"{self.client.reconnect_for:g}"
                )
                if state == "lost"
                else _("reconnected")
            )
            return [NoticeEvent(deal=self.deal, text=text)]
        elif kind == "error":
            return [
                NoticeEvent(
                    deal=self.deal,
                    text=_("server: {message}").format(message=msg.get("message")),
                )
            ]
        return []

    def comings(self, before: list[Any]) -> list[str]:
        """What changed at the other seats since the ``players`` list ``before``, in
        words: a player joined, left, came back, a bot took a seat.  The first list
        received says who is there already."""
        first = not before
        was = {p.get("seat"): p.get("state") for p in before if isinstance(p, dict)}
        bot = _("the {level} bot").format(level=self.bot_title) if self.bot_level else _("a bot")
        out = []
        for player in self.players:
            if not isinstance(player, dict) or player.get("seat") == self.seat:
                continue
            seat, state = player.get("seat"), player.get("state")
            if not isinstance(seat, int) or not 0 <= seat < self.seats:
                continue
            if state == was.get(seat):
                continue
            where = seat_word(self.info.seat_name(seat))
            name = player.get("name")
            who = (
                name if isinstance(name, str) and name and name != self.info.seat_name(seat) else ""
            )
            a_player = who or pgettext("at the table", "a player")
            the_player = who or pgettext("at the table", "the player")
            if state == "person":
                if first:
                    out.append(
                        _("{who} is at the table as {seat}").format(who=a_player, seat=where)
                    )
                elif seat in self._people_seen:
                    out.append(_("{who} is back at {seat}").format(who=the_player, seat=where))
                else:
                    out.append(
                        _("{who} joined the table as {seat}").format(who=a_player, seat=where)
                    )
                self._people_seen.add(seat)
            elif state == "away":
                out.append(
                    _("{who} left {seat}'s seat; {bot} takes it unless they come back soon").format(
                        who=the_player, seat=where, bot=bot
                    )
                )
            elif state == "bot" and was.get(seat) == "person":
                out.append(
                    _("{who} left {seat}'s seat; {bot} plays it now").format(
                        who=the_player, seat=where, bot=bot
                    )
                )
            elif state == "bot" and (first or was.get(seat) == "open"):
                out.append(_("{bot} plays {seat}").format(bot=bot, seat=where))
            elif state == "bot":
                out.append(_("{bot} plays {seat} now").format(bot=bot, seat=where))
        return out

    def wait(self, timeout: float = 1.0) -> list[Event]:
        """The events of the next message from the server, waiting up to ``timeout``
        seconds (an empty list when none came)."""
        msg = self.client.get(timeout)
        return [] if msg is None else self.absorb(msg)

    def act(self, seat: int, action: Action, timeout: float = 30.0) -> list[Event]:
        """Send the seat's action; the events up to and including its own (the server's
        refusal is an :class:`IllegalMoveError` with the server's words)."""
        ref = self.client.new_ref()
        self.client.send(
            {
                "type": "act",
                "seat": seat,
                "deal": self.deal,
                "step": self.step,
                "action": p.action_to_json(action),
                "ref": ref,
            }
        )
        events: list[Event] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self.client.get(max(0.0, deadline - time.monotonic()))
            if msg is None:
                break
            if msg.get("type") == "error" and msg.get("ref") == ref:
                raise IllegalMoveError(str(msg.get("message")))
            events.extend(self.absorb(msg))
            if msg.get("ref") == ref or self.closed:
                return events
        raise IllegalMoveError("the server did not answer in time; try again")

    def explain(self, card: Card) -> str | None:
        """Why this seat may not play ``card`` now (``None``: it may); the server's words
        when the view does not list it as legal."""
        view = self._view
        if view is not None and view.legal >> card & 1:
            return None
        try:
            answer = self.client.request({"type": "explain", "card": card_str(card)})
        except NetworkError as exc:
            return str(exc)
        reason = answer.get("reason")
        if reason is None:
            return None
        # the rule as a message: the front end shows it in the person's language
        return Message.from_json(answer.get("message")) or str(reason)

    def start(self, host: str) -> None:
        """Start the table (with the host token): the bots play the empty seats."""
        self.client.request({"type": "start", "table": self.code, "host": host})

    def record(self) -> dict[str, Any]:
        """The match record of the finished deals (the seed once the match is over)."""
        answer = self.client.request({"type": "record"})
        record: dict[str, Any] = answer["record"]
        return record

    def leave(self) -> None:
        """Leave the seat for good: the table's bot plays it at once (no grace period);
        the same token takes it back.  A server that cannot be reached is no matter."""
        with contextlib.suppress(NetworkError):
            self.client.request({"type": "leave"}, timeout=5.0)

    def close(self) -> None:
        self.client.close()


def deal_scores(events: list[Event]) -> list[DealScore]:
    """The deal scores the ``score`` events among ``events`` carry, in order."""
    return [e.score for e in events if e.kind == SCORE and e.score is not None]


def scored_deals(joined: dict[str, Any]) -> list[DealScore]:
    """The scores of the deals a ``joined`` message says were scored before (its
    ``scored`` list of ``score`` events; none from a server that sends no such list)."""
    return deal_scores([Event.from_json(e) for e in joined.get("scored", ())])
