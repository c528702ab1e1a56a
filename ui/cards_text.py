"""Words and symbols for cards and seats, shared by every front end.

The terminal game and the Arcade window show the same card the same way (``J♥``), call
the person "You" and sort a hand alike; this module is the one place that says how, so
the two cannot drift apart.  It imports only the core (no arcade, no terminal), so any
front end may use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from atout.core import GameInfo
from atout.core.cards import RANKS
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.core.cards import sort_for_display

HUMAN: Final = 0
"""The person's seat in both front ends: South (the bots take the others)."""


def show_card(card: int) -> str:
    """A card with its suit symbol: ``J♥``, ``10♠``."""
    return RANKS[card & 7] + SUIT_SYMBOLS[card >> 3]


def suit_order(trump: int | None = None) -> str:
    """The order of the suits in a hand as players sort it: spades, hearts, clubs,
    diamonds (the colours alternate), the trump suit first when there is one."""
    order = "SHCD"
    if trump is None:
        return order
    return SUITS[trump] + "".join(s for s in order if s != SUITS[trump])


def show_cards(mask: int, trump: int | None = None) -> str:
    """A hand in one line, sorted by suit (trumps first) then rank: ``A♠ 10♠ 7♥``."""
    return " ".join(show_card(c) for c in sort_for_display(mask, suit_order(trump)))


def suit_label(suit: int) -> str:
    """A suit with its symbol: ``♥ hearts``."""
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def capital(words: str) -> str:
    """``words`` with a capital first letter (the engine writes its notes in lower case)."""
    return words[:1].upper() + words[1:]


def seat_name(info: GameInfo, seat: int) -> str:
    """What a seat is called: "You" for the person, else the game's name for it."""
    return "You" if seat == HUMAN else info.seat_name(seat)


def team_long_name(info: GameInfo, team: int, name: Callable[[int], str] | None = None) -> str:
    """A team by its players: "You & North", "East & West" (a seat's name when each
    player plays alone); ``name(seat)`` says what a seat is called (by default
    :func:`seat_name`)."""
    if name is None:
        return team_long_name(info, team, lambda seat: seat_name(info, seat))
    if info.teams == info.seats:
        return name(team)
    return " & ".join(name(s) for s in range(info.seats) if s % info.teams == team)
