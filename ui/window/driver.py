"""What drives the match on the table: deals, actions, bots, hint, undo, saving.

:class:`MatchTable` is the :class:`~atout.ui.window.table_base.TableView` that runs a
:class:`~atout.core.engine.Match` itself, for one person (seat 0, South) against bots:

* When a bot is to act, its ``choose(view)`` runs on the
  :class:`~atout.ui.window.worker.BotWorker` thread; every frame the table looks whether
  the answer is there, and applies it no sooner than the pace allows
  (:data:`~atout.ui.window.theme.BOT_PACE` times the speed).
* When the person is to act, a click on a card (or a bid button) becomes the action.
* After any action the table compares the views before and after: it animates the
  difference (the :class:`~atout.ui.window.board.Board` does) and says what was said
  (bids, announcements, a claim).  While cards move, no other action is taken (a click
  hurries the animation).
* Undo replays the match's record without the person's last card; after every action
  the match is saved, so that quitting loses nothing.

Everything that touches the match is in this module, so that a front end on another
source of events (a session that owns the match) replaces this one class.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from atout.core import Action, Match, View
from atout.core.errors import AtoutError, IllegalMoveError
from atout.core.records import match_from_record, match_to_record

from .. import savegame
from ..cards_text import HUMAN, capital, show_card
from ..savegame import Setup
from . import theme
from .host import Host
from .panels import bid_text, contract_name
from .table_base import TableView


class MatchTable(TableView):
    """A match against bots, driven by the table itself."""

    def __init__(self, app: Host, setup: Setup, match: Match) -> None:
        self.redeal_at = 0.0
        self.left = False
        self.bots: dict[int, Any] = {}
        self.job: Any = None
        """The bot question under way (a :class:`~atout.ui.window.worker.Job`)."""
        self.job_since = 0.0
        self.hinter: Any = None
        self.hint_job: Any = None
        self.hint_at = -1
        super().__init__(app, setup, match)

    # --- seats and bots -----------------------------------------------------------------

    def make_bot(self, seat: int) -> Any:
        rules = self.match.rules
        if self.app.bot_factory is not None:
            return self.app.bot_factory(self.match.game, seat, rules, self.match.seed + seat)
        return self.engine.bot(
            self.setup.bot,
            self.match.game,
            rules,
            seed=self.match.seed + seat,
            think=self.setup.think,
        )

    def scores(self) -> tuple[int, ...]:
        return tuple(self.match.scores)

    def bot_thinking(self) -> bool:
        return self.job is not None and not self.job.done

    # --- the match --------------------------------------------------------------------------

    def begin(self) -> None:
        """Take the match where it stands: the deal in progress, or deal the next one."""
        self.bots = {s: self.make_bot(s) for s in range(self.seats) if s != HUMAN}
        if self.match.result is not None:
            self.deal = self.match.deals[-1] if self.match.deals else None
            self.stage = "match_over"
            if self.deal is not None:
                self.view = self.deal.view(HUMAN, self.scores())
                self.relayout(None, animate=False)
            self.after_change()
            self.open_deal_panel()
            return
        current = self.match.current
        if current is not None:
            self.deal = current
            self.stage = "play"
            self.view = current.view(HUMAN, self.scores())
            self.relayout(None, animate=False)
            self.after_change()
            return
        self.start_deal()

    def start_deal(self) -> None:
        """Deal the next deal of the match and lay it out (the cards fly from the deck)."""
        self.deal_panel.close()
        self.deal = self.match.next_deal()
        self.stage = "play"
        self.deal_path = None
        self.clear_bubbles()
        self.view = self.deal.view(HUMAN, self.scores())
        self.board.clear()
        self.relayout(None, animate=True)
        self.after_change()
        self.autosave()

    def new_match(self) -> None:
        """A new match with the same settings (a new shuffle unless a seed was chosen)."""
        self.app.worker.cancel_all()
        self.job = None
        self.app.start_match(replace(self.setup), self.match.rules)

    def apply(self, seat: int, action: Action) -> None:
        """Take ``action`` for ``seat`` and animate what changed."""
        assert self.deal is not None and self.view is not None
        before = self.view
        self.deal.apply(action)
        self.hint = None
        self.hint_job = None
        self.view = self.deal.view(HUMAN, self.scores())
        self.narrate(seat, action, before, self.view)
        self.relayout(before, animate=True)
        self.after_change()
        self.autosave()

    def end_of_deal(self) -> None:
        """The last trick has gone to its winner: score, save the record, show the panel."""
        deal = self.deal
        assert deal is not None
        self.match.end_deal(deal)
        if deal.score is None:
            self.stage = "redeal"
            self.redeal_at = self.clock + 1.8 * max(self.app.speed, 0.05)
            everybody = "Both players" if self.seats == 2 else "Everybody"
            self.toast.show(
                f"{everybody} passed twice: the cards are gathered and dealt again.", self.clock
            )
            self.after_change()
            self.autosave()
            return
        if self.app.persist:
            try:
                self.deal_path = savegame.save_deal_record(self.match, deal)
            except OSError as exc:
                self.toast.show(f"The deal record could not be saved: {exc}", self.clock)
        self.stage = "match_over" if self.match.result is not None else "deal_over"
        if self.stage == "match_over" and self.app.persist:
            savegame.clear_saved_match()
        else:
            self.autosave()
        self.after_change()
        self.open_deal_panel()

    def autosave(self) -> None:
        """Keep the match on disk after every action, so that quitting loses nothing."""
        if not self.app.persist or self.match.result is not None:
            return
        try:
            savegame.save_match(self.match, self.setup)
        except OSError as exc:
            self.toast.show(f"The match could not be saved: {exc}", self.clock)

    def leave(self) -> None:
        """The table is left (menu, quit): forget the bots' questions, save the match."""
        if self.left:
            return
        self.left = True
        self.app.worker.cancel_all()
        self.job = None
        self.autosave()

    # --- frames -----------------------------------------------------------------------------

    def drive(self) -> None:
        """One frame: a hint's answer, then (unless a panel is over the table) the
        redeal, the end of the deal or the bot to act."""
        self.poll_hint()
        if self.overlay.is_open:
            return
        if self.stage == "redeal":
            if self.clock >= self.redeal_at:
                self.start_deal()
            return
        if self.stage != "play" or self.deal is None or self.busy():
            return
        if self.deal.is_over:
            self.end_of_deal()
            return
        seat = self.deal.turn
        if seat != HUMAN:
            self.advance_bot(seat)

    def advance_bot(self, seat: int) -> None:
        """Ask the bot (on the worker thread), then play its answer when the pace allows."""
        assert self.deal is not None
        if self.job is None:
            view = self.deal.view(seat, self.scores())
            bot = self.bots[seat]
            self.job = self.app.worker.submit(lambda: bot.choose(view))
            self.job_since = self.clock
            self.update_status()
            return
        job = self.job
        if not job.done or self.clock < self.job_since + theme.BOT_PACE * self.app.speed:
            return
        self.job = None
        self.update_status()
        if not self.app.worker.is_current(job):
            return
        action = job.result
        if job.error is not None or not isinstance(action, Action):
            problem = job.error or f"answered {action!r}"
            action = self.fallback(seat, f"{self.seat_name(seat)}'s bot failed ({problem})")
        try:
            self.apply(seat, action)
        except IllegalMoveError as exc:
            problem = f"{self.seat_name(seat)}'s bot tried {action}: {exc}"
            self.apply(seat, self.fallback(seat, problem))

    def fallback(self, seat: int, problem: str) -> Action:
        """A bot that fails or cheats: say so, and play its first legal action instead."""
        assert self.deal is not None
        self.toast.show(f"{problem}; it plays its first legal action instead.", self.clock, 6)
        return self.deal.legal_actions()[0]

    def narrate(self, seat: int, action: Action, before: View, after: View) -> None:
        """Bubbles and messages for what just happened: bids, announcements, a claim."""
        if action.kind == "bid":
            self.bubble(seat, bid_text(action.value, before), 1e9)
        elif action.kind == "claim":
            self.toast.show(f"{self.seat_name(seat)} claims the match: l'arrêt!", self.clock)
        if after.contract is not None and before.contract is None:
            c = after.contract
            self.clear_bubbles()
            self.bubble(c.taker, f"takes {contract_name(c.trump, c.name)}", 2.5)
        for ann in after.announcements[len(before.announcements) :]:
            word = ann.text
            loud = word in ("belote", "rebelote", "belote-rebelote")
            self.bubble(ann.seat, capital(word) + ("!" if loud else ""), 3.0)
            self.toast.show(f"{self.seat_name(ann.seat)} announces: {word}", self.clock)

    # --- the person's actions ---------------------------------------------------------------

    def human_bid(self, bid: str) -> None:
        view = self.view
        if view is None or self.stage != "play" or view.turn != HUMAN or bid not in view.legal_bids:
            return
        self.apply(HUMAN, Action.bid(bid))

    def claim(self) -> None:
        view = self.view
        if view is not None and view.can_claim and self.stage == "play":
            self.apply(HUMAN, Action("claim"))

    def click_card(self, card: int) -> None:
        """A click on a face-up card: play it if the engine allows, else say why not."""
        view = self.view
        if view is None or self.deal is None or not view.hand >> card & 1:
            return
        if self.stage != "play":
            return
        if view.phase == "bidding":
            self.toast.show("The bidding comes first: take or pass.", self.clock)
            return
        if view.turn != HUMAN:
            self.toast.show(f"Wait: it is {self.seat_name(view.turn)}'s turn.", self.clock)
            return
        reason = self.deal.explain(card)
        if reason is not None:
            self.toast.show(f"You cannot play {show_card(card)}: {reason}.", self.clock, 4.5)
            return
        self.apply(HUMAN, Action.play(card))

    def next_deal_key(self) -> None:
        if self.stage == "deal_over":
            self.start_deal()
        elif self.stage == "match_over":
            self.new_match()
        else:
            self.toast.show(
                "Finish this deal first (Esc opens the menu for a new match).", self.clock
            )

    # --- hint and undo -----------------------------------------------------------------------

    def ask_hint(self) -> None:
        view = self.view
        if view is None or self.deal is None or self.stage != "play" or not view.to_act:
            self.toast.show("A hint is for when it is your turn.", self.clock)
            return
        if self.hinter is None:
            name = self.app.hint_bot
            info = self.engine.bots.get(name)
            if info is None or self.match.game not in info.games:
                self.toast.show(f"No hint: the {name} bot is not installed.", self.clock)
                return
            self.hinter = self.engine.bot(
                name, self.match.game, self.match.rules, seed=self.match.seed + 99, think=1.0
            )
        hinter = self.hinter
        ask = getattr(hinter, "hint", None) or hinter.choose
        self.hint_job = self.app.worker.submit(lambda: ask(view))
        self.hint_at = len(self.deal.actions)
        self.toast.show("The expert is thinking…", self.clock)

    def poll_hint(self) -> None:
        job = self.hint_job
        if job is None or not job.done:
            return
        self.hint_job = None
        if (
            self.deal is None
            or len(self.deal.actions) != self.hint_at
            or not self.app.worker.is_current(job)
        ):
            return
        if job.error is not None or not isinstance(job.result, Action):
            self.toast.show(f"The expert could not give a hint ({job.error}).", self.clock)
            return
        self.hint = job.result
        view = self.view
        if self.hint.kind == "play":
            self.toast.show(f"Hint: play {show_card(self.hint.value)}", self.clock, 5)
        elif self.hint.kind == "bid" and view is not None:
            self.toast.show(f"Hint: {bid_text(self.hint.value, view)}", self.clock, 5)
            button = self.bid_buttons.find(f"bid:{self.hint.value}")
            if button is not None:
                button.selected = True
        else:
            self.toast.show("Hint: claim the match (l'arrêt)", self.clock, 5)
        self.refresh_highlights()

    def undo(self) -> None:
        """Take back the person's last card (and everything after it) by replaying the
        match's record without them."""
        if not self.match.deals:
            return
        record = match_to_record(self.match)
        deal_rec = record["deals"][-1]
        actions = deal_rec["actions"]
        last = max(
            (i for i, a in enumerate(actions) if a.get("seat") == HUMAN and "play" in a),
            default=-1,
        )
        if last < 0:
            self.toast.show("Nothing to undo: you have not played a card in this deal.", self.clock)
            return
        deal_rec["actions"] = actions[:last]
        deal_rec.pop("result", None)
        record["result"] = None
        try:
            match = match_from_record(self.engine, record, "undo")
        except AtoutError as exc:
            self.toast.show(f"Undo failed: {exc}", self.clock)
            return
        self.app.worker.cancel_all()
        self.job = None
        self.hint = None
        self.match = match
        self.deal = match.current
        self.stage = "play"
        self.overlay.close()
        self.deal_panel.close()
        if self.deal is None:
            return
        self.view = self.deal.view(HUMAN, self.scores())
        self.clear_bubbles()
        self.relayout(None, animate=False)
        self.after_change()
        self.autosave()
        self.toast.show("Your last card is taken back.", self.clock)

    # --- for the benchmark ----------------------------------------------------------------

    def autoplay_to(self, trick: int) -> None:
        """Play on at once (the bots choose for every seat, the person's too) until
        ``trick`` tricks are done; the cards are laid out without animation."""
        assert self.deal is not None
        helper = self.engine.bot("random", self.match.game, self.match.rules, seed=self.match.seed)
        while not self.deal.is_over and len(self.deal.view(HUMAN).tricks) < trick:
            seat = self.deal.turn
            bot = self.bots.get(seat, helper)
            self.deal.apply(bot.choose(self.deal.view(seat, self.scores())))
        self.view = self.deal.view(HUMAN, self.scores())
        self.relayout(None, animate=False)
        self.after_change()
