"""Replay a deal or match record, re-checking every action, and print the outcome.

Everything printed comes from the record file, so every text is shown with its control
characters escaped (:func:`atout.ui.safe_text.printable`): a bid written as an escape
sequence cannot recolour the terminal or retitle its window.
"""

from __future__ import annotations

import argparse
import json

from atout.core import Engine
from atout.core.records import MATCH_FORMAT
from atout.core.records import iter_record_deals
from atout.core.records import load_json
from atout.core.records import record_players
from atout.core.records import record_practice
from atout.core.records import trace_record
from atout.ui.i18n import _
from atout.ui.safe_text import printable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help=_("a deal record or a match record (JSON)"))
    parser.add_argument(
        "--trace", action="store_true", help=_("print every step: seat, legal actions, action")
    )
    parser.add_argument("--json", action="store_true", help=_("print JSON, one object per line"))


def run(args: argparse.Namespace, engine: Engine) -> int:
    data = load_json(args.file)
    if args.trace:
        for _deal, steps in trace_record(engine, data, args.file):
            for step in list(steps):
                print(_json(step) if args.json else _line(step))
        return 0
    deals = list(iter_record_deals(engine, data, args.file))
    if data.get("format") == MATCH_FORMAT:
        players = record_players(data, args.file, engine.games[data["game"]].seats)
        if players is not None:
            line: dict[str, object] = {"players": [p["name"] or f"{p['bot']} bot" for p in players]}
            print(_json(line) if args.json else _line(line))
        if record_practice(data, args.file):
            if args.json:
                print(_json({"practice": True}))
            else:
                print(_("A practice match: undo was free."))
    for n, deal in enumerate(deals, start=1):
        summary = {"deal": n, "phase": deal.phase, "actions": len(deal.actions)}
        if deal.score is not None:
            summary.update(
                score=list(deal.score.score),
                card_points=list(deal.score.card_points),
                outcome=deal.score.outcome,
            )
        print(_json(summary) if args.json else _line(summary))
    return 0


def _json(step: dict[str, object]) -> str:
    """One JSON line; non-ASCII kept, control characters escaped by JSON itself."""
    return printable(json.dumps(step, ensure_ascii=False))


def _line(step: dict[str, object]) -> str:
    return printable("  ".join(f"{k}={v}" for k, v in step.items()))
