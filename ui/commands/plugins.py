"""``atout plugins``: the plugins this run loads, where each comes from, and its hooks.

Where from: ``shipped`` (atout's own ``atout.plugins`` entry points), ``entry point``
(another installed distribution's, with its name and version), ``--plugin`` (given for
this run).  Plugins blocked by ``--disable-plugin`` or ``ATOUT_DISABLE_PLUGINS`` are
listed apart.  For each plugin: the hooks it implements (wrappers marked), and the games
and bots it registers.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from atout.core import Engine
from atout.core.pluginmanager import DISABLE_ENV
from atout.core.pluginmanager import AtoutPluginManager
from atout.core.pluginmanager import PluginSource
from atout.ui.i18n import _
from atout.ui.i18n import ngettext
from atout.ui.safe_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def _registered(pm: AtoutPluginManager, plugin: object, hook: str) -> list[str]:
    """The names ``plugin`` registers through a merged registration hook (``atout_games``,
    ``atout_bots``), asked of that plugin alone; a failure is shown, not raised."""
    names: list[str] = []
    for impl in getattr(pm.hook, hook).get_hookimpls():
        if impl.plugin is not plugin:
            continue
        try:
            answer = impl.function()
        except Exception as exc:
            return [f"(failed: {type(exc).__name__}: {exc})"]
        names.extend(str(getattr(item, "name", item)) for item in answer or ())
    return names


def describe(pm: AtoutPluginManager) -> dict[str, Any]:
    """Every loaded plugin (in registration order) and every blocked name, as plain data."""
    plugins: list[dict[str, Any]] = []
    blocked: list[str] = []
    for name, plugin in pm.list_name_plugin():
        if plugin is None:
            blocked.append(name)
            continue
        source = pm.sources.get(name, PluginSource(name, "registered"))
        wrappers = sorted(
            caller.name
            for caller in pm.get_hookcallers(plugin) or []
            for impl in caller.get_hookimpls()
            if impl.plugin is plugin and (impl.wrapper or impl.hookwrapper)
        )
        plugins.append(
            {
                "name": name,
                "origin": source.origin,
                "distribution": source.distribution,
                "version": source.version,
                "location": source.location,
                "hooks": pm.plugin_hooks(plugin),
                "wrappers": wrappers,
                "games": _registered(pm, plugin, "atout_games"),
                "bots": _registered(pm, plugin, "atout_bots"),
            }
        )
    return {"plugins": plugins, "blocked": blocked}


def _origin(entry: dict[str, Any]) -> str:
    if entry["distribution"]:
        return f"{entry['origin']} ({entry['distribution']} {entry['version']})"
    return str(entry["origin"])


def format_text(data: dict[str, Any]) -> str:
    """The listing as a person reads it."""
    plugins = data["plugins"]
    lines = [
        ngettext("{n} plugin loaded:", "{n} plugins loaded:", len(plugins)).format(n=len(plugins))
    ]
    for entry in plugins:
        lines.append(f"  {entry['name']}: {_origin(entry)}, {entry['location']}")
        if entry["games"]:
            lines.append(f"    games: {', '.join(entry['games'])}")
        if entry["bots"]:
            lines.append(f"    bots:  {', '.join(entry['bots'])}")
        hooks = [h + (" (wrapper)" if h in entry["wrappers"] else "") for h in entry["hooks"]]
        lines.append(
            textwrap.fill(
                ", ".join(hooks) or "none",
                width=100,
                initial_indent="    hooks: ",
                subsequent_indent="           ",
                break_on_hyphens=False,
            )
        )
    if data["blocked"]:
        lines.append(
            _("blocked (--disable-plugin or {variable}): {names}").format(
                variable=DISABLE_ENV, names=", ".join(sorted(data["blocked"]))
            )
        )
    return "\n".join(lines)


def run(args: argparse.Namespace, engine: Engine) -> int:
    data = describe(engine.pm)
    if args.json:
        print(printable(json.dumps(data, ensure_ascii=False, indent=1), keep_newlines=True))
    else:
        print(printable(format_text(data), keep_newlines=True))
    return 0
