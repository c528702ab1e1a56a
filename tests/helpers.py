"""Helpers that keep the four-player Belote tests short and readable.

* :func:`cards` / :func:`card` read card texts (``"JH 9H AS"``).
* :func:`position` sets up a deal in its play by hand: the hands, trump, taker, who led
  and the cards already in the current trick (played through the engine, so a position
  that breaks a rule is refused at once).
* :func:`play_out` plays a whole deal written trick by trick through a hand-written deal
  record with a ``start`` position; each seat's hand follows from the tricks, every card
  is checked by the engine and the deal is scored at the end.
* :func:`perft` counts the legal play sequences from a position.
* :func:`random_deal` plays one seeded random deal of a match, bidding included.
* :func:`first_played_deal_record` records the first played deal of a seeded match.
"""

from __future__ import annotations

import functools
import importlib.metadata
import random
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from atout.core import Action
from atout.core import Contract
from atout.core import Deal
from atout.core import DealState
from atout.core import Engine
from atout.core import Layout
from atout.core import Match
from atout.core import card_str
from atout.core import cards_of
from atout.core import make_plugin_manager
from atout.core import parse_card
from atout.core import parse_cards
from atout.core import parse_suit
from atout.core.engine import PlayRules
from atout.core.records import deal_from_record
from atout.core.records import deal_to_record
from atout.core.views import Bot

GAME = "belote"


def third_party_plugins() -> list[str]:
    """The names of the installed ``atout.plugins`` entry points that atout does not ship."""
    return [
        ep.name
        for dist in importlib.metadata.distributions()
        if (dist.metadata["Name"] or "").lower() != "atout"
        for ep in dist.entry_points
        if ep.group == "atout.plugins"
    ]


@functools.cache
def shipped_engine() -> Engine:
    """An engine with atout's own plugins only.

    A third-party plugin installed beside atout may change a game on purpose (one adds
    no-trump and all-trump bids to Belote); the rule tests check the rules as atout ships
    them, whatever else is installed, so they block every other ``atout.plugins`` entry
    point.
    """
    return Engine(make_plugin_manager(disable=third_party_plugins()))


def cards(text: str) -> int:
    """The card set written in ``text`` (``"JH 9H 10S"``)."""
    return parse_cards(text)


def card(text: str) -> int:
    """The card written in ``text`` (``"JH"``)."""
    return parse_card(text)


def texts(mask: int) -> set[str]:
    """The cards of ``mask`` as a set of texts, for readable assertions."""
    return {card_str(c) for c in cards_of(mask)}


def position(
    engine: Engine,
    hands: Sequence[str],
    trump: str | None = "H",
    taker: int = 0,
    leader: int = 0,
    trick: str = "",
    dealer: int | None = None,
    rules: Mapping[str, Any] | None = None,
    game: str = GAME,
    contract: Contract | None = None,
) -> Deal:
    """A four-player deal of ``game`` in its play, set up by hand.

    ``hands[s]`` is what seat ``s`` holds *now*; ``trick`` lists the cards already
    played to the current trick, from ``leader`` on (they are given back to their seats
    and played through the engine, which checks each one).  The dealer defaults to the
    seat before ``leader``; ``contract`` (default: ``trump`` taken by ``taker``) is the
    contract played, for a game whose contracts say more than a trump.
    """
    trick_cards = [parse_card(t) for t in trick.split()]
    masks = [parse_cards(h) for h in hands]
    for i, c in enumerate(trick_cards):
        masks[(leader + i) % 4] |= 1 << c
    game_rules = engine.make_rules(game, rules or {})
    if dealer is None:
        dealer = (leader - 1) % 4
    state = DealState(game, game_rules, 4, 2, dealer, Layout(hands=tuple(masks)))
    if contract is None:
        suit = parse_suit(trump) if trump is not None else None
        contract = Contract(taker, suit, trump or "")
    state.contract = contract
    state.phase = "play"
    state.leader = state.turn = leader
    deal = engine.deal_from_state(state)
    for c in trick_cards:
        deal.play(c)
    return deal


