"""The panels over the start view: the question before a new match, the settings, the
kept matches, the person's own house rules.

Each is a :class:`~atout.ui.window.start_rows.Dialog` built from what it shows and the
callbacks its buttons call, so this module knows nothing of
:class:`~atout.ui.window.start_view.StartView`, which opens them (again after a new
size or a change) and keeps their state (the page of the kept matches, the values of
the own rules).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

import arcade
from atout.core import Engine
from atout.core import Rules

from .. import savegame
from ..i18n import LANGUAGES
from ..i18n import N_
from ..i18n import _
from ..i18n import language
from ..i18n import ngettext
from ..messages import option_title
from ..messages import option_value
from ..messages import shown
from ..savegame import SETTINGS
from . import theme
from .start_rows import DESCRIPTION
from .start_rows import Dialog

KEPT_PITCH = 58.0
"""The height of a row of the kept matches' list."""
KEPT_ROW = (232, 224, 200, 255)
CONFIRM_TEXT = N_(
    "A match is saved: start a new one? It will be kept and can be continued later "
    "(Kept matches, on this screen)."
)
KEPT_TEXT = N_(
    "Matches left unfinished when a new one started. Continue one to play it on; the "
    "match saved now is then kept here in its turn."
)
PRACTICE_TEXT = N_(
    "The next new match is a practice match: a card played can be taken back freely, "
    "and its record says it was practice."
)

Action = Callable[[], None]


def confirm_dialog(screen: tuple[float, float], start_new: Action, close: Action) -> Dialog:
    """Ask before a new match replaces the saved one at Continue."""
    dialog = Dialog("confirm", screen, (560, 220), _("New match"), close)
    r = dialog.rect
    dialog.text(_(CONFIRM_TEXT), r.left + 36, r.top - 62, r.width - 72, 14)
    dialog.button(
        _("Start a new one  (Enter)"),
        r.x - 120,
        r.bottom + 44,
        (210, 44),
        start_new,
        "confirm-new",
        theme.GREEN_OK,
    )
    dialog.button(
        _("Cancel  (Esc)"),
        r.x + 140,
        r.bottom + 44,
        (160, 44),
        close,
        "confirm-cancel",
    )
    dialog.enter = start_new
    return dialog


def settings_dialog(
    screen: tuple[float, float],
    settings: dict[str, Any],
    practice: bool,
    choose_language: Callable[[str], None],
    toggle: Callable[[str], None],
    close: Action,
) -> Dialog:
    """The settings panel: the language, a switch for each of the person's ``settings``
    and the ``practice`` switch of the next match."""
    w, h = screen
    dialog = Dialog(
        "settings", screen, (min(760.0, w - 80), min(560.0, h - 40)), _("Settings"), close
    )
    r = dialog.rect
    # the language first, each named in its own words
    y = r.top - 84
    dialog.layer.text(_("Language"), r.left + 36, y, 15, theme.INK, bold=True, anchor_y="center")
    chosen = language()
    for i, (code, name) in enumerate(LANGUAGES.items()):
        dialog.button(
            name,
            r.left + 250 + i * 140,
            y,
            (128, 36),
            partial(choose_language, code),
            f"language:{code}",
            theme.GREEN_OK if code == chosen else theme.BUTTON,
        ).selected = code == chosen
    rows: list[tuple[str, bool, str, str]] = []
    for name, (_default, text) in SETTINGS.items():
        title, _colon, what = _(text).partition(": ")
        rows.append((name, savegame.setting(settings, name), title, what))
    rows.append(("practice", practice, _("Practice match"), _(PRACTICE_TEXT)))
    y = r.top - 152
    pitch = min(84.0, (r.height - 152 - 108) / max(1, len(rows) - 1))
    """Between two switches: closer when the panel is short (the last above Close)."""
    for name, on, title, text in rows:
        dialog.button(
            _("On") if on else _("Off"),
            r.left + 70,
            y,
            (76, 36),
            partial(toggle, name),
            f"switch:{name}",
            theme.GREEN_OK if on else theme.BUTTON_OFF,
        )
        dialog.layer.text(title, r.left + 128, y + 4, 15, theme.INK, bold=True)
        dialog.text(text, r.left + 128, y - 8, r.width - 160, DESCRIPTION)
        y -= pitch
    dialog.button(_("Close  (Esc)"), r.x, r.bottom + 36, (150, 40), close, "close")
    dialog.enter = close
    return dialog


