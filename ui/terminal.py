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
(:func:`~atout.ui.display.terminal_colours`), or the four-colour deck's colours
(``four_colour``); the suit's symbol says it too, so nothing is told by colour alone.
The plain mode (``plain``) is for a screen reader: no box drawing, no colour, no table
printed again, one sentence per event and the cards in words.

Every text goes through the translation functions (:mod:`atout.ui.i18n`): whole
sentences for the person and for another seat (each language agrees its own verbs),
the cards in the language's letters (:mod:`atout.ui.cards_text`), and the commands and
bids typed in the language or in English.  What reaches the session is always the
language-free action (``JH``, ``take``), so records do not depend on the language.
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
from atout.core import Engine
from atout.core import GameInfo
from atout.core import IllegalMoveError
from atout.core import Rules
from atout.core import View
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import sort_for_display
from atout.core.errors import AtoutError
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_PASS
from atout.core.model import BidInfo
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
from .cards_text import bid_spoken
from .cards_text import bid_summary
from .cards_text import capital
from .cards_text import card_input_help
from .cards_text import card_name
from .cards_text import card_names
from .cards_text import read_bid
from .cards_text import read_card
from .cards_text import seat_word
from .cards_text import show_card
from .cards_text import show_cards
from .cards_text import suit_label
from .cards_text import suit_name
from .cards_text import suit_order
from .display import terminal_colours
from .i18n import _
from .i18n import ngettext
from .i18n import pgettext
from .rules_text import rules_text
from .safe_text import printable

FACE_DOWN = "▒▒"


def help_text(plain: bool = False) -> str:
    """The ``help`` command's text in the chosen language (``plain``: with the plain
    mode's commands, for a screen reader)."""
    lines = [
        _("Cards: {how}.").format(how=card_input_help()),
        _(
            "Bids: take, pass, or a suit letter in round 2 (C clubs, D diamonds, H hearts, "
            "S spades: the trump you name)."
        ),
        _(
            "An auction by values (La Coinche): a value and a suit, 90H or 90 ♥ or capot S "
            "(SA sans atout, TA tout atout); contre or coinche; surcontre; pass."
        ),
        _("  board   the table again (an empty line too)"),
        _("  last    the last trick"),
        _("  hint    what the expert would do"),
        _("  undo    take back your last card"),
        _("  score   the match score and this deal's points so far"),
        _("  rules   the rules of the game"),
        _("  claim   claim the match (l'arrêt)"),
        _("  review  the last finished deal, every decision valued (docs/review.md)"),
        _("  help    this help"),
        _("  quit    leave (the match is saved)"),
    ]
    if plain:
        lines += [
            _("  hand    your hand, in words"),
            _("  trick   the cards on the table, in words"),
            _("  piles   in Découverte, every pile in words"),
            _("  cards   the cards you may play, in words"),
        ]
    lines += [
        _(
            "The legal cards are listed at each prompt; a card the rules forbid is refused "
            "with the rule (must follow suit, must overtrump...)."
        ),
        _("The table is printed again when it changed.")
        if not plain
        else _("Each event is told in one sentence; the table is told on request (board)."),
        _(
            "In Découverte a card marked /▒ has a face-down card beneath it, turned once "
            "the card is played and the trick is over."
        )
        if not plain
        else _(
            "In Découverte a face-up card may have a face-down card beneath it, turned once "
            "the card is played and the trick is over."
        ),
        _(
            'With --auto (or "auto_forced": true in the settings file) a card that is your '
            "only legal one is played for you."
        ),
    ]
    return "\n".join(lines)


RED = "\x1b[31m"
BLUE = "\x1b[34m"
GREEN = "\x1b[32m"
RESET = "\x1b[0m"
RED_CARDS = re.compile(r"(?:10|[7-9A-Z])?[♥♦]")
"""A heart or a diamond: a card (``10♥``, ``V♦``) or a suit's symbol alone."""
SUIT_CARDS = re.compile(r"(?:10|[7-9A-Z])?[♥♦♣]")
"""A heart, a diamond or a club: what the four-colour deck paints."""
FOUR_COLOURS = {"♥": RED, "♦": BLUE, "♣": GREEN}
"""The four-colour deck: ♠ black (the terminal's own colour), ♥ red, ♦ blue, ♣ green."""


