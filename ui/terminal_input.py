"""The terminal game's input: the person's lines, read as a bid, a card, a claim or a
command, in the chosen language or in English (see :mod:`atout.ui.terminal`)."""

from __future__ import annotations

from collections.abc import Callable

from atout.core import Action
from atout.core import CardParseError
from atout.core import Claim
from atout.core import View
from atout.core.cards import SUITS
from atout.core.cards import sort_for_display
from atout.core.model import BID_CONTRACT
from atout.core.session import for_seat

from .cards_text import bid_spoken
from .cards_text import bid_summary
from .cards_text import card_names
from .cards_text import read_bid
from .cards_text import read_card
from .cards_text import show_card
from .cards_text import suit_name
from .cards_text import suit_order
from .i18n import _
from .i18n import pgettext
from .messages import shown
from .safe_text import printable
from .terminal_board import Waiting
from .terminal_events import TerminalEvents
from .terminal_text import help_text


class TerminalInput(TerminalEvents):
    """The terminal game reading the person: a line typed (or the table's events while
    waiting for one), read as a bid, a card, a claim or a command."""

    def command(self, word: str) -> Callable[[View], None] | None:
        """The command ``word`` names, besides a card, a bid, ``board``, ``help`` and
        ``quit`` (``None``: none); the game's are :data:`~atout.ui.terminal.COMMANDS`."""
        return None

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
            f"{b} = {suit_name(SUITS.index(b))}" if b in named else bid_spoken(i) or bid_word(b)
            for b, i in described
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
        command = self.command(word)
        if command is not None:
            command(view)
            return None
        if view.phase == "bidding":
            self.say(
                _("  Not a bid now: {text}. The bids are: {bids}").format(
                    text=repr(text), bids=self.bid_choices(view)
                )
            )
            return None
        if word == "claim" and view.can_claim:
            return Claim()
        try:
            card = read_card(text)
        except CardParseError as exc:
            self.say(f"  {exc}")
            return None
        reason = self.session.explain(card)
        if reason is not None:
            self.say(
                _("  You cannot play {card}: {reason}.").format(
                    card=self.show(card), reason=shown(reason)
                )
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
