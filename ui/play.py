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
    """The rules of the match: the pack's (or the defaults), with ``--target`` applied."""
    engine.game(game)
    rules = engine.default_rules(game)
    if pack is not None:
        from atout.core.errors import UnknownNameError

        raise UnknownNameError(f"--pack {pack}: house-rule packs are not available yet")
    if target is not None:
        rules = engine.make_rules(game, {**rules.to_dict(), "target": target}, rules.pack)
    return rules


def run(args: argparse.Namespace, engine: Engine) -> int:
    from . import terminal

    rules = resolve_rules(engine, args.game, args.pack, args.target)
    return terminal.play_match(
        engine, args.game, rules, bot=args.bot, seed=args.seed, think=args.think, save=args.save
    )
