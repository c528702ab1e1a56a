"""``atout play``: a match against bots, at the Arcade table or, with ``--text``, in the
terminal; ``--host`` hosts a table for people over the network (in the terminal) and
``--join`` takes a seat at one (in the window; with ``--text``, in the terminal).  The
window's modules (and arcade) are imported only when the window opens."""

from __future__ import annotations

import argparse
import os
import sys

from atout.core import Engine
from atout.core.errors import UnknownNameError
from atout.ui import arguments
from atout.ui.i18n import LANGUAGES
from atout.ui.i18n import _
from atout.ui.i18n import choose_language
from atout.ui.i18n import ngettext
from atout.ui.i18n import set_language
from atout.ui.net.address import TableOrder
from atout.ui.net.protocol import DEFAULT_PORT
from atout.ui.rules import print_warning
from atout.ui.rules import resolve_rules
from atout.ui.safe_text import printable
from atout.ui.savegame import load_settings
from atout.ui.settings import SIGNALS
from atout.ui.settings import setting
from atout.ui.settings import settings_problem
from atout.ui.settings import signals_spec


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        nargs="?",
        default="decouverte",
        help=_(
            "the game: decouverte or coinche-decouverte (two players), belote or coinche "
            "(four players); default decouverte"
        ),
    )
    parser.add_argument("--text", action="store_true", help=_("play in the terminal"))
    parser.add_argument(
        "--auto",
        action="store_true",
        help=_(
            "with --text: play a card by itself when it is your only legal one "
            '(also the setting "auto_forced")'
        ),
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "with --text: the plain mode for screen readers (no box drawing, no colour, one "
            "sentence per event, the playable cards in words)"
        ),
    )
    parser.add_argument(
        "--four-colour",
        dest="four_colour",
        action="store_true",
        default=None,
        help=_(
            "with --text: the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green; also the "
            'setting "four_colour"); no colour when NO_COLOR is set or the output is no terminal'
        ),
    )
    parser.add_argument(
        "--continue",
        dest="resume",
        action="store_true",
        help=_("with --text: continue the match left unfinished in the terminal"),
    )
    parser.add_argument(
        "--seed", type=arguments.seed, default=None, help=_("repeat a match: same seed, same cards")
    )
    parser.add_argument("--pack", default=None, metavar="NAME_OR_FILE", help=_("a house-rule pack"))
    parser.add_argument(
        "--bot",
        default="greedy",
        metavar="NAME",
        help=_(
            "the bots' level (default greedy), its settings after a colon: expert:signals=off "
            "neither makes nor reads the club players' signals (appel direct) in four-player "
            'games; without it, as the setting "bot_signals" says (default on)'
        ),
    )
    arguments.add_think(parser, _("thinking budget of a search bot (0: its default)"))
    parser.add_argument(
        "--target", type=arguments.target, default=None, help=_("the match's target score")
    )
    parser.add_argument(
        "--practice",
        action="store_true",
        help=_(
            "a practice match: undo is free, even after seeing what a card revealed "
            "(the table and the match record say so); the window starts it at once"
        ),
    )
    parser.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help=_("where to save the match record (default: data dir)"),
    )
    parser.add_argument(
        "--guided",
        action="store_true",
        help=_("learn Découverte: a guided first deal in the window, each step explained"),
    )
    parser.add_argument(
        "--screenshots",
        default=None,
        metavar="DIR",
        help=_(
            "write a PNG of every screen of the window at each window size to DIR "
            "(headless, nothing saved) and exit"
        ),
    )
    parser.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        default=None,
        help=_(
            "the language of the game: en, fr or de (default: the start view's last "
            "choice, else the environment's LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
        ),
    )
    net = parser.add_argument_group(_("tables over the network"))
    net.add_argument(
        "--join",
        type=arguments.join,
        default=None,
        metavar="HOST:PORT/TABLE",
        help=_(
            "play at a table on a server (with --token: your seat; without: watch), "
            "in the window (with --text: in the terminal)"
        ),
    )
    net.add_argument("--token", default=None, help=_("your seat's secret token (from the host)"))
    net.add_argument("--name", type=arguments.name, default="", help=_("your name at the table"))
    net.add_argument(
        "--host",
        action="store_true",
        help=_(
            "host a table from the terminal: start a server in the background and print "
            "how to join (the window hosts from its With people screen)"
        ),
    )
    net.add_argument(
        "--listen",
        type=arguments.listen,
        default=("0.0.0.0", DEFAULT_PORT),
        metavar="HOST:PORT",
        help=_("where a hosted table listens (default 0.0.0.0:{port}; port 0: any)").format(
            port=DEFAULT_PORT
        ),
    )


