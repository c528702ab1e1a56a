"""The review of a deal: what every decision was worth, from the deciding seat's view.

A product feature of its own, not a bot: the front ends (``atout review``, the terminal,
the Arcade review screen) import it from here, and it stays whole when the bots plugin is
disabled (``--disable-plugin bots`` only unregisters the bots from the engine).  It values
decisions with the search library (:mod:`atout.plugins.search`: the solvers, the
deal's score sheet, the statistics) and borrows from the bots only what makes a review
judge a decision as the expert would decide it: the four-player expert's reading of the
play and its sampling of hidden hands (:func:`~atout.plugins.bots.belote_expert.read_play`,
:func:`~atout.plugins.bots.belote_expert.sample_hands`, its utility and search horizons),
the Découverte expert's reading of a view and its bidding estimates
(:class:`~atout.plugins.bots.decouverte_expert.DecouverteExpert`), and the greedy bot's
bids for the bidding carried on.

The analysis is :mod:`.review`; this package re-exports its public names.
"""

from __future__ import annotations

from .review import DEFAULT_OPTIONS
from .review import EXACT
from .review import FORCED
from .review import PROOF_SAMPLES
from .review import SAMPLED
from .review import UNVALUED
from .review import DealReview
from .review import Decision
from .review import ReviewCancelled
from .review import ReviewOptions
from .review import Summary
from .review import Valued
from .review import choose_deal
from .review import exact_feasible
from .review import paired_loss
from .review import record_deals
from .review import review_record

__all__ = [
    "DEFAULT_OPTIONS",
    "EXACT",
    "FORCED",
    "PROOF_SAMPLES",
    "SAMPLED",
    "UNVALUED",
    "DealReview",
    "Decision",
    "ReviewCancelled",
    "ReviewOptions",
    "Summary",
    "Valued",
    "choose_deal",
    "exact_feasible",
    "paired_loss",
    "record_deals",
    "review_record",
]
