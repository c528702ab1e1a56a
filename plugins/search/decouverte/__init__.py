"""Search for Belote Découverte: exact solvers, sampling, and the benchmark's positions.

One module a job: :mod:`.position` (the rules of a deal, its tables, positions and
stepping them), :mod:`.alphabeta` (the search core of both exact solvers), :mod:`.known`
(the solver of a known layout), :mod:`.chance` (the chance-aware solver), :mod:`.policy`
(the playout policy), :mod:`.sampling` (perfect-information Monte Carlo) and
:mod:`.fixtures` (the benchmark's positions).  This package re-exports their public names.

**The rules searched are the rules in force.**  Nothing here copies a rule of the game.
Every position carries its deal's rules (:class:`DealRules`), which the engine compiles
once per deal from the rule plugins (:meth:`atout.core.Engine.play_rules`, read through
:class:`~atout.plugins.search.rules.CardRules`): the move rule that says which cards are
legal, the trick-winner table, the card values and the last trick's bonus.  So a contract
a plugin defines (the example plugin's sans-atout and tout-atout) and a house rule that
changes an obligation are searched exactly as the engine plays them.

* **Legal cards** are the move rule's answers on a scratch :class:`~atout.core.DealState`
  holding the seat's hand and the led card (:meth:`Tables.follow`, :meth:`Tables.may_lead`).
  When the rule says it is trick-local (:attr:`~atout.core.model.MoveRule.trick_local`:
  it reads only the seat's hand, the trick and the teams; the shipped ``BeloteMoves`` is)
  its answers are remembered by hand and trick; otherwise it is asked every time.  A rule
  without a free lead (:attr:`~atout.core.model.MoveRule.free_lead` false) is asked for
  the leads too.
* **Trick winner and points** are the compiled table and values; the strength of a card
  within its suit and the trumps are derived from the table, and a deal's total (162, or
  130 for a contract of the shipped game that names no trump) from the values.
* **When a face-down card turns** is the structure of Découverte, not a play rule: at the
  end of the trick by default, and at once for the led card under the game's option
  ``reveal_on_lead``, which :class:`DealRules` reads from the deal's rule options (the
  only option the search reads itself).
* **Equivalent cards** (:meth:`Tables.merge`) assume the move rule treats alike two cards
  of one suit that no card still in play separates and that are worth the same: true of
  every rule decided by suits and by which card beats which (Belote's obligations, the
  example's contracts).

Découverte is a perfect-information game with chance: both players see every face-up
card, and the face-down cards are unknown to both (even to their owner) until the card
above them leaves.  The face-down cards still unseen form a public *pool*; given what
the players have seen, every assignment of the pool to the covered places is equally
likely, whoever played what (no player ever knew more than the other).  So:

* :class:`TrickSearch` is the **one search core** both exact solvers run on: the trick
  as they search it (a lead, then the answer, in one frame), with the move generation
  and ordering (the table's best lead, tried before the others are even generated; then
  leads the opponent cannot beat, richest first; then the cheapest; answers: winning
  ones richest first, then the cheapest; equivalent cards merged), the time limit, and
  the bounds a fail-soft result proves (:func:`proven`).  What is left to each solver is
  what differs: what follows a trick and what a value means.
* :class:`KnownSolver` solves a **fully known layout** (every face-down card known, as
  in a sampled layout or an analysis): fail-soft alpha-beta over whole tricks, a
  transposition table of value bounds keyed on the two hands and the leader, and the
  last two tricks solved outright.  The driver is MTD(f): null-window searches ("is the
  value at least v?") sharing the table.
* :class:`ChanceSolver` solves a **real position** exactly: expectiminimax whose chance
  nodes are the turns of face-down cards (a covering card leaves: the card beneath is
  drawn uniformly from the pool, without replacement; at the end of the trick, or at
  once for the leader under ``reveal_on_lead``).  Chance nodes are pruned with Ballard's
  Star1 (the bounds come from the card points still in play) and Star2 (each outcome is
  first probed with its best lead, a lower bound), positions between tricks and turns
  are memoized with their bounds, and a position whose pool is empty goes to one shared
  :class:`KnownSolver`.  It maximises the expectation of a *utility* of the taker's
  final card points: the points themselves (the benchmark's value), or the score sheet
  of the deal (:func:`score_utility`: what the bot plays for, so that the contract's
  boundary weighs what it weighs on the sheet).
* Before the last tricks, :func:`sampled_values` scores moves by perfect-information
  Monte Carlo: layouts drawn from the pool (:func:`determinize`), each solved exactly
  once few enough tricks remain and played by the fast :class:`Policy` until then; the
  samples may race the moves (:func:`race`), the moves proved worse sampled no more.

The solvers run on a lean state of a few ints: the face-up cards of the leader and of
the follower (card masks, :mod:`atout.core.cards`), the face-down cards, and the points.
:class:`Position` is the public form of that state, and :func:`successors` steps it (the
tests check both against the engine, with the shipped rules and with plugins).

Entry points for the benchmark (``atout bench``):

* :func:`known_positions` (seed, n; default 50 layouts with 8 tricks left) and
  :func:`solve_known` (a position -> the taker's final card points under optimal play);
* :func:`chance_positions` (seed, n; default 30 real positions with 7 tricks left) and
  :func:`expectimax_value` (a position -> the taker's expected final card points).

Both sets come from random deals (random trump, taker and first leader) played on by
random legal cards, under the rules an ``Engine()`` compiles for a default Découverte deal
of that contract (:func:`~atout.plugins.search.rules.default_engine`): they depend only on the seed as long as no
installed plugin changes the default game.
"""

from __future__ import annotations

from ..rules import Value
from .alphabeta import NOTHING_FLAT
from .alphabeta import TrickSearch
from .alphabeta import flat_below
from .alphabeta import proven
from .alphabeta import shift_flat
from .chance import ChanceSolver
from .chance import LeadSearch
from .chance import NodeSearch
from .chance import expectimax_value
from .chance import points_utility
from .chance import score_utility
from .fixtures import chance_positions
from .fixtures import deal
from .fixtures import known_positions
from .fixtures import random_play
from .fixtures import time_solvers
from .known import KnownSearch
from .known import KnownSolver
from .known import solve_known
from .policy import Policy
from .policy import playout
from .position import CACHE_LIMIT
from .position import CLOCK_EVERY
from .position import GAME
from .position import TRICKS
from .position import DealRules
from .position import Position
from .position import Tables
from .position import deal_rules
from .position import hide
from .position import legal_cards
from .position import play_known
from .position import successors
from .position import tables_for
from .position import to_move
from .sampling import determinize
from .sampling import outcomes
from .sampling import race
from .sampling import sampled_values
from .sampling import survivors

__all__ = [
    "CACHE_LIMIT",
    "CLOCK_EVERY",
    "GAME",
    "NOTHING_FLAT",
    "TRICKS",
    "ChanceSolver",
    "DealRules",
    "KnownSearch",
    "KnownSolver",
    "LeadSearch",
    "NodeSearch",
    "Policy",
    "Position",
    "Tables",
    "TrickSearch",
    "Value",
    "chance_positions",
    "deal",
    "deal_rules",
    "determinize",
    "expectimax_value",
    "flat_below",
    "hide",
    "known_positions",
    "legal_cards",
    "outcomes",
    "play_known",
    "playout",
    "points_utility",
    "proven",
    "race",
    "random_play",
    "sampled_values",
    "score_utility",
    "shift_flat",
    "solve_known",
    "successors",
    "survivors",
    "tables_for",
    "time_solvers",
    "to_move",
]
