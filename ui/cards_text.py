"""Words and symbols for cards and seats, shared by every front end.

The terminal game and the Arcade window show the same card the same way (``J♥``; ``V♥``
in French, ``B♥`` in German), call the person "You" and sort a hand alike; this module
is the one place that says how, so the two cannot drift apart.  A card's letters and
words go through the translation functions (:mod:`atout.ui.i18n`, with the contexts
``card letter``, ``card name`` and ``suit``); the English letters are always accepted
in input beside the language's (:func:`read_card`).  Records and the protocol keep the
fixed form (``JH``) whatever the language.  It imports only the core (no arcade, no
terminal), so any front end may use it.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import Final

from atout.core import Engine
from atout.core import GameInfo
from atout.core import Match
from atout.core import Rules
from atout.core import View
from atout.core import parse_card
from atout.core.cards import JACK
from atout.core.cards import KING
from atout.core.cards import QUEEN
from atout.core.cards import RANKS
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import CardParseError
from atout.core.cards import sort_for_display
from atout.core.errors import AtoutError
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_REDOUBLE
from atout.core.model import BidInfo
from atout.core.text import NP_

from .i18n import _
from .i18n import pgettext

HUMAN: Final = 0
"""The person's seat in both front ends: South (the bots take the others)."""


def rank_letter(rank: int) -> str:
    """A rank as a card shows it in the chosen language: ``J`` (``V`` in French, ``B``
    in German); the numbers and the ace's ``A`` are the same everywhere."""
    if rank == JACK:
        return pgettext("card letter", "J")
    if rank == QUEEN:
        return pgettext("card letter", "Q")
    if rank == KING:
        return pgettext("card letter", "K")
    return RANKS[rank]


def show_card(card: int) -> str:
    """A card with its suit symbol: ``J♥``, ``10♠`` (``V♥`` in French)."""
    return rank_letter(card & 7) + SUIT_SYMBOLS[card >> 3]


SUIT_WORDS = (
    NP_("suit", "clubs"),
    NP_("suit", "diamonds"),
    NP_("suit", "hearts"),
    NP_("suit", "spades"),
)
"""The suits' names alone (``hearts``: ``cœur``, ``Herz``), marked for the catalog and
translated where they are shown (:func:`suit_name`); the same words as
:data:`~atout.core.cards.SUIT_NAMES`."""

SUIT_IN_NAME_WORDS = (
    NP_("suit in a card name", "clubs"),
    NP_("suit in a card name", "diamonds"),
    NP_("suit in a card name", "hearts"),
    NP_("suit in a card name", "spades"),
)
"""The suits' names as they stand inside a card's name (``cœur`` in *le valet de cœur*,
``Herz`` in *der Herz-Bube*): a language may write them otherwise than alone."""

CARD_NAME_PATTERNS = (
    NP_("card name", "the seven of {suit}"),
    NP_("card name", "the eight of {suit}"),
    NP_("card name", "the nine of {suit}"),
    NP_("card name", "the ten of {suit}"),
    NP_("card name", "the jack of {suit}"),
    NP_("card name", "the queen of {suit}"),
    NP_("card name", "the king of {suit}"),
    NP_("card name", "the ace of {suit}"),
)
"""The pattern of a card's name by rank, with ``{suit}`` for the suit's name (the
article and the word order differ by rank and by language: *l'as de pique*,
*die Pik-Dame*)."""


def suit_name(suit: int) -> str:
    """A suit's name in the chosen language: ``hearts`` (``cœur``, ``Herz``)."""
    return pgettext("suit", SUIT_WORDS[suit])


def card_name(card: int) -> str:
    """A card in words, for a screen reader: ``the jack of hearts`` (``le valet de
    cœur``, ``der Herz-Bube``)."""
    pattern = pgettext("card name", CARD_NAME_PATTERNS[card & 7])
    return pattern.format(suit=pgettext("suit in a card name", SUIT_IN_NAME_WORDS[card >> 3]))


