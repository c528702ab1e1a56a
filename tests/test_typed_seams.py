"""The typed seams of the core: actions are :class:`Bid`, :class:`Play` and
:class:`Claim`, each with its own typed field, and their JSON forms in records stay what
they were."""

from __future__ import annotations

import pytest
from atout.core import CLAIM
from atout.core import Action
from atout.core import Bid
from atout.core import Claim
from atout.core import Engine
from atout.core import Match
from atout.core import Play
from atout.core import parse_card
from atout.core.records import action_to_json
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record


def test_an_action_is_one_of_three_typed_classes() -> None:
    jack = parse_card("JH")
    assert Play(jack).card == jack and Play(jack).kind == "play" and Play(jack).value == jack
    assert Bid("take").text == "take" and Bid("take").kind == "bid"
    assert Claim() == CLAIM and CLAIM.kind == "claim" and CLAIM.value is None
    assert str(Play(jack)) == "JH" and str(Bid("pass")) == "pass" and str(CLAIM) == "claim"
    with pytest.raises(TypeError, match="Bid"):
        Action("claim")  # type: ignore[call-arg]


def test_actions_of_different_classes_differ_and_a_reason_changes_nothing() -> None:
    assert Play(3) != Bid("3") and Play(3) != CLAIM and Bid("claim") != CLAIM
    assert Play(3, reason="why") == Play(3) and hash(Play(3, reason="why")) == hash(Play(3))
    assert Play(3, reason="why").plain.reason == ""


def test_action_of_makes_the_typed_action_and_refuses_the_rest() -> None:
    assert Action.of("play", 5) == Play(5) and type(Action.of("play", 5)) is Play
    assert Action.of("bid", "pass") == Bid("pass")
    assert Action.of("claim") is CLAIM
    for kind, value in (("play", "JH"), ("play", 32), ("bid", 3), ("claim", 1), ("fold", None)):
        with pytest.raises(ValueError, match=kind):
            Action.of(kind, value)


def test_the_json_forms_of_actions_are_the_records_forms() -> None:
    assert action_to_json(2, Play(parse_card("10S"))) == {"seat": 2, "play": "10S"}
    assert action_to_json(1, Bid("take", reason="a hint")) == {"seat": 1, "bid": "take"}
    assert action_to_json(0, CLAIM) == {"seat": 0, "claim": True}


def test_a_replayed_deal_reads_back_typed_actions(engine: Engine) -> None:
    match = Match(engine, "belote", seed=11)
    deal = match.next_deal()
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    again = deal_from_record(engine, deal_to_record(deal))
    assert again.actions == deal.actions
    kinds = {type(action) for _, action in again.actions}
    assert kinds <= {Bid, Play, Claim} and Play in kinds and Bid in kinds
