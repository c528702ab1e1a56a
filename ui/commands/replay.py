"""Replay a deal or match record, re-checking every action, and print the outcome."""

from __future__ import annotations

import argparse
import json

from atout.core import Engine
from atout.core.records import iter_record_deals, load_json, trace


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a deal record or a match record (JSON)")
    parser.add_argument(
        "--trace", action="store_true", help="print every step: seat, legal actions, action"
    )
    parser.add_argument("--json", action="store_true", help="print JSON, one object per line")


def run(args: argparse.Namespace, engine: Engine) -> int:
    data = load_json(args.file)
    if args.trace:
        deals = [data] if data.get("format") == "atout-deal" else data.get("deals") or []
        for n, deal_data in enumerate(deals, start=1):
            source = args.file if len(deals) == 1 else f"{args.file} deal {n}"
            steps = list(trace(deal_data, engine, source))
            for step in steps:
                print(json.dumps(step, ensure_ascii=False) if args.json else _line(step))
        return 0
    deals = list(iter_record_deals(engine, data, args.file))
    for n, deal in enumerate(deals, start=1):
        summary = {"deal": n, "phase": deal.phase, "actions": len(deal.actions)}
        if deal.score is not None:
            summary.update(
                score=list(deal.score.score),
                card_points=list(deal.score.card_points),
                outcome=deal.score.outcome,
            )
        print(json.dumps(summary, ensure_ascii=False) if args.json else _line(summary))
    return 0


def _line(step: dict[str, object]) -> str:
    return "  ".join(f"{k}={v}" for k, v in step.items())