def seats_of_tricks(
    engine: Engine, tricks: Sequence[str], trump: str, leader: int, rules: Mapping[str, Any]
) -> list[tuple[int, int]]:
    """The ``(seat, card)`` plays of a deal written as ``tricks`` (cards in play order,
    the first trick led by ``leader``); each trick's winner, found with the engine's own
    trick-winner table, leads the next."""
    game_rules = engine.make_rules(GAME, rules)
    beats = engine.play_rules(GAME, game_rules, Contract(0, parse_suit(trump), trump)).beats
    plays: list[tuple[int, int]] = []
    for trick in tricks:
        played = [parse_card(t) for t in trick.split()]
        assert len(played) == 4, f"a trick has four cards: {trick!r}"
        win, winner = played[0], leader
        for i, c in enumerate(played):
            seat = (leader + i) % 4
            plays.append((seat, c))
            if i and beats[win] >> c & 1:
                win, winner = c, seat
        leader = winner
    return plays


def deal_record(
    engine: Engine,
    tricks: Sequence[str],
    trump: str = "H",
    taker: int = 0,
    dealer: int = 3,
    rules: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A hand-written deal record: the hands the ``tricks`` imply, a ``start`` position
    at the first trick (led by the dealer's right), and the plays as its actions."""
    rules = dict(rules or {})
    plays = seats_of_tricks(engine, tricks, trump, (dealer + 1) % 4, rules)
    hands = [0, 0, 0, 0]
    for seat, c in plays:
        hands[seat] |= 1 << c
    record = first_trick_record(hands, trump, taker, dealer, rules)
    record["actions"] = [{"seat": seat, "play": card_str(c)} for seat, c in plays]
    return record


def first_trick_record(
    hands: Sequence[int], trump: str, taker: int, dealer: int, rules: Mapping[str, Any] | None
) -> dict[str, Any]:
    """A four-player record set up at the first trick (led by the dealer's right) with
    these hands (card sets), and no action yet."""
    return {
        "format": "atout-deal",
        "version": 1,
        "game": GAME,
        "rules": dict(rules or {}),
        "dealer": dealer,
        "layout": {"hands": [[card_str(c) for c in cards_of(h)] for h in hands]},
        "start": {"contract": {"taker": taker, "trump": trump}, "leader": (dealer + 1) % 4},
    }


def play_out(
    engine: Engine,
    tricks: Sequence[str],
    trump: str = "H",
    taker: int = 0,
    dealer: int = 3,
    rules: Mapping[str, Any] | None = None,
) -> Deal:
    """Play a whole deal written trick by trick (cards in play order; the dealer's right
    leads the first trick, each winner the next) and return it, scored.

    The hands are those the tricks imply; declarations are found from them as in a dealt
    deal, and every card is checked against the play rules on the way.
    """
    record = deal_record(engine, tricks, trump, taker, dealer, rules)
    return deal_from_record(engine, record, "hand-written deal")


def branch(engine: Engine, deal: Deal) -> Deal:
    """An independent copy of ``deal`` in its play (for search and perft)."""
    state = deal.state.copy()
    state.extra["declarations"] = False
    return engine.deal_from_state(state)


def perft(engine: Engine, deal: Deal, depth: int) -> int:
    """How many legal sequences of ``depth`` cards can be played from ``deal``
    (sequences that end the deal earlier count once)."""
    if depth == 0 or deal.is_over:
        return 1
    total = 0
    for c in cards_of(deal.legal_cards()):
        child = branch(engine, deal)
        child.play(c)
        total += perft(engine, child, depth - 1)
    return total


def random_choice(rng: random.Random) -> Callable[[Deal], Action]:
    """A chooser that takes a uniformly random legal action."""
    return lambda deal: rng.choice(deal.legal_actions())


def random_deal(
    engine: Engine, seed: int, rules: Mapping[str, Any] | None = None
) -> tuple[Match, Deal]:
    """Play the first deal of a seeded match with random legal actions (redeals
    included); return the match and the finished deal."""
    game_rules = engine.make_rules(GAME, rules or {})
    match = Match(engine, GAME, game_rules, seed=seed)
    rng = random.Random(seed * 7919 + 1)
    deal = match.play_deal(random_choice(rng))
    return match, deal


def _harmless(hand: int, c: int, trump: int | None) -> bool:
    """Whether adding ``c`` to ``hand`` makes no declaration: no run of three in a suit,
    no four of a rank, no trump king and queen together."""
    suit, rank = c >> 3, c & 7
    row = (hand | 1 << c) >> (suit * 8) & 0xFF
    for start in range(max(0, rank - 2), min(rank, 5) + 1):
        if row >> start & 7 == 7:
            return False
    same_rank = sum(1 for s in range(4) if (hand | 1 << c) >> (s * 8 + rank) & 1)
    if same_rank == 4:
        return False
    if trump is not None and suit == trump and rank in (5, 6):
        other = trump * 8 + (11 - rank)
        if hand >> other & 1:
            return False
    return True


def complete_hands(partial: Sequence[str], trump: str | None = "H") -> list[str]:
    """Deal the cards no hand names to the hands short of 8, adding no declaration
    (no sequence, carré or belote made by a filler card), so that a test writes only
    the cards that matter."""
    masks = [parse_cards(h) for h in partial]
    used = 0
    for m in masks:
        assert not used & m, "a card is given to two hands"
        used |= m
    rest = [c for c in range(32) if not used >> c & 1]
    suit = parse_suit(trump) if trump is not None else None

    def fill(i: int) -> bool:
        if i == len(rest):
            return True
        c = rest[i]
        for seat in range(4):
            if masks[seat].bit_count() < 8 and _harmless(masks[seat], c, suit):
                masks[seat] |= 1 << c
                if fill(i + 1):
                    return True
                masks[seat] &= ~(1 << c)
        return False

    assert fill(0), "no way to complete the hands without a new declaration"
    return [" ".join(card_str(c) for c in cards_of(m)) for m in masks]


def deal_with_hands(
    engine: Engine,
    hands: Sequence[str],
    trump: str = "H",
    taker: int = 0,
    dealer: int = 3,
    rules: Mapping[str, Any] | None = None,
) -> Deal:
    """A deal at its first trick with these four 8-card hands, its declarations found
    as after a bidding (nothing announced yet)."""
    masks = [parse_cards(h) for h in hands]
    assert [m.bit_count() for m in masks] == [8, 8, 8, 8], "each hand holds 8 cards"
    record = first_trick_record(masks, trump, taker, dealer, rules)
    return deal_from_record(engine, record, "hand-written position")


def play_lowest(deal: Deal) -> Deal:
    """Play ``deal`` to its end, each seat playing its lowest-numbered legal card."""
    while not deal.is_over:
        deal.play(cards_of(deal.legal_cards())[0])
    return deal


# --- an independent reading of the play rules -------------------------------------------------

TRUMP_LOW_TO_HIGH = ["7", "8", "Q", "K", "10", "A", "9", "J"]
PLAIN_LOW_TO_HIGH = ["7", "8", "9", "J", "Q", "K", "10", "A"]
RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]


def strength(c: int, trump: int | None) -> int:
    """How strong ``c`` is in a trick (docs/rules.md, "Cards"): any trump above any plain card."""
    rank = RANKS[c & 7]
    if c >> 3 == trump:
        return 100 + TRUMP_LOW_TO_HIGH.index(rank)
    return PLAIN_LOW_TO_HIGH.index(rank)


def reference_winner(trick: Sequence[tuple[int, int]], trump: int | None) -> int:
    """The seat winning ``trick`` ((seat, card) in play order): the highest trump, else
    the highest card of the suit led."""
    led = trick[0][1] >> 3
    best_seat, best = trick[0]
    for seat, c in trick[1:]:
        if c >> 3 in (led, trump) and strength(c, trump) > strength(best, trump):
            best_seat, best = seat, c
    return best_seat


def reference_legal(
    hand: Sequence[int], trick: Sequence[tuple[int, int]], trump: int | None, seat: int
) -> set[int]:
    """docs/rules.md's "Play" (default options), read literally, on plain lists: written
    apart from the plugin to check it."""
    if not trick:
        return set(hand)
    led = trick[0][1] >> 3
    top_trump = max((strength(c, trump) for _, c in trick if c >> 3 == trump), default=-1)
    my_trumps = [c for c in hand if c >> 3 == trump]
    beating = [c for c in my_trumps if strength(c, trump) > top_trump]
    follow = [c for c in hand if c >> 3 == led]
    if follow:
        if led == trump:
            return set(beating or follow)
        return set(follow)
    if not my_trumps:
        return set(hand)
    if reference_winner(trick, trump) % 2 == seat % 2:
        return {c for c in hand if c >> 3 != trump} | set(beating or my_trumps)
    return set(beating or my_trumps)


def reference_perft(
    hands: Sequence[Sequence[int]], leader: int, trump: int | None, depth: int
) -> int:
    """:func:`perft` by the reference rules alone, from the start of a trick."""

    def walk(hands: list[list[int]], trick: list[tuple[int, int]], seat: int, depth: int) -> int:
        if depth == 0 or not any(hands):
            return 1
        total = 0
        for c in sorted(reference_legal(hands[seat], trick, trump, seat)):
            rest = [list(h) for h in hands]
            rest[seat].remove(c)
            played = [*trick, (seat, c)]
            if len(played) == 4:
                total += walk(rest, [], reference_winner(played, trump), depth - 1)
            else:
                total += walk(rest, played, (seat + 1) % 4, depth - 1)
        return total

    return walk([list(h) for h in hands], [], leader, depth)


class PlayMinimax:
    """Plain minimax of the four-player play over one contract's rules as the engine
    compiled them: the move rule asked through a ``DealState``, the trick winner and the
    points from the tables, and no solver code.  The reference the double-dummy solver
    and the review are checked against."""

    def __init__(self, play: PlayRules, state: DealState, direction: int = 1) -> None:
        self.play = play
        self.state = state
        self.direction = direction

    def winner(self, leader: int, trick: Sequence[int]) -> tuple[int, int]:
        beats = self.play.beats
        win, ws = trick[0], leader
        for i, c in enumerate(trick[1:], 1):
            if beats[win] >> c & 1:
                win, ws = c, (leader + i * self.direction) % 4
        return win, ws

    def legal(self, hands: Sequence[int], leader: int, trick: Sequence[int]) -> int:
        st = self.state
        st.hands = list(hands)
        st.leader = leader
        st.trick = list(trick)
        st.turn = (leader + len(trick) * self.direction) % 4
        st.win_card, st.win_seat = self.winner(leader, trick) if trick else (-1, -1)
        held = 0
        for h in hands:
            held |= h
        st.played = 0xFFFFFFFF & ~held
        if self.play.moves.free_lead and not trick:
            return hands[st.turn]
        return self.play.moves.legal(st)

    def points(self, hands: list[int], leader: int, trick: list[int], team: int) -> int:
        """The card points ``team`` wins from here with best play by both teams, the
        current trick included."""
        pts = self.play.points
        if len(trick) == 4:
            _, ws = self.winner(leader, trick)
            last = not any(hands)
            gain = sum(pts[c] for c in trick) + (self.play.values.last_trick if last else 0)
            mine = gain if ws % 2 == team else 0
            return mine + (0 if last else self.points(hands, ws, [], team))
        seat = (leader + len(trick) * self.direction) % 4
        options = []
        for c in cards_of(self.legal(hands, leader, trick)):
            h2 = list(hands)
            h2[seat] &= ~(1 << c)
            options.append(self.points(h2, leader, [*trick, c], team))
        return max(options) if seat % 2 == team else min(options)


def first_played_deal_record(
    engine: Engine, game: str, bots: Sequence[Bot], seed: int
) -> dict[str, Any]:
    """The record of the first played deal (redeals skipped) of ``Match(seed=seed)``
    under the game's default rules, ``bots[seat]`` choosing for each seat."""
    match = Match(engine, game, engine.default_rules(game), seed=seed)
    while True:
        deal = match.next_deal()
        while not deal.is_over:
            deal.apply(bots[deal.turn].choose(deal.view(deal.turn)))
        if deal.score is not None:
            return deal_to_record(deal, seed)
        match.end_deal(deal)
