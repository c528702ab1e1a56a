"""The plain values that flow between the engine and the rule plugins.

Everything here is data: frozen dataclasses that a hook returns or receives, and that a
record can write down.  None of it knows a rule; the rule plugins fill it in.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import TYPE_CHECKING
from typing import Any
from typing import ClassVar
from typing import NamedTuple
from typing import TypeVar
from typing import overload

from .cards import Card
from .cards import CardSet
from .cards import card_str
from .cards import cards_str
from .text import CardCode
from .text import Message

if TYPE_CHECKING:
    from .state import DealState
    from .views import BotFactory


@dataclass(frozen=True)
class GameInfo:
    """A game that a rule plugin provides (answer of ``atout_games``).

    ``name`` is what a user types (``atout play NAME``); ``seats`` and ``teams`` give the
    table (a seat belongs to team ``seat % teams``); ``total_points`` is what the cards
    of one deal are worth together, checked by the engine after every deal.
    """

    name: str
    title: str
    seats: int
    teams: int
    description: str
    total_points: int = 162
    seat_names: tuple[str, ...] = ()

    def seat_name(self, seat: int) -> str:
        """The display name of ``seat``."""
        return self.seat_names[seat] if self.seat_names else f"seat {seat}"


_T = TypeVar("_T")

OptionValue = bool | int | str
"""The value of a rule option: its kind says which (``"bool"``, ``"int"``, ``"choice"``)."""


@dataclass(frozen=True)
class RuleOption:
    """One switch that a house-rule pack may set (answer of ``atout_rule_options``).

    ``choices`` lists the allowed values of a text option; ``minimum``/``maximum`` bound
    an integer option.  ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``.
    """

    key: str
    kind: str
    default: OptionValue
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    source: str = ""
    """Which rule text the variation comes from (seed file ids), for the documentation."""
    title: str = ""
    """The option's name for a person ("Direction"), marked for the catalogs with
    ``N_`` (:mod:`atout.core.text`); empty: the front ends show the key in words."""
    choice_titles: tuple[str, ...] = ()
    """The name of each of ``choices`` for a person, in their order ("anticlockwise" is
    shown "Anticlockwise", in French "Sens inverse des aiguilles"), marked with ``N_``;
    empty: the choices are shown as a pack writes them."""

    def check(self, value: object) -> str | None:
        """Why ``value`` is not allowed for this option (a :class:`Message`: the front end
        shows it translated), or ``None`` when it is."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                return Message("must be true or false, not {value}", value=repr(value))
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return Message("must be a whole number, not {value}", value=repr(value))
            if self.minimum is not None and value < self.minimum:
                return Message(
                    "must be at least {least}, not {value}", least=self.minimum, value=value
                )
            if self.maximum is not None and value > self.maximum:
                return Message(
                    "must be at most {most}, not {value}", most=self.maximum, value=value
                )
        elif self.kind == "choice" and value not in self.choices:
            allowed = ", ".join(self.choices)
            return Message(
                "must be one of {allowed}, not {value}", allowed=allowed, value=repr(value)
            )
        return None


