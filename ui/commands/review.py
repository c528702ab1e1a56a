"""``atout review RECORD``: every decision of a deal, valued from the deciding seat's view.

The analysis is :mod:`atout.plugins.bots.review` (see ``docs/review.md``); this module
reads the record, runs the review and prints it: a table per trick (the action taken,
its loss and the best action, then every legal action's value), or with ``--json`` one
JSON object per decision and the summary last.  :func:`review_lines` is the table the
terminal game prints after a deal too.

Everything printed that comes from the record (bids, a plugin's contract names) is
shown with its control characters escaped (:func:`atout.ui.safe_text.printable`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from atout.core import Engine
from atout.core import GameInfo
from atout.core.errors import AtoutError
from atout.core.records import load_json
from atout.plugins.bots.review import DealReview
from atout.plugins.bots.review import Decision
from atout.plugins.bots.review import ReviewOptions
from atout.plugins.bots.review import Summary
from atout.plugins.bots.review import Valued
from atout.plugins.bots.review import review_record
from atout.ui import arguments
from atout.ui.safe_text import printable

if TYPE_CHECKING:
    from atout.ui.commands.bench_measures import BenchContext

RECORDS = Path(__file__).resolve().parents[2] / "tests" / "data" / "review"
"""The fixed deal records the bench reviews (expert against expert, written by
``tests/data/review/make_records.py``): in a source checkout of atout."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a deal record or a match record (JSON)")
    parser.add_argument(
        "--deal", type=int, metavar="N", help="the deal of a match record (default: its last)"
    )
    parser.add_argument(
        "--seat", type=int, action="append", metavar="S", help="review only this seat's decisions"
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per decision, the summary last"
    )
    parser.add_argument(
        "--budget",
        type=arguments.budget,
        default=ReviewOptions.budget,
        metavar="SECONDS",
        help=f"CPU seconds of sampling per decision (default {ReviewOptions.budget})",
    )
    parser.add_argument(
        "--samples",
        type=int,
        metavar="N",
        help="a fixed number of samples per decision instead of the budget, the exact "
        "searches without a time limit: the same review every time",
    )
    parser.add_argument(
        "--seed", type=arguments.seed, default=0, help="the samples' seed (default 0)"
    )


def run(args: argparse.Namespace, engine: Engine) -> int:
    if args.samples is not None and not 1 <= args.samples <= 100_000:
        raise AtoutError("--samples: give a number from 1 to 100000")
    data = load_json(args.file)
    options = ReviewOptions(budget=args.budget, samples=args.samples, seed=args.seed)
    if args.samples is not None:  # reproducible: the exact searches run to their end
        options = ReviewOptions(samples=args.samples, seed=args.seed, exact_budget=0.0)
    review = review_record(engine, data, args.deal, options, args.seat, args.file)
    info = engine.game(str(review.record.get("game")))
    if args.seat is not None:
        for s in args.seat:
            if not 0 <= s < info.seats:
                raise AtoutError(f"--seat: {info.name} has seats 0 to {info.seats - 1}")
    if args.json:
        for d in review.decisions():
            print(_json(d.to_json()), flush=True)
        print(_json(review.summary().to_json()))
        return 0
    for line in review_lines(review, info, info.seat_name):
        print(printable(line), flush=True)
    return 0


def review_lines(
    review: DealReview, info: GameInfo, name: Callable[[int], str]
) -> Generator[str, None, None]:
    """The review as text, line by line as each decision is valued: a heading per
    trick, two lines per decision, then the summary; ``name`` names a seat.  Closing the
    generator stops the review."""
    yield (
        "Values: the deciding seat's expected final score difference (its side minus the "
        "other), from what it knew; [a, b] is a 95% interval when sampled. A sampled loss "
        "counts only when its interval is above zero (else: within noise)."
    )
    if info.seats == 4:
        yield "dd: the double-dummy value (every hand known)."
    heading = None
    for d in review.decisions():
        now = "Bidding" if d.phase == "bidding" else f"Trick {d.trick}"
        if now != heading:
            heading = now
            yield now
        yield from decision_lines(d, name)
    yield from summary_lines(review.summary(), info, name)


