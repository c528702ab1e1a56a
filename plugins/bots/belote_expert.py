"""The four-player expert: perfect-information Monte Carlo over a double-dummy solver.

For a card to play, :class:`BeloteExpert`

1. reads from the seat's :class:`~atout.core.views.View` everything the deal has
   proved about the hidden hands (:func:`infer_constraints`): the cards shown (the
   turn-up with the taker, declarations); every card a seat played, judged again by the
   deal's move rule, proves the cards the seat cannot have held (had it held them, the
   card would not have been legal: a void, no trump, no higher trump, whatever the rule
   in force says); a seat that played the trump king or queen without saying "belote"
   does not hold the other, and a seat that showed its declarations holds no other
   combination (the game's ``atout_declarations`` hook says which a hand has); and
   what the seats' choices make likely (:func:`read_play`: a seat that let the
   opponents take a rich trick held no sure winner);
2. deals the unseen cards to the other seats at random, consistently with all that,
   the likely layouts more often (:func:`sample_hands`);
3. solves each sampled layout with the double-dummy solver
   (:class:`~atout.plugins.search.belote_dd.BeloteDD`), for every legal card;
4. plays the card whose values, turned into the deal's score for its team (making or
   failing the contract, declarations), are best on average, each layout weighed by how
   likely it makes the signals the other seats made (:mod:`.signals`: the club players'
   convention, read as a likelihood, never by looking) and every card they played (with
   ``infer``, :mod:`.inference`: a cheap model of each seat's play scores the hand the
   layout gave it then); and when the convention has a
   card for the seat's own signal worth the best within :data:`SIGNAL_TOLERANCE`, that
   card.

Everything about the play comes from the deal's rule objects that the engine compiles
(:meth:`atout.core.Engine.play_rules`): the legal cards, the trick winner, the card
values and the points of a whole deal.  So a contract a plugin adds (sans-atout,
tout-atout) or an obligation a house-rule plugin changes is searched as the shipped
contracts are.

Early in a deal an exact solve of every card costs seconds in Python, so the first two
tricks are searched three tricks deep with the solver's estimate beyond (its
``horizon``); from the third trick on every sample is solved exactly.  The number of
samples follows the time budget (``think``, default about half a second).

Bidding (:meth:`BeloteExpert.bid`): the count (:class:`ExpertCount`: the greedy bot's
:func:`~atout.plugins.bots.basic.hand_strength` plus half the points of the
declarations the bidder already holds) decides the suits, from a lower threshold than
the greedy bot's; a bid the count does not model (a plugin's contract,
:func:`bid_contracts`) is valued by sampled deals (:func:`bidding_deal`) searched a few
tricks deep under the contract's compiled rules.
What the bidding said also weighs the play's samples (:func:`bids_fit`).  Declarations
are automatic in this engine.  L'arrêt is claimed only when the claim is sure
(:func:`atout.plugins.bots.basic.sure_claim`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Unpack

from atout.core.cards import FULL_DECK
from atout.core.cards import KING
from atout.core.cards import QUEEN
from atout.core.cards import SUIT_MASKS
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import cards_of
from atout.core.cards import make_card
from atout.core.engine import Engine
from atout.core.model import BID_CONTRACT
from atout.core.model import BID_DOUBLE
from atout.core.model import BID_PASS
from atout.core.model import BID_REDOUBLE
from atout.core.model import Action
from atout.core.model import Bid
from atout.core.model import BidInfo
from atout.core.model import Contract
from atout.core.model import Declaration
from atout.core.model import MoveRule
from atout.core.model import Play
from atout.core.model import Rules
from atout.core.state import DealState
from atout.core.text import N_
from atout.core.text import Message
from atout.core.views import View

from ..search.belote_dd import BeloteDD
from ..search.declared import BELOTE_WORDS
from ..search.declared import Shown
from ..search.declared import announced_declarations
from ..search.declared import belote_points
from ..search.declared import declaration_points
from ..search.declared import layout_declarations
from ..search.declared import played_by
from ..search.declared import unseen_belote
from ..search.rules import CardRules
from ..search.rules import DealPoints
from ..search.rules import MoveAsker
from ..search.rules import SearchTimeout
from ..search.rules import deal_outcome
from ..search.rules import default_engine
from ..search.rules import scratch_state
from .basic import PASS
from .basic import TAKE
from .basic import GreedyBot
from .basic import SearchingBot
from .basic import SearchSettings
from .basic import auction_contract
from .basic import bidding_hand
from .basic import choose_action
from .basic import double_count
from .basic import hand_strength
from .basic import is_master
from .basic import scaled_count
from .basic import team_of
from .hints import bid_reason
from .hints import play_reason
from .hints import with_reason
from .inference import TEMPERATURE
from .inference import WorldWeights
from .inference import view_state
from .plays import deal_plays
from .plays import deal_tricks
from .plays import played_since
from .signals import conventional_cards

DEFAULT_BUDGET = 0.5
"""Seconds a decision may take by default (the 95th percentile stays under 1 s)."""
HARD_FACTOR = 1.7
"""A search still running at ``budget * HARD_FACTOR`` seconds is abandoned."""
TAKER_TRUMPS = 3
THIN_TAKER_ODDS = 0.25
HORIZONS = {(8, True): 5, (8, False): 5, (7, True): 4, (7, False): 4}
"""Where the search stops at a horizon (the cards each hand then holds, where the
solver's estimate takes over) rather than solving to the end, by the cards the seat holds
and whether it leads: three tricks deep in the first two tricks, whose exact solves cost
seconds (``docs/experiments.md`` has the depths tried)."""
MIN_SAMPLES = 6
MAX_SAMPLES = 400
"""The most layouts one card's decision samples; the time budget ends it first in all
but the last tricks, where exact solves take a few milliseconds and more layouts still
change decisions (a capot in play)."""
EXPERT_THRESHOLD = 56
"""The count from which the expert takes a suit: lower than the greedy bot's
(:data:`BID_THRESHOLD`), its play making more contracts."""
BID_THRESHOLD = GreedyBot.take_threshold
"""The count (:func:`~.basic.hand_strength` of the five first cards and the turn-up) from
which a seat is taken to bid a trump: the greedy bot's threshold."""
RICH_TRICK = 10
"""A trick worth this many card points is one a sensible player takes when it surely can
(:func:`read_play`)."""
HINT_ODDS = 0.3
"""The odds a sampled hand is kept for each choice of the play it makes unlikely
(:class:`PlayHint`)."""
CONTRADICTION_ODDS = 0.3
"""The odds a sampled hand is kept when the count says its seat would have bid otherwise
(passed with a hand it would take with, or took with one it would pass): players bid
otherwise than the count, so a contradiction makes a hand less likely, not impossible."""
OPEN_MARGIN = 10.0
"""In an auction by values, how far (in the greedy bot's count scaled to six cards,
:func:`~.basic.scaled_count`) the suit a seat opens may count below its best other suit
(:class:`AuctionHint`): bidders open their best suit, or one close to it."""
AUCTION_ODDS = 0.05
"""The odds a sampled hand is kept for each bid of the auction by values it contradicts
(:class:`AuctionHint`)."""
SIGNAL_TOLERANCE = 2.0
"""How much worse (in the deal's score difference, averaged over the layouts) a card the
signalling convention plays may be than the best card for the expert still to play it
(:mod:`.signals`): its signals cost little, and a card within this of the best is as
good as the search can tell (``docs/experiments.md`` has the measure)."""
DECLARATION_WEIGHT = 0.5
"""Count points per point of a declaration the bidder already holds in the cards it
bids with (a tierce adds 10): the count weighs belote so, 10 for its 20 points."""

# --- what the view shows and proves ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayHint:
    """Soft evidence from one card a hidden seat played: had ``seat`` held any of
    ``cards`` (unseen cards, legal for it then), a sensible player would have played
    otherwise, so a sampled hand holding one is kept with odds ``odds``."""

    seat: int
    cards: CardSet
    odds: float


@dataclass(frozen=True, slots=True)
class PlayReading:
    """What the play says about the hidden hands: per seat the unseen cards it is proved
    not to hold (``forbid``, :func:`infer_constraints`), and the soft evidence of the
    cards it chose (``hints``, :func:`read_play`)."""

    forbid: list[CardSet]
    hints: tuple[PlayHint, ...]


@dataclass(frozen=True, slots=True)
class AuctionHint:
    """Soft evidence from one bid of a hidden seat in an auction by values (La Coinche:
    every card dealt before the auction, bids the game describes with a value and a
    trump).  ``suit`` is a trump the seat named first, neither it nor its partner having
    named it before: its count of that suit is within :data:`OPEN_MARGIN` of its best
    other suit, ``named`` (the suits it named before) left out.  ``suit`` ``None`` is a
    pass while no contract stood: no suit of its hand counts the greedy bot's taking
    threshold.  A sampled hand that contradicts one is kept with :data:`AUCTION_ODDS`."""

    seat: int
    suit: int | None
    named: int = 0

    def fits(self, hand: CardSet) -> bool:
        """Whether ``hand`` (the seat's eight cards) agrees with the bid."""
        if self.suit is None:
            return all(scaled_count(hand, t) < BID_THRESHOLD for t in range(4))
        others = [
            scaled_count(hand, t) for t in range(4) if t != self.suit and not self.named >> t & 1
        ]
        return not others or scaled_count(hand, self.suit) >= max(others) - OPEN_MARGIN


def read_auction(view: View, engine: Engine | None = None) -> tuple[AuctionHint, ...]:
    """What an auction by values says about the hidden hands (:class:`AuctionHint`): each
    suit a hidden seat opened, and each pass it made while no contract stood.  Bidders
    differ in how much a value promises, but they agree on these two (measured on two
    bidders of different styles, docs/experiments.md); raises of the partner's suit,
    *contres* and later passes are not read.  Empty for an auction with a turn-up
    (:func:`bids_fit` reads that one)."""
    if view.turnup is not None or not view.bids:
        return ()
    engine = default_engine(engine)
    named = [0] * view.seats
    standing = False
    out: list[AuctionHint] = []
    for seat, text in view.bids:
        info = engine.describe_bid(view.game, view.rules, text)
        hidden = seat != view.seat and view.hands[seat] is None
        if info.kind == BID_CONTRACT:
            trump = info.trump
            if trump is not None:
                team = team_of(view, seat)
                partners = [p for p in range(view.seats) if team_of(view, p) == team]
                if hidden and not any(named[p] >> trump & 1 for p in partners):
                    out.append(AuctionHint(seat, trump, named[seat]))
                named[seat] |= 1 << trump
            standing = True
        elif info.kind == BID_PASS and not standing and hidden:
            out.append(AuctionHint(seat, None))
    return tuple(out)


def infer_constraints(view: View, engine: Engine | None = None) -> list[CardSet]:
    """Per seat, the unseen cards the play has proved that seat does not hold.

    Every card a seat played is judged again by the deal's move rule (the engine's
    :meth:`~atout.core.Engine.play_rules`, whatever plugin gave it).  When the seat
    played ``c`` it held at least ``c``, the cards it played afterwards and the cards it
    is known to hold now (the fewest), and some unseen cards besides.  An unseen card
    ``x`` is proved absent when ``c`` is legal neither with the fewest plus ``x`` nor
    with those and any one more unseen card: so a void, no trump, no higher trump, as
    the rule in force says.  (Exact for rules whose permission to play a card needs at
    most one card beyond the absence of the cards that oblige otherwise, as Belote's:
    the higher trump that lets a seat discard on its partner's trump.)  A lead is
    judged only when the rule restricts leads (``free_lead`` false).
    A seat that played the trump king or queen without a "belote" word does not hold the
    other one.
    """
    return read_play(view, engine, hints=False).forbid


def read_play(view: View, engine: Engine | None = None, hints: bool = True) -> PlayReading:
    """Everything the cards played say about the hidden hands: the proofs of
    :func:`infer_constraints` and, with ``hints``, the soft evidence of the choices
    (:class:`PlayHint`).  A seat that follows to a trick is read as a sensible player
    (the greedy bot, a double-dummy player and most people play so), the alternatives
    being the cards the deal's move rule allowed it:

    - an opponent winning a trick worth :data:`RICH_TRICK` points or more (or the seat
      playing last), the seat did not win it: it held no card that surely would have
      (one beating the trick that no unplayed card of its suit beats; playing last, any
      card beating the trick);
    - an opponent winning and no partner to play after it, the seat gave points: it held
      no card worth fewer;
    - playing last on its partner's trick, the seat gave a plain card or a trump: it held
      no plain card worth more.

    Each is a likelihood, not a proof (:data:`HINT_ODDS`): players duck, keep guards and
    signal.  Leads say nothing here.
    """
    seats = view.seats
    forbid = [0] * seats
    contract = view.contract
    if contract is None:
        return PlayReading(forbid, ())
    rules = view.rules
    play = default_engine(engine).play_rules(view.game, rules, contract)
    rule, beats = play.moves, play.beats
    tables = CardRules.of(play)
    st = view_state(view, contract)
    tricks = deal_tricks(view)
    plays = deal_plays(view, tricks)
    # from_here[k]: per seat, the cards it showed or played from the k-th card on
    from_here = [
        [shown | since for shown, since in zip(view.shown, after, strict=True)]
        for after in played_since(plays, seats)
    ]
    unseen = view.unseen
    played = 0
    win, wseat = -1, -1
    found: list[PlayHint] = []
    for k, (ti, i, seat, c) in enumerate(plays):
        leader, cards = tricks[ti]
        if i == 0:
            win, wseat = -1, -1
            trick_points = 0
        trick_points += play.points[c]
        hidden = seat != view.seat and view.hands[seat] is None
        if hidden and not (i == 0 and rule.free_lead):
            st.tricks = list(view.tricks[:ti])
            st.turn, st.leader = seat, leader
            st.trick = list(cards[:i])
            st.win_card, st.win_seat = win, wseat
            st.played = played
            fewest = from_here[k][seat]
            absent, alts = _proved_absent(rule, st, seat, c, fewest, unseen & ~fewest)
            forbid[seat] |= absent
            if hints and i > 0:
                live = FULL_DECK & ~played & ~fewest
                found.extend(
                    _choice_hints(
                        st,
                        seat,
                        c,
                        alts & ~forbid[seat],
                        (win, wseat, trick_points, live),
                        tables,
                    )
                )
        if i == 0 or beats[win] >> c & 1:
            win, wseat = c, seat
        played |= 1 << c
    trump = view.trump
    if trump is not None and rules.get("declarations", "on") != "none":
        king, queen = make_card(trump, KING), make_card(trump, QUEEN)
        spoken = {(a.seat, a.cards) for a in view.announcements if a.text in BELOTE_WORDS}
        for leader, cards in tricks:
            for i, c in enumerate(cards):
                if c not in (king, queen):
                    continue
                seat = (leader + i * view.direction) % view.seats
                if (seat, 1 << c) not in spoken:
                    forbid[seat] |= 1 << (queen if c == king else king)
    forbid[view.seat] = 0
    kept = tuple(
        PlayHint(h.seat, h.cards & ~forbid[h.seat], h.odds)
        for h in found
        if h.cards & ~forbid[h.seat]
    )
    return PlayReading(forbid, kept)


def _choice_hints(
    st: DealState,
    seat: int,
    c: Card,
    alts: CardSet,
    trick: tuple[Card, int, int, CardSet],
    tables: CardRules,
) -> list[PlayHint]:
    """The soft evidence of ``seat`` following with ``c`` in the position of ``st``
    (see :func:`read_play`): ``alts`` are the unseen cards it could have played
    instead (:func:`_proved_absent`); ``trick`` is the trick's winning card and seat
    before ``c``, its points with ``c``, and the cards then unplayed less those ``seat``
    is known to have held (a card none of them beats is a master)."""
    win, wseat, trick_points, live = trick
    beats, pts, trump_mask = tables.beats, tables.points, tables.trump_mask
    seats = st.seats
    teams = st.teams
    i = len(st.trick)
    last = i == seats - 1
    ours = wseat % teams == seat % teams
    wins = beats[win] >> c & 1 == 1
    partner_after = any((i + j) < seats and j % teams == 0 for j in range(1, seats))
    rich = trick_points >= RICH_TRICK or last
    take = not ours and not wins and rich
    cheaper = not ours and not wins and not partner_after and pts[c] > 0
    smear = ours and last
    if not (take or cheaper or smear) or not alts:
        return []
    out: list[PlayHint] = []
    if take:
        sure = 0
        for x in cards_of(alts & beats[win]):
            if last or is_master(x, live & ~(1 << x), tables):
                sure |= 1 << x
        if sure:
            out.append(PlayHint(seat, sure, HINT_ODDS))
    if cheaper:
        less = 0
        for x in cards_of(alts):
            if pts[x] < pts[c]:
                less |= 1 << x
        if less:
            out.append(PlayHint(seat, less, HINT_ODDS))
    if smear:
        more = 0
        for x in cards_of(alts & ~trump_mask):
            if pts[x] > pts[c]:
                more |= 1 << x
        if more:
            out.append(PlayHint(seat, more, HINT_ODDS))
    return out


def _proved_absent(
    rule: MoveRule, st: DealState, seat: int, c: Card, fewest: CardSet, pool: CardSet
) -> tuple[CardSet, CardSet]:
    """The cards of ``pool`` that ``seat`` cannot have held when it played ``c`` in the
    position of ``st`` (see :func:`infer_constraints`): ``x`` is one when ``c`` is
    legal neither with ``fewest`` plus ``x`` nor with one more card of ``pool``.  And,
    from the same questions, the cards of ``pool`` that would have been legal with
    ``fewest`` plus themselves (its alternatives to ``c``, for :func:`_choice_hints`)."""
    hands = [0] * st.seats
    st.hands = hands
    legal = rule.legal
    out = 0
    alts = 0
    for x in cards_of(pool):
        with_x = fewest | 1 << x
        hands[seat] = with_x
        allowed = legal(st)
        if allowed >> x & 1:
            alts |= 1 << x
        if allowed >> c & 1:
            continue
        for y in cards_of(pool & ~(1 << x)):
            hands[seat] = with_x | 1 << y
            if legal(st) >> c & 1:
                break
        else:
            out |= 1 << x
    return out, alts


def sample_hands(
    view: View,
    rng: random.Random,
    forbid: Sequence[CardSet] | None = None,
    check_declarations: bool = True,
    attempts: int = 40,
    engine: Engine | None = None,
    use_bids: bool = True,
    hints: Sequence[PlayHint] = (),
    auction: Sequence[AuctionHint] = (),
) -> list[CardSet]:
    """One deal of the unseen cards to the other seats, consistent with the view.

    Each hidden seat receives as many cards as it holds, never a card it is proved not
    to hold; the most constrained cards are dealt first, each to a seat drawn with
    weight its free places.  When the declarations are on, a seat's sampled hand must
    also show exactly the combinations it announced (as the game's
    ``atout_declarations`` hook finds them in the hand).  The bidding says something too: a
    hidden taker dealt fewer than :data:`TAKER_TRUMPS` trumps is kept only with odds
    :data:`THIN_TAKER_ODDS` (takers hold trumps), and with ``use_bids`` a layout in which
    the count says a seat would have bid otherwise than it did is kept with odds
    :data:`CONTRADICTION_ODDS` (:func:`bids_fit`: a seat that passed on the turn-up
    rarely holds its strong trumps).  Each of the play's ``hints`` (:func:`read_play`)
    whose cards the layout gives their seat keeps it with the hint's odds, and each bid
    of an auction by values it contradicts (``auction``, :func:`read_auction`) with
    :data:`AUCTION_ODDS`.  After
    ``attempts`` failures the declaration test is dropped, then the other constraints
    (a view from a rule this bot does not model must still be playable).
    """
    engine = default_engine(engine)
    if forbid is None:
        forbid = infer_constraints(view, engine)
    seats = view.seats
    base = [0] * seats
    need = [0] * seats
    for s in range(seats):
        if s == view.seat:
            base[s] = view.hand
            continue
        known = view.hands[s]
        if known is not None:
            base[s] = known
            continue
        base[s] = view.shown[s]
        need[s] = view.hand_sizes[s] - view.shown[s].bit_count()
    pool = list(cards_of(view.unseen))
    if sum(need) != len(pool):
        raise ValueError(
            f"the view hides {len(pool)} cards but the other seats hold {sum(need)} unseen cards"
        )
    decl_check = (
        check_declarations
        and view.rules.get("declarations", "on") == "on"
        and view.game == "belote"
        and view.seats == 4
    )
    played = played_by(view)
    announced = _announced_sets(view) if decl_check else {}
    contract = view.contract
    st = view_state(view, contract) if decl_check and contract is not None else None
    taker = -1
    trump_mask = 0
    if contract is not None and contract.trump is not None and need[contract.taker] > 0:
        taker = contract.taker
        trump_mask = SUIT_MASKS[contract.trump]
    hidden = [s for s in range(seats) if need[s] > 0]
    for phase in range(3):
        limit = forbid if phase < 2 else [0] * seats
        allowed = {c: [s for s in hidden if not limit[s] >> c & 1] for c in pool}
        for _ in range(attempts):
            rng.shuffle(pool)
            order = sorted(pool, key=lambda c: len(allowed[c]))
            cap = list(need)
            hands = list(base)
            ok = True
            for c in order:
                options = [s for s in allowed[c] if cap[s] > 0]
                if not options:
                    ok = False
                    break
                if len(options) == 1:
                    s = options[0]
                else:
                    r = rng.random() * sum(cap[o] for o in options)
                    s = options[-1]
                    for o in options:
                        r -= cap[o]
                        if r < 0:
                            s = o
                            break
                hands[s] |= 1 << c
                cap[s] -= 1
            if not ok:
                continue
            if phase == 0 and hints:
                keep = 1.0
                for h in hints:
                    if hands[h.seat] & h.cards:
                        keep *= h.odds
                if keep < 1.0 and rng.random() > keep:
                    continue
            if phase == 0 and auction:
                keep = 1.0
                for a in auction:
                    if not a.fits(hands[a.seat] | played[a.seat]):
                        keep *= AUCTION_ODDS
                if keep < 1.0 and rng.random() > keep:
                    continue
            if (
                phase == 0
                and st is not None
                and not _declarations_fit(engine, st, hands, played, announced)
            ):
                continue
            if (
                phase == 0
                and taker >= 0
                and ((hands[taker] | played[taker]) & trump_mask).bit_count() < TAKER_TRUMPS
                and rng.random() > THIN_TAKER_ODDS
            ):
                continue
            if phase == 0 and use_bids and not _bidding_keeps(view, hands, played, rng):
                continue
            return hands
    raise ValueError("no deal of the unseen cards fits the view")


def _announced_sets(view: View) -> dict[int, frozenset[CardSet]]:
    """Per seat that has shown its declarations, the card sets it announced."""
    out: dict[int, set[CardSet]] = {}
    shown_at_start = view.rules.get("declarations_shown", "first-trick") == "when-held"
    start = 32 // view.seats
    for s in range(view.seats):
        if s == view.seat:
            continue
        if shown_at_start or view.hand_sizes[s] < start:
            out[s] = set()
    for a in view.announcements:
        if a.seat in out and a.text not in BELOTE_WORDS and a.cards.bit_count() >= 3:
            out[a.seat].add(a.cards)
    return {s: frozenset(v) for s, v in out.items()}


def _declarations_fit(
    engine: Engine,
    st: DealState,
    hands: Sequence[CardSet],
    played: Sequence[CardSet],
    announced: dict[int, frozenset[CardSet]],
) -> bool:
    """Whether each seat of ``announced`` holds, in its whole hand of the deal (sampled
    cards and played ones), exactly the combinations it announced: the declarations
    the game's ``atout_declarations`` hook finds (those announced at once, not word by
    word as their cards are played)."""
    if not announced:
        return True
    st.hands = [h | p for h, p in zip(hands, played, strict=True)]
    found: dict[int, set[CardSet]] = {s: set() for s in announced}
    for answer in engine.hooks.declarations(game=st.game, rules=st.rules, state=st):
        for d in answer or ():
            if d.seat in found and d.announce != "cards" and d.cards.bit_count() >= 3:
                found[d.seat].add(d.cards)
    return all(found[s] == sets for s, sets in announced.items())


# --- what the bidding says about the hands --------------------------------------------------


def bids_fit(view: View, seat: int, first: CardSet) -> bool:
    """Whether ``seat``'s bids in ``view`` agree with the count of ``first``, the cards it
    held while bidding (its first five in four-player Belote): a take or a named suit
    needs the count of that trump (with the turn-up, which the taker receives) to reach
    :data:`BID_THRESHOLD`; a pass in the first round needs the turn-up's suit below it, a
    pass in the second round every other suit.  Bids the count does not model (a
    plugin's contracts) say nothing."""
    turnup = view.turnup
    if turnup is None or view.seats != 4:
        return True
    hand = first | 1 << turnup
    proposed = turnup >> 3
    for i, (s, bid) in enumerate(view.bids):
        if s != seat:
            continue
        first_round = i < view.seats
        if bid == PASS:
            suits = [proposed] if first_round else [t for t in range(4) if t != proposed]
            if any(hand_strength(hand, t) >= BID_THRESHOLD for t in suits):
                return False
        elif bid == TAKE or (len(bid) == 1 and bid in SUITS):
            trump = proposed if bid == TAKE else SUITS.index(bid)
            if hand_strength(hand, trump) < BID_THRESHOLD:
                return False
    return True


def _bidding_keeps(
    view: View, hands: Sequence[CardSet], played: Sequence[CardSet], rng: random.Random
) -> bool:
    """Whether a sampled layout is kept for what the bidding said (rejection sampling):
    for each hidden seat that bid, the cards it held while bidding are drawn from its
    whole hand of the sample (the turn-up set aside for the taker), and a hand whose
    bids the count contradicts (:func:`bids_fit`) is kept with odds
    :data:`CONTRADICTION_ODDS`."""
    turnup = view.turnup
    if turnup is None or view.seats != 4 or not view.bids:
        return True
    contract = view.contract
    start = 5
    for s in {seat for seat, _ in view.bids}:
        if s == view.seat or view.hands[s] is not None:
            continue
        whole = hands[s] | played[s]
        if contract is not None and contract.taker == s:
            whole &= ~(1 << turnup)
        cards = list(cards_of(whole))
        if len(cards) < start:
            continue
        first = 0
        for c in rng.sample(cards, start):
            first |= 1 << c
        if not bids_fit(view, s, first) and rng.random() > CONTRADICTION_ODDS:
            return False
    return True


# --- the score a team makes from its card points ---------------------------------------


def deal_utility(view: View, points: DealPoints, engine: Engine | None = None) -> float:
    """The deal's score difference (this seat's team minus the other) if the deal ends
    with ``points`` (the team's card points, dix de der included, and both teams'
    declarations): the game's own scoring of the contract
    (:func:`~atout.plugins.search.rules.deal_outcome`)."""
    contract = view.contract
    team = team_of(view, view.seat)
    if contract is None:
        return float(2 * points.mine - points.total)
    takers = team_of(view, contract.taker)
    return deal_outcome(view.rules, view.game, team, takers, points, engine, contract)[1]


# --- bidding by searching sampled deals ---------------------------------------------------

BID_HORIZON = 5
"""The bidding's searches stop when each hand holds this many cards (three tricks deep)
and estimate the rest (:attr:`BeloteDD.horizon`): a few milliseconds a deal."""
BID_SHARE = 0.6
"""The share of the time budget a bid's samples may take."""
BID_MIN_SAMPLES = 8
BID_MAX_SAMPLES = 40
CONTRACT_COUNT = 30
"""A suit whose count (:func:`hand_strength` with the turn-up) is below this is not
searched: no sample would make it worth taking."""
CONFIRM_COUNT = 50
"""Below the count's threshold, a suit from this count on is searched and taken when
its value confirms it (:data:`CONFIRM`)."""
CONFIRM = 50.0
"""The average score difference that admits a suit below the count's threshold, or a
plugin's contract."""
VETO = -40.0
"""The average score difference below which a suit the count would take is passed."""
TAKE_MARGIN = 0.0
"""The last seat of the last round takes what is worth more than this (passing deals
again: nothing)."""
AUCTION_HORIZON = 6
"""An auction by values searches each strain's play to this many cards a hand (two
tricks deep: some milliseconds a deal, where three cost ten times more) and estimates
the rest (:meth:`BeloteExpert.auction_values`)."""
AUCTION_DISCOUNT = 15
"""Card points the auction takes off what the searches give this seat's side, whether it
takes or defends: the double-dummy searches see every card, the play does not (without
it the expert bid and doubled too much in duplicate matches, docs/experiments.md)."""
DOUBLE_MARGIN = 180.0
"""How much more than the bid it competes with a *contre* or *surcontre* must be worth.
A *contre* doubles the swing of the sampled deals' errors as well as of their score, and
the samples read the opponents' bids for less than they hold: the contracts they said
fall were made more often than not in duplicate matches (docs/experiments.md).  Against
a pass, whose value a *contre* about doubles, it asks that the contract fall in about
nine samples in ten (a margin that asks for nearly every one doubles too seldom:
docs/experiments.md)."""
CAPOT_NEAR = 12
"""A side the estimate gives all but this many card points is searched to the end for
the capot (the estimate never counts one): it changes the score most of all."""
AUCTION_MIN_SAMPLES = 6
AUCTION_ATTEMPTS = 30
"""Deals drawn for one sample until one agrees with the bids (:func:`bidders_fit`); the
last is kept (a bid the count does not explain must still be answered)."""
AUCTION_KINDS = (BID_CONTRACT, BID_DOUBLE, BID_REDOUBLE)
"""The kinds of bid (hook ``atout_describe_bid``) that make an auction by values."""
AUCTION_MAX_SAMPLES = 40


def _last_chance(view: View) -> bool:
    """Whether this seat bids last in the bidding's last round with every other bid a
    pass (passing ends the deal without a contract)."""
    return len(view.bids) == 2 * view.seats - 1 and all(b == PASS for _, b in view.bids)


def bid_contracts(view: View, engine: Engine | None = None) -> dict[str, Contract]:
    """Per legal bid of ``view`` that ends the bidding with this seat as the taker, the
    contract it makes, as the game's (or a plugin's) ``atout_bidding_step`` says: the
    shipped trumps and a plugin's contracts alike.  Bids that go on bidding are left
    out."""
    engine = default_engine(engine)
    st = scratch_state(view.seats, view.teams, view.direction, view.game, view.rules)
    st.dealer = view.dealer
    st.turnup = view.turnup
    out: dict[str, Contract] = {}
    for bid in view.legal_bids:
        if bid == PASS:
            continue
        st.bids = [*view.bids, (view.seat, bid)]
        step = engine.hooks.bidding_step(game=view.game, rules=view.rules, state=st)
        contract = step.contract
        if contract is not None and contract.taker == view.seat:
            out[bid] = contract
    return out


def bidding_deal(view: View, rng: random.Random, attempts: int = 20) -> list[CardSet] | None:
    """The whole hands of a sampled deal in which this seat takes, from the bidding's
    view: the other seats' cards so far drawn from the unseen ones and kept with the odds
    of their bids (:func:`bids_fit`, :data:`CONTRADICTION_ODDS`); then the rest dealt at
    random, the turn-up to this seat.  ``None`` when the sizes do not add up (a deal this
    search does not model)."""
    turnup = view.turnup
    if turnup is None:
        return None
    seats = view.seats
    full = 32 // seats
    me = view.seat
    pool = list(cards_of(FULL_DECK & ~view.hand & ~(1 << turnup) & ~_shown_cards(view)))
    others = [s for s in range(seats) if s != me]
    now = [view.hand_sizes[s] - view.shown[s].bit_count() for s in others]
    later = [full - view.hand_sizes[s] for s in others]
    mine = full - view.hand.bit_count() - 1
    if sum(now) + sum(later) + mine != len(pool) or min(now + later + [mine]) < 0:
        return None
    first: list[CardSet] = []
    for attempt in range(attempts):
        rng.shuffle(pool)
        first = []
        pos = 0
        for s, k in zip(others, now, strict=True):
            first.append(view.shown[s] | sum(1 << c for c in pool[pos : pos + k]))
            pos += k
        if attempt == attempts - 1 or all(
            bids_fit(view, s, h) or rng.random() < CONTRADICTION_ODDS
            for s, h in zip(others, first, strict=True)
        ):
            break
    hands = [0] * seats
    pos = sum(now)
    for s, h, k in zip(others, first, later, strict=True):
        hands[s] = h | sum(1 << c for c in pool[pos : pos + k])
        pos += k
    hands[me] = view.hand | 1 << turnup | sum(1 << c for c in pool[pos : pos + mine])
    return hands


@dataclass(frozen=True, slots=True)
class DoubleHint:
    """Soft evidence from a *contre* (or *surcontre*) of another seat in an auction by
    values: ``seat`` holds at least ``need`` of ``trump``, the contract's, in the greedy
    bot's count (:func:`~.basic.double_count`, from which it doubles)."""

    seat: int
    trump: int
    need: float

    def fits(self, hand: CardSet) -> bool:
        """Whether ``hand`` (the seat's eight cards) agrees with the double."""
        return scaled_count(hand, self.trump) >= self.need


def bidders_reading(
    view: View, engine: Engine | None = None
) -> tuple[AuctionHint | DoubleHint, ...]:
    """What :func:`bidders_fit` holds a sampled deal to, read once from the view: each
    suit a seat opened and each pass while no contract stood (:func:`read_auction`: what
    bidders of every style agree on, where how much a value promises differs by a whole
    style), then each other seat's double of a contract in a trump
    (:class:`DoubleHint`)."""
    engine = default_engine(engine)
    doubles: list[DoubleHint] = []
    last: BidInfo | None = None
    for seat, text in view.bids:
        info = engine.describe_bid(view.game, view.rules, text)
        if info.kind == BID_CONTRACT:
            last = info
        elif (
            info.kind == BID_DOUBLE
            and seat != view.seat
            and last is not None
            and last.trump is not None
        ):
            need = double_count(last.value if last.value is not None else 80)
            doubles.append(DoubleHint(seat, last.trump, need))
    return (*read_auction(view, engine), *doubles)


def bidders_fit(
    view: View,
    hands: Sequence[CardSet],
    rng: random.Random,
    engine: Engine | None = None,
    reading: Sequence[AuctionHint | DoubleHint] | None = None,
) -> bool:
    """Whether a sampled deal agrees with what the other seats bid in an auction by
    values (rejection sampling), as :func:`bidders_reading` reads the bids (``reading``:
    that reading of ``view``, when the caller holds it already).  A deal that contradicts
    a bid is kept with odds :data:`AUCTION_ODDS` for each."""
    if reading is None:
        reading = bidders_reading(view, engine)
    return all(hint.fits(hands[hint.seat]) or rng.random() <= AUCTION_ODDS for hint in reading)


def auction_deal(view: View, rng: random.Random, engine: Engine | None = None) -> list[CardSet]:
    """The whole hands of a sampled deal in an auction by values (no turn-up, every card
    dealt): the unseen cards dealt to the other seats as the view allows
    (:func:`sample_hands`), drawn again (up to :data:`AUCTION_ATTEMPTS` times) until what
    the other seats bid agrees with them (:func:`bidders_fit`); the last deal drawn is
    kept.  The expert's auction and the review's valuing of its bids draw with it."""
    engine = default_engine(engine)
    reading = bidders_reading(view, engine)
    for _attempt in range(AUCTION_ATTEMPTS):
        hands = sample_hands(view, rng, engine=engine, use_bids=False)
        if bidders_fit(view, hands, rng, engine, reading):
            break
    return hands


def strain_points(
    solver: BeloteDD,
    hands: Sequence[CardSet],
    leader: int,
    team: int,
    deadline: float | None = None,
) -> tuple[int, bool]:
    """``team``'s card points in the play of the whole ``hands`` from ``leader``'s lead
    by ``solver`` (double-dummy to its horizon, its estimate beyond), and whether a capot
    was proved: a side the estimate gives all but :data:`CAPOT_NEAR` card points is
    searched to the end for the capot (the estimate never counts one), until
    ``deadline`` (``time.perf_counter``; ``None``: no limit) after which the estimate
    stands.  One strain's play, scored then for every value and level bid in it."""
    total = solver.rules.total
    points = solver.value(list(hands), leader, (), team)
    if points >= total - CAPOT_NEAR or points <= CAPOT_NEAR:
        side = team if points > CAPOT_NEAR else 1 - team
        exact = solver.with_horizon(0)
        if deadline is not None:
            exact.set_deadline(deadline)
        try:
            if exact.at_least(list(hands), leader, (), side, total):
                return (total if side == team else 0), True
        except SearchTimeout:
            pass  # the estimate stands
    return points, False


def _shown_cards(view: View) -> CardSet:
    out = 0
    for s in range(view.seats):
        if s != view.seat:
            out |= view.shown[s]
    return out


def _found_declarations(
    engine: Engine, view: View, contract: Contract, hands: Sequence[CardSet]
) -> list[Declaration]:
    """The declarations the game's ``atout_declarations`` hook finds in ``hands`` under
    ``contract`` (none when the rules have none)."""
    if view.rules.get("declarations", "on") == "none":
        return []
    st = scratch_state(view.seats, view.teams, view.direction, view.game, view.rules, contract)
    st.dealer = view.dealer
    st.turnup = view.turnup
    st.hands = list(hands)
    return [
        d
        for answer in engine.hooks.declarations(game=view.game, rules=view.rules, state=st)
        for d in answer or ()
    ]


def deal_declarations(
    engine: Engine, view: View, contract: Contract, hands: Sequence[CardSet]
) -> tuple[list[int], list[int]]:
    """Per team, the declaration points of whole hands ``hands`` under ``contract``, as
    the game's ``atout_declarations`` hook finds them: the combinations of the team with
    the best one (by their ``rank``), and each team's words (belote); and, apart, the
    points of those words (the scoring treats them apart, :func:`deal_outcome`)."""
    out = [0, 0]
    words = [0, 0]
    found = _found_declarations(engine, view, contract, hands)
    shown = [d for d in found if d.announce != "cards"]
    if shown:
        best = max(shown, key=lambda d: d.rank)
        for d in shown:
            if team_of(view, d.seat) == team_of(view, best.seat):
                out[team_of(view, d.seat)] += d.points
    for d in found:
        if d.announce == "cards":
            out[team_of(view, d.seat)] += d.points
            words[team_of(view, d.seat)] += d.points
    return out, words


def held_declarations(view: View, contract: Contract, engine: Engine | None = None) -> int:
    """The points of the combinations (tierce, carré...) the game's ``atout_declarations``
    hook finds in the cards this seat knows it would play ``contract`` with: its hand and
    the turn-up it would receive.  Words (belote) are left out: the count weighs them."""
    hands = [0] * view.seats
    hands[view.seat] = bidding_hand(view, contract.trump if contract.trump is not None else 0)
    found = _found_declarations(default_engine(engine), view, contract, hands)
    return sum(d.points for d in found if d.seat == view.seat and d.announce != "cards")


class ExpertCount(GreedyBot):
    """The expert's count of a suit: the greedy bot's (:func:`~.basic.hand_strength`),
    plus :data:`DECLARATION_WEIGHT` per point of a combination the bidder already holds
    (:func:`held_declarations`: a taker's declarations lower the card points it needs and
    add to its score), taken from :data:`EXPERT_THRESHOLD`.  Its play is the greedy
    bot's, the expert's fallback."""

    take_threshold = EXPERT_THRESHOLD

    def __init__(self, seed: int = 0, engine: Engine | None = None) -> None:
        super().__init__(seed, engine)
        self.declaration_weight = DECLARATION_WEIGHT

    def count(self, view: View, contract: Contract) -> float:
        """The count of ``contract`` (one with a trump): the greedy count of its trump
        plus the weighted declarations held under it."""
        assert contract.trump is not None
        score = super().bid_score(view, contract.trump)
        if self.declaration_weight:
            score += self.declaration_weight * held_declarations(view, contract, self.engine)
        return score

    def bid_score(self, view: View, trump: int) -> float:
        """:meth:`count` of the contract the bid naming ``trump`` would make (as the
        game's bidding step says); the greedy count when no bid makes one."""
        for contract in bid_contracts(view, self.engine).values():
            if contract.trump == trump:
                return self.count(view, contract)
        return super().bid_score(view, trump)


# --- the expert ---------------------------------------------------------------------------


class BeloteExpert(SearchingBot):
    """Perfect-information Monte Carlo for four-player Belote.

    Set as every searching bot (:class:`~.basic.SearchingBot`: ``rules``, ``seed``,
    ``think``, ``samples``, ``engine``), with the default budget :data:`DEFAULT_BUDGET`;
    ``last_info`` tells what the last decision did (samples, depth, search nodes,
    average values), for hints and analysis.  Its own settings follow.
    """

    default_budget = DEFAULT_BUDGET

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        bid_worlds: bool = True,
        bid_search: bool = True,
        play_hints: bool = True,
        signals: bool = True,
        read_signals: bool | None = None,
        infer: bool = False,
        **settings: Unpack[SearchSettings],
    ) -> None:
        super().__init__(rules, **settings)
        self.bid_worlds = bid_worlds
        """Whether the play's samples weigh what the bidding said (:func:`bids_fit`)."""
        self.bid_search = bid_search
        """Whether the bidding searches sampled deals (:meth:`bid_values`); else the
        greedy bot's count decides."""
        self.play_hints = play_hints
        """Whether the play's samples weigh the choices the other seats made
        (:func:`read_play`); else only what the play proves."""
        self.signals = signals
        """Whether the expert makes the signals of the convention (:mod:`.signals`): a
        card the convention plays when it is worth the best card within
        :attr:`signal_tolerance`."""
        self.read_signals = signals if read_signals is None else read_signals
        """Whether each sampled layout is weighed by how likely it makes the signals the
        other seats made (:func:`~.signals.world_weight`); by default as ``signals``."""
        self.infer = infer
        """Whether each sampled layout is weighed by how likely a cheap model of each
        other seat's play makes every card it played (:class:`~.inference.PlayModel`:
        policy-based inference), with the signals' weight."""
        self.infer_temperature = TEMPERATURE
        """The play model's softmax temperature, in card points (:data:`~.inference.TEMPERATURE`)."""
        self.signal_tolerance = SIGNAL_TOLERANCE
        self.take_margin = TAKE_MARGIN
        self.double_margin = DOUBLE_MARGIN
        """How much more than the best other bid a *contre* or *surcontre* must be worth
        (:data:`DOUBLE_MARGIN`)."""
        self.veto = VETO
        self.confirm = CONFIRM
        self.last_contracts: dict[str, Contract] = {}
        self.horizons = dict(HORIZONS)
        """The search horizons of the first tricks (:data:`HORIZONS`)."""
        self.greedy = ExpertCount(self.seed, self.engine)
        self._askers: dict[tuple[CardRules, int], MoveAsker] = {}

    @property
    def take_threshold(self) -> float:
        """The count from which a suit is taken (:data:`EXPERT_THRESHOLD`)."""
        return float(self.greedy.take_threshold)

    # --- the interface ----------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """The action the expert takes for ``view`` (its seat must be the one to act)."""
        return choose_action(view, self.bid, self.play, self.engine)

    def hint(self, view: View) -> Action:
        """The best action for the seat of ``view``, as the expert judges it (the UI's
        hint button), as an action with its ``reason``: the action and why, in one line (the
        reason class and the value difference to the next best card; for a bid, what
        the search or the count said).  Any seat's view will do; a seat that is not to
        act has no action (``ValueError``)."""
        self.last_info = {}
        action = self.choose(view)
        info = self.last_info
        reason = ""
        if isinstance(action, Play):
            values = info.get("values")
            reason = play_reason(
                view, action.card, values if isinstance(values, dict) else None, self.engine
            )
        elif isinstance(action, Bid):
            reason = self._bid_reason(view, action.text)
        return with_reason(action, reason)

    def _bid_reason(self, view: View, bid: str) -> str:
        """Why ``bid``: the search's values when it ran, else the count of the suit the
        bid names (or of the best suit, for a pass) against the count the expert takes
        from."""
        if len(view.legal_bids) == 1:
            return Message("the only bid you may make")
        values = self.last_info.get("values")
        if isinstance(values, dict) and bid in values and len(values) > 1:
            return bid_reason(view, bid, {b: float(v) for b, v in values.items()})
        proposed = view.turnup >> 3 if view.turnup is not None else -1
        suits = [s for s in range(4) if s != proposed]
        text = N_("your count in {suit} is {count}; the expert takes from {threshold}")
        if bid == TAKE and view.turnup is not None:
            suit = view.turnup >> 3
        elif bid in SUITS:
            suit = SUITS.index(bid)
        else:
            offered = [proposed] if TAKE in view.legal_bids and proposed >= 0 else suits
            suit = max(offered, key=lambda s: self.greedy.bid_score(view, s))
            text = N_(
                "your best count, {suit} {count}, is under the {threshold} the expert takes from"
            )
        return Message(
            text,
            suit=SUIT_SYMBOLS[suit],
            count=round(self.greedy.bid_score(view, suit)),
            threshold=round(self.take_threshold),
        )

    # --- bidding ------------------------------------------------------------------------

    def bid(self, view: View) -> str:
        """The count decides the suits; a search of sampled deals values what the count
        cannot (a plugin's contracts).

        With only suits offered, the best suit is taken (or named) when its count
        (:func:`hand_strength`, the greedy bot's) reaches :attr:`take_threshold`
        (:data:`EXPERT_THRESHOLD`: lower than the greedy bot's, for a stronger play).
        When the bidding offers a contract the count does not model, every bid that
        makes this seat the taker is valued by :meth:`bid_values` (the team's average
        score difference over sampled deals) and the values decide: a suit the count
        takes unless its value is below :attr:`veto`; a suit that counts at least
        :data:`CONFIRM_COUNT`, or a plugin's contract, when its value reaches
        :attr:`confirm`; the last seat of the last round, where passing deals again,
        whatever is worth more than nothing; the admitted bid worth most is made.
        In an auction by values (La Coinche: bids the game describes with a value, a
        *contre*, a *surcontre*), every bid is valued by the game's scoring over sampled
        deals (:meth:`auction_bid`).  ``bid_search`` off: the count alone."""
        if (
            view.seats == 4
            and view.teams == 2
            and view.turnup is None
            and self.bid_search
            and any(
                self.engine.describe_bid(view.game, view.rules, b).kind in AUCTION_KINDS
                for b in view.legal_bids
            )
        ):
            return self.auction_bid(view)
        if (
            view.seats != 4
            or view.teams != 2
            or view.turnup is None
            or not self.bid_search
            or set(view.legal_bids) <= {PASS, TAKE, *SUITS}
        ):
            return self.greedy.bid(view)
        last_chance = _last_chance(view)
        values = self.bid_values(view, CONTRACT_COUNT if last_chance else CONFIRM_COUNT)
        admitted: dict[str, float] = {}
        contracts = self.last_contracts
        for bid, value in values.items():
            contract = contracts[bid]
            count = self.greedy.count(view, contract) if contract.trump is not None else None
            if last_chance:
                ok = value > self.take_margin
            elif count is None:
                ok = value >= self.confirm
            elif count >= self.take_threshold:
                ok = value >= self.veto
            else:
                ok = value >= self.confirm
            if ok:
                admitted[bid] = value
        if admitted:
            return max(admitted, key=lambda b: admitted[b])
        return PASS if PASS in view.legal_bids else view.legal_bids[-1]

    def bid_values(self, view: View, least: int = CONTRACT_COUNT) -> dict[str, float]:
        """Per bid that would make this seat the taker, the deal's average score
        difference for its team over sampled deals, each solved double-dummy a few tricks
        deep (:data:`BID_HORIZON`) under the rules the engine compiles for the bid's
        contract: the shipped suits and any contract a plugin adds alike.

        The deals: the other seats' first five cards drawn from the unseen ones, kept
        with the odds of what their bids said (:func:`bids_fit`), then the rest of the
        pack dealt as the game completes a deal (the taker receives the turn-up).  A
        suit whose count (:class:`ExpertCount`) is below ``least`` is not
        searched; nor is anything when no bid is worth a search.  ``last_info`` keeps
        the values and the number of samples."""
        contracts = self.last_contracts = bid_contracts(view, self.engine)
        if not contracts:
            return {}
        kept = {
            bid: c
            for bid, c in contracts.items()
            if c.trump is None or self.greedy.count(view, c) >= least
        }
        if not kept:
            return {}
        solvers = {
            bid: (
                BeloteDD.for_contract(
                    self.engine, view.game, view.rules, c, view.direction, BID_HORIZON
                ),
                BeloteDD.for_contract(
                    self.engine, view.game, view.rules, c, view.direction, BID_HORIZON + 1
                ),
            )
            for bid, c in kept.items()
        }
        team = team_of(view, view.seat)
        leader = (view.dealer + view.direction) % view.seats

        def score(hands: list[CardSet], start: float) -> dict[str, float]:
            return {
                bid: self._bid_sample(view, c, solvers[bid], hands, leader, team)
                for bid, c in kept.items()
            }

        return self._sampled_values(
            kept, BID_MIN_SAMPLES, BID_MAX_SAMPLES, lambda: bidding_deal(view, self.rng), score
        )

    def _sampled_values(
        self,
        bids: Iterable[str],
        least: int,
        most: int,
        draw: Callable[[], list[CardSet] | None],
        score: Callable[[list[CardSet], float], dict[str, float]],
    ) -> dict[str, float]:
        """Per bid of ``bids``, the average over sampled deals of what ``score(hands,
        start)`` gives it (a bid it leaves out counts 0 in that deal; ``start``: when the
        sampling began, for a search's own deadline).  The deals come from ``draw()``:
        :attr:`samples` of them when that is fixed, else at least ``least`` and at most
        ``most``, drawing no more once the bidding's share of the budget
        (:data:`BID_SHARE`) has passed.  ``{}`` when ``draw`` finds no deal.  The one
        sampling loop of the bidding's searches (:meth:`bid_values`,
        :meth:`auction_values`); ``last_info`` keeps the values, the number of samples
        and the seconds."""
        totals = dict.fromkeys(bids, 0.0)
        start = time.perf_counter()
        deadline = start + self.budget * BID_SHARE
        limit = self.samples if self.samples is not None else most
        n = 0
        while n < limit:
            if self.samples is None and n >= least and time.perf_counter() > deadline:
                break
            hands = draw()
            if hands is None:
                return {}
            for bid, value in score(hands, start).items():
                totals[bid] += value
            n += 1
        values = {bid: t / max(1, n) for bid, t in totals.items()}
        self.last_info = {"samples": n, "values": values, "seconds": time.perf_counter() - start}
        return values

    def _bid_sample(
        self,
        view: View,
        contract: Contract,
        solvers: tuple[BeloteDD, BeloteDD],
        hands: list[CardSet],
        leader: int,
        team: int,
    ) -> float:
        """The team's score difference in one sampled deal it takes: whether it makes
        the contract is one null-window search (:meth:`BeloteDD.at_least` of the points
        it needs, declarations counted), by how much a shallower estimate (no less than
        what it needs)."""
        deep, shallow = solvers
        total = deep.rules.total
        decl, belote = deal_declarations(self.engine, view, contract, hands)
        rules = view.rules
        if rules.get("contract_counts_declarations", True):
            need = (total + decl[1 - team] - decl[team] + 1) // 2
        else:
            need = (total + 1) // 2
        need = max(0, min(total, need))
        if not deep.at_least(hands, leader, (), team, need):
            points = need - 1
        else:
            points = max(need, shallow.value(hands, leader, (), team))
        end = DealPoints(points, decl, total, belote)
        return deal_outcome(rules, view.game, team, team, end, self.engine, contract)[1]

    # --- bidding by value (La Coinche) ----------------------------------------------------

    def auction_bid(self, view: View) -> str:
        """The bid of an auction by values (La Coinche) with the best expected score:
        :meth:`auction_values`, a *contre* or *surcontre* held to :attr:`double_margin`
        more; the greedy bot's bid when no deal could be searched."""
        values = self.auction_values(view)
        if not values:
            return self.greedy.bid(view)
        margin = {
            b: self.double_margin
            if self.engine.describe_bid(view.game, view.rules, b).kind in (BID_DOUBLE, BID_REDOUBLE)
            else 0.0
            for b in values
        }
        # ties go to the quieter bid: a pass, then the lowest value (the legal order)
        order = {b: i for i, b in enumerate(view.legal_bids)}
        return max(values, key=lambda b: (values[b] - margin[b], b == PASS, -order[b]))

    def auction_values(self, view: View) -> dict[str, float]:
        """Per legal bid, this team's expected score difference over sampled deals if the
        auction ends with it (:func:`auction_contract`: the other seats pass): every
        contract valued by the game's own scoring at its value and level
        (:func:`~atout.plugins.search.rules.deal_outcome`), a bid that ends with no
        contract at 0.

        The deals: the unseen cards dealt to the other seats as the view allows
        (:func:`sample_hands`), drawn again (up to :data:`AUCTION_ATTEMPTS` times) until
        what the other seats bid agrees with them (:func:`bidders_fit`).  In each deal, each strain's play is searched once,
        double-dummy to :data:`AUCTION_HORIZON` cards a hand and estimated beyond
        (:class:`BeloteDD`, under the rules the engine compiles for the contract; to the
        end when a side is near a capot, :data:`CAPOT_NEAR`, within the hard limit of
        the bidding's share of the budget), and the points it gives
        are scored for every value and level of that strain: the bid's value and level
        change the scoring, not the play.  This seat's contracts in a suit whose count
        (:class:`ExpertCount`) is below :data:`CONTRACT_COUNT` are not searched (nor
        bid).  ``last_info`` keeps the
        values and the number of samples."""
        contracts: dict[str, Contract | None] = {
            bid: auction_contract(view, bid, self.engine) for bid in view.legal_bids
        }
        standing = contracts.get(PASS)
        partners = (
            standing is not None
            and standing.taker != view.seat
            and team_of(view, standing.taker) == team_of(view, view.seat)
        )
        for bid, c in list(contracts.items()):
            if c is None or c.taker != view.seat:
                continue
            if c.trump is not None and self.greedy.count(view, c) < CONTRACT_COUNT:
                del contracts[bid]  # no sample would make it worth bidding
            elif partners and standing is not None and c.name != standing.name:
                # over the partner's contract only the partner's strain is raised: each
                # side's samples cannot see what the other's bid will become
                del contracts[bid]
        plays: dict[tuple[int, str], Contract] = {}
        for c in contracts.values():
            if c is not None:
                plays.setdefault((c.taker, c.name), c)
        solvers = {
            key: BeloteDD.for_contract(
                self.engine, view.game, view.rules, c, view.direction, AUCTION_HORIZON
            )
            for key, c in plays.items()
        }
        team = team_of(view, view.seat)
        leader = (view.dealer + view.direction) % view.seats
        if not plays:
            # no bid leaves a contract to search: each is worth 0, and no deal is drawn
            values = dict.fromkeys(contracts, 0.0)
            self.last_info = {"samples": 0, "values": values, "seconds": 0.0}
            return values

        def draw() -> list[CardSet]:
            return auction_deal(view, self.rng, self.engine)

        def score(hands: list[CardSet], start: float) -> dict[str, float]:
            outcomes = {}
            for key, play in plays.items():
                solver = solvers[key]
                decl, belote = deal_declarations(self.engine, view, play, hands)
                total = solver.rules.total
                # a search to the end for the capot may take long: it stops at the hard
                # limit (none when the samples are fixed: reproducible decisions)
                limit = None
                if self.samples is None:
                    limit = start + self.budget * HARD_FACTOR * BID_SHARE
                points, capot = strain_points(solver, hands, leader, team, limit)
                if not capot:
                    points = max(0, points - AUCTION_DISCOUNT)
                outcomes[key] = DealPoints(points, decl, total, belote)
            out = {}
            for bid, c in contracts.items():
                if c is None:
                    continue
                end = outcomes[(c.taker, c.name)]
                takers = team_of(view, c.taker)
                out[bid] = deal_outcome(view.rules, view.game, team, takers, end, self.engine, c)[1]
            return out

        return self._sampled_values(
            contracts, AUCTION_MIN_SAMPLES, AUCTION_MAX_SAMPLES, draw, score
        )

    # --- play ---------------------------------------------------------------------------

    def _solver_for(self, view: View) -> BeloteDD | None:
        """The double-dummy solver of the deal's compiled play rules, whatever plugin
        gave them; ``None`` when the view is no four-seat, two-team play (the expert then
        plays greedy).  The legal sets it remembers are kept for the next decisions
        under the same rules."""
        contract = view.contract
        if contract is None or view.seats != 4 or view.teams != 2:
            return None
        rules = CardRules.of(self.engine.play_rules(view.game, view.rules, contract))
        key = (rules, view.direction)
        asker = self._askers.get(key)
        if asker is None:
            asker = MoveAsker(rules.moves, view_state(view, contract))
            if len(self._askers) > 16:
                self._askers.clear()
            self._askers[key] = asker
        elif not asker.local:
            # a rule that may read the whole state sees this decision's past
            asker.state = view_state(view, contract)
        return BeloteDD(rules, view.direction, asker=asker)

    def play(self, view: View) -> Card:
        """The card with the best average over sampled layouts."""
        legal = view.legal
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        base = self._solver_for(view)
        if base is None:
            return self.greedy.card(view)
        moves = _distinct_moves(view, legal, base)
        if len(moves) == 1:
            return moves[0]
        tricks_left = view.hand.bit_count()
        horizon = self.horizons.get((tricks_left, not view.trick), 0)
        solver = base.with_horizon(horizon)
        team = team_of(view, view.seat)
        trick = tuple(c for _, c in view.trick)
        leader = view.trick[0][0] if view.trick else view.seat
        decl = declaration_points(view)
        belote = belote_points(view)
        unseen = unseen_belote(view)
        past = view.points[team]
        deal_points = base.rules.total
        reading = read_play(view, self.engine, hints=self.play_hints)
        auction = read_auction(view, self.engine) if self.bid_worlds else ()
        forbid = reading.forbid
        tables = base.rules
        weigher = WorldWeights(
            view,
            tables,
            signals=self.read_signals,
            policy=self.infer,
            temperature=self.infer_temperature,
        )
        weighing = 0.0
        weights = 0.0
        squares = 0.0
        totals = dict.fromkeys(moves, 0.0)
        points_sum = dict.fromkeys(moves, 0.0)
        start = time.perf_counter()
        deadline = start + self.budget
        timed = self.samples is None
        if timed:
            solver.set_deadline(start + self.budget * HARD_FACTOR)
        n = 0
        nodes = 0
        limit = self.samples if self.samples is not None else MAX_SAMPLES
        while n < limit:
            if timed and n >= MIN_SAMPLES and time.perf_counter() > deadline:
                break
            try:
                hands = sample_hands(
                    view,
                    self.rng,
                    forbid,
                    engine=self.engine,
                    use_bids=self.bid_worlds,
                    hints=reading.hints,
                    auction=auction,
                )
            except ValueError:
                return self.greedy.card(view)
            try:
                values = solver.move_values(hands, leader, trick, moves, team)
            except SearchTimeout:
                break
            if n == 0 and timed and horizon == 0 and time.perf_counter() - start > self.budget / 2:
                # exact solves are too slow for this budget: go on three tricks deep
                nodes += solver.nodes
                solver = base.with_horizon(max(1, tricks_left - 3))
                solver.set_deadline(start + self.budget * HARD_FACTOR)
                horizon = solver.horizon
            layout_decl, layout_belote = layout_declarations(view, hands, decl, belote, unseen)
            t0 = time.perf_counter()
            w = weigher.weight(hands)
            weighing += time.perf_counter() - t0
            for c, v in values.items():
                end = DealPoints(past + v, layout_decl, deal_points, layout_belote)
                totals[c] += w * deal_utility(view, end, self.engine)
                points_sum[c] += w * v
            weights += w
            squares += w * w
            n += 1
            if len(solver.tt) > 400_000:
                solver.clear()
        nodes += solver.nodes
        if n == 0:
            return self.greedy.card(view)
        values_of = {c: totals[c] / weights for c in moves}
        best = max(moves, key=lambda c: (values_of[c], points_sum[c], -base.points[c]))
        signal = self._signal(view, tables, moves, values_of, best) if self.signals else best
        self.last_info = {
            "samples": n,
            "horizon": horizon,
            "nodes": nodes,
            "seconds": time.perf_counter() - start,
            "values": values_of,
            "points": {c: points_sum[c] / weights for c in moves},
            "effective_samples": weights * weights / squares,
            "signal_events": len(weigher.events),
            "inferred_plays": weigher.plays,
            "weighing_seconds": weighing,
            "signal": signal if signal != best else None,
            "signal_cost": values_of[best] - values_of[signal],
        }
        return signal

    def _signal(
        self,
        view: View,
        tables: CardRules,
        moves: Sequence[Card],
        values: dict[Card, float],
        best: Card,
    ) -> Card:
        """``best``, or the card the signalling convention plays in the seat's situation
        (:func:`~.signals.conventional_cards`) when one is worth ``best`` within
        :attr:`signal_tolerance` (the best of those)."""
        conv = conventional_cards(view, tables)
        if not conv or conv >> best & 1:
            return best
        floor = values[best] - self.signal_tolerance
        fits = [c for c in moves if conv >> c & 1 and values[c] >= floor]
        if not fits:
            return best
        return max(fits, key=lambda c: (values[c], -tables.points[c]))