class Rules(Mapping[str, OptionValue]):
    """The resolved rules of a match: every option's value, frozen and hashable.

    Hooks receive it as ``rules``; ``rules["target"]`` and ``rules.target`` both read an
    option.  ``pack`` names the pack it came from and ``game`` the game it is for.
    """

    __slots__ = ("_hash", "_items", "game", "pack")

    def __init__(self, game: str, values: Mapping[str, Any], pack: str = "") -> None:
        self.game = game
        self.pack = pack
        self._items: dict[str, OptionValue] = dict(sorted(values.items()))
        self._hash = hash((game, tuple(self._items.items())))

    def __getitem__(self, key: str) -> OptionValue:
        return self._items[key]

    @overload
    def get(self, key: str) -> OptionValue | None: ...
    @overload
    def get(self, key: str, default: OptionValue | _T) -> OptionValue | _T: ...
    def get(self, key: str, default: object = None) -> object:
        """The option's value, or ``default`` when the game has no such option (one
        dictionary lookup: the engine asks this for every deal)."""
        return self._items.get(key, default)

    def number(self, key: str, default: int | None = None) -> int:
        """The value of the whole-number option ``key``, typed (``default`` when the game
        has no such option and one is given)."""
        value = self._typed(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"rule option {key!r} is not a whole number: {value!r}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        """The value of the choice option ``key``, typed (``default`` when the game has
        no such option and one is given)."""
        value = self._typed(key, default)
        if not isinstance(value, str):
            raise TypeError(f"rule option {key!r} is not a text: {value!r}")
        return value

    def _typed(self, key: str, default: OptionValue | None) -> OptionValue:
        value = self._items.get(key, default)
        if value is None:
            raise KeyError(f"no rule option {key!r} for {self.game}")
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __reduce__(self) -> tuple[type[Rules], tuple[str, dict[str, Any], str]]:
        # Rebuilt through ``__init__``: the hash of strings differs between processes, so
        # a pickled ``_hash`` would be wrong in another one.
        return (Rules, (self.game, dict(self._items), self.pack))

    def __getattr__(self, key: str) -> OptionValue:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._items[key]
        except KeyError:
            raise AttributeError(f"no rule option {key!r} for {self.game}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rules):
            return NotImplemented
        return self.game == other.game and self._items == other._items

    def __repr__(self) -> str:
        return f"Rules({self.game!r}, pack={self.pack!r}, {self._items!r})"

    def replace(self, **changes: Any) -> Rules:
        """A copy with some option values changed."""
        return Rules(self.game, {**self._items, **changes}, self.pack)

    def to_dict(self) -> dict[str, Any]:
        """The option values as a plain dict (for records)."""
        return dict(self._items)


@dataclass(frozen=True)
class Layout:
    """How the cards lie when a deal starts (answer of ``atout_deal``).

    ``hands`` are the cards each seat may play from.  ``piles`` (Découverte-like games)
    give, per seat and position, the covering card and the face-down card beneath it
    (``None`` where there is none); the covering cards are in ``hands`` and the face-down
    cards are nobody's to see or play until a rule plugin turns them.  ``stock`` is the
    rest of the pack in order (dealt later by ``atout_complete_deal``); ``turnup`` is the
    card shown for the bidding.  ``open_hands`` says that every seat sees every hand.
    """

    hands: tuple[CardSet, ...]
    piles: tuple[tuple[tuple[Card | None, Card | None], ...], ...] = ()
    stock: tuple[Card, ...] = ()
    turnup: Card | None = None
    open_hands: bool = False
    pack_order: tuple[Card, ...] = ()
    """The whole pack in the order it was dealt from (for records and gather-and-cut)."""


@dataclass(frozen=True)
class Contract:
    """The outcome of the bidding: who took, and what the trump is.

    ``trump`` is a suit index, or ``None`` for a contract without a single trump suit;
    ``name`` is the contract's text form (``"H"``, or a plugin's own such as
    ``"sans-atout"``).
    """

    taker: int
    trump: int | None
    name: str
    value: int | None = None
    """What the takers promised to make, for a game whose bids carry a value (La Coinche's
    80 to 160, or its capot); ``None`` for a game without one (Belote, Découverte)."""
    level: int = 1
    """The contract's multiplier: 1 plain, 2 doubled (*contré*), 4 redoubled
    (*surcontré*).  The scoring reads it (hook ``atout_deal_scorer``), so a search values
    a doubled contract as the game scores it."""

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> dict[str, Any]:
        """The contract as the protocol writes it: taker, trump and name, with value and
        level only when the game's contract has them (so a Belote contract reads as it
        always did)."""
        out: dict[str, Any] = {"taker": self.taker, "trump": self.trump, "name": self.name}
        if self.value is not None:
            out["value"] = self.value
        if self.level != 1:
            out["level"] = self.level
        return out


BID_PASS = "pass"
"""The kind of a bid that passes."""
BID_CONTRACT = "contract"
"""The kind of a bid that proposes a contract (a suit, a value, a strain)."""
BID_DOUBLE = "double"
"""The kind of a bid that doubles the opponents' last bid (*contre*, *coinche*)."""
BID_REDOUBLE = "redouble"
"""The kind of a bid that redoubles a double (*surcontre*, *surcoinche*)."""
BID_OTHER = "other"
"""The kind of a bid a game does not describe (a front end shows its text)."""
BID_KINDS = (BID_PASS, BID_CONTRACT, BID_DOUBLE, BID_REDOUBLE, BID_OTHER)


@dataclass(frozen=True)
class BidInfo:
    """What a bid text means, in parts (answer of ``atout_describe_bid``).

    Bids stay texts in records and on the network (language-free, as a game writes
    them); a front end that lays out an auction (a grid of values by strains, a pass, a
    double and a redouble button) or says a bid in a person's language reads these parts
    instead of the text, and so knows no game.  ``kind`` is one of :data:`BID_KINDS`;
    for a contract, ``value`` is the points it promises (``None`` for a game whose bids
    have none), ``capot`` that it promises every trick, ``strain`` what it is played in:
    a suit letter (``"H"``) or a contract's name (``"sans-atout"``), with ``trump`` the
    suit index when it names one.
    """

    kind: str
    value: int | None = None
    capot: bool = False
    strain: str = ""
    trump: int | None = None


