"""Texts a person reads that a plugin (or the core) writes: marked for the catalogs,
translated by the front end.

The core and the plugins never import the front ends, and the language is chosen there;
so a plugin does not translate, it *marks*:

- ``N_("Belote")`` marks a fixed text kept in data (a game's title, a bot's level, a rule
  option's description).  It returns the text itself; the front end shows it through its
  ``_()`` (``atout.ui.i18n``), which finds it in the catalog.
- ``Message("must follow {suit}", suit=SuitWord(HEARTS))`` is a sentence with parts that
  vary.  It *is* the English sentence (a ``str``: records, logs, tests and every caller
  that reads a string keep working), and it also keeps its message id and its parameters,
  so that the front end translates the message id and then fills in the parameters in
  its language — never a translation of the already written English sentence.  A
  parameter is a number or a text shown as it is, another :class:`Message`, or a game
  word (:class:`CardWord`, :class:`CardSign`, :class:`CardCode`, :class:`SuitWord`,
  :class:`SeatWord`) that
  the front end writes in its language.

``pybabel extract`` finds both markers (docs/translating.md: ``-k N_ -k Message``): the
message id must be written as a literal string in the call.  Records and the network
protocol keep the English text (and, for the protocol, :meth:`Message.to_json`): they
stay the same in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from string import Formatter
from typing import Any

from .cards import RANKS
from .cards import SUIT_NAMES
from .cards import SUIT_SYMBOLS
from .cards import Card
from .cards import card_name
from .cards import card_str


def N_(message: str) -> str:
    """``message`` itself: marks a text kept in data for the catalog; the front end
    translates it where it is shown (the language may change after import)."""
    return message


def NP_(context: str, message: str) -> str:
    """``message`` itself: marks a term kept in data for the catalog with its
    ``context``; the front end translates it with ``pgettext`` where it is shown."""
    return message


@dataclass(frozen=True)
class CardWord:
    """A card named in words inside a message: "the jack of hearts" (the front end
    writes it in its language: "le valet de cœur")."""

    card: Card

    def __str__(self) -> str:
        return card_name(self.card)


@dataclass(frozen=True)
class CardSign:
    """A card written with its suit's symbol inside a message: "J♥" (the front end
    writes its rank letter in its language: "V♥")."""

    card: Card

    def __str__(self) -> str:
        return RANKS[self.card & 7] + SUIT_SYMBOLS[self.card >> 3]


@dataclass(frozen=True)
class CardCode:
    """A card in its fixed text form inside a message: "JH", as typed and recorded (the
    front end writes it as it shows a card: "V♥" in French)."""

    card: Card

    def __str__(self) -> str:
        return card_str(self.card)


@dataclass(frozen=True)
class SuitWord:
    """A suit named in words inside a message: "hearts" (in French "cœur")."""

    suit: int

    def __str__(self) -> str:
        return SUIT_NAMES[self.suit]


@dataclass(frozen=True)
class SeatWord:
    """A seat's name inside a message ("North"): the front end says the game's seat
    names in its language and a player's own name as it is."""

    name: str

    def __str__(self) -> str:
        return self.name


Word = CardWord | CardSign | CardCode | SuitWord | SeatWord
"""A game word inside a message, written by the front end in its language."""

Param = int | float | str | Word
"""What a :class:`Message` parameter may be (a :class:`Message` is a ``str``)."""

WORDS: dict[str, type[Word]] = {
    "card": CardWord,
    "card sign": CardSign,
    "card code": CardCode,
    "suit": SuitWord,
    "seat": SeatWord,
}
"""The game words by the name :meth:`Message.to_json` gives them."""


class Message(str):
    """A sentence for a person, kept as its message id and its parameters.

    The value of the string is the English sentence (``msgid.format(**params)``, each
    parameter written in English), so a :class:`Message` goes wherever a ``str`` goes.
    The front end shows it translated: ``atout.ui.i18n.shown(text)``.
    """

    msgid: str
    """The sentence as the catalog has it, with ``{name}`` fields."""
    params: Mapping[str, Param]
    """The values of the fields."""

    def __new__(cls, msgid: str, /, **params: Param) -> Message:
        text = msgid.format(**{k: str(v) for k, v in params.items()}) if params else msgid
        self = super().__new__(cls, text)
        self.msgid = msgid
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy or a pickle (a bot's hint from another process) keeps the message id.
        return (_rebuild, (self.msgid, tuple(self.params.items())))

    def __repr__(self) -> str:
        fields = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Message({self.msgid!r}{fields})"

    def to_json(self) -> dict[str, Any]:
        """The message as plain data (its id and parameters, no language): what the
        network protocol sends so that each client shows it in its own language."""
        return {"id": self.msgid, "params": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: object) -> Message | None:
        """The message :meth:`to_json` wrote, or ``None`` for anything else (a peer's
        bad data is shown as its plain text instead)."""
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            return None
        raw = data.get("params", {})
        if not isinstance(raw, dict):
            return None
        params: dict[str, Param] = {}
        for key, value in raw.items():
            param = _param_from_json(value)
            if not isinstance(key, str) or param is None:
                return None
            params[key] = param
        if not plain_fields(data["id"], params):
            return None
        return cls(data["id"], **params)

    def cards(self) -> int:
        """The cards the message names (in its parameters, its messages within), as a
        card set: what a server checks the seat may know before it sends the message."""
        mask = 0
        for value in self.params.values():
            if isinstance(value, Message):
                mask |= value.cards()
            elif isinstance(value, (CardWord, CardSign, CardCode)):
                mask |= 1 << value.card
        return mask


def plain_fields(msgid: str, params: Mapping[str, object]) -> bool:
    """Whether ``msgid`` formats only plain ``{name}`` fields, each one of ``params``
    (no attribute, index, conversion or format spec): what a message read from another
    program must be before it is formatted."""
    try:
        parsed = list(Formatter().parse(msgid))
    except ValueError:
        return False
    for _text, field, spec, conversion in parsed:
        if field is None:
            continue
        if not field.isidentifier() or field not in params or spec or conversion:
            return False
    return True


def _rebuild(msgid: str, params: tuple[tuple[str, Param], ...]) -> Message:
    return Message(msgid, **dict(params))


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return {"message": value.to_json()}
    if isinstance(value, (CardWord, CardSign, CardCode, SuitWord, SeatWord)):
        kind = next(k for k, t in WORDS.items() if isinstance(value, t))
        field = value.name if isinstance(value, SeatWord) else _number(value)
        return {kind: field}
    return value


def _number(value: CardWord | CardSign | CardCode | SuitWord) -> int:
    return value.suit if isinstance(value, SuitWord) else value.card


def _param_from_json(value: object) -> Param | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, str)):
        return value
    if not isinstance(value, dict) or len(value) != 1:
        return None
    ((kind, field),) = value.items()
    if kind == "message":
        return Message.from_json(field)
    if kind == "seat":
        return SeatWord(field) if isinstance(field, str) else None
    word = WORDS.get(kind)
    if word is None or isinstance(field, bool) or not isinstance(field, int):
        return None
    if word is SuitWord:
        return SuitWord(field) if 0 <= field < 4 else None
    if word is CardWord or word is CardSign or word is CardCode:
        return word(field) if 0 <= field < 32 else None
    return None


__all__ = [
    "NP_",
    "N_",
    "WORDS",
    "CardCode",
    "CardSign",
    "CardWord",
    "Message",
    "Param",
    "SeatWord",
    "SuitWord",
    "plain_fields",
]
