"""What the table sends to its session, and how it shows what the session answers.

:class:`MatchDriver` is the :class:`~atout.ui.window.table_driver.Driver` of a
:class:`~atout.ui.window.table.Table` that plays a
:class:`~atout.core.session.Session`: the session owns the match, checks every action
and answers :class:`~atout.core.session.Event` lists; the driver turns the person's
clicks into actions, asks the bots' questions on the
:class:`~atout.ui.window.worker.BotWorker` thread, and shows the events (bubbles,
messages, the trick gathered to its winner) while the board moves the cards to the
person's new view.  It never applies an action to a deal, never compares two views to
find out what happened, and never writes the save: the session follows its save file.

* A bot's answer is played no sooner than the pace allows
  (:data:`~atout.ui.window.theme.BOT_PACE` times the speed); an answer computed for an
  older position (``session.version`` moved on: an undo, a new deal) is dropped.
* While cards move, no other action is taken (a click hurries the animation).
* Two people at one screen (Découverte: both see the same cards): every seat the session
  gives a person is played from here; the table draws the view of the person to act
  (:attr:`~atout.ui.window.table.Table.me` follows the turn), names them on the
  status line and takes clicks, hints and undo for them only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from atout.core import CLAIM
from atout.core import Action
from atout.core import Deal
from atout.core import Match
from atout.core import Trick
from atout.core import View
from atout.core.errors import AtoutError
from atout.core.errors import IllegalMoveError
from atout.core.model import BidInfo
from atout.core.session import PERSON
from atout.core.session import TRICK
from atout.core.session import Event
from atout.core.session import Session
from atout.core.session import for_seat

from .. import savegame
from ..cards_text import HUMAN
from ..cards_text import capital
from ..cards_text import show_card
from ..hint_text import hint_line
from ..i18n import _
from ..messages import bot_title
from ..messages import shown
from ..messages import shown_error
from . import theme
from .table import Table
from .table_driver import Driver
from .table_stage import Stage
from .table_stage import after_deal
from .table_tell import tell

HINT_ROOM = 0.7
"""The share of the felt's width a hint's line may take at most (a message as wide as
the four-player table's would reach the seats' names and the dealer's mark)."""


class MatchDriver(Driver):
    """The driver of one session: a person at seat 0 against bots, or (Découverte) two
    people sharing the screen."""

    def __init__(self, table: Table, session: Session) -> None:
        self.table = table
        """The table the session is played on (it shows what the session answers)."""
        self.session = session
        """The match on the table: the one source of what happens (its events)."""
        self.people = [s for s, p in enumerate(session.players) if p.kind == PERSON]
        """The seats played from this screen."""
        if len(self.people) > 1:
            self.table.you = None
            self.table.me = self.viewer()
        self.redeal_at = 0.0
        self.left = False
        self.job: Any = None
        """The bot question under way (a :class:`~atout.ui.window.worker.Job`)."""
        self.job_version = -1
        self.job_since = 0.0
        self.hint_job: Any = None
        self.hint_words = ""
        """The hint's line as last shown (it goes when the position moves on)."""
        self.hint_version = -1
        self.forced_at = (-1, 0.0)
        """When the person's only legal card was first seen: (session version, clock)."""

    @property
    def match(self) -> Match:
        """The session's match (read only: the session alone changes it)."""
        return self.session.match

    @property
    def deal(self) -> Deal | None:
        """The deal on the table: the one in play, or the last one played."""
        return self.session.deal

    def name_seats(self, names: list[str]) -> list[str]:
        """The players' names where the session has them (two people at one screen),
        else "You" and the game's names for the seats."""
        for seat, player in enumerate(self.session.players):
            if player.name and seat != self.table.you:
                names[seat] = player.name
        return names

    def seat_tags(self) -> list[str]:
        bots = self.table.engine.bots
        return [bot_title(bots, p.bot) if p.kind != PERSON else "" for p in self.session.players]

    def viewer(self) -> int:
        """The seat whose view is drawn: the person to act when two share the screen
        (else the last one who did), the person otherwise."""
        seat = self.session.to_act
        if seat is not None and seat in self.people:
            return seat
        return self.table.me if self.table.me in self.people else HUMAN

    def look(self) -> View:
        """Follow the turn (two people at one screen) and take the view to draw."""
        self.table.me = self.viewer()
        return self.session.view(self.table.me)

    def bot_thinking(self) -> bool:
        return self.job is not None and not self.job.done

    # --- the match --------------------------------------------------------------------------

    def begin(self) -> None:
        """Take the session where it stands: the deal in progress, the end of the match,
        or the next deal to deal."""
        session = self.session
        if session.result is not None:
            self.table.go_to(Stage.MATCH_OVER)
            if session.deal is not None:
                self.table.view = self.look()
                self.table.relayout(None, animate=False)
            self.table.after_change()
            self.table.open_deal_panel()
            return
        if session.needs_deal:
            self.start_deal()
            return
        self.table.go_to(Stage.PLAY)
        self.table.view = self.look()
        self.table.relayout(None, animate=False)
        self.table.after_change()

    def start_deal(self) -> None:
        """Ask the session for the next deal and lay it out (the cards fly from the deck)."""
        self.table.deal_panel.close()
        self.session.next_deal()
        self.table.go_to(Stage.PLAY)
        self.table.deal_path = None
        self.table.clear_bubbles()
        self.table.view = self.look()
        self.table.board.clear()
        self.table.relayout(None, animate=True)
        self.table.after_change()

    def new_match(self) -> None:
        """A new match with the same settings (a new shuffle unless a seed was chosen),
        the same people at the screen.  A match still in play is asked about first (the
        setting "Confirm before a new match"): the start view puts the question, with
        Continue at hand for a change of mind."""
        self.table.app.worker.cancel_all()
        self.job = None
        asking = savegame.setting(self.table.app.settings, "confirm_new")
        if asking and self.table.you is not None and self.session.result is None:
            self.table.app.show_start().open_confirm()
            return
        try:
            if self.table.you is None:
                names = [self.table.seat_name(seat) for seat in range(self.table.seats)]
                self.table.app.start_people(replace(self.table.setup), self.session.rules, names)
            else:
                self.table.app.start_match(replace(self.table.setup), self.session.rules)
        except AtoutError as exc:  # the save file cannot be written: say why
            self.table.app.show_start(shown_error(exc))

    def apply(self, seat: int, action: Action) -> None:
        """Send ``seat``'s ``action`` to the session and show what it answers."""
        self.show(self.session.act(seat, action))

    def show(self, events: list[Event]) -> None:
        """Show what the session answered: the person's new view, animated, with the
        words of the bids, announcements, a claim, a bot's failure."""
        if (
            self.table.hint is not None
            and self.hint_words
            and self.table.toast.message == self.hint_words
        ):
            self.table.toast.hide()  # the position moved on: the hint's line goes with it
        self.table.hint = None
        self.hint_job = None
        self.table.view = self.look()
        won: Trick | None = None
        for e in for_seat(events, self.table.me):
            if e.kind == TRICK:
                won = e.trick
            else:
                tell(self.table, e, self.table.view)
        self.table.relayout(won, animate=True)
        self.table.after_change()

    def end_of_deal(self) -> None:
        """The deal is over and its last trick has gone to its winner: keep its record,
        show the panel (or the redeal)."""
        deal = self.deal
        assert deal is not None
        if deal.score is None:
            self.table.go_to(Stage.REDEAL)
            self.redeal_at = self.table.clock + 1.8 * max(self.table.app.speed, 0.05)
            self.table.toast.show(
                _("Both players passed twice: the cards are gathered and dealt again.")
                if self.table.seats == 2
                else _("Everybody passed twice: the cards are gathered and dealt again."),
                self.table.clock,
            )
            self.table.after_change()
            return
        if self.table.app.persist:
            try:
                self.table.deal_path = savegame.save_deal_record(self.session, deal)
            except OSError as exc:
                self.table.toast.show(
                    _("The deal record could not be saved: {problem}").format(problem=exc),
                    self.table.clock,
                )
        self.table.go_to(after_deal(self.session.result is not None))
        if self.table.stage == Stage.MATCH_OVER and self.table.app.persist:
            savegame.finish(self.session)
        self.table.after_change()
        self.table.open_deal_panel()

    def leave(self) -> None:
        """The table is left (menu, quit): forget the bots' questions; the session's
        save file is already up to date."""
        if self.left:
            return
        self.left = True
        if self.table.review is not None:  # its thread stops at its next check
            self.table.review.cancel()
        self.table.app.worker.cancel_all()
        self.job = None
        self.session.detach()

    # --- frames -----------------------------------------------------------------------------

    def drive(self) -> None:
        """One frame: a hint's answer, then (unless a panel is over the table) the
        redeal, the end of the deal or the bot to act."""
        self.poll_hint()
        if self.table.overlay.is_open:
            return
        if self.table.stage == Stage.REDEAL:
            if self.table.clock >= self.redeal_at:
                self.start_deal()
            return
        if self.table.stage != Stage.PLAY or self.deal is None or self.table.busy():
            return
        seat = self.session.to_act
        if seat is None:
            self.end_of_deal()
        elif self.session.is_bot(seat):
            self.advance_bot(seat)
        elif savegame.setting(self.table.app.settings, "auto_forced"):
            self.play_forced(seat)

    def play_forced(self, seat: int) -> None:
        """The setting "Play a forced card automatically": when the person to act may
        play one card only (and has nothing else to choose, such as a claim), play it
        a bot's pace after it became their turn."""
        view = self.table.view
        legal = view.legal if view is not None and view.phase == "play" else 0
        if view is None or view.turn != seat or view.can_claim or legal.bit_count() != 1:
            return
        if self.forced_at[0] != self.session.version:
            self.forced_at = (self.session.version, self.table.clock)
        elif self.table.clock >= self.forced_at[1] + theme.BOT_PACE * self.table.app.speed:
            self.apply(seat, Action.play(legal.bit_length() - 1))

    def advance_bot(self, seat: int) -> None:
        """Ask the bot (in the bot process), then play its answer when the pace allows."""
        if self.job is None:
            self.job = self.table.app.worker.ask(self.session, seat)
            self.job_version = self.session.version
            self.job_since = self.table.clock
            self.table.update_status()
            return
        job = self.job
        if (
            not job.done
            or self.table.clock < self.job_since + theme.BOT_PACE * self.table.app.speed
        ):
            return
        self.job = None
        self.table.update_status()
        if not self.table.app.worker.is_current(job) or self.job_version != self.session.version:
            return
        answer = job.result if job.error is None else job.error
        self.show(self.session.bot_answer(seat, answer))

    # --- the person's actions ---------------------------------------------------------------

    def human_bid(self, bid: str) -> None:
        view = self.table.view
        if (
            view is None
            or self.table.stage != Stage.PLAY
            or view.turn != self.table.me
            or bid not in view.legal_bids
        ):
            return
        self.apply(self.table.me, Action.bid(bid))

    def claim(self) -> None:
        view = self.table.view
        if view is not None and view.can_claim and self.table.stage == Stage.PLAY:
            self.apply(self.table.me, CLAIM)

    def click_card(self, card: int) -> None:
        """A click on a face-up card: play it if the engine allows, else say why not."""
        view = self.table.view
        if view is None or self.deal is None or self.table.stage != Stage.PLAY:
            return
        if not view.hand >> card & 1:
            self.refuse_other_side(view, card)
            return
        if self.table.input.refuse_not_yet(view, self.table.me):
            return
        reason = self.session.explain(card)
        if reason is not None:
            self.table.toast.show(self.cannot_play(card, reason), self.table.clock, 4.5)
            return
        try:
            self.apply(self.table.me, Action.play(card))
        except IllegalMoveError as exc:  # the engine re-checks every action
            self.table.toast.show(self.cannot_play(card, shown_error(exc)), self.table.clock, 4.5)

    def cannot_play(self, card: int, reason: str) -> str:
        """Why the person to act may not play ``card``, in one line (``reason``: the
        rule, translated here)."""
        reason = shown(reason)
        if self.table.you is not None:
            return _("You cannot play {card}: {reason}.").format(
                card=show_card(card), reason=reason
            )
        return _("{name} cannot play {card}: {reason}.").format(
            name=self.table.seat_name(self.table.me), card=show_card(card), reason=reason
        )

    def refuse_other_side(self, view: View, card: int) -> None:
        """A click on a face-up card of another person's side (two people at one
        screen): it is not their turn, say whose it is."""
        owner = next(
            (seat for seat, row in enumerate(view.piles) if any(p.top == card for p in row)),
            None,
        )
        if owner is None or owner not in self.people or owner == self.table.me:
            return
        if view.phase in ("bidding", "play"):
            self.table.input.say_wait(
                _("Wait, {name}: it is {other}'s turn.").format(
                    name=self.table.seat_name(owner), other=self.table.seat_name(view.turn)
                )
            )

    def next_deal_key(self) -> None:
        if self.table.stage == Stage.DEAL_OVER:
            self.start_deal()
        elif self.table.stage == Stage.MATCH_OVER:
            self.new_match()
        else:
            self.table.toast.show(
                _("Finish this deal first (Esc opens the menu for a new match)."), self.table.clock
            )

    # --- hint and undo -----------------------------------------------------------------------

    def ask_hint(self) -> None:
        view = self.table.view
        if view is None or self.deal is None or self.table.stage != Stage.PLAY or not view.to_act:
            self.table.toast.show(_("A hint is for when it is your turn."), self.table.clock)
            return
        try:
            self.hint_job = self.table.app.worker.ask(self.session, self.table.me, hint=True)
        except AtoutError as exc:
            self.table.toast.show(f"{capital(str(exc))}.", self.table.clock)
            return
        self.hint_version = self.session.version
        self.table.toast.show(_("The expert is thinking…"), self.table.clock)

    def poll_hint(self) -> None:
        job = self.hint_job
        if job is None or not job.done:
            return
        self.hint_job = None
        if self.hint_version != self.session.version or not self.table.app.worker.is_current(job):
            return
        if job.error is not None or not isinstance(job.result, Action):
            self.table.toast.show(
                _("The expert could not give a hint ({problem}).").format(problem=job.error),
                self.table.clock,
            )
            return
        self.table.hint = job.result
        view = self.table.view
        self.show_hint_line(view)
        if self.table.hint.kind == "bid" and view is not None:
            button = self.table.input.bid_buttons.find(f"bid:{self.table.hint.value}")
            if button is not None:
                button.selected = True
        self.table.refresh_highlights()

    def show_again(self, message: str, seconds: float) -> bool:
        """The hint's line is chosen again for the new room (:meth:`show_hint_line`: its
        shorter forms when the whole one no longer fits)."""
        if self.table.hint is not None and message == self.hint_words:
            self.show_hint_line(self.table.view)
            return True
        return False

    def hint_bid(self, view: View | None) -> BidInfo | None:
        """The engine's description of the bid hinted (``None``: the hint is no bid)."""
        hint = self.table.hint
        if hint is None or hint.kind != "bid" or view is None:
            return None
        return self.table.app.engine.describe_bid(view.game, view.rules, str(hint.value))

    def show_hint_line(self, view: View | None) -> None:
        """The hint and, from the expert, why, on the message line (:func:`hint_line`,
        the terminal's words): whole when it fits in the message's room and
        :data:`HINT_ROOM` of the felt (clear of the seats' names and marks), else its
        reason's first part, else the hint alone."""
        assert self.table.hint is not None
        toast = self.table.toast
        room = toast.max_width
        toast.max_width = min(room, self.table.frame.table_right * HINT_ROOM)
        try:
            info = self.hint_bid(view)
            for parts in (None, 1, 0):
                toast.show(hint_line(self.table.hint, view, parts, info), self.table.clock, 8)
                if toast.label.content_width + 44 <= toast.max_width:
                    break
        finally:
            toast.max_width = room
        self.hint_words = toast.message

    def undo(self) -> None:
        """Take back the person's last card of the deal in play and what followed it
        (the session's engine rewinds the deal), or say why not: an undo is refused once
        the person has seen what the card revealed, unless the match is practice."""
        seat = self.table.me
        refusal = self.session.undo_refusal(seat) if self.table.stage == Stage.PLAY else None
        if self.table.stage != Stage.PLAY or (refusal or "").startswith("nothing to undo"):
            nothing = (
                _("Nothing to undo: you have not played a card in this deal.")
                if self.table.you is not None
                else _("Nothing to undo: {name} has not played a card in this deal.").format(
                    name=self.table.seat_name(seat)
                )
            )
            self.table.toast.show(nothing, self.table.clock)
            return
        if refusal is not None:
            self.table.toast.show(f"{capital(refusal)}.", self.table.clock, 4)
            return
        self.table.app.worker.cancel_all()
        self.job = None
        self.table.hint = None
        self.session.undo(seat)
        self.table.overlay.close()
        self.table.deal_panel.close()
        self.table.view = self.look()
        self.table.clear_bubbles()
        self.table.relayout(None, animate=False)
        self.table.after_change()
        back = (
            _("Your last card is taken back.")
            if self.table.you is not None
            else _("{name}'s last card is taken back.").format(name=self.table.seat_name(seat))
        )
        self.table.toast.show(back, self.table.clock)

    # --- for the benchmark ----------------------------------------------------------------

    def autoplay_to(self, trick: int) -> None:
        """Play on at once (bots choose for every seat, the person's too) until ``trick``
        tricks are done; the cards are laid out without animation."""
        session = self.session
        stand_in = self.table.engine.bot(
            "random", session.game, session.rules, seed=session.match.seed
        )
        while (seat := session.to_act) is not None and len(session.view(HUMAN).tricks) < trick:
            bot = session.bot(seat) if session.is_bot(seat) else stand_in
            session.act(seat, bot.choose(session.view(seat)))
        self.table.view = self.look()
        self.table.relayout(None, animate=False)
        self.table.after_change()


def match_driver(table: Table) -> MatchDriver:
    """``table``'s driver, which plays a local session (a network table's is refused)."""
    driver = table.driver
    if not isinstance(driver, MatchDriver):
        raise TypeError(f"the table plays no local session: its driver is {driver!r}")
    return driver
