"""The card table as an Arcade view: its parts, its frames, its input.

A :class:`Table` draws one seat's :class:`~atout.core.views.View` of a deal (the
person's; two people at one screen: the one to act), never the true state, and turns
clicks and keys into requests.  It computes no rule.  It is put together from parts that
each own their state:

* a :class:`~atout.ui.window.table_layout.Layout`, the game's (Découverte's
  :class:`~atout.ui.window.table_decouverte.DecouverteLayout`, Belote's
  :class:`~atout.ui.window.table_belote.BeloteLayout`): where each card of a view lies,
  where a seat's trick card goes, where its name and its won tricks are, the marks on
  the felt;
* a :class:`~atout.ui.window.table_driver.Driver`: what drives the match (asking for
  deals, sending actions, the bots, the hint, undo), a local session's
  (:class:`~atout.ui.window.driver.MatchDriver`) or a server's
  (:class:`~atout.ui.window.net_table.NetDriver`);
* a :class:`~atout.ui.window.board.Board`: the cards, their places and animations;
* a :class:`~atout.ui.window.panels.StatusPanel` and a
  :class:`~atout.ui.window.side_bar.ScoreSheet`: the words on the table and the side bar;
* an :class:`~atout.ui.window.overlays.Overlay` (help, menu, last trick) and a
  :class:`~atout.ui.window.overlays.DealPanel` (the end of a deal or of the match);
* the buttons of the side bar;
* a :class:`~atout.ui.window.table_input.TableInput`: during the bidding one button per
  legal bid, the keyboard's focus, and what the clicks and keys do.

The table's :attr:`~Table.stage` (a :class:`~atout.ui.window.table_stage.Stage`) says
where it stands between deals; the driver moves it (:meth:`Table.go_to`).  The layout
and the driver hold the table; this module imports neither of the games' layouts nor
the drivers (they import it), so there is no cycle.

Drawing is a handful of calls per frame (software renderers pay for each one): the
marks on the felt, the glows, the cards (one sprite list each), then layers of plates
and texts (:class:`~atout.ui.window.widgets.Layer`) whose texts change only when the
game does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import arcade
from atout.core import Action
from atout.core import Deal
from atout.core import GameInfo
from atout.core import Trick
from atout.core import View
from atout.core.model import BidInfo
from atout.core.records import deal_to_record
from atout.plugins.review import ReviewOptions

from ..cards_text import HUMAN
from ..cards_text import contract_described
from ..i18n import N_
from ..i18n import _
from ..savegame import Setup
from . import theme
from .board import TURNED_COLOUR
from .board import Board
from .host import Host
from .overlays import DealPanel
from .overlays import MenuItem
from .overlays import Overlay
from .overlays import deal_headline
from .panels import StatusPanel
from .review_view import ReviewMode
from .side_bar import ScoreSheet
from .side_bar import UnseenPanel
from .sprites import preload_textures
from .table_controls import build_side_buttons
from .table_driver import Driver
from .table_input import TableInput
from .table_layout import Layout
from .table_stage import Stage
from .widgets import ButtonRow
from .widgets import Layer
from .widgets import SpriteSet
from .widgets import Toast
from .words import YOU
from .words import MatchLike
from .words import rules_words
from .words import team_long_name
from .words import team_name


class Table(arcade.View):
    """A match on the table, seen from :attr:`bottom`'s side: its :attr:`layout` lays the
    cards out, its :attr:`driver` drives the match (see the module's docstring)."""

    def __init__(
        self,
        app: Host,
        setup: Setup,
        info: GameInfo,
        layout: Callable[[Table], Layout],
        driver: Callable[[Table], Driver],
    ) -> None:
        """Build the table for ``info``'s game: ``driver`` makes its driver first (it
        may seat the table: :attr:`you`, :attr:`me`, :attr:`bottom`), then ``layout`` its
        layout; the driver then takes the match where it stands."""
        super().__init__(app.window)
        self.app = app
        self.engine = app.engine
        self.setup = setup
        self.game_info = info
        self.seats = info.seats
        self.me: int = HUMAN
        """The seat whose view is drawn and who acts from this screen (two people at one
        screen: the person to act)."""
        self.you: int | None = HUMAN
        """The seat the table calls "you" (``None``: two people share the screen, each is
        called by name)."""
        self.bottom: int = HUMAN
        """The seat drawn at the bottom of the table (South)."""
        self.leaving = N_("match saved")
        """What leaving the table does to the match (the menu says it, translated)."""
        self.driver = driver(self)
        """What drives the match: a local session's or a server's."""
        self.layout = layout(self)
        """Where the cards, the words and the controls lie: the game's."""
        self.info = replace(info, seat_names=tuple(self.seat_names()))
        """The game, its seats named as this table calls them (:meth:`seat_names`)."""
        self.clock = 0.0
        self.view: View | None = None
        """The view of the deal on the table (what is drawn): :attr:`me`'s."""
        self.stage = Stage.PLAY
        """Where the table stands between deals (its driver moves it: :meth:`go_to`)."""
        self.hint: Action | None = None
        """The action a hint suggests (lit on the table until the next action)."""
        self.turned: dict[int, float | None] = {}
        """Cards the rules have just turned face up, and until when they glow (``None``:
        from the end of the move under way, see :meth:`relayout`)."""
        self.played_last: dict[int, int] = {}
        """Each seat's last card played (the one a card turned under was covering)."""
        self.turned_words: tuple[float, list[str]] = (-1.0, [])
        """When the message about turned cards was last written, and its parts (cards
        turned by one action are told in one message)."""
        self.deal_path: Path | None = None
        """Where the last deal's record was saved (the end-of-deal panel says it)."""
        self.frames = 0
        self.frame = app.fit()
        """The logical table the view is laid out for (see :mod:`.frame`)."""
        self.layout.lay_out(self.frame)
        self.board = Board(self.layout, self.layout.card_scale)
        self.marks = SpriteSet()
        """The layout's marks on the felt (pile outlines, won tricks, the deck)."""
        self.hud = Layer()
        self.buttons = ButtonRow()
        self.input = TableInput(self)
        """The bid buttons, the keyboard's focus, the clicks and the keys."""
        self.overlay = Overlay()
        self.deal_panel = DealPanel()
        self.review: ReviewMode | None = None
        """The Review screen when it is open (over the end-of-deal panel)."""
        self.review_options = ReviewOptions()
        """How hard the Review screen values each decision."""
        self.final_view: View | None = None
        """The view the Review screen puts back when it closes."""
        self.sheet = ScoreSheet(self.info, self.frame)
        self.unseen = UnseenPanel()
        """The list of the cards not seen yet (the C key), over the score sheet."""
        preload_textures(self.window)
        self.build()
        self.driver.begin()

    def seat_names(self) -> list[str]:
        """What each seat is called at this table: "You" for :attr:`you`, else the game's
        name for it (a driver that knows the players' names gives them)."""
        return self.driver.name_seats(
            [
                _(YOU) if seat == self.you else _(self.game_info.seat_name(seat))
                for seat in range(self.seats)
            ]
        )

    def go_to(self, stage: Stage) -> None:
        """Move the table to ``stage`` (a move :data:`~atout.ui.window.table_stage.MOVES`
        allows)."""
        self.stage = self.stage.to(stage)

    @property
    def match(self) -> MatchLike:
        """The match's scores so far (the driver's)."""
        return self.driver.match

    @property
    def deal(self) -> Deal | None:
        """The deal on the table, when the driver holds one."""
        return self.driver.deal

    # --- names ------------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return self.info.seat_name(seat)

    def team_name(self, team: int) -> str:
        """The short name of a team on the score sheet."""
        return team_name(self.info, team)

    def team_long_name(self, team: int) -> str:
        return team_long_name(self.info, team)

    @property
    def keep_count_yourself(self) -> bool:
        """Under l'arrêt players must remember their points (l'arrêt's rule: no looking back),
        so the table hides the running count and the match total."""
        return bool(self.match.rules.get("arret"))

    # --- building ---------------------------------------------------------------------------

    def build(self) -> None:
        """The plates, labels and buttons that live as long as the table."""
        pack = rules_words(self.engine, self.match.rules)
        self.status_panel = StatusPanel(
            self.hud,
            self.layout,
            self.info,
            pack,
            self.driver.seat_tags(),
            self.you,
            self.driver.who_plays(),
        )
        self.sheet.drop = self.status_panel.drop
        self.layout.build_marks()
        self.toast = Toast(self.hud, *self.layout.toast_position(), self.layout.toast_width())
        self.speed_button, self.claim_button = build_side_buttons(
            self.hud,
            self.buttons,
            self.frame.table_right,
            self.layout.bid_area(),
            {
                "last": self.toggle_last_trick,
                "hint": self.driver.ask_hint,
                "undo": self.driver.undo,
                "help": lambda: self.open_overlay("help"),
                "speed": self.cycle_speed,
                "menu": lambda: self.open_overlay("menu"),
                "claim": self.driver.claim,
            },
        )
        self.refresh_speed()
        self.driver.built()

    @property
    def bid_prompt(self) -> arcade.Text:
        """The bidding's question, which a layout writes in :meth:`update_marks`."""
        return self.status_panel.bid_prompt

    def ask_bid(self, view: View, take: str) -> None:
        """Put the person's bidding question under the table: ``take`` while taking the
        turn-up is legal, else the second round's."""
        self.bid_prompt.text = (
            take if "take" in view.legal_bids else _("Round 2: name a trump, or pass")
        )

    def refresh_speed(self) -> None:
        self.speed_button.set_label(_("Speed: {speed}").format(speed=_(self.app.speed_name)))

    # --- frames ------------------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        self.sync_frame()
        self.board.animate(self.clock)
        done = [c for c, until in self.turned.items() if until is not None and until <= self.clock]
        if done:  # a turned card's moment is over
            for card in done:
                del self.turned[card]
            self.refresh_highlights()
        if self.review is not None:
            self.review.poll()
        self.driver.drive()

    def on_resize(self, width: int, height: int) -> None:
        self.app.fit()
        self.sync_frame()

    def sync_frame(self) -> None:
        """Lay the table out again when the window's size changed: the layout's places,
        the card size, every plate, text and button, then the cards at their new places
        (at once) and the panel that was open."""
        if self.app.frame != self.frame:
            self.rebuild()

    def rebuild(self) -> None:
        """Lay everything out again for the window's frame (and the seats' names)."""
        frame = self.frame = self.app.frame
        self.info = replace(self.game_info, seat_names=tuple(self.seat_names()))
        said = [
            (seat, self.status_panel.bubble_labels[seat].text, until)
            for seat, until in self.status_panel.bubble_until.items()
        ]
        toast = self.toast
        self.layout.lay_out(frame)
        self.board.card_scale = self.layout.card_scale
        self.marks = SpriteSet()
        self.hud = Layer()
        self.buttons = ButtonRow()
        self.sheet = ScoreSheet(self.info, frame)
        self.build()
        for seat, words, until in said:
            self.status_panel.bubble(seat, words, until)
        if toast.visible(self.clock) and not self.driver.show_again(
            toast.message, toast.until - self.clock
        ):
            self.toast.show(toast.message, self.clock, toast.until - self.clock)
        self.relayout(None, animate=False)
        self.after_change()
        if self.stage.over:
            self.open_deal_panel()
        if self.review is not None and self.review.decisions:
            self.review.show(self.review.index)
        if self.overlay.is_open:
            self.open_overlay(self.overlay.name)

    def busy(self) -> bool:
        """Whether cards are still moving (no action is taken meanwhile)."""
        return self.board.busy(self.clock)

    def hurry(self) -> None:
        """End every animation now (a click during an animation)."""
        self.board.hurry(self.clock)

    def on_draw(self) -> None:
        self.frames += 1
        self.app.begin_frame()
        self.sync_frame()
        self.status_panel.tick(self.clock, self.toast, not self.busy(), self.driver.bot_thinking())
        self.marks.draw()
        self.board.draw()
        self.hud.draw()
        if self.review is not None:
            self.review.draw()
            if self.overlay.is_open:
                self.overlay.draw()
            self.driver.draw()
            return
        if self.unseen.open:
            self.unseen.draw()
        else:
            self.sheet.draw()
        if not self.busy():  # the bidding waits for the cards to be dealt
            self.input.bids.draw()
        if self.stage.over:
            self.deal_panel.draw()
        if self.overlay.is_open:
            self.overlay.draw()
        self.driver.draw()

    # --- bringing the table up to date -----------------------------------------------------

    def relayout(self, won: Trick | None, animate: bool) -> None:
        """Move every card to where the current view puts it (animated or at once);
        ``won`` is a trick the last action completed, shown before it is gathered."""
        if self.view is None:
            return
        self.board.relayout(self.view, won, self.clock, self.app.speed, animate)
        for card, until in list(self.turned.items()):  # they glow once they have flipped
            if until is None:
                self.turned[card] = max(self.board.busy_until, self.clock) + theme.TURNED_GLOW
        self.refresh_highlights()

    def refresh_highlights(self) -> None:
        """Light the legal cards when the person is to play, the proposed card and the
        hint's card."""
        view = self.view
        my_turn = (
            view is not None
            and self.stage == Stage.PLAY
            and view.turn == self.me
            and view.phase == "play"
        )
        hint = self.hint
        self.input.follow_hint(my_turn)
        self.board.highlight(
            view,
            my_turn,
            hint.value if hint and hint.kind == "play" else None,
            self.card_marks(),
            self.input.focus,
        )

    def card_marks(self) -> list[tuple[int, tuple[int, int, int, int]]]:
        """Cards glowing in a colour of their own: the cards just turned, still on top
        of their piles."""
        view = self.view
        if view is None:
            return []
        tops = {p.top for row in view.piles for p in row}
        return [
            (card, TURNED_COLOUR)
            for card, until in self.turned.items()
            if (until is None or until > self.clock) and card in tops
        ]

    def after_change(self) -> None:
        """Bring the texts, controls and marks up to date with the view."""
        playing = self.stage == Stage.PLAY
        self.input.end_wait()
        for button in self.buttons.buttons:
            if button.name in ("hint", "undo"):
                button.enabled = playing
        self.update_status()
        view = self.view
        self.claim_button.visible = bool(view is not None and view.can_claim and playing)
        self.input.update_bid_buttons()
        if self.view is not None:
            self.status_panel.refresh_points(
                self.view, self.keep_count_yourself, self.contract_bid(self.view)
            )
        self.refresh_sheet()
        if self.unseen.open:
            self.unseen.refresh(self.view, self.frame, self.status_panel.drop)
        self.layout.update_marks()
        self.driver.changed()

    def toggle_unseen(self) -> None:
        """The C key: show the cards not seen yet in the side bar (in place of the
        score sheet), or hide them."""
        self.unseen.open = not self.unseen.open
        self.unseen.refresh(self.view, self.frame, self.status_panel.drop)

    def update_status(self) -> None:
        self.status_panel.update_status(self.view, self.stage == Stage.PLAY, self.me)
        self.status_panel.update_marks(self.view, self.stage == Stage.PLAY)

    def refresh_sheet(self) -> None:
        self.sheet.refresh(self.match, self.keep_count_yourself)

    def bubble(self, seat: int, words: str, seconds: float) -> None:
        """Show what ``seat`` says next to it for ``seconds``."""
        self.status_panel.bubble(seat, words, self.clock + seconds)

    def clear_bubbles(self) -> None:
        self.status_panel.clear_bubbles()

    def contract_bid(self, view: View) -> BidInfo | None:
        """The engine's description of the bid that made ``view``'s contract (its value
        and strain, as players say them: ``capot ♠``), if any
        (:func:`~atout.ui.cards_text.contract_described`)."""
        return contract_described(self.app.engine, view)

    # --- panels over the table ----------------------------------------------------------------

    def open_deal_panel(self) -> None:
        """The end-of-deal panel (and the end-of-match panel when the match is over)."""
        view = self.view
        score = self.driver.last_score()
        headline = ""
        self.toast.hide()
        self.clear_bubbles()
        if score is not None:
            contract = view.contract if view is not None else None
            taker = contract.taker if contract is not None else None
            headline = deal_headline(score, taker, self.info)
        self.deal_panel.open(
            self.match,
            score,
            headline,
            info=self.info,
            keep_count_yourself=self.keep_count_yourself,
            deal_path=self.deal_path,
            next_deal=self.driver.start_deal,
            new_match=self.driver.new_match,
            review=self.open_review if self.deal is not None else None,
            start_menu=self.to_menu,
            box=self.layout.panel_box(),
        )
        self.driver.changed()

    def open_review(self) -> None:
        """The Review screen of the deal just played (the R key, the panel's button):
        its decisions are valued on a thread while the table goes on drawing."""
        deal = self.deal
        if self.review is not None or deal is None or not self.stage.over:
            return
        self.overlay.close()
        self.final_view = self.view
        record = deal_to_record(deal, seed=self.match.seed)
        self.review = ReviewMode(self, record, self.review_options)

    def close_review(self) -> None:
        """Cancel the review (its thread stops at its next check) and put the deal's end
        back on the table, with its panel."""
        review = self.review
        if review is None:
            return
        review.cancel()
        self.review = None
        self.view = self.final_view
        self.relayout(None, animate=False)
        self.after_change()
        self.open_deal_panel()

    def open_overlay(self, name: str) -> None:
        """Open a panel over the table (the table waits): help, last trick, menu."""
        after = _(self.leaving)
        speed = _("Speed: {speed}").format(speed=_(self.app.speed_name))
        menu: list[MenuItem] = [
            (_("Resume  Esc"), self.close_overlay, "resume"),
            (speed, self.cycle_speed, "speed"),
            (_("Full screen  F"), self.app.toggle_fullscreen, "fullscreen"),
            (_("New match"), self.driver.new_match, "new-match"),
            (_("Start menu ({after})").format(after=after), self.to_menu, "start-menu"),
            (_("Quit ({after})").format(after=after), self.quit, "quit"),
        ]
        centre = (self.frame.felt_mid, self.frame.mid_y)
        if not self.overlay.open(name, self.view, self.seat_name, menu, centre):
            self.toast.show(_("No trick has been played yet in this deal."), self.clock)

    def close_overlay(self) -> None:
        self.overlay.close()

    def toggle_last_trick(self) -> None:
        if self.overlay.name == "last":
            self.overlay.close()
        else:
            self.open_overlay("last")

    def to_menu(self) -> None:
        self.overlay.close()
        self.app.show_start()

    def leave(self) -> None:
        """The table is left (menu, quit, a new match): its driver saves, stops the bots
        or closes the connection."""
        self.driver.leave()

    def quit(self) -> None:
        self.leave()
        self.window.close()

    # --- input (the table's :class:`~atout.ui.window.table_input.TableInput`) -------------------

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.input.on_mouse_press(x, y)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.input.on_mouse_motion(x, y)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        self.input.on_key_press(symbol)

    def cycle_speed(self) -> None:
        names = list(theme.SPEEDS)
        self.app.set_speed(names[(names.index(self.app.speed_name) + 1) % len(names)])
        self.refresh_speed()
        if self.overlay.name == "menu":
            self.open_overlay("menu")
