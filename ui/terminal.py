"""The terminal game: a person against bots, or against people over the network, in
plain text.

The game runs on a table: a local :class:`~atout.core.session.Session`, or a
:class:`~atout.ui.net.client.RemoteTable` on a table server (both are a :class:`Table`).
The person's input becomes an action sent to it, and what it answers (the
:class:`~atout.core.session.Event` list) is told in words; the table is drawn from the
person's view.  Nothing here computes a rule or works out what happened.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Iterable
from typing import Protocol
from typing import TextIO
from typing import runtime_checkable

from atout.core import Action
from atout.core import CardParseError
from atout.core import GameInfo
from atout.core import IllegalMoveError
from atout.core import Rules
from atout.core import View
from atout.core import parse_card
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import sort_for_display
from atout.core.model import MatchResult
from atout.core.session import ANNOUNCE
from atout.core.session import BID
from atout.core.session import CLAIM
from atout.core.session import DEAL
from atout.core.session import MATCH_OVER
from atout.core.session import NOTICE
from atout.core.session import PLAY
from atout.core.session import REDEAL
from atout.core.session import SCORE
from atout.core.session import TRICK
from atout.core.session import TURN
from atout.core.session import Event
from atout.core.session import for_seat

from .cards_text import HUMAN
from .cards_text import show_card
from .cards_text import show_cards
from .cards_text import team_long_name
from .safe_text import printable

FACE_DOWN = "▒▒"

HELP = """\
Type a card as rank then suit: JH, 10S (or TS), J♥.  Bids: take, pass, or a suit
letter in round 2 (C clubs, D diamonds, H hearts, S spades: the trump you name).
  last    the last trick           claim  claim the match (l'arrêt), when offered
  help    this help                quit   leave (the match record is saved)
  review  the last finished deal, every decision valued (docs/review.md)
  (an empty line shows the table again)
The legal cards are listed at each prompt; a card the rules forbid is refused with the
rule (must follow suit, must overtrump...).  In Découverte a card marked /▒ has a
face-down card beneath it, turned once the card is played and the trick is over."""


class Table(Protocol):
    """What the terminal needs of a table: a local :class:`Session` is one, and so is a
    :class:`~atout.ui.net.client.RemoteTable` (a table on a server, seen by one seat)."""

    @property
    def info(self) -> GameInfo: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def result(self) -> MatchResult | None: ...
    @property
    def needs_deal(self) -> bool: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def deals_scored(self) -> int: ...
    def seat_name(self, seat: int) -> str: ...
    def view(self, seat: int) -> View: ...
    def explain(self, card: Card) -> str | None: ...
    def act(self, seat: int, action: Action) -> list[Event]: ...
    def next_deal(self) -> list[Event]: ...
    def is_bot(self, seat: int) -> bool: ...
    def bot_question(self, seat: int) -> Callable[[], Action]: ...
    def bot_answer(self, seat: int, answer: object) -> list[Event]: ...


@runtime_checkable
class Waiting(Protocol):
    """A table whose other seats act elsewhere (people over the network): the terminal
    waits for their events."""

    closed: str
    """Why the table can no longer be reached ("" while it can)."""

    def wait(self, timeout: float = 1.0) -> list[Event]: ...


class TerminalGame:
    """Runs a table in a terminal for the person at ``seat``, reading ``inp``; ``seat``
    -1 watches (a spectator of a remote table)."""

    def __init__(
        self,
        session: Table,
        inp: TextIO = sys.stdin,
        out: TextIO = sys.stdout,
        seat: int = HUMAN,
    ) -> None:
        self.session = session
        self.info = session.info
        self.inp = inp
        self.out = out
        self.seat = seat
        self.quit = False

    def say(self, text: str = "") -> None:
        """Print a line; any control character in it is shown escaped (names, bids and
        reasons may come from a file or over the network)."""
        print(printable(text, keep_newlines=True), file=self.out, flush=True)

    def name(self, seat: int) -> str:
        """``"You"``, else the player's name (a person's over the network), else the
        seat's (``"North"``)."""
        return "You" if seat == self.seat else self.session.seat_name(seat)

    def whose(self, seat: int) -> str:
        """``"Your"``, ``"North's"``."""
        return "Your" if seat == self.seat else f"{self.session.seat_name(seat)}'s"

    def does(self, seat: int, verb: str) -> str:
        """``"North plays"``, ``"You play"``: the seat's name with the verb agreeing."""
        return f"You {verb}" if seat == self.seat else f"{self.session.seat_name(seat)} {verb}s"

    @property
    def keep_count(self) -> bool:
        """Under l'arrêt players keep count themselves (RULES.md: no looking back), so
        no running score is shown."""
        return bool(self.session.rules.get("arret"))

    # --- drawing -------------------------------------------------------------------------

    def show_table(self, view: View) -> None:
        """The table as the person sees it."""
        trump = view.trump
        if view.piles:
            self.show_piles(view)
        else:
            for seat in range(view.seats):
                if seat == self.seat:
                    continue
                n = view.hand_sizes[seat]
                self.say(f"  {self.name(seat):6} {n} card{'' if n == 1 else 's'}")
            self.say(f"  Your hand: {show_cards(view.hand, trump)}")
        if view.phase == "bidding" and view.turnup is not None:
            self.say(f"  Proposed trump: {show_card(view.turnup)} ({SUIT_NAMES[view.turnup >> 3]})")
        if view.contract is not None:
            c = view.contract
            trumps = f"trump {SUIT_NAMES[c.trump]}" if c.trump is not None else "no single trump"
            self.say(f"  Contract: {c.name} ({trumps}), taken by {self.name(c.taker)}")
        if view.tricks and not self.keep_count:
            points = ", ".join(
                f"{n} {p}" for n, p in zip(self.team_names(), view.points, strict=True)
            )
            self.say(f"  Card points so far: {points}")
        if view.trick:
            played = ", ".join(f"{self.name(s)} {show_card(c)}" for s, c in view.trick)
            self.say(f"  Trick: {played}")

    def show_piles(self, view: View) -> None:
        """Découverte's piles: the opponent's far and near rows, the line, ours."""

        def row(seat: int, positions: range) -> str:
            cells = []
            for i in positions:
                p = view.piles[seat][i]
                if p.top is None and p.covered:
                    cells.append(f"[{FACE_DOWN}  ]")
                elif p.top is None:
                    cells.append("[    ]")
                else:
                    under = "/" + FACE_DOWN[0] if p.covered else "  "
                    cells.append(f"[{show_card(p.top):>3}{under}]"[:7].ljust(7))
            return " ".join(cells)

        other = 1 - self.seat
        self.say(f"  {self.name(other):6} far : {row(other, range(4, 8))}")
        self.say(f"  {'':6} near: {row(other, range(0, 4))}")
        self.say("  " + "-" * 50)
        self.say(f"  {'You':6} near: {row(self.seat, range(0, 4))}")
        self.say(f"  {'':6} far : {row(self.seat, range(4, 8))}")
        self.say(
            f"  ({FACE_DOWN[0]} marks a face-down card beneath; nobody knows it until it is turned)"
        )
        if any(p.top is None and p.covered for r in view.piles for p in r):
            self.say(
                f"  ({FACE_DOWN}: a face-down card whose cover was just played, turned after the trick)"
            )

    def show_scores(self) -> None:
        """The match score (not under l'arrêt: players keep count themselves)."""
        if self.keep_count:
            self.say("  (l'arrêt is on: keep count of the match score yourself)")
            return
        line = "   ".join(
            f"{n}: {s}" for n, s in zip(self.team_names(), self.session.scores, strict=True)
        )
        self.say(f"  Match: {line}  (target {self.session.rules.get('target', '?')})")

    def team_names(self) -> list[str]:
        """Each team by its players, the person's seat called "You" ("You & North")."""
        info = self.info
        if self.seat == HUMAN:
            return [team_long_name(info, t) for t in range(info.teams)]
        return [
            " & ".join(self.name(s) for s in range(info.seats) if s % info.teams == t)
            for t in range(info.teams)
        ]

    def show_last_trick(self, view: View) -> None:
        if not view.tricks:
            self.say("  No trick has been played yet.")
            return
        t = view.tricks[-1]
        seats = t.seats(view.seats, view.direction)
        cards = ", ".join(
            f"{self.name(s)} {show_card(c)}" for s, c in zip(seats, t.cards, strict=True)
        )
        self.say(f"  Last trick: {cards}; won by {self.name(t.winner)} ({t.points} points)")

    # --- telling the events --------------------------------------------------------------

    def tell(self, events: Iterable[Event]) -> None:
        """Say in words what the session answered (only what this seat may know)."""
        for e in for_seat(events, self.seat):
            self.tell_one(e)

    def tell_one(self, e: Event) -> None:
        if e.kind == DEAL:
            number = self.session.deals_scored + 1
            self.say("")
            self.say(f"=== Deal {number}: {self.does(e.seat, 'deal')} ===")
        elif e.kind == BID:
            self.say(f"{self.does(e.seat, 'bid')} {e.text}.")
        elif e.kind == PLAY and e.card is not None:
            self.say(f"{self.does(e.seat, 'play')} {show_card(e.card)}.")
        elif e.kind == CLAIM:
            self.say(f"{self.does(e.seat, 'claim')} the match (l'arrêt)!")
        elif e.kind == ANNOUNCE:
            self.say(f"  {self.does(e.seat, 'announce')}: {e.text}")
        elif e.kind == TRICK:
            self.say(f"  {self.does(e.seat, 'win')} the trick ({e.points} points).")
        elif e.kind == TURN and e.card is not None:
            self.say(f"  {self.whose(e.seat)} face-down card is turned: {show_card(e.card)}")
        elif e.kind == REDEAL:
            everybody = "Both players" if self.info.seats == 2 else "Everybody"
            self.say(f"{everybody} passed twice: the cards are gathered and dealt again.")
        elif e.kind == SCORE and e.score is not None:
            self.tell_score(e)
        elif e.kind == MATCH_OVER and e.result is not None:
            r = e.result
            if r.winner is None:
                self.say(f"The match is drawn: {r.reason}.")
            else:
                winners = self.team_names()[r.winner]
                verb = "win" if winners == "You" or "&" in winners else "wins"
                self.say(f"{winners} {verb} the match: {r.reason}.")
        elif e.kind == NOTICE:
            self.say(f"  ({e.text})")

    def tell_score(self, e: Event) -> None:
        sc = e.score
        assert sc is not None
        self.say("")
        self.say(f"--- End of the deal: {sc.outcome} ---")
        for team, name in enumerate(self.team_names()):
            self.say(
                f"  {name}: card points {sc.card_points[team]}, declarations "
                f"{sc.declaration_points[team]}, scores {sc.score[team]}"
            )
        for note in sc.notes:
            self.say(f"  ({note})")
        self.show_scores()

    # --- input ---------------------------------------------------------------------------

    def ask(self, prompt: str) -> str | None:
        self.out.write(printable(prompt))
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.quit = True
            return None
        return line.strip()

    def person_action(self) -> Action | None:
        """Ask the person for an action until a legal one is given (``None``: quit)."""
        while True:
            view = self.session.view(self.seat)
            self.show_table(view)
            if view.phase == "bidding":
                text = self.ask(f"  Your bid ({self.bid_choices(view)}): ")
            else:
                legal = " ".join(show_card(c) for c in sort_for_display(view.legal))
                extra = " / claim" if view.can_claim else ""
                text = self.ask(f"  Your card (legal: {legal}){extra}: ")
            if text is None:
                return None
            action = self.read_action(text, view)
            if action is not None or self.quit:
                return action

    def bid_choices(self, view: View) -> str:
        """The bids at the prompt; a suit letter says which trump it names."""
        named = [b for b in view.legal_bids if len(b) == 1 and b in SUITS]
        words = [
            f"{b} = {SUIT_NAMES[SUITS.index(b)]}" if b in named else b for b in view.legal_bids
        ]
        return ("name a trump: " if named else "") + " / ".join(words)

    def read_action(self, text: str, view: View) -> Action | None:
        """The action ``text`` means, or ``None`` after answering a command or a mistake."""
        word = text.lower()
        if not word:
            return None  # an empty line: the table again, no complaint
        if word in ("q", "quit", "exit"):
            self.quit = True
            return None
        if word in ("?", "h", "help"):
            self.say(HELP)
            return None
        if word == "last":
            self.show_last_trick(view)
            return None
        if word == "review":
            review_last_deal(self)
            return None
        if view.phase == "bidding":
            for bid in view.legal_bids:
                if word == bid.lower():
                    return Action.bid(bid)
            self.say(f"  Not a bid now: {text!r}. The bids are: {', '.join(view.legal_bids)}")
            return None
        if word == "claim" and view.can_claim:
            return Action("claim")
        try:
            card = parse_card(text)
        except CardParseError as exc:
            self.say(f"  {exc}")
            return None
        reason = self.session.explain(card)
        if reason is not None:
            self.say(f"  You cannot play {show_card(card)}: {reason}.")
            return None
        return Action.play(card)

    # --- the match -----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match is over or the person quits."""
        session = self.session
        while not self.quit and session.result is None:
            if session.needs_deal:
                self.tell(session.next_deal())
            seat = session.to_act
            if seat is None or (seat != self.seat and not session.is_bot(seat)):
                if not isinstance(session, Waiting):
                    break  # a local table always has someone to act until the match ends
                self.tell(session.wait(1.0))
                if session.closed:
                    self.say(f"The table cannot be reached any more ({session.closed}).")
                    return 1
                continue
            if session.is_bot(seat):
                try:
                    answer: object = session.bot_question(seat)()
                except Exception as exc:  # a broken bot: the session plays for it
                    answer = exc
                self.tell(session.bot_answer(seat, answer))
                continue
            action = self.person_action()
            if action is None:
                break
            try:
                self.tell(session.act(seat, action))
            except IllegalMoveError as exc:  # the engine re-checks every action
                self.say(f"  {exc}")
        return 0


# --- the review of the last deal -----------------------------------------------------------


def review_last_deal(game: TerminalGame) -> None:
    """Print the review of the table's last finished deal (``review`` at a prompt): the
    person's decisions as ``atout review`` prints them, line by line as each decision is
    valued; Ctrl-C stops it.
    A local session knows its deals; a table on a server does not keep them here, so
    there the person is told to review the saved record instead."""
    from atout.core.records import deal_to_record
    from atout.plugins.bots.review import DealReview
    from atout.ui.commands.review import review_lines

    match = getattr(game.session, "match", None)
    deals = [d for d in getattr(match, "deals", ()) if d.is_over and d.actions]
    if not deals:
        game.say("  No finished deal to review yet (a table on a server: atout review RECORD).")
        return
    record = deal_to_record(deals[-1])
    review = DealReview(deals[-1].engine, record, seats=frozenset({game.seat}))
    lines = review_lines(review, game.info, game.name)
    try:
        for line in lines:
            game.say(printable(line))
    except KeyboardInterrupt:
        lines.close()
        game.say("  (review stopped)")
