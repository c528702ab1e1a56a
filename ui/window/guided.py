"""A guided first deal of Belote Découverte: the table explains each step as it comes.

The guided deal is a match like another: a :class:`~atout.core.session.Session` of the
standard Découverte rules (seed :data:`GUIDED_SEED`, a first deal in which the proposed
trump is worth taking), the person against the ``greedy`` bot, played on the ordinary
Découverte table.  :class:`GuidedDriver` adds a coach: a panel in the side bar that says
what the position on the table asks of the person, from the person's view and the
events the session answered, never from anything else:

* the bidding: your piles and what a face-down card is, the proposed card and what
  taking or passing means (round 2: naming another suit);
* the play: who leads, which cards you may play and why (the engine's own
  :meth:`~atout.core.session.Session.explain` of a card you may not play), the trick
  just won, a face-down card just turned;
* the end of the deal: the count, the 82 points the taker needs, made or dedans.

The words are :func:`coach_words`' (plain functions of a view, tested without a
window).  The guided match is not saved over the person's saved match: it follows no
save file, so **Continue** still finds the match left before.  ``atout play --guided``
opens the window on it; the start view's *Learn: a guided deal* starts it.
"""

from __future__ import annotations

from collections.abc import Sequence

import arcade
from atout.core import Action
from atout.core import View
from atout.core.cards import SUIT_NAMES
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import cards_of
from atout.core.session import CONTRACT
from atout.core.session import TRICK
from atout.core.session import TURN
from atout.core.session import Event
from atout.core.session import Session

from .. import savegame
from ..cards_text import HUMAN
from ..cards_text import show_card
from ..i18n import N_
from ..i18n import NP_
from ..i18n import _
from ..i18n import ngettext
from ..i18n import pgettext
from ..messages import shown
from ..rules_model import numbers
from ..rules_model import order_text
from ..savegame import Setup
from . import theme
from .driver import MatchDriver
from .host import Host
from .table import Table
from .table_decouverte import DecouverteLayout
from .table_stage import Stage
from .widgets import Layer

GUIDED_SEED = 114
"""The guided match's seed: North deals, you speak first, and the proposed card (the
king of clubs) is a trump you hold the jack, the nine and the ace of."""
GUIDED_BOT = "greedy"
"""The opponent of the guided deal: a simple bot."""
COACH_TOP = 300.0
"""Logical pixels from the top of the side bar to the top of the coach's panel (the
title, the rules and the score sheet's first deal are above it)."""
COACH_BOTTOM = 146.0
"""The bottom of the coach's panel, above the side bar's buttons."""


# --- the words ---------------------------------------------------------------------------------


SUIT_WORDS = (
    NP_("suits", "clubs"),
    NP_("suits", "diamonds"),
    NP_("suits", "hearts"),
    NP_("suits", "spades"),
)
"""The suits' names as the coach's sentences use them (marked here; see :func:`suit_name`)."""


FIRST_TURN = N_(
    "A face-down card turns face up at the end of the trick in which the card "
    "on it was played; from then on it may be played."
)
"""What the coach says of the deal's first card turned (translated when said)."""


def suit_name(suit: int) -> str:
    """A suit's name in the coach's sentences ("hearts are trump"), in the language shown."""
    return pgettext("suits", SUIT_NAMES[suit])


def suit_words(suit: int) -> str:
    """``♣ clubs``."""
    return f"{SUIT_SYMBOLS[suit]} {suit_name(suit)}"


def bidding_words(view: View, opponent: str) -> str:
    """What the bidding asks of the person (their turn or not)."""
    proposed = view.turnup
    if proposed is None:
        return _("The cards are being dealt.")
    suit = proposed >> 3
    if not view.to_act:
        return _("{opponent} is deciding about the proposed card {card}.").format(
            opponent=opponent, card=show_card(proposed)
        )
    if "take" in view.legal_bids:
        return _(
            "Your eight piles are at the bottom: you play the face-up cards; the face-down "
            "card under each is turned once the card above it has gone. "
            "{opponent} dealt: his last card, {card}, proposes {suit_words} as trump. "
            "Take: {suit} become trump and you must win more than half the points. "
            "Pass: it is his turn to choose."
        ).format(
            opponent=opponent,
            card=show_card(proposed),
            suit_words=suit_words(suit),
            suit=suit_name(suit),
        )
    return _(
        "Both passed on {suit}. Round 2: name another suit as trump, or "
        "pass; if both pass again the cards are dealt again."
    ).format(suit=suit_name(suit))


