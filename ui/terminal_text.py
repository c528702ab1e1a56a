"""The terminal game's words and colours: the ``help`` text, the suits painted, and the
words of a contract, an announcement and a deal's outcome in the chosen language (see
:mod:`atout.ui.terminal`)."""

from __future__ import annotations

import re

from atout.core.model import BID_CONTRACT
from atout.core.model import BidInfo
from atout.core.model import Contract

from .cards_text import bid_spoken
from .cards_text import capital
from .cards_text import card_input_help
from .cards_text import strain_words
from .cards_text import suit_label
from .cards_text import suit_name
from .i18n import _

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
        words = capital(strain_words(contract.name, None, plain))
    if bid is None and contract.value is not None:
        words = f"{contract.value} {words}"
    if contract.level == 2:
        return _("{contract}, doubled (contre)").format(contract=words)
    if contract.level >= 4:
        return _("{contract}, redoubled (surcontre)").format(contract=words)
    return words
