"""The Arcade window: the start view and the tables, laid out for the window's size.

:func:`run` is what ``atout play`` calls without ``--text``: it opens a resizable window on
the start view and runs arcade's loop.  :class:`App` holds what the views share (the
engine, the bot worker, the settings, the camera that draws the logical table laid out
for the window's size, see :mod:`.frame`) and switches between the views.
:func:`measure_fps` is the ``ui_fps`` figure of ``atout bench``.

The window may already exist (the tests open one hidden window for the whole session
and give it to each :class:`App`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Any

import arcade
from atout.core import Engine
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.session import Session
from PIL import Image
from pyglet import gl

from .. import savegame
from ..display import display_problem
from ..i18n import N_
from ..i18n import _
from ..rules import resolve_rules
from ..savegame import BotFactory
from ..savegame import Setup
from ..settings import SIGNALS
from . import theme
from .frame import MIN_WINDOW
from .frame import Frame
from .frame import frame_for
from .sprites import warm_textures
from .start_view import StartView
from .worker import PROCESS
from .worker import THREAD
from .worker import BotWorker

if TYPE_CHECKING:  # the tables are imported when the first one opens, after the first frame
    from .net_connect import NetLink
    from .start_people import PeopleView
    from .table import Table
    from .table_layout import Layout

TITLE = N_("atout — Belote Découverte and Belote")


class App:
    """What the views of one window share, and the switching between them."""

    def __init__(
        self,
        window: arcade.Window,
        engine: Engine,
        *,
        bot_factory: BotFactory | None = None,
        speed: float | None = None,
        persist: bool = True,
    ) -> None:
        self.window = window
        self.engine = engine
        self.bot_factory = bot_factory
        self.persist = persist
        """Whether the match, the deal records and the settings are written to disk."""
        self.hint_bot = "expert"
        """The bot whose ``hint(view)`` (or ``choose``) answers the H key."""
        self.settings: dict[str, Any] = savegame.load_settings() if persist else {}
        theme.set_four_colour(savegame.setting(self.settings, "four_colour"))
        name = self.settings.get("speed")
        self.speed_name = name if name in theme.SPEEDS else "normal"
        self.speed = theme.SPEEDS[self.speed_name] if speed is None else speed
        self.worker = BotWorker(engine, THREAD if bot_factory is not None else PROCESS)
        """Where the bots think: a bot process, or a thread when the bots are objects
        handed in (``bot_factory``: another process could not rebuild them)."""
        self.surface: arcade.gl.Framebuffer | None = None
        """An offscreen surface drawn instead of the window (:meth:`render_offscreen`)."""
        self.frame = frame_for(*self.surface_size()[:2])
        """The logical table for the window's size (see :mod:`.frame`)."""
        self.camera = arcade.Camera2D(window=window)
        self.closed = False
        window.push_handlers(on_close=self.on_close)
        window.push_handlers(on_refresh=self.after_first_frame)

    # --- the logical table in the window ----------------------------------------------

    def surface_size(self) -> tuple[int, int, int]:
        """The width and height in pixels of what is drawn on (the window's framebuffer
        or the offscreen surface), and its width in the units of mouse events (they
        differ on high-density screens)."""
        if self.surface is not None:
            w, h = self.surface.size
            return w, h, w
        fw, fh = self.window.get_framebuffer_size()
        return fw, fh, self.window.width

    def render_offscreen(self, size: tuple[int, int] | None) -> None:
        """Draw on an offscreen surface of ``size`` pixels instead of the window (a
        headless window cannot change its size: the layout tests and the screenshots
        draw every window size this way); ``None``: the window again."""
        if size is None:
            self.surface = None
        else:
            ctx = self.window.ctx
            self.surface = ctx.framebuffer(color_attachments=[ctx.texture(size, components=4)])
        self.fit()

    def snapshot(self) -> Image.Image:
        """What was drawn last, as an RGB image (the surface's or the window's)."""
        if self.surface is None:
            return arcade.get_image().convert("RGB")
        w, h = self.surface.size
        data = self.surface.read(components=4)
        image = Image.frombytes("RGBA", (w, h), data).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        return image.convert("RGB")

    def fit(self) -> Frame:
        """The logical table for the current size, and the camera that draws it onto the
        whole window."""
        fw, fh, _skip = self.surface_size()
        frame = frame_for(fw, fh)
        self.frame = frame
        w, h = frame.width, frame.height
        camera = self.camera
        camera.render_target = self.surface
        camera.projection = arcade.LRBT(-w / 2, w / 2, -h / 2, h / 2)
        camera.position = (w / 2, h / 2)
        camera.viewport = arcade.LBWH(0, 0, fw, fh)
        return frame

    def begin_frame(self) -> None:
        """Clear the window to the felt's green (the cheapest way to cover it: software
        renderers clear fast and fill slowly) and draw through the table's camera."""
        self.fit()
        fw, fh, _skip = self.surface_size()
        ctx = self.window.ctx
        (self.surface or ctx.screen).use()
        ctx.viewport = (0, 0, fw, fh)
        ctx.scissor = None
        # the colour buffer only: nothing here uses depth, and clearing the depth
        # buffer costs Mesa's software renderer as much as filling the whole window
        r, g, b, a = (c / 255 for c in theme.FELT)
        gl.glClearColor(r, g, b, a)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        self.camera.use()

    def to_logical(self, x: float, y: float) -> tuple[float, float]:
        """A window point (as mouse events give it) in the table's logical coordinates."""
        frame = self.fit()
        width = self.surface_size()[2]
        units = frame.width / max(1, width)
        return x * units, y * units

    def to_window(self, x: float, y: float) -> tuple[float, float]:
        """A logical point in window coordinates (where to click it)."""
        frame = self.fit()
        width = self.surface_size()[2]
        units = frame.width / max(1, width)
        return x / units, y / units

    def toggle_fullscreen(self) -> None:
        # no full screen on this display (or headless): stay windowed
        with contextlib.suppress(Exception):
            self.window.set_fullscreen(not self.window.fullscreen)

    # --- settings ------------------------------------------------------------------------

    def set_speed(self, name: str) -> None:
        """Use the named speed (slow, normal, fast) and keep it for next time."""
        self.speed_name = name
        self.speed = theme.SPEEDS[name]
        self.settings["speed"] = name
        if self.persist:
            savegame.save_settings(self.settings)

    def remember_setup(self, setup: Setup) -> None:
        self.settings["setup"] = {
            "game": setup.game,
            "pack": setup.pack,
            "bot": setup.bot,
            "target": setup.target,
            "practice": setup.practice,
        }
        if self.persist:
            savegame.save_settings(self.settings)

    # --- views --------------------------------------------------------------------------

    def show_start(self, message: str = "") -> StartView:
        """Show the start view (with ``message``, e.g. why a save could not be resumed)."""
        self.leave_table()
        view = StartView(self, message)
        self.window.show_view(view)
        return view

    def start_match(self, setup: Setup, rules: Rules) -> Table:
        """Start a new match and show its table.  A match saved before (the one just
        left, or the one Continue offered) is kept aside, never replaced (the save file's
        :func:`~atout.ui.savegame.follow` keeps it); a save that cannot be moved aside
        stops the new match with a :class:`~atout.ui.savegame.SaveError`."""
        self.leave_table()
        session = savegame.start_session(
            self.engine,
            setup,
            rules,
            bot_factory=self.bot_factory,
            persist=self.persist,
            signals=savegame.setting(self.settings, SIGNALS),
        )
        self.remember_setup(setup)
        return self.show_table(setup, session)

    def start_people(self, setup: Setup, rules: Rules, names: list[str]) -> Table:
        """Start a match of two people at this screen (Découverte) and show its table
        (a match saved before is kept aside, as for :meth:`start_match`)."""
        from .start_people import people_session

        self.leave_table()
        session = people_session(self.engine, setup, rules, names, persist=self.persist)
        self.remember_setup(setup)
        return self.show_table(setup, session)

    def show_people(self, setup: Setup) -> PeopleView:
        """Show the screen of the matches with people (``setup``: the start view's
        choices: the game, the pack, the bots' level)."""
        from .start_people import PeopleView

        self.leave_table()
        view = PeopleView(self, setup)
        self.window.show_view(view)
        return view

    def show_net_table(self, setup: Setup, link: NetLink) -> Table:
        """Show the table on a server that ``link`` holds a seat at."""
        from .net_table import NetDriver
        from .table import Table

        self.leave_table()
        try:
            layout = layout_for(link.table.seats, link.table.game)
        except AtoutError:
            link.close()
            raise
        table = Table(self, setup, link.table.info, layout, lambda t: NetDriver(t, link))
        self.window.show_view(table)
        return table

    def continue_match(self) -> Table | StartView:
        """Resume the saved match at its position (or explain why it cannot be: the save
        is then moved aside, never deleted, and the message says where it is)."""
        try:
            signals = savegame.setting(self.settings, SIGNALS)
            setup, session = savegame.resume_session(self.engine, self.bot_factory, signals)
        except AtoutError as exc:
            kept = savegame.set_aside() if self.persist else None
            where = " " + _("It is kept in {file}.").format(file=kept) if kept is not None else ""
            return self.show_start(
                _("The saved match cannot be resumed: {problem}.").format(problem=exc) + where
            )
        return self.show_table(setup, session)

    def show_table(self, setup: Setup, session: Session) -> Table:
        """Show the table of the session's game (two seats: Découverte's, four: Belote's)."""
        from .driver import MatchDriver
        from .table import Table

        self.leave_table()
        layout = layout_for(session.seats, session.game)
        table = Table(self, setup, session.info, layout, lambda t: MatchDriver(t, session))
        self.window.show_view(table)
        return table

    def leave_table(self) -> None:
        """Save the match of the table being left (if any) and stop its bots (a network
        table: close its connection; the people's screen: stop connecting)."""
        current = self.window.current_view
        if current is None or isinstance(current, StartView):
            return
        leave = getattr(current, "leave", None)
        if callable(leave):  # a table, or the screen of the matches with people
            leave()

    def after_first_frame(self, dt: float = 0.0) -> None:
        """The first frame is drawn: now draw the card textures in the background and
        start the bot process (before it, they would delay the first frame)."""
        self.window.remove_handlers(on_refresh=self.after_first_frame)
        warm_textures()
        self.worker.warm()

    def on_close(self) -> None:
        """The window closes: save the match so that Continue finds it."""
        self.leave_table()
        self.shutdown()

    def shutdown(self) -> None:
        """Stop the bot thread and unhook from the window (the window may live on)."""
        if self.closed:
            return
        self.closed = True
        self.worker.stop()
        self.window.remove_handlers(on_close=self.on_close)
        self.window.remove_handlers(on_refresh=self.after_first_frame)


