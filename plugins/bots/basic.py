"""The simple bots, and the helpers every bot shares.  A bot sees only a seat's view.

* :class:`RandomBot` plays a uniformly random legal action: a baseline and a test
  opponent.
* :class:`GreedyBot` plays one trick at a time by a sound heuristic, in both games: it
  wins a trick cheaply when the trick is worth it (or when it plays last), smears points
  on a trick its partner surely wins, and otherwise discards its least valuable card; it
  bids from a point count of the hand under each candidate trump.  With ``signals`` it
  is the scripted partner that follows the club players' signalling convention
  (:mod:`.signals`) in every signal it makes, and plays greedily otherwise.

The card order and points come from the engine's compiled rules of the deal
(:meth:`Engine.play_rules`, read as :class:`~atout.plugins.search.rules.CardRules`), so a rule plugin that
changes them is followed; the legal cards are the view's.  A bot built without an engine
uses the engine of the installed plugins (:func:`default_engine`), as the ``atout``
command builds it: no bot carries a copy of a rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any
from typing import ClassVar
from typing import TypedDict
from typing import Unpack

from atout.core.cards import ACE
from atout.core.cards import FULL_DECK
from atout.core.cards import JACK
from atout.core.cards import KING
from atout.core.cards import NINE
from atout.core.cards import QUEEN
from atout.core.cards import SUIT_MASKS
from atout.core.cards import SUITS
from atout.core.cards import TEN
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import cards_of
from atout.core.cards import make_card
from atout.core.engine import Engine
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_REDOUBLE
from atout.core.model import CLAIM
from atout.core.model import Action
from atout.core.model import BidInfo
from atout.core.model import Contract
from atout.core.model import Rules
from atout.core.views import View

from ..search.declared import BELOTE_POINTS
from ..search.declared import announced_declarations
from ..search.declared import belote_cards
from ..search.declared import belote_said
from ..search.rules import CardRules
from ..search.rules import default_engine
from ..search.rules import scratch_state
from .signals import LEAD
from .signals import conventional_cards
from .signals import situation

TAKE = "take"
PASS = "pass"


class RandomBot:
    """Plays a uniformly random legal action (a baseline and a test opponent)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """A random legal action of ``view``."""
        return self.rng.choice(view.legal_actions())


class SearchSettings(TypedDict, total=False):
    """The settings every searching bot takes by keyword (:class:`SearchingBot`; each
    has the default written there when left out)."""

    seed: int
    think: float
    engine: Engine | None
    samples: int | None


class SearchingBot:
    """What a bot that searches sampled deals is set with, for each game's expert.

    ``rules`` are the rules it expects to play under (``None``: each view's own);
    ``seed`` seeds its sampling (:attr:`rng`); ``think`` is the time budget of one
    decision in seconds (0: the game's :attr:`default_budget`); ``samples`` fixes the
    number of sampled layouts per decision instead of the clock (reproducible decisions,
    for tests and analysis); ``engine`` gives the deals' rules (default:
    :func:`default_engine`, every installed plugin).  ``last_info`` tells what the last
    decision did, for hints and analysis.
    """

    default_budget: ClassVar[float]
    """Seconds a decision takes when ``think`` is 0 (each game's expert says its own)."""

    def __init__(self, rules: Rules | None = None, **settings: Unpack[SearchSettings]) -> None:
        self.rules = rules
        self.seed = settings.get("seed", 0)
        self.rng = random.Random(self.seed)
        self.think = settings.get("think", 0.0)
        self.budget = self.think if self.think > 0 else self.default_budget
        """Seconds one decision may take."""
        self.samples = settings.get("samples")
        self.engine = default_engine(settings.get("engine"))
        self.last_info: dict[str, Any] = {}


# --- the rules of the deal, as a bot may know them ---------------------------------------


def card_tables(view: View, engine: Engine | None = None) -> CardRules:
    """The card tables of ``view``'s contract, from the engine's compiled rules of the
    deal (a rule plugin may change them).  The view must be in the play."""
    contract = view.contract
    if contract is None:
        raise ValueError("the card tables of a deal exist once its contract is known")
    play = default_engine(engine).play_rules(view.game, view.rules, contract)
    return CardRules.of(play)


