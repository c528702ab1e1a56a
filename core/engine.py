"""The engine: drives deals and matches through their phases, asking hooks for every rule.

:class:`Engine` wraps the plugin manager: it knows the registered games, bots and rule
options, calls hooks with fault isolation (an exception in a plugin becomes a
:class:`~atout.core.errors.PluginError` naming the plugin and the hook), and compiles the
per-card rules of a deal once.  :class:`Deal` runs one deal; :class:`Match` a match of
deals to its end.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import random
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .cards import FULL_DECK
from .cards import Card
from .cards import CardSet
from .cards import card_str
from .cards import cards_of
from .errors import AtoutError
from .errors import IllegalMoveError
from .errors import PluginError
from .errors import UnknownNameError
from .hookcalls import Hooks
from .model import BID_OTHER
from .model import BID_PASS
from .model import CLAIM
from .model import Action
from .model import Announcement
from .model import Bid
from .model import BidInfo
from .model import BotInfo
from .model import CardPlayed
from .model import CardValues
from .model import Claim
from .model import Contract
from .model import DealScore
from .model import DealScorer
from .model import Declaration
from .model import EndOfTrick
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
from .state import BIDDING
from .state import OVER
from .state import PLAY
from .state import REDEAL
from .state import DealState
from .text import CardCode
from .text import Message
from .views import Bot
from .views import View
from .views import make_view

BOT_SETTING = ":"
"""Joins a bot's name and each of its settings in a bot spec (``expert:signals=off``)."""
SWITCHES = {"on": True, "off": False, "true": True, "false": False, "yes": True, "no": False}
"""The words of an on/off setting in a bot spec."""
BOT_ARGUMENTS = frozenset({"game", "rules", "seed", "think", "engine"})
"""The keyword arguments every bot factory receives (not settings)."""


def bot_settings(spec: str) -> tuple[str, dict[str, bool]]:
    """The bot name and settings of a bot spec ``NAME:SETTING=on|off`` (several settings
    joined by ``:``): ``"expert:signals=off"`` is ``("expert", {"signals": False})``, a
    plain name has none.  A value other than on/off fails, naming the spec.

    >>> bot_settings("expert:signals=off")
    ('expert', {'signals': False})
    """
    name, *parts = [p.strip() for p in spec.strip().split(BOT_SETTING)]
    settings: dict[str, bool] = {}
    for part in parts:
        key, eq, value = (p.strip() for p in part.partition("="))
        if not key or not eq or value.lower() not in SWITCHES:
            raise UnknownNameError(
                Message(
                    "bot {spec}: write a setting as NAME:SETTING=on or off, e.g. "
                    "expert:signals=off",
                    spec=repr(spec),
                )
            )
        settings[key] = SWITCHES[value.lower()]
    return name, settings


@dataclass(frozen=True)
class PlayRules:
    """The per-card rules of one deal, compiled from the play hooks once per deal."""

    moves: MoveRule
    beats: tuple[int, ...]
    values: CardValues
    end_of_trick: EndOfTrick | None
    card_played: CardPlayed | None
    claims: bool
    tricks: int
    """How many tricks a deal has (every card played once)."""
    points: tuple[int, ...]
    """The points of each card (``values.points``, at hand for the play loop)."""
    scorer: DealScorer | None = None
    """The deal's scoring by how it ends (hook ``atout_deal_scorer``), for searches;
    ``None`` when the game gives none."""