def paint(text: str, four_colour: bool = False) -> str:
    """``text`` with every heart and diamond (a card, or a suit's symbol) in red; with
    ``four_colour``, diamonds blue and clubs green too (the symbol still says the suit)."""
    if four_colour:
        return SUIT_CARDS.sub(lambda m: f"{FOUR_COLOURS[m.group()[-1]]}{m.group()}{RESET}", text)
    return RED_CARDS.sub(lambda m: f"{RED}{m.group()}{RESET}", text)


def contract_words(contract: Contract, plain: bool = False, bid: BidInfo | None = None) -> str:
    """A contract as a player says it: its trump (``♦ diamonds``; ``plain``: without the
    symbol, for a screen reader), else its name; for a contract with a value, the bid
    that made it as the engine describes it (``90 ♦ diamonds``, ``capot ♠ spades``), and
    doubled or redoubled."""
    if bid is not None and bid.kind == BID_CONTRACT:
        words = bid_spoken(bid, plain) or contract.name
    elif contract.trump is not None:
        words = suit_name(contract.trump) if plain else suit_label(contract.trump)
    else:
        words = capital(contract.name.replace("-", " "))
    if bid is None and contract.value is not None:
        words = f"{contract.value} {words}"
    if contract.level == 2:
        return _("{contract}, doubled (contre)").format(contract=words)
    if contract.level >= 4:
        return _("{contract}, redoubled (surcontre)").format(contract=words)
    return words


def announcement_words(text: str) -> str:
    """An announcement as the players say it in the chosen language (``belote``,
    ``rebelote`` are the same in French and German); another announcement as the
    engine writes it."""
    words = {
        "belote": pgettext("announcement", "belote"),
        "rebelote": pgettext("announcement", "rebelote"),
        "belote-rebelote": pgettext("announcement", "belote-rebelote"),
    }
    return words.get(text, text)


