"""The hooks through which rule plugins tell the engine every rule.

The engine knows phases (deal, bidding, declarations, play, scoring, the match) and asks
these hooks for every rule.  Every hook is called with keyword arguments.  Each game-rule
hook receives ``game`` (the game's name) and answers ``None`` when the game is not its
own, so that several games' plugins live side by side.

Hooks come in three kinds, as in pytest:

* **firstresult** hooks have one answer: the first plugin (last registered first) that
  answers non-``None`` decides.  A house-rule plugin can override a game plugin by
  answering first, or adjust its answer with a ``wrapper=True`` hook implementation.
* **merged** hooks collect a list from every plugin (registrations, declarations).
* The per-card rules are asked **once per deal** and answered with plain functions and
  tables (:class:`~atout.core.model.MoveRule`, a ranking table, card values), which the
  play loop then calls without going through the plugin manager: "pluggy at the seams,
  plain code in the loops".
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING
from typing import Any

import pluggy

if TYPE_CHECKING:
    from .model import BiddingStep
    from .model import BidInfo
    from .model import BotInfo
    from .model import CardPlayed
    from .model import CardValues
    from .model import Contract
    from .model import DealScore
    from .model import DealScorer
    from .model import Declaration
    from .model import EndOfTrick
    from .model import GameInfo
    from .model import Layout
    from .model import MatchResult
    from .model import MoveRule
    from .model import RuleOption
    from .model import Rules
    from .state import DealState

PROJECT = "atout"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# --- registration (merged) -----------------------------------------------------------


@hookspec
def atout_games() -> list[GameInfo] | None:
    """Register games.

    :return: the :class:`~atout.core.model.GameInfo` of each game the plugin provides.

    Merged: every plugin's list is collected.  Called once when the engine starts; a name
    given by two plugins is an error.
    """


@hookspec
def atout_rule_options(game: str) -> list[RuleOption] | None:
    """Declare the switches that a house-rule pack may set for ``game``.

    :param game: the game being configured.
    :return: one :class:`~atout.core.model.RuleOption` per switch, with its default.

    Merged: every plugin adds its own options (a house-rule plugin adds the switches it
    reads).  Called when packs are resolved and checked; a key given twice is an error.
    """


@hookspec
def atout_bots() -> list[BotInfo] | None:
    """Register bots.

    :return: a :class:`~atout.core.model.BotInfo` per bot: its name, games and factory.

    Merged.  Called when a front end or the benchmark looks a bot up by name.
    """


# --- dealing ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def atout_deal(
    game: str,
    rules: Rules,
    dealer: int,
    rng: random.Random,
    previous: DealState | None,
) -> Layout | None:
    """Deal the cards at the start of a deal.

    :param dealer: the seat that deals.
    :param rng: the match's own seeded random source; every random choice (shuffle, cut)
        comes from it so that a seed repeats a match.
    :param previous: the last deal of the match (played out or passed out), whose cards
        a gather-and-cut rule collects; ``None`` for the first deal.
    :return: the :class:`~atout.core.model.Layout` of the cards.

    firstresult.  Called by the engine when a deal starts, and again after a redeal.
    """


@hookspec(firstresult=True)
def atout_complete_deal(game: str, rules: Rules, state: DealState) -> bool | None:
    """Finish dealing once the bidding is over (e.g. the taker receives the turn-up).

    Mutates ``state.hands`` and ``state.stock``.

    :return: ``True`` when handled.

    firstresult.  Called by the engine once, right after the contract is set.
    """


@hookspec(firstresult=True)
def atout_next_dealer(game: str, rules: Rules, state: DealState, redeal: bool) -> int | None:
    """Say who deals the next deal.

    :param state: the deal just finished (scored), or passed out when ``redeal``.
    :param redeal: ``True`` when everybody passed and the cards are dealt again.
    :return: the next dealer's seat.

    firstresult.  Called by the match after every deal and every redeal.
    """


# --- checking hand-written data (merged) -----------------------------------------------


@hookspec
def atout_check_layout(
    game: str, rules: Rules, layout: Layout, dealer: int, bidding: bool
) -> str | None:
    """Say what is wrong with a layout that a record (a file, possibly written by hand)
    gives, by the rules of ``game``, before the engine deals from it.

    :param layout: the record's layout; the engine has already checked that every card
        is there exactly once and that there is one hand per seat.
    :param dealer: the record's dealer.
    :param bidding: ``True`` when the deal starts at the bidding (no ``start`` position),
        so the proposed card, if the game has one, must be where the game puts it.
    :return: one line saying what is wrong (the engine names the file and the key), or
        ``None`` when the layout is one the game can deal.

    Merged: every plugin may object; the first objection is reported as a
    :class:`~atout.core.errors.RecordError` (the record is blamed, not the plugin).  An
    exception raised here is still the plugin's failure.  Called when a deal record is
    read, never for a deal the engine dealt itself.
    """


@hookspec
def atout_check_carry_in(game: str, rules: Rules, carry_in: Any) -> str | None:
    """Say what is wrong with the points a record says were held over from the previous
    deal (``carry_in``: abeyance, litige), by the rules of ``game``.

    :param carry_in: the record's ``carry_in``, never ``None``: plain JSON values whose
        numbers the engine has already checked to be finite and of bounded size.
    :return: one line saying what is wrong, or ``None`` when the game can score a deal
        with it.

    Merged: as :func:`atout_check_layout`; a game without points held over answers that
    it has none.  Called when a deal record is read.
    """


# --- bidding ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def atout_bid_options(game: str, rules: Rules, state: DealState) -> list[str] | None:
    """List the bids the seat to act (``state.turn``) may make now.

    :return: bid texts, e.g. ``["take", "pass"]`` or ``["C", "D", "S", "pass"]``.

    firstresult.  Called by the engine before every bid (validating it) and by front ends.
    """


@hookspec(firstresult=True)
def atout_bidding_step(game: str, rules: Rules, state: DealState) -> BiddingStep | None:
    """Decide what follows the bid just made (the last of ``state.bids``).

    :return: a :class:`~atout.core.model.BiddingStep`: the next bidder, the contract, or
        a redeal.

    firstresult.  Called by the engine after every bid.
    """


@hookspec(firstresult=True)
def atout_describe_bid(game: str, rules: Rules, bid: str) -> BidInfo | None:
    """Say what a bid text of ``game`` means, in parts a front end can lay out and say in
    a person's language without knowing the game.

    :param bid: a bid text, as ``atout_bid_options`` offers it and records keep it.
    :return: a :class:`~atout.core.model.BidInfo` (its kind: pass, contract, double,
        redouble; a contract's value, capot and strain), or ``None`` when the game gives
        no description: the engine then answers ``pass`` for ``"pass"`` and ``other``
        for any other text (:meth:`atout.core.engine.Engine.describe_bid`).

    firstresult.  Called by front ends (the terminal's prompt and words, the window's
    auction panel) and bots, never by the engine while it plays.
    """


# --- declarations (merged) -----------------------------------------------------------


@hookspec
def atout_declarations(game: str, rules: Rules, state: DealState) -> list[Declaration] | None:
    """List the declarations every seat may score (carrés, sequences, belote-rebelote).

    :param state: the complete deal, trump known, before the first card.
    :return: the declarations this plugin finds; the engine announces each as its
        ``announce`` field says.

    Merged: a house-rule plugin can add its own kinds.  Called once per deal, after
    ``atout_complete_deal``.  Which declarations finally count is the scorer's decision.
    """


# --- play: asked once per deal, answered with plain functions and tables ----------------


@hookspec(firstresult=True)
def atout_legal_moves(game: str, rules: Rules, contract: Contract) -> MoveRule | None:
    """Give the legality of plays for a deal under ``contract``.

    :return: a :class:`~atout.core.model.MoveRule` whose ``legal(state)`` returns the set
        of cards the seat to play may play, and ``explain(state, card)`` the rule that
        forbids a card.

    firstresult; a wrapper may replace the answer with a rule of its own (a house rule
    such as "must always trump").  Called once per deal when the contract is set; the
    engine then calls ``legal`` for every card without the plugin manager.
    """


@hookspec(firstresult=True)
def atout_trick_winner(game: str, rules: Rules, contract: Contract) -> tuple[int, ...] | None:
    """Give which card wins a trick under ``contract``, as a table.

    :return: ``beats``: 32 card sets; ``beats[c]`` holds every card that, played to a
        trick that ``c`` is winning, takes the lead from it (higher cards of the suit of
        ``c``, and trumps when ``c`` is no trump).

    firstresult.  Called once per deal; the engine consults the table for every card.
    """


@hookspec(firstresult=True)
def atout_card_points(game: str, rules: Rules, contract: Contract) -> CardValues | None:
    """Give what each card is worth under ``contract``, and the last trick's bonus.

    :return: :class:`~atout.core.model.CardValues`.

    firstresult.  Called once per deal; the engine sums trick points from it.
    """


@hookspec(firstresult=True)
def atout_end_of_trick(game: str, rules: Rules, contract: Contract) -> EndOfTrick | None:
    """Give what happens on the table after each trick (e.g. turning face-down cards).

    :return: a function ``(state, trick) -> None`` that the engine calls after every
        trick, or ``None`` when nothing happens.

    firstresult.  Called once per deal.
    """


@hookspec(firstresult=True)
def atout_card_played(game: str, rules: Rules, contract: Contract) -> CardPlayed | None:
    """Give what happens on the table after each card (e.g. turning a card at once).

    :return: a function ``(state, seat, card) -> None`` called after every card, or
        ``None``.

    firstresult.  Called once per deal.
    """


@hookspec(firstresult=True)
def atout_can_claim(game: str, rules: Rules, state: DealState, seat: int) -> str | None:
    """Say whether ``seat`` may claim the match now (l'arrêt), right after winning a trick.

    :return: ``"stop"`` when a claim is offered and ends the deal at once, ``"play-on"``
        when it is offered but the deal is still played out, ``None`` when not offered.
        The claim is recorded as ``state.extra["claim"] = (seat, tricks_played)`` and
        judged by ``atout_score_deal``.

    firstresult.  Called by the engine after each trick only when ``rules`` has a true
    ``arret`` option, so the play loop pays nothing otherwise.
    """


# --- scoring -------------------------------------------------------------------------


@hookspec(firstresult=True)
def atout_score_deal(game: str, rules: Rules, state: DealState) -> DealScore | None:
    """Score a finished deal.

    :param state: the deal after its last trick (or after a claim).  ``state.carry_in``
        holds what the previous deal's score carried over (abeyance, litige).
    :return: a :class:`~atout.core.model.DealScore`.  The engine checks that the card
        points add up to ``total_check``.

    firstresult; house rules that adjust scores (rounding) wrap it.  Called once per deal.
    """


@hookspec(firstresult=True)
def atout_deal_scorer(game: str, rules: Rules, contract: Contract) -> DealScorer | None:
    """The deal's scoring as a function of how the deal ends, for searches.

    :param contract: the deal's contract (its taker, trump and whatever a plugin's
        contract carries).
    :return: a function from a :class:`~atout.core.model.DealEnd` (each team's card
        points, declarations, belote-rebelote, which team was capot) to the
        :class:`~atout.core.model.DealScore` the game would give a deal that ends so,
        without what earlier deals carried over.  ``None``: the game gives none, and
        searches then value a deal by its card points alone.

    firstresult.  Compiled once per deal with the play rules
    (:attr:`atout.core.engine.PlayRules.scorer`); the bots and the review call it
    instead of writing the game's scoring again, so a plugin's scoring is searched as
    the game scores it.  It must agree with ``atout_score_deal``: the plugin kit plays
    deals and checks that the two give the same score.
    """


@hookspec(firstresult=True)
def atout_match_over(
    game: str, rules: Rules, scores: tuple[int, ...], history: list[DealScore]
) -> MatchResult | None:
    """Say whether the match is over after a deal.

    :param scores: the running total of each team.
    :param history: the scores of every deal so far.
    :return: a :class:`~atout.core.model.MatchResult`, or ``None`` to play on.

    firstresult.  Called by the match after every scored deal.
    """


def all_hook_names() -> list[str]:
    """The names of every hook in this module (for tooling and the documentation test)."""
    return sorted(name for name in globals() if name.startswith("atout_"))
