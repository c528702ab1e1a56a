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
:class:`~atout.ui.savegame.Setup`) are in the **Settings** panel.  The view holds the
choices; :mod:`.start_columns` builds its columns, :mod:`.start_panels` its panels,
:mod:`.start_own_rules` keeps the panel of the person's own rules.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import arcade
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.packs import ORIGINS
from atout.core.packs import PackInfo
from atout.core.packs import is_path
from atout.core.packs import list_packs
from atout.core.packs import resolve

from .. import savegame
from ..i18n import SETTING
from ..i18n import _
from ..i18n import set_language
from ..messages import shown
from ..messages import shown_error
from ..messages import shown_pack
from ..rules import resolve_rules
from ..savegame import Setup
from ..settings import SIGNALS
from ..settings import named_signals
from ..settings import settings_problem
from . import theme
from .host import Host
from .learn_row import add_learn_row
from .start_columns import ColumnActions
from .start_columns import bot_text
from .start_columns import build_columns
from .start_columns import pack_text
from .start_own_rules import OwnRules
from .start_panels import confirm_dialog
from .start_panels import kept_dialog
from .start_panels import kept_line
from .start_panels import settings_dialog
from .start_rows import Dialog
from .start_rows import default_pack
from .start_rows import pack_buttons
from .start_rows import place_match_buttons
from .start_rows import playable_games
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer

TARGET_MIN = 100
TARGET_MAX = 10000


