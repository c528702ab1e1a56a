"""The one set of limits: seeds, times and names, refused with one sentence."""

from __future__ import annotations

import math

import pytest
from atout.core.limits import MAX_NAME
from atout.core.limits import MAX_SEED
from atout.core.limits import LimitError
from atout.core.limits import check_name
from atout.core.limits import check_seconds
from atout.core.limits import check_seed


@pytest.mark.parametrize("seed", [0, 7, MAX_SEED])
def test_a_seed_of_at_most_18_digits_is_taken(seed: int) -> None:
    assert check_seed(seed) == seed


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 10**40, True, 1.5, "7", None])
def test_other_seeds_are_refused(seed: object) -> None:
    with pytest.raises(LimitError, match="seed is a whole number"):
        check_seed(seed)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 0, -1, 61, 1e308, "1"])
def test_times_must_be_finite_and_in_range(value: object) -> None:
    with pytest.raises(LimitError, match="seconds"):
        check_seconds(value, most=60)


def test_a_time_in_range_is_taken() -> None:
    assert check_seconds(2, most=60) == 2.0


@pytest.mark.parametrize(
    "name", ["\ud800", "a\x1b]0;title\x07", "line\nbreak", "x" * (MAX_NAME + 1), 7]
)
def test_names_that_cannot_be_shown_or_saved_are_refused(name: object) -> None:
    with pytest.raises(LimitError):
        check_name(name)


@pytest.mark.parametrize("name", ["", "Anne-Sophie", "Zoë 2", "x" * MAX_NAME])
def test_ordinary_names_are_taken(name: str) -> None:
    assert check_name(name) == name
