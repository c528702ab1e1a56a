"""Screening of settings of atout's bidding against colver, by common auctions.

A bidding setting changes only the auction; where its auction is the same as the base
setting's, the table is the same and the difference is nothing.  So each table (a seed
and atout's team) is bid once per value of the setting, with the expert's auction samples
fixed (its bids then depend only on the seed), and only the tables whose auctions differ
are played out, once per distinct auction, with the play timed as in ``duel.py``.  The
tables that agree cost no play and add no noise.

    python screen.py --vary NAME=BASE,V1,V2 --start 30000 --stop 40000 \
        --until 12:05 --out screen.jsonl
    python summary.py screen.jsonl

The first value of ``--vary`` is the base the others are compared with.  Each line:
``seed``, ``team`` (atout's), the auction under each value and, where they differ, the
result under each value (atout's team minus colver's, by atout's and colver's scoring,
and the contract).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from atout.core.engine import Engine
from atout.core.packs import load_rules
from duel import GAME
from duel import RULES
from duel import Table
from duel import json_lines
from duel import literal
from duel import margin
from duel import stop_time


def bid(seed: int, team: int, args: argparse.Namespace, setting: tuple[str, Any]) -> Table:
    """Table (``seed``, ``team``) with the auction bid under ``setting``, the expert's
    auction samples fixed."""
    duel_args = argparse.Namespace(
        think=args.think, set=[*args.set, setting, ("samples", args.auction_samples)]
    )
    table = Table(seed, team, duel_args, None)
    while table.deal.phase == "bidding" and not table.deal.is_over:
        table.step()
    return table


def finish(table: Table, team: int) -> list[Any]:
    """Play ``table`` to the end, the expert's play timed; atout's team's score minus
    colver's by each scoring, and the contract."""
    for bot in table.bots.values():
        bot.samples = None
    line = table.play()
    return [margin(line["atout"], team), margin(line["colver"], team), line["contract"]]


def screen(seed: int, team: int, args: argparse.Namespace) -> dict[str, Any]:
    """One table's line."""
    name, values = args.vary
    tables = {v: bid(seed, team, args, (name, v)) for v in values}
    auctions = {v: tuple(t.actions) for v, t in tables.items()}
    line: dict[str, Any] = {
        "seed": seed,
        "team": team,
        "setting": name,
        "auctions": {repr(v): list(a) for v, a in auctions.items()},
    }
    if len(set(auctions.values())) > 1:
        played: dict[tuple[str, ...], list[Any]] = {}
        for v, table in tables.items():
            if auctions[v] not in played:
                played[auctions[v]] = finish(table, team)
        line["results"] = {repr(v): played[auctions[v]] for v in values}
    return line


def values(text: str) -> tuple[str, list[Any]]:
    """``--vary name=v1,v2,...``, each value a Python literal."""
    name, value = literal(text)
    if not isinstance(value, tuple) or len(value) < 2:
        raise argparse.ArgumentTypeError(f"give two values or more: {text!r}")
    return name, list(value)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vary", type=values, required=True, metavar="NAME=BASE,V1,...")
    parser.add_argument("--start", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--stop", type=int, default=1000, help="the seed to stop before")
    parser.add_argument("--step", type=int, default=1, help="every step-th seed")
    parser.add_argument("--think", type=float, default=0.1, help="seconds a card, both")
    parser.add_argument("--auction-samples", type=int, default=16)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--until", help="stop at this time (HH:MM), fixed before the start")
    parser.add_argument("--set", type=literal, action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    Table.engine = Engine()
    Table.rules = Table.engine.make_rules(GAME, {**dict(load_rules(Table.engine, GAME)), **RULES})
    done = {(line["seed"], line["team"]) for line in json_lines(args.out)}
    stop = stop_time(args.until)
    with args.out.open("a") as out:
        for seed in range(args.start, args.stop, args.step):
            for team in (0, 1):
                if stop is not None and time.time() >= stop:
                    return 0
                if (seed, team) not in done:
                    out.write(json.dumps(screen(seed, team, args)) + "\n")
                    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
