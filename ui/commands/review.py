"""``atout review RECORD``: every decision of a deal, valued from the deciding seat's view.

The analysis is :mod:`atout.plugins.review` (see ``docs/review.md``); this module
reads the record, runs the review and prints it: by default the decisions of the seats
a person played (:func:`people`; ``--seat`` chooses, ``all`` every seat), trick by trick
in at most 80 columns and in the Review screen's words (:mod:`atout.ui.review_words`:
the action and its label with its shape, every legal action's value best first, the
sentence the label rests on), then the summary; or with ``--json`` one JSON object per
decision (every seat unless ``--seat``) and the summary last.  :func:`review_lines` is
what the terminal game prints after a deal too.

Everything printed that comes from the record (bids, a plugin's contract names) is
shown with its control characters escaped (:func:`atout.ui.safe_text.printable`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import textwrap
import time
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from atout.core import Engine
from atout.core import GameInfo
from atout.core import View
from atout.core.errors import AtoutError
from atout.core.records import deal_from_record
from atout.core.records import load_json
from atout.core.text import Message
from atout.plugins.review import DealReview
from atout.plugins.review import Decision
from atout.plugins.review import ReviewOptions
from atout.plugins.review import Summary
from atout.plugins.review import Valued
from atout.plugins.review import review_record
from atout.ui import arguments
from atout.ui.cards_text import seat_word
from atout.ui.cards_text import show_card
from atout.ui.i18n import _
from atout.ui.i18n import ngettext
from atout.ui.messages import outcome_words
from atout.ui.review_words import LABEL_GLYPHS
from atout.ui.review_words import action_words
from atout.ui.review_words import explanation
from atout.ui.review_words import face_down
from atout.ui.review_words import label_words
from atout.ui.review_words import points
from atout.ui.review_words import spread
from atout.ui.review_words import summary_words
from atout.ui.review_words import turned_note
from atout.ui.review_words import verdict
from atout.ui.safe_text import printable

if TYPE_CHECKING:
    from atout.ui.commands.bench_measures import BenchContext

RECORDS = Path(__file__).resolve().parents[2] / "tests" / "data" / "review"
"""The fixed deal records the bench reviews (expert against expert, written by
``tests/data/review/make_records.py``): in a source checkout of atout."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help=_("a deal record or a match record (JSON)"))
    parser.add_argument(
        "--deal", type=int, metavar="N", help=_("the deal of a match record (default: its last)")
    )
    parser.add_argument(
        "--seat",
        action="append",
        metavar="S",
        help=_(
            "review this seat's decisions (a number; again for another), or 'all' "
            "(default: the seats a person played, by the record's players, else seat 0; "
            "with --json, every seat)"
        ),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("one JSON object per decision, the summary last")
    )
    parser.add_argument(
        "--budget",
        type=arguments.budget,
        default=ReviewOptions.budget,
        metavar="SECONDS",
        help=_("CPU seconds of sampling per decision (default {seconds})").format(
            seconds=ReviewOptions.budget
        ),
    )
    parser.add_argument(
        "--samples",
        type=int,
        metavar="N",
        help=_(
            "a fixed number of samples per decision instead of the budget, the exact "
            "searches without a time limit: the same review every time"
        ),
    )
    parser.add_argument(
        "--seed", type=arguments.seed, default=0, help=_("the samples' seed (default 0)")
    )


def people(data: dict[str, Any]) -> list[int]:
    """The seats a person played, by the record's ``players`` (``kind`` ``person``): the
    seats the text review shows by default; seat 0 when the record names none."""
    players = data.get("players")
    seats = [
        i
        for i, p in enumerate(players if isinstance(players, list) else [])
        if isinstance(p, dict) and p.get("kind") == "person"
    ]
    return seats or [0]


def chosen_seats(asked: list[str] | None, data: dict[str, Any], as_json: bool) -> list[int] | None:
    """The seats to review: those asked (``all``: every seat, ``None``), else every seat for
    ``--json`` (as it always was) and the person's seats for the text."""
    if asked is None:
        return None if as_json else people(data)
    if any(a.strip().lower() == "all" for a in asked):
        return None
    seats = []
    for a in asked:
        try:
            seats.append(int(a))
        except ValueError:
            raise AtoutError(
                Message("--seat: give a seat's number or 'all', not {value}", value=repr(a))
            ) from None
    return seats