def layout_for(seats: int, game: str) -> Callable[[Table], Layout]:
    """The layout of a table of ``seats`` players (two: Découverte's, four: Belote's),
    or why there is none."""
    from .table_belote import BeloteLayout
    from .table_decouverte import DecouverteLayout

    layouts: dict[int, Callable[[Table], Layout]] = {2: DecouverteLayout, 4: BeloteLayout}
    if seats not in layouts:
        raise AtoutError(
            _("the table has no layout for {seats} players ({game})").format(seats=seats, game=game)
        )
    return layouts[seats]


def make_window(visible: bool = True) -> arcade.Window:
    """The resizable 1280x720 window (hidden for tests and the benchmark).

    Without multisampling: the cards' edges are smooth already (their images have
    transparent margins that the texture filter blends), and a software renderer fills
    four samples a pixel at four times the cost.
    """
    window = arcade.Window(
        theme.WIDTH,
        theme.HEIGHT,
        _(TITLE),
        resizable=True,
        visible=visible,
        vsync=False,
        antialiasing=False,
        update_rate=1 / 60,
        draw_rate=1 / 60,
    )
    window.set_minimum_size(*MIN_WINDOW)
    return window


def run(
    engine: Engine,
    setup: Setup | None = None,
    start: bool = False,
    join: tuple[str, str] | None = None,
    guided: bool = False,
) -> int:
    """Open the window on the start view (or straight on a match when ``start``, or
    joining a table on a server when ``join`` gives its address and token, and the
    person's name, or on the guided deal when ``guided``) and play.

    Without a display: one line that says so and suggests the terminal game, exit 1.
    """
    problem = display_problem()
    if problem is not None:
        print(f"atout: {problem}; play in the terminal with: atout play --text", file=sys.stderr)
        return 1
    try:
        window = make_window()
    except Exception as exc:  # pyglet's display errors have no common base class
        print(
            f"atout: cannot open a window ({type(exc).__name__}: {exc}); "
            "play in the terminal with: atout play --text",
            file=sys.stderr,
        )
        return 1
    app = App(window, engine)
    if join is not None:
        app.show_people(setup or Setup()).join_now(*join)
    elif guided:
        from .guided import start_guided

        start_guided(app)
    elif start and setup is not None:
        app.start_match(setup, resolve_rules(engine, setup.game, setup.pack, setup.target))
    else:
        view = app.show_start()
        if setup is not None:
            view.preselect(setup)
    arcade.run()
    app.shutdown()
    return 0