def trick_winner(view: View, beats: tuple[int, ...]) -> tuple[int, int]:
    """The winning card and seat of the current trick (``(-1, -1)`` when it is empty)."""
    if not view.trick:
        return -1, -1
    seat, win = view.trick[0]
    for s, c in view.trick[1:]:
        if beats[win] >> c & 1:
            win, seat = c, s
    return win, seat


def played_cards(view: View) -> CardSet:
    """Every card played so far in the deal (finished tricks and the current one)."""
    mask = 0
    for t in view.tricks:
        for c in t.cards:
            mask |= 1 << c
    for _, c in view.trick:
        mask |= 1 << c
    return mask


def team_of(view: View, seat: int) -> int:
    """The team of ``seat`` (``seat % teams``, as the engine numbers them)."""
    return seat % view.teams


def is_master(card: Card, others: CardSet, tables: CardRules) -> bool:
    """Whether no card in ``others`` of the same suit beats ``card``."""
    return not (tables.beats[card] & SUIT_MASKS[card >> 3] & others)


# --- l'arrêt -----------------------------------------------------------------------------


def sure_claim(view: View, engine: Engine | None = None) -> bool:
    """Whether claiming the match now (l'arrêt) is surely right.

    The claim is checked against what the seat knows for certain: its team's running
    score (``view.scores``, which a front end hands over), the card points its team has
    won in this deal, its team's belote when it holds or announced both cards, and its
    team's other declarations when every opponent has shown theirs and showed none.  A
    taker's team must also have made the contract already, whatever the rest brings.
    """
    if not view.can_claim or not view.scores:
        return False
    rules = view.rules
    target = int(rules.get("target", 1000))
    team = team_of(view, view.seat)
    mine = view.points[team] if team < len(view.points) else 0
    decl, belote, opp_unknown = _declared(view, team)
    counted = mine + decl + belote
    if view.scores[team] + counted < target:
        return False
    contract = view.contract
    if contract is not None and team_of(view, contract.taker) == team:
        # the deal is played out: the contract must be made whatever happens
        theirs_max = sum(view.points) - mine + _points_left(view, engine) + opp_unknown
        return counted > theirs_max
    return True


def _points_left(view: View, engine: Engine | None) -> int:
    tables = card_tables(view, engine)
    left = FULL_DECK & ~played_cards(view)
    return sum(tables.points[c] for c in cards_of(left)) + tables.last_trick


def _declared(view: View, team: int) -> tuple[int, int, int]:
    """For ``team``: the declaration points surely counted, the belote surely counted,
    and an upper bound on what the other team may still add (for the contract test)."""
    decls = announced_declarations(view)
    mine = [d for d in decls if team_of(view, d.seat) == team]
    theirs = [d for d in decls if team_of(view, d.seat) != team]
    opponents_shown = all(
        view.hand_sizes[s] < _start_size(view) or s == view.seat
        for s in range(view.seats)
        if team_of(view, s) != team
    )
    decl = sum(d.points for d in mine) if (not theirs and opponents_shown) else 0
    belote = 0
    trump = view.trump
    rules = view.rules
    counts = rules.get("declarations", "on") != "none" and not rules.get("belote_king_first")
    if trump is not None and counts:
        # (when the king must come first, a belote is not sure until it did: not counted)
        kq = belote_cards(trump)
        if belote_said(view)[team] or view.hand & kq == kq:
            belote = BELOTE_POINTS
    opp_unknown = sum(d.points for d in theirs) + BELOTE_POINTS + (0 if opponents_shown else 200)
    return decl, belote, opp_unknown


def _start_size(view: View) -> int:
    return 32 // view.seats


# --- hand strength (bidding) --------------------------------------------------------------

TRUMP_COUNT = {JACK: 35, NINE: 25, ACE: 15, TEN: 12, KING: 8, QUEEN: 7}
TRUMP_SMALL = 5
PLAIN_COUNT = {ACE: 12, TEN: 4, KING: 2}
GUARDED_TEN = 8
BELOTE_BONUS = 10
COUNT_PER_TEN = 6
"""In an auction by values, what the count must rise for the bot to promise 10 more."""


