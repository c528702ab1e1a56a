"""atout's rule-agnostic core: cards, state, hooks, the engine, views and records.

Nothing here knows a rule of any game: rules reach the engine through the hooks of
:mod:`atout.core.hookspecs`, answered by plugins.  A plugin writes::

    from atout.core import hookimpl

    @hookimpl
    def atout_games():
        ...
"""

from .cards import (
    CARD_TEXT_HELP,
    FULL_DECK,
    RANKS,
    SUIT_MASKS,
    SUITS,
    Card,
    CardParseError,
    CardSet,
    card_name,
    card_str,
    cards_of,
    cards_str,
    iter_cards,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    parse_suit,
    popcount,
    rank_of,
    suit_of,
    suit_str,
)
from .engine import Deal, Engine, Match, PlayRules
from .errors import (
    AtoutError,
    IllegalMoveError,
    PackError,
    PluginError,
    RecordError,
    UnknownNameError,
)
from .hookspecs import hookimpl, hookspec
from .model import (
    Action,
    Announcement,
    BiddingStep,
    BotInfo,
    CardValues,
    Contract,
    DealScore,
    Declaration,
    GameInfo,
    Layout,
    MatchResult,
    MoveRule,
    RuleOption,
    Rules,
    Trick,
)
from .pluginmanager import AtoutPluginManager, make_plugin_manager
from .state import DealState
from .views import Bot, PileView, View

__all__ = [
    "CARD_TEXT_HELP",
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "SUIT_MASKS",
    "Action",
    "Announcement",
    "AtoutError",
    "AtoutPluginManager",
    "BiddingStep",
    "Bot",
    "BotInfo",
    "Card",
    "CardParseError",
    "CardSet",
    "CardValues",
    "Contract",
    "Deal",
    "DealScore",
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
