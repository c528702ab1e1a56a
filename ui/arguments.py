"""The command line's argument types, one per kind of value, each a check of
:mod:`atout.core.limits`: every command that takes a seed, a time, a host or a name
takes it through the same function here, so what ``play --seed`` accepts is what the
save reader, ``replay`` and ``--continue`` read back, and no command meets a NaN, an
infinity or a host it cannot reach.  A refused value is argparse's one line (``atout
play: error: argument --seed: ...``) with what is allowed, exit code 2, in the chosen
language (the checks' :class:`~atout.core.text.Message` shown through
:func:`~atout.ui.messages.shown`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from atout.core.limits import A_NAME
from atout.core.limits import A_TIME
from atout.core.limits import MAX_BUDGET
from atout.core.limits import MAX_TARGET
from atout.core.limits import MAX_THINK
from atout.core.limits import MAX_WAIT
from atout.core.limits import LimitError
from atout.core.limits import check_host
from atout.core.limits import check_name
from atout.core.limits import check_seconds
from atout.core.limits import check_seed
from atout.core.text import Message

from .messages import shown
from .messages import shown_error

MAX_DIGITS_TYPED = 40
"""The longest number text read from the command line (longer is refused unread)."""


def refused(message: str) -> argparse.ArgumentTypeError:
    """The error that refuses a value, its message (best a
    :class:`~atout.core.text.Message`) in the chosen language: argparse prints the
    text it is given."""
    return argparse.ArgumentTypeError(shown(message))


def _whole(text: str, what: Message) -> int:
    digits = text.strip()
    given = f"{text!r:.40}"
    not_whole = Message("{what} is a whole number, not {value}", what=what, value=given)
    if not digits.isascii() or len(digits) > MAX_DIGITS_TYPED:
        raise refused(not_whole)
    try:
        return int(digits)
    except ValueError:
        raise refused(not_whole) from None


def seed(text: str) -> int:
    """``--seed``: a whole number from 0 to :data:`~atout.core.limits.MAX_SEED`."""
    try:
        return check_seed(_whole(text, Message("a seed")))
    except LimitError as exc:
        raise argparse.ArgumentTypeError(shown_error(exc)) from None


def whole(least: int, most: int, what: Message) -> Callable[[str], int]:
    """A whole number from ``least`` to ``most`` (a count, a port, a target); ``what``
    names it in the messages."""

    def parse(text: str) -> int:
        value = _whole(text, what)
        if not least <= value <= most:
            raise refused(
                Message(
                    "{what} is a whole number from {least} to {most}",
                    what=what,
                    least=least,
                    most=most,
                )
            )
        return value

    parse.__name__ = str(what)  # argparse names the type in its messages
    return parse


def seconds(most: float, zero: bool = False, what: Message = A_TIME) -> Callable[[str], float]:
    """A time in seconds, finite, above 0 (from 0 with ``zero``) and at most ``most``;
    ``what`` names it in the messages."""

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= MAX_DIGITS_TYPED else None
        except ValueError:
            value = None
        if value is None:
            given = f"{text!r:.40}"
            raise refused(
                Message("{what} is a number of seconds, not {value}", what=what, value=given)
            )
        try:
            return check_seconds(value, most=most, what=what, zero=zero)
        except LimitError as exc:
            raise argparse.ArgumentTypeError(shown_error(exc)) from None

    parse.__name__ = str(what)
    return parse


think = seconds(MAX_THINK, zero=True, what=Message("a thinking time (0: the bot's default)"))
"""``--think``: a bot's time for one decision, 0 (its default) to
:data:`~atout.core.limits.MAX_THINK` seconds."""
budget = seconds(MAX_BUDGET, what=Message("a review's budget"))
"""``--budget``: the review's time for one decision, up to
:data:`~atout.core.limits.MAX_BUDGET` seconds."""
wait = seconds(MAX_WAIT, zero=True, what=Message("a wait"))
"""A server's waits (``--grace``, ``--linger``): 0 to a day."""
port = whole(0, 65535, Message("a port (0: any free port)"))
"""``--port``: 0 to 65535."""
target = whole(1, MAX_TARGET, Message("a target score"))
"""``--target``: a match's target score, 1 to :data:`~atout.core.limits.MAX_TARGET`."""


def add_think(parser: argparse.ArgumentParser, help: str) -> None:
    """Add ``--think`` (type :data:`think`, 0 by default) to a command that runs bots
    (``play``, ``bench``): one option, the same everywhere; ``help`` says what it means
    to that command."""
    parser.add_argument("--think", type=think, default=0.0, metavar="SECONDS", help=help)


def host(text: str) -> str:
    """``--host``: a host name or address (:func:`atout.core.limits.check_host`)."""
    try:
        return check_host(text)
    except LimitError as exc:
        raise argparse.ArgumentTypeError(shown_error(exc)) from None


def listen(text: str) -> tuple[str, int]:
    """``--listen HOST:PORT``: where a hosted table listens."""
    where, colon, number = text.rpartition(":")
    if not colon or not where:
        given = f"{text!r:.60}"
        raise refused(Message("expected HOST:PORT, not {value}", value=given))
    return host(where.strip("[]")), port(number)


def join(text: str) -> str:
    """``--join HOST:PORT/TABLE``: the address of a table, its host checked as
    :func:`host` checks one (the text itself is handed on)."""
    from atout.ui.net.address import parse_address

    try:
        address = parse_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    host(address.host)
    return text


def name(text: str) -> str:
    """``--name``: a player's name (:func:`atout.core.limits.check_name`)."""
    try:
        return check_name(text, what=A_NAME)
    except LimitError as exc:
        raise argparse.ArgumentTypeError(shown_error(exc)) from None


__all__ = [
    "budget",
    "host",
    "join",
    "listen",
    "name",
    "port",
    "refused",
    "seconds",
    "seed",
    "target",
    "think",
    "wait",
    "whole",
]
