"""A match between seats, and what each seat is told: the one game path of every front end.

A :class:`Session` owns a :class:`~atout.core.engine.Match` and its seats (a person, a
bot, a remote player).  A front end sends it the actions of its people
(:meth:`Session.act`), asks it for bots' answers, and draws the :class:`Event` list each
call returns; it never drives the match itself nor works out what happened by comparing
two views.  A seat is told only what it may know (:meth:`Event.visible_to`, the rule of
the views): an event never names a card another seat holds hidden.

The session knows no rule.  What it reports, it reads from the engine's state after the
engine applied the action: the announcements the rules made, the trick booked, the
face-down cards that left ``hidden``, the score the rules gave.

An undo is fair (:meth:`Session.undo`): a seat takes back a card only while nothing it
was told since that card was news to it (another seat's action, a card turned, cards
dealt, another seat's announcement) and no other person has been told the card, so that
no one can look under a card and then choose again.  A *practice* match
(``Match(..., practice=True)``, kept in its record) allows free undo.

A session can follow a save file (:meth:`Session.attach`): the match record is written
whole at each deal's start and end (atomically and durably; the end through
:meth:`SaveFile.end_deal`, which a writer may let add the last line first), and every
action in between is appended as one line, so an interrupted write loses at most that
line and never the previous save.  :meth:`Session.resume` reads it back.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from pathlib import Path
from typing import Any
from typing import ClassVar
from typing import TypeVar
from typing import dataclass_transform

from .cards import RANKS
from .cards import SUIT_SYMBOLS
from .cards import Card
from .cards import CardParseError
from .cards import CardSet
from .cards import card_str
from .cards import cards_of
from .cards import parse_card
from .engine import Deal
from .engine import Engine
from .engine import Match
from .engine import bot_settings
from .errors import AtoutError
from .errors import IllegalMoveError
from .errors import RecordError
from .errors import UnknownNameError
from .limits import MAX_THINK
from .limits import LimitError
from .limits import check_seconds
from .model import Action
from .model import Bid
from .model import Contract
from .model import DealScore
from .model import GameInfo
from .model import MatchResult
from .model import Play
from .model import Rules
from .model import Trick
from .records import PLAYER_KINDS
from .records import check_player
from .records import match_from_record
from .records import match_to_record
from .savefile import SaveFile
from .state import BIDDING
from .state import OVER
from .state import PLAY as PLAYING
from .state import REDEAL as REDEALING
from .text import Message
from .text import SeatWord
from .views import Bot
from .views import View

KINDS = PLAYER_KINDS
PERSON, BOT, REMOTE = KINDS

# The kinds of event, in the order they can follow one another (the class of each, below,
# says its fields: DEAL is a DealEvent, HAND a HandEvent, ...).
DEAL = "deal"
HAND = "hand"
BID = "bid"
CONTRACT = "contract"
PLAY = "play"
ANNOUNCE = "announce"
TURN = "turn"
TRICK = "trick"
CLAIM = "claim"
SCORE = "score"
REDEAL = "redeal"
MATCH_OVER = "match-over"
UNDO = "undo"
NOTICE = "notice"


@dataclass(frozen=True)
class Player:
    """Who sits at a seat: a person at this front end, a bot (``bot`` is its name), or a
    remote player whose actions arrive from elsewhere."""

    kind: str = PERSON
    name: str = ""
    bot: str = ""

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot}

    @classmethod
    def from_json(cls, data: object, where: str) -> Player:
        """A player from its JSON form; anything else is one :class:`RecordError`."""
        return cls(**check_player(data, where))


class _Unsaid:
    """The empty answer of every field a kind of event may lack (``card`` is ``None``,
    ``cards`` 0, ``text`` empty...): the base of :class:`Event`, so that the code that
    reads events by their ``kind`` reads any field of any event.  A kind's own field
    (a slot of its class) stands in front of the empty answer."""

    __slots__ = ()

    to: int | None = None
    card: Card | None = None
    cards: CardSet = 0
    text: str = ""
    trick: Trick | None = None
    contract: Contract | None = None
    score: DealScore | None = None
    scores: tuple[int, ...] = ()
    result: MatchResult | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Event(_Unsaid):
    """One thing that happened, as the engine computed it: the base of one frozen class
    per kind (:class:`PlayEvent`, :class:`TrickEvent`, ...), each with only its fields.

    ``kind`` names the class in the protocol's words (the kind constants of this
    module); ``seat`` is the seat it is about (``-1`` for none) and ``deal`` the deal's
    number in the match (redeals count).  ``to`` is ``None`` when every seat may know the
    event, else the only seat told (a hand dealt).

    The base answers the empty value of every field a kind does not have (``card`` is
    ``None``, ``cards`` 0, ``text`` empty...: :class:`_Unsaid`), so that the code that
    reads events by their ``kind`` keeps reading them; code that wants a kind's fields
    typed narrows the event by its class (``isinstance(e, PlayEvent)``).
    """

    kind: ClassVar[str] = ""
    seat: int = -1
    deal: int = 0

    def __init__(self, *args: object, **kwargs: object) -> None:
        # Only the base's own: each kind's class has the __init__ its dataclass writes.
        raise TypeError("Event is the base of one class per kind (PlayEvent, ...)")

    @property
    def points(self) -> int:
        """The trick's points (a trick won), else 0."""
        return 0

    def visible_to(self, seat: int) -> bool:
        """Whether ``seat`` may be told of this event."""
        return self.to is None or self.to == seat

    def known_cards(self) -> CardSet:
        """Every card this event names (for the checks that nothing hidden leaks)."""
        mask = self.cards
        if self.card is not None:
            mask |= 1 << self.card
        if self.trick is not None:
            for c in self.trick.cards:
                mask |= 1 << c
        return mask

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data (cards in their text form)."""
        out: dict[str, Any] = {"kind": self.kind, "deal": self.deal}
        if self.seat >= 0:
            out["seat"] = self.seat
        if self.card is not None:
            out["card"] = card_str(self.card)
        if self.cards:
            out["cards"] = [card_str(c) for c in cards_of(self.cards)]
        if self.text:
            out["text"] = self.text
            said = _message_json(self.text, self.known_cards())
            if said is not None:
                out["message"] = said
        if isinstance(self, TrickEvent):
            out["points"] = self.points
        elif isinstance(self, UndoEvent):
            out["actions"] = self.actions
        if self.trick is not None:
            out["trick"] = {
                "leader": self.trick.leader,
                "cards": [card_str(c) for c in self.trick.cards],
                "winner": self.trick.winner,
            }
        if self.contract is not None:
            out["contract"] = self.contract.to_json()
        if self.score is not None:
            s = self.score
            out["score"] = {
                "score": list(s.score),
                "card_points": list(s.card_points),
                "declaration_points": list(s.declaration_points),
                "outcome": s.outcome,
                "notes": list(s.notes),
            }
            told = [_message_json(n, 0) for n in s.notes]
            if any(told):
                out["score"]["note_messages"] = told
        if self.scores:
            out["scores"] = list(self.scores)
        if self.result is not None:
            out["result"] = {"winner": self.result.winner, "reason": self.result.reason}
            said = _message_json(self.result.reason, 0)
            if said is not None:
                out["result"]["message"] = said
        return out

    @classmethod
    def from_json(cls, data: Any) -> Event:
        """The event :meth:`to_json` gave (a network client reads the server's events);
        anything that is not such an event is one :class:`RecordError`."""
        try:
            return _event_from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError, CardParseError) as exc:
            raise RecordError(f"not an event: {type(exc).__name__}: {exc}") from None


EVENT_CLASSES: dict[str, type[Event]] = {}
"""The class of each kind of event (each class below is listed as it is made)."""

_E = TypeVar("_E", bound=Event)


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def _event(kind: str) -> Callable[[type[_E]], type[_E]]:
    """Make the class below the class of the events of ``kind``: a frozen dataclass of
    keyword fields with slots, like its base, listed in :data:`EVENT_CLASSES`."""

    def make(cls: type[_E]) -> type[_E]:
        made = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        made.kind = kind
        EVENT_CLASSES[kind] = made
        return made

    return make


# One class per kind, in the order of the kinds.  A field without a default is written
# ``= field()``: the base's empty answer of the same name would otherwise be taken for
# its default.  Two kinds that say the same thing of a different event share the base
# that declares it: a card (played, turned), a text (a bid, a notice).


@dataclass(frozen=True, slots=True, kw_only=True)
class _CardEvent(Event):
    """An event about one card: ``card``."""

    card: Card = field()


@dataclass(frozen=True, slots=True, kw_only=True)
class _TextEvent(Event):
    """An event told in words: ``text``."""

    text: str = field()


@_event(DEAL)
class DealEvent(Event):
    """A deal is dealt: ``seat`` is the dealer, ``card`` the turned-up card if any."""

    card: Card | None = None


@_event(HAND)
class HandEvent(Event):
    """Cards reach a seat's hand (the deal, the rest of the deal after the bidding):
    ``seat`` receives ``cards``; ``to`` is the only seat told, ``None`` when every seat
    sees the hands."""

    cards: CardSet = field()
    to: int | None = None


@_event(BID)
class BidEvent(_TextEvent):
    """``seat`` bid ``text``."""


@_event(CONTRACT)
class ContractEvent(Event):
    """The bidding is over: ``seat`` took ``contract``."""

    contract: Contract = field()


@_event(PLAY)
class PlayEvent(_CardEvent):
    """``seat`` played ``card``."""


@_event(ANNOUNCE)
class AnnounceEvent(Event):
    """The rules announced something for ``seat``: a declaration shown, belote, rebelote
    (``text``, and the ``cards`` shown)."""

    text: str = ""
    cards: CardSet = 0


@_event(TURN)
class TurnEvent(_CardEvent):
    """A face-down card of ``seat`` is turned face up: ``card``."""


@_event(TRICK)
class TrickEvent(Event):
    """``seat`` won ``trick``, worth ``points`` (the trick's own)."""

    trick: Trick = field()

    @property
    def points(self) -> int:
        return self.trick.points


@_event(CLAIM)
class ClaimEvent(Event):
    """``seat`` claimed the rest of the deal (l'arrêt)."""


@_event(SCORE)
class ScoreEvent(Event):
    """The deal is scored: ``score``; the match's totals follow in ``scores``."""

    score: DealScore = field()
    scores: tuple[int, ...] = ()


@_event(REDEAL)
class RedealEvent(Event):
    """Nobody took: the cards are gathered and dealt again."""


@_event(MATCH_OVER)
class MatchOverEvent(Event):
    """The match is over: ``result``."""

    result: MatchResult = field()


@_event(UNDO)
class UndoEvent(Event):
    """``seat`` took back its last card: ``actions`` actions were undone."""

    actions: int = field()


@_event(NOTICE)
class NoticeEvent(_TextEvent):
    """Something a person should read that changed no card (a bot failed and its first
    legal action was played instead): ``text``."""


def _message_json(text: str, known: CardSet) -> dict[str, Any] | None:
    """``text`` as a message for the JSON form of an event (its id and parameters: each
    client says it in its own language), or ``None``: a plain text, or a message that
    names a card the event does not show."""
    if isinstance(text, Message) and text.cards() & ~known == 0:
        return text.to_json()
    return None


def _said(data: Any, text: str) -> str:
    """The text an event's JSON form gives: its message when it has a valid one (the
    client shows it in its language), else the English text."""
    return Message.from_json(data) or text


def _event_from_json(data: Any) -> Event:
    """The body of :meth:`Event.from_json` (its errors are caught there): the fields the
    JSON holds, read as :meth:`Event.to_json` wrote them, handed to the kind's class
    (which takes those it has, and refuses the lack of one it needs)."""
    if not isinstance(data, dict) or not isinstance(data["kind"], str):
        raise TypeError("an event is an object with a kind")
    kind: str = data["kind"]
    if kind not in EVENT_CLASSES:
        raise ValueError(f"no event of the kind {kind!r}")
    event_class = EVENT_CLASSES[kind]

    def ints(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(type(v) is int for v in value):
            raise TypeError(f"expected a list of whole numbers, not {value!r}")
        return tuple(value)

    def number(value: Any) -> int:
        if type(value) is not int:
            raise TypeError(f"expected a whole number, not {value!r}")
        return value

    found: dict[str, Any] = {
        "seat": number(data.get("seat", -1)),
        "deal": number(data.get("deal", 0)),
    }
    if "card" in data:
        found["card"] = parse_card(data["card"])
    if "cards" in data:
        cards = 0
        for text in data["cards"]:
            cards |= 1 << parse_card(text)
        found["cards"] = cards
    if "text" in data:
        text = data["text"]
        found["text"] = _said(data.get("message"), text if isinstance(text, str) else str(text))
    if "actions" in data:
        found["actions"] = number(data["actions"])
    if "trick" in data:
        t = data["trick"]
        found["trick"] = Trick(
            number(t["leader"]),
            tuple(parse_card(c) for c in t["cards"]),
            number(t["winner"]),
            number(data.get("points", 0)),
        )
    if "contract" in data:
        c = data["contract"]
        trump = c["trump"]
        if trump is not None:
            trump = number(trump)
        value = c.get("value")
        found["contract"] = Contract(
            number(c["taker"]),
            trump,
            str(c["name"]),
            None if value is None else number(value),
            number(c.get("level", 1)),
        )
    if "score" in data:
        s = data["score"]
        said = dict(enumerate(s.get("note_messages") or ()))  # each note's message, if any
        found["score"] = DealScore(
            card_points=ints(s["card_points"]),
            declaration_points=ints(s["declaration_points"]),
            score=ints(s["score"]),
            outcome=str(s["outcome"]),
            notes=tuple(_said(said.get(i), str(n)) for i, n in enumerate(s.get("notes", ()))),
        )
    if "scores" in data:
        found["scores"] = ints(data["scores"])
    if "result" in data:
        r = data["result"]
        winner = r["winner"]
        reason = _said(r.get("message"), str(r["reason"]))
        found["result"] = MatchResult(None if winner is None else number(winner), reason)
    names = {f.name for f in fields(event_class)}
    return event_class(**{k: v for k, v in found.items() if k in names})


def for_seat(events: Iterable[Event], seat: int) -> list[Event]:
    """The events ``seat`` may be told, in order."""
    return [e for e in events if e.to is None or e.to == seat]


_ACTED = {PLAY: "played", BID: "bid", CLAIM: "claimed"}
"""The events of a seat's own action, and the words for another seat taking one."""

BotQuestion = Callable[[], Action]
"""A bot's question bound to the view it was asked in: call it (on any thread) for the
answer, then hand the answer to :meth:`Session.bot_answer`."""


@dataclass
class _Journal:
    """The save file a session follows, and the front end's own data kept with it."""

    file: SaveFile
    meta: dict[str, Any] = field(default_factory=dict)


class Session:
    """One match and its seats, driven by actions and answering events.

    ``players`` gives who sits at each seat (default: a person at seat 0, the
    ``greedy`` bot elsewhere).  ``bots`` may hand in ready bot objects by seat (tests,
    a bot made elsewhere); the engine makes the bot of every other bot seat.
    ``practice`` makes the match a practice match (free undo); a ``match`` handed in
    that is one already stays one.
    """

    def __init__(
        self,
        engine: Engine,
        game: str = "",
        rules: Rules | None = None,
        players: Sequence[Player] | None = None,
        seed: int | None = None,
        think: float = 0.0,
        bots: Mapping[int, Bot] | None = None,
        match: Match | None = None,
        hint_bot: str = "expert",
        practice: bool = False,
    ) -> None:
        if match is None:
            match = Match(engine, game, rules, seed=seed, practice=practice)
        elif practice:
            match.practice = True
        self.engine = engine
        self.match = match
        # What a match keeps for its whole life, at hand under the names front ends use.
        self.game: str = match.game
        self.rules: Rules = match.rules
        self.info: GameInfo = match.info
        """The game being played: its title, seats, teams and seat names."""
        self.seats: int = match.info.seats
        seats = self.seats
        if players is None:
            players = [Player(PERSON, "You")] + [Player(BOT, "", "greedy")] * (seats - 1)
        if len(players) != seats:
            raise UnknownNameError(f"{match.game} has {seats} seats, not {len(players)} players")
        self.players: tuple[Player, ...] = tuple(players)
        self.think = think
        self.hint_bot = hint_bot
        self._bots: dict[int, Bot] = dict(bots or {})
        for seat, player in enumerate(self.players):
            if player.kind == BOT and seat not in self._bots:
                self._bots[seat] = engine.bot(
                    player.bot, match.game, match.rules, seed=match.seed + seat, think=think
                )
        self._hinter: Bot | None = None
        self._journal: _Journal | None = None
        self._told: list[list[Event]] = []
        """By action of the deal in play (``_told_deal``): the events it caused."""
        self._told_deal: Deal | None = None
        self.version = 0
        """Changes with every action, undo and deal: an answer computed for an older
        version (a bot's, a hint) is stale."""

    # --- what stands ---------------------------------------------------------------------

    @property
    def deals_scored(self) -> int:
        """How many deals of the match have been scored (redeals do not count)."""
        return len(self.match.history)

    @property
    def scores(self) -> tuple[int, ...]:
        """The match's running totals by team."""
        return tuple(self.match.scores)

    @property
    def result(self) -> MatchResult | None:
        return self.match.result

    @property
    def deal(self) -> Deal | None:
        """The deal being played, or the last one played (over) between deals."""
        return self.match.deals[-1] if self.match.deals else None

    @property
    def deal_number(self) -> int:
        """The number of the latest deal in the match (redeals count), 0 before any."""
        return len(self.match.deals)

    @property
    def needs_deal(self) -> bool:
        """Whether the next deal waits to be dealt (:meth:`next_deal`)."""
        return self.match.result is None and self.match.current is None

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or ``None`` between deals and after the match."""
        deal = self.match.current
        return deal.turn if deal is not None else None

    def is_bot(self, seat: int) -> bool:
        return seat in self._bots

    def bot(self, seat: int) -> Bot:
        """The bot that plays ``seat``."""
        if seat not in self._bots:
            raise IllegalMoveError(f"{self.seat_name(seat)} is not played by a bot")
        return self._bots[seat]

    def seat_name(self, seat: int) -> str:
        """The player's name, else the game's name for the seat."""
        name = self.players[seat].name if 0 <= seat < self.seats else ""
        return name or self.match.info.seat_name(seat)

    def view(self, seat: int) -> View:
        """What ``seat`` may know of the latest deal, with what it may do."""
        deal = self.deal
        if deal is None:
            raise IllegalMoveError("no deal has been dealt yet")
        return deal.view(seat, self.scores)

    def explain(self, card: Card) -> str | None:
        """Why the seat to play may not play ``card`` now (``None``: it may)."""
        deal = self.match.current
        if deal is None:
            return Message("the deal is over")
        return deal.explain(card)

    @property
    def practice(self) -> bool:
        """Whether this is a practice match: undo is free (see :meth:`undo`)."""
        return self.match.practice

    def can_undo(self, seat: int) -> bool:
        """Whether :meth:`undo` would take back ``seat``'s last card now."""
        return self.undo_refusal(seat) is None

    def undo_refusal(self, seat: int) -> str | None:
        """Why :meth:`undo` would refuse ``seat`` now, in one line; ``None`` when it
        would take back the seat's last card."""
        deal = self.match.current
        if deal is None:
            return "nothing to undo: no deal is in play"
        last = self._last_card(deal, seat)
        if last < 0:
            return "nothing to undo: no card of yours in this deal"
        told = self._events_since(deal, last)
        if told is None:
            return "nothing to undo: a deal set up from a position cannot be rewound"
        if self.practice:
            return None
        # Who would have to forget: the seat, and every other seat told the events (a
        # person or a remote player; a bot is told nothing but the view it is asked in,
        # and once asked it has played).
        watchers = [seat, *(t for t in range(self.seats) if t != seat and t not in self._bots)]
        for events in told:
            for event in events:
                for viewer in watchers:
                    news = self._news(event, viewer)
                    if not news:
                        continue
                    if viewer == seat:
                        return f"undo refused: {news} since"
                    name = self.seat_name(viewer)
                    if event.kind == PLAY and event.seat == seat:
                        return f"undo refused: {name} has seen your card"
                    return f"undo refused: {name} has seen what followed"
        return None

    # --- acting --------------------------------------------------------------------------

    def next_deal(self) -> list[Event]:
        """Deal the next deal; its events (the deal, each seat's cards)."""
        deal = self.match.next_deal()
        self._told_deal, self._told = deal, []
        self.version += 1
        events = [
            DealEvent(seat=deal.state.dealer, deal=self.deal_number, card=deal.state.turnup),
            *self._hands_dealt(deal, [0] * self.seats),
        ]
        self._checkpoint()
        return events

    def act(self, seat: int, action: Action) -> list[Event]:
        """Take ``action`` for ``seat``: checked by the engine (an illegal action raises
        :class:`IllegalMoveError` and changes nothing), then the events it caused."""
        deal = self.match.current
        if deal is None:
            raise IllegalMoveError(
                "the match is over" if self.match.result is not None else "no deal is in play"
            )
        if seat != deal.turn:
            raise IllegalMoveError(
                f"it is {self.seat_name(deal.turn)}'s turn, not {self.seat_name(seat)}'s"
            )
        told = self._told_deal is deal and len(self._told) == len(deal.actions)
        events = self._apply(deal, seat, action)
        if told:
            self._told.append(events)
        self.version += 1
        journal = self._journal
        if journal is not None:
            if deal.is_over:
                journal.file.end_deal(seat, action, self._save_data)
            else:
                journal.file.append_action(seat, action)
        return events

    def bot_question(self, seat: int) -> BotQuestion:
        """The question to ``seat``'s bot in the position now, to be answered on any
        thread (the view is taken now; the bot object is used by one thread at once)."""
        bot = self.bot(seat)
        view = self.view(seat)
        return lambda: bot.choose(view)

    def bot_answer(self, seat: int, answer: object) -> list[Event]:
        """Play a bot's answer for ``seat``: an :class:`Action`, or the exception its
        question raised.  A failure or an illegal action is replaced by the seat's first
        legal action, and a :data:`NOTICE` event says so."""
        deal = self.match.current
        who = SeatWord(self.seat_name(seat))
        if isinstance(answer, Action):
            try:
                return self.act(seat, answer)
            except IllegalMoveError as exc:
                why = (
                    exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
                )
                said = Message(
                    "{seat}'s bot tried {action}: {reason}; it plays its first legal action instead",
                    seat=who,
                    action=str(answer),
                    reason=why,
                )
        else:
            said = Message(
                "{seat}'s bot failed ({error}); it plays its first legal action instead",
                seat=who,
                error=repr(answer),
            )
        if deal is None:
            raise IllegalMoveError("no deal is in play")
        fallback = deal.legal_actions()[0]
        notice = NoticeEvent(seat=seat, deal=self.deal_number, text=said)
        return [notice, *self.act(seat, fallback)]

    def play_bots(self) -> list[Event]:
        """Let the bots act until a seat that is not a bot is to act or the deal ends."""
        events: list[Event] = []
        while True:
            seat = self.to_act
            if seat is None or seat not in self._bots:
                return events
            try:
                answer: object = self.bot_question(seat)()
            except Exception as exc:
                answer = exc
            events.extend(self.bot_answer(seat, answer))

    def undo(self, seat: int) -> list[Event]:
        """Take back ``seat``'s last card of the deal in progress and every action after
        it (the engine plays the deal again from its layout, without them).

        An undo is fair: it is refused (:class:`IllegalMoveError`, one line saying why,
        the same as :meth:`undo_refusal`) once the seat has been told, since that card,
        anything it did not know and did not cause itself: another seat's action, a
        card turned, cards dealt, another seat's announcement; and once another seat
        that is told events (a person, a remote player) has been told the card, since
        nobody can make them forget it.  A bot is told nothing but the view it is asked
        in, and once asked it has played.  So a misclick can be taken back before anyone
        answered it, but no card can be played to look under it and then taken back.
        In a practice match (:attr:`practice`) undo is free.
        """
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        deal = self.match.current
        assert deal is not None  # undo_refusal said so
        last = self._last_card(deal, seat)
        count = len(deal.actions) - last
        fresh = self.match.take_back(count)
        if self._told_deal is deal:
            del self._told[last:]
            self._told_deal = fresh
        self.version += 1
        self._checkpoint()
        return [UndoEvent(seat=seat, deal=self.deal_number, actions=count)]

    def hint_question(self, seat: int) -> BotQuestion:
        """The hint bot's question for ``seat`` now (see :meth:`bot_question`)."""
        hinter = self._hinter
        if hinter is None:
            bots = self.engine.bots
            info = bots.get(bot_settings(self.hint_bot)[0])  # a spec's name: its settings
            if info is None or self.game not in info.games:
                raise UnknownNameError(f"no hint: the {self.hint_bot} bot is not installed")
            hinter = self._hinter = self.engine.bot(
                self.hint_bot, self.game, self.rules, seed=self.match.seed + 99, think=1.0
            )
        view = self.view(seat)
        ask: Callable[[View], Action] = getattr(hinter, "hint", None) or hinter.choose
        return lambda: ask(view)

    def hint(self, seat: int) -> Action:
        """What the hint bot would do for ``seat`` now."""
        return self.hint_question(seat)()

    # --- the events of an action ---------------------------------------------------------

    def _apply(self, deal: Deal, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` of ``seat`` to ``deal`` and return the events it caused; a
        deal it ends is booked in the match."""
        events = self._step(deal, seat, action)
        s = deal.state
        number = self.deal_number
        if s.phase == OVER:
            self.match.end_deal(deal)
            assert deal.score is not None  # the deal is over: scored
            events.append(ScoreEvent(deal=number, score=deal.score, scores=self.scores))
            if self.match.result is not None:
                events.append(MatchOverEvent(deal=number, result=self.match.result))
        elif s.phase == REDEALING:
            self.match.end_deal(deal)
            events.append(RedealEvent(deal=number))
        return events

    def _step(self, deal: Deal, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` to ``deal`` and return the events of the deal it caused (not
        the match's: the score, a redeal, the match's end)."""
        s = deal.state
        number = self.deal_number
        hands = list(s.hands)
        hidden = list(s.hidden)
        announced = len(s.announcements)
        booked = len(s.tricks)
        phase = s.phase
        deal.apply(action)
        events: list[Event]
        if isinstance(action, Play):
            events = [PlayEvent(seat=seat, deal=number, card=action.card)]
        elif isinstance(action, Bid):
            events = [BidEvent(seat=seat, deal=number, text=action.text)]
        else:
            events = [ClaimEvent(seat=seat, deal=number)]
        if phase == BIDDING and s.phase != BIDDING and s.contract is not None:
            events.append(ContractEvent(seat=s.contract.taker, deal=number, contract=s.contract))
        for ann in s.announcements[announced:]:
            events.append(AnnounceEvent(seat=ann.seat, deal=number, cards=ann.cards, text=ann.text))
        turned = [
            TurnEvent(seat=owner, deal=number, card=c)
            for owner in range(self.seats)
            for c in cards_of(hidden[owner] & ~s.hidden[owner] & s.hands[owner])
        ]
        if len(s.tricks) > booked:
            events.extend(
                TrickEvent(seat=t.winner, deal=number, trick=t) for t in s.tricks[booked:]
            )
        events.extend(turned)
        if phase == BIDDING and s.phase == PLAYING:
            events.extend(
                self._hands_dealt(deal, [h | d for h, d in zip(hands, hidden, strict=True)])
            )
        return events

    def _hands_dealt(self, deal: Deal, before: Sequence[CardSet]) -> list[Event]:
        """A :data:`HAND` event for each seat whose hand gained cards not in ``before``
        (by seat), told to the seats that may see that hand."""
        s = deal.state
        out: list[Event] = []
        for seat in range(self.seats):
            new = s.hands[seat] & ~before[seat]
            if new:
                to = None if s.open_hands else seat
                out.append(HandEvent(seat=seat, deal=self.deal_number, cards=new, to=to))
        return out

    # --- what each seat was told (for a fair undo) ---------------------------------------

    def _events_since(self, deal: Deal, first: int) -> list[list[Event]] | None:
        """The events each action of ``deal`` caused, from index ``first`` on.  The
        session keeps them as it plays; a deal it did not play from its start (a resumed
        save, a match handed in) is played again from its layout once to find them.  A deal set up from a position, which cannot be played again,
        gives ``None``: it cannot be rewound either."""
        if self._told_deal is not deal or len(self._told) != len(deal.actions):
            try:
                fresh = deal.restarted()
            except IllegalMoveError:
                return None
            told = [self._step(fresh, who, action) for who, action in deal.actions]
            self._told_deal, self._told = deal, told
        return self._told[first:]

    def _news(self, event: Event, seat: int) -> str:
        """What ``event`` told ``seat`` that the seat did not know and did not cause, in
        a few words ("" for nothing): another seat's action, a card turned, cards dealt,
        another seat's announcement.  A trick booked, a contract, a notice name only
        what the seat was told already."""
        if not event.visible_to(seat):
            return ""
        kind = event.kind
        if kind in _ACTED and event.seat != seat:
            return f"{self.seat_name(event.seat)} has {_ACTED[kind]}"
        if kind == TURN and event.card is not None:
            whose = "your" if event.seat == seat else f"{self.seat_name(event.seat)}'s"
            card = event.card
            return f"{whose} {RANKS[card & 7]}{SUIT_SYMBOLS[card >> 3]} has been turned"
        if kind == HAND:
            return "cards have been dealt"
        if kind == ANNOUNCE and event.seat != seat:
            return f"{self.seat_name(event.seat)} has announced {event.text or 'cards'}"
        return ""

    @staticmethod
    def _last_card(deal: Deal, seat: int) -> int:
        """The index in ``deal.actions`` of ``seat``'s last card, -1 for none."""
        for i in range(len(deal.actions) - 1, -1, -1):
            who, action = deal.actions[i]
            if who == seat and action.kind == "play":
                return i
        return -1

    # --- saving --------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match record of the session (every deal, the one in progress included)."""
        return match_to_record(self.match, [p.to_json() for p in self.players])

    def attach(self, path: str | Path, meta: Mapping[str, Any] | None = None) -> None:
        """Follow the save file ``path`` from now on (written whole now); ``meta`` is the
        front end's own data kept with it (its settings), handed back by
        :meth:`resume`."""
        self._journal = _Journal(SaveFile(Path(path)), dict(meta or {}))
        self._checkpoint()

    def detach(self) -> None:
        """Stop following the save file (it stays as it is)."""
        if self._journal is not None:
            self._journal.file.close()
        self._journal = None

    def use_save_file(self, file: SaveFile) -> None:
        """Write the save file through ``file`` from now on: a :class:`SaveFile` of the
        same path, such as a server's that defers its writes to a worker thread.  The
        session must be following that file already (:meth:`attach`, :meth:`resume`)."""
        journal = self._journal
        if journal is None or journal.file.path != file.path:
            raise ValueError("use_save_file: the session does not follow that file")
        journal.file.close()
        journal.file = file

    @property
    def save_path(self) -> Path | None:
        return self._journal.file.path if self._journal is not None else None

    @property
    def meta(self) -> dict[str, Any]:
        """The front end's data kept with the save file."""
        return self._journal.meta if self._journal is not None else {}

    def _checkpoint(self) -> None:
        if self._journal is not None:
            self._journal.file.write(self._save_data())

    def _save_data(self) -> dict[str, Any]:
        """What a whole-file write of the save file holds: the session as it stands."""
        assert self._journal is not None
        return {
            "players": [p.to_json() for p in self.players],
            "think": self.think,
            "meta": self._journal.meta,
            "match": self.record(),
        }

    @classmethod
    def resume(
        cls,
        engine: Engine,
        path: str | Path,
        bot_factory: Callable[[Match, int], Bot] | None = None,
    ) -> Session:
        """The session saved in ``path``, standing where it was saved, and following the
        file again.  ``bot_factory(match, seat)``, when given, makes the bot of each bot
        seat (else the engine makes the bot the file names).  Any problem is one
        :class:`~atout.core.errors.AtoutError` naming the file (and the line of an
        action); nothing is written then."""
        file = SaveFile(Path(path))
        header, actions = file.read()
        where = str(file.path)
        raw_players = header.get("players")
        if not isinstance(raw_players, list):
            raise RecordError(f"{where}: players: expected a list of players")
        players = [Player.from_json(p, f"{where}: players[{i}]") for i, p in enumerate(raw_players)]
        try:
            think = check_seconds(header.get("think", 0.0), most=MAX_THINK, zero=True)
        except LimitError as exc:
            raise RecordError(f"{where}: think: {exc}") from None
        meta = header.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError(f"{where}: meta: expected an object")
        record = header.get("match")
        if not isinstance(record, dict):
            raise RecordError(f"{where}: match: expected a match record")
        match = match_from_record(engine, record, where)
        bots = None
        if bot_factory is not None:
            bots = {s: bot_factory(match, s) for s, p in enumerate(players) if p.kind == BOT}
        try:
            session = cls(engine, players=players, think=float(think), bots=bots, match=match)
        except AtoutError as exc:
            raise RecordError(f"{where}: {exc}") from None
        for line, seat, action in actions:
            try:
                session.act(seat, action)
            except AtoutError as exc:
                raise RecordError(f"{where}: line {line}: {exc}") from None
        session._journal = _Journal(file, meta)
        if actions:
            file.reopen()
        return session


def seats_of(kinds: Sequence[str], bot: str, names: Sequence[str] = ()) -> list[Player]:
    """Players from a kind per seat (``person``, ``bot``, ``remote``), every bot seat
    played by ``bot``; ``names`` give the players' names where known."""
    return [
        Player(kind, names[i] if i < len(names) else "", bot if kind == BOT else "")
        for i, kind in enumerate(kinds)
    ]