def card_names(cards: list[Card]) -> str:
    """Cards in words, one after the other: ``the jack of hearts, the nine of spades``."""
    return ", ".join(card_name(c) for c in cards)


def input_letters() -> dict[str, int]:
    """The rank letters of the chosen language that differ from the English ones, with
    the rank each means (``{"V": JACK, "D": QUEEN, "R": KING}`` in French)."""
    letters = {rank_letter(r).upper(): r for r in (JACK, QUEEN, KING)}
    return {letter: r for letter, r in letters.items() if letter != RANKS[r]}


def read_card(text: str) -> Card:
    """A card typed by a person: the language's rank letters (``VC``: the jack of clubs
    in French) or the English ones (``JC``), then a suit letter (C D H S) or symbol;
    ``10``, ``T`` for the ten.

    :raises CardParseError: ``text`` is no card in any of these forms (the message says
        what is accepted, in the chosen language).
    """
    t = text.strip()
    rank = input_letters().get(t[:-1].upper()) if len(t) >= 2 else None
    if rank is not None:
        t = RANKS[rank] + t[-1]
    try:
        return parse_card(t)
    except CardParseError:
        raise CardParseError(
            _("{text} is not a card: {how}").format(text=repr(text.strip()), how=card_input_help())
        ) from None


def card_input_help() -> str:
    """How a card is typed, in the chosen language: rank then suit, with the accepted
    letters (the language's and the English ones)."""
    ranks = " ".join(RANKS[:4] + tuple(rank_letter(r) for r in (JACK, QUEEN, KING)) + ("A",))
    extra = input_letters()
    english = (
        _(" (or {letters})").format(letters=" ".join(RANKS[r] for r in sorted(extra.values())))
        if extra
        else ""
    )
    example = rank_letter(JACK)
    return _(
        "type the rank ({ranks}{english}; T for 10) then the suit (C D H S, or ♣ ♦ ♥ ♠): "
        "{example}H, 10S, {example}♥"
    ).format(ranks=ranks, english=english, example=example)


def suit_order(trump: int | None = None) -> str:
    """The order of the suits in a hand as players sort it: spades, hearts, clubs,
    diamonds (the colours alternate), the trump suit first when there is one."""
    order = "SHCD"
    if trump is None:
        return order
    return SUITS[trump] + "".join(s for s in order if s != SUITS[trump])


def show_cards(mask: int, trump: int | None = None) -> str:
    """A hand in one line, sorted by suit (trumps first) then rank: ``A♠ 10♠ 7♥``."""
    return " ".join(show_card(c) for c in sort_for_display(mask, suit_order(trump)))


def suit_label(suit: int) -> str:
    """A suit with its symbol: ``♥ hearts`` (``♥ cœur``)."""
    return f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"


def capital(words: str) -> str:
    """``words`` with a capital first letter (the engine writes its notes in lower case)."""
    return words[:1].upper() + words[1:]


def seat_word(name: str) -> str:
    """A seat's name in the chosen language (``North``: ``Nord``); a player's own name
    is kept as it is."""
    words = {
        "North": pgettext("seat", "North"),
        "South": pgettext("seat", "South"),
        "East": pgettext("seat", "East"),
        "West": pgettext("seat", "West"),
    }
    return words.get(name, name)


def seat_name(info: GameInfo, seat: int) -> str:
    """What a seat is called: "You" for the person, else the game's name for it (in
    the chosen language)."""
    return pgettext("seat", "You") if seat == HUMAN else seat_word(info.seat_name(seat))


def team_long_name(info: GameInfo, team: int, name: Callable[[int], str] | None = None) -> str:
    """A team by its players: "You & North", "East & West" (a seat's name when each
    player plays alone); ``name(seat)`` says what a seat is called (by default
    :func:`seat_name`)."""
    if name is None:
        return team_long_name(info, team, lambda seat: seat_name(info, seat))
    if info.teams == info.seats:
        return name(team)
    return " & ".join(name(s) for s in range(info.seats) if s % info.teams == team)


# --- bids the engine describes (hook atout_describe_bid) -------------------------------------

