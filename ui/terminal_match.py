"""Starting a terminal match: a new or resumed match on a local session
(:func:`play_match`), or a table on a server, joined (:func:`join_match`) or hosted
from here (:func:`host_match`), played by :func:`run_remote`.  The game itself is
:class:`~atout.ui.terminal.TerminalGame`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from typing import TextIO

from atout.core import Engine
from atout.core import Rules
from atout.core.errors import AtoutError
from atout.core.files import write_new
from atout.core.records import record_text
from atout.core.session import BOT
from atout.core.session import PERSON
from atout.core.session import Player
from atout.core.session import Session
from atout.core.views import Bot

from . import savegame
from . import terminal_save
from .cards_text import seat_word
from .i18n import _
from .messages import bot_title
from .messages import shown
from .paths import data_dir
from .safe_text import printable
from .terminal import LineReader
from .terminal import TerminalGame

if TYPE_CHECKING:
    from atout.ui.net.address import TableOrder
    from atout.ui.net.client import RemoteTable


def play_match(
    engine: Engine,
    game: str,
    rules: Rules,
    bot: str = "greedy",
    seed: int | None = None,
    think: float = 0.0,
    save: str | None = None,
    inp: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    bot_factory: Callable[[int], Bot] | None = None,
    resume: bool = False,
    auto_forced: bool | None = None,
    practice: bool = False,
    plain: bool = False,
    four_colour: bool | None = None,
) -> int:
    """Play a whole match in the terminal (``resume``: the match left unfinished;
    ``practice``: a practice match, free undo; ``plain``: the plain mode for screen
    readers; ``four_colour``: the four-colour deck, ``None``: as the settings say,
    :func:`four_colour_setting`); it is saved after every action
    (:mod:`atout.ui.terminal_save`), and on SIGHUP or SIGTERM; the match record is written at
    the end (or on quit) and its path shown.  ``auto_forced``: play the person's only
    legal card by itself (``None``: as the settings say, :func:`auto_forced_setting`).
    Two terminal games never share a save: the save is claimed first."""
    with terminal_save.claim_terminal():
        return _play_claimed(
            engine,
            game,
            rules,
            bot,
            seed,
            think,
            save,
            inp,
            out,
            bot_factory,
            resume,
            auto_forced,
            practice,
            plain,
            four_colour,
        )


def _play_claimed(
    engine: Engine,
    game: str,
    rules: Rules,
    bot: str,
    seed: int | None,
    think: float,
    save: str | None,
    inp: TextIO,
    out: TextIO,
    bot_factory: Callable[[int], Bot] | None,
    resume: bool,
    auto_forced: bool | None,
    practice: bool,
    plain: bool = False,
    four_colour: bool | None = None,
) -> int:
    """:func:`play_match` once the terminal's save is claimed."""
    if resume:
        torn = terminal_save.terminal_torn()
        session = terminal_save.resume_terminal(engine, bot_factory)
        if torn is not None:
            print(_("Note: {what}.").format(what=torn), file=out)  # atout's own sentence
    else:
        seats = engine.game(game).seats
        # "You" is the record's name for the person (records are language-free); the
        # terminal shows the person's seat in the chosen language
        players = [Player(PERSON, "You")] + [Player(BOT, "", bot)] * (seats - 1)
        bots = {s: bot_factory(s) for s in range(1, seats)} if bot_factory else None
        session = Session(
            engine,
            game,
            rules,
            players=players,
            seed=seed,
            think=think,
            bots=bots,
            practice=practice,
        )
        kept = terminal_save.follow_terminal(session, claim=save is None)
        if kept is not None:
            print(printable(_("The match you left is kept in {path}.").format(path=kept)), file=out)
    seed = session.match.seed
    print(
        _("atout: {title}, seed {seed} (repeat it with --seed {seed}). Type help for help.").format(
            title=shown(session.match.info.title), seed=seed
        ),
        file=out,
    )
    if session.practice:
        print(_("A practice match: undo is free."), file=out)
    try:
        with terminal_save.stop_on_signals():
            terminal = TerminalGame(
                session,
                inp,
                out,
                auto_forced=auto(auto_forced),
                plain=plain,
                four_colour=four_colour_setting() if four_colour is None else four_colour,
            )
            code = terminal.run()
    finally:
        saved = terminal_save.end_terminal(session, Path(save) if save else None)
        print(printable(_("The match record is saved in {path}").format(path=saved)), file=out)
        if session.result is None:
            print(_("Continue this match with: atout play --text --continue"), file=out)
    return code


def auto_forced_setting() -> bool:
    """Whether the settings file asks for a card that is the person's only legal one
    to be played by itself (``"auto_forced": true``; off when absent)."""
    return savegame.load_settings().get("auto_forced") is True


def four_colour_setting() -> bool:
    """Whether the settings file asks for the four-colour deck in the terminal
    (``"four_colour": true``: diamonds blue, clubs green; off when absent)."""
    return savegame.load_settings().get("four_colour") is True


def auto(choice: bool | None) -> bool:
    """``choice``, or the setting when there is none (``None``)."""
    return auto_forced_setting() if choice is None else choice


# --- tables over the network -------------------------------------------------------------


