"""A hint in one line, the same in the window and the terminal.

The expert bots' ``hint(view)`` answers a :class:`~atout.plugins.bots.hints.Hint`: the
action and, in ``reason``, why (``"wins 14 points; 12 points better than
A♥"``).  :func:`hint_line` writes it for a person: ``Hint: play 9♠ — wins the trick``.
A bot whose hint is a plain action (no reason) gets the line without one.  The window's
message and the terminal's ``hint`` command both use it.
"""

from __future__ import annotations

from atout.core import Action
from atout.core import View
from atout.core.cards import SUITS
from atout.core.model import BidInfo
from atout.core.text import Message

from .cards_text import bid_spoken
from .cards_text import show_card
from .cards_text import suit_label
from .i18n import _
from .i18n import pgettext
from .messages import shown


def hint_action_words(action: Action, view: View | None, info: BidInfo | None = None) -> str:
    """What the hint suggests, in words: ``play 9♠``, ``take ♣ clubs``, ``name ♥ hearts``,
    ``pass``, ``claim the match (l'arrêt)``; a bid the engine describes (``info``) as
    players say it, as the terminal's hint says it (``90 ♥ hearts``, ``capot ♠ spades``,
    ``contre``)."""
    if action.kind == "play":
        return _("play {card}").format(card=show_card(action.value))
    if action.kind == "bid":
        bid = str(action.value)
        if bid == "take" and view is not None and view.turnup is not None:
            return _("take {suit}").format(suit=suit_label(view.turnup >> 3))
        if bid in SUITS and len(bid) == 1:
            return _("name {suit} as trump").format(suit=suit_label(SUITS.index(bid)))
        if bid == "take":
            return pgettext("bid", "take")
        if bid == "pass":
            return pgettext("bid", "pass")
        spoken = bid_spoken(info) if info is not None else None
        return spoken or bid
    return _("claim the match (l'arrêt)")


def reason_parts(reason: str) -> list[str]:
    """A hint's reason in its parts, each in the chosen language: ``["wins the trick",
    "12 points better than A♥"]`` (the bots write a reason and the gap to the next best
    action as one message of the two, ``{reason}; {margin}``)."""
    if isinstance(reason, Message) and set(reason.params) == {"reason", "margin"}:
        return [shown(str(reason.params[key])) for key in ("reason", "margin")]
    if isinstance(reason, Message):
        return [shown(reason)] if reason else []
    return [part for part in reason.split("; ") if part]


def hint_line(
    action: Action,
    view: View | None = None,
    parts: int | None = None,
    info: BidInfo | None = None,
) -> str:
    """``Hint: play 9♠ — wins the trick; 12 points better than A♥`` (the reason when the
    hint has one); ``parts`` keeps only the reason's first parts (where room is short:
    ``1`` keeps ``wins the trick``, ``0`` the action alone); ``info``: the engine's
    description of the bid hinted (:func:`hint_action_words`)."""
    reason = getattr(action, "reason", "")
    reason = reason if isinstance(reason, str) else ""
    kept = reason_parts(reason)
    reason = "; ".join(kept[:parts]) if parts is not None and parts < len(kept) else shown(reason)
    head = _("Hint: {action}").format(action=hint_action_words(action, view, info))
    return f"{head} — {reason}" if reason else head


__all__ = ["hint_action_words", "hint_line", "reason_parts"]
