"""The table's words for the game's things: what each seat and team is called at this
table, a bid, a contract, a suit's colour; and :class:`MatchLike`, what the side bar and
the end-of-deal panel read of a match (a local match, or what a network table was told).

Functions of the view and the table's :class:`~atout.core.model.GameInfo` (whose
``seat_names`` the table sets, see
:meth:`~atout.ui.window.table.Table.seat_names`); they compute no rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from atout.core import DealScore
from atout.core import Engine
from atout.core import GameInfo
from atout.core import MatchResult
from atout.core import Rules
from atout.core import View
from atout.core.cards import SUIT_SYMBOLS
from atout.core.errors import AtoutError
from atout.core.packs import resolve
from atout.core.text import CardSign
from atout.core.text import CardWord
from atout.core.text import Message

from .. import cards_text
from ..cards_text import bid_text as bid_text
from ..cards_text import capital
from ..cards_text import strain_words
from ..cards_text import suit_label
from ..i18n import N_
from ..i18n import _
from ..messages import announcement_words
from ..messages import shown
from ..messages import shown_pack
from . import theme

YOU = N_("You")
"""What the table calls the seat played from this screen, translated when the table names
its seats (see :meth:`~atout.ui.window.table.Table.seat_names`)."""


class MatchLike(Protocol):
    """What the side bar and the end-of-deal panel read of a match: a local
    :class:`~atout.core.engine.Match`, or the scores a network table was told."""

    @property
    def info(self) -> GameInfo: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def seed(self) -> int: ...

    @property
    def history(self) -> Sequence[DealScore]: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def result(self) -> MatchResult | None: ...


SEAT_WORDS = (N_("South"), N_("East"), N_("North"), N_("West"))
"""The games' names for the seats, translated when a table names its seats (a game's
other names are shown as the game writes them)."""


def seat_name(info: GameInfo, seat: int) -> str:
    """What a seat is called at this table (the table names its seats in ``info``)."""
    return info.seat_name(seat)


def your_team(info: GameInfo) -> int | None:
    """The team of the seat called "You" (``None``: no seat is, e.g. two people share the
    screen)."""
    for seat in range(info.seats):
        if info.seat_name(seat) == _(YOU):
            return seat % info.teams
    return None


def team_name(info: GameInfo, team: int) -> str:
    """The short name of a team on the score sheet: a seat's name, or "Us" and "Them"
    (without a "You" at the table: the team's players)."""
    if info.teams == info.seats:
        return seat_name(info, team)
    ours = your_team(info)
    if ours is None:
        return team_long_name(info, team)
    return _("Us") if team == ours else _("Them")


def team_long_name(info: GameInfo, team: int) -> str:
    """A team by its players as this table names its seats: "You & North", "Anna"."""
    return cards_text.team_long_name(info, team, info.seat_name)


def contract_name(trump: int | None, name: str) -> str:
    """A contract in words: its trump suit (``♥ hearts``), else its name in the
    language (sans atout: ``Sans atout`` in English and French, ``Sans Atout`` in German)."""
    return suit_label(trump) if trump is not None else capital(strain_words(name, None))


def contract_symbol(trump: int | None, name: str) -> str:
    """A contract in a few characters: its trump suit's symbol, else its name."""
    if trump is not None:
        return SUIT_SYMBOLS[trump]
    return capital(strain_words(name, None))


def suit_colour(trump: int | None) -> tuple[int, int, int, int]:
    """The suit's ink in the deck in use (red for hearts and diamonds; in the
    four-colour deck diamonds blue and clubs green), ink for no suit."""
    return theme.suit_ink(trump) if trump is not None else theme.INK


def rules_words(engine: Engine, rules: Rules) -> str:
    """What the side bar calls the rules in force: the pack's own description (its file
    name says nothing to a player), "Standard rules" without a pack, "House rules" for a
    pack this machine cannot read (a network table's)."""
    if not rules.pack:
        return _("Standard rules")
    try:
        pack = resolve(engine, rules.pack, rules.game)
    except (AtoutError, OSError):
        return _("House rules")
    return shown_pack(pack.description, pack.origin) or _("House rules")


def second_round(view: View) -> bool:
    """Whether the bidding on a proposed card is in its second round: every seat has
    spoken once (the engine's bids for the seat to act say it too: no take)."""
    if view.legal_bids:
        return "take" not in view.legal_bids
    return len(view.bids) >= view.seats


def announce_words(text: str, cards: int) -> str:
    """What a seat's bubble says of an announcement: short, its cards by their symbols
    ("Quinte to Q♦!", "Carré of jacks!", "Belote!"); the side bar keeps the rule
    plugin's whole words ("quinte to the queen of diamonds").  A sequence is the rule
    plugin's message with its top ``card`` in words: the bubble writes that card as it
    shows a card instead."""
    if isinstance(text, Message) and isinstance(top := text.params.get("card"), CardWord):
        short = Message(text.msgid, **{**text.params, "card": CardSign(top.card)})
        return capital(shown(short)) + "!"
    return capital(announcement_words(text)) + "!"