class StartView(arcade.View):
    """The first screen: the match's settings, New match, Continue."""

    def __init__(self, app: Host, message: str = "") -> None:
        super().__init__(app.window)
        self.app = app
        message = message or settings_problem(app.settings)
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
        self.own_rules = OwnRules(self)
        """The panel of the person's own house rules."""
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
        return sorted(
            packs,
            key=lambda p: (origins[p.origin], (shown_pack(p.title, p.origin) or p.name).casefold()),
        )

    def preselect(self, setup: Setup) -> None:
        """Choose what ``setup`` says where it is possible (the command line's, or the
        last match's choices); a bot spec that names its signals sets the switch."""
        if setup.game in self.games and setup.game != self.setup.game:
            self.select_game(setup.game)
        if setup.pack:
            self._add_pack_file(setup.pack)
            if any(p.name == setup.pack and p.usable for p in self.packs_for(self.setup.game)):
                self.setup.pack = setup.pack
                self.pack_page = self.page_of(setup.pack)
        bot, signals = named_signals(setup.bot)  # the command line's expert:signals=off
        if bot in self.bots_for(self.setup.game):
            self.setup.bot = bot
        if signals is not None:  # for this start (kept when a setting is next saved)
            self.app.settings[SIGNALS] = signals
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
            self.message_text = shown_error(exc)
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
        self.build()
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

    def build(self) -> None:
        """Every plate, text and button of the view, laid out for the window's logical
        size (again when the game changes, the bots differ, or the window's size does):
        the columns of :func:`~atout.ui.window.start_columns.build_columns`."""
        self.frame = self.app.frame
        game = self.setup.game
        columns = build_columns(
            self.frame,
            self.engine,
            (self.games, self.bots_for(game), self.packs_for(game)),
            self.message_text,
            ColumnActions(
                select_game=self.select_game,
                select_bot=self.select_bot,
                toggle_signals=self.toggle_signals,
                step_target=self.step_target,
                focus_seed=self.focus_seed,
                set_speed=self.set_speed,
                own_rules=self.own_rules.open,
                page=self.page,
                new_match=self.new_match,
                continue_match=self.continue_match,
                with_people=self.with_people,
                settings=self.open_settings,
                kept=self.open_kept,
            ),
            partial(add_learn_row, self),
        )
        self.layer = columns.layer
        self.buttons = columns.buttons
        self.boxes = columns.boxes
        """The two panels: the match's settings, the house rules."""
        self.game_text = columns.game_text
        self.bot_text = columns.bot_text
        self.target_text = columns.target_text
        self.seed_box = columns.seed_box
        self.pack_page_text = columns.pack_page_text
        self.pack_text = columns.pack_text
        self.message = columns.message
        self.pack_rows, self.pack_top, self.pack_x, self.pack_width = columns.pack_list

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
            self.set_message(
                _("This pack cannot be used: {problem}").format(problem=shown(info.problem))
            )

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
            elif b.name == "signals":
                self.show_signals(b)
        place_match_buttons(self.buttons, self.frame.width / 2, saved, self.setup.practice)
        kept = len(savegame.kept_paths()) if self.app.persist else 0
        for b in self.buttons.buttons:
            if b.name == "kept":
                b.visible = kept > 0
                b.set_label(_("Kept matches ({count})  (K)").format(count=kept))
        self._build_pack_list()
        info = self.engine.games.get(self.setup.game)
        self.game_text.text = shown(info.description) if info else ""
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

    def show_signals(self, button: Button) -> None:
        """The switch of the bots' signals: shown for a game with partners (where the
        bots signal to each other), with the setting's state."""
        info = self.engine.games.get(self.setup.game)
        button.visible = info is not None and info.seats > info.teams
        on = self.setting(SIGNALS)
        button.set_label(_("Signals: on") if on else _("Signals: off"))
        button.set_colour(theme.GREEN_OK if on else theme.BUTTON_OFF)

    def toggle_signals(self) -> None:
        """Turn the bots' signals on or off (the start view's switch; the Settings panel
        has the same one)."""
        self.flip(SIGNALS)
        self.refresh()

    def flip(self, name: str) -> None:
        """Turn the person's setting ``name`` on or off, kept for the next start (the
        line about a value that was neither, once it is mended, goes)."""
        problem = settings_problem(self.app.settings)
        self.app.settings[name] = not self.setting(name)
        if self.app.persist:
            savegame.save_settings(self.app.settings)
        if problem and self.message_text == problem and not settings_problem(self.app.settings):
            self.set_message("")

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
            self.set_message(shown_error(exc))
            return
        try:
            self.app.start_match(setup, rules)
        except AtoutError as exc:  # the save file cannot be written: say why, stay here
            self.set_message(shown_error(exc))

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
            self.set_message(shown_error(exc))
            self.refresh()
            return
        self.app.continue_match()

    # --- the panels over the view ------------------------------------------------------------

    def close_dialog(self) -> None:
        self.dialog = None

    def screen(self) -> tuple[float, float]:
        """The logical size the panels over the view are laid out for."""
        return self.frame.width, self.frame.height

    def open_confirm(self) -> None:
        """Ask before a new match replaces the saved one at Continue."""
        self.dialog = confirm_dialog(self.screen(), self.start_new, self.close_dialog)

    def open_settings(self) -> None:
        """The settings panel: a switch for each of the person's settings and the
        practice switch of the next match."""
        self.dialog = settings_dialog(
            self.screen(),
            self.app.settings,
            self.setup.practice,
            self.choose_language,
            self.toggle,
            self.close_dialog,
        )

    def choose_language(self, code: str) -> None:
        """Show every text in the language ``code`` from now on, kept for the next start
        (the settings' ``"language"``); the view is built again at once in it."""
        self.app.settings[SETTING] = set_language(code)
        if self.app.persist:
            savegame.save_settings(self.app.settings)
        self.build()
        self.refresh()
        self.open_settings()

    def toggle(self, name: str) -> None:
        """Turn a switch of the settings panel on or off (kept for the next start)."""
        if name == "practice":
            self.setup.practice = not self.setup.practice
        else:
            self.flip(name)
            theme.set_four_colour(self.setting("four_colour"))
        self.refresh()
        self.open_settings()

    def open_kept(self) -> None:
        """The list of the matches kept aside, the last one first, each with its
        Continue button (paged when they are many)."""
        kept = savegame.kept_matches()
        if not kept:
            self.close_dialog()
            return
        self.dialog, self.kept_page = kept_dialog(
            self.screen(),
            kept,
            self.kept_page,
            partial(kept_line, self.engine, pack_title=self.pack_title),
            self.continue_kept,
            self.page_kept,
            self.close_dialog,
        )

    def page_kept(self, step: int) -> None:
        self.kept_page += step
        self.open_kept()

    def pack_title(self, name: str) -> str:
        """What the view calls the pack ``name``: its title, else its name."""
        titles = (shown_pack(p.title, p.origin) for p in self.packs if p.name == name and p.title)
        return next(titles, name)

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
            self.build()
            self.refresh()
            reopen: dict[str, Callable[[], None]] = {
                "confirm": self.open_confirm,
                "settings": self.open_settings,
                "kept": self.open_kept,
                "rules": partial(self.own_rules.open, True),
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
        elif not self.seed_focus:
            keys: dict[int, Callable[[], None]] = {
                k.C: self.continue_match,
                k.N: self.new_match,
                k.S: self.open_settings,
                k.K: self.open_kept,
                k.E: self.own_rules.open,
                k.P: self.with_people,
                k.F: self.app.toggle_fullscreen,
                k.ESCAPE: self.window.close,
            }
            if symbol in keys:
                keys[symbol]()