def play_words(view: View, session: Session, opponent: str) -> str:
    """What the play asks of the person: who leads, what may be played and why."""
    contract = view.contract
    trump = contract.trump if contract is not None else None
    if not view.to_act:
        return _("{opponent} to play.").format(opponent=opponent)
    legal = view.legal
    mine = view.hand
    if not view.trick:
        words = _("You lead: any of your face-up cards may be played (they are all lit).")
        if trump is not None and not view.tricks:
            n = numbers(session.engine, session.rules)
            words += " " + _(
                "{suit} are trump: {order}, the jack highest. H: the expert's hint, and why."
            ).format(suit=suit_name(trump).capitalize(), order=order_text(n.trump_order))
        return words
    led = view.trick[0][1]
    refused = [c for c in cards_of(mine) if not legal >> c & 1]
    head = _("{opponent} led {card}.").format(opponent=opponent, card=show_card(led)) + " "
    if refused:
        card = refused[0]
        why = shown(session.explain(card) or "")
        count = len(cards_of(legal))
        return head + ngettext(
            "You may play only the lit card. Why not {card}? The rules: {why}.",
            "You may play only the {count} lit cards. Why not {card}? The rules: {why}.",
            count,
        ).format(count=count, card=show_card(card), why=why)
    suit = led >> 3
    held = cards_of(mine)
    if any(c >> 3 == suit for c in held):
        return head + _("All your cards are {suit}: any may be played.").format(
            suit=suit_name(suit)
        )
    if trump is not None and all(c >> 3 == trump for c in held):
        return head + _("You have no {suit}: you must trump, and all you hold is trump.").format(
            suit=suit_name(suit)
        )
    return head + _(
        "You have no {suit} and no trump: any card may be played (it cannot win the trick)."
    ).format(suit=suit_name(suit))


def happened_words(events: Sequence[Event], you: str, opponent: str, first: bool = False) -> str:
    """What the last events tell: the contract, the trick won, a card turned (``first``:
    the first turned in the deal, said with why it turned)."""
    said: list[str] = []
    for e in events:
        if e.kind == CONTRACT and e.contract is not None and e.contract.trump is not None:
            suit = suit_name(e.contract.trump)
            if e.seat == HUMAN:
                said.append(_("You took: {suit} are trump.").format(suit=suit))
            else:
                said.append(_("{name} took: {suit} are trump.").format(name=opponent, suit=suit))
        elif e.kind == TRICK:
            if e.seat == HUMAN:
                won = ngettext(
                    "You win the trick ({points} point) and lead next.",
                    "You win the trick ({points} points) and lead next.",
                    e.points,
                )
            else:
                won = ngettext(
                    "{name} wins the trick ({points} point) and leads next.",
                    "{name} wins the trick ({points} points) and leads next.",
                    e.points,
                )
            said.append(won.format(name=opponent, points=e.points))
    turned = [e for e in events if e.kind == TURN and e.card is not None]
    if turned:
        cards = ", ".join(
            (_("{card} (yours)") if e.seat == HUMAN else _("{card} ({name}'s)")).format(
                card=show_card(e.card or 0), name=opponent
            )
            for e in turned
        )
        said.append(_("Turned: {cards}.").format(cards=cards))
        if first:
            said.append(_(FIRST_TURN))
    return " ".join(said)


def count_words(session: Session) -> str:
    """The count at the end of the deal: the points, what the taker needed, the score."""
    deal = session.deal
    if deal is None or deal.score is None:
        return _("Both passed twice: the cards are gathered and dealt again.")
    score = deal.score
    contract = deal.state.contract
    n = numbers(session.engine, session.rules)
    points = score.card_points
    if contract is None:
        return _("The deal is over: you took {yours} points, {name} {theirs}.").format(
            yours=points[0], name=_(session.seat_name(1)), theirs=points[1]
        )
    taker = contract.taker
    values = {
        "name": _(session.seat_name(1)),
        "taken": points[taker],
        "other_points": points[1 - taker],
        "total": n.deal_total,
        "last": n.last_trick,
        "needed": n.half + 1,
    }
    if taker == HUMAN:
        head = _(
            "The count: you took {taken} of the {total} points (the last trick's {last} "
            "included); {name} {other_points}. The taker needed {needed}."
        ).format(**values)
    else:
        head = _(
            "The count: {name} took {taken} of the {total} points (the last trick's {last} "
            "included); you {other_points}. The taker needed {needed}."
        ).format(**values)
    after = _("Next deal: N. All the rules: Help ?, then The rules of the game.")
    if score.made:
        made = _("Made: each scores his points, {yours} for you, {theirs} for {name}.").format(
            yours=score.score[0], theirs=score.score[1], name=_(session.seat_name(1))
        )
    else:
        made = _("Dedans: the other player scores all {total}.").format(total=n.deal_total)
    return f"{head} {made} {after}"


