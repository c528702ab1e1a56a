"""An exact double-dummy solver for four-player Belote (every hand known, trump fixed).

Given the four hands, the trump, who leads and the cards already in the current trick,
:class:`BeloteDD` finds the card points (dix de der included) that a team wins from here
with best play by both teams.  It is what the four-player expert solves for each sampled
layout (perfect-information Monte Carlo) and what the benchmark times on full deals.

The search is the one bridge solvers use, in pure Python:

- **null-window tests** ("does team 0 win at least ``beta`` points from here?"), each a
  fail-soft zero-window alpha-beta; the driver (:meth:`BeloteDD._solve`) bisects the
  bracket ``[lower, upper]``, after two MTD(f) steps (Plaat et al.) at a guess when one
  is given (MTD(f) steps near the value move by one point at a time: bisecting takes
  fewer passes).  :meth:`BeloteDD.at_least` asks one such question (the 81-point one
  expands about an eighth of the nodes of the exact value);
- **one call per trick**: the four cards of a trick are four nested loops of one
  function (negamax: each seat maximises its own team's points, the window negated
  from seat to seat, since seats alternate teams), and only the next trick start is a
  call; the last trick is valued in place;
- a **transposition table** at trick starts, keyed on the four remaining hands and the
  leader, holding proven lower and upper bounds on the points still to be won (valid
  for any past, since the remaining hands fix the remaining cards), packed in one int;
  the ordered leads of each position searched, best first, are kept beside it;
- **quick bounds** when a position is first met: the points still in play, and the top
  run of live trumps held by one team, which that team surely wins;
- **move ordering**: the lead that last refuted a window from the same two hands of the
  leading team, then masters (trumps and points first; a plain master that an opponent
  holding trumps can ruff comes last), then low leads; following, the cheapest winning
  card, a smear on a partner's trick nobody after can take, else the cheapest card.
  Orderings are memoized (leads by the legal leads and which are masters; follows by
  the hand and the trick, together with the legal cards), and a follow that refutes a
  window moves to the front of its memoized order;
- **equivalent cards**: zero-point cards of one suit in one hand with no live card of
  that suit between them lead to the same values; only one is searched.

Tried and left out (``docs/experiments.md`` has the figures):
transposition keys by rank within a suit (few positions merge), exact values for the
two-trick endgames, a full-window or narrow-window pass at the end, killer follows,
stronger sure-points bounds (cashable masters), and reading the next trick start's
bounds in the caller.

With ``horizon=n`` the search stops at trick starts where each hand holds ``n`` cards and
returns an estimate there (the bots' depth-limited search for the first tricks).

The rules are the deal's, as the engine compiled them from the rule plugins
(:meth:`atout.core.Engine.play_rules`, read through :class:`~.rules.CardRules`): the
trick winner and the card values are tables, and the legal cards are asked of the deal's
move rule (:class:`~.rules.MoveAsker`), remembered by hand and trick when the rule is
``trick_local`` and asked anew at every node otherwise.  So a contract a third-party
plugin defines is searched like a shipped one.  Two shortcuts read the tables only: the
top trump run exists when the trumps are one suit that beats the others
(:attr:`~.rules.CardRules.trump_suit`), and the equivalent-cards pruning takes it that
the move rule tells two zero-point cards of one suit apart only by what beats them (it
holds for every rule that speaks of suits, trumps and the cards that beat the trick).
``tests/test_belote_dd.py`` checks the values against a brute-force minimax that asks the
engine's rules, on small endgames under the shipped contracts, the house rules of play and
a plugin's contracts, and against that minimax remembered at trick starts on four- and
five-card endgames (every part of the search acts there, with one solver kept from
position to position as the bots keep it).

Seats are ``0..3``; teams are ``seat % 2``; the seat after ``s`` is ``(s + direction) % 4``.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from functools import cache

from atout.core.cards import SUIT_MASKS
from atout.core.cards import Card
from atout.core.cards import CardSet
from atout.core.cards import cards_of
from atout.core.engine import Engine
from atout.core.model import Contract
from atout.core.model import Rules
from atout.core.state import DealState

from .rules import INF
from .rules import CardRules
from .rules import Deadline
from .rules import MoveAsker
from .rules import SearchTimeout
from .rules import scratch_state
from .rules import trick_code

__all__ = ["INF", "BeloteDD", "SearchTimeout"]

TRUMP_POWER = (0.95, 1.0, 1.15, 1.45, 1.45, 1.7, 2.4, 4.0)
"""The trick-taking power of a trump by its strength in the suit (weakest first), for the
depth-limited estimate (:attr:`BeloteDD.horizon`).  With :data:`PLAIN_POWER`,
:data:`BASE_POWER` and :data:`LEAD_POWER` it was fitted, by least squares, to the exact
values of 24,000 positions of five and four cards a hand (greedy play from 12,000
deals), then rounded: the error fell from 19.8 to 16.3 points (root mean square, held-out
positions) at five cards and from 17.2 to 14.0 at four (``docs/bots.md``)."""
PLAIN_POWER = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 1.0)
"""The trick-taking power of a plain card by its strength in its suit (weakest first)."""
BASE_POWER = 0.1
"""The power each team has without cards (it keeps the share defined)."""
LEAD_POWER = 0.45
"""The power the team on lead adds."""
POWER_UNIT = 0.05
"""The powers above are whole multiples of this unit: the search sums them as whole
numbers (table lookups by each suit's cards), so its estimate is rounded exactly."""


@cache
def _suit_byte_sums(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per suit, the sum of ``values`` (one a card) over the cards of each byte of that
    suit (256 entries): a card set's total in four lookups.  Kept per value table, since
    every solver of the same contract asks for the same ones."""
    out = []
    for s in range(4):
        table = [0] * 256
        for byte in range(1, 256):
            low = byte & -byte
            table[byte] = table[byte ^ low] + values[s * 8 + low.bit_length() - 1]
        out.append(tuple(table))
    return tuple(out)


@cache
def _suit_byte_tops(strength: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per suit, the strongest card (by ``strength`` in the suit) of each byte of that
    suit, as a card set (0 for the empty byte): the masters among a set of live cards."""
    out = []
    for s in range(4):
        table = [0] * 256
        for byte in range(1, 256):
            low = byte & -byte
            card = s * 8 + low.bit_length() - 1
            rest = table[byte ^ low]
            if not rest or strength[card] > strength[rest.bit_length() - 1]:
                rest = 1 << card
            table[byte] = rest
        out.append(tuple(table))
    return tuple(out)


class BeloteDD:
    """The double-dummy solver for the play rules of one contract.

    ``rules`` are the deal's search tables (:meth:`CardRules.of` the engine's
    :meth:`~atout.core.Engine.play_rules`); ``direction`` is the direction of play;
    ``state`` the scratch state through which the move rule is asked
    (:func:`~.rules.scratch_state`; give one with the deal's game, rules, contract and
    past tricks when the move rule is not ``trick_local``); ``asker`` shares remembered
    legal sets between solvers of the same rules.

    Keep one instance per contract: its transposition table stays valid across positions
    and samples (an entry depends only on the hands and the leader), which is what makes
    solving every legal card of one sample cheap after the first.
    """

    def __init__(
        self,
        rules: CardRules,
        direction: int = 1,
        horizon: int = 0,
        state: DealState | None = None,
        asker: MoveAsker | None = None,
    ) -> None:
        self.rules = rules
        self.trump = rules.trump_suit
        self.trump_mask = rules.trump_mask
        self.beats = rules.beats
        self.points = rules.points
        self.last_trick = rules.last_trick
        self.direction = direction
        self.strength = rules.strength
        self.horizon = horizon
        """0: exact.  ``n``: stop at trick starts where each hand holds ``n`` cards or
        fewer and return :meth:`estimate` there (a depth-limited search for the first
        tricks, where an exact solve costs too much time for a bot)."""
        if asker is None:
            asker = MoveAsker(
                rules.moves, state if state is not None else scratch_state(4, 2, direction)
            )
        self.asker = asker
        self.tt: dict[int, int] = {}
        """The transposition table: by the key of a trick start (the four hands and the
        leader), the proven bounds on team 0's points from there, ``lower | upper <<
        bits`` (ints, which the garbage collector does not track: half a million lists
        made its passes the dearest part of a solve)."""
        self.deadline = Deadline(every=256)
        """The time limit (:meth:`set_deadline`); its count is the trick starts expanded."""
        self.passes = 0
        self._build()

    @classmethod
    def for_contract(
        cls,
        engine: Engine,
        game: str,
        rules: Rules,
        contract: Contract,
        direction: int = 1,
        horizon: int = 0,
    ) -> BeloteDD:
        """The solver of ``contract``'s play rules as ``engine`` compiles them for
        ``game`` under ``rules`` (its scratch state knows the game, rules and contract)."""
        play = engine.play_rules(game, rules, contract)
        state = scratch_state(4, 2, direction, game, rules, contract)
        return cls(CardRules.of(play), direction, horizon, state)

    def with_horizon(self, horizon: int) -> BeloteDD:
        """A fresh solver of the same rules (sharing the remembered legal sets) that
        stops at ``horizon`` (see :attr:`horizon`)."""
        return BeloteDD(self.rules, self.direction, horizon, asker=self.asker)

    # --- legal moves ---------------------------------------------------------------------

    def legal(self, hands: Sequence[CardSet], leader: int, trick: Sequence[Card] = ()) -> CardSet:
        """The cards the seat to play may play, ``hands`` being what each seat holds and
        ``trick`` the cards played to the current trick from ``leader`` on: the deal's
        move rule's answer (remembered when it is trick-local)."""
        seat = (leader + len(trick) * self.direction) % 4
        code = trick_code(trick)
        hand = hands[seat]
        if self.asker.local:
            found = self.asker.memo.get(hand | code << 32)
            if found is not None:
                return found
        win, wseat = self._winner(leader, trick) if trick else (-1, -1)
        return self.asker.ask(hands, seat, code, win, wseat)

    # --- the search ------------------------------------------------------------------------

    def _build(self) -> None:
        """Compile the search into closures over the solver's tables (fast locals)."""
        beats = self.beats
        pts = self.points
        strg = self.strength
        tm = self.trump_mask
        trump = self.trump if self.trump is not None else -1
        suit_masks = SUIT_MASKS
        last_bonus = self.last_trick
        asker = self.asker
        ask = asker.ask
        ask_trick = asker.ask_trick
        legal_of = asker.memo.get
        free_lead = bool(self.rules.moves.free_lead)
        # the trick code of each card led (see trick_code), already shifted into the key
        lead_code = tuple((c + 1) << 32 for c in range(32))
        d = self.direction
        nxt = tuple((s + d) % 4 for s in range(4))
        tt = self.tt
        # the bounds of a transposition entry: lower in the low bits, upper above
        bsh = max(self.rules.total, 1).bit_length() + 1
        bmask = (1 << bsh) - 1
        tick = self.deadline.tick
        # zero-point cards per suit, in strength order, for the equivalence pruning
        zero_runs = []
        for s in range(4):
            zs = [c for c in range(s * 8, s * 8 + 8) if pts[c] == 0]
            zs.sort(key=lambda c: strg[c])
            zero_runs.append(tuple(zs))
        zero_mask = 0
        for c in range(32):
            if pts[c] == 0:
                zero_mask |= 1 << c
        # the points of the cards of one suit, by the suit's byte of a card set
        pb0, pb1, pb2, pb3 = _suit_byte_sums(tuple(pts))
        trump_shift = 8 * trump if trump >= 0 else 0
        trump_rank_order = sorted(range(8), key=lambda r: -strg[trump_shift + r])
        run_memo: dict[int, int] = {}

        def top_run(trumps: int, team1: int) -> int:
            """The points of the top run of live trumps held by one team: positive for
            team 0, negative for team 1 (each of them, when played, can only be beaten
            by a higher one of the run, so that team wins them all)."""
            side = -1
            run = 0
            for r in trump_rank_order:
                if trumps >> r & 1:
                    mine = team1 >> r & 1
                    if side < 0:
                        side = mine
                    elif mine != side:
                        break
                    run += pts[trump_shift + r]
            return -run if side == 1 else run

        def prune_equivalent(moves: int, live: int) -> int:
            """Drop zero-point cards equivalent to a lower one kept (same hand, same
            suit, no live card between them)."""
            z = moves & zero_mask
            for s in range(4):
                zs = z & suit_masks[s]
                if zs & (zs - 1) == 0:
                    continue
                keep = False
                for c in zero_runs[s]:
                    b = 1 << c
                    if moves & b:
                        if keep:
                            moves ^= b
                        else:
                            keep = True
                    elif live & b:
                        keep = False
            return moves

        lead_memo: dict[int, tuple[int, ...]] = {}
        follow_memo: dict[int, tuple[int, ...]] = {}

        def order_lead(moves: int, masters: int, ruff: int = 0) -> tuple[int, ...]:
            """Leads to try first: ``masters`` (the highest live card of their suit),
            trumps and points first among them, but not those of ``ruff`` (plain masters
            an opponent holding trumps is void in: they come last); then low cards
            (memoized)."""
            key = moves | masters << 32 | ruff << 64
            seq = lead_memo.get(key)
            if seq is not None:
                return seq
            scored = []
            for c in cards_of(moves):
                if ruff >> c & 1:
                    scored.append((50 + pts[c] + strg[c], c))
                elif masters >> c & 1:
                    scored.append((-100 - pts[c] - (40 if tm >> c & 1 else 0), c))
                else:
                    scored.append((pts[c] + strg[c], c))
            scored.sort()
            seq = tuple(c for _, c in scored)
            lead_memo[key] = seq
            return seq

        # the strongest card of each suit's byte of a card set (by strength in the
        # suit), as a card set: the masters among the live cards
        top0, top1, top2, top3 = _suit_byte_tops(tuple(strg))

        def order_follow(moves: int, win: int, mode: int) -> tuple[int, ...]:
            """Follows to try first.  ``mode`` 2: the partner's card wins the trick
            whatever comes after: smear points.  1: the partner is winning but may be
            beaten: play low.  0: an opponent is winning: the cheapest winning card,
            then the cheapest loser."""
            key = moves | win << 32 | mode << 37
            seq = follow_memo.get(key)
            if seq is not None:
                return seq
            cards = cards_of(moves)
            if mode == 2:
                seq = tuple(sorted(cards, key=lambda c: -pts[c] * 16 - strg[c]))
            elif mode == 1:
                seq = tuple(sorted(cards, key=lambda c: pts[c] * 16 + strg[c]))
            else:
                bw = beats[win]
                seq = tuple(
                    sorted(cards, key=lambda c: pts[c] * 16 + strg[c] - (bw >> c & 1) * 1000)
                )
            follow_memo[key] = seq
            return seq

        lead_seq: dict[int, tuple[int, ...]] = {}
        """The leads of each expanded position (by its transposition key), in the order
        to try them on its next visit: the best one found first."""
        lead_get = lead_memo.get
        hints: dict[int, int] = {}
        plain_masks = tuple(m for m in suit_masks if not m & tm)
        """The lead that last refuted a window, by the leading team's two hands (the
        opponents' cards aside): tried first in a new position where that team leads
        from the same hands."""
        hint_get = hints.get
        seq_memo: dict[int, tuple[int, ...]] = {}
        """The ordered follows of a hand before a trick (by the legal-set key, the
        partner's safety in the third seat from bit 60), for trick-local rules and hands
        with no equivalent cards to prune (those depend on the live cards).  A card that
        refutes a window is moved to the front (tried first when the same hand meets
        the same cards again)."""
        seq_get = seq_memo.get
        local = asker.local
        hz = self.horizon
        # the power of each card to take tricks later, for the horizon estimate, in
        # units of POWER_UNIT (the fitted powers are whole multiples of it), summed by
        # each suit's byte of a card set: whole numbers, so the share is rounded exactly
        unit = POWER_UNIT
        power = [
            round((TRUMP_POWER[strg[c]] if tm >> c & 1 else PLAIN_POWER[strg[c]]) / unit)
            for c in range(32)
        ]
        pw0, pw1, pw2, pw3 = _suit_byte_sums(tuple(power))
        base_power = round(BASE_POWER / unit)
        lead_power = round(LEAD_POWER / unit)

        def in_play(live: int, team1: int) -> tuple[int, int]:
            """The points still to be won with the ``live`` cards (the last trick's bonus
            included), and those of the top run of live trumps held by one team
            (:func:`top_run`, memoized; 0 without live trumps); ``team1``: team 1's
            cards.  The quick bounds of a position and its horizon estimate."""
            rem = (
                last_bonus
                + pb0[live & 255]
                + pb1[live >> 8 & 255]
                + pb2[live >> 16 & 255]
                + pb3[live >> 24]
            )
            trumps = live >> trump_shift & 255 if trump >= 0 else 0
            if not trumps:
                return rem, 0
            rk = trumps | (team1 >> trump_shift & 255) << 8
            run = run_memo.get(rk)
            if run is None:
                run = run_memo[rk] = top_run(trumps, rk >> 8)
            return rem, run

        def estimate(h: list[int], leader: int) -> int:
            """Team 0's points from a horizon position: the sure points of the top trump
            run, the rest shared by the teams' trick-taking power (rounded half up)."""
            h0, h1, h2, h3 = h
            t0 = h0 | h2
            t1 = h1 | h3
            rem, run = in_play(t0 | t1, t1)
            sure0 = sure1 = 0
            if run > 0:
                sure0 = run
            else:
                sure1 = -run
            p0 = (
                base_power
                + pw0[t0 & 255]
                + pw1[t0 >> 8 & 255]
                + pw2[t0 >> 16 & 255]
                + pw3[t0 >> 24]
            )
            p1 = (
                base_power
                + pw0[t1 & 255]
                + pw1[t1 >> 8 & 255]
                + pw2[t1 >> 16 & 255]
                + pw3[t1 >> 24]
            )
            if leader & 1:
                p1 += lead_power
            else:
                p0 += lead_power
            both = p0 + p1
            return sure0 + (2 * (rem - sure0 - sure1) * p0 + both) // (2 * both)

        self.estimate = estimate

        prune_memo: dict[int, int] = {}
        # the cards whose strength lies between two zero-point cards of their suit: what
        # the equivalence of zero-point cards depends on (for the shipped tables, the
        # zero-point cards themselves)
        gap_mask = 0
        for s in range(4):
            run_s = zero_runs[s]
            if len(run_s) > 1:
                for c in range(s * 8, s * 8 + 8):
                    if strg[run_s[0]] <= strg[c] <= strg[run_s[-1]]:
                        gap_mask |= 1 << c

        prune_get = prune_memo.get

        def at_trick(h: list[int], leader: int, alpha: int, beta: int) -> int:
            """Fail-soft alpha-beta value of team 0's remaining points, at a trick start.

            The four cards of the trick are searched by four nested loops in this one
            call (negamax: each level maximises its own team's points, the window
            negated from one seat to the next, since seats alternate teams), and the
            next trick start is a recursive call; a trick before the last one ends in
            the last trick's value, computed in place."""
            h0, h1, h2, h3 = h
            if h0 & (h0 - 1) == 0:
                # last trick: every hand holds one card
                win = h[leader].bit_length() - 1
                wseat = leader
                s = nxt[leader]
                total = last_bonus + pts[win]
                for _ in range(3):
                    c = h[s].bit_length() - 1
                    total += pts[c]
                    if beats[win] >> c & 1:
                        win = c
                        wseat = s
                    s = nxt[s]
                return total if wseat & 1 == 0 else 0
            if hz and h0.bit_count() <= hz:
                return estimate(h, leader)
            key = h0 | h1 << 32 | h2 << 64 | h3 << 96 | leader << 128
            e = tt.get(key)
            live = h0 | h1 | h2 | h3
            if e is None:
                ub, run = in_play(live, h1 | h3)
                lb = 0
                if run > 0:
                    lb = run
                else:
                    ub += run
                tt[key] = lb | ub << bsh
            else:
                lb = e & bmask
                ub = e >> bsh
            # the table's bounds met with the window, as rules.window() does it, written
            # out: the call cost about 3% of a solve here (docs/experiments.md)
            if lb >= beta:
                return lb
            if ub <= alpha:
                return ub
            if lb == ub:
                return lb
            lo, hi = alpha, beta
            if lb > alpha:
                alpha = lb
            if ub < beta:
                beta = ub
            tick()
            s0 = leader
            s1 = nxt[s0]
            s2 = nxt[s1]
            s3 = nxt[s2]
            H0 = h[s0]
            H1 = h[s1]
            H2 = h[s2]
            H3 = h[s3]
            lg = (live & gap_mask) << 32
            seq = lead_seq.get(key)
            if seq is None:
                moves = H0
                if not free_lead:
                    found = legal_of(moves)
                    moves = found if found is not None else ask(h, s0, 0, -1, -1)
                z = moves & zero_mask
                if z & (z - 1):
                    drop = prune_get(z | lg)
                    if drop is None:
                        drop = prune_memo[z | lg] = z & ~prune_equivalent(z, live)
                    moves &= ~drop
                masters = moves & (
                    top0[live & 255]
                    | top1[live >> 8 & 255]
                    | top2[live >> 16 & 255]
                    | top3[live >> 24]
                )
                # the plain masters an opponent holding trumps may ruff
                ruff = 0
                if masters & ~tm:
                    if H1 & tm:
                        for sm in plain_masks:
                            if masters & sm and not H1 & sm:
                                ruff |= sm
                    if H3 & tm:
                        for sm in plain_masks:
                            if masters & sm and not H3 & sm:
                                ruff |= sm
                    ruff &= masters
                seq = lead_get(moves | masters << 32 | ruff << 64)
                if seq is None:
                    seq = order_lead(moves, masters, ruff)
                # the lead that refuted a window from the same two hands of the team
                hint = hint_get(H0 | H2 << 32)
                if hint is not None and hint != seq[0] and moves >> hint & 1:
                    seq = (hint, *(c for c in seq if c != hint))
            best_card = seq[0]
            # the next trick is the last one: its value is computed in place
            h0 &= h0 - 1
            two = h0 & (h0 - 1) == 0
            # the next trick starts at the horizon: its estimate is taken in place
            leaf = hz and h0.bit_count() <= hz
            # negamax: level k maximises sign_k * (team 0's points), sign_0 = +1 for
            # team 0 leading; seats alternate teams, so s3 is on the other team
            even = s0 & 1 == 0
            if even:
                a0 = alpha
                b0 = beta
            else:
                a0 = -beta
                b0 = -alpha
            best0 = -INF
            for c0 in seq:
                h[s0] = H0 ^ 1 << c0
                p0 = pts[c0]
                bw0 = beats[c0]
                code1 = lead_code[c0]
                f1 = H1 | code1
                seq1 = seq_get(f1)
                if seq1 is None:
                    m = legal_of(H1 | code1)
                    if m is None:
                        m = ask_trick(h, s1, [c0], code1 >> 32, c0, s0)
                    z = m & zero_mask
                    if z & (z - 1):
                        drop = prune_get(z | lg)
                        if drop is None:
                            drop = prune_memo[z | lg] = z & ~prune_equivalent(z, live)
                        seq1 = order_follow(m & ~drop, c0, 0)
                        f1 = -1
                    else:
                        seq1 = order_follow(m, c0, 0)
                        if local:
                            seq_memo[f1] = seq1
                        else:
                            f1 = -1
                a1 = -b0
                b1 = -a0
                best1 = -INF
                for c1 in seq1:
                    h[s1] = H1 ^ 1 << c1
                    if bw0 >> c1 & 1:
                        w1 = c1
                        ws1 = s1
                    else:
                        w1 = c0
                        ws1 = s0
                    bw1 = beats[w1]
                    p1 = p0 + pts[c1]
                    code2 = code1 << 6 | lead_code[c1]
                    # the partner wins: smear when the last seat cannot take it
                    mode = (1 if H3 & bw1 else 2) if ws1 == s0 else 0
                    f2 = H2 | code2 | mode << 60
                    seq2 = seq_get(f2)
                    if seq2 is None:
                        m = legal_of(H2 | code2)
                        if m is None:
                            m = ask_trick(h, s2, [c0, c1], code2 >> 32, w1, ws1)
                        z = m & zero_mask
                        if z & (z - 1):
                            drop = prune_get(z | lg)
                            if drop is None:
                                drop = prune_memo[z | lg] = z & ~prune_equivalent(z, live)
                            seq2 = order_follow(m & ~drop, w1, mode)
                            f2 = -1
                        else:
                            seq2 = order_follow(m, w1, mode)
                            if local:
                                seq_memo[f2] = seq2
                            else:
                                f2 = -1
                    a2 = -b1
                    b2 = -a1
                    best2 = -INF
                    for c2 in seq2:
                        h[s2] = H2 ^ 1 << c2
                        if bw1 >> c2 & 1:
                            w2 = c2
                            ws2 = s2
                        else:
                            w2 = w1
                            ws2 = ws1
                        bw2 = beats[w2]
                        p2 = p1 + pts[c2]
                        code3 = code2 << 6 | lead_code[c2]
                        f3 = H3 | code3
                        seq3 = seq_get(f3)
                        if seq3 is None:
                            m = legal_of(H3 | code3)
                            if m is None:
                                m = ask_trick(h, s3, [c0, c1, c2], code3 >> 32, w2, ws2)
                            mode = 2 if ws2 == s1 else 0
                            z = m & zero_mask
                            if z & (z - 1):
                                drop = prune_get(z | lg)
                                if drop is None:
                                    drop = prune_memo[z | lg] = z & ~prune_equivalent(z, live)
                                seq3 = order_follow(m & ~drop, w2, mode)
                                f3 = -1
                            else:
                                seq3 = order_follow(m, w2, mode)
                                if local:
                                    seq_memo[f3] = seq3
                                else:
                                    f3 = -1
                        a3 = -b2
                        b3 = -a2
                        best3 = -INF
                        for c3 in seq3:
                            h[s3] = H3 ^ 1 << c3
                            ws = s3 if bw2 >> c3 & 1 else ws2
                            if two:
                                # the last trick, led by ws: one card in each hand
                                win = h[ws].bit_length() - 1
                                lw = ws
                                s = nxt[ws]
                                lt = last_bonus + pts[win]
                                c = h[s].bit_length() - 1
                                lt += pts[c]
                                if beats[win] >> c & 1:
                                    win = c
                                    lw = s
                                s = nxt[s]
                                c = h[s].bit_length() - 1
                                lt += pts[c]
                                if beats[win] >> c & 1:
                                    win = c
                                    lw = s
                                s = nxt[s]
                                c = h[s].bit_length() - 1
                                lt += pts[c]
                                if beats[win] >> c & 1:
                                    lw = s
                                u = p2 + pts[c3] if ws & 1 == 0 else 0
                                if lw & 1 == 0:
                                    u += lt
                                v = -u if even else u
                            elif leaf:
                                u = estimate(h, ws)
                                if ws & 1 == 0:
                                    u += p2 + pts[c3]
                                v = -u if even else u
                            elif ws & 1 == 0:
                                mine = p2 + pts[c3]
                                if even:
                                    v = -mine - at_trick(h, ws, -b3 - mine, -a3 - mine)
                                else:
                                    v = mine + at_trick(h, ws, a3 - mine, b3 - mine)
                            elif even:
                                v = -at_trick(h, ws, -b3, -a3)
                            else:
                                v = at_trick(h, ws, a3, b3)
                            if v > best3:
                                best3 = v
                                if v >= b3:
                                    if c3 != seq3[0] and f3 >= 0:
                                        seq_memo[f3] = (c3, *(x for x in seq3 if x != c3))
                                    break
                                if v > a3:
                                    a3 = v
                        h[s3] = H3
                        v = -best3
                        if v > best2:
                            best2 = v
                            if v >= b2:
                                if c2 != seq2[0] and f2 >= 0:
                                    seq_memo[f2] = (c2, *(x for x in seq2 if x != c2))
                                break
                            if v > a2:
                                a2 = v
                    h[s2] = H2
                    v = -best2
                    if v > best1:
                        best1 = v
                        if v >= b1:
                            if c1 != seq1[0] and f1 >= 0:
                                seq_memo[f1] = (c1, *(x for x in seq1 if x != c1))
                            break
                        if v > a1:
                            a1 = v
                h[s1] = H1
                v = -best1
                if v > best0:
                    best0 = v
                    best_card = c0
                    if v >= b0:
                        break
                    if v > a0:
                        a0 = v
            h[s0] = H0
            best = best0 if even else -best0
            if best_card != seq[0]:
                # the best lead is tried first on the next visit
                seq = (best_card, *(c for c in seq if c != best_card))
            lead_seq[key] = seq
            if best0 >= b0:
                hints[H0 | H2 << 32] = best_card
            if best <= lo:
                if best < ub:
                    tt[key] = lb | best << bsh
            elif best >= hi:
                if best > lb:
                    tt[key] = best | ub << bsh
            else:
                tt[key] = best | best << bsh
            return best

        def in_trick(
            h: list[int],
            seat: int,
            k: int,
            code: int,
            win: int,
            wseat: int,
            tp: int,
            alpha: int,
            beta: int,
            live: int,
        ) -> int:
            """Fail-soft alpha-beta value of team 0's remaining points, ``seat`` to play
            the ``k``-th card of a trick whose cards so far are ``code`` (their
            :func:`trick_code`, shifted left by 32), won by ``win`` of ``wseat``, worth
            ``tp`` points so far."""
            hand = h[seat]
            bw = beats[win]
            partner = (wseat ^ seat) & 1 == 0
            moves = legal_of(hand | code)
            if moves is None:
                moves = ask(h, seat, code >> 32, win, wseat)
            if moves & (moves - 1):
                if moves & zero_mask:
                    moves = prune_equivalent(moves, live)
                if partner:
                    if k == 3:
                        mode = 2
                    elif k == 2:
                        # safe when the last seat cannot take the trick
                        mode = 1 if h[nxt[seat]] & bw else 2
                    else:
                        mode = 1
                else:
                    mode = 0
                seq = order_follow(moves, win, mode)
            else:
                seq = (moves.bit_length() - 1,)
            maxing = seat & 1 == 0
            best = -1 if maxing else INF
            # One loop for every card of the trick; only the last one ends it (set up
            # here once: ``more`` for the last card, ``ns`` and ``k1`` for the others).
            last = k == 3
            if last:
                more = hand & (hand - 1) != 0
            else:
                ns = nxt[seat]
                k1 = k + 1
                code6 = code << 6
            for c in seq:
                if last:
                    # the last card of the trick: its winner and points are immediate
                    ws = seat if bw >> c & 1 else wseat
                    if more:
                        mine = tp + pts[c] if ws & 1 == 0 else 0
                        b = 1 << c
                        h[seat] ^= b
                        v = mine + at_trick(h, ws, alpha - mine, beta - mine)
                        h[seat] ^= b
                    else:
                        v = tp + pts[c] + last_bonus if ws & 1 == 0 else 0
                else:
                    b = 1 << c
                    h[seat] ^= b
                    if bw >> c & 1:
                        v = in_trick(
                            h, ns, k1, code6 | lead_code[c], c, seat, tp + pts[c], alpha, beta, live
                        )
                    else:
                        v = in_trick(
                            h,
                            ns,
                            k1,
                            code6 | lead_code[c],
                            win,
                            wseat,
                            tp + pts[c],
                            alpha,
                            beta,
                            live,
                        )
                    h[seat] ^= b
                if maxing:
                    if v > best:
                        best = v
                        if best >= beta:
                            return best
                        if best > alpha:
                            alpha = best
                elif v < best:
                    best = v
                    if best <= alpha:
                        return best
                    if best < beta:
                        beta = best
            return best

        self._at_trick = at_trick
        self._in_trick = in_trick

    # --- public API -------------------------------------------------------------------------

    def _test(self, hands: list[int], leader: int, trick: Sequence[Card], beta: int) -> int:
        """One fail-soft null-window pass: team 0's points from here, bounded at ``beta``."""
        return self._window(hands, leader, trick, beta - 1, beta)

    def _window(
        self, hands: list[int], leader: int, trick: Sequence[Card], alpha: int, beta: int
    ) -> int:
        """One fail-soft alpha-beta pass over the window ``(alpha, beta)``."""
        k = len(trick)
        if k == 0:
            return self._at_trick(hands, leader, alpha, beta)
        s = leader
        win = trick[0]
        wseat = leader
        tp = 0
        for c in trick:
            if s != leader and self.beats[win] >> c & 1:
                win = c
                wseat = s
            tp += self.points[c]
            s = (s + self.direction) % 4
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            live |= 1 << c
        code = trick_code(trick) << 32
        return self._in_trick(hands, s, k, code, win, wseat, tp, alpha, beta, live)

    def remaining_points(self, hands: Sequence[int], trick: Sequence[Card] = ()) -> int:
        """Every point still to be won: the cards in hands and in the trick, and the
        last trick's bonus."""
        total = self.last_trick
        for h in hands:
            for c in cards_of(h):
                total += self.points[c]
        for c in trick:
            total += self.points[c]
        return total

    def value(
        self,
        hands: Sequence[CardSet],
        leader: int,
        trick: Sequence[Card] = (),
        team: int = 0,
        guess: int | None = None,
    ) -> int:
        """The exact card points ``team`` wins from here (current trick included), with
        best play by both teams.

        ``hands`` are the cards each seat still holds; ``trick`` the cards already played
        to the current trick, in play order, the first by ``leader``.
        """
        h = list(hands)
        self._check(h, leader, trick)
        total = self.remaining_points(h, trick)
        if guess is not None and team == 1:
            guess = total - guess
        v = self._solve(h, leader, trick, total, guess)
        return v if team == 0 else total - v

    def _solve(
        self, h: list[int], leader: int, trick: Sequence[Card], total: int, guess: int | None
    ) -> int:
        """Team 0's exact value by null-window passes: first at the guess and next to
        it (MTD(f)), then bisecting the bracket."""
        lower, upper = 0, total
        g = guess if guess is not None else total // 2
        n = 0
        while lower < upper:
            if guess is not None and n < 2:
                beta = g if g > lower else lower + 1
                if beta > upper:
                    beta = upper
            else:
                beta = (lower + upper + 1) // 2
            g = self._test(h, leader, trick, beta)
            n += 1
            if g >= beta:
                lower = g
            else:
                upper = g
        self.passes += n
        return lower

    def at_least(
        self, hands: Sequence[CardSet], leader: int, trick: Sequence[Card], team: int, target: int
    ) -> bool:
        """Whether ``team`` surely wins at least ``target`` points from here (one
        null-window search: cheaper than the exact value)."""
        h = list(hands)
        self._check(h, leader, trick)
        if team == 0:
            return self._test(h, leader, trick, target) >= target
        total = self.remaining_points(h, trick)
        # team 1 gets >= target  <=>  team 0 gets <= total - target  <=>  not (>= total-target+1)
        return self._test(h, leader, trick, total - target + 1) < total - target + 1

    def move_values(
        self,
        hands: Sequence[CardSet],
        leader: int,
        trick: Sequence[Card] = (),
        moves: Iterable[Card] | None = None,
        team: int | None = None,
    ) -> dict[Card, int]:
        """The exact value of each legal card of the seat to play: the points its team
        (or ``team``) wins from here, current trick included, after playing it."""
        h = list(hands)
        self._check(h, leader, trick)
        seat = (leader + len(trick) * self.direction) % 4
        if team is None:
            team = seat & 1
        if moves is None:
            moves = cards_of(self.legal(h, leader, trick))
        out: dict[Card, int] = {}
        guess: int | None = None
        for c in moves:
            h2 = list(h)
            h2[seat] &= ~(1 << c)
            t2 = [*trick, c]
            if len(t2) == 4:
                _, win_seat = self._winner(leader, t2)
                pts = sum(self.points[x] for x in t2)
                if not any(h2):
                    pts += self.last_trick
                    rest = 0
                else:
                    rest = self.value(h2, win_seat, (), team)
                out[c] = rest + (pts if win_seat & 1 == team else 0)
            else:
                out[c] = self.value(h2, leader, t2, team, guess)
            guess = out[c]
        return out

    def _winner(self, leader: int, trick: Sequence[Card]) -> tuple[Card, int]:
        """The winning card and seat of a non-empty ``trick`` led by ``leader``."""
        win = trick[0]
        wseat = leader
        s = leader
        for c in trick[1:]:
            s = (s + self.direction) % 4
            if self.beats[win] >> c & 1:
                win = c
                wseat = s
        return win, wseat

    def _check(self, hands: list[int], leader: int, trick: Sequence[Card]) -> None:
        if len(hands) != 4:
            raise ValueError(f"the solver needs 4 hands, not {len(hands)}")
        if not 0 <= leader < 4:
            raise ValueError(f"the leader is a seat 0..3, not {leader}")
        if not 0 <= len(trick) < 4:
            raise ValueError(f"the current trick holds 0 to 3 cards, not {len(trick)}")
        sizes = []
        s = leader
        for i in range(4):
            sizes.append(hands[s].bit_count() + (1 if i < len(trick) else 0))
            s = (s + self.direction) % 4
        if len(set(sizes)) != 1:
            raise ValueError(
                "the hands do not fit the trick: every seat must hold as many cards as the "
                "others once the cards of the current trick are given back"
            )
        seen = 0
        for m in [*hands, *(1 << c for c in trick)]:
            if seen & m:
                raise ValueError("a card is in two hands (or in a hand and the trick)")
            seen |= m

    def set_deadline(self, when: float) -> None:
        """Abort searches (:class:`SearchTimeout`) once ``time.perf_counter()`` passes
        ``when``; 0 for no deadline."""
        self.deadline.when = when

    @property
    def nodes(self) -> int:
        """How many trick-start positions the searches expanded so far."""
        return self.deadline.count

    def clear(self) -> None:
        """Forget the transposition table (it only grows while the solver lives)."""
        self.tt.clear()
        self._build()