def decision_lines(d: Decision, name: Callable[[int], str]) -> Iterator[str]:
    """One decision: the action, its loss and the best action, how it was valued; then
    every legal action's value."""
    head = f"  #{d.step:<3} {name(d.seat):<6} {d.action:<5}"
    if d.method == "unvalued":
        yield f"{head} (not valued)"
        return
    if d.method == "forced":
        extra = f"  dd {_num(d.legal[0].dd)}" if d.legal and d.legal[0].dd is not None else ""
        yield f"{head} forced{extra}"
        return
    loss = f"loss {_num(d.loss, False)}"
    interval = (
        f" [{_num(d.loss_interval[0])}, {_num(d.loss_interval[1])}]"
        if d.loss_interval is not None
        else ""
    )
    if d.within_noise:
        # another action looked better, by a margin the samples do not prove
        loss += f" (within noise: {_num(d.raw_loss)}{interval}, {d.best} looked better)"
    elif d.loss > 0:
        loss += interval
        if d.best is not None and d.best != d.action:
            loss += f", best {d.best}"
    how = d.method if d.method != "sampled" else f"sampled ({d.samples})"
    dd = ""
    if d.dd_loss is not None:
        dd = f"  dd loss {_num(d.dd_loss, False)}"
        if d.dd_best is not None and d.dd_best != d.action and d.dd_loss > 0:
            dd += f", best {d.dd_best}"
    yield f"{head} {loss}  {how}{dd}"
    yield "        " + "   ".join(_value(v) for v in d.legal)


def _value(v: Valued) -> str:
    text = f"{v.action} {_num(v.value)}"
    if v.low is not None and v.high is not None:
        text += f" [{_num(v.low)}, {_num(v.high)}]"
    if v.dd is not None:
        text += f" dd {_num(v.dd)}"
    return text


def summary_lines(s: Summary, info: GameInfo, name: Callable[[int], str]) -> Iterator[str]:
    """The deal's summary in a few lines."""
    yield "Summary"
    if s.score is not None:
        taker = f"{name(s.taker)} took; " if s.taker is not None else ""
        yield f"  {taker}{s.outcome}, score {' - '.join(str(x) for x in s.score)}"
    else:
        yield "  the deal is not finished"
    sides = _sides(info, name)
    yield "  points lost: " + ", ".join(
        f"{side} {_num(x, False)}" for side, x in zip(sides, s.lost, strict=True)
    )
    if s.dd_lost is not None:
        yield "  double dummy: " + ", ".join(
            f"{side} {_num(x, False)}" for side, x in zip(sides, s.dd_lost, strict=True)
        )
    if s.mistakes:
        yield "  biggest mistakes: " + "; ".join(
            f"#{d.step} {name(d.seat)} {d.action} (best {d.best}) {_num(d.loss, False)}"
            for d in s.mistakes
        )
    else:
        yield "  no mistake found"
    if s.within_noise:
        yield f"  {s.within_noise} decisions within noise (another action looked better, not proved)"
    if s.decided is not None:
        d = s.decided
        what = "made" if d.settled == "made" else "broken"
        yield (
            f"  decided at #{d.step}, trick {d.trick}: after {name(d.seat)}'s {d.action} the "
            f"contract was {what} with best play"
        )
    yield f"  {s.decisions} decisions reviewed in {s.seconds:.1f} s (CPU)"


def _sides(info: GameInfo, name: Callable[[int], str]) -> list[str]:
    """The sides' names: each seat when it plays alone, else its team's players."""
    return [
        " & ".join(name(s) for s in range(info.seats) if s % info.teams == team)
        for team in range(info.teams)
    ]


def _num(x: float | None, signed: bool = True) -> str:
    """A value with one decimal (signed: a score difference; unsigned: a loss)."""
    if x is None:
        return "-"
    r = round(x, 1)
    if not r:
        return "0"
    return f"{r:+.1f}" if signed else f"{r:.1f}"


def _json(obj: dict[str, object]) -> str:
    return printable(json.dumps(obj, ensure_ascii=False))


# --- the bench's figures ----------------------------------------------------------------------


def bench_review(ctx: BenchContext) -> dict[str, Any]:
    """``review_decouverte_deal_s`` and ``review_belote_deal_s``: the CPU seconds
    (``time.process_time``) of reviewing a whole deal, every decision with the default
    options, median over the fixed expert records of :data:`RECORDS` (a smoke run
    reviews South's decisions in one record of each game, two samples a decision).  ``None``
    when the records are not there (atout installed without its tests)."""
    out: dict[str, Any] = {}
    options = ReviewOptions(samples=2, exact_budget=0.2) if ctx.quick else ReviewOptions()
    for game, key in (
        ("decouverte", "review_decouverte_deal_s"),
        ("belote", "review_belote_deal_s"),
    ):
        files = sorted(RECORDS.glob(f"{game}_expert_*.json"))[: 1 if ctx.quick else None]
        seconds = []
        for path in files:
            seats = frozenset({0}) if ctx.quick else None
            review = DealReview(ctx.engine, load_json(path), options, seats, source=str(path))
            start = time.process_time()
            review.run()
            seconds.append(time.process_time() - start)
        out[key] = round(statistics.median(seconds), 2) if seconds else None
        out[f"{key}_deals"] = len(seconds)
    return out
