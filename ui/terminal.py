"""The terminal game: a person against bots, or against people over the network, in
plain text.

The game runs on a table: a local :class:`~atout.core.session.Session`, or a
:class:`~atout.ui.net.client.RemoteTable` on a table server (both are a :class:`Table`).
The person's input becomes an action sent to it, and what it answers (the
:class:`~atout.core.session.Event` list) is told in words; the table is drawn from the
person's view, and only what changed since it was last drawn is printed again.  Hints
and undo are the session's (:meth:`~atout.core.session.Session.hint`,
:meth:`~atout.core.session.Session.undo`).  Nothing here computes a rule or works out
what happened.

Hearts and diamonds are red where the terminal shows colour
(:func:`~atout.ui.display.terminal_colours`); the suit's symbol says it too, so nothing
is told by colour alone.
"""

from __future__ import annotations

import queue
import re
import sys
import threading
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
from atout.core.errors import AtoutError
from atout.core.model import Contract
from atout.core.model import MatchResult
from atout.core.session import ANNOUNCE
from atout.core.session import BID
from atout.core.session import CLAIM
from atout.core.session import CONTRACT
from atout.core.session import DEAL
from atout.core.session import MATCH_OVER
from atout.core.session import NOTICE
from atout.core.session import PLAY
from atout.core.session import REDEAL
from atout.core.session import SCORE
from atout.core.session import TRICK
from atout.core.session import TURN
from atout.core.session import UNDO
from atout.core.session import Event
from atout.core.session import for_seat

from .cards_text import HUMAN
from .cards_text import capital
from .cards_text import show_card
from .cards_text import show_cards
from .cards_text import suit_label
from .cards_text import team_long_name
from .display import terminal_colours
from .rules_text import rules_text
from .safe_text import printable

FACE_DOWN = "▒▒"

HELP = """\
Type a card as rank then suit: JH, 10S (or TS), J♥.  Bids: take, pass, or a suit
letter in round 2 (C clubs, D diamonds, H hearts, S spades: the trump you name).
  board   the table again (an empty line too)   last   the last trick
  hint    what the expert would do              undo   take back your last card
  score   the match score and this deal's       rules  the rules of the game
          points so far                         claim  claim the match (l'arrêt)
  review  the last finished deal, every decision valued (docs/review.md)
  help    this help                             quit   leave (the match is saved)
The legal cards are listed at each prompt; a card the rules forbid is refused with the
rule (must follow suit, must overtrump...).  The table is printed again when it changed.
In Découverte a card marked /▒ has a face-down card beneath it, turned once the card is
played and the trick is over.  With --auto (or "auto_forced": true in the settings
file) a card that is your only legal one is played for you."""

RED = "\x1b[31m"
RESET = "\x1b[0m"
RED_CARDS = re.compile(r"(?:10|[7-9JQKA])?[♥♦]")
"""A heart or a diamond: a card (``10♥``) or a suit's symbol alone."""


def paint(text: str) -> str:
    """``text`` with every heart and diamond (a card, or a suit's symbol) in red."""
    return RED_CARDS.sub(lambda m: f"{RED}{m.group()}{RESET}", text)


def third_person(verb: str) -> str:
    """``"plays"``, ``"passes"``: the verb as "North" says it."""
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")


def contract_words(contract: Contract) -> str:
    """A contract as a player says it: its trump (``♦ diamonds``), else its name."""
    if contract.trump is not None:
        return suit_label(contract.trump)
    return capital(contract.name.replace("-", " "))


class LineReader:
    """The person's lines, read in a background thread: a table on a server can be
    listened to (players joining, leaving, the table closing) while the person types.

    One line is read at a time, only when asked for: a line not yet typed when
    :meth:`get` gives up is the answer to the next :meth:`get`."""

    def __init__(self, inp: TextIO) -> None:
        self.inp = inp
        self._lines: queue.Queue[str] = queue.Queue()
        self._reading = False

    def get(self, timeout: float) -> str | None:
        """The next line (``""`` at the end of the input), or ``None`` when none came
        within ``timeout`` seconds."""
        if not self._reading:
            self._reading = True
            threading.Thread(target=self._read, name="atout-input", daemon=True).start()
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        self._reading = False
        return line

    def _read(self) -> None:
        try:
            line = self.inp.readline()
        except (OSError, ValueError):  # the input was closed
            line = ""
        self._lines.put(line)


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


