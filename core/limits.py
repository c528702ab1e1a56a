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
    """A number or text outside atout's limits; the message says what is allowed."""


def check_seed(value: object) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (bool is no number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(f"a seed is a whole number from 0 to {MAX_SEED}, not {value!r:.40}")
    if not 0 <= value <= MAX_SEED:
        raise LimitError(f"a seed is a whole number from 0 to {MAX_SEED} (at most 18 digits)")
    return value


def check_seconds(value: object, *, most: float, what: str = "a time", zero: bool = False) -> float:
    """A time in seconds: a finite number above 0 (from 0 with ``zero``, where 0 means
    "the default" or "at once") and at most ``most`` (no NaN, no infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LimitError(f"{what} is a number of seconds, not {value!r:.40}")
    seconds = float(value)
    above = seconds >= 0 if zero else seconds > 0
    if not math.isfinite(seconds) or not above or seconds > most:
        least = "from 0" if zero else "above 0"
        raise LimitError(f"{what} is a number of seconds {least} and at most {most:g}")
    return seconds


def printable(text: str) -> bool:
    """Whether ``text`` is safe to show and to write: valid Unicode (no lone surrogate)
    with no control or format character (no escape sequence, no newline)."""
    return all(
        unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn") or ch == " " for ch in text
    )


def check_name(value: object, *, most: int = MAX_NAME, what: str = "a name") -> str:
    """A player's or bot's name: text of at most ``most`` characters that
    :func:`printable` accepts (the empty name is allowed: the seat's name stands)."""
    if not isinstance(value, str):
        raise LimitError(f"{what} is a text, not {type(value).__name__}")
    if len(value) > most:
        raise LimitError(f"{what} has at most {most} characters, not {len(value)}")
    if not printable(value):
        raise LimitError(f"{what} may not hold control characters or lone surrogates")
    return value


def check_host(value: object) -> str:
    """A host to listen on or to reach: a name or an address of at most
    :data:`MAX_HOST` characters, letters, digits and :data:`HOST_PUNCTUATION` only (no
    space, no bracket, no control character)."""
    if not isinstance(value, str):
        raise LimitError(f"a host is a text, not {type(value).__name__}")
    if not value:
        raise LimitError("a host is a name or an address, not nothing")
    if len(value) > MAX_HOST:
        raise LimitError(f"a host has at most {MAX_HOST} characters, not {len(value)}")
    if not all(ch.isalnum() or ch in HOST_PUNCTUATION for ch in value):
        raise LimitError(
            "a host holds letters, digits, dots, hyphens and (an IPv6 address) colons only"
        )
    return value


def check_file_name(value: object, *, suffix: str = "") -> str:
    """A plain file name (ending ``suffix``): printable, at most :data:`MAX_FILE_NAME`
    characters, no folder in it (no ``/`` or ``\\``), not hidden (no leading dot)."""
    if not isinstance(value, str):
        raise LimitError(f"a file name is a text, not {type(value).__name__}")
    if not value or len(value) > MAX_FILE_NAME:
        raise LimitError(f"a file name has 1 to {MAX_FILE_NAME} characters, not {len(value)}")
    if "/" in value or "\\" in value or value.startswith(".") or not printable(value):
        raise LimitError("a file name is a plain, printable name in its folder")
    if suffix and (not value.endswith(suffix) or value == suffix):
        raise LimitError(f"the file name ends with {suffix}")
    return value