def coach_words(
    session: Session, view: View | None, stage: Stage, events: Sequence[Event] = ()
) -> str:
    """The coach's words for the person's ``view`` at ``stage`` (the table's), after
    the session answered ``events``."""
    opponent = _(session.seat_name(1))
    if stage.over:
        return count_words(session)
    if stage == Stage.REDEAL:
        return _("Both passed twice: the cards are gathered and dealt again by the other player.")
    if view is None:
        return ""
    if view.phase == "bidding":
        return bidding_words(view, opponent)
    first = len(view.tricks) == 1  # the first trick turns the deal's first cards
    before = happened_words(events, _("You"), opponent, first)
    now = play_words(view, session, opponent)
    return f"{before} {now}".strip()


# --- the table ---------------------------------------------------------------------------------


class GuidedDriver(MatchDriver):
    """The driver of the guided deal: a Découverte session with the coach's panel in the
    side bar of its table."""

    def __init__(self, table: Table, session: Session) -> None:
        self.coach = Layer()
        self.coach_text: arcade.Text | None = None
        self.coach_box = arcade.LRBT(0, 0, 0, 0)
        self.last_events: list[Event] = []
        super().__init__(table, session)

    def built(self) -> None:
        super().built()
        frame = self.table.frame
        layer = Layer()
        left, right = frame.table_right + 12, frame.width - 10
        top = frame.height - COACH_TOP
        self.coach_box = arcade.LRBT(left, right, COACH_BOTTOM, top)
        layer.plate(self.coach_box, (12, 48, 30, 235), theme.GOLD, 12, 2)
        layer.text(_("Guided deal"), left + 14, top - 24, 14, theme.GOLD, bold=True)
        self.coach_text = layer.text(
            "",
            left + 14,
            top - 36,
            13,
            theme.CREAM,
            width=int(right - left - 28),
            multiline=True,
            anchor_y="top",
        )
        self.coach = layer
        self.update_coach()

    def apply(self, seat: int, action: Action) -> None:
        """The person acts: the coach now speaks of what follows from here."""
        self.last_events = []
        super().apply(seat, action)

    def show(self, events: list[Event]) -> None:
        self.last_events.extend(events)
        super().show(events)

    def start_deal(self) -> None:
        self.last_events = []
        super().start_deal()

    def changed(self) -> None:
        super().changed()
        self.update_coach()

    def update_coach(self) -> None:
        """Say what the table now asks, the font made smaller (not below the smallest)
        when the words need more room than the panel has."""
        text = self.coach_text
        if text is None:
            return
        text.text = coach_words(self.session, self.table.view, self.table.stage, self.last_events)
        room = self.coach_box.top - 36 - (self.coach_box.bottom + 10)
        text.font_size = 13
        while text.content_height > room and text.font_size > theme.MIN_FONT:
            text.font_size -= 0.5

    def draw(self) -> None:
        super().draw()
        if self.table.review is None:
            self.coach.draw()


def guided_session(app: Host) -> tuple[Setup, Session]:
    """The guided match: the standard Découverte rules, :data:`GUIDED_SEED`, the person
    against :data:`GUIDED_BOT`; it follows no save file (the person's saved match stays
    as it was)."""
    setup = Setup(game="decouverte", pack="", bot=GUIDED_BOT, seed=GUIDED_SEED)
    rules = app.engine.default_rules("decouverte")
    session = savegame.start_session(
        app.engine, setup, rules, bot_factory=app.bot_factory, persist=False
    )
    return setup, session


def start_guided(app: Host) -> Table:
    """Show the guided deal's table (the window's current table, if any, is left as the
    app leaves a table: its match saved)."""
    leave = getattr(app, "leave_table", None)
    if callable(leave):
        leave()
    setup, session = guided_session(app)
    table = Table(app, setup, session.info, DecouverteLayout, lambda t: GuidedDriver(t, session))
    app.window.show_view(table)
    return table
