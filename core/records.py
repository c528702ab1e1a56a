"""Deal and match records: versioned JSON that replays a deal exactly, checking every action.

A deal record holds the rules (the pack's name and every resolved option), the initial
layout of the cards, and every action.  Replaying it needs no random source: the layout
is written down.  A record may instead *set up* a position by hand (the ``start`` key):
hands or piles, contract, dealer, leader and the tricks already played, as FEN does for
chess.  A match record holds the match's seed and its deal records; replaying it re-runs
the match from the seed and checks each deal against its record.  The format is
documented in ``docs/records.md``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .cards import CardParseError
from .cards import card_str
from .cards import cards_of
from .cards import parse_card
from .cards import parse_suit
from .cards import suit_str
from .engine import Deal
from .engine import Engine
from .engine import Match
from .engine import check_layout
from .engine import direction_of
from .errors import AtoutError
from .errors import IllegalMoveError
from .errors import RecordError
from .errors import error_message
from .files import JsonLimitError
from .files import loads_json
from .files import read_text
from .files import write_atomic
from .limits import MAX_NAME
from .limits import MAX_TARGET
from .limits import LimitError
from .limits import check_seed
from .model import CLAIM
from .model import Action
from .model import Bid
from .model import Contract
from .model import DealScore
from .model import GameInfo
from .model import Layout
from .model import Play
from .model import Rules
from .model import Trick
from .state import PLAY
from .state import REDEAL
from .state import DealState
from .text import Message

DEAL_FORMAT = "atout-deal"
MATCH_FORMAT = "atout-match"
VERSION = 1
MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record file read (8 MiB: a match of a thousand deals is far below it)."""
MAX_DEALS = 10_000
"""The most deals a match record may hold."""
MAX_ACTIONS = 1_000
"""The most actions a deal record may hold (a deal has at most a few dozen)."""
CONTRACT_LEVELS = (1, 2, 4)
"""The levels a contract may have: plain, doubled, redoubled (``Contract.level``)."""
MAX_TEXT = 200
"""The longest text a record's field may hold (a bid, a contract's name, a pack's name)."""


# --- writing -----------------------------------------------------------------------------