class Engine:
    """The rule-agnostic engine over a plugin manager.

    Build one per program (``Engine()`` loads the shipped and installed plugins); it is
    cheap to keep and share.  Everything a front end or a bot needs goes through it.
    """

    def __init__(self, pm: AtoutPluginManager | None = None) -> None:
        self.pm = pm if pm is not None else make_plugin_manager()
        self._generation = -1
        self._games: dict[str, GameInfo] = {}
        self._options: dict[str, dict[str, RuleOption]] = {}
        self._play_cache: dict[tuple[str, Rules, Contract], PlayRules] = {}
        self.hooks = Hooks(self._call, self._decide)
        """Every hook as a typed method: what the engine, records and bots ask."""

    # --- hooks with fault isolation ---------------------------------------------------

    def _refresh(self) -> None:
        if self._generation != self.pm.generation:
            self._generation = self.pm.generation
            self._games = {}
            self._options = {}
            self._play_cache = {}

    def _culprit(self, hook: str, exc: BaseException) -> str:
        """The plugin whose code raised ``exc``: the deepest frame that is one of the
        hook's implementations, else the deepest frame in a plugin's own module (the
        functions and objects a hook returned, such as a MoveRule, run there).

        An implementation is known by its code and, for a method, its instance: two
        plugins may be instances of one class and share the code; a frame's instance is
        its first argument."""
        caller = getattr(self.pm.hook, hook)
        codes: dict[tuple[object, int], str] = {
            (impl.function.__code__, id(getattr(impl.function, "__self__", None))): (
                impl.plugin_name
            )
            for impl in caller.get_hookimpls()
        }
        modules: dict[str, str] = {}
        for plugin_name, plugin in self.pm.list_name_plugin():
            if isinstance(plugin, ModuleType):
                modules[plugin.__name__] = plugin_name
            elif plugin is not None:
                modules[type(plugin).__module__] = plugin_name
        tb = exc.__traceback__
        culprit = ""
        by_module = ""
        while tb is not None:
            frame = tb.tb_frame
            code = frame.f_code
            first = frame.f_locals.get(code.co_varnames[0]) if code.co_argcount else None
            culprit = codes.get((code, id(first))) or codes.get((code, id(None)), culprit)
            by_module = modules.get(str(frame.f_globals.get("__name__")), by_module)
            tb = tb.tb_next
        return culprit or by_module

    def _answerer(self, hook: str, kwargs: Mapping[str, Any]) -> str:
        """The plugin that answers a firstresult ``hook`` (each implementation asked in
        call order, wrappers aside); only used to name a culprit after a failure."""
        for impl in reversed(getattr(self.pm.hook, hook).get_hookimpls()):
            if impl.wrapper or impl.hookwrapper:
                continue
            name: str = impl.plugin_name
            try:
                answer = impl.function(**{a: kwargs[a] for a in impl.argnames})
            except Exception:
                return name
            if answer is not None:
                return name
        return "unknown plugin"

    def answer_failed(self, hook: str, exc: BaseException, **kwargs: Any) -> PluginError:
        """The :class:`PluginError` for ``exc``, raised by what a plugin answered to
        ``hook`` (a MoveRule, an end-of-trick function) when the engine called it later;
        ``kwargs`` are the hook's arguments, to find the plugin that answered."""
        plugin = self._culprit(hook, exc) or self._answerer(hook, kwargs)
        return PluginError(
            f"plugin {plugin!r} failed in its answer to {hook}: {type(exc).__name__}: {exc}",
            plugin=plugin,
            hook=hook,
        )

    def call(self, hook: str, **kwargs: Any) -> Any:
        """Call ``hook`` with keyword arguments; a plugin's exception becomes a
        :class:`PluginError` naming the plugin and the hook."""
        return self._call(hook, kwargs)

    def _call(self, hook: str, kwargs: dict[str, Any]) -> Any:
        try:
            return self.pm.caller(hook)(kwargs)
        except PluginError:
            raise
        except Exception as exc:
            plugin = self._culprit(hook, exc) or "unknown plugin"
            raise PluginError(
                f"plugin {plugin!r} failed in hook {hook}: {type(exc).__name__}: {exc}",
                plugin=plugin,
                hook=hook,
            ) from exc

    def decide(self, hook: str, **kwargs: Any) -> Any:
        """Call a firstresult hook that must be answered; no answer is a PluginError."""
        return self._decide(hook, kwargs)

    def _decide(self, hook: str, kwargs: dict[str, Any]) -> Any:
        result = self._call(hook, kwargs)
        if result is None:
            game = kwargs.get("game", "")
            raise PluginError(
                f"no plugin answered {hook} for game {game!r}: is its rule plugin installed?",
                hook=hook,
            )
        return result

    # --- registries -------------------------------------------------------------------

    @property
    def games(self) -> dict[str, GameInfo]:
        """Every registered game by name."""
        self._refresh()
        if not self._games:
            for answer in self.hooks.games():
                for info in answer or ():
                    if info.name in self._games:
                        raise PluginError(f"two plugins register the game {info.name!r}")
                    self._games[info.name] = info
        return self._games

    def game(self, name: str) -> GameInfo:
        """The game called ``name``; an unknown name lists the games there are."""
        games = self.games
        if name not in games:
            known = ", ".join(sorted(games)) or Message("none")
            raise UnknownNameError(
                Message("unknown game {name}; the games are: {games}", name=repr(name), games=known)
            )
        return games[name]

    def rule_options(self, game: str) -> dict[str, RuleOption]:
        """Every option a pack may set for ``game``, by key."""
        self.game(game)
        self._refresh()
        if game not in self._options:
            options: dict[str, RuleOption] = {}
            for answer in self.hooks.rule_options(game=game):
                for opt in answer or ():
                    if opt.key in options:
                        raise PluginError(f"two plugins declare the rule option {opt.key!r}")
                    options[opt.key] = opt
            self._options[game] = options
        return self._options[game]

    def default_rules(self, game: str) -> Rules:
        """The rules of ``game`` with every option at its default."""
        return Rules(game, {k: o.default for k, o in self.rule_options(game).items()}, "")

    def make_rules(
        self, game: str, values: Mapping[str, Any] | None = None, pack: str = ""
    ) -> Rules:
        """Rules of ``game``: defaults overridden by ``values`` (each key checked)."""
        options = self.rule_options(game)
        merged = {k: o.default for k, o in options.items()}
        for key, value in (values or {}).items():
            if key not in options:
                raise UnknownNameError(
                    Message("unknown rule option {key} for {game}", key=repr(key), game=game)
                )
            problem = options[key].check(value)
            if problem:
                raise UnknownNameError(
                    Message("rule option {key} {problem}", key=repr(key), problem=problem)
                )
            merged[key] = value
        return Rules(game, merged, pack)

    @property
    def bots(self) -> dict[str, BotInfo]:
        """Every registered bot by name."""
        bots: dict[str, BotInfo] = {}
        for answer in self.hooks.bots():
            for info in answer or ():
                bots.setdefault(info.name, info)
        return bots

    def bot_info(self, name: str, game: str | None = None) -> BotInfo:
        """The registered bot called ``name`` (one that plays ``game``, when given); an
        unknown name fails with the names there are."""
        bots = self.bots
        info = bots.get(name)
        if info is None or (game is not None and game not in info.games):
            names = sorted(n for n, b in bots.items() if game is None or game in b.games)
            known = ", ".join(names) or Message("none")
            if game is None:
                raise UnknownNameError(
                    Message("unknown bot {name}; the bots are: {bots}", name=repr(name), bots=known)
                )
            raise UnknownNameError(
                Message(
                    "unknown bot {name} for {game}; the bots are: {bots}",
                    name=repr(name),
                    game=game,
                    bots=known,
                )
            )
        return info

    def bot_switches(self, name: str, game: str | None = None) -> dict[str, bool | None]:
        """The on/off settings of the bot called ``name`` (see :meth:`bot`), each with its
        default: the keyword arguments of its factory, beyond those every bot receives,
        whose default is ``True``, ``False`` or ``None`` (as another setting)."""
        factory = self.bot_info(name, game).factory
        return {
            p.name: p.default
            for p in inspect.signature(factory).parameters.values()
            if p.kind is p.KEYWORD_ONLY or p.kind is p.POSITIONAL_OR_KEYWORD
            if p.name not in BOT_ARGUMENTS and (p.default is None or isinstance(p.default, bool))
        }

    def bot(self, name: str, game: str, rules: Rules, seed: int = 0, think: float = 0.0) -> Bot:
        """Make the bot of ``name`` for ``game``: a registered bot's name, with its
        settings when it names some (``expert:signals=off``, see :func:`bot_settings`),
        passed to its factory as keyword arguments.  An unknown name or setting fails
        with those there are."""
        base, settings = bot_settings(name)
        info = self.bot_info(base, game)
        if settings:
            known = sorted(self.bot_switches(base, game))
            unknown = sorted(set(settings) - set(known))
            if unknown:
                raise UnknownNameError(
                    Message(
                        "bot {spec}: {name} has no setting {setting}; its settings are: {known}",
                        spec=repr(name),
                        name=base,
                        setting=repr(unknown[0]),
                        known=", ".join(known) or Message("none"),
                    )
                )
        bot: Bot = info.factory(
            game=game, rules=rules, seed=seed, think=think, engine=self, **settings
        )
        return bot

    def describe_bid(self, game: str, rules: Rules, bid: str) -> BidInfo:
        """What ``bid`` means in ``game`` (hook ``atout_describe_bid``), for a front end
        that lays out or says bids without knowing the game; a game that gives no
        description has ``pass`` and ``other`` bids."""
        info = self.hooks.describe_bid(game=game, rules=rules, bid=bid)
        if info is not None:
            return info
        return BidInfo(BID_PASS if bid == "pass" else BID_OTHER)

    # --- deals ------------------------------------------------------------------------

    def play_rules(self, game: str, rules: Rules, contract: Contract) -> PlayRules:
        """The compiled per-card rules for a deal (asked of the hooks once, then cached
        until the plugins change)."""
        self._refresh()
        key = (game, rules, contract)
        cached = self._play_cache.get(key)
        if cached is not None:
            return cached
        hooks = self.hooks
        compiled = PlayRules(
            moves=hooks.legal_moves(game=game, rules=rules, contract=contract),
            beats=hooks.trick_winner(game=game, rules=rules, contract=contract),
            values=hooks.card_points(game=game, rules=rules, contract=contract),
            end_of_trick=hooks.end_of_trick(game=game, rules=rules, contract=contract),
            card_played=hooks.card_played(game=game, rules=rules, contract=contract),
            claims=bool(rules.get("arret", False)),
            tricks=32 // self.game(game).seats,
            points=(),
            scorer=hooks.deal_scorer(game=game, rules=rules, contract=contract),
        )
        compiled = dataclasses.replace(compiled, points=tuple(compiled.values.points))
        if len(compiled.beats) != 32 or len(compiled.points) != 32:
            raise PluginError(
                f"the rules of {game} give a trick-winner table of {len(compiled.beats)} cards "
                f"and card points for {len(compiled.values.points)}; 32 each are needed",
                hook="atout_trick_winner",
            )
        self._play_cache[key] = compiled
        return compiled

    def new_deal(
        self,
        game: str,
        rules: Rules,
        dealer: int,
        rng: random.Random,
        previous: DealState | None = None,
        carry_in: Any = None,
    ) -> Deal:
        """Deal a new deal of ``game`` (asks ``atout_deal``) and start its bidding."""
        info = self.game(game)
        layout = self.hooks.deal(game=game, rules=rules, dealer=dealer, rng=rng, previous=previous)
        check_layout(layout, info)
        state = DealState(
            game, rules, info.seats, info.teams, dealer, layout, direction=direction_of(rules)
        )
        state.carry_in = carry_in
        return Deal(self, state)

    def deal_from_state(self, state: DealState) -> Deal:
        """Wrap a state set up by hand (a record's position) in a :class:`Deal`; when its
        phase is play, the play rules are compiled at once."""
        deal = Deal(self, state)
        if state.phase == PLAY:
            deal.start_play(declarations=bool(state.extra.get("declarations", False)))
        return deal


