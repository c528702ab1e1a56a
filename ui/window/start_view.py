"""The start view: choose the game, the house-rule pack, the bots, the target and a seed.

The packs are those of ``atout variants list`` (:func:`atout.core.packs.list_packs`:
shipped and user packs); a pack that does not load is listed greyed, and clicking it
shows its problem.  A pack file given on the command line (``--pack FILE``) is listed
too.  **Continue** appears when a saved match exists; **With people** opens the screen
of matches with people (:mod:`~atout.ui.window.start_people`) with these choices.
"""

from __future__ import annotations

from functools import partial

import arcade
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.packs import PackInfo
from atout.core.packs import is_path
from atout.core.packs import list_packs
from atout.core.packs import resolve

from .. import savegame
from ..rules import resolve_rules
from ..savegame import Setup
from . import theme
from .host import Host
from .learn_row import add_learn_row
from .start_rows import DESCRIPTION
from .start_rows import PACK_PITCH
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

HEADING = 15
TARGET_STEP = 100
TARGET_MIN = 100
TARGET_MAX = 10000
BOX = (8, 40, 24, 215)
BOX_EDGE = (255, 255, 255, 40)
SEED_BOX = (250, 248, 240, 255)


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
        """The packs of ``game`` (and those whose game could not be read), as listed by
        ``atout variants list``."""
        return [p for p in self.packs if p.game == game or not p.game]

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
        layer.text(
            "Belote Découverte for two · Belote for four · house rules · bots",
            mid,
            h - 104,
            14,
            theme.CREAM,
            anchor_x="center",
        )
        x = self.left_x
        y = box_top - 38
        layer.text("Game", x, y, HEADING, gold, bold=True)
        y -= 34
        infos = [self.engine.game(game) for game in self.games]
        long = [f"{i.title} · {i.seats} players" for i in infos]
        probe = Layer()
        need = sum(probe.text(t, 0, 0, 13, bold=True).content_width + 46 for t in long)
        titles = long if need <= inner else [i.title for i in infos]
        fitted_row(
            layer,
            b,
            x,
            y,
            (160, 40),
            12,
            [
                (title, partial(self.select_game, i.name), f"game:{i.name}")
                for title, i in zip(titles, infos, strict=True)
            ],
        )
        y -= 32
        self.game_text = layer.text(
            "", x, y, DESCRIPTION, theme.CREAM, width=int(inner), multiline=True, anchor_y="top"
        )
        y -= tallest([i.description for i in infos], inner) + 34
        layer.text("Bots", x, y, HEADING, gold, bold=True)
        y -= 32
        names = self.bots_for(self.setup.game)
        bots = [(bot, partial(self.select_bot, bot), f"bot:{bot}") for bot in names]
        fitted_row(layer, b, x, y, (100, 36), 10, bots)
        y -= 30
        self.bot_text = layer.text(
            "", x, y, DESCRIPTION, theme.CREAM, width=int(inner), multiline=True, anchor_y="top"
        )
        described = [f"{n}: {self.engine.bots[n].description}" for n in names]
        y -= tallest(described or ["No bot plays this game."], inner) + 34
        layer.text("Target score", x, y, HEADING, gold, bold=True)
        seed_x = x + max(250.0, inner * 0.45)
        layer.text("Seed", seed_x, y, HEADING, gold, bold=True)
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
        y -= 52
        layer.text("Speed of the bots", x, y, HEADING, gold, bold=True)
        y -= 32
        for i, speed in enumerate(theme.SPEEDS):
            b.add(
                Button(
                    layer,
                    speed,
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
        layer.text("House rules", rx, y, HEADING, gold, bold=True)
        self.pack_page_text = layer.text(
            "", right_edge - 60, y, DESCRIPTION, theme.CREAM, anchor_x="center"
        )
        list_top = y - 20
        all_packs = self.packs_for(self.setup.game)
        texts = [f"{p.name}: {p.description}" for p in all_packs] or ["x"]
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
        add_learn_row(self, layer, b, w, h - 52)
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
        self.pack_page_text.text = f"page {self.pack_page + 1}/{pages}" if pages > 1 else ""
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
            self.set_message(f"This pack cannot be used: {info.problem}")

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
        place_match_buttons(self.buttons, self.frame.width / 2, saved)
        self._build_pack_list()
        info = self.engine.games.get(self.setup.game)
        self.game_text.text = info.description if info else ""
        pack = next((p for p in self.packs if p.name == self.setup.pack), None)
        if pack is None:
            self.pack_text.text = "The game's standard rules."
        else:
            where = f" (from {pack.path})" if pack.origin != "shipped" else ""
            self.pack_text.text = f"{pack.name}: {pack.description}{where}"
        bot = self.engine.bots.get(self.setup.bot)
        self.bot_text.text = f"{bot.name}: {bot.description}" if bot else "No bot plays this game."
        self.target_text.text = str(self.target())
        cursor = "|" if self.seed_focus else ""
        self.seed_box.set_label(self.seed_text + cursor if self.seed_text or cursor else "random")
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
        )

    def new_match(self) -> None:
        setup = self.chosen_setup()
        if not setup.bot:
            self.set_message("No bot is installed for this game.")
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

    def with_people(self) -> None:
        """The screen of the matches with people, with this screen's choices."""
        self.app.show_people(self.chosen_setup())

    # --- events ---------------------------------------------------------------------------

    def on_draw(self) -> None:
        self.app.begin_frame()
        self.sync_frame()
        self.layer.draw()
        self.pack_layer.draw()

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

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        lx, ly = self.app.to_logical(x, y)
        self.buttons.hover(lx, ly)
        self.pack_buttons.hover(lx, ly)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.sync_frame()
        lx, ly = self.app.to_logical(x, y)
        on_seed = self.seed_box.hit(lx, ly)
        if self.seed_focus and not on_seed:
            self.seed_focus = False
            self.refresh()
        if not self.pack_buttons.click(lx, ly):
            self.buttons.click(lx, ly)

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        lx, _ = self.app.to_logical(x, y)
        if lx > self.frame.width / 2 and scroll_y:
            self.page(-1 if scroll_y > 0 else 1)

    def on_text(self, text: str) -> None:
        if not self.seed_focus:
            return
        digits = "".join(ch for ch in text if ch.isdigit())
        if digits:
            self.seed_text = (self.seed_text + digits)[:12]
            self.refresh()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if self.seed_focus and symbol == k.BACKSPACE:
            self.seed_text = self.seed_text[:-1]
            self.refresh()
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER):
            self.new_match()
        elif symbol == k.ESCAPE and self.seed_focus:
            self.seed_focus = False
            self.refresh()
        elif self.seed_focus:
            return
        elif symbol == k.C:
            self.continue_match()
        elif symbol == k.P:
            self.with_people()
        elif symbol == k.F:
            self.app.toggle_fullscreen()
        elif symbol == k.ESCAPE:
            self.window.close()
