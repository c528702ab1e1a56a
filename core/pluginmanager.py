"""The plugin manager factory.

Every rule set, house rule and bot is a plugin.  The shipped ones are declared in
atout's own ``atout.plugins`` entry points and loaded exactly as a third party's are; a
third party ships one by declaring an entry point in that group.  A plugin can also be
given for one run by module name or file path (``--plugin``), and any plugin can be
blocked by name (``--disable-plugin`` or ``ATOUT_DISABLE_PLUGINS``).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import importlib.util
import inspect
import operator
import os
import sys
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from .errors import PluginError
from .text import Message

ENTRY_POINT_GROUP = "atout.plugins"
DISABLE_ENV = "ATOUT_DISABLE_PLUGINS"
SHIPPED_DISTRIBUTION = "atout"


@dataclass(frozen=True)
class PluginSource:
    """Where a loaded plugin came from, for ``atout plugins``."""

    name: str
    origin: str
    """``"shipped"``, ``"entry point"``, ``"--plugin"`` or ``"registered"``."""
    distribution: str = ""
    version: str = ""
    location: str = ""


class AtoutPluginManager(pluggy.PluginManager):
    """A :class:`pluggy.PluginManager` that remembers where each plugin came from.

    ``generation`` grows with every (un)registration, so that the engine's per-deal rule
    cache knows when the plugins changed.
    """

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.add_hookspecs(hookspecs)
        self.generation = 0
        self.sources: dict[str, PluginSource] = {}
        self._monitors = 0
        self._direct: dict[str, Callable[[Mapping[str, Any]], Any]] = {}
        self._direct_generation = -1

    def add_hookcall_monitoring(
        self,
        before: Callable[[str, Sequence[pluggy.HookImpl], Mapping[str, Any]], None],
        after: Callable[
            [pluggy.Result[Any], str, Sequence[pluggy.HookImpl], Mapping[str, Any]], None
        ],
    ) -> Callable[[], None]:
        # Monitoring (and tracing, built on it) must see every call: no direct calls.
        undo = super().add_hookcall_monitoring(before, after)
        self._monitors += 1
        self.generation += 1

        def undo_and_count() -> None:
            undo()
            self._monitors -= 1
            self.generation += 1

        return undo_and_count

    def caller(self, hook: str) -> Callable[[Mapping[str, Any]], Any]:
        """A function that calls ``hook`` with its arguments given as one mapping and
        answers as pluggy would (the first answer that is not None for a firstresult
        hook, else the list of answers).

        It calls the implementations itself, in pluggy's order, which costs a fraction
        of pluggy's per-call bookkeeping: the engine calls a few hooks every deal.
        Whenever pluggy could behave differently it is pluggy's own call: a wrapper, an
        implementation with keyword defaults, or monitoring and tracing.
        """
        if self._direct_generation != self.generation:
            self._direct = {}
            self._direct_generation = self.generation
        call = self._direct.get(hook)
        if call is None:
            call = self._direct[hook] = self._make_caller(hook)
        return call

    def _make_caller(self, hook: str) -> Callable[[Mapping[str, Any]], Any]:
        hook_caller = getattr(self.hook, hook)
        impls = list(reversed(hook_caller.get_hookimpls()))
        plain = all(not (i.wrapper or i.hookwrapper or i.kwargnames) for i in impls)
        if self._monitors or not plain or hook_caller.spec is None:
            return lambda kwargs: hook_caller(**kwargs)
        table = tuple((i.function, _arguments(tuple(i.argnames))) for i in impls)
        if hook_caller.spec.opts.get("firstresult"):

            def first(kwargs: Mapping[str, Any]) -> Any:
                for function, arguments in table:
                    answer = function(*arguments(kwargs))
                    if answer is not None:
                        return answer
                return None

            return first

        def every(kwargs: Mapping[str, Any]) -> list[Any]:
            answers = []
            for function, arguments in table:
                answer = function(*arguments(kwargs))
                if answer is not None:
                    answers.append(answer)
            return answers

        return every

    def register(self, plugin: object, name: str | None = None) -> str | None:
        label = name or self.get_canonical_name(plugin)
        if not self.is_blocked(label):
            misfit = self._misfit(plugin)
            if misfit is not None:
                hook, problem = misfit
                raise PluginError(f"plugin {label!r} refused: {problem}", plugin=label, hook=hook)
        try:
            result = super().register(plugin, name)
        except pluggy.PluginValidationError as exc:
            text = " ".join(str(exc).split())
            raise PluginError(f"plugin {label!r} refused: {text}", plugin=label, hook="") from None
        self.generation += 1
        if result is not None and result not in self.sources:
            self.sources[result] = PluginSource(result, "registered")
        return result

    def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
        result = super().unregister(plugin, name)
        self.generation += 1
        return result

    def _misfit(self, plugin: object) -> tuple[str, str] | None:
        """The first hook implementation of ``plugin`` that does not fit the hook specs, as
        ``(hook, one-line reason)``: a name that is no atout hook (with a did-you-mean), or
        an argument the hook does not give.  pluggy would refuse the second with a
        three-line message and accept the first silently (the hook is then never called)."""
        for attr in dir(plugin):
            opts = self.parse_hookimpl_opts(plugin, attr)
            if opts is None:
                continue
            hook = opts.get("specname") or attr
            spec = getattr(getattr(self.hook, hook, None), "spec", None)
            if spec is None:
                close = difflib.get_close_matches(hook, hookspecs.all_hook_names(), n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                return hook, f"{hook} is not an atout hook{hint}"
            try:
                params = inspect.signature(getattr(plugin, attr)).parameters.values()
            except (TypeError, ValueError):
                continue
            positional = (
                inspect.Parameter.POSITIONAL_ONLY,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
            )
            required = [p.name for p in params if p.default is p.empty and p.kind in positional]
            unknown = [a for a in required if a not in spec.argnames]
            if unknown:
                given = ", ".join(spec.argnames) or "no arguments"
                return hook, (
                    f"its {hook} takes {', '.join(unknown)}, which the hook does not give "
                    f"(it gives {given})"
                )
        return None

    def plugin_hooks(self, plugin: object) -> list[str]:
        """The names of the hooks ``plugin`` implements."""
        callers = self.get_hookcallers(plugin) or []
        return sorted(c.name for c in callers)


def _arguments(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """The function that picks an implementation's arguments, in its order, from the
    keyword arguments of a hook call."""
    if len(names) > 1:
        return operator.itemgetter(*names)
    if names:
        name = names[0]
        return lambda kwargs: (kwargs[name],)
    return lambda kwargs: ()


def disabled_from_env() -> list[str]:
    """The plugin names blocked by ``ATOUT_DISABLE_PLUGINS`` (comma-separated)."""
    raw = os.environ.get(DISABLE_ENV, "")
    return [n.strip() for n in raw.split(",") if n.strip()]


MAX_PLUGIN_SPEC = 1024
"""The longest ``--plugin`` argument read (a module name or a path)."""


def _load_path_or_module(spec: str) -> tuple[ModuleType, str]:
    if len(spec) > MAX_PLUGIN_SPEC or "\0" in spec:
        raise PluginError(
            Message(
                "--plugin {spec}...: not a module name nor a path (at most {most} characters)",
                spec=repr(spec[:40]),
                most=MAX_PLUGIN_SPEC,
            ),
            plugin=spec[:40],
        )
    path = Path(spec)
    try:
        exists = path.exists()
    except OSError:
        exists = False
    if spec.endswith(".py") or exists:
        if not path.is_file():
            problem = (
                Message("--plugin {spec}: not a Python file", spec=spec)
                if exists
                else Message("--plugin {spec}: no such file", spec=spec)
            )
            raise PluginError(problem, plugin=spec)
        name = path.stem
        mod_spec = importlib.util.spec_from_file_location(f"atout_ext_{name}", path)
        if mod_spec is None or mod_spec.loader is None:
            raise PluginError(
                Message("--plugin {spec}: cannot be loaded as Python", spec=spec), plugin=spec
            )
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[mod_spec.name] = module
        try:
            mod_spec.loader.exec_module(module)
        except Exception as exc:
            raise PluginError(
                Message("--plugin {spec}: failed to load: {problem}", spec=spec, problem=str(exc)),
                plugin=name,
            ) from None
        return module, name
    try:
        module = importlib.import_module(spec)
    except Exception as exc:
        raise PluginError(
            Message("--plugin {spec}: cannot import: {problem}", spec=spec, problem=str(exc)),
            plugin=spec,
        ) from None
    return module, spec.rsplit(".", 1)[-1]


def make_plugin_manager(
    plugins: Iterable[str] = (),
    disable: Iterable[str] = (),
    entry_points: bool = True,
) -> AtoutPluginManager:
    """Build the plugin manager with every plugin a run should have.

    :param plugins: extra plugins for this run, each a module name or a ``.py`` path.
    :param disable: plugin names to block (added to ``ATOUT_DISABLE_PLUGINS``).
    :param entry_points: load the ``atout.plugins`` entry points (shipped and third-party).

    The shipped plugins are registered first, so that a third party's answer to a
    firstresult hook comes before them.  A plugin that fails to import or does not fit
    the hook specs raises :class:`~atout.core.errors.PluginError` naming it.
    """
    pm = AtoutPluginManager()
    for name in [*disable, *disabled_from_env()]:
        pm.set_blocked(name)
    if entry_points:
        found: list[tuple[bool, importlib.metadata.EntryPoint, Any]] = []
        for dist in importlib.metadata.distributions():
            dist_name = dist.metadata["Name"] or ""
            for ep in dist.entry_points:
                if ep.group == ENTRY_POINT_GROUP:
                    found.append((dist_name.lower() == SHIPPED_DISTRIBUTION, ep, dist))
        found.sort(key=lambda item: (not item[0], item[1].name))
        for shipped, ep, dist in found:
            if pm.has_plugin(ep.name) or pm.is_blocked(ep.name):
                continue
            try:
                plugin = ep.load()
            except Exception as exc:
                raise PluginError(
                    Message(
                        "plugin {name} (entry point {where}) failed to load: {problem}",
                        name=repr(ep.name),
                        where=ep.value,
                        problem=str(exc),
                    ),
                    plugin=ep.name,
                ) from None
            pm.register(plugin, name=ep.name)
            pm.sources[ep.name] = PluginSource(
                ep.name,
                "shipped" if shipped else "entry point",
                distribution=dist.metadata["Name"] or "",
                version=dist.version,
                location=ep.value,
            )
    for spec in plugins:
        module, name = _load_path_or_module(spec)
        if pm.is_blocked(name):
            continue
        already = pm.get_name(module) if pm.is_registered(module) else None
        if already is not None or pm.has_plugin(name):
            source = pm.sources.get(already or name)
            loaded = repr(already or name)
            raise PluginError(
                Message(
                    "--plugin {spec}: the plugin {name} is already loaded ({origin}: {where})",
                    spec=spec,
                    name=loaded,
                    origin=source.origin,
                    where=source.location,
                )
                if source is not None
                else Message(
                    "--plugin {spec}: the plugin {name} is already loaded", spec=spec, name=loaded
                ),
                plugin=name,
            )
        pm.register(module, name=name)
        pm.sources[name] = PluginSource(name, "--plugin", location=spec)
    return pm