def hand_strength(hand: CardSet, trump: int) -> int:
    """A point count of ``hand`` if ``trump`` were trump: high trumps count most, then
    plain aces and tens guarded by their ace, and belote (trump king and queen)."""
    total = 0
    for c in cards_of(hand):
        suit, rank = c >> 3, c & 7
        if suit == trump:
            total += TRUMP_COUNT.get(rank, TRUMP_SMALL)
        elif rank == TEN and hand >> make_card(suit, ACE) & 1:
            total += GUARDED_TEN
        else:
            total += PLAIN_COUNT.get(rank, 0)
    kq = belote_cards(trump)
    if hand & kq == kq:
        total += BELOTE_BONUS
    return total


def scaled_count(hand: CardSet, trump: int) -> float:
    """:func:`hand_strength` scaled to six cards (the cards a four-player Belote taker
    knows), the scale of the bots' taking thresholds, whatever the hand's size."""
    return hand_strength(hand, trump) * 6 / max(1, hand.bit_count())


def bid_candidates(view: View) -> dict[str, int]:
    """The legal bids that name a trump, each with its suit: ``take`` is the proposed
    card's suit, a suit letter is that suit.  Bids this bot does not know are left out."""
    out: dict[str, int] = {}
    for bid in view.legal_bids:
        if bid == TAKE and view.turnup is not None:
            out[bid] = view.turnup >> 3
        elif len(bid) == 1 and bid in SUITS:
            out[bid] = SUITS.index(bid)
    return out


def bidding_hand(view: View, trump: int) -> CardSet:
    """The cards the seat would play with if it took: its hand, plus the turn-up when
    the game gives the taker the turn-up (four players: the turn-up is in the stock)."""
    hand = view.hand
    if view.seats == 4 and view.turnup is not None:
        hand |= 1 << view.turnup
    return hand


def choose_action(
    view: View,
    bid: Callable[[View], str],
    card: Callable[[View], Card],
    engine: Engine | None = None,
) -> Action:
    """The frame of a Belote-family bot's choice: the only legal action when there is one,
    else ``bid(view)`` in the bidding, l'arrêt when :func:`sure_claim` says it is surely
    right, else ``card(view)``.  A seat with nothing to do is a ``ValueError``."""
    actions = view.legal_actions()
    if not actions:
        raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
    if len(actions) == 1:
        return actions[0]
    if view.phase == "bidding":
        return Action.bid(bid(view))
    if CLAIM in actions and sure_claim(view, engine):
        return CLAIM
    return Action.play(card(view))


def auction_contract(view: View, bid: str, engine: Engine | None = None) -> Contract | None:
    """The contract the auction ends with when this seat makes ``bid`` and every seat
    after it passes, as the game's ``atout_bidding_step`` says (a contract bid at its
    value, a *contre* or *surcontre* at its level, a pass the standing contract);
    ``None`` when the auction would end with no contract (a redeal)."""
    engine = default_engine(engine)
    st = scratch_state(view.seats, view.teams, view.direction, view.game, view.rules)
    st.dealer = view.dealer
    st.turnup = view.turnup
    bids = [*view.bids, (view.seat, bid)]
    for _ in range(view.seats + 1):
        st.bids = list(bids)
        step = engine.hooks.bidding_step(game=view.game, rules=view.rules, state=st)
        if step.contract is not None:
            return step.contract
        if step.redeal or step.next_seat is None:
            return None
        bids.append((step.next_seat, PASS))
    return None


def double_count(value: int) -> float:
    """The count of the opponents' trump (:meth:`GreedyBot.bid_score`) from which the
    greedy bot doubles their contract of ``value`` (the higher it is, the less is
    needed); the expert reads a *contre* with it too."""
    return 40 + (160 - value) / 2


