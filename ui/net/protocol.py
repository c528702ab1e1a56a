"""The table protocol: JSON messages over a websocket, version :data:`VERSION`.

Every message is one JSON object with a ``type``.  A client sends intentions (``act``
names the seat it holds, the deal and step it answers, and the action); the server checks
everything and answers with ``update`` messages (the events and view of the client's own
seat only) or one ``error``.  ``docs/protocol.md`` documents every message and error.

The wire form of a :class:`~atout.core.views.View` is written here: it carries exactly
what the view holds (the view is already filtered for its seat), except ``unseen``, which
the client works out from the rest, so that no frame ever names a card its seat cannot
see.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Any

from atout.core import CLAIM
from atout.core import Action
from atout.core import Rules
from atout.core import View
from atout.core.cards import FULL_DECK
from atout.core.cards import CardParseError
from atout.core.cards import CardSet
from atout.core.cards import card_str
from atout.core.cards import cards_of
from atout.core.cards import parse_card
from atout.core.limits import MAX_INT_DIGITS
from atout.core.limits import MAX_NAME
from atout.core.limits import printable
from atout.core.model import Announcement
from atout.core.model import Contract
from atout.core.model import Trick
from atout.core.state import Phase
from atout.core.views import PileView

VERSION = 1
"""The protocol version; a ``hello`` with another version is refused (``version``)."""

MAX_MESSAGE = 16 * 1024
"""The longest message (characters) the server reads; a longer one is an error
(``too-large``).  Frames longer than :data:`MAX_FRAME` close the connection (1009)."""

MAX_FRAME = 1024 * 1024
"""The websocket frame limit: the server does not even read a longer frame."""

RATE = 200.0
"""Messages a second a connection may send on average ..."""

BURST = 400
"""... with bursts up to this many; beyond, each message is refused (``flood``)."""

FLOOD_CLOSE = 1000
"""Refused messages (with no pause that lets the budget refill by half) after which the
server closes the connection (1008)."""

MAX_TEXT = MAX_NAME
"""The longest text anywhere in a client's message, in characters (a name's limit,
:data:`atout.core.limits.MAX_NAME`, which records and saves read back)."""

MAX_WHOLE = 10**MAX_INT_DIGITS - 1
"""The largest whole number (either sign) in a client's message: 18 digits, as in a
record or a save (:data:`atout.core.limits.MAX_INT_DIGITS`)."""

MAX_REF = 64
"""The longest text ``ref``."""

MAX_DEPTH = 8
"""How deep a client's message may nest objects and lists (``create``'s ``rules``
nest 2 deep)."""

HELLO_TIMEOUT = 10.0
"""Seconds a connection has to say ``hello``; then the server closes it (1008)."""

DEFAULT_PORT = 8765

# error codes (docs/protocol.md lists each with its meaning)
BAD_JSON = "bad-json"
BAD_MESSAGE = "bad-message"
TOO_LARGE = "too-large"
FLOOD = "flood"
VERSION_ERROR = "version"
NOT_HELLO = "hello-first"
UNKNOWN_TYPE = "unknown-type"
NO_TABLE = "no-table"
CLOSED = "closed"
BAD_TOKEN = "bad-token"
NOT_SEATED = "not-seated"
NOT_YOUR_SEAT = "not-your-seat"
NOT_YOUR_TURN = "not-your-turn"
STALE = "stale"
ILLEGAL = "illegal"
NOT_STARTED = "not-started"
NOT_HOST = "not-host"
BAD_RULES = "bad-rules"
FULL = "full"
TABLE_LIMIT = "table-limit"
INTERNAL = "internal"
ERROR_CODES = (
    BAD_JSON,
    BAD_MESSAGE,
    TOO_LARGE,
    FLOOD,
    VERSION_ERROR,
    NOT_HELLO,
    UNKNOWN_TYPE,
    NO_TABLE,
    CLOSED,
    BAD_TOKEN,
    NOT_SEATED,
    NOT_YOUR_SEAT,
    NOT_YOUR_TURN,
    STALE,
    ILLEGAL,
    NOT_STARTED,
    NOT_HOST,
    BAD_RULES,
    FULL,
    TABLE_LIMIT,
    INTERNAL,
)
"""Every error code, in the order docs/protocol.md lists them."""


class ProtocolError(Exception):
    """A message the server (or client) refuses: ``code`` (one of the error codes) and a
    message for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error(code: str, message: str, ref: Any = None) -> dict[str, Any]:
    """An ``error`` message."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    return out


# --- reading fields -------------------------------------------------------------------


def field_of(
    msg: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...
) -> Any:
    """``msg[key]`` checked to be of ``kind`` (a bool is never an int here); missing and
    ``default`` given: ``default``.  Anything else is a :class:`ProtocolError`."""
    if key not in msg:
        if default is ...:
            raise ProtocolError(BAD_MESSAGE, f"{msg.get('type', 'message')}: {key} is missing")
        return default
    value = msg[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise ProtocolError(BAD_MESSAGE, f"{msg.get('type', 'message')}: {key} must be {names}")
    return value


def check_values(data: Any, where: str = "message", depth: int = 0) -> None:
    """Refuse (``bad-message``, naming where) a decoded message holding anything the
    server could not keep or show: a text longer than :data:`MAX_TEXT` characters or
    one :func:`atout.core.limits.printable` refuses (a lone surrogate, a control
    character), a whole number of more than 18 digits, a number that is not finite, or
    objects nested more than :data:`MAX_DEPTH` deep.  Object keys are texts too.  Run on
    every message before any field is read: nothing a client sends reaches a table, a
    save file or another client without passing here."""
    if isinstance(data, str):
        if len(data) > MAX_TEXT:
            raise ProtocolError(
                BAD_MESSAGE, f"{where}: a text has at most {MAX_TEXT} characters, not {len(data)}"
            )
        # ASCII text is printable exactly when str.isprintable says so (no C0 control
        # character, no DEL): the common case, without a look-up a character
        if not (data.isascii() and data.isprintable()) and not printable(data):
            raise ProtocolError(
                BAD_MESSAGE, f"{where}: a text may not hold control characters or lone surrogates"
            )
    elif isinstance(data, bool) or data is None:
        return
    elif isinstance(data, int):
        if not -MAX_WHOLE <= data <= MAX_WHOLE:
            raise ProtocolError(
                BAD_MESSAGE, f"{where}: a whole number has at most {MAX_INT_DIGITS} digits"
            )
    elif isinstance(data, float):
        if data != data or data in (float("inf"), float("-inf")):
            raise ProtocolError(BAD_MESSAGE, f"{where}: a number is finite (no NaN, no Infinity)")
    elif depth >= MAX_DEPTH:
        raise ProtocolError(BAD_MESSAGE, f"{where}: nested more than {MAX_DEPTH} deep")
    elif isinstance(data, dict):
        for key, value in data.items():
            check_values(key, f"{where}: a key", depth + 1)
            check_values(value, f"{where}.{key}", depth + 1)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            check_values(value, f"{where}[{i}]", depth + 1)


_TYPE_NAMES: dict[type, str] = {
    str: "a text",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    dict: "an object",
    list: "a list",
    type(None): "null",
}


def ref_of(msg: Any) -> Any:
    """The ``ref`` a message carries, when it is a text of at most :data:`MAX_REF`
    printable characters or a whole number of at most 18 digits (echoed in the answer
    so a client can match it to its request); else ``None``."""
    if isinstance(msg, dict):
        ref = msg.get("ref")
        if (
            isinstance(ref, int) and not isinstance(ref, bool) and -MAX_WHOLE <= ref <= MAX_WHOLE
        ) or (isinstance(ref, str) and len(ref) <= MAX_REF and printable(ref)):
            return ref
    return None


def check_ref(msg: dict[str, Any]) -> None:
    """Refuse (``bad-message``) a ``ref`` that is neither a whole number nor a short
    text (``null`` is no ref): a client that sent one would wait for an answer that
    never names it."""
    if msg.get("ref") is not None and ref_of(msg) is None:
        raise ProtocolError(
            BAD_MESSAGE,
            f"ref is a whole number of at most {MAX_INT_DIGITS} digits or a text of at "
            f"most {MAX_REF} characters",
        )


# --- actions ----------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    """The wire form of an action: ``{"kind": "play", "card": "JH"}``,
    ``{"kind": "bid", "bid": "take"}``, ``{"kind": "claim"}``."""
    if action.kind == "play":
        return {"kind": "play", "card": card_str(action.value)}
    if action.kind == "bid":
        return {"kind": "bid", "bid": str(action.value)}
    return {"kind": action.kind}


def action_from_json(data: Any) -> Action:
    """The action a client sent; anything else is a :class:`ProtocolError`."""
    if not isinstance(data, dict):
        raise ProtocolError(BAD_MESSAGE, "act: action must be an object with a kind")
    kind = data.get("kind")
    if kind == "play":
        card = data.get("card")
        if not isinstance(card, str) or len(card) > 8:
            raise ProtocolError(BAD_MESSAGE, "act: a play names its card as text, like JH")
        try:
            return Action.play(parse_card(card))
        except CardParseError as exc:
            raise ProtocolError(BAD_MESSAGE, f"act: {exc}") from None
    if kind == "bid":
        bid = data.get("bid")
        if not isinstance(bid, str) or not bid or len(bid) > 40:
            raise ProtocolError(BAD_MESSAGE, "act: a bid is a text, like take or pass")
        return Action.bid(bid)
    if kind == "claim":
        return CLAIM
    raise ProtocolError(BAD_MESSAGE, "act: action kind must be play, bid or claim")


# --- rules --------------------------------------------------------------------------------


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """The resolved rules of a table: the game, the pack's name, every option's value."""
    return {"game": rules.game, "pack": rules.pack, "values": rules.to_dict()}


def rules_from_json(data: Any) -> Rules:
    """Rules as :func:`rules_to_json` wrote them (not checked against any plugin: the
    client takes the server's word; the server checks a table's rules with
    :meth:`Engine.make_rules`)."""
    if not isinstance(data, dict):
        raise ProtocolError(BAD_RULES, "rules must be an object with game, pack and values")
    game, pack, values = data.get("game"), data.get("pack", ""), data.get("values", {})
    if not isinstance(game, str) or not isinstance(pack, str) or not isinstance(values, dict):
        raise ProtocolError(BAD_RULES, "rules: game and pack are texts, values an object")
    return Rules(game, values, pack)


# --- views --------------------------------------------------------------------------------


_TEXT = tuple(card_str(c) for c in range(32))


def _cards(mask: CardSet) -> list[str]:
    return [_TEXT[c] for c in cards_of(mask)]


def _mask(texts: Any) -> CardSet:
    if not isinstance(texts, list):
        raise ProtocolError(BAD_MESSAGE, "view: a card set is a list of cards")
    mask = 0
    for t in texts:
        if not isinstance(t, str):
            raise ProtocolError(BAD_MESSAGE, "view: a card is a text")
        try:
            mask |= 1 << parse_card(t)
        except CardParseError as exc:
            raise ProtocolError(BAD_MESSAGE, f"view: {exc}") from None
    return mask


def _card_or_none(text: Any) -> int | None:
    return None if text is None else parse_card(text)


@functools.lru_cache(maxsize=4096)
def _trick(t: Trick) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "cards": [_TEXT[c] for c in t.cards],
        "winner": t.winner,
        "points": t.points,
    }


def trick_to_json(t: Trick) -> dict[str, Any]:
    """A trick won: ``leader``, ``cards`` in play order, ``winner``, ``points``."""
    return dict(_trick(t))


def _public_fields(view: View) -> dict[str, Any]:
    """The public part of a view but its piles and tricks (which change least)."""
    c = view.contract
    return {
        "seats": view.seats,
        "teams": view.teams,
        "dealer": view.dealer,
        "direction": view.direction,
        "phase": view.phase,
        "turn": view.turn,
        "hand_sizes": list(view.hand_sizes),
        "turnup": None if view.turnup is None else _TEXT[view.turnup],
        "bids": [[s, b] for s, b in view.bids],
        "contract": None if c is None else c.to_json(),
        "leader": view.leader,
        "trick": [[s, _TEXT[card]] for s, card in view.trick],
        "announcements": [
            {"seat": a.seat, "text": a.text, "cards": _cards(a.cards), "trick": a.trick}
            for a in view.announcements
        ],
        "points": list(view.points),
        "scores": list(view.scores),
    }


def _pile_row(row: tuple[PileView, ...]) -> list[dict[str, Any]]:
    return [{"top": None if p.top is None else _TEXT[p.top], "covered": p.covered} for p in row]


def view_public_json(view: View) -> dict[str, Any]:
    """The part of a view's wire form that is the same for every seat (and for a
    spectator): what lies on the table, the bidding, the tricks, the scores.  The server
    encodes it once per action (:func:`view_public_text`)."""
    return {
        **_public_fields(view),
        "piles": [_pile_row(row) for row in view.piles],
        "tricks": [_trick(t) for t in view.tricks],
    }


_compact = json.JSONEncoder(separators=(",", ":")).encode


@functools.lru_cache(maxsize=16384)
def _trick_text(t: Trick) -> str:
    return _compact(_trick(t))


@functools.lru_cache(maxsize=16384)
def _pile_row_text(row: tuple[PileView, ...]) -> str:
    return _compact(_pile_row(row))


def view_public_text(view: View) -> str:
    """:func:`view_public_json` as compact JSON text; each trick won and each row of
    piles is encoded once for all the updates that show it unchanged (the server sends
    this part to every seat)."""
    piles = ",".join([_pile_row_text(row) for row in view.piles])
    tricks = ",".join([_trick_text(t) for t in view.tricks])
    head = _compact(_public_fields(view))[:-1]
    return f'{head},"piles":[{piles}],"tricks":[{tricks}]}}'


def view_seat_json(view: View) -> dict[str, Any]:
    """The part of a view's wire form that is the seat's own: its hand, the hands it may
    see, the cards shown of the others, what it may do."""
    return {
        "seat": view.seat,
        "hand": _cards(view.hand),
        "hands": [None if h is None else _cards(h) for h in view.hands],
        "shown": [_cards(s) for s in view.shown],
        "legal": _cards(view.legal),
        "legal_bids": list(view.legal_bids),
        "can_claim": view.can_claim,
    }


@functools.lru_cache(maxsize=65536)
def _cards_text(mask: CardSet) -> str:
    return _compact(_cards(mask))


def view_seat_text(view: View) -> str:
    """:func:`view_seat_json` as compact JSON text; each set of cards encoded once for
    all the updates that show it (a hand changes only when its seat plays)."""
    hands = ",".join(["null" if h is None else _cards_text(h) for h in view.hands])
    shown = ",".join([_cards_text(m) for m in view.shown])
    bids = _compact(list(view.legal_bids)) if view.legal_bids else "[]"
    return (
        f'{{"seat":{view.seat},"hand":{_cards_text(view.hand)},"hands":[{hands}],'
        f'"shown":[{shown}],"legal":{_cards_text(view.legal)},"legal_bids":{bids},'
        f'"can_claim":{"true" if view.can_claim else "false"}}}'
    )


def view_to_json(view: View) -> dict[str, Any]:
    """The wire form of ``view``: what it holds (its ``rules`` travel once, with the
    table; ``unseen`` is left out and worked out by :func:`view_from_json`)."""
    return {**view_seat_json(view), **view_public_json(view)}


def view_from_json(data: Any, game: str, rules: Rules) -> View:
    """The :class:`View` the server sent (``game`` and ``rules`` from the table)."""
    if not isinstance(data, dict):
        raise ProtocolError(BAD_MESSAGE, "view: expected an object")
    try:
        c = data["contract"]
        contract = None
        if c is not None:
            value = c.get("value")
            contract = Contract(
                int(c["taker"]),
                c["trump"],
                str(c["name"]),
                None if value is None else int(value),
                int(c.get("level", 1)),
            )
        tricks = tuple(
            Trick(
                int(t["leader"]),
                tuple(parse_card(x) for x in t["cards"]),
                int(t["winner"]),
                int(t["points"]),
            )
            for t in data["tricks"]
        )
        view = View(
            game=game,
            rules=rules,
            seat=int(data["seat"]),
            seats=int(data["seats"]),
            teams=int(data["teams"]),
            dealer=int(data["dealer"]),
            direction=int(data["direction"]),
            phase=Phase(str(data["phase"])),
            turn=int(data["turn"]),
            hand=_mask(data["hand"]),
            hands=tuple(None if h is None else _mask(h) for h in data["hands"]),
            hand_sizes=tuple(int(n) for n in data["hand_sizes"]),
            piles=tuple(
                tuple(PileView(_card_or_none(p["top"]), bool(p["covered"])) for p in row)
                for row in data["piles"]
            ),
            unseen=0,
            shown=tuple(_mask(s) for s in data["shown"]),
            turnup=_card_or_none(data["turnup"]),
            bids=tuple((int(s), str(b)) for s, b in data["bids"]),
            contract=contract,
            leader=int(data["leader"]),
            trick=tuple((int(s), parse_card(x)) for s, x in data["trick"]),
            tricks=tricks,
            announcements=tuple(
                Announcement(int(a["seat"]), str(a["text"]), _mask(a["cards"]), int(a["trick"]))
                for a in data["announcements"]
            ),
            points=tuple(int(p) for p in data["points"]),
            legal=_mask(data["legal"]),
            legal_bids=tuple(str(b) for b in data["legal_bids"]),
            can_claim=bool(data["can_claim"]),
            scores=tuple(int(s) for s in data["scores"]),
        )
    except (KeyError, TypeError, ValueError, CardParseError) as exc:
        raise ProtocolError(BAD_MESSAGE, f"view: {type(exc).__name__}: {exc}") from None
    # what the seat cannot see is every card it is not shown (as make_view defines it)
    object.__setattr__(view, "unseen", FULL_DECK & ~view.known_cards())
    return view


def public_view(view: View) -> View:
    """What a spectator may know, from any seat's ``view``: the hands only when every
    hand is open, the cards the rules showed, nothing to do."""
    open_hands = all(h is not None for h in view.hands)
    if open_hands:
        hand = 0
        shown = view.shown
        hands = view.hands
    else:
        hand = 0
        hands = tuple(None for _ in view.hands)
        own = view.hand
        mine = 0
        for a in view.announcements:
            if a.seat == view.seat:
                mine |= a.cards & own
        c = view.contract
        if c is not None and c.taker == view.seat and view.turnup is not None:
            mine |= own & (1 << view.turnup)  # the turn-up the taker received
        shown = tuple(mine if s == view.seat else m for s, m in enumerate(view.shown))
    public = dataclasses.replace(
        view,
        seat=-1,
        hand=hand,
        hands=hands,
        unseen=0,
        shown=shown,
        legal=0,
        legal_bids=(),
        can_claim=False,
        extra={},
    )
    object.__setattr__(public, "unseen", FULL_DECK & ~public.known_cards())
    return public


def create_message(rules: Rules, bot: str, seed: int | None = None) -> dict[str, Any]:
    """The ``create`` message for a table under ``rules`` (the host's resolved rules
    travel with it), its bots ``bot``, dealt from ``seed`` when given."""
    msg: dict[str, Any] = {
        "type": "create",
        "game": rules.game,
        "pack": rules.pack,
        "rules": rules.to_dict(),
        "bot": bot,
    }
    if seed is not None:
        msg["seed"] = seed
    return msg
