"""The conformance kit on both games with the two contracts on: a plugin author's few lines.

``atout_check`` comes from atout's pytest plugin (``atout.testing``): it plays seeded
random matches (random bids, so the random bidders take sans atout and tout atout often)
and fails the test with the kit's report when an invariant breaks.
"""

from __future__ import annotations

import pytest
from atout.testing.pytest_plugin import AtoutCheck
from atout_sans_tout_atout import SANS_ATOUT
from atout_sans_tout_atout import TOUT_ATOUT


@pytest.mark.parametrize("game", ["belote", "decouverte"])
def test_both_contracts_keep_every_invariant(atout_check: AtoutCheck, game: str) -> None:
    report = atout_check(game, {"sans_tout_atout": "both"}, deals=100, seed=1)
    assert report.contracts[SANS_ATOUT] > 20
    assert report.contracts[TOUT_ATOUT] > 20


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("belote", {"sans_tout_atout": "both", "declarations": "none", "undertrump": "always"}),
        ("decouverte", {"sans_tout_atout": "both", "declarations": "on", "reveal_on_lead": True}),
        ("decouverte", {"sans_tout_atout": "both", "belote_rebelote": True}),
    ],
)
def test_the_contracts_keep_the_invariants_beside_the_games_own_variations(
    atout_check: AtoutCheck, game: str, rules: dict[str, object]
) -> None:
    report = atout_check(game, rules, deals=40, seed=7)
    assert report.contracts[SANS_ATOUT] and report.contracts[TOUT_ATOUT]


@pytest.mark.parametrize(
    ("offer", "seen", "never"),
    [
        ("off", (), (SANS_ATOUT, TOUT_ATOUT)),
        ("sans-atout", (SANS_ATOUT,), (TOUT_ATOUT,)),
        ("tout-atout", (TOUT_ATOUT,), (SANS_ATOUT,)),
    ],
)
def test_the_option_decides_which_contracts_are_played(
    atout_check: AtoutCheck, offer: str, seen: tuple[str, ...], never: tuple[str, ...]
) -> None:
    report = atout_check("belote", {"sans_tout_atout": offer}, deals=25, seed=3)
    assert all(report.contracts[c] > 0 for c in seen)
    assert not any(report.contracts[c] for c in never)