class GreedyBot:
    """One trick at a time: win cheaply when it is worth it, else throw the least
    valuable card; bid from a point count of the hand.

    ``take_threshold`` is the count (over the six cards a four-player taker knows, or
    the eight face-up cards of Découverte, scaled) from which it takes.
    """

    take_threshold = 62

    def __init__(self, seed: int = 0, engine: Engine | None = None, signals: bool = False) -> None:
        self.rng = random.Random(seed)
        self.engine = default_engine(engine)
        self.signals = signals
        """Whether its first discard on its partner's trick and its first lead as a
        defender follow the signalling convention (:mod:`.signals`)."""

    def choose(self, view: View) -> Action:
        """The greedy action for ``view``."""
        return choose_action(view, self.bid, self.card, self.engine)

    # --- bidding --------------------------------------------------------------------------

    def bid(self, view: View) -> str:
        """Take (or name) the best trump when the hand's count reaches the threshold; in
        an auction by values (bids the engine describes with a value), :meth:`auction_bid`."""
        described = [
            (b, self.engine.describe_bid(view.game, view.rules, b)) for b in view.legal_bids
        ]
        if any(info.kind != "pass" and info.kind != "other" for _, info in described):
            return self.auction_bid(view, described)
        best_bid, best = PASS, -1.0
        for bid, trump in bid_candidates(view).items():
            score = self.bid_score(view, trump)
            if score > best:
                best_bid, best = bid, score
        if best_bid != PASS and best >= self.take_threshold:
            return best_bid
        return PASS if PASS in view.legal_bids else view.legal_bids[-1]

    def auction_bid(self, view: View, described: list[tuple[str, BidInfo]]) -> str:
        """A bid in an auction by values (La Coinche), from the same count: the best suit's
        count promises a value (80 at the taking threshold, 10 more for every
        :data:`COUNT_PER_TEN` counted above it, 20 more when the partner bid that suit), bid when it is above the last
        bid; a *contre* when the count of the opponents' trump in this hand says their
        contract is unlikely (the higher it is, the less is needed); a *surcontre* on a
        count far above the threshold.  Strains without a trump are left to others."""
        legal = dict(described)
        last = self.last_contract(view)
        for text, info in described:
            if (
                info.kind == BID_REDOUBLE
                and last is not None
                and last[1].trump is not None
                and self.bid_score(view, last[1].trump) >= self.take_threshold + 40
            ):
                return text
            if info.kind == BID_DOUBLE and last is not None and last[1].trump is not None:
                value = last[1].value or 80
                if self.bid_score(view, last[1].trump) >= double_count(value):
                    return text
        partner_suits = {
            info.trump
            for seat, text in view.bids
            if team_of(view, seat) == team_of(view, view.seat) and seat != view.seat
            for info in [self.engine.describe_bid(view.game, view.rules, text)]
            if info.kind == BID_CONTRACT
        }
        best: tuple[float, str] | None = None
        for trump in range(4):
            count = self.bid_score(view, trump) + (20 if trump in partner_suits else 0)
            if count < self.take_threshold:
                continue
            promise = min(160, 80 + 10 * int((count - self.take_threshold) // COUNT_PER_TEN))
            offered = [
                (info.value, text)
                for text, info in legal.items()
                if info.kind == BID_CONTRACT
                and info.trump == trump
                and not info.capot
                and info.value is not None
                and info.value <= promise
            ]
            if offered and (best is None or max(offered)[0] > best[0]):
                best = max(offered)
        if best is not None:
            return best[1]
        return PASS if PASS in legal else view.legal_bids[-1]

    def last_contract(self, view: View) -> tuple[int, BidInfo] | None:
        """The last contract bid of the auction (its seat and what it is), if any."""
        for seat, text in reversed(view.bids):
            info = self.engine.describe_bid(view.game, view.rules, text)
            if info.kind == BID_CONTRACT:
                return seat, info
        return None

    def bid_score(self, view: View, trump: int) -> float:
        """The hand's count under ``trump``, scaled to six cards; with two players the
        opponent's visible count is taken off."""
        score = scaled_count(bidding_hand(view, trump), trump)
        if view.seats == 2:
            other = view.hands[1 - view.seat]
            if other:
                score -= 0.5 * scaled_count(other, trump)
                score += 20
        return score

    # --- play -------------------------------------------------------------------------------

    def card(self, view: View) -> Card:
        """The greedy card for ``view`` (its turn to play)."""
        tables = card_tables(view, self.engine)
        legal = view.legal
        others = FULL_DECK & ~played_cards(view) & ~view.hand
        if not view.trick:
            card = self.lead(view, legal, others, tables)
        else:
            card = self.follow(view, legal, others, tables)
        if self.signals:
            card = self.signal(view, tables, card)
        return card

    @staticmethod
    def signal(view: View, tables: CardRules, card: Card) -> Card:
        """``card``, or, when the seat is to signal (:func:`~.signals.situation`) and
        ``card`` is a plain card the convention does not play, the convention's card:
        the cheapest of a discard's, an ace or else the lowest card of a lead's."""
        conv = conventional_cards(view, tables)
        if not conv or conv >> card & 1 or tables.trump_mask >> card & 1:
            return card
        pts, strg = tables.points, tables.strength
        if situation(view, tables) == LEAD:
            return max(cards_of(conv), key=lambda c: (pts[c] >= 11, -pts[c], -strg[c]))
        return min(cards_of(conv), key=lambda c: (pts[c], strg[c]))

    def lead(self, view: View, legal: CardSet, others: CardSet, tables: CardRules) -> Card:
        """Pull trumps with the master trump when the team took; cash a plain master;
        else lead low from the longest plain suit."""
        pts, strg = tables.points, tables.strength
        tm = tables.trump_mask
        contract = view.contract
        takers = contract is not None and team_of(view, contract.taker) == team_of(view, view.seat)
        trumps = legal & tm
        if trumps and others & tm and takers:
            top = max(cards_of(trumps), key=lambda c: strg[c])
            if is_master(top, others, tables):
                return top
        plain_masters = [
            c for c in cards_of(legal & ~tm) if is_master(c, others, tables) and pts[c] > 0
        ]
        if plain_masters:
            return max(plain_masters, key=lambda c: (pts[c], strg[c]))
        plain = legal & ~tm
        if plain:
            longest = max(range(4), key=lambda s: (plain & SUIT_MASKS[s]).bit_count())
            pool = plain & SUIT_MASKS[longest]
            return min(cards_of(pool), key=lambda c: (pts[c], strg[c]))
        return min(cards_of(legal), key=lambda c: (pts[c], strg[c]))

    def follow(self, view: View, legal: CardSet, others: CardSet, tables: CardRules) -> Card:
        """Smear on a partner's sure trick, win a trick worth winning as cheaply as
        possible, else discard the least valuable card."""
        pts, strg, beats = tables.points, tables.strength, tables.beats
        tm = tables.trump_mask
        win, win_seat = trick_winner(view, beats)
        last = len(view.trick) == view.seats - 1
        cards = cards_of(legal)
        partner = win_seat != view.seat and team_of(view, win_seat) == team_of(view, view.seat)
        if partner:
            trumped = tm >> win & 1 == 1
            safe = last or (is_master(win, others, tables) and (trumped or not others & tm))
            if safe:
                plain = [c for c in cards if not tm >> c & 1]
                pool = plain or list(cards)
                if plain:
                    return max(pool, key=lambda c: (pts[c], -strg[c]))
                return min(pool, key=lambda c: (pts[c], strg[c]))
            return self.discard(cards, tables)
        winners = [c for c in cards if beats[win] >> c & 1]
        if winners:
            trick_points = sum(pts[c] for _, c in view.trick)
            if last:
                return min(winners, key=lambda c: (tm >> c & 1, strg[c]))
            masters = [c for c in winners if is_master(c, others, tables)]
            if masters and (trick_points >= 10 or any(not tm >> c & 1 for c in masters)):
                return min(masters, key=lambda c: (tm >> c & 1, strg[c]))
            if trick_points >= 10:
                return min(winners, key=lambda c: (tm >> c & 1, strg[c]))
        return self.discard(cards, tables)

    @staticmethod
    def discard(cards: tuple[Card, ...] | list[Card], tables: CardRules) -> Card:
        """The least valuable card: fewest points, a plain card before a trump, the
        weakest first."""
        tm = tables.trump_mask
        return min(cards, key=lambda c: (tables.points[c], tm >> c & 1, tables.strength[c]))