def _no_choice(legal: CardSet) -> Card:
    """The policy of a play loop asked for no card: never called."""
    raise AssertionError("the play loop chose a card when asked for none")


_BIT_OF = {c: 1 << c for c in range(32)}
"""card -> its bit; a lookup that refuses anything that is not one of the 32 cards."""


def direction_of(rules: Rules) -> int:
    """The step from a seat to the next: ``1`` unless the rules say ``clockwise``."""
    return -1 if rules.get("direction") == "clockwise" else 1


def check_layout(layout: Layout, info: GameInfo, played: CardSet = 0) -> None:
    """The engine's own check of a deal: every card exactly once, one hand per seat.

    ``played`` holds cards already played in a set-up position."""
    if not isinstance(layout, Layout):
        raise _bad_deal(info, f"returned {type(layout).__name__}, not a Layout")
    if len(layout.hands) != info.seats:
        raise _bad_deal(info, f"dealt {len(layout.hands)} hands to {info.seats} seats")
    # The quick test: as many cards dealt as there are, and every one of them seen.
    seen = played
    count = played.bit_count()
    try:
        for part in layout.hands:
            seen |= part
            count += part.bit_count()
        for row in layout.piles:
            for _, down in row:
                if down is not None:
                    seen |= _BIT_OF[down]
                    count += 1
        for card in layout.stock:
            seen |= _BIT_OF[card]
        count += len(layout.stock)
    except (KeyError, TypeError, ValueError):
        count = -1
    if count != 32 or seen != FULL_DECK:
        _find_the_fault(layout, info, played)


