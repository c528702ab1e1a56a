"""The screen of the matches with people: two players at one screen, hosting a table on
the network, joining one.

* **Two players, one screen** (Belote Découverte: both players see the same cards, the
  face-down ones are unknown to both): a local :class:`~atout.core.session.Session`
  whose two seats are persons, named as typed here.  The session's players carry the
  names into the save file, as every match's players do.
* **Host a table**: a table server started in the background (as ``atout play --text
  --host`` does) with the start screen's game, rules and bots; this window takes seat 0
  and the table shows what the others type to join.
* **Join a table**: ``HOST:PORT/TABLE`` and the seat's token, as the host's table shows
  them (no token: watch).

Connecting runs in a thread (:class:`~atout.ui.window.net_connect.Connecting`): the
screen goes on drawing and says what it waits for, or why it failed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import asdict
from functools import partial
from typing import Any

import arcade
from atout.core import Engine
from atout.core import Match
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.packs import list_packs
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.ui.net.address import TableOrder
from atout.ui.net.protocol import DEFAULT_PORT

from .. import savegame
from ..i18n import _
from ..i18n import pgettext
from ..messages import shown
from ..messages import shown_error
from ..messages import shown_pack
from ..paths import data_dir
from ..rules import resolve_rules
from ..savegame import Setup
from ..settings import SIGNALS
from ..settings import signals_spec
from . import theme
from .host import Host
from .net_connect import LISTEN
from .net_connect import Connecting
from .net_connect import host
from .net_connect import join
from .start_rows import default_pack
from .text_box import TextBox
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer

BOX = (8, 40, 24, 215)
BOX_EDGE = (255, 255, 255, 40)
NAME_LENGTH = 20
ONE_SCREEN_GAME = "decouverte"
"""Two people share a screen only where both see the same cards."""

FieldRow = tuple[str, str, float, float, int, str]
"""A text box of the screen: its name, its label, how far right of its panel's words it
starts, its width, its length at the most, the words it shows while empty."""
Section = tuple[arcade.Rect, str, str, tuple[FieldRow, ...], str, Callable[[], None], str]
"""A panel of the screen: where it is, its title and note, its text boxes, and its button's
words, action and name."""


def people_session(
    engine: Engine, setup: Setup, rules: Rules, names: list[str], persist: bool = True
) -> Session:
    """A new match of two people at one screen, named ``names`` (seat 0 at the bottom),
    following the save file (as a match against bots does) when ``persist``."""
    match = Match(engine, setup.game, rules, seed=setup.seed)
    if match.info.seats != len(names):
        raise AtoutError(f"{match.info.title} has {match.info.seats} seats, not {len(names)}")
    players = [Player(PERSON, name) for name in names]
    session = Session(engine, players=players, think=setup.think, match=match)
    if persist:
        savegame.follow(session, savegame.saved_match_path(), {"setup": asdict(setup)})
    return session


class PeopleView(arcade.View):
    """Two players at one screen, host a table, join a table (see the module)."""

    def __init__(self, app: Host, setup: Setup) -> None:
        super().__init__(app.window)
        self.app = app
        self.engine = app.engine
        self.setup = setup
        kept = app.settings.get("people")
        kept = kept if isinstance(kept, dict) else {}
        self.values: dict[str, str] = {
            "first": _("Player 1"),
            "second": _("Player 2"),
            "name": "",
            "port": str(DEFAULT_PORT),
            "address": "",
        }
        for key in self.values:
            if isinstance(kept.get(key), str) and len(kept[key]) <= 80:
                self.values[key] = kept[key]
        self.focus: str | None = None
        """The name of the field being typed in."""
        self.clock = 0.0
        self.connecting: Connecting | None = None
        self.waiting_for = ""
        self.message_text = ""
        self.boxes: list[TextBox] = []
        self.panels: list[arcade.Rect] = []
        self.layer = Layer()
        self.buttons = ButtonRow()
        self.frame = app.fit()
        self._build()

    # --- building ------------------------------------------------------------------------

    def _build(self) -> None:
        """The three panels laid out for the window's logical size."""
        frame = self.frame = self.app.frame
        w, h = frame.width, frame.height
        layer = Layer()
        row = ButtonRow()
        self.boxes = []
        gold, cream = theme.GOLD, theme.CREAM
        margin, gap = (48.0, 24.0) if w >= 1200 else (28.0, 20.0)
        col = (w - 2 * margin - gap) / 2
        top = h - 118
        upper = min(300.0, (top - 150) * 0.55)
        join_top = top - upper - 20
        panels = [
            arcade.LRBT(margin, margin + col, top - upper, top),
            arcade.LRBT(margin + col + gap, w - margin, top - upper, top),
            arcade.LRBT(margin, w - margin, 118, join_top),
        ]
        self.panels = panels
        """Two players at one screen, host a table, join a table."""
        for rect in panels:
            layer.plate(rect, BOX, BOX_EDGE, 16, 2)
        layer.text(_("Play with people"), w / 2, h - 62, 34, gold, anchor_x="center", bold=True)
        game = self.engine.games.get(self.setup.game)
        title = shown(game.title) if game else self.setup.game
        packs = [p for p in list_packs(self.engine) if p.name == self.setup.pack and p.title]
        pack = shown_pack(packs[0].title, packs[0].origin) if packs else self.setup.pack
        chosen = self.engine.bots.get(self.setup.bot)
        bots = (shown(chosen.title) if chosen is not None else "") or self.setup.bot
        layer.text(
            _("{game} · rules: {rules} · bots: {bots} (as chosen on the start screen)").format(
                game=title, rules=pack or _("standard rules"), bots=bots
            ),
            w / 2,
            h - 94,
            13,
            cream,
            anchor_x="center",
        )
        inner = col - 48

        def go(rect: arcade.Rect, words: str, action: Callable[[], None], name: str) -> None:
            button = Button(
                layer,
                words,
                rect.x,
                rect.bottom + 34,
                240,
                40,
                action,
                size=14,
                colour=theme.GREEN_OK,
                hover_colour=theme.GREEN_OK_HOVER,
                name=name,
            )
            row.add(button)

        def heading(rect: arcade.Rect, words: str, note: str) -> float:
            x, y = rect.left + 24, rect.top - 34
            layer.text(words, x, y, 16, gold, bold=True)
            said = layer.text(
                note,
                x,
                y - 14,
                12,
                cream,
                width=int(rect.width - 48),
                multiline=True,
                anchor_y="top",
            )
            height: float = said.content_height
            return y - 14 - height - 34  # the fields' labels below it

        def field(
            name: str, label: str, x: float, y: float, width: float, limit: int, hint: str = ""
        ) -> None:
            layer.text(label, x, y + 24, 12, cream, bold=True)
            box = TextBox(
                layer,
                row,
                name.split(":")[0],
                x + width / 2,
                y,
                width,
                partial(self.focus_on, name),
                limit=limit,
                name=name,
                digits=name == "port",
                placeholder=hint,
            )
            self.boxes.append(box)

        one, hosting, joining = panels
        half = (inner - 16) / 2
        wide = joining.width - 48
        sections: tuple[Section, ...] = (
            (
                one,
                _("Two players, one screen"),
                _(
                    "Belote Découverte: both see the same cards (the face-down ones are unknown to "
                    "both), so you take turns at the mouse; the table says whose turn it is."
                ),
                (
                    ("first", _("Bottom player"), 0, half, NAME_LENGTH, _("Player 1")),
                    ("second", _("Top player"), half + 16, half, NAME_LENGTH, _("Player 2")),
                ),
                _("Play at this screen"),
                self.play_here,
                "people:play",
            ),
            (
                hosting,
                _("Host a table"),
                _(
                    "A table server starts on this computer; you take the first seat and the table "
                    "shows what the others type to join. Empty seats are played by the bots."
                ),
                (
                    ("name:host", _("Your name"), 0, inner - 136, NAME_LENGTH, _("Host")),
                    # the port at the panel's right edge
                    ("port", _("Port (0: any)"), hosting.width - 168, 120, 5, ""),
                ),
                _("Host a table"),
                self.host_table,
                "people:host",
            ),
            (
                joining,
                _("Join a table"),
                _(
                    "Type what the host's table shows: HOST:PORT/TABLE then your seat's token "
                    "(without a token you watch the table)."
                ),
                (
                    (
                        "address",
                        _("Table address and token"),
                        0,
                        wide * 0.68,
                        120,
                        f"192.168.1.5:{DEFAULT_PORT}/K7QX2M  " + pgettext("a placeholder", "TOKEN"),
                    ),
                    (
                        "name:join",
                        _("Your name"),
                        wide * 0.68 + 16,
                        wide * 0.32 - 16,
                        20,
                        _("Guest"),
                    ),
                ),
                _("Join the table"),
                self.join_table,
                "people:join",
            ),
        )
        for rect, title, note, fields, words, action, name in sections:
            y = heading(rect, title, note)
            for key, label, dx, width, limit, hint in fields:
                field(key, label, rect.left + 24 + dx, y - 16, width, limit, hint)
            go(rect, words, action, name)
        row.add(
            Button(
                layer, _("Back  (Esc)"), w / 2, 54, 220, 44, self.back, size=14, name="people:back"
            )
        )
        self.message = layer.text("", w / 2, 94, 13, gold, anchor_x="center", anchor_y="center")
        self.layer = layer
        self.buttons = row
        self.refresh()

    def refresh(self) -> None:
        """The fields' texts, the focus, the message."""
        for box in self.boxes:
            box.show(self.values[box.key], self.focus == box.name)
        busy = self.connecting is not None
        for b in self.buttons.buttons:
            if b.name in ("people:play", "people:host", "people:join"):
                b.enabled = not busy
        words = self.message_text
        if busy:
            words = f"{self.waiting_for}{'.' * (1 + int(self.clock * 3) % 3)}"
        if self.message.text != words:
            self.message.text = words

    # --- actions ---------------------------------------------------------------------------

    def focus_on(self, key: str) -> None:
        self.focus = key
        self.refresh()

    def set_message(self, words: str) -> None:
        self.message_text = words
        self.refresh()

    def remember(self) -> None:
        """Keep the names, the port and the address for next time."""
        self.app.settings["people"] = dict(self.values)
        if self.app.persist:
            savegame.save_settings(self.app.settings)

    def names(self) -> list[str]:
        first = self.values["first"].strip() or _("Player 1")
        second = self.values["second"].strip() or _("Player 2")
        if first == second:
            second += " (2)"
        return [first, second]

    def play_here(self) -> None:
        """Two people at this screen: a Découverte match, both seats persons."""
        setup = self.setup
        if setup.game != ONE_SCREEN_GAME:
            pack = default_pack(list_packs(self.engine), ONE_SCREEN_GAME)
            setup = Setup(game=ONE_SCREEN_GAME, pack=pack, bot=setup.bot, seed=setup.seed)
        self.remember()
        try:
            rules = resolve_rules(self.engine, setup.game, setup.pack, setup.target)
            self.app.start_people(setup, rules, self.names())
        except AtoutError as exc:
            self.set_message(shown_error(exc))

    def host_table(self) -> None:
        """Start a server in the background and take the first seat of a new table."""
        port = self.values["port"]
        if not port.isdigit() or not 0 <= int(port) <= 65535:
            self.set_message(_("The port is a number from 1 to 65535 (0: any free port)."))
            return
        setup = self.setup
        try:
            rules = resolve_rules(self.engine, setup.game, setup.pack, setup.target)
        except AtoutError as exc:
            self.set_message(shown_error(exc))
            return
        self.remember()
        name = self.values["name"].strip() or _("Host")
        signals = savegame.setting(self.app.settings, SIGNALS)
        bot = signals_spec(self.engine, setup.bot, setup.game, signals)
        order = TableOrder(rules, bot, setup.seed, name)
        folder = data_dir() / "hosted" if self.app.persist else None
        engine = self.engine
        self.begin(
            _("Starting the table server on port {port}").format(port=port),
            lambda: host(engine, order, (LISTEN, int(port)), folder),
        )

    def join_table(self) -> None:
        """Join the table typed in the address field."""
        text = self.values["address"].strip()
        if not text:
            self.set_message(_("Type the table's address (HOST:PORT/TABLE) and your seat's token."))
            self.focus_on("address")
            return
        self.remember()
        name = self.values["name"].strip() or _("Guest")
        self.begin(_("Joining {table}").format(table=text.split()[0]), lambda: join(text, name))

    def join_now(self, text: str, name: str) -> None:
        """Join the table ``text`` names at once (``atout play --join``)."""
        self.values["address"] = text
        if name:
            self.values["name"] = name
        self.join_table()

    def begin(self, words: str, connect: Any) -> None:
        self.focus = None
        self.message_text = ""
        self.waiting_for = words
        self.connecting = Connecting(connect)
        self.refresh()

    def back(self) -> None:
        self.leave()
        self.app.show_start()

    def leave(self) -> None:
        """The screen is left: a connection still being made is closed once made."""
        if self.connecting is not None:
            self.connecting.cancel()
            self.connecting = None

    # --- events ----------------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        connecting = self.connecting
        if connecting is None:
            return
        if not connecting.done:
            self.refresh()
            return
        self.connecting = None
        link = connecting.link
        if link is None:
            self.set_message(_("Could not connect: {problem}").format(problem=connecting.error))
            return
        try:
            self.app.show_net_table(self.setup, link)
        except AtoutError as exc:
            self.set_message(shown_error(exc))

    def on_draw(self) -> None:
        self.app.begin_frame()
        if self.app.frame != self.frame:
            self._build()
        self.layer.draw()

    def on_resize(self, width: int, height: int) -> None:
        self.app.fit()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.buttons.hover(*self.app.to_logical(x, y))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        lx, ly = self.app.to_logical(x, y)
        if not any(box.button.hit(lx, ly) for box in self.boxes):
            self.focus = None
            self.refresh()
        self.buttons.click(lx, ly)

    def focused_box(self) -> TextBox | None:
        """The field that has the focus, if any."""
        return next((b for b in self.boxes if b.name == self.focus), None)

    def on_text(self, text: str) -> None:
        if self.focus is None:
            return
        box = self.focused_box()
        if box is not None:
            self.values[box.key] = box.typed(self.values[box.key], text)
        self.refresh()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        focus = self.focus
        box = self.focused_box()
        if box is not None and (edited := box.edit(self.values[box.key], symbol)) is not None:
            self.values[box.key] = edited
            self.refresh()
        elif focus is not None and symbol == k.V and modifiers & (k.MOD_CTRL | k.MOD_COMMAND):
            with contextlib.suppress(Exception):  # no clipboard on this display
                self.on_text(self.window.get_clipboard_text())
        elif symbol == k.TAB:
            names = [b.name for b in self.boxes]
            at = names.index(focus) + 1 if focus in names else 0
            self.focus_on(names[at % len(names)])
        elif symbol in (k.ENTER, k.RETURN, k.NUM_ENTER) and focus is not None:
            if focus in ("first", "second"):
                self.play_here()
            elif focus in ("address", "name:join"):
                self.join_table()
            else:
                self.host_table()
        elif symbol == k.ESCAPE:
            if focus is not None:
                self.focus = None
                self.refresh()
            else:
                self.back()