def _distinct_moves(view: View, legal: CardSet, solver: BeloteDD) -> list[Card]:
    """The legal cards less those equivalent to one kept: zero-point cards of one suit
    with no unplayed card of the suit between them (they lead to the same values)."""
    from .basic import played_cards

    live = ~played_cards(view) & 0xFFFFFFFF
    for _, c in view.trick:
        live |= 1 << c
    pts = solver.points
    strg = solver.strength
    out: list[Card] = []
    for s in range(4):
        cards = sorted(cards_of(legal & SUIT_MASKS[s]), key=lambda c: strg[c])
        prev = -1
        for c in cards:
            if prev >= 0 and pts[c] == 0 and pts[prev] == 0:
                between = [
                    x
                    for x in range(s * 8, s * 8 + 8)
                    if strg[prev] < strg[x] < strg[c] and live >> x & 1
                ]
                if not between:
                    continue
            out.append(c)
            prev = c
    return out


__all__ = [
    "DEFAULT_BUDGET",
    "BeloteExpert",
    "ExpertCount",
    "PlayHint",
    "PlayReading",
    "Shown",
    "announced_declarations",
    "deal_outcome",
    "deal_utility",
    "declaration_points",
    "held_declarations",
    "infer_constraints",
    "read_play",
    "sample_hands",
]
