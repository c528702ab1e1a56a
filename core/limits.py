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


class LimitError(AtoutError):
    """A number or text outside atout's limits; the message says what is allowed."""


def check_seed(value: object) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (bool is no number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(f"a seed is a whole number from 0 to {MAX_SEED}, not {value!r:.40}")
    if not 0 <= value <= MAX_SEED:
        raise LimitError(f"a seed is a whole number from 0 to {MAX_SEED} (at most 18 digits)")
    return value


def check_seconds(value: object, *, most: float, what: str = "a time") -> float:
    """A time in seconds: a finite number above 0 and at most ``most`` (no NaN, no
    infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LimitError(f"{what} is a number of seconds, not {value!r:.40}")
    seconds = float(value)
    if not math.isfinite(seconds) or not 0 < seconds <= most:
        raise LimitError(f"{what} is a number of seconds above 0 and at most {most:g}")
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