def run(args: argparse.Namespace, engine: Engine) -> int:
    """``--text``: the terminal game.  Otherwise the Arcade window, on the start view with
    the command line's choices selected, or joining the ``--join`` table (on a machine
    without a display: one line that suggests ``--text``, exit 1).  ``--screenshots
    DIR``: the window's gallery.  The language is chosen first (see
    :func:`~atout.ui.i18n.choose_language`)."""
    set_language(choose_language(args.lang, load_settings(), os.environ))
    if args.screenshots:
        from pathlib import Path

        os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported
        from atout.ui.window.gallery import write_gallery

        written = write_gallery(Path(args.screenshots), engine=engine)
        print(
            printable(
                ngettext(
                    "{n} screenshot written to {folder}",
                    "{n} screenshots written to {folder}",
                    len(written),
                ).format(n=len(written), folder=args.screenshots)
            )
        )
        return 0
    if args.practice and (args.join or args.host or args.resume):
        other = "--join" if args.join else "--host" if args.host else "--continue"
        raise UnknownNameError(
            _("--practice starts a new match of your own; it does not go with {option}").format(
                option=other
            )
        )
    if args.join and args.text:
        from atout.ui import terminal_match

        return terminal_match.join_match(
            args.join, args.token, args.name, auto_forced=args.auto or None
        )
    rules = resolve_rules(engine, args.game, args.pack, args.target, warn=print_warning)
    bot = args.bot
    if args.text or args.host:  # the window reads the settings itself
        settings = load_settings()
        mistaken = settings_problem(settings)
        if mistaken:
            print(printable(mistaken), file=sys.stderr)
        bot = signals_spec(engine, args.bot, args.game, setting(settings, SIGNALS))
    if args.host:
        from atout.ui import terminal_match

        return terminal_match.host_match(
            engine,
            TableOrder(rules, bot, args.seed, args.name),
            listen=args.listen,
            auto_forced=args.auto or None,
        )
    if args.text:
        from atout.ui import terminal_match

        return terminal_match.play_match(
            engine,
            args.game,
            rules,
            bot=bot,
            seed=args.seed,
            think=args.think,
            save=args.save,
            resume=args.resume,
            auto_forced=args.auto or None,
            practice=args.practice,
            plain=args.plain,
            four_colour=args.four_colour,
        )
    from atout.ui.display import display_problem

    problem = display_problem()
    if problem is None:
        try:
            from atout.ui.window.app import run as run_window
        except (ImportError, OSError) as exc:  # arcade, or the OpenGL libraries, missing
            problem = f"the window cannot start ({type(exc).__name__}: {exc})"
    if problem is not None:
        print(
            printable(
                _("atout: {problem}; play in the terminal with: atout play --text").format(
                    problem=problem
                )
            ),
            file=sys.stderr,
        )
        return 1
    from atout.ui.savegame import Setup

    if args.join:
        joined = " ".join([args.join, args.token or ""]).strip()
        return run_window(engine, None, join=(joined, args.name))
    if args.guided:
        return run_window(engine, None, guided=True)

    setup = Setup(
        game=args.game,
        pack=args.pack or "",
        bot=args.bot,
        target=args.target,
        seed=args.seed,
        think=args.think,
        practice=args.practice,
    )
    if args.practice:  # the start view has its own switch: the command line's starts at once
        return run_window(engine, setup, start=True)
    # a bare `atout play` leaves the start view on the last match's choices
    chosen = setup if setup != Setup(game="decouverte", bot="greedy") else None
    return run_window(engine, chosen)