def run(args: argparse.Namespace, engine: Engine) -> int:
    if args.samples is not None and not 1 <= args.samples <= 100_000:
        raise AtoutError(Message("--samples: give a number from 1 to {most}", most=100_000))
    data = load_json(args.file)
    options = ReviewOptions(budget=args.budget, samples=args.samples, seed=args.seed)
    if args.samples is not None:  # reproducible: the exact searches run to their end
        options = ReviewOptions(samples=args.samples, seed=args.seed, exact_budget=0.0)
    seats = chosen_seats(args.seat, data, args.json)
    review = review_record(engine, data, args.deal, options, seats, args.file)
    info = engine.game(str(review.record.get("game")))
    for s in seats or ():
        if not 0 <= s < info.seats:
            raise AtoutError(
                Message("--seat: {game} has seats 0 to {last}", game=info.name, last=info.seats - 1)
            )
    if args.json:
        for d in review.decisions():
            print(_json(d.to_json()), flush=True)
        print(_json(review.summary().to_json()))
        return 0
    for line in review_lines(review, info, lambda seat: seat_word(info.seat_name(seat))):
        print(printable(line), flush=True)
    return 0


WIDTH = 80
"""The text review's width in columns."""
INDENT = "      "
"""The indent of a decision's values and explanation under its first line."""


def review_lines(
    review: DealReview, info: GameInfo, name: Callable[[int], str]
) -> Generator[str, None, None]:
    """The review as text, at most :data:`WIDTH` columns, line by line as each decision is
    valued: a heading per trick; per decision its action and label (with its shape),
    every legal action's value best first (``▶`` the one taken, ``★`` the best), what the
    label rests on (the words of the Review screen, :mod:`atout.ui.review_words`); then
    the summary.  ``name`` names a seat.  Closing the generator stops the review."""
    yield from _wrap(
        _(
            "Values: the deciding side's expected final score difference (its points minus "
            "the other side's), from what the seat knew then; ±: the interval of 95% when "
            "sampled. A sampled loss counts only when proved (else: within noise)."
        )
    )
    if info.seats == 4:
        yield from _wrap(_("dd: the double-dummy value (every hand known)."))
    shapes = ("best", "within noise", "small loss", "mistake", "blunder")
    yield from _wrap(
        "  ".join(f"{LABEL_GLYPHS[s]} {label_words(s)}" for s in shapes)
        + _("  (▶ the action taken, ★ the best)")
    )
    heading = None
    replay = _Replay(review)
    views: dict[int, View] = {}
    """Per decision's step: the deciding seat's view then (the summary names its actions)."""
    last: dict[int, tuple[float | None, int | None]] = {}
    """Per seat: the value of its last action taken, the face-down cards then."""
    for d in review.decisions():
        now = _("Bidding") if d.phase == "bidding" else _("Trick {n}").format(n=d.trick)
        if now != heading:
            heading = now
            yield now
        view = replay.view(d)
        covered = face_down(view)
        before, earlier = last.get(d.seat, (None, None))
        turned = earlier is not None and covered < earlier
        note = turned_note(before, d, turned)
        views[d.step] = view
        yield from decision_lines(d, name, view, note, review.engine)
        taken = next((v.value for v in d.legal if v.action == d.action), None)
        last[d.seat] = (taken if taken is not None else before, covered)
    summary = review.summary()
    yield from summary_lines(
        summary, info, name, lambda d, a: action_words(review.engine, views.get(d.step), a)
    )


class _Replay:
    """The deal replayed alongside the review, for each decision's view (the seat's
    knowledge then: the proposed card, the names of the bids)."""

    def __init__(self, review: DealReview) -> None:
        start = dict(review.record)
        start["actions"] = []
        start.pop("result", None)
        self.deal = deal_from_record(review.engine, start, review.source)
        self.actions = deal_from_record(review.engine, review.record, review.source).actions
        self.done = 0

    def view(self, d: Decision) -> View:
        for _seat, action in self.actions[self.done : d.step - 1]:
            self.deal.apply(action)
        self.done = max(self.done, d.step - 1)
        return self.deal.view(d.seat)