def _cards(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def layout_to_json(layout: Layout) -> dict[str, Any]:
    """The JSON form of a layout."""
    out: dict[str, Any] = {"hands": [_cards(h) for h in layout.hands]}
    if layout.piles:
        out["piles"] = [
            [
                {k: card_str(v) for k, v in (("up", top), ("down", down)) if v is not None}
                for top, down in row
            ]
            for row in layout.piles
        ]
    if layout.stock:
        out["stock"] = [card_str(c) for c in layout.stock]
    if layout.turnup is not None:
        out["turnup"] = card_str(layout.turnup)
    if layout.open_hands:
        out["open_hands"] = True
    return out


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    """The JSON form of one action."""
    if isinstance(action, Play):
        return {"seat": seat, "play": card_str(action.card)}
    if isinstance(action, Bid):
        return {"seat": seat, "bid": action.text}
    return {"seat": seat, action.kind: True}


def score_to_json(score: DealScore) -> dict[str, Any]:
    """The JSON form of a deal's score."""
    return {
        "score": list(score.score),
        "card_points": list(score.card_points),
        "declaration_points": list(score.declaration_points),
        "outcome": score.outcome,
        "made": score.made,
        "capot": score.capot,
    }


def deal_to_record(deal: Deal, seed: int | None = None) -> dict[str, Any]:
    """The record of ``deal`` (finished or not) as a JSON-ready dict."""
    s = deal.state
    record: dict[str, Any] = {
        "format": DEAL_FORMAT,
        "version": VERSION,
        "game": s.game,
        "pack": s.rules.pack,
        "rules": s.rules.to_dict(),
        "dealer": s.dealer,
        "layout": layout_to_json(s.layout),
        "actions": [action_to_json(seat, a) for seat, a in deal.actions],
    }
    if seed is not None:
        record["seed"] = seed
    if s.carry_in is not None:
        record["carry_in"] = s.carry_in
    start = s.extra.get("start")
    if start is not None:
        record["start"] = start
    if deal.score is not None:
        record["result"] = score_to_json(deal.score)
    elif s.phase == REDEAL:
        record["result"] = {"outcome": "redeal"}
    return record


def match_to_record(
    match: Match, players: Sequence[Mapping[str, str]] | None = None
) -> dict[str, Any]:
    """The record of a whole match: its seed, rules and every deal; ``players`` (one
    ``{"kind", "name", "bot"}`` object a seat) says who played it, when known.  A
    practice match (free undo) says so with ``"practice": true``; other matches have no
    such key, so their records read as they always did."""
    record: dict[str, Any] = {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "game": match.game,
        "pack": match.rules.pack,
        "rules": match.rules.to_dict(),
        "seed": match.seed,
        "first_dealer": match.first_dealer,
    }
    if match.practice:
        record["practice"] = True
    if players is not None:
        record["players"] = [dict(p) for p in players]
    record["deals"] = [deal_to_record(d) for d in match.deals]
    record["scores"] = list(match.scores)
    result = match.result
    record["result"] = (
        None if result is None else {"winner": result.winner, "reason": result.reason}
    )
    return record


def record_text(data: dict[str, Any]) -> str:
    """A record as its file holds it (JSON, one field a line, non-ASCII kept)."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def save_json(path: str | os.PathLike[str], data: dict[str, Any]) -> Path:
    """Write ``data`` to ``path`` atomically and durably (a crash never leaves half a
    file, nor loses the one that was there)."""
    return write_atomic(path, record_text(data))


# --- reading -------------------------------------------------------------------------------


def load_json(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file; any problem is one :class:`RecordError` naming the file.

    The limits (size, nesting, integers, finite numbers) are checked here, before any
    rule plugin sees a value of the record."""
    p = Path(path)
    text = read_text(p, MAX_RECORD_BYTES)
    data = parse_json(text, str(p))
    if not isinstance(data, dict):
        raise RecordError(
            Message(
                "{file}: {problem}",
                file=str(p),
                problem=Message("a record is a JSON object, not {kind}", kind=_json_kind(data)),
            )
        )
    return data


def parse_json(text: str, source: str) -> Any:
    """``text`` parsed within the limits of :func:`atout.core.files.loads_json`; a problem
    is one :class:`RecordError` naming ``source`` (and the line)."""
    try:
        return loads_json(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            Message(
                "{file}: line {line}: {problem}",
                file=source,
                line=exc.lineno,
                problem=Message("not valid JSON ({reason})", reason=exc.msg),
            )
        ) from None
    except JsonLimitError as exc:
        raise RecordError(Message("{file}: {problem}", file=source, problem=str(exc))) from None
    except ValueError as exc:
        raise RecordError(
            Message(
                "{file}: {problem}",
                file=source,
                problem=Message("not valid JSON ({reason})", reason=str(exc)),
            )
        ) from None


def _shown(value: object, width: int = 40) -> str:
    """A value of a record as a message shows it: its ``repr`` (control characters
    escaped), cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _one_line(text: object) -> str:
    """A plugin's objection as one line of bounded length."""
    line = " ".join(str(text).split())
    return line if len(line) <= 300 else line[:297] + "..."


def _json_kind(value: object) -> str:
    """The JSON name of a value's kind, for messages (a :class:`Message`: translated
    where a message holds it)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return Message("a boolean")
    if isinstance(value, int | float):
        return Message("a number")
    if isinstance(value, str):
        return Message("a text")
    if isinstance(value, list):
        return Message("a list")
    return Message("an object")


class _Reader:
    """Reads one record's fields, each problem naming the file and the field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> RecordError:
        """The problem ``message`` (best a :class:`~atout.core.text.Message`) of the
        field ``where``, naming the file and the field as they are written."""
        return RecordError(
            Message("{file}: {key}: {problem}", file=self.source, key=where, problem=message)
        )

    def card(self, value: object, where: str) -> int:
        if not isinstance(value, str):
            raise self.fail(
                where, Message('a card is a text such as "JH", not {value}', value=_shown(value))
            )
        if len(value) > 8:
            raise self.fail(where, Message("{value} is not a card", value=_shown(value)))
        try:
            return parse_card(value)
        except CardParseError as exc:
            raise self.fail(where, error_message(exc)) from None

    def cards(self, value: object, where: str) -> int:
        if not isinstance(value, list):
            raise self.fail(where, Message("expected a list of cards"))
        mask = 0
        for i, v in enumerate(value):
            c = self.card(v, f"{where}[{i}]")
            if mask >> c & 1:
                raise self.fail(where, Message("{card} is listed twice", card=card_str(c)))
            mask |= 1 << c
        return mask

    def seat(self, value: object, where: str, seats: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
            raise self.fail(
                where,
                Message(
                    "a seat is a number from 0 to {last}, not {value}",
                    last=seats - 1,
                    value=_shown(value),
                ),
            )
        return value

    def layout(self, data: object, seats: int) -> Layout:
        if not isinstance(data, dict):
            raise self.fail(
                "layout", Message("expected an object with hands (and piles, stock, turnup)")
            )
        hands_raw = data.get("hands")
        if not isinstance(hands_raw, list) or len(hands_raw) != seats:
            raise self.fail(
                "layout.hands", Message("expected a list of {count} hands", count=seats)
            )
        hands = [self.cards(h, f"layout.hands[{i}]") for i, h in enumerate(hands_raw)]
        piles: list[tuple[tuple[int | None, int | None], ...]] = []
        raw_piles = data.get("piles", [])
        if raw_piles:
            if not isinstance(raw_piles, list) or len(raw_piles) != seats:
                raise self.fail(
                    "layout.piles", Message("expected a list of {count} rows of piles", count=seats)
                )
            for s, row in enumerate(raw_piles):
                if not isinstance(row, list):
                    raise self.fail(f"layout.piles[{s}]", Message("expected a list of piles"))
                out_row = []
                for i, pile in enumerate(row):
                    where = f"layout.piles[{s}][{i}]"
                    if not isinstance(pile, dict) or set(pile) - {"up", "down"}:
                        raise self.fail(
                            where,
                            Message(
                                "a pile is {shape}, either optional",
                                shape='{"up": CARD, "down": CARD}',
                            ),
                        )
                    up = self.card(pile["up"], where + ".up") if "up" in pile else None
                    down = self.card(pile["down"], where + ".down") if "down" in pile else None
                    if up is not None:
                        hands[s] |= 1 << up
                    out_row.append((up, down))
                piles.append(tuple(out_row))
        raw_stock = data.get("stock", [])
        if not isinstance(raw_stock, list):
            raise self.fail("layout.stock", Message("expected a list of cards"))
        stock = [self.card(c, f"layout.stock[{i}]") for i, c in enumerate(raw_stock)]
        turnup = self.card(data["turnup"], "layout.turnup") if data.get("turnup") else None
        return Layout(
            hands=tuple(hands),
            piles=tuple(piles),
            stock=tuple(stock),
            turnup=turnup,
            open_hands=bool(data.get("open_hands", False)),
        )

    def actions(self, data: object, where: str) -> list[object]:
        if data is None:
            return []
        if not isinstance(data, list):
            raise self.fail(where, Message("expected a list of actions"))
        if len(data) > MAX_ACTIONS:
            raise self.fail(
                where,
                Message(
                    "{count} actions; a deal record holds at most {most}",
                    count=len(data),
                    most=MAX_ACTIONS,
                ),
            )
        return data

    def action(self, data: object, index: int, seats: int, prefix: str = "") -> tuple[int, Action]:
        where = f"{prefix}action {index}"
        if not isinstance(data, dict) or "seat" not in data:
            raise self.fail(
                where, 'an action is {"seat": N, "play": CARD} or {"seat": N, "bid": BID}'
            )
        seat = self.seat(data["seat"], where + ".seat", seats)
        if "play" in data:
            return seat, Play(self.card(data["play"], where + ".play"))
        if "bid" in data:
            if not isinstance(data["bid"], str):
                raise self.fail(where + ".bid", f"a bid is a text, not {_json_kind(data['bid'])}")
            if len(data["bid"]) > MAX_TEXT:
                raise self.fail(where + ".bid", f"a bid of {len(data['bid'])} characters")
            return seat, Bid(data["bid"])
        if data.get("claim") is True:
            return seat, CLAIM
        raise self.fail(where, Message("expected one of the keys play, bid, claim"))


def _check_header(r: _Reader, data: dict[str, Any], fmt: str) -> None:
    if data.get("format") != fmt:
        found = _shown(data.get("format"))
        raise r.fail(
            "format", Message("expected {expected}, found {found}", expected=repr(fmt), found=found)
        )
    if data.get("version") != VERSION:
        found = _shown(data.get("version"))
        raise r.fail(
            "version",
            Message(
                "this atout reads version {version}, found {found}", version=VERSION, found=found
            ),
        )


def _rules(engine: Engine, r: _Reader, data: dict[str, Any]) -> tuple[GameInfo, Rules]:
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise r.fail("game", Message("missing"))
    if len(game) > MAX_TEXT:
        raise r.fail("game", Message("a game's name of {count} characters", count=len(game)))
    options = data.get("rules") or {}
    if not isinstance(options, dict):
        raise r.fail("rules", Message("expected an object of rule options"))
    for key, value in options.items():
        if len(key) > MAX_TEXT:
            raise r.fail("rules", Message("an option's name of {count} characters", count=len(key)))
        if isinstance(value, list | dict):
            raise r.fail(
                f"rules.{key}",
                Message("expected a single value, not {kind}", kind=_json_kind(value)),
            )
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise r.fail(f"rules.{key}", Message("a text of {count} characters", count=len(value)))
    pack = data.get("pack")
    if pack is not None and (not isinstance(pack, str) or len(pack) > MAX_TEXT):
        raise r.fail("pack", Message("expected a pack's name, not {value}", value=_shown(pack)))
    try:
        info = engine.game(game)
        rules = engine.make_rules(game, options, str(pack or ""))
    except AtoutError as exc:
        raise r.fail("rules", error_message(exc)) from None
    return info, rules


def deal_from_record(engine: Engine, data: dict[str, Any], source: str = "record") -> Deal:
    """Rebuild a deal from its record, re-checking every action.

    A malformed record or an illegal action raises :class:`RecordError` naming ``source``
    and the action's number.  The returned deal stands after the last recorded action.
    """
    r = _Reader(source)
    _check_header(r, data, DEAL_FORMAT)
    info, rules = _rules(engine, r, data)
    dealer = r.seat(data.get("dealer"), "dealer", info.seats)
    layout = r.layout(data.get("layout"), info.seats)
    start = data.get("start")
    tricks = _start_tricks(r, start, info.seats) if start is not None else []
    played = 0
    for _, cards in tricks:
        for c in cards:
            if played >> c & 1:
                raise r.fail("start.tricks", Message("{card} is played twice", card=card_str(c)))
            played |= 1 << c
    try:
        check_layout(layout, info, played=played)
    except AtoutError as exc:
        raise r.fail("layout", str(exc).replace("atout_deal for ", "the layout of ")) from None
    problems = engine.hooks.check_layout(
        game=info.name,
        rules=rules,
        layout=layout,
        dealer=dealer,
        bidding=start is None,
    )
    for problem in problems:
        if problem:
            raise r.fail("layout", _one_line(problem))
    carry_in = data.get("carry_in")
    if carry_in is not None:
        for problem in engine.hooks.check_carry_in(game=info.name, rules=rules, carry_in=carry_in):
            if problem:
                raise r.fail("carry_in", _one_line(problem))
    state = DealState(info.name, rules, info.seats, info.teams, dealer, layout, direction_of(rules))
    state.carry_in = carry_in
    if start is not None:
        _apply_start(engine, r, state, start, tricks)
    try:
        deal = engine.deal_from_state(state)
    except AtoutError as exc:
        raise r.fail("start", error_message(exc)) from None
    raw_actions = r.actions(data.get("actions"), "actions")
    actions = [r.action(a, i + 1, info.seats) for i, a in enumerate(raw_actions)]
    for i, (seat, action) in enumerate(actions, start=1):
        _replay_one(r, deal, seat, action, f"action {i}")
    return deal


def _replay_one(r: _Reader, deal: Deal, seat: int, action: Action, where: str) -> None:
    if deal.is_over:
        raise r.fail(
            where, Message("the deal is already over, {action} cannot follow", action=str(action))
        )
    if seat != deal.turn:
        raise r.fail(
            where,
            Message("seat {seat} acts, but it is seat {turn}'s turn", seat=seat, turn=deal.turn),
        )
    try:
        deal.apply(action)
    except AtoutError as exc:
        raise r.fail(where, f"seat {seat} {action.kind} {action}: {exc}") from None


def _start_tricks(r: _Reader, start: object, seats: int) -> list[tuple[int | None, list[int]]]:
    """The tricks a set-up position says were already played: (leader or None, cards)."""
    if not isinstance(start, dict):
        raise r.fail("start", Message("expected an object with contract, leader and tricks"))
    raw = start.get("tricks", [])
    if not isinstance(raw, list):
        raise r.fail("start.tricks", Message("expected a list of tricks"))
    out: list[tuple[int | None, list[int]]] = []
    for i, t in enumerate(raw):
        where = f"start.tricks[{i}]"
        leader: int | None = None
        if isinstance(t, dict):
            if "leader" in t:
                leader = r.seat(t["leader"], where + ".leader", seats)
            t = t.get("cards")
        if not isinstance(t, list) or len(t) != seats:
            raise r.fail(
                where, Message("a trick is a list of {count} cards in play order", count=seats)
            )
        r.cards(t, where)
        out.append((leader, [r.card(c, where) for c in t]))
    return out


def _apply_start(
    engine: Engine,
    r: _Reader,
    state: DealState,
    start: dict[str, Any],
    tricks: list[tuple[int | None, list[int]]],
) -> None:
    """Put a hand-written position into ``state``: contract, the tricks already played
    (their winners and points found by the rules), and who is to lead."""
    contract = start.get("contract")
    if not isinstance(contract, dict):
        raise r.fail("start.contract", 'expected {"taker": SEAT, "trump": SUIT}')
    taker = r.seat(contract.get("taker"), "start.contract.taker", state.seats)
    trump_raw = contract.get("trump")
    try:
        trump = parse_suit(str(trump_raw)) if trump_raw is not None else None
    except CardParseError as exc:
        raise r.fail("start.contract.trump", error_message(exc)) from None
    name = contract.get("name") or (suit_str(trump) if trump is not None else "")
    value = contract.get("value")
    if value is not None and (type(value) is not int or not 0 <= value <= MAX_TARGET):
        raise r.fail(
            "start.contract.value",
            Message("a whole number from 0 to {most}, or absent", most=MAX_TARGET),
        )
    level = contract.get("level", 1)
    if level not in CONTRACT_LEVELS or type(level) is not int:
        raise r.fail("start.contract.level", Message("1 (plain), 2 (doubled) or 4 (redoubled)"))
    state.contract = Contract(taker, trump, str(name), value, level)
    state.phase = PLAY
    leader = r.seat(start.get("leader"), "start.leader", state.seats)
    try:
        rc = engine.play_rules(state.game, state.rules, state.contract)
    except AtoutError as exc:
        raise r.fail("start.contract", error_message(exc)) from None
    for given, cards in tricks:
        if given is not None:
            leader = given
        win_card, winner = cards[0], leader
        for k, c in enumerate(cards[1:], start=1):
            if rc.beats[win_card] >> c & 1:
                win_card, winner = c, (leader + k * state.direction) % state.seats
        points = sum(rc.values.points[c] for c in cards)
        if len(state.tricks) + 1 == state.tricks_per_deal:
            points += rc.values.last_trick
        trick = Trick(leader, tuple(cards), winner, points)
        state.tricks.append(trick)
        state.points[winner] += points
        for c in cards:
            state.won[winner] |= 1 << c
            state.played |= 1 << c
        leader = winner
    state.leader = state.turn = leader
    state.extra["start"] = start
    state.extra["declarations"] = bool(start.get("declarations", not tricks))


def iter_record_deals(engine: Engine, data: dict[str, Any], source: str) -> Iterator[Deal]:
    """Replay every deal of a deal or match record, checking each."""
    fmt = data.get("format")
    if fmt == DEAL_FORMAT:
        yield deal_from_record(engine, data, source)
        return
    if fmt != MATCH_FORMAT:
        expected = Message(
            "{first} or {second}", first=repr(DEAL_FORMAT), second=repr(MATCH_FORMAT)
        )
        raise _Reader(source).fail(
            "format",
            Message("expected {expected}, found {found}", expected=expected, found=_shown(fmt)),
        )
    match = match_from_record(engine, data, source)
    yield from match.deals


def trace_record(
    engine: Engine, data: dict[str, Any], source: str
) -> Iterator[tuple[str, Iterator[dict[str, Any]]]]:
    """The traces of a deal record, or of each deal of a match record: ``(source, steps)``
    where ``source`` names the deal (``FILE deal N`` in a match).  A match record is
    first checked whole as ``replay`` checks it (:func:`match_from_record`): every
    command that reads a record refuses what the others refuse."""
    fmt = data.get("format")
    if fmt == DEAL_FORMAT:
        yield source, trace(data, engine, source)
        return
    match_from_record(engine, data, source)  # the one check of a match record
    deals = _deal_list(_Reader(source), data)
    for n, deal_data in enumerate(deals, start=1):
        where = source if len(deals) == 1 else f"{source} deal {n}"
        yield where, trace(deal_data, engine, where)


def _deal_list(r: _Reader, data: dict[str, Any]) -> list[Any]:
    """A match record's ``deals``: a list of at most :data:`MAX_DEALS` entries."""
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise r.fail("deals", Message("expected a list of deal records"))
    if len(deals) > MAX_DEALS:
        raise r.fail(
            "deals",
            Message(
                "{count} deals; a match record holds at most {most}",
                count=len(deals),
                most=MAX_DEALS,
            ),
        )
    return deals


PLAYER_KINDS = ("person", "bot", "remote")
"""Who may sit at a seat: a person at the front end, a bot, a player from elsewhere."""


def check_player(data: object, where: str) -> dict[str, str]:
    """One seat's player, ``{"kind", "name", "bot"}``, checked; anything else is one
    :class:`~atout.core.errors.RecordError` naming ``where``."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a player is an object with kind, name and bot")
    kind, name, bot = data.get("kind"), data.get("name", ""), data.get("bot", "")
    if kind not in PLAYER_KINDS:
        raise RecordError(f"{where}.kind: one of {', '.join(PLAYER_KINDS)}, not {_shown(kind)}")
    for key, text in (("name", name), ("bot", bot)):
        if not isinstance(text, str) or len(text) > MAX_NAME:
            raise RecordError(f"{where}.{key}: a text of at most {MAX_NAME} characters")
    if kind == "bot" and not bot:
        raise RecordError(f"{where}.bot: a bot seat names its bot")
    return {"kind": kind, "name": name, "bot": bot}


def record_players(data: dict[str, Any], source: str, seats: int) -> list[dict[str, str]] | None:
    """The players a match record names (one a seat), or ``None`` when it names none
    (records written before the field, or by a front end that knows no names)."""
    raw = data.get("players")
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != seats:
        raise RecordError(f"{source}: players: expected a list of {seats} players")
    return [check_player(p, f"{source}: players[{i}]") for i, p in enumerate(raw)]


def record_practice(data: dict[str, Any], source: str) -> bool:
    """Whether a match record is of a practice match (free undo): its ``practice`` key,
    ``true`` or ``false``; a record without it (every record written before the key,
    and every match that was not practice) is not."""
    practice = data.get("practice", False)
    if not isinstance(practice, bool):
        raise RecordError(f"{source}: practice: expected true or false, not {_shown(practice)}")
    return practice


def match_from_record(engine: Engine, data: dict[str, Any], source: str = "record") -> Match:
    """Re-run a match from its seed, checking each deal against its record; the match
    stands where the record ends (a saved match resumes here)."""
    r = _Reader(source)
    _check_header(r, data, MATCH_FORMAT)
    info, rules = _rules(engine, r, data)
    try:
        seed = check_seed(data.get("seed"))
    except LimitError as exc:
        raise r.fail("seed", error_message(exc)) from None
    record_players(data, source, info.seats)
    practice = record_practice(data, source)
    first = data.get("first_dealer", info.seats - 1)
    match = Match(
        engine,
        info.name,
        rules,
        seed=seed,
        dealer=r.seat(first, "first_dealer", info.seats),
        practice=practice,
    )
    deals = _deal_list(r, data)
    for n, rec in enumerate(deals, start=1):
        if not isinstance(rec, dict):
            raise r.fail(
                f"deal {n}",
                Message("expected a deal record (a JSON object), not {kind}", kind=_json_kind(rec)),
            )
        try:
            deal = match.next_deal()
        except IllegalMoveError as exc:
            raise r.fail(f"deal {n}", f"no deal can follow here: {exc}") from None
        expected = layout_to_json(deal.state.layout)
        if rec.get("layout") != expected:
            raise r.fail(f"deal {n}", Message("its layout is not what the match's seed deals"))
        _check_match_deal(r, rec, n, deal, data)
        for i, a in enumerate(r.actions(rec.get("actions"), f"deal {n} actions"), start=1):
            seat, action = r.action(a, i, info.seats, f"deal {n} ")
            _replay_one(r, deal, seat, action, f"deal {n} action {i}")
        if deal.is_over:
            match.end_deal(deal)
    return match


MATCH_KEYS = ("game", "pack", "rules")
"""The keys a match record's deal holds as its match holds them."""
DEALT_KEYS = ("dealer", "carry_in", "start")
"""The keys of a match record's deal that the match's own deal decides (its actions are
replayed)."""


def _check_match_deal(
    r: _Reader, rec: dict[str, Any], n: int, deal: Deal, data: dict[str, Any]
) -> None:
    """Deal ``n`` of the match record ``data`` says what its match says and deals: its
    format and version, :data:`MATCH_KEYS` as the match record holds them and
    :data:`DEALT_KEYS` as the match deals them (each one it holds), so that a deal read
    alone (``replay --trace``, ``review --deal N``) is the deal ``replay`` checked."""
    expected = {"format": DEAL_FORMAT, "version": VERSION}
    expected.update({key: data.get(key) for key in MATCH_KEYS})
    dealt = deal_to_record(deal)
    expected.update({key: dealt.get(key) for key in DEALT_KEYS})
    for key, value in expected.items():
        if key in rec and rec[key] != value:
            raise r.fail(
                f"deal {n}.{key}",
                Message(
                    "{value} is not what the match says ({expected})",
                    value=_shown(rec[key]),
                    expected=_shown(value),
                ),
            )


def trace(deal_data: Any, engine: Engine, source: str = "record") -> Iterator[dict[str, Any]]:
    """Replay a deal record step by step: for each action, the seat to act, the legal
    actions and the action taken; after each trick its winner and points; last, the score."""
    if not isinstance(deal_data, dict):
        kind = _json_kind(deal_data)
        raise RecordError(
            Message(
                "{file}: {problem}",
                file=source,
                problem=Message("expected a deal record (a JSON object), not {kind}", kind=kind),
            )
        )
    r = _Reader(source)
    _check_header(r, deal_data, DEAL_FORMAT)
    stripped = dict(deal_data)
    actions = r.actions(stripped.pop("actions", None), "actions")
    stripped["actions"] = []
    stripped.pop("result", None)
    deal = deal_from_record(engine, stripped, source)
    info = engine.game(deal.state.game)
    for i, a in enumerate(actions, start=1):
        seat, action = r.action(a, i, info.seats)
        tricks_before = len(deal.state.tricks)
        legal = [str(x) for x in deal.legal_actions()]
        _replay_one(r, deal, seat, action, f"action {i}")
        yield {
            "step": i,
            "seat": seat,
            "phase": "bidding" if action.kind == "bid" else "play",
            "legal": legal,
            "action": str(action),
        }
        if len(deal.state.tricks) > tricks_before:
            t = deal.state.tricks[-1]
            yield {
                "trick": len(deal.state.tricks),
                "cards": [card_str(c) for c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
    final: dict[str, Any] = {"end": True, "phase": deal.state.phase}
    if deal.score is not None:
        final.update(score_to_json(deal.score))
    yield final
