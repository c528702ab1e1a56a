"""The typed seams of the core: actions are :class:`Bid`, :class:`Play` and
:class:`Claim`, each with its own typed field, and events one frozen class per kind;
their JSON forms (records, the protocol) stay what they were."""

from __future__ import annotations

import json

import pytest
from atout.core import CLAIM
from atout.core import Action
from atout.core import Bid
from atout.core import CardValues
from atout.core import Claim
from atout.core import Contract
from atout.core import DealScore
from atout.core import Engine
from atout.core import Match
from atout.core import MatchResult
from atout.core import MoveRule
from atout.core import Play
from atout.core import Rules
from atout.core import Trick
from atout.core import parse_card
from atout.core.errors import PluginError
from atout.core.errors import RecordError
from atout.core.hookcalls import Hooks
from atout.core.hookspecs import all_hook_names
from atout.core.records import action_to_json
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.session import ANNOUNCE
from atout.core.session import BID
from atout.core.session import BOT
from atout.core.session import CLAIM as CLAIMED
from atout.core.session import CONTRACT
from atout.core.session import DEAL
from atout.core.session import EVENT_CLASSES
from atout.core.session import HAND
from atout.core.session import MATCH_OVER
from atout.core.session import NOTICE
from atout.core.session import PLAY
from atout.core.session import REDEAL
from atout.core.session import SCORE
from atout.core.session import TRICK
from atout.core.session import TURN
from atout.core.session import UNDO
from atout.core.session import AnnounceEvent
from atout.core.session import BidEvent
from atout.core.session import ClaimEvent
from atout.core.session import ContractEvent
from atout.core.session import DealEvent
from atout.core.session import Event
from atout.core.session import HandEvent
from atout.core.session import MatchOverEvent
from atout.core.session import NoticeEvent
from atout.core.session import Player
from atout.core.session import PlayEvent
from atout.core.session import RedealEvent
from atout.core.session import ScoreEvent
from atout.core.session import Session
from atout.core.session import TrickEvent
from atout.core.session import TurnEvent
from atout.core.session import UndoEvent


def test_an_action_is_one_of_three_typed_classes() -> None:
    jack = parse_card("JH")
    assert Play(jack).card == jack and Play(jack).kind == "play" and Play(jack).value == jack
    assert Bid("take").text == "take" and Bid("take").kind == "bid"
    assert Claim() == CLAIM and CLAIM.kind == "claim" and CLAIM.value is None
    assert str(Play(jack)) == "JH" and str(Bid("pass")) == "pass" and str(CLAIM) == "claim"
    with pytest.raises(TypeError, match="Bid"):
        Action("claim")


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


# --- events: one frozen class per kind -----------------------------------------------------


def test_each_kind_of_event_has_its_class_and_the_class_its_kind() -> None:
    assert set(EVENT_CLASSES) == {
        DEAL, HAND, BID, CONTRACT, PLAY, ANNOUNCE, TURN, TRICK, CLAIMED, SCORE, REDEAL,
        MATCH_OVER, UNDO, NOTICE,
    }  # fmt: skip
    for kind, event_class in EVENT_CLASSES.items():
        assert event_class.kind == kind
    with pytest.raises(TypeError, match="PlayEvent"):
        Event(seat=0)


def test_an_undo_counts_its_actions_in_its_own_field() -> None:
    undo = UndoEvent(seat=1, deal=2, actions=3)
    assert undo.actions == 3 and undo.points == 0
    assert undo.to_json() == {"kind": "undo", "deal": 2, "seat": 1, "actions": 3}
    again = Event.from_json(undo.to_json())
    assert isinstance(again, UndoEvent) and again == undo


def test_a_kind_reads_back_from_json_as_its_class_with_its_fields() -> None:
    trick = Trick(1, (parse_card("JH"), parse_card("9H")), 1, 34)
    events: list[Event] = [
        DealEvent(seat=3, deal=1, card=parse_card("7S")),
        HandEvent(seat=0, deal=1, cards=1 << parse_card("AH"), to=0),
        BidEvent(seat=0, deal=1, text="take"),
        ContractEvent(seat=0, deal=1, contract=Contract(0, 2, "H")),
        PlayEvent(seat=1, deal=1, card=parse_card("JH")),
        AnnounceEvent(seat=1, deal=1, text="belote", cards=1 << parse_card("KH")),
        TurnEvent(seat=0, deal=1, card=parse_card("8C")),
        TrickEvent(seat=1, deal=1, trick=trick),
        ClaimEvent(seat=1, deal=1),
        ScoreEvent(deal=1, score=DealScore((100, 62), (0, 0), (100, 62), "made"), scores=(1, 2)),
        RedealEvent(deal=2),
        MatchOverEvent(deal=3, result=MatchResult(0, "reached 1000")),
        NoticeEvent(deal=3, text="a bot failed"),
    ]
    for event in events:
        again = Event.from_json(json.loads(json.dumps(event.to_json())))
        assert type(again) is type(event)
        assert again.to_json() == event.to_json()
    assert TrickEvent(seat=1, trick=trick).points == 34
    assert TrickEvent(seat=1, trick=trick).to_json()["points"] == 34
    assert HandEvent(seat=2, cards=1, to=2).visible_to(2)
    assert not HandEvent(seat=2, cards=1, to=2).visible_to(0)


