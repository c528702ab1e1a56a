"""La Coinche for two players on Belote Découverte's piles, as docs/rules.md states it
("La Coinche", "For two: Découverte Coinche").

The deal and the play are Découverte's (:mod:`atout.plugins.decouverte`: eight piles a
player, a face-down card under each face-up card, turned as the card above it is played;
belote-rebelote said without revealing a face-down card), with no proposed card; the
auction and the scoring are La Coinche's (:class:`~atout.plugins.coinche.CoincheRules`):
each player is his own side, an auction ends when the other player passes after a bid.
"""

from __future__ import annotations

import random
from dataclasses import replace

from atout.core import hookimpl
from atout.core.model import CardPlayed
from atout.core.model import Contract
from atout.core.model import DealEnd
from atout.core.model import DealScore
from atout.core.model import Declaration
from atout.core.model import EndOfTrick
from atout.core.model import Layout
from atout.core.model import RuleOption
from atout.core.model import Rules
from atout.core.state import DealState
from atout.core.text import N_

from . import decouverte
from .coinche import CoincheRules
from .coinche import auction_options
from .coinche import capot_team
from .coinche import score_end
from .family import family_game

GAME = "coinche-decouverte"


def options() -> list[RuleOption]:
    """Every variation of the two-player form a pack may switch, with its default."""
    by_key = {o.key: o for o in decouverte.options()}
    return [
        by_key["reveal_on_lead"],
        replace(by_key["belote_rebelote"], default=True),
        *auction_options("players", "ffb contree.org"),
    ]


def deal(rules: Rules, dealer: int, rng: random.Random, previous: DealState | None) -> Layout:
    """Découverte's piles from a shuffled pack, and no card proposed: the auction names
    the trump."""
    return replace(decouverte.deal(rules, dealer, rng, previous), turnup=None)


def find_declarations(rules: Rules, state: DealState) -> list[Declaration]:
    """None: belote-rebelote is said as it is played (Découverte's rule), sequences and
    carrés are not played in this form."""
    return []


def score_deal(rules: Rules, state: DealState) -> DealScore:
    """Score a two-player deal: belote-rebelote as Découverte counts it, then La
    Coinche's scoring."""
    end = DealEnd(
        tuple(state.points),
        capot_team(state, 16),
        (),
        tuple(decouverte.belote_points(rules, state)),
    )
    return score_end(rules, state, end)


class CoincheDecouverte(CoincheRules):
    """Découverte Coinche: Découverte's piles and play, La Coinche's auction and scoring."""

    info = family_game(
        GAME,
        N_("Découverte Coinche"),
        decouverte.SEAT_NAMES,
        N_(
            "La Coinche for two on Découverte's piles: an auction from 80 to 160 or capot, "
            "contre and surcontre."
        ),
    )
    options = staticmethod(options)
    deal = staticmethod(deal)
    declarations = staticmethod(find_declarations)
    score_deal = staticmethod(score_deal)

    def layout_problem(self, rules: Rules, layout: Layout, dealer: int) -> str | None:
        """Every pile is whole when the auction starts."""
        broken = decouverte.piles_problem(layout)
        if broken is not None:
            return broken
        if len(layout.piles) != 2:
            return "piles: the auction starts with both players' piles"
        return None

    @hookimpl
    def atout_end_of_trick(self, game: str, rules: Rules, contract: Contract) -> EndOfTrick | None:
        return decouverte.turn_uncovered if game == self.game else None

    @hookimpl
    def atout_card_played(self, game: str, rules: Rules, contract: Contract) -> CardPlayed | None:
        """Découverte's: the led card's face-down card turned at once (``reveal_on_lead``),
        belote said from face-up cards only (``belote_rebelote``)."""
        return decouverte.card_played(rules, contract) if game == self.game else None


PLUGIN = CoincheDecouverte()
"""The game's plugin object; this module, which the entry point names, publishes its hooks."""
globals().update(PLUGIN.hooks())