def outcome_words(outcome: str) -> str:
    """A deal's outcome (the engine's fixed word) in the chosen language: ``made``,
    ``dedans``, ``capot``, ``litige``, ``abeyance``."""
    words = {
        "made": pgettext("deal outcome", "made"),
        "dedans": pgettext("deal outcome", "dedans"),
        "capot": pgettext("deal outcome", "capot"),
        "litige": pgettext("deal outcome", "litige"),
        "abeyance": pgettext("deal outcome", "abeyance"),
    }
    return words.get(outcome, outcome)


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
    colour); ``four_colour``: the four-colour deck (diamonds blue, clubs green) where
    colour is shown.  ``auto_forced``: a card that is the person's only legal one is
    played for them.  ``lines``: the input read in the background (a table on a server
    is listened to while the person types); without it ``inp`` is read directly.
    ``plain``: the plain mode for screen readers: no box drawing, no colour, no table
    printed again; each event one sentence, the playable cards in words, and the table
    told on request (``board``, ``hand``, ``trick``, ``piles``, ``cards``)."""

    def __init__(
        self,
        session: Table,
        inp: TextIO = sys.stdin,
        out: TextIO = sys.stdout,
        seat: int = HUMAN,
        colour: bool | None = None,
        auto_forced: bool = False,
        lines: LineReader | None = None,
        plain: bool = False,
        four_colour: bool = False,
    ) -> None:
        self.session = session
        self.info = session.info
        self.inp = inp
        self.out = out
        self.seat = seat
        self.quit = False
        self.plain = plain
        self.colour = (terminal_colours(out) if colour is None else colour) and not plain
        self.four_colour = four_colour
        self.auto_forced = auto_forced
        self.lines = lines
        self.shown: dict[str, str] = {}
        self.engine: Engine | None = getattr(session, "engine", None)
        """The engine that describes bids (a remote table's client has its own)."""
        self.last_bid: BidInfo | None = None
        """The last contract bid said, which a contract with a value is said as."""
        """The table's parts as last printed (by part): a part is printed again only
        when it changed."""
        self.legends: set[str] = set()
        """The legend lines printed already (each once, then on ``board`` and ``help``)."""
        self.forced: Card | None = None
        """The card just played for the person as their only legal one."""
        self.prompt = ""

    def say(self, text: str = "") -> None:
        """Print a line; any control character in it is shown escaped (names, bids and
        reasons may come from a file or over the network), then the suits painted."""
        line = printable(text, keep_newlines=True)
        print(self.painted(line), file=self.out, flush=True)

    def painted(self, text: str) -> str:
        """``text`` in colour where colour is shown (:func:`paint`)."""
        return paint(text, self.four_colour) if self.colour else text

    def name(self, seat: int) -> str:
        """``"You"``, else the player's name (a person's over the network), else the
        seat's (``"North"``), in the chosen language."""
        return (
            pgettext("seat", "You")
            if seat == self.seat
            else seat_word(self.session.seat_name(seat))
        )

    def by(self, seat: int, you: str, other: str, **values: object) -> str:
        """The sentence ``you`` when the person did it, else ``other`` with ``{name}``
        the seat's name: whole sentences, so each language agrees its own verbs."""
        if seat == self.seat:
            return you.format(**values)
        return other.format(name=self.name(seat), **values)

    def suit(self, suit: int) -> str:
        """A suit as the table names it: ``♥ hearts``, without the symbol in the plain
        mode (a screen reader would read the symbol's name too)."""
        return suit_name(suit) if self.plain else suit_label(suit)

    def show(self, card: Card) -> str:
        """A card as the table shows it: ``J♥``, or in words in the plain mode."""
        return card_name(card) if self.plain else show_card(card)

    @property
    def keep_count(self) -> bool:
        """Under l'arrêt players keep count themselves (l'arrêt's rule: no looking back), so
        no running score is shown."""
        return bool(self.session.rules.get("arret"))

    # --- drawing -------------------------------------------------------------------------

    def show_table(self, view: View, full: bool = False) -> None:
        """The table as the person sees it: the parts that changed since they were last
        printed (``full``: every part, and the legend).  In the plain mode nothing is
        printed again: each part once a deal (the events tell the rest), every part on
        ``board``."""
        if full:
            self.shown = {}
        if view.piles and not self.plain:
            self.show_legend(view, again=full)
        for part, text in self.table_parts(view):
            if self.plain and part in self.shown and not full:
                continue
            if self.shown.get(part) != text:
                self.say(text)
                self.shown[part] = text

    def table_parts(self, view: View) -> list[tuple[str, str]]:
        """The table as parts (each one or a few lines) by what they show."""
        parts: list[tuple[str, str]] = []
        if view.piles:
            parts.append(("piles", self.piles_text(view)))
        else:
            counts = ", ".join(
                ngettext("{name} {n} card", "{name} {n} cards", n).format(name=self.name(s), n=n)
                for s, n in enumerate(view.hand_sizes)
                if s != self.seat
            )
            parts.append(("counts", f"  {counts}" if not self.plain else f"{counts}."))
            parts.append(("hand", self.hand_text(view)))
        if view.phase == "bidding" and view.turnup is not None:
            if self.plain:
                turnup = _("The proposed trump is {card}.").format(card=card_name(view.turnup))
            else:
                turnup = _("  Proposed trump: {card} ({suit})").format(
                    card=show_card(view.turnup), suit=suit_name(view.turnup >> 3)
                )
            parts.append(("turnup", turnup))
        if view.contract is not None:
            c = view.contract
            bid = self.contract_bid(view)
            words = (
                contract_words(c, self.plain, bid)
                if c.trump is not None or bid is not None
                else _("{contract}, no trump").format(contract=contract_words(c, self.plain))
            )
            parts.append(
                (
                    "contract",
                    self.line(
                        _("Contract: {contract}, taken by {name}").format(
                            contract=words, name=self.name(c.taker)
                        )
                    ),
                )
            )
        if view.tricks and not self.keep_count:
            parts.append(
                (
                    "points",
                    self.line(
                        _("Card points so far: {points}").format(points=self.deal_points(view))
                    ),
                )
            )
        if view.trick:
            parts.append(("trick", self.trick_text(view)))
        return parts

    def line(self, text: str) -> str:
        """A line of the table: indented, or a sentence in the plain mode."""
        return f"{text}." if self.plain else f"  {text}"

    def hand_text(self, view: View) -> str:
        """The person's hand: ``Your hand: A♠ 10♠``, in words in the plain mode."""
        if self.plain:
            cards = sort_for_display(view.hand, suit_order(view.trump))
            return _("Your hand: {cards}.").format(cards=card_names(cards))
        return _("  Your hand: {cards}").format(cards=show_cards(view.hand, view.trump))

    def trick_text(self, view: View) -> str:
        """The cards on the table: ``Trick: North J♥, You 7♥``."""
        if not view.trick:
            return _("No card is on the table.")
        played = ", ".join(f"{self.name(s)} {self.show(c)}" for s, c in view.trick)
        return self.line(_("Trick: {cards}").format(cards=played))

    def deal_points(self, view: View) -> str:
        """The card points of the deal so far by team: ``You & North 35, East & West 22``."""
        return ", ".join(f"{n} {p}" for n, p in zip(self.team_names(), view.points, strict=True))

    def piles_text(self, view: View) -> str:
        """Découverte's piles: the opponent's far and near rows, the line, ours (in the
        plain mode, in words: :meth:`piles_words`)."""
        if self.plain:
            return self.piles_words(view)

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
        far, near = pgettext("pile row", "far "), pgettext("pile row", "near")
        return "\n".join(
            [
                f"  {self.name(other):6} {far}: {row(other, range(4, 8))}",
                f"  {'':6} {near}: {row(other, range(0, 4))}",
                "  " + "-" * 50,
                f"  {self.name(self.seat):6} {near}: {row(self.seat, range(0, 4))}",
                f"  {'':6} {far}: {row(self.seat, range(4, 8))}",
            ]
        )

    def piles_words(self, view: View) -> str:
        """Découverte's piles in sentences, one per player: the face-up cards on a
        face-down card, those with nothing beneath, and the face-down cards alone."""
        sentences = []
        for seat in (self.seat, 1 - self.seat):
            piles = view.piles[seat]
            covered = [p.top for p in piles if p.top is not None and p.covered]
            bare = [p.top for p in piles if p.top is not None and not p.covered]
            down = sum(1 for p in piles if p.top is None and p.covered)
            parts = []
            if covered:
                parts.append(
                    ngettext(
                        "{cards} on a face-down card",
                        "{cards}, each on a face-down card",
                        len(covered),
                    ).format(cards=card_names(covered))
                )
            if bare:
                parts.append(_("{cards} with nothing beneath").format(cards=card_names(bare)))
            if down:
                parts.append(
                    ngettext("{n} face-down card alone", "{n} face-down cards alone", down).format(
                        n=down
                    )
                )
            sentence = self.by(
                seat,
                _("Your piles: {piles}"),
                _("{name}'s piles: {piles}"),
                piles="; ".join(parts) if parts else _("none"),
            )
            sentences.append(sentence + ".")
        return "\n".join(sentences)

    def show_legend(self, view: View, again: bool = False) -> None:
        """What the piles' marks mean: each line the first time it applies, and again on
        ``board`` and ``help`` (``again``)."""
        lines = [
            _(
                "  ({mark} marks a face-down card beneath; nobody knows it until it is turned)"
            ).format(mark=FACE_DOWN[0])
        ]
        if any(p.top is None and p.covered for r in view.piles for p in r):
            lines.append(
                _(
                    "  ({mark}: a face-down card whose cover was just played, turned after the trick)"
                ).format(mark=FACE_DOWN)
            )
        for line in lines:
            if again or line not in self.legends:
                self.say(line)
                self.legends.add(line)

    def show_scores(self) -> None:
        """The match score (not under l'arrêt: players keep count themselves)."""
        if self.keep_count:
            self.say(_("  (l'arrêt is on: keep count of the match score yourself)"))
            return
        line = ", ".join(
            f"{n} {s}" for n, s in zip(self.team_names(), self.session.scores, strict=True)
        )
        self.say(
            _("  Match: {scores} (target {target})").format(
                scores=line, target=self.session.rules.get("target", "?")
            )
        )

    def show_score(self, view: View) -> None:
        """The ``score`` command: the match score, then the deal's contract and card
        points so far, in words (not under l'arrêt: players keep count themselves)."""
        if self.keep_count:
            self.show_scores()
            return
        n = self.session.deals_scored
        self.show_scores()
        self.say(ngettext("  {n} deal scored so far.", "  {n} deals scored so far.", n).format(n=n))
        if view.phase == "bidding":
            self.say(_("  This deal: the bidding is on; no card has been played."))
            return
        if view.contract is not None:
            c = view.contract
            self.say(
                _("  This deal: {contract}, taken by {name}.").format(
                    contract=contract_words(c, self.plain, self.contract_bid(view)),
                    name=self.name(c.taker),
                )
            )
        t = len(view.tricks)
        if t == 0:
            self.say(_("  No trick has been won yet in this deal."))
        else:
            self.say(
                ngettext(
                    "  Card points after {n} trick: {points}.",
                    "  Card points after {n} tricks: {points}.",
                    t,
                ).format(n=t, points=self.deal_points(view))
            )

    def team_names(self) -> list[str]:
        """Each team by its players, the person's seat called "You" ("You & North")."""
        info = self.info
        return [
            " & ".join(self.name(s) for s in range(info.seats) if s % info.teams == t)
            for t in range(info.teams)
        ]

    def show_last_trick(self, view: View) -> None:
        if not view.tricks:
            self.say(_("  No trick has been played yet."))
            return
        t = view.tricks[-1]
        seats = t.seats(view.seats, view.direction)
        cards = ", ".join(
            f"{self.name(s)} {self.show(c)}" for s, c in zip(seats, t.cards, strict=True)
        )
        self.say(
            _("  Last trick: {cards}; won by {name} ({points} points)").format(
                cards=cards, name=self.name(t.winner), points=t.points
            )
        )

    # --- telling the events --------------------------------------------------------------

    def tell(self, events: Iterable[Event]) -> None:
        """Say in words what the session answered (only what this seat may know)."""
        told = for_seat(events, self.seat)
        for i, e in enumerate(told):
            if e.kind == CONTRACT and i and self.made_by(told[i - 1]):
                continue  # the bid that made the contract said it
            following = told[i + 1] if i + 1 < len(told) else None
            if (
                e.kind == BID
                and following is not None
                and following.kind == CONTRACT
                and self.made_by(e)
            ):
                self.say(self.bid_words(e.seat, e.text, following.contract))
            else:
                self.tell_one(e)

    def describe(self, bid: str, view: View | None = None) -> BidInfo:
        """What ``bid`` means, as the engine describes it (hook ``atout_describe_bid``)."""
        if self.engine is None:
            self.engine = Engine()
        rules = view.rules if view is not None else self.session.rules
        return self.engine.describe_bid(self.info.name, rules, bid)

    def contract_bid(self, view: View) -> BidInfo | None:
        """The description of the last bid of ``view``'s auction that proposed a
        contract (the contract's value and strain, as players say them), if any."""
        for _seat, bid in reversed(view.bids):
            info = self.describe(bid, view)
            if info.kind == BID_CONTRACT:
                return info
        return None

    def made_by(self, e: Event) -> bool:
        """Whether the bid event ``e`` is the one that made the contract following it (a
        take, a named suit): then the bid says the contract.  A pass, a double or a
        redouble that ends an auction does not: the contract is said after it."""
        return (
            e.kind == BID
            and e.text != "pass"
            and self.describe(e.text).kind
            not in (
                BID_PASS,
                "double",
                "redouble",
                BID_CONTRACT,
            )
        )

    def bid_words(self, seat: int, bid: str, contract: Contract | None = None) -> str:
        """A bid as a player says it: "You pass.", "North takes ♦ diamonds." (the
        ``contract`` the bid made, when it made one), "East bids 90 ♥ hearts.", "West
        says contre." (the bids the engine describes)."""
        if bid == "pass":
            return self.by(seat, _("You pass."), _("{name} passes."))
        if contract is not None:
            return self.taken(seat, contract)
        info = self.describe(bid)
        if info.kind == BID_CONTRACT:
            self.last_bid = info
            spoken = bid_spoken(info, self.plain)
            return self.by(seat, _("You bid {bid}."), _("{name} bids {bid}."), bid=spoken)
        if info.kind in ("double", "redouble"):
            return self.by(seat, _("You say {bid}."), _("{name} says {bid}."), bid=bid_spoken(info))
        if bid == "take":
            return self.by(seat, _("You take."), _("{name} takes."))
        if len(bid) == 1 and bid in SUITS:
            suit = self.suit(SUITS.index(bid))
            return self.by(seat, _("You name {suit}."), _("{name} names {suit}."), suit=suit)
        return self.by(seat, _("You bid {bid}."), _("{name} bids {bid}."), bid=bid)

    def taken(self, seat: int, contract: Contract) -> str:
        """ "North takes ♦ diamonds.": the contract as its taker says it."""
        return self.by(
            seat,
            _("You take {contract}."),
            _("{name} takes {contract}."),
            contract=contract_words(contract, self.plain, self.last_bid),
        )

    def tell_one(self, e: Event) -> None:
        if e.kind == DEAL:
            self.shown = {}  # a new deal: the whole table again
            dealt = self.by(
                e.seat, _("Deal {deal}: You deal"), _("Deal {deal}: {name} deals"), deal=e.deal
            )
            if self.plain:
                self.say(f"{dealt}.")
            else:
                self.say("")
                self.say(f"=== {dealt} ===")
        elif e.kind == BID:
            self.say(self.bid_words(e.seat, e.text))
        elif e.kind == CONTRACT and e.contract is not None:
            self.say(self.taken(e.seat, e.contract))
        elif e.kind == PLAY and e.card is not None:
            forced = e.seat == self.seat and e.card == self.forced
            self.forced = None
            card = self.show(e.card)
            if forced:
                self.say(_("You play {card} (your only legal card).").format(card=card))
            else:
                self.say(
                    self.by(e.seat, _("You play {card}."), _("{name} plays {card}."), card=card)
                )
        elif e.kind == UNDO:
            more = e.points - 1
            if more:
                self.say(
                    self.by(
                        e.seat,
                        ngettext(
                            "You take back your last card and the {n} action after it.",
                            "You take back your last card and the {n} actions after it.",
                            more,
                        ),
                        ngettext(
                            "{name} takes back their last card and the {n} action after it.",
                            "{name} takes back their last card and the {n} actions after it.",
                            more,
                        ),
                        n=more,
                    )
                )
            else:
                self.say(
                    self.by(
                        e.seat,
                        _("You take back your last card."),
                        _("{name} takes back their last card."),
                    )
                )
        elif e.kind == CLAIM:
            self.say(
                self.by(
                    e.seat,
                    _("You claim the match (l'arrêt)!"),
                    _("{name} claims the match (l'arrêt)!"),
                )
            )
        elif e.kind == ANNOUNCE:
            text = announcement_words(e.text)
            said = self.by(
                e.seat, _("You announce: {text}"), _("{name} announces: {text}"), text=text
            )
            self.say(f"{said}." if self.plain else f"  {said}")
        elif e.kind == TRICK:
            won = self.by(
                e.seat,
                ngettext(
                    "You win the trick ({points} point).",
                    "You win the trick ({points} points).",
                    e.points,
                ),
                ngettext(
                    "{name} wins the trick ({points} point).",
                    "{name} wins the trick ({points} points).",
                    e.points,
                ),
                points=e.points,
            )
            self.say(won if self.plain else f"  {won}")
        elif e.kind == TURN and e.card is not None:
            turned = self.by(
                e.seat,
                _("Your face-down card is turned: {card}"),
                _("{name}'s face-down card is turned: {card}"),
                card=self.show(e.card),
            )
            self.say(f"{turned}." if self.plain else f"  {turned}")
        elif e.kind == REDEAL:
            if self.info.seats == 2:
                self.say(_("Redeal: both players passed; the cards are gathered and dealt again."))
            else:
                self.say(_("Redeal: everybody passed; the cards are gathered and dealt again."))
        elif e.kind == SCORE and e.score is not None:
            self.tell_score(e)
        elif e.kind == MATCH_OVER and e.result is not None:
            r = e.result
            if r.winner is None:
                self.say(_("The match is drawn: {reason}.").format(reason=r.reason))
            else:
                winners = self.team_names()[r.winner]
                members = [s for s in range(self.info.seats) if s % self.info.teams == r.winner]
                if members == [self.seat]:
                    said = _("You win the match: {reason}.")
                elif self.seat in members:
                    said = pgettext("a team with you", "{team} win the match: {reason}.")
                elif len(members) > 1:
                    said = pgettext("a team", "{team} win the match: {reason}.")
                else:
                    said = _("{team} wins the match: {reason}.")
                self.say(said.format(team=winners, reason=r.reason))
        elif e.kind == NOTICE:
            self.say(f"  ({e.text})")

    def tell_score(self, e: Event) -> None:
        sc = e.score
        assert sc is not None
        end = _("End of the deal: {outcome}").format(outcome=outcome_words(sc.outcome))
        if self.plain:
            self.say(f"{end}.")
        else:
            self.say("")
            self.say(f"--- {end} ---")
        for team, name in enumerate(self.team_names()):
            self.say(
                self.line(
                    _(
                        "{team}: card points {cards}, declarations {declarations}, scores {score}"
                    ).format(
                        team=name,
                        cards=sc.card_points[team],
                        declarations=sc.declaration_points[team],
                        score=sc.score[team],
                    )
                )
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
        self.out.write(self.painted(printable(self.prompt)))
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
                bids = _("Your bid ({bids}): ").format(bids=self.bid_choices(view))
                text = self.ask(bids if self.plain else f"  {bids}")
            else:
                text = self.ask(self.card_prompt(view))
            if text is None:
                return None
            action = self.read_action(text, view)
            if action is not None or self.quit:
                return action

    def card_prompt(self, view: View) -> str:
        """The prompt for a card: the legal cards (in words in the plain mode)."""
        legal = sort_for_display(view.legal)
        if self.plain:
            may = self.playable_words(view)
            claim = _(", or claim the match") if view.can_claim else ""
            return _("Your turn. {cards}{claim}: ").format(cards=may, claim=claim)
        cards = " ".join(show_card(c) for c in legal)
        extra = _(" / claim") if view.can_claim else ""
        return _("  Your card (legal: {cards}){claim}: ").format(cards=cards, claim=extra)

    def playable_words(self, view: View) -> str:
        """ "You may play the jack of hearts, the nine of spades": the legal cards in words."""
        return _("You may play {cards}").format(
            cards=card_names(sort_for_display(view.legal, suit_order(view.trump)))
        )

    def bid_choices(self, view: View) -> str:
        """The bids at the prompt; a suit letter says which trump it names; many
        contract bids (an auction by values) are summed up (:func:`bid_summary`)."""
        described = [(b, self.describe(b, view)) for b in view.legal_bids]
        summary = bid_summary(described)
        if summary is not None:
            rest = [bid_spoken(i) or bid_word(b) for b, i in described if i.kind != BID_CONTRACT]
            return " / ".join([summary, *rest])
        named = [b for b in view.legal_bids if len(b) == 1 and b in SUITS]
        words = [
            f"{b} = {suit_name(SUITS.index(b))}" if b in named else bid_word(b)
            for b in view.legal_bids
        ]
        return (_("name a trump: ") if named else "") + " / ".join(words)

    def read_action(self, text: str, view: View) -> Action | None:
        """The action ``text`` means, or ``None`` after answering a command or a mistake."""
        word = text.lower()
        if view.phase == "bidding":  # first: the bid H (hearts) is not the command h (help)
            for bid in view.legal_bids:
                if word in (bid.lower(), bid_word(bid).lower(), bid_said(bid).lower()):
                    return Action.bid(bid)
            typed = read_bid(text, [(b, self.describe(b, view)) for b in view.legal_bids])
            if typed is not None:
                return Action.bid(typed)
        word = command_words().get(word, word)
        if word in ("", "board"):
            self.show_table(view, full=True)  # an empty line: the table again, no complaint
            return None
        if word in ("q", "quit", "exit"):
            self.quit = True
            return None
        if word in ("?", "h", "help"):
            self.say(help_text(self.plain))
            if view.piles and not self.plain:
                self.show_legend(view, again=True)
            return None
        command = COMMANDS.get(word)
        if command is not None:
            command(self, view)
            return None
        if view.phase == "bidding":
            self.say(
                _("  Not a bid now: {text}. The bids are: {bids}").format(
                    text=repr(text), bids=self.bid_choices(view)
                )
            )
            return None
        if word == "claim" and view.can_claim:
            return Action("claim")
        try:
            card = read_card(text)
        except CardParseError as exc:
            self.say(f"  {exc}")
            return None
        reason = self.session.explain(card)
        if reason is not None:
            self.say(
                _("  You cannot play {card}: {reason}.").format(card=self.show(card), reason=reason)
            )
            return None
        return Action.play(card)

    # --- the commands --------------------------------------------------------------------

    def action_words(self, action: object, view: View) -> str:
        """An action as the hint says it: "play J♥", "take ♣ clubs", "pass"."""
        if not isinstance(action, Action):
            return str(action)
        if action.kind == "play":
            return _("play {card}").format(card=self.show(action.value))
        if action.kind == "bid":
            bid = str(action.value)
            if bid == "take" and view.turnup is not None:
                return _("take {suit}").format(suit=self.suit(view.turnup >> 3))
            if len(bid) == 1 and bid in SUITS:
                return _("take {suit}").format(suit=self.suit(SUITS.index(bid)))
            return bid_spoken(self.describe(bid, view), self.plain) or bid_word(bid)
        return _("claim the match (l'arrêt)") if action.kind == "claim" else str(action)

    def show_hint(self, view: View) -> None:
        """The ``hint`` command: what the expert would do here, with its reason when
        the session gives one."""
        session = self.session
        if not isinstance(session, Helping):
            self.say(_("  No hint at a table with other people."))
            return
        self.say(_("  (the expert is thinking...)"))
        try:
            answer = session.hint(self.seat)
        except AtoutError as exc:
            self.say(_("  No hint: {reason}.").format(reason=exc))
            return
        action = getattr(answer, "action", answer)
        reason = str(getattr(answer, "reason", "") or "").strip().rstrip(".")
        words = self.action_words(action, view)
        if reason:
            self.say(_("  Hint: {action} — {reason}.").format(action=words, reason=reason))
        else:
            self.say(_("  Hint: {action}.").format(action=words))

    def take_back(self, view: View) -> None:
        """The ``undo`` command: the session takes back the person's last card, or says
        why it will not."""
        session = self.session
        if not isinstance(session, Helping):
            self.say(_("  No undo at a table with other people: they have seen your card."))
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

    def show_hand(self, view: View) -> None:
        """The ``hand`` command: the person's hand (in Découverte, their piles)."""
        self.say(self.piles_text(view) if view.piles else self.hand_text(view))

    def show_trick(self, view: View) -> None:
        """The ``trick`` command: the cards on the table."""
        self.say(self.trick_text(view))

    def show_piles(self, view: View) -> None:
        """The ``piles`` command: Découverte's piles (the hand in another game)."""
        self.show_hand(view)

    def show_playable(self, view: View) -> None:
        """The ``cards`` command: the cards the person may play now, in words."""
        if view.phase != "play" or not view.legal:
            self.say(_("No card may be played now."))
            return
        self.say(f"{self.playable_words(view)}.")

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
            self.say(_("The table cannot be reached any more ({why}).").format(why=self.closed()))
            return 1
        return 0


COMMANDS: dict[str, Callable[[TerminalGame, View], None]] = {
    "last": TerminalGame.show_last_trick,
    "hint": TerminalGame.show_hint,
    "undo": TerminalGame.take_back,
    "score": TerminalGame.show_score,
    "rules": TerminalGame.show_rules_text,
    "review": lambda game, view: review_last_deal(game),
    "hand": TerminalGame.show_hand,
    "trick": TerminalGame.show_trick,
    "piles": TerminalGame.show_piles,
    "cards": TerminalGame.show_playable,
}
"""The commands typed at a prompt besides a card, a bid, ``board``, ``help`` and
``quit``: each answers in words (``undo`` takes back a card through the session)."""


def command_words() -> dict[str, str]:
    """The commands' names in the chosen language, with the command each means (the
    English names are always understood too)."""
    names = (
        "board",
        "last",
        "hint",
        "undo",
        "score",
        "rules",
        "claim",
        "review",
        "help",
        "quit",
        "hand",
        "trick",
        "piles",
        "cards",
    )
    words = {
        "board": pgettext("command", "board"),
        "last": pgettext("command", "last"),
        "hint": pgettext("command", "hint"),
        "undo": pgettext("command", "undo"),
        "score": pgettext("command", "score"),
        "rules": pgettext("command", "rules"),
        "claim": pgettext("command", "claim"),
        "review": pgettext("command", "review"),
        "help": pgettext("command", "help"),
        "quit": pgettext("command", "quit"),
        "hand": pgettext("command", "hand"),
        "trick": pgettext("command", "trick"),
        "piles": pgettext("command", "piles"),
        "cards": pgettext("command", "cards"),
    }
    return {words[n].lower(): n for n in names if words[n].lower() not in names}


def bid_said(bid: str) -> str:
    """A bid as a player says it at the table, also understood when typed: ``prends``,
    ``passe`` in French (the prompt offers :func:`bid_word`'s ``prendre``, ``passer``)."""
    if bid == "take":
        return pgettext("bid as said", "take")
    if bid == "pass":
        return pgettext("bid as said", "pass")
    return bid


def bid_word(bid: str) -> str:
    """A bid as the prompt offers it: ``take``, ``pass`` in the chosen language
    (``prendre``, ``passer``); a suit letter or another bid as it is."""
    if bid == "take":
        return pgettext("bid", "take")
    if bid == "pass":
        return pgettext("bid", "pass")
    return bid


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
        game.say(_("  No finished deal to review yet (a table on a server: atout review RECORD)."))
        return
    record = deal_to_record(deals[-1])
    review = DealReview(deals[-1].engine, record, seats=frozenset({game.seat}))
    lines = review_lines(review, game.info, game.name)
    try:
        for line in lines:
            game.say(printable(line))
    except KeyboardInterrupt:
        lines.close()
        game.say(_("  (review stopped)"))