@dataclass(frozen=True)
class BiddingStep:
    """What happens after a bid (answer of ``atout_bidding_step``).

    Exactly one holds: ``contract`` (the bidding is over), ``redeal`` (all passed: the
    cards are gathered and the next dealer deals), or ``next_seat`` (who bids next).
    """

    next_seat: int | None = None
    contract: Contract | None = None
    redeal: bool = False
    round: int = 1


@dataclass(frozen=True)
class Declaration:
    """A combination a seat holds and may score (answer of ``atout_declarations``).

    ``announce`` says when the engine makes it public: ``"start"`` (as soon as the deal
    is complete), ``"first-play"`` (when the seat plays its first card), or ``"cards"``
    (word by word as each of ``cards`` is played, e.g. belote then rebelote, in ``words``).
    """

    seat: int
    kind: str
    cards: CardSet
    points: int
    rank: tuple[int, ...] = ()
    """A sort key, higher is better; the rule plugin compares declarations with it."""
    announce: str = "first-play"
    words: tuple[str, ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return self.text or f"{self.kind} ({cards_str(self.cards)})"


@dataclass(frozen=True)
class Announcement:
    """Something said aloud during the play: a declaration shown, "belote", "rebelote"."""

    seat: int
    text: str
    cards: CardSet = 0
    trick: int = 0


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, who won it, its card points."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seats(self, seats: int, direction: int) -> tuple[int, ...]:
        """The seat that played each card."""
        return tuple((self.leader + i * direction) % seats for i in range(len(self.cards)))

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self.cards)


@dataclass(frozen=True)
class CardValues:
    """What cards are worth in a deal (answer of ``atout_card_points``)."""

    points: tuple[int, ...]
    """Points of each card 0..31."""
    last_trick: int = 0
    """The bonus for winning the last trick (dix de der)."""


class MoveRule:
    """The legality of plays in one deal (answer of ``atout_legal_moves``).

    A plugin subclasses it.  ``legal`` returns the set of cards the seat to play may play
    and must be fast: the engine calls it for every card.  ``explain`` says, in words a
    player understands, why ``card`` may not be played ("must follow hearts").
    """

    free_lead: bool = False
    """True when the leader of a trick may lead any card he holds: the engine then asks
    :meth:`legal` only for the cards that follow a lead (half the calls in a two-player
    game)."""

    trick_local: bool = False
    """True when :meth:`legal` reads nothing but the seat to play (``state.turn``), its
    hand (``state.hands[state.turn]``), the trick (``state.trick``, ``state.win_card``,
    ``state.win_seat``) and the teams (``state.team_of``): a search may then remember
    its answers by those, instead of asking again in every position."""

    def legal(self, state: DealState) -> CardSet:
        """The cards the seat to play (``state.turn``) may play now."""
        raise NotImplementedError

    def explain(self, state: DealState, card: Card) -> str:
        """Why ``card`` is not a legal play now (only asked for illegal cards)."""
        return Message("{card} may not be played now", card=CardCode(card))


EndOfTrick = Callable[["DealState", Trick], None]
"""Run by the engine after each trick (answer of ``atout_end_of_trick``)."""

CardPlayed = Callable[["DealState", int, Card], None]
"""Run by the engine after each card (answer of ``atout_card_played``)."""


@dataclass(frozen=True)
class DealScore:
    """The result of a deal (answer of ``atout_score_deal``).

    All tuples are per team.  ``score`` is what goes on the score sheet now; ``carry`` is
    whatever the rules hold over to the next deal (abeyance, litige), handed back to the
    scorer of the next deal as ``state.carry_in``.
    """

    card_points: tuple[int, ...]
    declaration_points: tuple[int, ...]
    score: tuple[int, ...]
    outcome: str
    made: bool | None = None
    capot: int | None = None
    carry: Any = None
    notes: tuple[str, ...] = ()
    total_check: int | None = None
    """The sum ``card_points`` must reach (e.g. 162, or 252 on capot); checked by the engine."""


class DealEnd(NamedTuple):
    """How a deal ended, as its scoring reads it: all it needs to know, per team.

    A search that ends a deal in its head (a bot valuing a card, the review) describes
    the end this way and asks the game's scorer (hook ``atout_deal_scorer``) what the
    score sheet would say, so the bots value a deal exactly as the game scores it.
    """

    card_points: tuple[int, ...]
    """The card points each team won, the last trick's bonus included."""
    capot: int | None = None
    """The team that won every trick, if one did."""
    declarations: tuple[int, ...] = ()
    """Each team's declaration points that count, belote-rebelote apart (empty: none)."""
    belote: tuple[int, ...] = ()
    """Each team's belote-rebelote points (empty: none)."""


