"""The words of a deal's review, shared by the Review screen and ``atout review``.

A decision's label from its loss in points (:func:`label`, thresholds :data:`SMALL_LOSS`,
:data:`MISTAKE`, :data:`BLUNDER`), its shape as a character (:data:`LABEL_GLYPHS`: never
told by colour alone), and the sentences that explain a decision (:func:`verdict`,
:func:`explanation`) and sum up a deal (:func:`summary_words`).  Plain functions of the
:class:`~atout.plugins.review.Decision` and :class:`~atout.plugins.review.Summary`
(no graphics imported), so that the window and the terminal say the same, and what they
claim can be checked against the numbers it comes from.
"""

from __future__ import annotations

from atout.core import Engine
from atout.core import View
from atout.core.cards import SUITS
from atout.core.cards import parse_card
from atout.plugins.review import FORCED
from atout.plugins.review import PROOF_SAMPLES
from atout.plugins.review import UNVALUED
from atout.plugins.review import Decision
from atout.plugins.review import Summary

from .cards_text import bid_text
from .cards_text import show_card
from .cards_text import suit_label
from .i18n import N_
from .i18n import _
from .i18n import ngettext
from .i18n import pgettext

SMALL_LOSS = 1.0
"""A loss below this many points is the best play (sampling noise aside)."""
MISTAKE = 10.0
"""From :data:`SMALL_LOSS` up to this, a small loss; from here, a mistake."""
BLUNDER = 30.0
"""From this many points lost, a blunder."""

LABEL_GLYPHS: dict[str, str] = {
    "best": "●",
    "within noise": "○",
    "small loss": "▽",
    "mistake": "▼",
    "blunder": "✖",
    "forced": "·",
    "not valued": "–",
}
"""The shape of each label, as a character: a full circle for the best, an open one
within noise, a triangle pointing down for points lost (open when few), a cross for a
blunder.  The window's step list and graph draw the same shapes."""

TURNED_GLYPH = "▲"
"""The graph's mark where a face-down card turned between two decisions: new
information, which may move the expected score without anyone's mistake."""


def legend() -> tuple[str, str]:
    """The legend of the shapes, as the Review screen writes it, in the chosen language
    and in the shortest words (two lines: ``small`` for a small loss, ``turned`` for a
    face-down card turned)."""
    words = {
        "best": pgettext("review legend", "best"),
        "within noise": pgettext("review legend", "within noise"),
        "small loss": pgettext("review legend", "small"),
        "mistake": pgettext("review legend", "mistake"),
        "blunder": pgettext("review legend", "blunder"),
    }
    turned = pgettext("review legend", "turned")
    first = ("best", "within noise", "small loss")
    second = "  ".join(f"{LABEL_GLYPHS[n]} {words[n]}" for n in ("mistake", "blunder"))
    return (
        "  ".join(f"{LABEL_GLYPHS[n]} {words[n]}" for n in first),
        f"{second}  {TURNED_GLYPH} {turned}",
    )


HELP_LINE = N_(
    "loss <{small} best, <{mistake} small, <{blunder} mistake, else blunder; ○ within noise"
)
"""The thresholds as the help overlay states them (:func:`help_line` fills them in)."""


def help_line() -> str:
    """The review's thresholds in one line of the help, in the chosen language."""
    return _(HELP_LINE).format(
        small=f"{SMALL_LOSS:g}", mistake=f"{MISTAKE:g}", blunder=f"{BLUNDER:g}"
    )


def label(decision: Decision) -> str:
    """The decision's label from its reported loss: ``best``, ``small loss``,
    ``mistake`` or ``blunder``; ``within noise`` when another action's estimate was
    higher by a margin the samples do not prove (the loss reported is 0); ``forced`` for
    a single legal action, ``not valued`` when the review could not value it."""
    if decision.method == FORCED:
        return "forced"
    if decision.method == UNVALUED:
        return "not valued"
    if decision.within_noise:
        return "within noise"
    if decision.loss < SMALL_LOSS:
        return "best"
    if decision.loss < MISTAKE:
        return "small loss"
    if decision.loss < BLUNDER:
        return "mistake"
    return "blunder"


def points(x: float, signed: bool = True) -> str:
    """A number of points as the screen writes it: whole points from 10 up, one decimal
    below (so that a small difference is not rounded to a bare 0 beside a claim), a true
    minus sign, ``0`` for anything that rounds to zero; ``signed``: a ``+`` on positive
    values (a margin, not an amount)."""
    r = round(x, 1)
    if not r:
        return "0"
    text = f"{r:+.0f}" if abs(r) >= 10 else f"{r:+.1f}"
    if not signed:
        text = text.lstrip("+")
    return text.replace("-", "−")


def spread(low: float | None, high: float | None) -> str:
    """A 95% interval around a value as the list of values writes it: ``±12`` (a sampled
    value's interval is symmetric), empty for an exact value."""
    if low is None or high is None:
        return ""
    return "±" + points((high - low) / 2, signed=False)


def verdict(decision: Decision, lost: bool = True) -> str:
    """The label line: its shape, its name, and (``lost``) the points lost when some
    were (``▼ Mistake, 14 lost``)."""
    name = label(decision)
    words = label_words(name)
    text = f"{LABEL_GLYPHS[name]} {words[:1].upper()}{words[1:]}"
    if lost and name in ("small loss", "mistake", "blunder"):
        text += _(", {points} lost").format(points=points(decision.loss, signed=False))
    return text