def test_an_event_lacking_a_field_of_its_kind_or_of_no_kind_is_refused() -> None:
    for data in ({"kind": "play", "deal": 1, "seat": 0}, {"kind": "fold", "deal": 1}):
        with pytest.raises(RecordError, match="not an event"):
            Event.from_json(data)


def test_a_session_answers_events_of_their_kinds_classes(engine: Engine) -> None:
    session = Session(engine, "decouverte", players=[Player(BOT, "", "greedy")] * 2, seed=4)
    events = session.next_deal() + session.play_bots()
    assert {type(e) for e in events} >= {DealEvent, HandEvent, BidEvent, PlayEvent, TrickEvent}
    for event in events:
        assert type(event) is EVENT_CLASSES[event.kind]


# --- the hooks, called through their typed methods -----------------------------------------


def test_every_hook_has_its_typed_method() -> None:
    methods = {name for name in dir(Hooks) if not name.startswith("_")}
    assert methods == {name.removeprefix("atout_") for name in all_hook_names()}


def test_a_typed_hook_method_answers_what_the_hook_declares(engine: Engine) -> None:
    rules = engine.default_rules("belote")
    contract = Contract(0, 2, "H")
    moves = engine.hooks.legal_moves(game="belote", rules=rules, contract=contract)
    assert isinstance(moves, MoveRule)
    beats = engine.hooks.trick_winner(game="belote", rules=rules, contract=contract)
    assert type(beats) is tuple and len(beats) == 32
    assert isinstance(
        engine.hooks.card_points(game="belote", rules=rules, contract=contract), CardValues
    )
    names = [g.name for answer in engine.hooks.games() for g in answer or ()]
    assert "belote" in names and "decouverte" in names


def test_a_hook_method_is_bound_once_and_asks_its_own_caller() -> None:
    # The engine asks hooks every deal: each method is bound when the Hooks are made,
    # not again (a new closure) at each lookup; a required hook asks ``decide``, the
    # others ``call``, with the hook's name and its keyword arguments.
    asked: list[tuple[str, str, dict[str, object]]] = []

    def call(name: str, kw: dict[str, object]) -> None:
        asked.append(("call", name, kw))

    def decide(name: str, kw: dict[str, object]) -> str:
        asked.append(("decide", name, kw))
        return "answer"

    hooks = Hooks(call, decide)
    assert hooks.deal is hooks.deal and hooks.games is hooks.games
    assert Hooks(hooks._call, hooks._decide).deal is not hooks.deal
    assert hooks.score_deal(game="g", rules=None, state=None) == "answer"  # type: ignore[arg-type]
    hooks.end_of_trick(game="g", rules=None, contract=None)  # type: ignore[arg-type]
    assert asked == [
        ("decide", "atout_score_deal", {"game": "g", "rules": None, "state": None}),
        ("call", "atout_end_of_trick", {"game": "g", "rules": None, "contract": None}),
    ]
    with pytest.raises(TypeError, match="atout_deal takes its arguments by keyword"):
        hooks.deal("g")  # type: ignore[call-arg]


def test_a_required_hook_nobody_answers_is_a_plugin_error(engine: Engine) -> None:
    rules = engine.default_rules("belote")
    stranger = Rules("no-such-game", dict(rules))
    with pytest.raises(PluginError, match="no plugin answered atout_legal_moves"):
        engine.hooks.legal_moves(game="no-such-game", rules=stranger, contract=Contract(0, 0, "C"))
    assert (
        engine.hooks.end_of_trick(game="no-such-game", rules=stranger, contract=Contract(0, 0, "C"))
        is None
    )


# --- rule options, typed -------------------------------------------------------------------


def test_rule_options_read_typed_by_their_kind(engine: Engine) -> None:
    rules = engine.default_rules("belote")
    assert rules.number("capot_bonus") == 90 and rules.text("undertrump") == "not-on-partner"
    assert rules.number("no_such_option", 7) == 7 and rules.text("no_such_option", "x") == "x"
    with pytest.raises(TypeError, match="arret"):
        rules.number("arret")  # a true-or-false option is no whole number
    with pytest.raises(TypeError, match="capot_bonus"):
        rules.text("capot_bonus")
    with pytest.raises(KeyError, match="no_such_option"):
        rules.number("no_such_option")
