"""``atout play``: a match against bots, at the Arcade table or, with ``--text``, in the
terminal.  The window's modules (and arcade) are imported only when the window opens."""

from __future__ import annotations

import argparse
import sys

from atout.core import Engine
from atout.ui.rules import print_warning, resolve_rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        nargs="?",
        default="decouverte",
        help="the game: decouverte (two players) or belote (four players); default decouverte",
    )
    parser.add_argument("--text", action="store_true", help="play in the terminal")
    parser.add_argument(
        "--seed", type=int, default=None, help="repeat a match: same seed, same cards"
    )
    parser.add_argument("--pack", default=None, metavar="NAME_OR_FILE", help="a house-rule pack")
    parser.add_argument(
        "--bot", default="greedy", metavar="NAME", help="the bots' level (default greedy)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="thinking budget of a search bot",
    )
    parser.add_argument("--target", type=int, default=None, help="the match's target score")
    parser.add_argument(
        "--save",
        default=None,
        metavar="FILE",
        help="where to save the match record (default: data dir)",
    )


def run(args: argparse.Namespace, engine: Engine) -> int:
    """``--text``: the terminal game.  Otherwise the Arcade window, on the start view with
    the command line's choices selected (on a machine without a display: one line that
    suggests ``--text``, exit 1)."""
    rules = resolve_rules(engine, args.game, args.pack, args.target, warn=print_warning)
    if args.text:
        from atout.ui import terminal

        return terminal.play_match(
            engine, args.game, rules, bot=args.bot, seed=args.seed, think=args.think, save=args.save
        )
    from atout.ui.display import display_problem

    problem = display_problem()
    if problem is None:
        try:
            from atout.ui.window.app import run as run_window
        except (ImportError, OSError) as exc:  # arcade, or the OpenGL libraries, missing
            problem = f"the window cannot start ({type(exc).__name__}: {exc})"
    if problem is not None:
        print(f"atout: {problem}; play in the terminal with: atout play --text", file=sys.stderr)
        return 1
    from atout.ui.savegame import Setup

    setup = Setup(
        game=args.game,
        pack=args.pack or "",
        bot=args.bot,
        target=args.target,
        seed=args.seed,
        think=args.think,
    )
    # a bare `atout play` leaves the start view on the last match's choices
    chosen = setup if setup != Setup(game="decouverte", bot="greedy") else None
    return run_window(engine, chosen)
