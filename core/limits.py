"""The one set of limits for every number and text atout reads from outside.

A seed typed on the command line, a name sent over the network, a think time in a save:
each is checked here, by the same function, so that what one reader accepts every other
reader reads back (a seed the command line takes is a seed the save reader, the replay
and the protocol take too).  Each check returns the value or raises
:class:`LimitError` with one sentence that says what is allowed; the caller adds where
the value came from (the option, the file and key, the message).

``docs/records.md`` lists these limits for the reader of a record or a save.
"""

from __future__ import annotations

import math
import unicodedata

from .errors import AtoutError
from .text import Message

MAX_SEED = 10**18 - 1
"""The largest seed: a whole number of at most 18 digits (seeds are never negative)."""
MAX_INT_DIGITS = 18
"""The most digits a whole number in a record, a save or a message may have."""
MAX_NAME = 100
"""The longest player or bot name, in characters."""
MAX_HOST = 253
"""The longest host name (the DNS limit)."""
MAX_THINK = 60.0
"""The longest a bot may think for one decision, in seconds."""
MAX_BUDGET = 600.0
"""The longest a review may search one decision, in seconds."""
MAX_TARGET = 1_000_000
"""The highest target score of a match (a match to a million points is long enough)."""
MAX_WAIT = 86_400.0
"""The longest a server waits for anything (a dropped player's seat, a finished table
nobody watches), in seconds: a day."""
MAX_FILE_NAME = 120
"""The longest file name atout writes under a name it was given (a record's name kept
in a save), in characters."""
HOST_PUNCTUATION = frozenset(".-_:%")
"""What a host may hold besides letters and digits (dots, hyphens, an IPv6 address's
colons, a zone's ``%``)."""


class LimitError(AtoutError):
    """A number or text outside atout's limits; the message says what is allowed.

    Its message is a :class:`~atout.core.text.Message`: ``str(exc)`` is the English
    sentence (logs, protocol errors), and a front end shows it translated."""


A_TIME = Message("a time")
"""What :func:`check_seconds` calls a value it was not told the name of."""
A_NAME = Message("a name")
"""What :func:`check_name` calls a value it was not told the name of."""


def _shown_value(value: object) -> str:
    """A refused value as an error quotes it: its ``repr``, cut to 40 characters."""
    return f"{value!r:.40}"


def check_seed(value: object) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (bool is no number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(
            Message(
                "a seed is a whole number from 0 to {most}, not {value}",
                most=MAX_SEED,
                value=_shown_value(value),
            )
        )
    if not 0 <= value <= MAX_SEED:
        raise LimitError(
            Message("a seed is a whole number from 0 to {most} (at most 18 digits)", most=MAX_SEED)
        )
    return value


def check_seconds(value: object, *, most: float, what: str = A_TIME, zero: bool = False) -> float:
    """A time in seconds: a finite number above 0 (from 0 with ``zero``, where 0 means
    "the default" or "at once") and at most ``most`` (no NaN, no infinity).  ``what``
    names the value in the message (a :class:`~atout.core.text.Message`, so that it is
    translated with it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LimitError(
            Message(
                "{what} is a number of seconds, not {value}", what=what, value=_shown_value(value)
            )
        )
    seconds = float(value)
    above = seconds >= 0 if zero else seconds > 0
    if not math.isfinite(seconds) or not above or seconds > most:
        longest = f"{most:g}"
        if zero:
            raise LimitError(
                Message(
                    "{what} is a number of seconds from 0 and at most {most}",
                    what=what,
                    most=longest,
                )
            )
        raise LimitError(
            Message(
                "{what} is a number of seconds above 0 and at most {most}",
                what=what,
                most=longest,
            )
        )
    return seconds


def printable(text: str) -> bool:
    """Whether ``text`` is safe to show and to write: valid Unicode (no lone surrogate)
    with no control or format character (no escape sequence, no newline)."""
    return all(
        unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn") or ch == " " for ch in text
    )


def check_name(value: object, *, most: int = MAX_NAME, what: str = A_NAME) -> str:
    """A player's or bot's name: text of at most ``most`` characters that
    :func:`printable` accepts (the empty name is allowed: the seat's name stands).
    ``what`` names the value in the message (best a :class:`~atout.core.text.Message`)."""
    if not isinstance(value, str):
        raise LimitError(
            Message("{what} is a text, not {kind}", what=what, kind=type(value).__name__)
        )
    if len(value) > most:
        raise LimitError(
            Message(
                "{what} has at most {most} characters, not {count}",
                what=what,
                most=most,
                count=len(value),
            )
        )
    if not printable(value):
        raise LimitError(
            Message("{what} may not hold control characters or lone surrogates", what=what)
        )
    return value


def check_host(value: object) -> str:
    """A host to listen on or to reach: a name or an address of at most
    :data:`MAX_HOST` characters, letters, digits and :data:`HOST_PUNCTUATION` only (no
    space, no bracket, no control character)."""
    if not isinstance(value, str):
        raise LimitError(Message("a host is a text, not {kind}", kind=type(value).__name__))
    if not value:
        raise LimitError(Message("a host is a name or an address, not nothing"))
    if len(value) > MAX_HOST:
        raise LimitError(
            Message(
                "a host has at most {most} characters, not {count}", most=MAX_HOST, count=len(value)
            )
        )
    if not all(ch.isalnum() or ch in HOST_PUNCTUATION for ch in value):
        raise LimitError(
            Message("a host holds letters, digits, dots, hyphens and (an IPv6 address) colons only")
        )
    return value


def check_file_name(value: object, *, suffix: str = "") -> str:
    """A plain file name (ending ``suffix``): printable, at most :data:`MAX_FILE_NAME`
    characters, no folder in it (no ``/`` or ``\\``), not hidden (no leading dot)."""
    if not isinstance(value, str):
        raise LimitError(Message("a file name is a text, not {kind}", kind=type(value).__name__))
    if not value or len(value) > MAX_FILE_NAME:
        raise LimitError(
            Message(
                "a file name has 1 to {most} characters, not {count}",
                most=MAX_FILE_NAME,
                count=len(value),
            )
        )
    if "/" in value or "\\" in value or value.startswith(".") or not printable(value):
        raise LimitError(Message("a file name is a plain, printable name in its folder"))
    if suffix and (not value.endswith(suffix) or value == suffix):
        raise LimitError(Message("the file name ends with {suffix}", suffix=suffix))
    return value
