"""What the table says of an event, local or network table alike: a bid by its seat,
the contract, an announcement, a claim, a notice, a card turned.

The drivers (:class:`~atout.ui.window.driver.MatchDriver`,
:class:`~atout.ui.window.net_table.NetDriver`) call :func:`tell` for each event they
show; the words go to the table's bubbles and message line.
"""

from __future__ import annotations

from atout.core import View
from atout.core.session import ANNOUNCE
from atout.core.session import BID
from atout.core.session import CLAIM
from atout.core.session import CONTRACT
from atout.core.session import NOTICE
from atout.core.session import PLAY
from atout.core.session import TURN
from atout.core.session import Event

from ..cards_text import show_card
from ..i18n import _
from ..messages import shown
from . import theme
from .table import Table
from .words import announce_words
from .words import bid_text


def tell(table: Table, e: Event, view: View) -> None:
    """Say at the table what one event says to everyone, local or network table
    alike: a bid or the contract by its seat, an announcement, a claim, a notice."""
    if e.kind == BID:
        info = table.app.engine.describe_bid(view.game, view.rules, e.text)
        table.bubble(e.seat, bid_text(e.text, view, info), 1e9)
    elif e.kind == CLAIM:
        table.toast.show(
            _("{name} claims the match: l'arrêt!").format(name=table.seat_name(e.seat)),
            table.clock,
        )
    elif e.kind == CONTRACT:
        # the bids' bubbles go; "Takes ♣" by the taker's name and the trump on the
        # felt say the contract (once: no bubble beside them)
        table.clear_bubbles()
    elif e.kind == ANNOUNCE:
        # the bubble says it by the seat, short (the side bar keeps the whole words)
        table.bubble(e.seat, announce_words(e.text, e.cards), 3.0)
    elif e.kind == NOTICE:
        table.toast.show(f"{shown(e.text)}.", table.clock, 6)
    elif e.kind == PLAY and e.card is not None:
        table.played_last[e.seat] = e.card
    elif e.kind == TURN and e.card is not None:
        tell_turned(table, e.seat, e.card)


def tell_turned(table: Table, seat: int, card: int) -> None:
    """A face-down card of ``seat`` was turned: it glows a moment once it has
    flipped (until the next cards are turned at the latest), and the message line
    says which card it lay under ("North's 9♣ turned: A♠"); the cards one action
    turned are told together."""
    at, parts = table.turned_words
    if at != table.clock:  # a new trick's cards: the last ones' moment is over
        table.turned.clear()
    table.turned[card] = None
    played = table.played_last.get(seat)
    if played is None:
        words = _("{name}: {card} turned").format(name=table.seat_name(seat), card=show_card(card))
    elif seat == table.you:
        words = _("Your {played} turned: {card}").format(
            played=show_card(played), card=show_card(card)
        )
    else:
        words = _("{name}'s {played} turned: {card}").format(
            name=table.seat_name(seat), played=show_card(played), card=show_card(card)
        )
    parts = [*parts, words] if at == table.clock else [words]
    table.turned_words = (table.clock, parts)
    table.toast.show(" · ".join(parts), table.clock, theme.TOAST_TIME + 1.5)