def decision_lines(
    d: Decision,
    name: Callable[[int], str],
    view: View | None = None,
    note: str = "",
    engine: Engine | None = None,
) -> Iterator[str]:
    """One decision: who did what and its label (shape and words); then every legal
    action's value, best first (``▶`` the one taken, ``★`` the best when another;
    four-player play: ``dd`` its double-dummy value), and the sentence the label rests on,
    with ``note`` after it (:func:`~atout.ui.review_words.turned_note`).  Each action is
    named as the table says it (:func:`~atout.ui.review_words.action_words`: a bid as
    ``engine`` describes it in ``view``, the seat's view then)."""

    def _name(action: str) -> str:
        return action_words(engine, view, action)

    played = _name(d.action)
    did = (_("{name} played {action}") if d.phase == "play" else _("{name} bid {action}")).format(
        name=name(d.seat), action=played
    )
    how = "" if d.method in ("forced", "unvalued") else f"  ({_how(d)})"
    yield from _wrap(f"  #{d.step:<3} {did}: {verdict(d)}{how}", "", INDENT)
    if view is not None and d.phase == "bidding" and view.turnup is not None:
        yield INDENT + _("proposed card {card}").format(card=show_card(view.turnup))
    valued = [v for v in d.legal if v.value is not None or v.dd is not None]
    if valued and d.method not in ("unvalued",):
        rows = sorted(
            valued, key=lambda v: (v.value is None, -(v.value or 0.0), v.action != d.action)
        )
        items = [_value(v, d, _name(v.action)) for v in rows]
        yield from _pack(items)
    best = _name(d.best or d.action)
    text = explanation(d, best, played)
    if note:
        text = f"{text} {note}"
    yield from _wrap(text, INDENT)
    if d.dd_loss is not None and d.dd_loss > 0.5 and d.dd_best is not None:
        yield from _wrap(
            _("Double dummy: {action} was best, {points} more (every hand known).").format(
                action=_name(d.dd_best), points=points(d.dd_loss, signed=False)
            ),
            INDENT,
        )


def _how(d: Decision) -> str:
    if d.method != "sampled":
        return _("exact")
    return ngettext("{n} sample", "{n} samples", d.samples).format(n=d.samples)


def _value(v: Valued, d: Decision, said: str) -> str:
    """A legal action (``said``: as the table says it) with its value and marks."""
    mark = "▶" if v.action == d.action else "★" if v.action == d.best else ""
    text = f"{mark}{said}"
    if v.value is not None:
        text += f" {points(v.value)}"
        if v.low is not None and v.high is not None:
            text += f" {spread(v.low, v.high)}"
    if v.dd is not None:
        text += f" dd {points(v.dd)}"
    return text


def _pack(items: list[str], indent: str = INDENT) -> Iterator[str]:
    """Items side by side, three spaces apart, in lines of at most :data:`WIDTH`."""
    line = ""
    for item in items:
        if line and len(indent) + len(line) + 3 + len(item) > WIDTH:
            yield indent + line
            line = ""
        line = f"{line}   {item}" if line else item
    if line:
        yield indent + line


def _wrap(text: str, indent: str = "", then: str | None = None) -> Iterator[str]:
    """``text`` in lines of at most :data:`WIDTH`, the first indented by ``indent``, the
    others by ``then`` (default: the same)."""
    yield from textwrap.wrap(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent if then is None else then,
        break_on_hyphens=False,
    )