# --- the benchmark ---------------------------------------------------------------------------


def measure_fps(frames: int = 120, seed: int = 7) -> dict[str, float]:
    """Draw a Découverte table in the middle of a deal, at 1280x720, ``frames`` times
    idle and ``frames`` times while a bot computes on the worker thread.

    Each frame is an update, a draw and a GPU finish (so the renderer's real work is
    counted).  Returns ``ui_fps``, ``ui_frame_p95_ms`` and ``ui_frame_max_ms`` for the
    idle table, and the same with ``_bot_thinking`` while a pure-Python computation
    holds the interpreter as a searching bot does.  Needs a window: headless is fine.
    """
    import threading

    window = arcade.get_window() if _has_window() else make_window(visible=False)
    app = App(window, Engine(), speed=0.0, persist=False)
    stop = threading.Event()

    def think() -> int:
        total = 0
        while not stop.is_set():
            total += sum(range(5000))
        return total

    try:
        setup = Setup(game="decouverte", bot="random", seed=seed)
        table = app.start_match(setup, app.engine.default_rules("decouverte"))
        from .driver import MatchDriver

        assert isinstance(table.driver, MatchDriver)
        table.driver.autoplay_to(trick=3)

        def run_frames() -> list[float]:
            times = [timed_frame(window, table) for _skip in range(frames)]
            return times[5:] or times

        idle = run_frames()
        job = app.worker.submit(think)
        busy = run_frames()
        stop.set()
        job.wait(10)
        return frame_stats(idle, "") | frame_stats(busy, "_bot_thinking")
    finally:
        stop.set()
        app.leave_table()
        app.shutdown()