def run_remote(
    table: RemoteTable,
    inp: TextIO,
    out: TextIO,
    auto_forced: bool | None = None,
    lines: LineReader | None = None,
    host: bool = False,
) -> int:
    """Play (or watch) a remote table in the terminal until its match ends, the person
    quits or the table closes; the record of the finished deals is saved when the match
    is over.  The table is listened to while the person types (``lines``: the input's
    reader, made here when not given): players joining and leaving are told at once.
    ``host``: the person hosts the table, which closes when they leave."""
    seat = table.seat if table.seat is not None else -1
    reader = lines if lines is not None else LineReader(inp)
    game = TerminalGame(table, inp, out, seat=seat, auto_forced=auto(auto_forced), lines=reader)
    code = game.run()
    if table.result is not None:
        try:
            saved = write_new(
                data_dir() / "records",
                f"{table.game}-table-{table.code}",
                record_text(table.record()),
            )
            print(printable(_("The match record is saved in {path}").format(path=saved)), file=out)
        except AtoutError as exc:
            print(
                printable(_("The match record could not be fetched: {why}").format(why=exc)),
                file=out,
            )
    elif game.quit and host:
        print(
            _(
                "You closed the table: the other players are told it is closed, "
                "and the server stops."
            ),
            file=out,
        )
    elif game.quit:
        if table.seat is not None:
            table.leave()
        print(
            _(
                "You left the table; a bot plays your seat until you come back with "
                "the same command."
            ),
            file=out,
        )
    return code


def join_match(
    address: str,
    token: str | None,
    name: str = "",
    inp: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    auto_forced: bool | None = None,
) -> int:
    """``atout play --join HOST:PORT/TABLE [--token TOKEN]``: take the token's seat at a
    table on a server (without a token: watch it)."""
    from atout.ui.net.address import parse_address
    from atout.ui.net.client import Client
    from atout.ui.net.client import RemoteTable

    try:
        where = parse_address(address)
    except ValueError as exc:
        raise AtoutError(f"--join: {exc}") from None
    client = Client(where.url).start()
    try:
        table = RemoteTable(client, where.table, token, name)
        who = (
            _("as a spectator")
            if table.seat is None
            else _("as {seat} (seat {number})").format(
                seat=seat_word(table.info.seat_name(table.seat)), number=table.seat
            )
        )
        print(
            printable(
                _("atout: joined table {table} ({title}) {who}.").format(
                    table=where.table, title=shown(table.info.title), who=who
                )
            ),
            file=out,
        )
        if not table.started:
            print(_("Waiting for the host to start the table..."), file=out, flush=True)
        return run_remote(table, inp, out, auto_forced)
    finally:
        client.close()


def host_match(
    engine: Engine,
    order: TableOrder,
    listen: tuple[str, int] = ("0.0.0.0", 0),
    inp: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    data: Path | None = None,
    auto_forced: bool | None = None,
) -> int:
    """``atout play --text --host``: start a table server in the background, create the
    table ``order`` asks for (the pack's resolved rules travel with it), print what the
    other players type to join, and play seat 0 in the terminal.

    The host is told as players join and leave, from the first prompt on.  The server
    lives in this process: when the host leaves (quit, the end of the input, Ctrl-C), the
    table is closed for everyone (each guest's terminal or window says so and stops
    instead of waiting for a server that will not come back) and the server stops."""
    from atout.ui.net.runner import host_table

    folder = data if data is not None else data_dir() / "hosted"
    hosted = host_table(engine, order, listen, folder)
    table, made = hosted.table, hosted.made
    table.bot_title = bot_title(engine.bots, order.bot)
    try:
        print(
            printable(
                _(
                    "atout: hosting table {table} ({title}) on {address}.  Each player joins with:"
                ).format(table=made["table"], title=shown(table.info.title), address=hosted.address)
            ),
            file=out,
        )
        for s in range(1, table.info.seats):
            print(
                printable(
                    f"  {seat_word(table.info.seat_name(s)):6} atout play --join "
                    f"{hosted.join_address} --token {made['tokens'][s]}"
                ),
                file=out,
            )
        print(
            _(
                "  (watch: atout play --join {address}; empty seats are played by the {bot} bot)"
            ).format(address=hosted.join_address, bot=table.bot_title),
            file=out,
        )
        lines = LineReader(inp)
        line = lobby(table, lines, out)
        if line is None:
            return 0
        if not table.started:
            table.start(made["host"])
        return run_remote(table, inp, out, auto_forced, lines=lines, host=True)
    finally:
        hosted.close("the host closed the table")


def lobby_prompt() -> str:
    """The host's prompt before the table starts, in the chosen language."""
    return _("Press Enter to start (or type quit): ")


def lobby(table: RemoteTable, lines: LineReader, out: TextIO) -> str | None:
    """Wait for the host to press Enter, telling them who joins and leaves meanwhile:
    the line typed, ``None`` to quit; ``""`` when the table started by itself (every
    seat taken; the line being typed is then the answer to the first prompt)."""
    game = TerminalGame(table, lines.inp, out, seat=0, lines=lines)
    out.write(lobby_prompt())
    out.flush()
    while True:
        line = lines.get(0.25)
        if line is not None:
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                return None
            return line
        events = table.wait(0.0)
        if events:
            out.write("\n")
            game.tell(events)
            if not table.started:
                out.write(lobby_prompt())
                out.flush()
        if table.started:
            print(_("Every seat is taken: the table starts."), file=out, flush=True)
            return ""
