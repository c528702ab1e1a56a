"""Seeded fuzzing of the command line's limited values: every option that takes a seed,
a time, a count, a port, a host, an address or a name is given nasty values (NaN,
infinities, huge and negative numbers, numbers in other scripts, brackets, escape
sequences, very long texts).  Each is either refused by the parser with one error line
naming the option (exit code 2), or accepted as a value within :mod:`atout.core.limits`
that every reader takes back; nothing else escapes."""

from __future__ import annotations

import contextlib
import io
import math
import random

import pytest
from atout.core.limits import MAX_BUDGET
from atout.core.limits import MAX_THINK
from atout.core.limits import MAX_WAIT
from atout.core.limits import check_host
from atout.core.limits import check_name
from atout.core.limits import check_seed
from atout.ui import cli
from atout.ui.net.address import parse_address

CASES = 1500

VALUES = [
    "0",
    "1",
    "-1",
    "-0",
    "7",
    "2.5",
    "1e-300",
    "1e308",
    "1e400",
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "Infinity",
    "60",
    "60.0000001",
    "600",
    "86400",
    "86401",
    "65535",
    "65536",
    "999999999999999999",
    "1000000000000000000",
    "9" * 19,
    "9" * 400,
    "0x10",
    "1_000",
    " 5 ",
    "\u0661\u0662",
    "\uff11\uff12",
    "",
    "[",
    "a[b",
    "::1",
    "[::1]",
    "127.0.0.1",
    "host.example.org",
    "h" * 253,
    "h" * 254,
    "evil\x1b]0;title\x07",
    "\u202eevil",
    "\ud800",
    "a b",
    "x:8000/T",
    "[::1]:8000/K7QX2M",
    "a[b:8000/K7QX2M",
    "127.0.0.1:0",
    "0.0.0.0:99999",
    ":8000",
    "Zoë",
    "n" * 101,
]

OPTIONS = [
    (["play", "--text"], "--seed"),
    (["play", "--text"], "--think"),
    (["play", "--text"], "--target"),
    (["play", "--text"], "--name"),
    (["play", "--text"], "--join"),
    (["play", "--host"], "--listen"),
    (["review", "x.json"], "--seed"),
    (["review", "x.json"], "--budget"),
    (["bench"], "--seed"),
    (["bench"], "--think"),
    (["bench"], "--deals"),
    (["serve"], "--host"),
    (["serve"], "--port"),
    (["serve"], "--grace"),
    (["serve"], "--linger"),
]


def _within(option: str, value: object) -> None:
    """An accepted value is within the limits (what a reader of it takes back)."""
    if option == "seed":
        check_seed(value)
    elif option in ("think", "budget", "grace", "linger"):
        most = {"think": MAX_THINK, "budget": MAX_BUDGET}.get(option, MAX_WAIT)
        assert isinstance(value, float) and math.isfinite(value) and 0 <= value <= most
    elif option in ("target", "deals", "port"):
        assert isinstance(value, int) and value >= 0
    elif option == "name":
        check_name(value)
    elif option == "host":
        check_host(value)
    elif option == "join":
        assert isinstance(value, str)
        check_host(parse_address(value).host)
    elif option == "listen":
        assert isinstance(value, tuple)
        check_host(value[0])
        assert 0 <= value[1] <= 65535


def test_fuzzed_limited_values_are_refused_in_one_line_or_taken_within_the_limits() -> None:
    rng = random.Random(1789)
    refused = taken = 0
    for case in range(CASES):
        command, option = rng.choice(OPTIONS)
        value = rng.choice(VALUES)
        argv = [*command, option, value]
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                try:
                    args = cli.parse(argv)
                except SystemExit as exc:
                    assert exc.code == 2
                    last = err.getvalue().strip().splitlines()[-1]
                    assert last.startswith(f"atout {command[0]}: error: argument {option}")
                    assert "\x1b" not in err.getvalue() and "\u202e" not in err.getvalue()
                    refused += 1
                    continue
            _within(option.lstrip("-"), getattr(args, option.lstrip("-")))
            taken += 1
        except BaseException:
            print(f"case {case}: {argv!r}")
            raise
    assert refused > CASES // 3 and taken > CASES // 10, (refused, taken)


@pytest.mark.parametrize("value", ["nan", "inf", "1e308", "-1", "61"])
def test_no_thinking_time_outside_the_limits_reaches_a_bot(value: str) -> None:
    for command in (["play", "--text"], ["bench"]):
        with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            cli.parse([*command, "--think", value])