def timed_frame(window: arcade.Window, table: Table) -> float:
    """The seconds of one frame of ``table``: an update, a draw and a GPU finish (so the
    renderer's real work is counted), then the flip."""
    t0 = time.perf_counter()
    table.on_update(1 / 60)
    table.on_draw()
    window.ctx.finish()
    window.flip()
    return time.perf_counter() - t0


def frame_stats(times: list[float], suffix: str) -> dict[str, float]:
    """``ui_fps``, ``ui_frame_p95_ms`` and ``ui_frame_max_ms`` (each ending in ``suffix``)
    of frames that took ``times`` seconds."""
    ranked = sorted(times)
    p95 = ranked[min(len(ranked) - 1, int(len(ranked) * 0.95))]
    return {
        f"ui_fps{suffix}": round(len(times) / sum(times), 1),
        f"ui_frame_p95_ms{suffix}": round(p95 * 1000, 1),
        f"ui_frame_max_ms{suffix}": round(ranked[-1] * 1000, 1),
    }


def _has_window() -> bool:
    try:
        arcade.get_window()
    except RuntimeError:
        return False
    return True


def measure_fps_subprocess(frames: int = 120) -> dict[str, float]:
    """:func:`measure_fps` in a fresh headless process (what ``atout bench`` calls), so the
    benchmark needs no display and leaves no window behind."""
    import json
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "ARCADE_HEADLESS": "1", "XDG_DATA_HOME": tmp}
        code = (
            "import json; from atout.ui.window.app import measure_fps; "
            f"print(json.dumps(measure_fps({int(frames)})))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
        )
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise AtoutError(f"the window benchmark failed: {last}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def bench_ui_fps(ctx: Any) -> dict[str, Any]:
    """The ``ui_fps`` measure of ``atout bench`` (``ctx`` is its ``BenchContext``): the
    Découverte table drawn at 1280x720 in a fresh headless process, idle and while a bot
    computes.  Where no window can be made (no OpenGL), the figure is ``None`` with the
    reason."""
    frames = ctx.size(240, 30)
    try:
        figures: dict[str, Any] = dict(measure_fps_subprocess(frames))
    except AtoutError as exc:
        return {"ui_fps": None, "ui_fps_problem": str(exc)}
    return figures
