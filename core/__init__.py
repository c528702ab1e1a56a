"""atout's rule-agnostic core: cards, state, hooks, the engine, views and records.

Nothing here knows a rule of any game: rules reach the engine through the hooks of
:mod:`atout.core.hookspecs`, answered by plugins.  A plugin writes::

    from atout.core import hookimpl

    @hookimpl
    def atout_games():
        ...
"""

from .cards import CARD_TEXT_HELP
from .cards import FULL_DECK
from .cards import RANKS
from .cards import SUIT_MASKS
from .cards import SUITS
from .cards import Card
from .cards import CardParseError
from .cards import CardSet
from .cards import card_name
from .cards import card_str
from .cards import cards_of
from .cards import cards_str
from .cards import iter_cards
from .cards import make_card
from .cards import mask_of
from .cards import parse_card
from .cards import parse_cards
from .cards import parse_suit
from .cards import popcount
from .cards import rank_of
from .cards import suit_of
from .cards import suit_str
from .engine import Deal
from .engine import Engine
from .engine import Match
from .engine import PlayRules
from .errors import AtoutError
from .errors import IllegalMoveError
from .errors import PackError
from .errors import PluginError
from .errors import RecordError
from .errors import UnknownNameError
from .hookspecs import hookimpl
from .hookspecs import hookspec
from .model import CLAIM
from .model import Action
from .model import Announcement
from .model import Bid
from .model import BiddingStep
from .model import BidInfo
from .model import BotInfo
from .model import CardValues
from .model import Claim
from .model import Contract
from .model import DealEnd
from .model import DealScore
from .model import DealScorer
from .model import Declaration
from .model import GameInfo
from .model import Layout
from .model import MatchResult
from .model import MoveRule
from .model import Play
from .model import RuleOption
from .model import Rules
from .model import Trick
from .pluginmanager import AtoutPluginManager
from .pluginmanager import make_plugin_manager
from .state import DealState
from .views import Bot
from .views import PileView
from .views import View

__all__ = [
    "CARD_TEXT_HELP",
    "CLAIM",
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "SUIT_MASKS",
    "Action",
    "Announcement",
    "AtoutError",
    "AtoutPluginManager",
    "Bid",
    "BidInfo",
    "BiddingStep",
    "Bot",
    "BotInfo",
    "Card",
    "CardParseError",
    "CardSet",
    "CardValues",
    "Claim",
    "Contract",
    "Deal",
    "DealEnd",
    "DealScore",
    "DealScorer",
    "DealState",
    "Declaration",
    "Engine",
    "GameInfo",
    "IllegalMoveError",
    "Layout",
    "Match",
    "MatchResult",
    "MoveRule",
    "PackError",
    "PileView",
    "Play",
    "PlayRules",
    "PluginError",
    "RecordError",
    "RuleOption",
    "Rules",
    "Trick",
    "UnknownNameError",
    "View",
    "card_name",
    "card_str",
    "cards_of",
    "cards_str",
    "hookimpl",
    "hookspec",
    "iter_cards",
    "make_card",
    "make_plugin_manager",
    "mask_of",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "popcount",
    "rank_of",
    "suit_of",
    "suit_str",
]