def kept_dialog(
    screen: tuple[float, float],
    kept: list[savegame.KeptMatch],
    page: int,
    line: Callable[[savegame.KeptMatch], str],
    continue_kept: Callable[[Path], None],
    page_kept: Callable[[int], None],
    close: Action,
) -> tuple[Dialog, int]:
    """The list of the ``kept`` matches (the last one first), each in its ``line`` with
    its Continue button, paged when they are many: the panel and the page it shows
    (``page`` kept within the pages)."""
    w, h = screen
    size = (min(820.0, w - 60), h - 150)
    dialog = Dialog("kept", screen, size, _("Kept matches"), close)
    r = dialog.rect
    dialog.text(_(KEPT_TEXT), r.left + 30, r.top - 56, r.width - 60, DESCRIPTION)
    top = r.top - 120
    rows = max(1, int((top - (r.bottom + 70)) // KEPT_PITCH))
    pages = (len(kept) + rows - 1) // rows
    page = max(0, min(page, pages - 1))
    shown = kept[page * rows : (page + 1) * rows]
    for i, match in enumerate(shown):
        y = top - i * KEPT_PITCH
        dialog.layer.plate(arcade.XYWH(r.x, y, r.width - 40, KEPT_PITCH - 8), KEPT_ROW, None, 8, 0)
        dialog.text(line(match), r.left + 34, y + 16, r.width - 230, DESCRIPTION)
        dialog.button(
            _("Continue"),
            r.right - 90,
            y,
            (120, 36),
            partial(continue_kept, match.path),
            f"kept:{match.path.name}",
            theme.GREEN_OK,
        )
    if pages > 1:
        dialog.layer.text(
            _("page {page}/{pages}").format(page=page + 1, pages=pages),
            r.left + 40,
            r.bottom + 30,
            DESCRIPTION,
            theme.INK,
        )
        for label, step, x in (("▲", -1, r.left + 160), ("▼", 1, r.left + 210)):
            arrow = dialog.button(
                label,
                x,
                r.bottom + 36,
                (40, 32),
                partial(page_kept, step),
                f"kept-page:{step}",
            )
            arrow.enabled = 0 <= page + step < pages
    dialog.button(_("Close  (Esc)"), r.right - 100, r.bottom + 36, (150, 40), close, "close")
    return dialog, page


def kept_line(engine: Engine, match: savegame.KeptMatch, pack_title: Callable[[str], str]) -> str:
    """One kept match in words: the game, the pack, the score, when it was kept."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(match.when))
    if match.problem:
        return _("Kept {when}; this file cannot be read: {problem}").format(
            when=when, problem=shown(match.problem)
        )
    info = engine.games.get(match.game)
    parts = [shown(info.title) if info else match.game or "?"]
    if match.pack:
        parts.append(pack_title(match.pack))
    if match.deals:
        scores = _(" to ").join(str(v) for v in match.scores)
        deals = ngettext("1 deal", "{count} deals", match.deals).format(count=match.deals)
        parts.append(_("{scores} after {deals}").format(scores=scores, deals=deals))
    else:
        parts.append(_("first deal"))
    return " · ".join(parts) + "\n" + _("kept {when}").format(when=when)


def rules_dialog(
    screen: tuple[float, float],
    engine: Engine,
    game: str,
    rules: Rules,
    base: str,
    values: Mapping[str, Any],
    note: str,
    actions: tuple[Callable[[str], None], Action, Action],
) -> tuple[Dialog, arcade.Text]:
    """The panel of the person's own house rules: every yes/no and choice option of
    ``game`` with its value in ``values`` (those changed from ``rules``, the pack they
    start from, called ``base``, lit), each button turning to the next value; ``note``
    under the list (the text returned), Save and Cancel.  ``actions``: what a value's
    button, Save and Cancel call."""
    cycle_option, save_rules, close = actions
    options = [o for o in engine.rule_options(game).values() if o.choices or o.kind == "bool"]
    w, h = screen
    size = (min(960.0, w - 40), h - 110)
    dialog = Dialog("rules", screen, size, _("Your own house rules"), close)
    r = dialog.rect
    dialog.text(
        _(
            "From {rules}: click a value to change it. Save keeps them as your own pack "
            "(in your pack folder) and chooses it; the numbers (target, bonuses) stay "
            "those of the rules you start from."
        ).format(rules=base),
        r.left + 30,
        r.top - 56,
        r.width - 60,
        DESCRIPTION,
    )
    columns = 2
    cell = (r.width - 60) / columns
    rows = (len(options) + columns - 1) // columns
    top = r.top - 122
    pitch = min(42.0, (top - (r.bottom + 130)) / max(1, rows - 1))
    for i, option in enumerate(options):
        x = r.left + 30 + (i // rows) * cell
        y = top - (i % rows) * pitch
        dialog.layer.text(option_title(option), x, y, 12, theme.INK, anchor_y="center")
        value = values.get(option.key, option.default)
        changed = value != rules.get(option.key)
        button = dialog.button(
            option_value(option, value),
            x + cell - 105,
            y,
            (150, 30),
            partial(cycle_option, option.key),
            f"option:{option.key}",
            theme.GREEN_OK if changed else theme.BUTTON,
        )
        button.selected = changed
    text = dialog.text(note, r.left + 30, r.bottom + 96, r.width - 60, DESCRIPTION)
    dialog.button(
        _("Save as my rules"),
        r.x - 100,
        r.bottom + 36,
        (200, 40),
        save_rules,
        "save-rules",
        theme.GREEN_OK,
    )
    dialog.button(_("Cancel  (Esc)"), r.x + 110, r.bottom + 36, (150, 40), close, "close")
    return dialog, text
