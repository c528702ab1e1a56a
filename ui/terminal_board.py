"""The terminal game's board: what the game runs on (:class:`Table`, a local session or
a table on a server), and the table drawn from the person's view, printing again only
the parts that changed (see :mod:`atout.ui.terminal`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol
from typing import TextIO
from typing import runtime_checkable

from atout.core import Action
from atout.core import Engine
from atout.core import GameInfo
from atout.core import Rules
from atout.core import View
from atout.core.cards import Card
from atout.core.cards import sort_for_display
from atout.core.model import BidInfo
from atout.core.model import MatchResult
from atout.core.session import Event

from .cards_text import HUMAN
from .cards_text import card_name
from .cards_text import card_names
from .cards_text import contract_described
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
from .safe_text import printable
from .terminal_lines import LineReader
from .terminal_text import FACE_DOWN
from .terminal_text import contract_words
from .terminal_text import paint


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


class TerminalBoard:
    """The terminal game's table drawn for the person at ``seat``: the lines it prints,
    the names and cards as the table shows them, and the parts of the table printed
    again when they changed.  :class:`~atout.ui.terminal.TerminalGame` is built on it
    (its docstring says what the arguments mean)."""

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
        self.engine: Engine | None = getattr(session, "engine", None)
        """The engine that describes bids (a remote table's client has its own)."""
        self.last_bid: BidInfo | None = None
        """The last contract bid said, which a contract with a value is said as."""
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
        reasons may come from a file or over the network), then the suits painted."""
        line = printable(text, keep_newlines=True)
        print(self.painted(line), file=self.out, flush=True)

    def describe(self, bid: str, view: View | None = None) -> BidInfo:
        """What ``bid`` means, as the engine describes it (hook ``atout_describe_bid``)."""
        if self.engine is None:
            self.engine = Engine()
        rules = view.rules if view is not None else self.session.rules
        return self.engine.describe_bid(self.info.name, rules, bid)

    def contract_bid(self, view: View) -> BidInfo | None:
        """The description of the bid that made ``view``'s contract (its value and
        strain, as players say them: ``capot ♠``), if any
        (:func:`~atout.ui.cards_text.contract_described`)."""
        if self.engine is None:
            self.engine = Engine()
        return contract_described(self.engine, view)

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