SANS_ATOUT: Final = "sans-atout"
"""The name of the contract without a trump suit (the family's sans atout)."""
TOUT_ATOUT: Final = "tout-atout"
"""The name of the contract where every suit ranks as trump (the family's tout atout)."""
STRAIN_KEYS: Final = {SANS_ATOUT: "SA", TOUT_ATOUT: "TA"}
"""What a person types for the strains that are no suit (a suit is typed by its letter)."""


def strain_words(strain: str, trump: int | None, plain: bool = False) -> str:
    """What a contract is played in, as players say it: its trump suit (``♥ hearts``;
    ``plain``: without the symbol), sans atout, tout atout, else the strain's text."""
    if trump is not None:
        return suit_name(trump) if plain else suit_label(trump)
    if strain == SANS_ATOUT:
        return pgettext("contract", "sans atout")
    if strain == TOUT_ATOUT:
        return pgettext("contract", "tout atout")
    return strain.replace("-", " ")


def strain_key(info: BidInfo) -> str:
    """What a person types for the strain of a contract bid: ``H``, ``SA``, ``TA``."""
    if info.trump is not None:
        return SUITS[info.trump]
    return STRAIN_KEYS.get(info.strain, info.strain)


def strain_mark(info: BidInfo) -> str:
    """A contract bid's strain in the fewest signs: its trump's symbol (``♥``), else
    what a person types for it (``SA``, ``TA``)."""
    return SUIT_SYMBOLS[info.trump] if info.trump is not None else strain_key(info)


def value_words(info: BidInfo) -> str:
    """A contract bid's value as players say it: ``90``, or ``capot``."""
    if info.capot:
        return pgettext("bid", "capot")
    return "" if info.value is None else str(info.value)


def bid_spoken(info: BidInfo, plain: bool = False) -> str | None:
    """A described bid as players say it: ``90 ♥ hearts``, ``capot sans atout``,
    ``contre``, ``surcontre``; ``None`` for a pass or a bid the game does not describe
    (the front end says those its own way)."""
    if info.kind == BID_CONTRACT:
        return f"{value_words(info)} {strain_words(info.strain, info.trump, plain)}".strip()
    if info.kind == BID_DOUBLE:
        return pgettext("bid", "contre")
    if info.kind == BID_REDOUBLE:
        return pgettext("bid", "surcontre")
    return None


def bid_short(info: BidInfo) -> str | None:
    """A described bid in the fewest signs, for a button or a bubble: ``90 ♥``,
    ``capot SA``, ``Contre``; ``None`` for a pass or a bid the game does not describe."""
    if info.kind == BID_CONTRACT:
        return f"{value_words(info)} {strain_mark(info)}".strip()
    spoken = bid_spoken(info)
    return capital(spoken) if spoken else None


def bid_text(bid: str, view: View, info: BidInfo | None = None) -> str:
    """A bid in words for a bubble or a button (only describes the engine's bids); with
    the engine's description of it (``info``), as :func:`bid_short` writes it."""
    short = bid_short(info) if info is not None else None
    if short is not None:
        return short
    if bid == "pass":
        return pgettext("bid", "Pass")
    if bid == "take" and view.turnup is not None:
        return pgettext("bid", "Take {suit}").format(suit=suit_label(view.turnup >> 3))
    if bid in SUITS:
        return suit_label(SUITS.index(bid))
    return capital(bid.replace("-", " "))


def _typed(text: str) -> str:
    """``text`` as a typed bid is compared: lower case, without spaces or hyphens."""
    return text.lower().replace(" ", "").replace("-", "")


