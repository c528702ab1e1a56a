"""Play a match: the Arcade table, or the terminal game with ``--text``."""

from __future__ import annotations

import argparse

from atout.core import Engine, Rules

HELP = "play a match against bots (Découverte or four-player Belote)"


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


def resolve_rules(engine: Engine, game: str, pack: str | None, target: int | None) -> Rules:
    """The rules of the match: the pack's (or the defaults), with ``--target`` applied.

    ``pack`` is a pack's name or a pack file (:mod:`atout.core.packs`); a pack for
    another game, or any problem in it, is a :class:`~atout.core.errors.PackError`.
    """
    engine.game(game)
    rules = engine.default_rules(game)
    if pack is not None:
        import sys

        from atout.core.packs import resolve

        resolved = resolve(engine, pack, game)
        for warning in resolved.warnings:
            print(f"atout: warning: {warning}", file=sys.stderr)
        rules = resolved.rules
    if target is not None:
        rules = engine.make_rules(game, {**rules.to_dict(), "target": target}, rules.pack)
    return rules


def run(args: argparse.Namespace, engine: Engine) -> int:
    """``--text``: the terminal game.  Otherwise the Arcade window, on the start view with
    the command line's choices selected (on a machine without a display: one line that
    suggests ``--text``, exit 1)."""
    rules = resolve_rules(engine, args.game, args.pack, args.target)
    if args.text:
        from . import terminal

        return terminal.play_match(
            engine, args.game, rules, bot=args.bot, seed=args.seed, think=args.think, save=args.save
        )
    import sys

    from .display import display_problem

    problem = display_problem()
    if problem is None:
        try:
            from .app import run as run_window
        except (ImportError, OSError) as exc:  # arcade, or the OpenGL libraries, missing
            problem = f"the window cannot start ({type(exc).__name__}: {exc})"
    if problem is not None:
        print(f"atout: {problem}; play in the terminal with: atout play --text", file=sys.stderr)
        return 1
    from .savegame import Setup

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