def summary_lines(
    s: Summary,
    info: GameInfo,
    name: Callable[[int], str],
    said: Callable[[Decision, str], str] | None = None,
) -> Iterator[str]:
    """The deal's summary: its one line (where decided, the biggest loss: the Review
    screen's), then the figures, each at most :data:`WIDTH` columns.  ``said(decision,
    action)`` names an action of a decision as the table says it (by default without the
    game's description of a bid)."""

    def _name(d: Decision, action: str) -> str:
        return said(d, action) if said is not None else action_words(None, None, action)

    yield _("Summary")
    yield from _wrap(". ".join(summary_words(s)) + ".", "  ")
    if s.score is not None:
        score = " - ".join(str(x) for x in s.score)
        outcome = _("{outcome}, score {score}").format(
            outcome=outcome_words(s.outcome or ""), score=score
        )
        if s.taker is not None:
            outcome = _("{name} took; {outcome}").format(name=name(s.taker), outcome=outcome)
        yield from _wrap(outcome, "  ")
    sides = _sides(info, name)
    yield from _wrap(
        _("points lost: ")
        + ", ".join(f"{side} {_num(x, False)}" for side, x in zip(sides, s.lost, strict=True)),
        "  ",
    )
    if s.dd_lost is not None:
        yield from _wrap(
            _("double dummy: ")
            + ", ".join(
                f"{side} {_num(x, False)}" for side, x in zip(sides, s.dd_lost, strict=True)
            ),
            "  ",
        )
    if s.mistakes:
        yield from _wrap(
            _("biggest mistakes: ")
            + "; ".join(
                _("#{step} {name} {action} (best {best}) {loss}").format(
                    step=d.step,
                    name=name(d.seat),
                    action=_name(d, d.action),
                    best=_name(d, d.best or d.action),
                    loss=_num(d.loss, False),
                )
                for d in s.mistakes
            ),
            "  ",
        )
    if s.within_noise:
        yield from _wrap(
            ngettext(
                "{n} decision within noise (another action looked better, not proved)",
                "{n} decisions within noise (another action looked better, not proved)",
                s.within_noise,
            ).format(n=s.within_noise),
            "  ",
        )
    if s.decided is not None:
        d = s.decided
        decided = (
            _(
                "decided at #{step}, trick {trick}: after {name}'s {action} the contract "
                "was made with best play"
            )
            if d.settled == "made"
            else _(
                "decided at #{step}, trick {trick}: after {name}'s {action} the contract "
                "was broken with best play"
            )
        )
        yield from _wrap(
            decided.format(
                step=d.step, trick=d.trick, name=name(d.seat), action=_name(d, d.action)
            ),
            "  ",
        )
    yield "  " + ngettext(
        "{n} decision reviewed in {seconds} s (CPU)",
        "{n} decisions reviewed in {seconds} s (CPU)",
        s.decisions,
    ).format(n=s.decisions, seconds=f"{s.seconds:.1f}")


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
    """``review_decouverte_deal_s``, ``review_belote_deal_s``, ``review_coinche_deal_s``
    and ``review_coinche_decouverte_deal_s``: the CPU seconds (``time.process_time``) of
    reviewing a whole deal, every decision with the default options, median over the
    fixed expert records of :data:`RECORDS` (a smoke run reviews South's decisions in one
    record of each game, two samples a decision); for the two La Coinche games also
    ``_bid_ms``, the CPU milliseconds of each sampled bid (median, and ``_bid_count``
    of them), whose some forty bids each run an auction on every layout.  ``None`` when
    the records are not there (atout installed without its tests)."""
    out: dict[str, Any] = {}
    options = ReviewOptions(samples=2, exact_budget=0.2) if ctx.quick else ReviewOptions()
    for game, key in (
        ("decouverte", "review_decouverte_deal_s"),
        ("belote", "review_belote_deal_s"),
        ("coinche", "review_coinche_deal_s"),
        ("coinche-decouverte", "review_coinche_decouverte_deal_s"),
    ):
        files = sorted(RECORDS.glob(f"{game}_expert_*.json"))[: 1 if ctx.quick else None]
        seconds = []
        bids: list[float] = []
        for path in files:
            seats = frozenset({0}) if ctx.quick else None
            review = DealReview(ctx.engine, load_json(path), options, seats, source=str(path))
            start = time.process_time()
            bids += [d.seconds for d in review.decisions() if d.phase == "bidding" and d.samples]
            seconds.append(time.process_time() - start)
        out[key] = round(statistics.median(seconds), 2) if seconds else None
        out[f"{key}_deals"] = len(seconds)
        if game.startswith("coinche"):
            bid_key = key.removesuffix("_deal_s") + "_bid_ms"
            out[bid_key] = round(1000 * statistics.median(bids)) if bids else None
            out[f"{bid_key}_count"] = len(bids)
    return out