def bid_typed(info: BidInfo) -> set[str]:
    """Every way a person may type a described bid, compared as :func:`_typed` leaves
    it: ``90h``, ``90 H``, ``90♥``, ``90 hearts`` (in the language too), ``capot S``,
    ``90 SA``, ``90 sans atout``; ``contre``, ``coinche`` or ``double``; ``surcontre``,
    ``surcoinche`` or ``redouble`` (and the language's word for each)."""
    if info.kind == BID_DOUBLE:
        return {_typed(w) for w in ("contre", "coinche", "double", pgettext("bid", "contre"))}
    if info.kind == BID_REDOUBLE:
        words = ("surcontre", "surcoinche", "redouble", pgettext("bid", "surcontre"))
        return {_typed(w) for w in words}
    if info.kind != BID_CONTRACT:
        return set()
    values = {value_words(info), "capot"} if info.capot else {value_words(info)}
    strains = {strain_key(info), info.strain, strain_words(info.strain, info.trump, plain=True)}
    if info.trump is not None:  # the symbol, and the English name in every language
        strains |= {SUIT_SYMBOLS[info.trump], SUIT_NAMES[info.trump]}
    return {_typed(v + s) for v in values for s in strains}


def read_bid(text: str, described: list[tuple[str, BidInfo]]) -> str | None:
    """The bid among ``described`` (each bid text with its description) that ``text``
    types, or ``None``."""
    typed = _typed(text)
    for bid, info in described:
        if typed in bid_typed(info):
            return bid
    return None


def contract_bid(
    bids: Sequence[tuple[int, str]], describe: Callable[[str], BidInfo]
) -> BidInfo | None:
    """The description (``describe``: the engine's) of the last of an auction's ``bids``
    that proposed a contract, the contract's value and strain as players say them
    (``capot ♥ hearts``); ``None`` if no bid did."""
    for _seat, bid in reversed(bids):
        info = describe(bid)
        if info.kind == BID_CONTRACT:
            return info
    return None


def opening_bids(engine: Engine, game: str, rules: Rules) -> list[str]:
    """The bids the engine lists for the first seat to speak in a fresh auction of
    ``game`` under ``rules`` (a seeded deal made for the question; empty for a game that
    does not begin with an auction, or that this engine cannot deal: a network table's
    game it does not have)."""
    try:
        deal = Match(engine, game, rules, seed=0).next_deal()
    except AtoutError:
        return []
    return deal.legal_bids() if deal.state.phase == "bidding" else []


def contract_described(engine: Engine, view: View) -> BidInfo | None:
    """The engine's description of the bid that made ``view``'s contract, its value and
    strain as players say them (``capot ♠``): the last contract bid of the auction;
    when the auction is not known (a position written by hand with its contract), the
    contract bid of the same value and strain among the bids that open the game's
    auction (:func:`opening_bids`), so that a capot reads "capot", never its worth in
    points.  ``None`` when the game describes no such bid."""

    def describe(bid: str) -> BidInfo:
        return engine.describe_bid(view.game, view.rules, bid)

    said = contract_bid(view.bids, describe)
    contract = view.contract
    if said is not None or contract is None or contract.value is None:
        return said
    for bid in opening_bids(engine, view.game, view.rules):
        info = describe(bid)
        if info.kind == BID_CONTRACT and (info.value, info.strain, info.trump) == (
            contract.value,
            contract.name,
            contract.trump,
        ):
            return info
    return None


def bid_summary(described: list[tuple[str, BidInfo]]) -> str | None:
    """The contract bids among ``described`` in a few words, for a prompt that cannot
    list them all: ``80-160 / capot + C D H S SA TA, e.g. 90H``; ``None`` when there
    are few enough to list."""
    contracts = [info for _, info in described if info.kind == BID_CONTRACT]
    if len(contracts) <= 6:
        return None
    values = sorted({i.value for i in contracts if not i.capot and i.value is not None})
    ranges = []
    if values:
        ranges.append(f"{values[0]}-{values[-1]}" if len(values) > 1 else str(values[0]))
    if any(i.capot for i in contracts):
        ranges.append(pgettext("bid", "capot"))
    keys = list(dict.fromkeys(strain_key(i) for i in contracts))
    strains = " ".join(keys)
    first = contracts[min(len(keys), len(contracts) - 1)]  # the second value's first strain
    example = f"{value_words(first)}{strain_key(first)}"
    return _("{values} + {strains}, e.g. {example}").format(
        values=" / ".join(ranges), strains=strains, example=example
    )