def _find_the_fault(layout: Layout, info: GameInfo, played: CardSet) -> None:
    """Say what is wrong with a deal that failed the quick test (card by card)."""
    seen = played
    for part in layout.hands:
        if not isinstance(part, int) or part < 0 or part > FULL_DECK:
            raise _bad_deal(info, f"dealt a hand that is not a set of cards: {part!r}")
        if seen & part:
            _dealt_twice(info, seen & part)
        seen |= part
    beneath = [down for row in layout.piles for _, down in row if down is not None]
    for card in (*beneath, *layout.stock):
        if card not in _BIT_OF:
            raise _bad_deal(info, f"dealt {card!r}, which is not a card (0-31)")
        if seen >> card & 1:
            _dealt_twice(info, 1 << card)
        seen |= 1 << card
    raise _bad_deal(info, f"dealt {seen.bit_count()} cards; a deal must deal all 32 once")


def _bad_deal(info: GameInfo, what: str) -> PluginError:
    """The error for a deal that ``atout_deal`` got wrong: ``what`` it dealt."""
    return PluginError(f"atout_deal for {info.name} {what}", hook="atout_deal")


def _dealt_twice(info: GameInfo, twice: CardSet) -> None:
    raise _bad_deal(info, f"dealt {card_str(twice.bit_length() - 1)} twice")


_PLAYS = tuple(Action.play(c) for c in range(32))
_new_tuple = tuple.__new__
"""``_new_tuple(Trick, fields)`` makes a Trick without the Python-level ``__new__`` of
a named tuple: the play loop makes one per trick."""


@functools.cache
def _seat_plays(seats: int) -> tuple[tuple[tuple[int, Action], ...], ...]:
    """``[seat][card]``: the history entry ``(seat, Action.play(card))``, made once."""
    return tuple(tuple((seat, _PLAYS[c]) for c in range(32)) for seat in range(seats))


@functools.cache
def _next_seats(seats: int, direction: int) -> tuple[int, ...]:
    """``[seat]``: the seat that plays after ``seat``."""
    return tuple((seat + direction) % seats for seat in range(seats))


