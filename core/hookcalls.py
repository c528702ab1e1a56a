"""The hooks called with their declared types: one method per hook.

The plugin manager answers every hook with ``Any``; :class:`Hooks` (an engine's
``engine.hooks``) gives each hook's answer the type :mod:`~atout.core.hookspecs`
declares for it, so that the engine, the records and the bots that ask a hook get a
typed answer and a type checker follows it.  Each method is made from its hook's
specification (:func:`_decided`, :func:`_first`, :func:`_merged`): the arguments, their
types and the answer's are written once, in the specification.  Each method takes the
hook's arguments by keyword, as the hooks are called.

A **firstresult** hook the engine cannot do without (dealing, bidding, the per-deal rules
of the play, scoring, the next dealer) returns its answer, and a hook nobody answered is
a :class:`~atout.core.errors.PluginError` (:meth:`Engine.decide`); the others return
``None`` when nobody answered.  A **merged** hook returns the list of every plugin's
answer (``None`` for a plugin with nothing to say).  A plugin's exception is a
:class:`~atout.core.errors.PluginError` naming the plugin and the hook, as for
:meth:`Engine.call`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import ParamSpec
from typing import TypeVar
from typing import overload

from . import hookspecs as spec

if TYPE_CHECKING:
    from .model import Contract
    from .model import Rules

Caller = Callable[[str, dict[str, Any]], Any]
"""How a hook is called: its name and its keyword arguments, the answer back."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


class _Method(Generic[_P, _R]):
    """A hook as a method of :class:`Hooks`: called with the hook's keyword arguments
    (typed by its specification), it answers ``_R``.  ``must``: the hook must be
    answered (:meth:`Engine.decide`)."""

    def __init__(self, hook: Callable[..., Any], must: bool) -> None:
        self.name: str = hook.__name__
        self.must = must
        self.__doc__ = hook.__doc__  # the specification's: help(Hooks) shows it

    @overload
    def __get__(self, hooks: None, owner: type[Hooks]) -> _Method[_P, _R]: ...

    @overload
    def __get__(self, hooks: Hooks, owner: type[Hooks] | None = None) -> Callable[_P, _R]: ...

    def __get__(
        self, hooks: Hooks | None, owner: type[Hooks] | None = None
    ) -> Callable[_P, _R] | _Method[_P, _R]:
        # Looked up on the class: the method itself.  On an instance this is not reached:
        # :class:`Hooks` binds every method once, into the instance (see its __init__).
        return self if hooks is None else self.bind(hooks)

    def bind(self, hooks: Hooks) -> Callable[_P, _R]:
        """The hook's caller for ``hooks``: its answer asked of the engine by name."""
        ask = hooks._decide if self.must else hooks._call
        name = self.name

        def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            if args:
                raise TypeError(f"{name} takes its arguments by keyword")
            answer: _R = ask(name, kwargs)
            return answer

        return call


def _decided(hook: Callable[_P, _R | None]) -> _Method[_P, _R]:
    """A firstresult hook the engine cannot do without: its answer, never ``None`` (a
    hook nobody answered is a :class:`~atout.core.errors.PluginError`)."""
    return _Method(hook, must=True)


def _first(hook: Callable[_P, _R]) -> _Method[_P, _R]:
    """A firstresult hook: its answer, ``None`` when nobody answered."""
    return _Method(hook, must=False)


def _merged(hook: Callable[_P, _R]) -> _Method[_P, list[_R]]:
    """A merged hook: every plugin's answer (``None`` for a plugin with nothing to say)."""
    return _Method(hook, must=False)


class Hooks:
    """Every hook of :mod:`~atout.core.hookspecs` as a typed method (see the module).

    ``call`` calls a hook (``None`` when nobody answered a firstresult hook) and
    ``decide`` calls one that must be answered; the engine hands in its own two.
    """

    def __init__(self, call: Caller, decide: Caller) -> None:
        self._call = call
        self._decide = decide
        # Each method bound once, kept in the instance (a method is a non-data
        # descriptor, so the instance's own attribute is found first): the engine asks
        # three hooks every deal, and binding one at each lookup (a call of __get__ and
        # a new closure) cost nearly 1% of a Découverte deal's instructions.
        for attr, method in _METHODS:
            setattr(self, attr, method.bind(self))

    # --- registration (merged) ---------------------------------------------------------

    games = _merged(spec.atout_games)
    rule_options = _merged(spec.atout_rule_options)
    bots = _merged(spec.atout_bots)

    # --- dealing -----------------------------------------------------------------------

    deal = _decided(spec.atout_deal)
    complete_deal = _first(spec.atout_complete_deal)
    next_dealer = _decided(spec.atout_next_dealer)

    # --- checking hand-written records (merged) ----------------------------------------

    check_layout = _merged(spec.atout_check_layout)
    check_carry_in = _merged(spec.atout_check_carry_in)

    # --- bidding -----------------------------------------------------------------------

    bid_options = _decided(spec.atout_bid_options)
    bidding_step = _decided(spec.atout_bidding_step)
    describe_bid = _first(spec.atout_describe_bid)
    declarations = _merged(spec.atout_declarations)

    # --- the play, asked once per deal -------------------------------------------------

    legal_moves = _decided(spec.atout_legal_moves)

    def trick_winner(self, *, game: str, rules: Rules, contract: Contract) -> tuple[int, ...]:
        """Which card beats which (:func:`~atout.core.hookspecs.atout_trick_winner`): a
        tuple, whatever sequence the plugin answered."""
        kw = {"game": game, "rules": rules, "contract": contract}
        return tuple(self._decide("atout_trick_winner", kw))

    card_points = _decided(spec.atout_card_points)
    end_of_trick = _first(spec.atout_end_of_trick)
    card_played = _first(spec.atout_card_played)
    can_claim = _first(spec.atout_can_claim)

    # --- scoring and the match ---------------------------------------------------------

    score_deal = _decided(spec.atout_score_deal)
    deal_scorer = _first(spec.atout_deal_scorer)
    match_over = _first(spec.atout_match_over)


_METHODS: tuple[tuple[str, _Method[..., Any]], ...] = tuple(
    (attr, value) for attr, value in vars(Hooks).items() if isinstance(value, _Method)
)
"""Every hook method of :class:`Hooks` by its attribute name, bound by each instance."""
