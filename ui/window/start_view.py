"""The start view: choose the game, the house-rule pack, the bots, the target and a seed.

The packs are those of ``atout variants list`` (:func:`atout.core.packs.list_packs`:
shipped and user packs); a pack that does not load is listed greyed, and clicking it
shows its problem.  A pack file given on the command line (``--pack FILE``) is listed
too.  **With people** opens the screen of matches with people
(:mod:`~atout.ui.window.start_people`) with these choices.

No match is ever lost from here: when a match is saved, **Continue** is the main button
(Enter); **New match** asks first (unless the person turned the question off in
**Settings**) and the saved match is kept aside, never replaced
(:func:`~atout.ui.savegame.keep_saved_match`).  **Kept matches** lists the matches set
aside that way and continues one (:func:`~atout.ui.savegame.continue_kept`).  The
settings (:data:`~atout.ui.savegame.SETTINGS`, and the practice switch of the match's
:class:`~atout.ui.savegame.Setup`) are in the **Settings** panel.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import arcade
from atout.core import BotInfo
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.packs import ORIGINS
from atout.core.packs import PackInfo
from atout.core.packs import is_path
from atout.core.packs import list_packs
from atout.core.packs import resolve
from atout.core.packs import yaml_text

from .. import savegame
from ..i18n import LANGUAGES
from ..i18n import N_
from ..i18n import SETTING
from ..i18n import _
from ..i18n import language
from ..i18n import ngettext
from ..i18n import set_language
from ..rules import resolve_rules
from ..savegame import SETTINGS
from ..savegame import Setup
from . import theme
from .host import Host
from .learn_row import add_learn_row
from .start_rows import DESCRIPTION
from .start_rows import PACK_PITCH
from .start_rows import Dialog
from .start_rows import add_match_buttons
from .start_rows import add_page_arrows
from .start_rows import default_pack
from .start_rows import fitted_row
from .start_rows import pack_buttons
from .start_rows import place_match_buttons
from .start_rows import playable_games
from .start_rows import tallest
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer
from .widgets import shrink_to

HEADING = 15
TARGET_STEP = 100
TARGET_MIN = 100
TARGET_MAX = 10000
BOX = (8, 40, 24, 215)
BOX_EDGE = (255, 255, 255, 40)
SEED_BOX = (250, 248, 240, 255)
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


def pack_text(pack: PackInfo) -> str:
    """A pack in words under the list: its title and name (what ``--pack`` takes), what
    it changes, and where its file is unless shipped."""
    where = _(" (from {path})").format(path=pack.path) if pack.origin != "shipped" else ""
    named = f"{pack.title} ({pack.name})" if pack.title else pack.name
    return _("{name}: {description}").format(name=named, description=pack.description) + where


def bot_text(bot: BotInfo) -> str:
    """A bot's level in words: its title, its name (what ``--bot`` takes), what it does."""
    named = f"{bot.title} ({bot.name})" if bot.title and bot.title.lower() != bot.name else ""
    named = named or bot.title or bot.name
    return _("{name}: {description}").format(name=named, description=bot.description)