class Deal:
    """One deal, from the bidding to the score.

    Bidding: :meth:`legal_bids`, :meth:`bid`.  Play: :meth:`legal_cards` (a card set),
    :meth:`play`, :meth:`explain`.  Any phase: :meth:`legal_actions`, :meth:`apply`,
    :meth:`view`.  ``actions`` is the history of ``(seat, Action)``; ``score`` the result.
    """

    __slots__ = (
        "_beats",
        "_claim_kind",
        "_claim_offer",
        "_claims",
        "_end_of_trick",
        "_first_play",
        "_free_lead",
        "_last_bonus",
        "_legal",
        "_legal_rule",
        "_next_seat",
        "_on_card",
        "_plays",
        "_points",
        "_said",
        "_seats",
        "_tricks",
        "_watch",
        "actions",
        "engine",
        "rules_compiled",
        "score",
        "state",
    )

    def __init__(self, engine: Engine, state: DealState) -> None:
        self.engine = engine
        self.state = state
        self.actions: list[tuple[int, Action]] = []
        self.score: DealScore | None = None
        self.rules_compiled: PlayRules | None = None
        self._legal = -1
        self._watch: dict[Card, Declaration] = {}
        self._said: dict[int, int] = {}
        self._first_play: dict[int, list[Declaration]] = {}
        self._claim_offer = -1
        self._claim_kind = ""
        self._on_card = False
        # The play loop's own copies of the compiled rules (set by start_play): one
        # attribute read each instead of two.  ``_legal_rule`` is None outside the play.
        self._legal_rule: Callable[[DealState], CardSet] | None = None
        self._beats: tuple[int, ...] = ()
        self._points: tuple[int, ...] = ()
        self._end_of_trick: EndOfTrick | None = None
        self._last_bonus = 0
        self._tricks = 0
        self._free_lead = False
        self._claims = False
        self._seats = state.seats
        self._next_seat = _next_seats(state.seats, state.direction)
        self._plays = _seat_plays(state.seats)

    # --- properties ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def is_over(self) -> bool:
        return self.state.phase in (OVER, REDEAL)

    def _kw(self) -> dict[str, Any]:
        return {"game": self.state.game, "rules": self.state.rules}

    def _answer_failed(self, hook: str, exc: BaseException) -> PluginError:
        """A per-card rule compiled from ``hook`` raised: name the plugin and the hook."""
        return self.engine.answer_failed(hook, exc, **self._kw(), contract=self.state.contract)

    # --- bidding --------------------------------------------------------------------------

    def legal_bids(self) -> list[str]:
        """The bids the seat to act may make (empty outside the bidding)."""
        if self.state.phase != BIDDING:
            return []
        s = self.state
        return list(self.engine.hooks.bid_options(game=s.game, rules=s.rules, state=s))

    def bid(self, text: str) -> None:
        """Make a bid for the seat to act; an unlisted bid raises IllegalMoveError."""
        s = self.state
        if s.phase != BIDDING:
            raise IllegalMoveError(f"bid {text!r}: the bidding is over")
        options = self.legal_bids()
        if text not in options:
            raise IllegalMoveError(
                f"bid {text!r} is not allowed now; the bids are: {', '.join(options)}"
            )
        seat = s.turn
        s.bids.append((seat, text))
        self.actions.append((seat, Action.bid(text)))
        step = self.engine.hooks.bidding_step(game=s.game, rules=s.rules, state=s)
        s.bidding_round = step.round
        if step.contract is not None:
            s.contract = step.contract
            self.engine.hooks.complete_deal(game=s.game, rules=s.rules, state=s)
            self.start_play(declarations=True)
        elif step.redeal:
            s.phase = REDEAL
        else:
            if step.next_seat is None:
                raise PluginError(
                    "atout_bidding_step answered no next seat", hook="atout_bidding_step"
                )
            s.turn = step.next_seat

    # --- play -----------------------------------------------------------------------------

    def start_play(self, declarations: bool = True) -> None:
        """Enter the play: compile the per-card rules and find the declarations.

        Called by the engine after the bidding; a set-up position in the play calls it
        with ``declarations`` false when the record lists them itself.
        """
        s = self.state
        if s.contract is None:
            raise PluginError("the play cannot start without a contract")
        rc = self.rules_compiled = self.engine.play_rules(s.game, s.rules, s.contract)
        self._legal_rule = rc.moves.legal
        self._free_lead = bool(rc.moves.free_lead)
        self._beats = rc.beats
        self._points = rc.points
        self._end_of_trick = rc.end_of_trick
        self._last_bonus = rc.values.last_trick
        self._tricks = rc.tricks
        self._claims = rc.claims
        if s.phase != PLAY:
            s.phase = PLAY
            s.turn = s.leader = s.next_seat(s.dealer)
        if declarations:
            found = self.engine.hooks.declarations(game=s.game, rules=s.rules, state=s)
            s.declarations = [d for answer in found for d in (answer or ())]
        self._index_declarations()
        self._legal = -1

    def _index_declarations(self) -> None:
        s = self.state
        rc = self.rules_compiled
        if not s.declarations and not (self._watch or self._said or self._first_play):
            self._on_card = bool(self._claim_offer >= 0 or (rc and rc.card_played))
            return
        self._watch = {}
        self._said = {}
        self._first_play = {}
        for d in s.declarations:
            if d.announce == "cards":
                for c in cards_of(d.cards):
                    if s.hands[d.seat] >> c & 1:
                        self._watch[c] = d
            elif d.announce == "start":
                self._announce_declaration(d)
            else:
                self._first_play.setdefault(d.seat, []).append(d)
        self._on_card = bool(
            self._watch or self._first_play or (rc and rc.card_played) or self._claim_offer >= 0
        )

    def _announce_declaration(self, d: Declaration) -> None:
        s = self.state
        s.announcements.append(Announcement(d.seat, str(d), d.cards, len(s.tricks)))

    def legal_cards(self) -> CardSet:
        """The cards the seat to play may play now (a card set; 0 outside the play).

        Worked out once per card (``_legal`` is -1 until asked) by the play loop run for
        no card, so the move rule is asked and checked in one place."""
        legal = self._legal
        return legal if legal >= 0 else self._run(_no_choice, 0)

    def _bad_legal_set(self, legal: CardSet, hand: CardSet) -> None:
        """The engine's own check of a legal-move rule's answer failed: say how."""
        s = self.state
        if not hand:
            raise PluginError(
                f"seat {s.turn} of this {s.game} deal has no card to play in trick "
                f"{len(s.tricks) + 1}: the rule plugins left its hand empty",
                hook="atout_end_of_trick",
            )
        offered = card_str((legal & ~hand).bit_length() - 1) if legal & ~hand else "no card"
        held = " ".join(card_str(c) for c in cards_of(hand))
        raise PluginError(
            f"the legal-move rule of {s.game} offered {offered} to seat {s.turn}, "
            f"whose cards are {held}",
            hook="atout_legal_moves",
        )

    def explain(self, card: Card) -> str | None:
        """Why ``card`` may not be played now, or ``None`` when it may."""
        s = self.state
        if s.phase != PLAY:
            if s.phase == BIDDING:
                return Message("the play has not started")
            return Message("the deal is over")
        if self.legal_cards() >> card & 1:
            return None
        if not s.hands[s.turn] >> card & 1:
            # One message whether or not the card lies face down under this seat's
            # piles: nobody, its owner included, may learn where a face-down card is.
            if s.layout.piles:
                return Message("{card} is not among your face-up cards", card=CardCode(card))
            return Message("{card} is not among your cards", card=CardCode(card))
        assert self.rules_compiled is not None
        try:
            return self.rules_compiled.moves.explain(s, card)
        except AtoutError:
            raise
        except Exception as exc:
            raise self._answer_failed("atout_legal_moves", exc) from exc

    def play(self, card: Card) -> None:
        """Play ``card`` for the seat to play; an illegal card raises
        :class:`IllegalMoveError` naming the rule, and changes nothing."""
        self.play_out(lambda _legal: card, 1)

    def play_out(self, choose: Callable[[CardSet], Card], cards: int = 32) -> None:
        """Play the deal on: each seat in turn plays ``choose(legal)``, one of the cards
        of ``legal`` (its legal cards, a card set), for ``cards`` cards or to the end of
        the deal, whichever comes first.

        The one play loop of the engine (:meth:`play` is ``cards=1``): the fast way
        through many deals, for simulations and the benchmark.  A card ``choose`` gives
        that is not legal raises :class:`IllegalMoveError` and changes nothing.  An
        offer to claim (l'arrêt) lasts until the next card, so only ``cards=1`` lets a
        caller take it.
        """
        if cards > 0:
            self._run(choose, cards)

    def _run(self, choose: Callable[[CardSet], Card], cards: int) -> CardSet:
        """The play loop: before each card the seat's legal cards are worked out (asking
        the move rule, which the engine checks) and kept in ``_legal``; ``cards`` cards
        are played, or none with ``cards=0``, which only works out the legal cards.

        The legal cards of the next seat are not worked out after the last card asked
        for: a move rule that fails then fails on the next call, not after a card the
        caller played.  Returns the legal cards (with ``cards=0``) or -1 (not yet asked).
        """
        s = self.state
        rule = self._legal_rule
        if rule is None:
            if not cards:
                return 0
            raise IllegalMoveError(self.explain(0) or "no card can be played now")
        beats = self._beats
        points_of = self._points
        next_seat = self._next_seat
        plays = self._plays
        record = self.actions.append
        seats = self._seats
        end_of_trick = self._end_of_trick
        free_lead = self._free_lead
        last_trick = self._tricks - 1
        # The state's lists keep their identity for the whole deal (the rules change
        # them in place), so the loop holds them in local variables.
        hands = s.hands
        trick = s.trick
        tricks = s.tricks
        won_by = s.won
        points_by = s.points
        legal = self._legal
        while True:
            if legal < 0:
                hand = hands[s.turn]
                if free_lead and not trick:
                    legal = hand
                else:
                    try:
                        legal = rule(s)
                    except AtoutError:
                        raise
                    except Exception as exc:
                        raise self._answer_failed("atout_legal_moves", exc) from exc
                if legal & ~hand or not legal:
                    self._bad_legal_set(legal, hand)
                self._legal = legal
            if not cards:  # only when asked for no card
                return legal
            card = choose(legal)
            bit = 1 << card
            if not legal & bit:
                raise IllegalMoveError(
                    self.explain(card) or f"{card_str(card)} cannot be played now"
                )
            seat = s.turn
            hands[seat] ^= bit
            s.played |= bit
            if not trick or beats[s.win_card] & bit:
                s.win_card = card
                s.win_seat = seat
            trick.append(card)
            record(plays[seat][card])
            self._legal = legal = -1
            if self._on_card:
                self._after_card(seat, card)
            if len(trick) < seats:
                s.turn = next_seat[seat]
            else:
                # The trick is full: book it, then let the rules act on it.
                points = 0
                won = 0
                for c in trick:
                    points += points_of[c]
                    won |= 1 << c
                last = len(tricks) == last_trick
                if last:
                    points += self._last_bonus
                winner = s.win_seat
                done: Trick = _new_tuple(Trick, (s.leader, tuple(trick), winner, points))
                tricks.append(done)
                won_by[winner] |= won
                points_by[winner] += points
                trick.clear()
                s.win_seat = s.win_card = -1
                s.leader = s.turn = winner
                if end_of_trick is not None:
                    try:
                        end_of_trick(s, done)
                    except AtoutError:
                        raise
                    except Exception as exc:
                        raise self._answer_failed("atout_end_of_trick", exc) from exc
                if last:
                    self.finish()
                    return 0
                if self._claims:
                    self._offer_claim(winner)
            cards -= 1
            if not cards:
                return -1

    def _after_card(self, seat: int, card: Card) -> None:
        """What follows some cards: announcements, a plugin's ``atout_card_played``, and
        the end of an l'arrêt offer (it lasts until the next card)."""
        self._claim_offer = -1
        if card in self._watch:
            self._announce_card(seat, card)
        if seat in self._first_play:
            for d in self._first_play.pop(seat):
                self._announce_declaration(d)
        card_played = self.rules_compiled.card_played if self.rules_compiled else None
        if card_played is not None:
            try:
                card_played(self.state, seat, card)
            except AtoutError:
                raise
            except Exception as exc:
                raise self._answer_failed("atout_card_played", exc) from exc
        self._on_card = bool(self._watch or self._first_play or card_played)

    def _announce_card(self, seat: int, card: Card) -> None:
        """Say the next word of a declaration announced card by card (belote, rebelote)."""
        s = self.state
        d = self._watch.pop(card)
        if d.seat != seat:
            return
        said = self._said.get(id(d), 0)
        self._said[id(d)] = said + 1
        words = d.words or (d.kind,)
        text = words[min(said, len(words) - 1)]
        s.announcements.append(Announcement(seat, text, 1 << card, len(s.tricks)))

    def _offer_claim(self, winner: int) -> None:
        """Under l'arrêt, ask whether the seat that won the trick may claim now."""
        s = self.state
        offer = self.engine.hooks.can_claim(game=s.game, rules=s.rules, state=s, seat=winner)
        if offer:
            self._claim_offer = winner
            self._claim_kind = str(offer)
            self._on_card = True

    def claim(self) -> None:
        """L'arrêt: the seat that just won a trick claims the match (when offered)."""
        s = self.state
        if self._claim_offer != s.turn or s.phase != PLAY:
            raise IllegalMoveError("a claim (l'arrêt) is only allowed right after winning a trick")
        seat = s.turn
        self.actions.append((seat, CLAIM))
        s.extra["claim"] = (seat, len(s.tricks))
        self._claim_offer = -1
        if self._claim_kind != "play-on":
            self.finish()

    def finish(self) -> DealScore:
        """Score the deal (asks ``atout_score_deal``) and check the answer adds up."""
        s = self.state
        s.phase = OVER
        self._legal_rule = None
        self._legal = 0
        score = self.engine.hooks.score_deal(game=s.game, rules=s.rules, state=s)
        wrong = ""
        if score.total_check is not None and sum(score.card_points) != score.total_check:
            wrong = (
                f"gives card points {list(score.card_points)}, which add up to "
                f"{sum(score.card_points)}, not {score.total_check}"
            )
        elif len(score.score) != s.teams:
            wrong = f"has {len(score.score)} teams, not {s.teams}"
        if wrong:
            raise PluginError(f"the score of this {s.game} deal {wrong}", hook="atout_score_deal")
        self.score = score
        return score

    # --- rewinding ----------------------------------------------------------------------

    def restarted(self) -> Deal:
        """This deal as it was dealt: the same layout, dealer, carry-in and match scores,
        no action taken.  A deal set up from a hand-written position (a record's
        ``start``) has no dealt state to go back to: :class:`IllegalMoveError`."""
        s = self.state
        if "start" in s.extra:
            raise IllegalMoveError("a deal set up from a position cannot be rewound")
        state = DealState(s.game, s.rules, s.seats, s.teams, s.dealer, s.layout, s.direction)
        state.carry_in = s.carry_in
        if "match_scores" in s.extra:
            state.extra["match_scores"] = s.extra["match_scores"]
        return Deal(self.engine, state)

    def rewound(self, count: int) -> Deal:
        """A new deal that stands where this one stood ``count`` actions ago: the deal
        played again from its layout, every kept action re-checked by the rules (so a
        rewind can never reach a position the rules would not)."""
        if not 0 <= count <= len(self.actions):
            raise IllegalMoveError(
                f"cannot take back {count} actions: the deal has {len(self.actions)}"
            )
        fresh = self.restarted()
        for _, action in self.actions[: len(self.actions) - count]:
            fresh.apply(action)
        return fresh

    # --- actions in general ------------------------------------------------------------

    @property
    def can_claim(self) -> bool:
        """Whether the seat to act may claim the match now (l'arrêt)."""
        return self._claim_offer >= 0 and self._claim_offer == self.state.turn

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take."""
        s = self.state
        if s.phase == BIDDING:
            return [Bid(b) for b in self.legal_bids()]
        if s.phase == PLAY:
            actions: list[Action] = [Play(c) for c in cards_of(self.legal_cards())]
            if self.can_claim:
                actions.append(CLAIM)
            return actions
        return []

    def apply(self, action: Action) -> None:
        """Take ``action`` for the seat to act."""
        if isinstance(action, Play):
            self.play(action.card)
        elif isinstance(action, Bid):
            self.bid(action.text)
        elif isinstance(action, Claim):
            self.claim()
        else:
            raise IllegalMoveError(f"unknown action {action!r}")

    def view(self, seat: int, scores: tuple[int, ...] = ()) -> View:
        """What ``seat`` may know now, with what it may do."""
        s = self.state
        to_act = s.turn == seat
        return make_view(
            s,
            seat,
            legal=self.legal_cards() if to_act and s.phase == PLAY else 0,
            legal_bids=tuple(self.legal_bids()) if to_act and s.phase == BIDDING else (),
            can_claim=to_act and self.can_claim,
            scores=scores,
        )


class Match:
    """A match of deals to its end, with its own seeded random source.

    ``scores`` are the teams' running totals; ``history`` the score of every deal;
    ``deals`` every deal played (passed-out ones included).  Call :meth:`next_deal` to
    start a deal, play it through the :class:`Deal`, then :meth:`end_deal`.

    ``practice`` marks a practice match: one where a person may take back any card
    (:meth:`atout.core.session.Session.undo`) even after seeing what it revealed.  The
    engine plays it exactly as any other match; its record says it was practice.
    """

    def __init__(
        self,
        engine: Engine,
        game: str,
        rules: Rules | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        practice: bool = False,
    ) -> None:
        self.engine = engine
        self.info = engine.game(game)
        self.practice = practice
        self.game = game
        self.rules = rules if rules is not None else engine.default_rules(game)
        self.seed = seed if seed is not None else random.randrange(2**31)
        self.rng = random.Random(self.seed)
        self.dealer = dealer if dealer is not None else self.info.seats - 1
        self.first_dealer = self.dealer
        self.scores: list[int] = [0] * self.info.teams
        self.history: list[DealScore] = []
        self.deals: list[Deal] = []
        self.result: MatchResult | None = None
        self._carry: Any = None

    @property
    def current(self) -> Deal | None:
        """The deal being played, if any."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    def next_deal(self) -> Deal:
        """Deal the next deal (after a redeal, or after the last deal was scored)."""
        if self.result is not None:
            raise IllegalMoveError("the match is over")
        if self.current is not None:
            raise IllegalMoveError("the current deal is not finished")
        previous = self.deals[-1].state if self.deals else None
        deal = self.engine.new_deal(
            self.game, self.rules, self.dealer, self.rng, previous=previous, carry_in=self._carry
        )
        deal.state.extra["match_scores"] = tuple(self.scores)
        self.deals.append(deal)
        return deal

    def take_back(self, count: int) -> Deal:
        """Take back the last ``count`` actions of the deal being played (an undo); the
        rewound deal replaces it in :attr:`deals` and is returned."""
        deal = self.current
        if deal is None:
            raise IllegalMoveError("no deal is being played: nothing to take back")
        fresh = deal.rewound(count)
        self.deals[-1] = fresh
        return fresh

    def end_deal(self, deal: Deal) -> MatchResult | None:
        """Book a finished deal: add its score, pick the next dealer, check the match end."""
        hooks, game, rules = self.engine.hooks, self.game, self.rules
        if deal.state.phase == REDEAL:
            self.dealer = hooks.next_dealer(game=game, rules=rules, state=deal.state, redeal=True)
            return None
        if deal.score is None:
            raise IllegalMoveError("the deal is not finished")
        score = deal.score
        self.history.append(score)
        for team, pts in enumerate(score.score):
            self.scores[team] += pts
        self._carry = score.carry
        self.dealer = hooks.next_dealer(game=game, rules=rules, state=deal.state, redeal=False)
        self.result = hooks.match_over(
            game=game, rules=rules, scores=tuple(self.scores), history=list(self.history)
        )
        return self.result

    def play_deal(self, choose: Callable[[Deal], Action]) -> Deal:
        """Play one deal to its end (redeals included), asking ``choose`` for each action."""
        while True:
            deal = self.next_deal()
            while not deal.is_over:
                deal.apply(choose(deal))
            self.end_deal(deal)
            if deal.state.phase != REDEAL:
                return deal

    def __iter__(self) -> Iterator[Deal]:
        while self.result is None:
            yield self.next_deal()