@runtime_checkable
class Helping(Protocol):
    """A table that gives hints and takes back cards: a local session (at a table on a
    server the other people have seen the card)."""

    def hint(self, seat: int) -> object: ...
    def undo(self, seat: int) -> list[Event]: ...


class TerminalGame:
    """Runs a table in a terminal for the person at ``seat``, reading ``inp``; ``seat``
    -1 watches (a spectator of a remote table).

    ``colour``: red hearts and diamonds (``None``: when ``out`` is a terminal that shows
    colour).  ``auto_forced``: a card that is the person's only legal one is played
    for them.  ``lines``: the input read in the background (a table on a server is
    listened to while the person types); without it ``inp`` is read directly."""

    def __init__(
        self,
        session: Table,
        inp: TextIO = sys.stdin,
        out: TextIO = sys.stdout,
        seat: int = HUMAN,
        colour: bool | None = None,
        auto_forced: bool = False,
        lines: LineReader | None = None,
    ) -> None:
        self.session = session
        self.info = session.info
        self.inp = inp
        self.out = out
        self.seat = seat
        self.quit = False
        self.colour = terminal_colours(out) if colour is None else colour
        self.auto_forced = auto_forced
        self.lines = lines
        self.shown: dict[str, str] = {}
        """The table's parts as last printed (by part): a part is printed again only
        when it changed."""
        self.legends: set[str] = set()
        """The legend lines printed already (each once, then on ``board`` and ``help``)."""
        self.forced: Card | None = None
        """The card just played for the person as their only legal one."""
        self.prompt = ""

    def say(self, text: str = "") -> None:
        """Print a line; any control character in it is shown escaped (names, bids and
        reasons may come from a file or over the network), then red suits painted."""
        line = printable(text, keep_newlines=True)
        print(paint(line) if self.colour else line, file=self.out, flush=True)

    def name(self, seat: int) -> str:
        """``"You"``, else the player's name (a person's over the network), else the
        seat's (``"North"``)."""
        return "You" if seat == self.seat else self.session.seat_name(seat)

    def whose(self, seat: int) -> str:
        """``"Your"``, ``"North's"``."""
        return "Your" if seat == self.seat else f"{self.session.seat_name(seat)}'s"

    def does(self, seat: int, verb: str) -> str:
        """``"North plays"``, ``"You play"``: the seat's name with the verb agreeing."""
        if seat == self.seat:
            return f"You {verb}"
        return f"{self.session.seat_name(seat)} {third_person(verb)}"

    @property
    def keep_count(self) -> bool:
        """Under l'arrêt players keep count themselves (l'arrêt's rule: no looking back), so
        no running score is shown."""
        return bool(self.session.rules.get("arret"))

    # --- drawing -------------------------------------------------------------------------

    def show_table(self, view: View, full: bool = False) -> None:
        """The table as the person sees it: the parts that changed since they were last
        printed (``full``: every part, and the legend)."""
        if full:
            self.shown = {}
        if view.piles:
            self.show_legend(view, again=full)
        for part, text in self.table_parts(view):
            if self.shown.get(part) != text:
                self.say(text)
                self.shown[part] = text

    def table_parts(self, view: View) -> list[tuple[str, str]]:
        """The table as parts (each one or a few lines) by what they show."""
        trump = view.trump
        parts: list[tuple[str, str]] = []
        if view.piles:
            parts.append(("piles", self.piles_text(view)))
        else:
            counts = ", ".join(
                f"{self.name(s)} {n} card{'' if n == 1 else 's'}"
                for s, n in enumerate(view.hand_sizes)
                if s != self.seat
            )
            parts.append(("counts", f"  {counts}"))
            parts.append(("hand", f"  Your hand: {show_cards(view.hand, trump)}"))
        if view.phase == "bidding" and view.turnup is not None:
            turnup = f"{show_card(view.turnup)} ({SUIT_NAMES[view.turnup >> 3]})"
            parts.append(("turnup", f"  Proposed trump: {turnup}"))
        if view.contract is not None:
            c = view.contract
            words = contract_words(c) if c.trump is not None else f"{contract_words(c)}, no trump"
            parts.append(("contract", f"  Contract: {words}, taken by {self.name(c.taker)}"))
        if view.tricks and not self.keep_count:
            parts.append(("points", f"  Card points so far: {self.deal_points(view)}"))
        if view.trick:
            played = ", ".join(f"{self.name(s)} {show_card(c)}" for s, c in view.trick)
            parts.append(("trick", f"  Trick: {played}"))
        return parts

    def deal_points(self, view: View) -> str:
        """The card points of the deal so far by team: ``You & North 35, East & West 22``."""
        return ", ".join(f"{n} {p}" for n, p in zip(self.team_names(), view.points, strict=True))

    def piles_text(self, view: View) -> str:
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
        return "\n".join(
            [
                f"  {self.name(other):6} far : {row(other, range(4, 8))}",
                f"  {'':6} near: {row(other, range(0, 4))}",
                "  " + "-" * 50,
                f"  {'You':6} near: {row(self.seat, range(0, 4))}",
                f"  {'':6} far : {row(self.seat, range(4, 8))}",
            ]
        )

    def show_legend(self, view: View, again: bool = False) -> None:
        """What the piles' marks mean: each line the first time it applies, and again on
        ``board`` and ``help`` (``again``)."""
        lines = [
            f"  ({FACE_DOWN[0]} marks a face-down card beneath; nobody knows it until it is turned)"
        ]
        if any(p.top is None and p.covered for r in view.piles for p in r):
            lines.append(
                f"  ({FACE_DOWN}: a face-down card whose cover was just played, "
                "turned after the trick)"
            )
        for line in lines:
            if again or line not in self.legends:
                self.say(line)
                self.legends.add(line)

    def show_scores(self) -> None:
        """The match score (not under l'arrêt: players keep count themselves)."""
        if self.keep_count:
            self.say("  (l'arrêt is on: keep count of the match score yourself)")
            return
        line = ", ".join(
            f"{n} {s}" for n, s in zip(self.team_names(), self.session.scores, strict=True)
        )
        self.say(f"  Match: {line} (target {self.session.rules.get('target', '?')})")

    def show_score(self, view: View) -> None:
        """The ``score`` command: the match score, then the deal's contract and card
        points so far, in words (not under l'arrêt: players keep count themselves)."""
        if self.keep_count:
            self.show_scores()
            return
        n = self.session.deals_scored
        self.show_scores()
        self.say(f"  {n} deal{'' if n == 1 else 's'} scored so far.")
        if view.phase == "bidding":
            self.say("  This deal: the bidding is on; no card has been played.")
            return
        if view.contract is not None:
            c = view.contract
            self.say(f"  This deal: {contract_words(c)}, taken by {self.name(c.taker)}.")
        t = len(view.tricks)
        if t == 0:
            self.say("  No trick has been won yet in this deal.")
        else:
            after = f"after {t} trick{'' if t == 1 else 's'}"
            self.say(f"  Card points {after}: {self.deal_points(view)}.")

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
        told = for_seat(events, self.seat)
        for i, e in enumerate(told):
            if e.kind == CONTRACT and i and told[i - 1].kind == BID:
                continue  # the bid that made the contract said it
            following = told[i + 1] if i + 1 < len(told) else None
            if e.kind == BID and following is not None and following.kind == CONTRACT:
                self.say(self.bid_words(e.seat, e.text, following.contract))
            else:
                self.tell_one(e)

    def bid_words(self, seat: int, bid: str, contract: Contract | None = None) -> str:
        """A bid as a player says it: "You pass.", "North takes ♦ diamonds." (the
        ``contract`` the bid made, when it made one)."""
        if bid == "pass":
            return f"{self.does(seat, 'pass')}."
        if contract is not None:
            return f"{self.does(seat, 'take')} {contract_words(contract)}."
        if bid == "take":
            return f"{self.does(seat, 'take')}."
        if len(bid) == 1 and bid in SUITS:
            return f"{self.does(seat, 'name')} {suit_label(SUITS.index(bid))}."
        return f"{self.does(seat, 'bid')} {bid}."

    def tell_one(self, e: Event) -> None:
        if e.kind == DEAL:
            self.shown = {}  # a new deal: the whole table again
            self.say("")
            self.say(f"=== Deal {e.deal}: {self.does(e.seat, 'deal')} ===")
        elif e.kind == BID:
            self.say(self.bid_words(e.seat, e.text))
        elif e.kind == CONTRACT and e.contract is not None:
            self.say(f"{self.does(e.seat, 'take')} {contract_words(e.contract)}.")
        elif e.kind == PLAY and e.card is not None:
            forced = e.seat == self.seat and e.card == self.forced
            self.forced = None
            why = " (your only legal card)" if forced else ""
            self.say(f"{self.does(e.seat, 'play')} {show_card(e.card)}{why}.")
        elif e.kind == UNDO:
            more = e.points - 1
            after = f" and the {more} action{'' if more == 1 else 's'} after it" if more else ""
            their = "your" if e.seat == self.seat else "their"
            self.say(f"{self.does(e.seat, 'take')} back {their} last card{after}.")
        elif e.kind == CLAIM:
            self.say(f"{self.does(e.seat, 'claim')} the match (l'arrêt)!")
        elif e.kind == ANNOUNCE:
            self.say(f"  {self.does(e.seat, 'announce')}: {e.text}")
        elif e.kind == TRICK:
            self.say(f"  {self.does(e.seat, 'win')} the trick ({e.points} points).")
        elif e.kind == TURN and e.card is not None:
            self.say(f"  {self.whose(e.seat)} face-down card is turned: {show_card(e.card)}")
        elif e.kind == REDEAL:
            everybody = "both players" if self.info.seats == 2 else "everybody"
            self.say(f"Redeal: {everybody} passed; the cards are gathered and dealt again.")
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
        """The person's answer to ``prompt`` (``None``: the input ended, or the table on
        the server closed meanwhile)."""
        self.prompt = prompt
        self.write_prompt()
        line = self.read_line()
        if not line:
            self.quit = True
            return None
        return line.strip()

    def write_prompt(self) -> None:
        text = printable(self.prompt)
        self.out.write(paint(text) if self.colour else text)
        self.out.flush()

    def read_line(self) -> str:
        """The person's next line (``""``: none will come).  A table on a server is
        listened to meanwhile: what it tells (a player joining or leaving) is printed
        above the prompt, and a table closed ends the wait."""
        lines = self.lines
        session = self.session
        if lines is None:
            return self.inp.readline()
        while True:
            line = lines.get(0.25)
            if line is not None:
                return line
            if not isinstance(session, Waiting):
                continue
            events = for_seat(session.wait(0.0), self.seat)
            if events:
                self.out.write("\n")
                self.tell(events)
                self.write_prompt()
            if session.closed:
                self.out.write("\n")
                return ""

    def person_action(self) -> Action | None:
        """Ask the person for an action until a legal one is given (``None``: quit).
        A card that is the only legal one is played at once when the person chose so
        (``auto_forced``)."""
        while True:
            view = self.session.view(self.seat)
            forced = view.legal if view.legal & (view.legal - 1) == 0 else 0
            if self.auto_forced and view.phase == "play" and forced and not view.can_claim:
                self.forced = forced.bit_length() - 1
                return Action.play(self.forced)
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
        if view.phase == "bidding":  # first: the bid H (hearts) is not the command h (help)
            for bid in view.legal_bids:
                if word == bid.lower():
                    return Action.bid(bid)
        if word in ("", "board"):
            self.show_table(view, full=True)  # an empty line: the table again, no complaint
            return None
        if word in ("q", "quit", "exit"):
            self.quit = True
            return None
        if word in ("?", "h", "help"):
            self.say(HELP)
            if view.piles:
                self.show_legend(view, again=True)
            return None
        command = COMMANDS.get(word)
        if command is not None:
            command(self, view)
            return None
        if view.phase == "bidding":
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

    # --- the commands --------------------------------------------------------------------

    def action_words(self, action: object, view: View) -> str:
        """An action as the hint says it: "play J♥", "take ♣ clubs", "pass"."""
        if not isinstance(action, Action):
            return str(action)
        if action.kind == "play":
            return f"play {show_card(action.value)}"
        if action.kind == "bid":
            bid = str(action.value)
            if bid == "take" and view.turnup is not None:
                return f"take {suit_label(view.turnup >> 3)}"
            if len(bid) == 1 and bid in SUITS:
                return f"take {suit_label(SUITS.index(bid))}"
            return bid
        return "claim the match (l'arrêt)" if action.kind == "claim" else str(action)

    def show_hint(self, view: View) -> None:
        """The ``hint`` command: what the expert would do here, with its reason when
        the session gives one."""
        session = self.session
        if not isinstance(session, Helping):
            self.say("  No hint at a table with other people.")
            return
        self.say("  (the expert is thinking...)")
        try:
            answer = session.hint(self.seat)
        except AtoutError as exc:
            self.say(f"  No hint: {exc}.")
            return
        action = getattr(answer, "action", answer)
        reason = str(getattr(answer, "reason", "") or "").strip().rstrip(".")
        words = self.action_words(action, view)
        self.say(f"  Hint: {words} — {reason}." if reason else f"  Hint: {words}.")

    def take_back(self, view: View) -> None:
        """The ``undo`` command: the session takes back the person's last card, or says
        why it will not."""
        session = self.session
        if not isinstance(session, Helping):
            self.say("  No undo at a table with other people: they have seen your card.")
            return
        try:
            events = session.undo(self.seat)
        except IllegalMoveError as exc:
            self.say(f"  {capital(str(exc).rstrip('.'))}.")
            return
        self.tell(events)
        self.shown = {}  # the table as it stands again, whole

    def show_rules_text(self, view: View) -> None:
        self.say(rules_text(self.session.rules, getattr(self.session, "engine", None)))

    # --- the match -----------------------------------------------------------------------

    def closed(self) -> str:
        """Why the table on a server cannot be reached any more ("" while it can)."""
        session = self.session
        return session.closed if isinstance(session, Waiting) else ""

    def run(self) -> int:
        """Play until the match is over or the person quits (1: the table on a server
        was closed, and the person was told why)."""
        session = self.session
        while not self.quit and session.result is None:
            if self.closed():
                break
            if session.needs_deal:
                self.tell(session.next_deal())
            seat = session.to_act
            if seat is None or (seat != self.seat and not session.is_bot(seat)):
                if not isinstance(session, Waiting):
                    break  # a local table always has someone to act until the match ends
                self.tell(session.wait(1.0))
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
        if self.closed():
            self.quit = False
            self.say(f"The table cannot be reached any more ({self.closed()}).")
            return 1
        return 0


COMMANDS: dict[str, Callable[[TerminalGame, View], None]] = {
    "last": TerminalGame.show_last_trick,
    "hint": TerminalGame.show_hint,
    "undo": TerminalGame.take_back,
    "score": TerminalGame.show_score,
    "rules": TerminalGame.show_rules_text,
    "review": lambda game, view: review_last_deal(game),
}
"""The commands typed at a prompt besides a card, a bid, ``board``, ``help`` and
``quit``: each answers in words (``undo`` takes back a card through the session)."""


# --- the review of the last deal -----------------------------------------------------------


def review_last_deal(game: TerminalGame) -> None:
    """Print the review of the table's last finished deal (``review`` at a prompt): the
    person's decisions as ``atout review`` prints them, line by line as each decision is
    valued; Ctrl-C stops it.
    A local session knows its deals; a table on a server does not keep them here, so
    there the person is told to review the saved record instead."""
    from atout.core.records import deal_to_record
    from atout.plugins.review import DealReview
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
