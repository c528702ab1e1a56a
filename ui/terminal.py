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

The game is split by role, one class built on the other: :mod:`.terminal_text` (the
words and colours), :mod:`.terminal_board` (what the game runs on, and the table drawn:
:class:`~.terminal_board.TerminalBoard`), :mod:`.terminal_events` (the events told),
:mod:`.terminal_input` (the lines read as bids, cards and commands; :mod:`.terminal_lines`
reads them in the background), and this module:
the commands and the match loop (:class:`TerminalGame`).  Its names are those the front
ends and tests import.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from atout.core import IllegalMoveError
from atout.core import View
from atout.core.errors import AtoutError

from .cards_text import HUMAN
from .cards_text import capital
from .i18n import _
from .messages import announcement_words
from .messages import outcome_words
from .messages import shown
from .messages import shown_error
from .rules_text import rules_text
from .safe_text import printable
from .terminal_board import Helping
from .terminal_board import Table
from .terminal_board import Waiting
from .terminal_input import TerminalInput
from .terminal_input import bid_said
from .terminal_input import bid_word
from .terminal_input import command_words
from .terminal_lines import LineReader
from .terminal_text import BLUE
from .terminal_text import FACE_DOWN
from .terminal_text import FOUR_COLOURS
from .terminal_text import GREEN
from .terminal_text import RED
from .terminal_text import RED_CARDS
from .terminal_text import RESET
from .terminal_text import SUIT_CARDS
from .terminal_text import contract_words
from .terminal_text import help_text
from .terminal_text import paint


class TerminalGame(TerminalInput):
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

    def command(self, word: str) -> Callable[[View], None] | None:
        """The command ``word`` names (:data:`COMMANDS`), bound to this game."""
        found = COMMANDS.get(word)
        return None if found is None else functools.partial(found, self)

    def helping(self, refusal: str) -> Helping | None:
        """The table, when it gives hints and takes back cards (a local session); else
        ``None``, after saying ``refusal``."""
        session = self.session
        if isinstance(session, Helping):
            return session
        self.say(refusal)
        return None

    def show_hint(self, view: View) -> None:
        """The ``hint`` command: what the expert would do here, with its reason when
        the session gives one."""
        session = self.helping(_("  No hint at a table with other people."))
        if session is None:
            return
        self.say(_("  (the expert is thinking...)"))
        try:
            answer = session.hint(self.seat)
        except AtoutError as exc:
            self.say(_("  No hint: {reason}.").format(reason=shown_error(exc)))
            return
        action = getattr(answer, "action", answer)
        reason = shown(getattr(answer, "reason", "") or "").strip().rstrip(".")
        words = self.action_words(action, view)
        if reason:
            self.say(_("  Hint: {action} — {reason}.").format(action=words, reason=reason))
        else:
            self.say(_("  Hint: {action}.").format(action=words))

    def take_back(self, view: View) -> None:
        """The ``undo`` command: the session takes back the person's last card, or says
        why it will not."""
        session = self.helping(
            _("  No undo at a table with other people: they have seen your card.")
        )
        if session is None:
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
                self.say(f"  {shown_error(exc)}")
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


__all__ = [
    "BLUE",
    "COMMANDS",
    "FACE_DOWN",
    "FOUR_COLOURS",
    "GREEN",
    "HUMAN",
    "RED",
    "RED_CARDS",
    "RESET",
    "SUIT_CARDS",
    "Helping",
    "LineReader",
    "Table",
    "TerminalGame",
    "Waiting",
    "announcement_words",
    "bid_said",
    "bid_word",
    "command_words",
    "contract_words",
    "help_text",
    "outcome_words",
    "paint",
    "review_last_deal",
]