class StartView(arcade.View):
    """The first screen: the match's settings, New match, Continue."""

    def __init__(self, app: Host, message: str = "") -> None:
        super().__init__(app.window)
        self.app = app
        self.engine = app.engine
        self.clock = 0.0
        self.games = playable_games(self.engine)
        self.packs: list[PackInfo] = list_packs(self.engine)
        self.setup = Setup(game=self.games[0] if self.games else "decouverte")
        self.pack_page = 0
        self.pack_rows = 7
        self.seed_text = ""
        self.seed_focus = False
        self.message_text = message
        self.layer = Layer()
        self.pack_layer = Layer()
        self.buttons = ButtonRow()
        self.pack_buttons = ButtonRow()
        self.dialog: Dialog | None = None
        """The panel open over the view (confirm, settings, kept matches), if any."""
        self.kept_page = 0
        self.own_values: dict[str, Any] = {}
        """The values of the panel of the person's own rules, while it is open."""
        self.own_note = ""
        self.own_text: arcade.Text | None = None
        remembered = Setup.from_json(app.settings.get("setup"))
        self.select_game(remembered.game if remembered.game in self.games else self.setup.game)
        if remembered.game == self.setup.game:
            self.preselect(remembered)

    # --- the choices --------------------------------------------------------------------

    def bots_for(self, game: str) -> list[str]:
        """The bots that play ``game``, weakest first."""
        bots = [b for b in self.engine.bots.values() if game in b.games]
        return [b.name for b in sorted(bots, key=lambda b: (b.level, b.name))]

    def packs_for(self, game: str) -> list[PackInfo]:
        """The packs of ``game`` (and those whose game could not be read): the shipped
        ones first, then the person's, each in the order of their titles."""
        packs = [p for p in self.packs if p.game == game or not p.game]
        origins = {origin: i for i, origin in enumerate(ORIGINS)}
        return sorted(packs, key=lambda p: (origins[p.origin], (p.title or p.name).casefold()))

    def preselect(self, setup: Setup) -> None:
        """Choose what ``setup`` says where it is possible (the command line's, or the
        last match's choices)."""
        if setup.game in self.games and setup.game != self.setup.game:
            self.select_game(setup.game)
        if setup.pack:
            self._add_pack_file(setup.pack)
            if any(p.name == setup.pack and p.usable for p in self.packs_for(self.setup.game)):
                self.setup.pack = setup.pack
                self.pack_page = self.page_of(setup.pack)
        if setup.bot in self.bots_for(self.setup.game):
            self.setup.bot = setup.bot
        if setup.target is not None:
            self.setup.target = setup.target
        if setup.seed is not None:
            self.seed_text = str(setup.seed)
        self.setup.think = setup.think
        self.setup.practice = setup.practice
        self.refresh()

    def _add_pack_file(self, name: str) -> None:
        """A pack file named on the command line joins the list (as ``variants`` would
        show a file)."""
        if not is_path(name) or any(p.name == name for p in self.packs):
            return
        try:
            resolved = resolve(self.engine, name, self.setup.game)
        except AtoutError as exc:
            self.message_text = str(exc)
            return
        self.packs.append(
            PackInfo(name, resolved.game, resolved.description, "file", resolved.path)
        )

    def select_game(self, game: str) -> None:
        self.setup.game = game
        self.setup.pack = default_pack(self.packs, game)
        bots = self.bots_for(game)
        preferred = [b for b in ("greedy", "expert", "random") if b in bots]
        self.setup.bot = preferred[0] if preferred else (bots[0] if bots else "")
        self.setup.target = None
        self._build()
        self.pack_page = self.page_of(self.setup.pack)
        self.refresh()

    def select_pack(self, name: str) -> None:
        self.setup.pack = name
        self.setup.target = None
        self.refresh()

    def select_bot(self, name: str) -> None:
        self.setup.bot = name
        self.refresh()

    def pack_rules(self) -> Rules | None:
        try:
            return resolve_rules(self.engine, self.setup.game, self.setup.pack)
        except AtoutError:
            return None

    def target(self) -> int:
        """The target score: the one chosen, else the pack's."""
        if self.setup.target is not None:
            return self.setup.target
        rules = self.pack_rules()
        return int(rules.get("target", 1000)) if rules is not None else 1000

    def step_target(self, step: int) -> None:
        self.setup.target = max(TARGET_MIN, min(TARGET_MAX, self.target() + step))
        self.refresh()

    def set_message(self, message: str) -> None:
        self.message_text = message
        self.message.text = message

    # --- building the widgets -------------------------------------------------------------

    def _build(self) -> None:
        """Every plate, text and button of the view, laid out for the window's logical
        size (again when the game changes, the bots differ, or the window's size does).

        Each column is laid out from its top: a heading, its controls, the description
        of the choice in the room the longest description needs, then the next one."""
        frame = self.app.frame
        self.frame = frame
        w, h = frame.width, frame.height
        layer = Layer()
        b = ButtonRow()
        gold = theme.GOLD
        margin, gap = (48.0, 24.0) if w >= 1200 else (24.0, 20.0)
        col = (w - 2 * margin - gap) / 2
        self.left_x = margin + 28
        right_x = margin + col + gap + 28
        inner = col - 56
        self.column_width = inner
        box_top, box_bottom = h - 128, 108.0
        self.boxes = [
            arcade.LRBT(margin, margin + col, box_bottom, box_top),
            arcade.LRBT(margin + col + gap, w - margin, box_bottom, box_top),
        ]
        """The two panels: the match's settings, the house rules."""
        for box in self.boxes:
            layer.plate(box, BOX, BOX_EDGE, 16, 2)
        mid = w / 2
        layer.text("atout", mid, h - 70, 44, gold, anchor_x="center", bold=True)
        tagline = layer.text(
            _("Belote Découverte for two · Belote and La Coinche for four · house rules · bots"),
            mid,
            h - 104,
            14,
            theme.CREAM,
            anchor_x="center",
        )
        # between the corner buttons (settings and rules at the left, the kept matches
        # and the guided deal at the right): smaller, else left out on a narrow window
        room = 2 * min(mid - (margin + 170), (w - margin - 250) - mid)
        if not shrink_to(tagline, room):
            tagline.text = ""
        x = self.left_x
        y = box_top - 38
        layer.text(_("Game"), x, y, HEADING, gold, bold=True)
        y -= 34
        infos = [self.engine.game(game) for game in self.games]
        long = [_("{game} · {seats} players").format(game=i.title, seats=i.seats) for i in infos]
        probe = Layer()
        need = sum(probe.text(t, 0, 0, 13, bold=True).content_width + 46 for t in long)
        titles = long if need <= inner else [i.title for i in infos]
        rows = fitted_row(
            layer,
            b,
            x,
            y,
            (120, 34),
            8,
            [
                (title, partial(self.select_game, i.name), f"game:{i.name}")
                for title, i in zip(titles, infos, strict=True)
            ],
            room=inner,
        )
        y -= 30 + (rows - 1) * 42  # more games than one row holds: the next rows
        squeeze = 12 * (rows - 1)
        """What each gap below gives back for the game rows past the first."""
        self.game_text = layer.text(
            "", x, y, DESCRIPTION, theme.CREAM, width=int(inner), multiline=True, anchor_y="top"
        )
        y -= tallest([i.description for i in infos], inner) + 34 - squeeze
        layer.text(_("Bots"), x, y, HEADING, gold, bold=True)
        y -= 32
        names = self.bots_for(self.setup.game)
        bots = [
            (self.engine.bots[bot].title or bot, partial(self.select_bot, bot), f"bot:{bot}")
            for bot in names
        ]
        fitted_row(layer, b, x, y, (100, 36), 10, bots)
        y -= 30
        self.bot_text = layer.text(
            "", x, y, DESCRIPTION, theme.CREAM, width=int(inner), multiline=True, anchor_y="top"
        )
        described = [bot_text(self.engine.bots[n]) for n in names]
        y -= tallest(described or [_("No bot plays this game.")], inner) + 34 - squeeze
        layer.text(_("Target score"), x, y, HEADING, gold, bold=True)
        seed_x = x + max(250.0, inner * 0.45)
        layer.text(_("Seed"), seed_x, y, HEADING, gold, bold=True)
        y -= 36
        b.add(
            Button(layer, "−", x + 24, y, 46, 38, lambda: self.step_target(-TARGET_STEP), size=18)
        )
        self.target_text = layer.text(
            "", x + 100, y, 18, theme.WHITE, anchor_x="center", anchor_y="center", bold=True
        )
        b.add(
            Button(layer, "+", x + 176, y, 46, 38, lambda: self.step_target(TARGET_STEP), size=18)
        )
        seed_w = min(240, int(margin + col - 28 - seed_x))
        self.seed_box = b.add(
            Button(
                layer,
                "",
                seed_x + seed_w / 2,
                y,
                seed_w,
                38,
                self.focus_seed,
                colour=SEED_BOX,
                hover_colour=(255, 255, 255, 255),
                text_colour=theme.INK,
                name="seed",
            )
        )
        y -= 52 - squeeze
        layer.text(_("Speed of the bots"), x, y, HEADING, gold, bold=True)
        y -= 32
        for i, speed in enumerate(theme.SPEEDS):
            b.add(
                Button(
                    layer,
                    _(speed),
                    x + 56 + i * 124,
                    y,
                    112,
                    34,
                    partial(self.set_speed, speed),
                    size=12,
                    name=f"speed:{speed}",
                )
            )
        self.left_bottom = y - 17
        # the house rules: a list of packs (paged), the chosen pack's description below
        rx = right_x
        right_edge = w - margin - 28
        y = box_top - 38
        layer.text(_("House rules"), rx, y, HEADING, gold, bold=True)
        self.pack_page_text = layer.text(
            "", right_edge - 60, y, DESCRIPTION, theme.CREAM, anchor_x="center"
        )
        b.add(
            Button(
                layer,
                _("Your own…  (E)"),
                right_edge - 195,
                y + 5,
                150,
                30,
                self.open_rules,
                size=12,
                name="own-rules",
            )
        )
        list_top = y - 20
        all_packs = self.packs_for(self.setup.game)
        texts = [pack_text(p) for p in all_packs] or ["x"]
        described_h = tallest(texts, right_edge - rx)
        room = list_top - (box_bottom + 24 + described_h + 16)
        self.pack_rows = max(3, min(len(all_packs) or 1, int(room // PACK_PITCH)))
        self.pack_top = list_top - PACK_PITCH / 2
        self.pack_x = (rx + right_edge - 56) / 2
        self.pack_width = int(right_edge - 56 - rx)
        arrows_x = right_edge - 20
        bottom = self.pack_top - (self.pack_rows - 1) * PACK_PITCH
        add_page_arrows(layer, b, arrows_x, self.pack_top, bottom, self.page)
        y = self.pack_top - (self.pack_rows - 1) * PACK_PITCH - PACK_PITCH / 2 - 18
        self.pack_text = layer.text(
            "",
            rx,
            y,
            DESCRIPTION,
            theme.CREAM,
            width=int(right_edge - rx),
            multiline=True,
            anchor_y="top",
        )
        add_match_buttons(layer, b, mid, self.new_match, self.continue_match, self.with_people)
        # the settings at the heading's left, the kept matches at its right
        corner_y = h - 44
        b.add(
            Button(
                layer,
                _("Settings  (S)"),
                margin + 80,
                corner_y,
                160,
                36,
                self.open_settings,
                size=13,
                name="settings",
            )
        )
        b.add(
            Button(
                layer,
                _("Kept matches"),
                w - margin - 120,
                corner_y,
                240,
                36,
                self.open_kept,
                size=13,
                name="kept",
            )
        )
        # learning the game, under them
        add_learn_row(self, layer, b, w, corner_y - 42, margin)
        self.message = layer.text(
            self.message_text, mid, 92, 13, gold, anchor_x="center", anchor_y="center"
        )
        self.layer = layer
        self.buttons = b

    def page_of(self, name: str) -> int:
        """The page of the pack list on which the pack ``name`` is."""
        names = [p.name for p in self.packs_for(self.setup.game)]
        return names.index(name) // self.pack_rows if name in names else 0

    def _build_pack_list(self) -> None:
        packs = self.packs_for(self.setup.game)
        rows = self.pack_rows
        pages = max(1, (len(packs) + rows - 1) // rows)
        self.pack_page = max(0, min(self.pack_page, pages - 1))
        shown = packs[self.pack_page * rows : (self.pack_page + 1) * rows]
        self.pack_layer, self.pack_buttons = pack_buttons(
            shown,
            (self.pack_x, self.pack_top, self.pack_width),
            self.setup.pack,
            self.click_pack,
        )
        self.pack_page_text.text = (
            _("page {page}/{pages}").format(page=self.pack_page + 1, pages=pages)
            if pages > 1
            else ""
        )
        for b in self.buttons.buttons:
            if b.name in ("packs-up", "packs-down"):
                b.visible = pages > 1
                last = self.pack_page == (0 if b.name == "packs-up" else pages - 1)
                b.enabled = not last

    def click_pack(self, info: PackInfo) -> None:
        if info.usable:
            self.select_pack(info.name)
            self.set_message("")
        else:
            self.set_message(_("This pack cannot be used: {problem}").format(problem=info.problem))

    def page(self, step: int) -> None:
        self.pack_page += step
        self._build_pack_list()

    def refresh(self) -> None:
        """Bring every label and selection up to date with the choices."""
        saved = savegame.has_saved_match()
        for b in self.buttons.buttons:
            if b.name.startswith("game:"):
                b.selected = b.name == f"game:{self.setup.game}"
            elif b.name.startswith("bot:"):
                b.selected = b.name == f"bot:{self.setup.bot}"
            elif b.name.startswith("speed:"):
                b.selected = b.name == f"speed:{self.app.speed_name}"
        place_match_buttons(self.buttons, self.frame.width / 2, saved, self.setup.practice)
        kept = len(savegame.kept_paths()) if self.app.persist else 0
        for b in self.buttons.buttons:
            if b.name == "kept":
                b.visible = kept > 0
                b.set_label(_("Kept matches ({count})  (K)").format(count=kept))
        self._build_pack_list()
        info = self.engine.games.get(self.setup.game)
        self.game_text.text = info.description if info else ""
        pack = next((p for p in self.packs if p.name == self.setup.pack), None)
        if pack is None:
            self.pack_text.text = _("The game's standard rules.")
        else:
            self.pack_text.text = pack_text(pack)
        bot = self.engine.bots.get(self.setup.bot)
        self.bot_text.text = bot_text(bot) if bot else _("No bot plays this game.")
        self.target_text.text = str(self.target())
        cursor = "|" if self.seed_focus else ""
        self.seed_box.set_label(
            self.seed_text + cursor if self.seed_text or cursor else _("random")
        )
        self.seed_box.selected = self.seed_focus

    # --- actions -------------------------------------------------------------------------

    def focus_seed(self) -> None:
        self.seed_focus = not self.seed_focus
        self.refresh()

    def set_speed(self, name: str) -> None:
        self.app.set_speed(name)
        self.refresh()

    def chosen_setup(self) -> Setup:
        return Setup(
            game=self.setup.game,
            pack=self.setup.pack,
            bot=self.setup.bot,
            target=self.setup.target,
            seed=int(self.seed_text) if self.seed_text else None,
            think=self.setup.think,
            practice=self.setup.practice,
        )

    def setting(self, name: str) -> bool:
        """The person's setting ``name`` (see :data:`~atout.ui.savegame.SETTINGS`)."""
        return savegame.setting(self.app.settings, name)

    def new_match(self) -> None:
        """New match: when a match is saved, ask first (the setting "Confirm before a
        new match"); the saved match is kept aside either way."""
        if savegame.has_saved_match() and self.setting("confirm_new"):
            self.open_confirm()
        else:
            self.start_new()

    def start_new(self) -> None:
        """Start the match chosen (the app keeps a saved match aside first)."""
        self.close_dialog()
        setup = self.chosen_setup()
        if not setup.bot:
            self.set_message(_("No bot is installed for this game."))
            return
        try:
            rules = resolve_rules(self.engine, setup.game, setup.pack, setup.target)
        except AtoutError as exc:
            self.set_message(str(exc))
            return
        try:
            self.app.start_match(setup, rules)
        except AtoutError as exc:  # the save file cannot be written: say why, stay here
            self.set_message(str(exc))

    def continue_match(self) -> None:
        if savegame.has_saved_match():
            self.app.continue_match()

    def continue_kept(self, path: Path) -> None:
        """Continue a kept match: it becomes the saved match (the one saved now is kept
        aside in its turn), then Continue."""
        self.close_dialog()
        try:
            savegame.continue_kept(path)
        except AtoutError as exc:
            self.set_message(str(exc))
            self.refresh()
            return
        self.app.continue_match()

    # --- the panels over the view ------------------------------------------------------------

    def close_dialog(self) -> None:
        self.dialog = None

    def open_confirm(self) -> None:
        """Ask before a new match replaces the saved one at Continue."""
        w, h = self.frame.width, self.frame.height
        dialog = Dialog("confirm", (w, h), (560, 220), _("New match"), self.close_dialog)
        r = dialog.rect
        dialog.text(_(CONFIRM_TEXT), r.left + 36, r.top - 62, r.width - 72, 14)
        dialog.button(
            _("Start a new one  (Enter)"),
            r.x - 120,
            r.bottom + 44,
            (210, 44),
            self.start_new,
            "confirm-new",
            theme.GREEN_OK,
        )
        dialog.button(
            _("Cancel  (Esc)"),
            r.x + 140,
            r.bottom + 44,
            (160, 44),
            self.close_dialog,
            "confirm-cancel",
        )
        dialog.enter = self.start_new
        self.dialog = dialog

    def open_settings(self) -> None:
        """The settings panel: a switch for each of the person's settings and the
        practice switch of the next match."""
        w, h = self.frame.width, self.frame.height
        dialog = Dialog(
            "settings", (w, h), (min(760.0, w - 80), 480), _("Settings"), self.close_dialog
        )
        r = dialog.rect
        # the language first, each named in its own words
        y = r.top - 84
        dialog.layer.text(
            _("Language"), r.left + 36, y, 15, theme.INK, bold=True, anchor_y="center"
        )
        chosen = language()
        for i, (code, name) in enumerate(LANGUAGES.items()):
            dialog.button(
                name,
                r.left + 250 + i * 140,
                y,
                (128, 36),
                partial(self.choose_language, code),
                f"language:{code}",
                theme.GREEN_OK if code == chosen else theme.BUTTON,
            ).selected = code == chosen
        rows: list[tuple[str, bool, str, str]] = []
        for name, (_default, text) in SETTINGS.items():
            title, _colon, what = _(text).partition(": ")
            rows.append((name, self.setting(name), title, what))
        rows.append(("practice", self.setup.practice, _("Practice match"), _(PRACTICE_TEXT)))
        y = r.top - 152
        for name, on, title, text in rows:
            dialog.button(
                _("On") if on else _("Off"),
                r.left + 70,
                y,
                (76, 36),
                partial(self.toggle, name),
                f"switch:{name}",
                theme.GREEN_OK if on else theme.BUTTON_OFF,
            )
            dialog.layer.text(title, r.left + 128, y + 4, 15, theme.INK, bold=True)
            dialog.text(text, r.left + 128, y - 8, r.width - 160, DESCRIPTION)
            y -= 88
        dialog.button(_("Close  (Esc)"), r.x, r.bottom + 36, (150, 40), self.close_dialog, "close")
        dialog.enter = self.close_dialog
        self.dialog = dialog

    def choose_language(self, code: str) -> None:
        """Show every text in the language ``code`` from now on, kept for the next start
        (the settings' ``"language"``); the view is built again at once in it."""
        self.app.settings[SETTING] = set_language(code)
        if self.app.persist:
            savegame.save_settings(self.app.settings)
        self._build()
        self.refresh()
        self.open_settings()

    def toggle(self, name: str) -> None:
        """Turn a switch of the settings panel on or off (kept for the next start)."""
        if name == "practice":
            self.setup.practice = not self.setup.practice
        else:
            self.app.settings[name] = not self.setting(name)
            if self.app.persist:
                savegame.save_settings(self.app.settings)
        self.refresh()
        self.open_settings()

    def open_kept(self) -> None:
        """The list of the matches kept aside, the last one first, each with its
        Continue button (paged when they are many)."""
        kept = savegame.kept_matches()
        if not kept:
            self.close_dialog()
            return
        w, h = self.frame.width, self.frame.height
        size = (min(820.0, w - 60), h - 150)
        dialog = Dialog("kept", (w, h), size, _("Kept matches"), self.close_dialog)
        r = dialog.rect
        dialog.text(_(KEPT_TEXT), r.left + 30, r.top - 56, r.width - 60, DESCRIPTION)
        top = r.top - 120
        rows = max(1, int((top - (r.bottom + 70)) // KEPT_PITCH))
        pages = (len(kept) + rows - 1) // rows
        self.kept_page = max(0, min(self.kept_page, pages - 1))
        shown = kept[self.kept_page * rows : (self.kept_page + 1) * rows]
        for i, match in enumerate(shown):
            y = top - i * KEPT_PITCH
            dialog.layer.plate(
                arcade.XYWH(r.x, y, r.width - 40, KEPT_PITCH - 8), KEPT_ROW, None, 8, 0
            )
            dialog.text(self.kept_line(match), r.left + 34, y + 16, r.width - 230, DESCRIPTION)
            dialog.button(
                _("Continue"),
                r.right - 90,
                y,
                (120, 36),
                partial(self.continue_kept, match.path),
                f"kept:{match.path.name}",
                theme.GREEN_OK,
            )
        if pages > 1:
            dialog.layer.text(
                _("page {page}/{pages}").format(page=self.kept_page + 1, pages=pages),
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
                    partial(self.page_kept, step),
                    f"kept-page:{step}",
                )
                arrow.enabled = 0 <= self.kept_page + step < pages
        dialog.button(
            _("Close  (Esc)"), r.right - 100, r.bottom + 36, (150, 40), self.close_dialog, "close"
        )
        self.dialog = dialog

    def open_rules(self, keep: bool = False) -> None:
        """The panel of the person's own house rules: every yes/no and choice option of
        the game, starting from the chosen pack's values (``keep``: from those being
        edited), each button turning to the next value; Save writes them as the person's
        own pack (:func:`~atout.ui.savegame.save_own_pack`) and chooses it."""
        rules = self.pack_rules()
        if rules is None:
            self.set_message(_("The chosen house rules cannot be read: choose others first."))
            return
        if not keep or not self.own_values:
            self.own_values = rules.to_dict()
            self.own_note = ""
        options = [
            o
            for o in self.engine.rule_options(self.setup.game).values()
            if o.choices or o.kind == "bool"
        ]
        w, h = self.frame.width, self.frame.height
        size = (min(960.0, w - 40), h - 110)
        base = self.pack_title(self.setup.pack) if self.setup.pack else _("the standard rules")
        dialog = Dialog("rules", (w, h), size, _("Your own house rules"), self.close_dialog)
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
            dialog.layer.text(option.key.replace("_", " "), x, y, 12, theme.INK, anchor_y="center")
            value = self.own_values.get(option.key, option.default)
            changed = value != rules.get(option.key)
            button = dialog.button(
                yaml_text(value),
                x + cell - 105,
                y,
                (150, 30),
                partial(self.cycle_option, option.key),
                f"option:{option.key}",
                theme.GREEN_OK if changed else theme.BUTTON,
            )
            button.selected = changed
        self.own_text = dialog.text(
            self.own_note, r.left + 30, r.bottom + 96, r.width - 60, DESCRIPTION
        )
        dialog.button(
            _("Save as my rules"),
            r.x - 100,
            r.bottom + 36,
            (200, 40),
            self.save_rules,
            "save-rules",
            theme.GREEN_OK,
        )
        dialog.button(
            _("Cancel  (Esc)"), r.x + 110, r.bottom + 36, (150, 40), self.close_dialog, "close"
        )
        self.dialog = dialog

    def cycle_option(self, key: str) -> None:
        """The option ``key`` of the panel of the person's own rules takes its next value
        (yes/no, or the next choice), and its description is written under the list."""
        option = self.engine.rule_options(self.setup.game)[key]
        values: list[Any] = [False, True] if option.kind == "bool" else list(option.choices)
        now = self.own_values.get(key, option.default)
        self.own_values[key] = (
            values[(values.index(now) + 1) % len(values)] if now in values else values[0]
        )
        self.own_note = _("{name}: {description}").format(
            name=key.replace("_", " "), description=option.description
        )
        self.open_rules(keep=True)

    def save_rules(self) -> None:
        """Save the panel's rules as the person's own pack and choose it."""
        base = self.pack_title(self.setup.pack) if self.setup.pack else "the standard rules"
        try:
            name = savegame.save_own_pack(self.engine, self.setup.game, self.own_values, base)
        except AtoutError as exc:
            self.own_note = str(exc)
            self.open_rules(keep=True)
            return
        self.close_dialog()
        self.packs = list_packs(self.engine)
        self.own_values = {}
        self._build()
        self.select_pack(name)
        self.pack_page = self.page_of(name)
        self.refresh()
        self.set_message(
            _("Your rules are saved as the pack {name}, and chosen.").format(name=name)
        )

    def page_kept(self, step: int) -> None:
        self.kept_page += step
        self.open_kept()

    def kept_line(self, match: savegame.KeptMatch) -> str:
        """One kept match in words: the game, the pack, the score, when it was kept."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(match.when))
        if match.problem:
            return _("Kept {when}; this file cannot be read: {problem}").format(
                when=when, problem=match.problem
            )
        info = self.engine.games.get(match.game)
        parts = [info.title if info else match.game or "?"]
        if match.pack:
            parts.append(self.pack_title(match.pack))
        if match.deals:
            scores = _(" to ").join(str(v) for v in match.scores)
            deals = ngettext("1 deal", "{count} deals", match.deals).format(count=match.deals)
            parts.append(_("{scores} after {deals}").format(scores=scores, deals=deals))
        else:
            parts.append(_("first deal"))
        return " · ".join(parts) + "\n" + _("kept {when}").format(when=when)

    def pack_title(self, name: str) -> str:
        """What the view calls the pack ``name``: its title, else its name."""
        return next((p.title for p in self.packs if p.name == name and p.title), name)

    def with_people(self) -> None:
        """The screen of the matches with people, with this screen's choices."""
        self.app.show_people(self.chosen_setup())

    # --- events ---------------------------------------------------------------------------

    def on_draw(self) -> None:
        self.app.begin_frame()
        self.sync_frame()
        self.layer.draw()
        self.pack_layer.draw()
        if self.dialog is not None:
            self.dialog.draw()

    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time

    def on_resize(self, width: int, height: int) -> None:
        self.app.fit()
        self.sync_frame()

    def sync_frame(self) -> None:
        """Lay the view out again if the window's size changed since it was laid out."""
        if self.app.frame != self.frame:
            self._build()
            self.refresh()
            reopen: dict[str, Callable[[], None]] = {
                "confirm": self.open_confirm,
                "settings": self.open_settings,
                "kept": self.open_kept,
                "rules": partial(self.open_rules, True),
            }
            if self.dialog is not None:
                reopen[self.dialog.name]()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        lx, ly = self.app.to_logical(x, y)
        if self.dialog is not None:
            self.dialog.buttons.hover(lx, ly)
            return
        self.buttons.hover(lx, ly)
        self.pack_buttons.hover(lx, ly)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.sync_frame()
        lx, ly = self.app.to_logical(x, y)
        if self.dialog is not None:
            self.dialog.buttons.click(lx, ly)
            return
        on_seed = self.seed_box.hit(lx, ly)
        if self.seed_focus and not on_seed:
            self.seed_focus = False
            self.refresh()
        if not self.pack_buttons.click(lx, ly):
            self.buttons.click(lx, ly)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        lx, _skip = self.app.to_logical(x, y)
        if self.dialog is None and lx > self.frame.width / 2 and scroll_y:
            self.page(-1 if scroll_y > 0 else 1)

    def on_text(self, text: str) -> None:
        if not self.seed_focus or self.dialog is not None:
            return
        digits = "".join(ch for ch in text if ch.isdigit())
        if digits:
            self.seed_text = (self.seed_text + digits)[:12]
            self.refresh()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        enter = symbol in (k.ENTER, k.RETURN, k.NUM_ENTER)
        if self.dialog is not None:
            if symbol == k.ESCAPE:
                self.dialog.close()
            elif enter and self.dialog.enter is not None:
                self.dialog.enter()
        elif self.seed_focus and symbol == k.BACKSPACE:
            self.seed_text = self.seed_text[:-1]
            self.refresh()
        elif enter:  # the main button: Continue when a match is saved (not a seed typed)
            if savegame.has_saved_match() and not self.seed_focus:
                self.continue_match()
            else:
                self.new_match()
        elif symbol == k.ESCAPE and self.seed_focus:
            self.seed_focus = False
            self.refresh()
        elif self.seed_focus:
            return
        elif symbol == k.C:
            self.continue_match()
        elif symbol == k.N:
            self.new_match()
        elif symbol == k.S:
            self.open_settings()
        elif symbol == k.K:
            self.open_kept()
        elif symbol == k.E:
            self.open_rules()
        elif symbol == k.P:
            self.with_people()
        elif symbol == k.F:
            self.app.toggle_fullscreen()
        elif symbol == k.ESCAPE:
            self.window.close()