DealScorer = Callable[[DealEnd], DealScore]
"""A deal's scoring compiled for its rules and contract (answer of ``atout_deal_scorer``)."""


@dataclass(frozen=True)
class MatchResult:
    """The end of a match (answer of ``atout_match_over``): ``winner`` team or a draw."""

    winner: int | None
    reason: str


@dataclass(frozen=True)
class BotInfo:
    """A bot a plugin provides (answer of ``atout_bots``).

    ``factory(game=..., rules=..., seed=..., think=..., engine=...)`` (a
    :class:`~atout.core.views.BotFactory`, called with keywords) returns a
    :class:`~atout.core.views.Bot`, an object with ``choose(view) -> Action``.
    ``title`` is the level's name for a person (the window's start view shows it, e.g.
    "Beginner"); empty, the front ends show ``name``, which the command line takes.
    """

    name: str
    games: tuple[str, ...]
    description: str
    factory: BotFactory = field(compare=False)
    level: int = 0
    title: str = ""


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a seat: a :class:`Bid`, a :class:`Play` of a card, or a
    :class:`Claim` (l'arrêt).  This is their common base; an action is always one of
    the three, whose fields are typed (``Play(card).card``, ``Bid(text).text``), so that
    the engine, the records and the front ends read an action by its class instead of a
    string and a value of any type.

    ``kind`` (``"bid"``, ``"play"``, ``"claim"``) names the class in the records' and
    the protocol's words, and ``value`` is the bid's text or the card (``None`` for a
    claim): both stay for the code that reads an action by its kind.  ``reason`` is why
    the action was chosen, when a bot says so (a hint): it takes no part in comparing or
    hashing actions, nor in a record.
    """

    kind: ClassVar[str] = ""
    reason: str = field(default="", compare=False, kw_only=True)

    def __init__(self, *args: object, **kwargs: object) -> None:
        # Only the base's own: each kind's class has the __init__ its dataclass writes.
        raise TypeError("Action is the base of Bid(text), Play(card) and Claim()")

    @property
    def value(self) -> Any:
        """The bid's text, the card played, or ``None`` for a claim: the untyped form,
        kept for the code that reads an action by its ``kind`` (new code reads
        ``Play.card`` and ``Bid.text``).  It is the kind's one positional field (its
        dataclass's ``__match_args__``: ``reason`` is keyword-only)."""
        names: tuple[str, ...] = self.__match_args__
        return getattr(self, names[0]) if names else None

    def __str__(self) -> str:
        """The action in the records' words: the bid's text, ``claim`` (a play names
        its card, ``JH``)."""
        value = self.value
        return self.kind if value is None else str(value)

    @property
    def plain(self) -> Action:
        """The action without its reason (what a record or the protocol keeps)."""
        return replace(self, reason="") if self.reason else self

    @staticmethod
    def play(card: Card) -> Play:
        """The play of ``card`` (the same as ``Play(card)``)."""
        return Play(card)

    @staticmethod
    def bid(text: str) -> Bid:
        """The bid ``text`` (the same as ``Bid(text)``)."""
        return Bid(text)

    @staticmethod
    def of(kind: str, value: object = None) -> Action:
        """The action of ``kind`` (``"play"``, ``"bid"``, ``"claim"``) and ``value``: the
        untyped form, for code that holds the two apart.  Anything else is a
        :class:`ValueError`."""
        if kind == "play" and type(value) is int and 0 <= value < 32:
            return Play(value)
        if kind == "bid" and isinstance(value, str):
            return Bid(value)
        if kind == "claim" and value is None:
            return CLAIM
        raise ValueError(f"no {kind!r} action with the value {value!r}")


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A bid: ``text`` is what the rules call it (``"pass"``, ``"take"``, ``"H"``, a
    plugin's own such as ``"sans-atout"``)."""

    kind: ClassVar[str] = "bid"
    text: str


@dataclass(frozen=True, slots=True)
class Play(Action):
    """The play of ``card``."""

    kind: ClassVar[str] = "play"
    card: Card

    def __str__(self) -> str:
        return card_str(self.card)


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """L'arrêt: the seat that just won a trick claims the rest of the deal."""

    kind: ClassVar[str] = "claim"


CLAIM = Claim()
