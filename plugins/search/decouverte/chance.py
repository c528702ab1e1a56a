"""The exact chance-aware solver of a real Découverte position (:class:`ChanceSolver`,
:func:`expectimax_value`): expectiminimax over the turns of the face-down cards, with
Star1/Star2 pruning; and the utilities it maximises (:func:`points_utility`,
:func:`score_utility`)."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import replace

from atout.core import Contract
from atout.core import Engine
from atout.core import Rules
from atout.core.cards import SUIT_MASKS
from atout.core.cards import cards_of

from ..rules import INF
from ..rules import DealPoints
from ..rules import deal_outcome
from ..rules import default_engine
from ..rules import window
from .alphabeta import TrickSearch
from .alphabeta import proven
from .known import KnownSolver
from .known import solve_known
from .position import GAME
from .position import Position
from .position import Tables
from .position import tables_for
from .position import to_move

NodeSearch = Callable[[int, int, int, int, int, int, bool, bool, float, float], float]
"""``node(hL, hF, leader, pool, base, R, drawL, drawF, alpha, beta)``: a chance-search
position between tricks, the turns of the face-down cards ``drawL``/``drawF`` pending."""
LeadSearch = Callable[[int, int, int, int, int, int, int, float, float], float]
"""``lead(hL, hF, leader, card, pool, base, R, alpha, beta)``: the value of a lead."""


# --- the exact chance-aware solver (expectiminimax) ---------------------------------------


def points_utility(total: int = 162) -> list[float]:
    """The utility whose expectation is the taker's expected card points, in a deal worth
    ``total``."""
    return [float(x) for x in range(total + 1)]


def score_utility(
    total: int = 162,
    rules: Rules | None = None,
    decl: Sequence[int] = (0, 0),
    belote: Sequence[int] = (0, 0),
    engine: Engine | None = None,
    contract: Contract | None = None,
) -> list[float]:
    """The taker's deal score minus the opponent's, by the taker's final card points
    ``x`` in a deal worth ``total`` (162; 130 without a trump suit).

    Under the default rules (``rules`` ``None``): made (more than the opponent: 82 or
    more of 162), ``x - (total - x)``; failed, the opponent scores all ``total``.  Its
    expectation is what the score sheet gains in a deal, so a search that maximises it
    plays for the contract near the boundary: one point across 81/82 is worth 164 on the
    sheet.  With the deal's ``rules`` and the declarations already known (``decl``, the
    taker's and the opponent's, ``belote`` of them belote-rebelote), the deal is scored
    as the game scores it (:func:`~atout.plugins.search.rules.deal_outcome`: a pack's capot bonus, the
    declarations moving the contract's threshold), by the game of ``rules``, under
    ``contract`` when given (its value and level, for a game whose scoring reads them:
    Découverte Coinche), the taker being seat 0.
    """
    if rules is None:
        rules = default_engine(engine).default_rules(GAME)
    taken = None if contract is None else replace(contract, taker=0)
    return [
        deal_outcome(rules, rules.game, 0, 0, DealPoints(x, decl, total, belote), engine, taken)[1]
        for x in range(total + 1)
    ]


class ChanceSolver:
    """Exact expectiminimax of a real Découverte position (face-down cards unknown).

    The value of a position is the expectation of ``utility[taker's final card points]``
    when the taker maximises it and the opponent minimises it, the face-down cards being
    drawn uniformly from the pool as their covers leave.  Internally every node returns
    the value seen by the player to move (negamax: the taker's expectation, negated for
    the opponent).  ``tt`` maps a position between tricks (both hands, the pool, the
    leader, the turns still pending, and the taker's points so far unless the utility is
    the plain points) to bounds and the best lead; positions without unknown cards go to
    one shared :class:`KnownSolver`.  One solver serves one deal: its covers never change.
    """

    def __init__(
        self,
        tables: Tables,
        covers: int,
        taker: int,
        utility: Sequence[float] | None = None,
    ) -> None:
        self.tables = tables
        self.covers = covers
        self.taker = taker
        self.linear = utility is None
        self.utility: list[float] = (
            list(utility) if utility is not None else points_utility(tables.deal.cards.total)
        )
        self.reveal_on_lead = tables.deal.reveal_on_lead
        self.known = KnownSolver(tables)
        self.core = TrickSearch(tables, covers, self.known.deadline)
        self.deadline = self.core.deadline
        self.tt: dict[int, tuple[float, float, int]] = {}
        self.node: NodeSearch
        self.lead: LeadSearch
        self.node, self.lead = self._make_search()

    def _make_search(self) -> tuple[NodeSearch, LeadSearch]:
        t = self.tables
        pts = t.pts
        beats = t.beats
        lead_order = self.core.leads
        replies = self.core.replies
        cov0 = self.covers
        taker = self.taker
        U = self.utility
        linear = self.linear
        reveal = self.reveal_on_lead
        exact = self.known.value
        tick = self.deadline.tick
        tt = self.tt
        tt_get = tt.get

        # The table (``tt``): a position between tricks -> (lo, hi, best lead).  Its key
        # holds both hands, the pool, the leader (bit 96), the turns still pending (bits
        # 97 and 98: a chance node, see ``turn``) and, unless the utility is linear, the
        # points won so far (from bit 99).  The bounds are the taker's, less ``base``
        # when the utility is linear (so that one entry serves every past); ``recall``
        # reads them and the end of ``node`` writes them.  (``node`` and ``probe`` build
        # the key inline: a helper call there costs ~2% of the search.)

        def recall(e: tuple[float, float, int], L: int, base: int) -> tuple[float, float, int]:
            """The table's entry ``e`` in the view of ``L``: its bounds and best lead."""
            tlo, thi, bm = e
            if linear:
                tlo += base
                thi += base
            if taker != L:
                return -thi, -tlo, bm
            return tlo, thi, bm

        def node(
            hL: int,
            hF: int,
            L: int,
            pool: int,
            base: int,
            R: int,
            dL: bool,
            dF: bool,
            alpha: float,
            beta: float,
        ) -> float:
            """A position between tricks, ``L`` to lead, once the face-down cards of the
            covers that left in the last trick are turned (``dL``: the leader's, ``dF``:
            the follower's; while one is pending this is a chance node, see ``turn``):
            its value for ``L``.  Trick starts and chance nodes share the table's
            bounds, its tightening and its store (with the best lead at trick starts)."""
            if not pool:
                s = 1.0 if taker == L else -1.0
                if not hL:
                    return s * U[base]
                f = exact(hL, hF, 0, L, R)
                return s * U[base + (f if taker == L else R - f)]
            drawing = dL or dF
            if drawing and pool.bit_count() == 1:
                if dL:
                    return node(hL | pool, hF, L, 0, base, R, False, False, alpha, beta)
                return node(hL, hF | pool, L, 0, base, R, False, False, alpha, beta)
            # The bounds of any value here: all the points left lost, or all won.
            if taker == L:
                slo, shi = U[base], U[base + R]
            else:
                slo, shi = -U[base + R], -U[base]
            if alpha >= shi:
                return shi
            if beta <= slo:
                return slo
            lo = slo
            hi = shi
            # A chance node is met again under other windows: its bounds are kept too.
            key = hL | hF << 32 | pool << 64 | L << 96
            if drawing:
                key |= dL << 97 | dF << 98
            if not linear:
                key |= base << 99
            e = tt_get(key)
            bm = -1
            if e is not None:
                tlo, thi, bm = recall(e, L, base)
                if tlo > lo:
                    lo = tlo
                if thi < hi:
                    hi = thi
                cut, alpha, beta = window(lo, hi, alpha, beta)
                if cut is not None:
                    return cut
            a0 = alpha
            if drawing:
                best = turn(hL, hF, L, pool, base, R, dL, dF, -1, alpha, beta, slo, shi)
                best_move = -1
            else:
                tick()
                best = -INF
                best_move = -1
                # The table's best lead first: often enough for a cutoff, before the
                # other leads are even generated.
                for c in lead_order(hL, hF, hL | hF | pool, bm):
                    v = lead(hL, hF, L, c, pool, base, R, alpha, beta)
                    if v > best:
                        best = v
                        best_move = c
                        if best >= beta:
                            break
                        if best > alpha:
                            alpha = best
            lo, hi = proven(best, a0, beta, lo, hi)
            if taker != L:
                lo, hi = -hi, -lo
            if linear:
                lo -= base
                hi -= base
            tt[key] = (lo, hi, best_move)
            return best

        def lead(
            hL: int,
            hF: int,
            L: int,
            c: int,
            pool: int,
            base: int,
            R: int,
            alpha: float,
            beta: float,
        ) -> float:
            """The leader's value of leading ``c``."""
            if cov0 >> c & 1:
                if reveal:
                    return lead_draw(hL ^ (1 << c), hF, L, c, pool, base, R, alpha, beta)
                return respond(hL ^ (1 << c), hF, L, c, True, pool, base, R, alpha, beta)
            return respond(hL ^ (1 << c), hF, L, c, False, pool, base, R, alpha, beta)

        def lead_draw(
            hL2: int,
            hF: int,
            L: int,
            c: int,
            pool: int,
            base: int,
            R: int,
            alpha: float,
            beta: float,
        ) -> float:
            """``reveal_on_lead``: the led card's face-down card is drawn before the answer."""
            if pool.bit_count() == 1:
                return respond(hL2 | pool, hF, L, c, False, 0, base, R, alpha, beta)
            # The bounds of any outcome (as in node).
            if taker == L:
                lo, hi = U[base], U[base + R]
            else:
                lo, hi = -U[base + R], -U[base]
            return turn(hL2, hF, L, pool, base, R, True, False, c, alpha, beta, lo, hi)

        def respond(
            hL2: int,
            hF: int,
            L: int,
            c: int,
            drawL: bool,
            pool: int,
            base: int,
            R: int,
            alpha: float,
            beta: float,
        ) -> float:
            """After the lead ``c``: the follower answers; the value for the leader."""
            F = 1 - L
            bc = beats[c]
            pc = pts[c]
            worst: float = INF
            for r in replies(hF, c, hL2 | hF | pool | 1 << c):
                hF2 = hF ^ (1 << r)
                drawF = cov0 >> r & 1 == 1
                p = pc + pts[r]
                if not (hL2 | hF2 | pool):
                    p += R - pc - pts[r]  # the last trick: its cards and the bonus
                R2 = R - p
                b = beta if beta < worst else worst
                if bc >> r & 1:
                    v = -node(
                        hF2,
                        hL2,
                        F,
                        pool,
                        base + p if taker == F else base,
                        R2,
                        drawF,
                        drawL,
                        -b,
                        -alpha,
                    )
                else:
                    v = node(
                        hL2,
                        hF2,
                        L,
                        pool,
                        base + p if taker == L else base,
                        R2,
                        drawL,
                        drawF,
                        alpha,
                        b,
                    )
                if v < worst:
                    worst = v
                    if worst <= alpha:
                        break
            return worst

        def turn(
            hW: int,
            hO: int,
            W: int,
            pool: int,
            base: int,
            R: int,
            dW: bool,
            dO: bool,
            led: int,
            alpha: float,
            beta: float,
            lo: float,
            hi: float,
        ) -> float:
            """A chance node: the mean value for ``W`` over the cards of ``pool`` a turn
            may show (each as likely), each outcome's value known to lie in [lo, hi].

            The turn is the face-down card of the led card ``led`` (``reveal_on_lead``;
            each outcome is then answered, ``respond``), or, ``led`` being -1, at
            the end of a trick won by ``W``, the winner's (``dW``) or the other's
            (``dO``); when both turn, the winner's first, each outcome being a chance
            node of the other's.  Star1 prunes every kind: once the outcomes seen and
            the bounds of the rest decide the mean against the window, it stops.  A
            trick's last turn is Star2: each outcome is first probed with its first
            lead only (a lower bound: its leader may do better), which may already
            reach beta, and the lower bounds then tighten Star1.
            """
            n = pool.bit_count()
            total = 0.0
            na = n * alpha
            nb = n * beta
            rest = n
            xs = cards_of(pool)
            # g: each outcome's lower bound (Star2), rem_g: those of the outcomes to come.
            g: list[float] | None = None
            rem_g = 0.0
            if led < 0 and not (dW and dO):
                g = [lo] * n
                rem_g = n * lo
                if nb < n * hi:
                    got = 0.0
                    for i, x in enumerate(xs):
                        xb = 1 << x
                        rest -= 1
                        ap = na - got - rest * hi
                        bp = nb - got - rest * lo
                        if dW:
                            v = probe(hW | xb, hO, W, pool ^ xb, base, R, lo, ap, bp)
                        else:
                            v = probe(hW, hO | xb, W, pool ^ xb, base, R, lo, ap, bp)
                        if v > ap and v > lo:
                            g[i] = v
                        got += g[i]
                        if got + rest * lo >= nb:
                            return (got + rest * lo) / n
                    rem_g = got
                    rest = n
            for i, x in enumerate(xs):
                xb = 1 << x
                rest -= 1
                if g is None:
                    rem_g = rest * lo
                else:
                    rem_g -= g[i]
                a = na - total - rest * hi
                b = nb - total - rem_g
                if led >= 0:
                    v = respond(hW | xb, hO, W, led, False, pool ^ xb, base, R, a, b)
                elif dW:
                    v = node(hW | xb, hO, W, pool ^ xb, base, R, False, dO, a, b)
                else:
                    v = node(hW, hO | xb, W, pool ^ xb, base, R, False, False, a, b)
                total += v
                if total + rest * hi <= na:
                    return (total + rest * hi) / n
                if total + rem_g >= nb:
                    return (total + rem_g) / n
            return total / n

        def probe(
            hL: int,
            hF: int,
            L: int,
            pool: int,
            base: int,
            R: int,
            lo: float,
            alpha: float,
            beta: float,
        ) -> float:
            """A lower bound of ``node(...)`` (turns done) from its first lead alone (or
            from the table), searched within (alpha, beta); ``lo`` when it proves
            nothing (``lo``: the least value of any position, see ``node``)."""
            if not pool:
                return node(hL, hF, L, pool, base, R, False, False, alpha, beta)
            key = hL | hF << 32 | pool << 64 | L << 96  # node's key, no turn pending
            if not linear:
                key |= base << 99
            e = tt_get(key)
            bm = -1
            if e is not None:
                tlo, thi, bm = recall(e, L, base)
                if tlo > lo:
                    lo = tlo
                if lo >= beta or tlo == thi:
                    return lo
            if bm < 0:
                bm = next(lead_order(hL, hF, hL | hF | pool, -1))
            v = lead(hL, hF, L, bm, pool, base, R, alpha, beta)
            return v if v > alpha and v > lo else lo

        return node, lead

    # --- roots ---------------------------------------------------------------------------

    def _root(self, pos: Position) -> tuple[int, int, int, int, int]:
        if pos.under:
            raise ValueError("the chance solver takes unknown face-down cards (covers and pool)")
        L = pos.leader
        return pos.hands[L], pos.hands[1 - L], L, pos.points[self.taker], pos.points_left

    def move_values(self, pos: Position, window: bool = True) -> dict[int, float]:
        """The value of each playable card for the player to move (the taker's expected
        utility, negated for the opponent).

        With ``window`` (the default) only the best card's value is exact: each other
        card is first tested against the best so far with a null window ("is it
        better?") and searched exactly only when it is; the values of cards that are not
        better are upper bounds, which is all a choice needs, kept a hair below the best
        value found before them: a fail-soft bound often equals that value, and a card
        no better than the best must not tie with it (a choice among ties could take
        the worse card).  Equivalent cards get their representative's value.
        """
        hL, hF, _, _, _ = self._root(pos)
        t = self.tables
        pool = pos.pool
        covers = self.covers
        mover_hand = pos.hands[to_move(pos)]
        if pos.led is None:
            cands = t.may_lead(hL)
            reps = t.merge(cands, ~covers, hL | hF | pool)
            moves = list(t.leads(reps, hF))
        else:
            cands = t.follow(mover_hand, pos.led)
            reps = t.merge(cands, ~covers, hL | hF | pool | 1 << pos.led)
            moves = list(cards_of(reps))

        def search(m: int, alpha: float, beta: float) -> float:
            return self.card_value(pos, m, alpha, beta)

        out: dict[int, float] = {}
        best: float = -INF
        for m in moves:
            if best == -INF or not window:
                v = search(m, -INF, INF)
            else:
                eps = 1e-9 * (1.0 + abs(best))
                v = search(m, best, best + eps)
                v = search(m, v, INF) if v > best else min(v, best - eps)
            out[m] = v
            best = max(best, v)
        # Equivalent cards share their representative's value.
        for c in cards_of(cands & ~reps):
            out[c] = out[_representative(c, reps, t, pos)]
        return out

    def card_value(self, pos: Position, card: int, alpha: float = -INF, beta: float = INF) -> float:
        """The value of playing the legal ``card`` in ``pos`` for the player to move
        (as :meth:`move_values`), searched within (``alpha``, ``beta``): exact inside
        the window, else a bound on the side it fails (fail-soft).  One card's value
        when only it is asked (the review's "was the contract settled by this card?")."""
        hL, hF, L, base, R = self._root(pos)
        if pos.led is None:
            return float(self.lead(hL, hF, L, card, pos.pool, base, R, alpha, beta))
        return self._answer_root(pos, card, base, R, alpha, beta)

    def _answer_root(
        self, pos: Position, r: int, base: int, R: int, alpha: float, beta: float
    ) -> float:
        """The follower's value (window ``alpha``, ``beta``) of answering ``r`` to the
        led card of ``pos``."""
        pts = self.tables.pts
        taker = self.taker
        L = pos.leader
        F = 1 - L
        c = pos.led
        assert c is not None
        hL = pos.hands[L]
        hF2 = pos.hands[F] ^ (1 << r)
        pool = pos.pool
        drawL = self.covers >> c & 1 == 1
        drawF = self.covers >> r & 1 == 1
        p = pts[c] + pts[r]
        if not (hL | hF2 | pool):
            p = R
        R2 = R - p
        if self.tables.beats[c] >> r & 1:
            return float(
                self.node(
                    hF2,
                    hL,
                    F,
                    pool,
                    base + p if taker == F else base,
                    R2,
                    drawF,
                    drawL,
                    alpha,
                    beta,
                )
            )
        return -float(
            self.node(
                hL, hF2, L, pool, base + p if taker == L else base, R2, drawL, drawF, -beta, -alpha
            )
        )

    def value(self, pos: Position) -> float:
        """The exact value of ``pos``: the expectation of the taker's utility."""
        vals = self.move_values(pos)
        best = max(vals.values())
        mover = pos.leader if pos.led is None else 1 - pos.leader
        return best if mover == self.taker else -best


def _representative(c: int, reps: int, t: Tables, pos: Position) -> int:
    """The kept card of ``c``'s group of equivalent cards: the nearest weaker kept card
    of its suit."""
    suit = c >> 3
    strength = t.strength
    best, best_s = -1, -1
    for r in cards_of(reps & SUIT_MASKS[suit]):
        s = strength[r]
        if s < strength[c] and s > best_s:
            best, best_s = r, s
    return best


def expectimax_value(pos: Position, utility: Sequence[float] | None = None) -> float:
    """The exact expected final card points of the taker (won so far plus the rest)
    under optimal play by both, the unknown face-down cards turning as chance.

    With ``utility`` (a list indexed by the taker's final card points), the expectation
    of that utility instead.  A fully known position (no pool) is solved exactly.
    """
    if not pos.pool and not pos.covers:
        v = solve_known(pos)
        return float(v) if utility is None else utility[v]
    solver = ChanceSolver(tables_for(pos.rules), pos.covers, pos.taker, utility)
    return solver.value(pos)