def label_words(name: str) -> str:
    """A label (:func:`label`) in the chosen language: ``mistake`` -> ``faute``."""
    words = {
        "best": pgettext("review label", "best"),
        "within noise": pgettext("review label", "within noise"),
        "small loss": pgettext("review label", "small loss"),
        "mistake": pgettext("review label", "mistake"),
        "blunder": pgettext("review label", "blunder"),
        "forced": pgettext("review label", "forced"),
        "not valued": pgettext("review label", "not valued"),
    }
    return words.get(name, name)


def action_words(engine: Engine | None, view: View | None, action: str) -> str:
    """An action of a review as the table says it: a card ``J♥``; a bid as its button and
    bubble say it, from the engine's description of it (``90 ♥``, ``capot ♠``,
    ``Contre``: never the record's ``90 H``), else in words (``Pass``, ``Take ♥ hearts``);
    ``view`` is the deciding seat's then (``None``, or no ``engine``: a bid the words
    know without the game, such as ``pass``).  The Review screen and ``atout review``
    name every action with it."""
    if view is not None and view.phase == "bidding":
        info = engine.describe_bid(view.game, view.rules, action) if engine is not None else None
        return bid_text(action, view, info)
    try:
        return show_card(parse_card(action))
    except ValueError:
        pass
    if action in SUITS:
        return suit_label(SUITS.index(action))
    bids = {"take": pgettext("bid", "take"), "pass": pgettext("bid", "pass")}
    return bids.get(action, action)


def value_of(decision: Decision, action: str | None) -> float | None:
    """The value of ``action`` among the decision's legal actions (``None``: not valued)."""
    return next((v.value for v in decision.legal if v.action == action), None)


def face_down(view: View) -> int:
    """How many face-down cards ``view`` shows (Découverte's covered piles): fewer at a
    seat's decision than at its decision before means a face-down card turned between."""
    return sum(1 for row in view.piles for p in row if p.covered)


def turned_note(before: float | None, decision: Decision, turned: bool) -> str:
    """A sentence when the expected margin fell by :data:`MISTAKE` points or more between
    the seat's decision before (``before``: the value of the action it took) and this
    one (its best action's value), while a face-down card turned (``turned``): new
    information, not a mistake (with best play a margin falls only by chance, or by
    sampling noise).  Empty otherwise."""
    now = max((v.value for v in decision.legal if v.value is not None), default=None)
    if not turned or before is None or now is None or before - now < MISTAKE:
        return ""
    drop = points(before - now, signed=False)
    return _("{mark} Down {points}: a card turned (new information, not a mistake).").format(
        mark=TURNED_GLYPH, points=drop
    )


def explanation(decision: Decision, best: str, played: str) -> str:
    """What the label rests on, in a sentence: ``best`` and ``played`` are the best
    action and the one taken as the screen writes them.

    Within noise, the best action's *average* was higher, but that is the biggest of
    several noisy averages; the review's loss is measured on the samples the best was
    not picked on (:func:`~atout.plugins.review.paired_loss`), and the sentence
    gives that fair estimate with its own interval, so that the difference and the
    interval shown are of the same number (a gap of 100 that came from one lucky sample
    is told as such: its fair estimate is 0, 95% 0 to 0)."""
    d = decision
    if d.method == FORCED:
        return _("{action} was the only legal choice.").format(action=played)
    if d.method == UNVALUED:
        return _("Not valued: the review does not model this decision.")
    how = (
        _("exact")
        if d.method != "sampled"
        else ngettext("{n} sample", "{n} samples", d.samples).format(n=d.samples)
    )
    if d.within_noise:
        taken = value_of(d, d.action) or 0.0
        looked = (value_of(d, d.best) or 0.0) - taken
        raw = d.raw_loss if d.raw_loss is not None else 0.0
        fair = _("a fair test gives {points}").format(points=points(raw))
        if d.loss_interval is not None:
            low, high = d.loss_interval
            fair += _(" (95%: {low} to {high})").format(low=points(low), high=points(high))
        few = d.samples < PROOF_SAMPLES
        why = (
            ngettext("not proved, {n} sample", "not proved, {n} samples", d.samples).format(
                n=d.samples
            )
            if few
            else _("not proved")
        )
        more = points(looked, signed=False)
        more = _("slightly more") if more == "0" else _("{points} more").format(points=more)
        return _("{action} averaged {more}; {fair}: {why}.").format(
            action=best, more=more, fair=fair, why=why
        )
    if d.best is not None and d.best != d.action and d.loss > 0:
        text = _("Best: {action}, {points} more").format(
            action=best, points=points(d.loss, signed=False)
        )
        if d.loss_interval is not None:
            low, high = d.loss_interval
            text += _(" (95%: {low} to {high})").format(low=points(low), high=points(high))
        return text + f"; {how}."
    return _("The best choice ({how}).").format(how=how)


def summary_words(summary: Summary) -> tuple[str, str]:
    """The deal's summary in two short lines: where the contract was decided (the card
    after which its outcome was certain with best play, among the cards reviewed), and
    the biggest loss (the figures of :class:`~atout.plugins.review.Summary`)."""
    d = summary.decided
    if summary.score is None:
        first = _("The deal is not finished")
    elif d is not None:
        first = (
            _("Decided at trick {trick}: made")
            if d.settled == "made"
            else _("Decided at trick {trick}: failed")
        ).format(trick=d.trick)
    else:
        first = _("Not decided by a card reviewed")
    if summary.mistakes:
        m = summary.mistakes[0]
        where = _("trick {trick}").format(trick=m.trick) if m.phase == "play" else _("the bidding")
        second = _("Biggest loss: {points}, {where}").format(
            points=points(m.loss, signed=False), where=where
        )
    else:
        second = _("No points lost")
    return first, second
