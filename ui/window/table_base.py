"""The card table: what both tables share (Découverte's two seats, Belote's four).

A :class:`TableView` runs a :class:`~atout.core.engine.Match` for one person (seat 0,
South) against bots, and draws the person's :class:`~atout.core.views.View` of the
deal, never the true state.  It computes no rule: the legal cards and bids come from
the view, the reason a card is refused from :meth:`Deal.explain
<atout.core.engine.Deal.explain>`, the scores from the engine.

How a turn goes:

* When a bot is to act, its ``choose(view)`` runs on the :class:`~atout.ui.worker.BotWorker`
  thread; every frame the table looks whether the answer is there, and applies it no
  sooner than the pace allows (:data:`~atout.ui.theme.BOT_PACE` times the speed).
* When the person is to act, a click on a card (or a bid button) becomes the action.
* After any action the table compares the views before and after and animates the
  difference: the played card slides to the trick, a finished trick stays a moment and
  goes to its winner, a face-down card that the rules turned is flipped, new cards are
  dealt from the deck.  While cards move, no other action is taken (a click hurries
  the animation).

Drawing is a handful of calls per frame (software renderers pay for each one): the
marks on the felt, the glows, the cards (one sprite list each), then layers of plates
and texts (:class:`~atout.ui.widgets.Layer`) whose texts change only when the game does.

A subclass gives the layout: where each card of a view lies (:meth:`layout_cards`),
where a seat's trick card goes, where its name and its won tricks are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import arcade
from atout.core import Action, Deal, DealScore, Match, View
from atout.core.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS
from atout.core.errors import AtoutError, IllegalMoveError
from atout.core.records import match_from_record, match_to_record

from . import savegame, theme
from .savegame import Setup
from .sprites import CardSprite, Motion, face_texture, glow_texture, preload_textures
from .widgets import Button, ButtonRow, Layer, SpriteSet, Toast, quantize, set_plate

if TYPE_CHECKING:
    from .app import App

HUMAN = 0
"""The person's seat: South."""

HINT_COLOUR = (80, 200, 255, 255)
PROPOSAL_COLOUR = (255, 240, 150, 255)
SEAT_PLATE = (0, 0, 0, 110)
SEAT_PLATE_TURN = (250, 204, 64, 235)
BUBBLE = (255, 252, 235, 245)


@dataclass
class Place:
    """Where a card lies on the table, and how.

    ``from_back`` names the face-down card (a key of :meth:`TableView.layout_cards`'
    backs) that this card is when it was just turned: the table flips it there.
    """

    x: float
    y: float
    angle: float = 0.0
    scale: float = 0.6
    z: int = 0
    face_up: bool = True
    from_back: str | None = None
    covered: bool = False
    """The card lies on a face-down card (drawn with it, its edge showing)."""
    fly: bool = True
    """A face-down card that appears here comes from the deck (``False``: it was
    already there, under a card that has just left)."""
    drawn: bool = True
    """``False``: a face-down card drawn with the card that covers it; the table only
    keeps its place (where it flips when the rules turn it)."""


def show_card(card: int) -> str:
    """A card with its suit symbol: ``J♥``."""
    return RANKS[card & 7] + SUIT_SYMBOLS[card >> 3]


def suit_label(suit: int) -> str:
    """A suit with its symbol: ``♥ hearts``."""
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def capital(words: str) -> str:
    return words[:1].upper() + words[1:]


class TableView(arcade.View):
    """A match against bots on the table; subclasses lay the cards out."""

    card_scale = 0.6
    """The scale of arcade's 140x190 card images on this table."""

    def __init__(self, app: App, setup: Setup, match: Match) -> None:
        super().__init__(app.window)
        self.app = app
        self.engine = app.engine
        self.setup = setup
        self.match = match
        self.info = match.info
        self.seats = match.info.seats
        self.clock = 0.0
        self.busy_until = 0.0
        self.deal: Deal | None = None
        self.view: View | None = None
        self.stage = "play"
        """``play`` (a deal is on), ``redeal``, ``deal_over`` or ``match_over``."""
        self.overlay = ""
        """``""``, ``help``, ``last`` or ``menu``: a panel over the table that pauses it."""
        self.redeal_at = 0.0
        self.deal_path: Path | None = None
        self.frames = 0
        self.bots: dict[int, Any] = {s: self.make_bot(s) for s in range(self.seats) if s != HUMAN}
        self.job: Any = None
        self.job_since = 0.0
        self.hinter: Any = None
        self.hint_job: Any = None
        self.hint_at = -1
        self.hint: Action | None = None
        self.left = False
        # cards
        self.cards: dict[int, CardSprite] = {}
        for c in range(32):
            sprite = CardSprite(c, self.card_scale)
            sprite.visible = False
            self.cards[c] = sprite
        self.backs: dict[str, CardSprite] = {}
        self.shown: dict[int, Place] = {}
        self.shown_backs: dict[str, Place] = {}
        self.sprites: list[CardSprite] = []
        """The cards on the table in drawing order (face-down cards, then by ``z``)."""
        self.card_set = SpriteSet()
        self.glows = SpriteSet()
        self.glow_cards: list[tuple[int, tuple[int, int, int, int]]] = []
        self.marks = SpriteSet()
        # layers of plates and texts
        self.hud = Layer()
        self.sheet = Layer()
        self.bids = Layer()
        self.panel = Layer()
        self.over = Layer()
        self.buttons = ButtonRow()
        self.bid_buttons = ButtonRow()
        self.panel_buttons = ButtonRow()
        self.overlay_buttons = ButtonRow()
        self.panel_texts: list[arcade.Text] = []
        self.sheet_texts: list[arcade.Text] = []
        self.overlay_texts: list[arcade.Text] = []
        self.overlay_cards: list[tuple[int, arcade.Rect]] = []
        self.bubble_until: dict[int, float] = {}
        self.sheet_y = 400.0
        self.sheet_key: tuple[int, tuple[int, ...], int] | None = None
        preload_textures(self.window)
        self.build()
        self.begin()

    # --- to be given by a layout ----------------------------------------------------------

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        """Where every visible card of ``view`` lies (faces by card, face-down cards by a
        key that stays the same while the card stays), the current trick excepted."""
        raise NotImplementedError

    def trick_place(self, seat: int, index: int) -> Place:
        """Where ``seat``'s card lies in the trick (``index``: its order in the trick)."""
        raise NotImplementedError

    def won_pile(self, seat: int) -> tuple[float, float]:
        """Where the tricks ``seat`` wins go."""
        raise NotImplementedError

    def hand_origin(self, seat: int) -> tuple[float, float]:
        """Where a card of ``seat``'s closed hand comes from when it is played."""
        raise NotImplementedError

    def deck_origin(self) -> tuple[float, float]:
        """Where dealt cards come from."""
        return 480.0, 360.0

    def seat_anchor(self, seat: int) -> tuple[float, float]:
        """Where ``seat``'s name is written."""
        raise NotImplementedError

    def bubble_anchor(self, seat: int) -> tuple[float, float]:
        """Where what ``seat`` says (bids, belote) appears."""
        x, y = self.seat_anchor(seat)
        return x, y - 44

    def bid_area(self) -> tuple[float, float]:
        """The middle of the bidding controls."""
        return 600.0, 340.0

    def bid_prompt_position(self) -> tuple[float, float]:
        """Where the question of the bidding is written (above the bid buttons)."""
        x, y = self.bid_area()
        return x, y + 50

    def toast_position(self) -> tuple[float, float]:
        return 480.0, 268.0

    def status_position(self) -> tuple[float, float]:
        return 480.0, 236.0

    def build_marks(self) -> None:
        """Add the layout's marks on the felt (sprites in :attr:`marks`, texts in :attr:`hud`)."""

    def update_marks(self) -> None:
        """Bring the layout's marks up to date with the view (won tricks, the proposal)."""

    def team_name(self, team: int) -> str:
        """The short name of a team on the score sheet."""
        if self.info.teams == self.info.seats:
            return self.seat_name(team)
        return "Us" if team == HUMAN % self.info.teams else "Them"

    def team_long_name(self, team: int) -> str:
        if self.info.teams == self.info.seats:
            return self.seat_name(team)
        members = [self.seat_name(s) for s in range(self.seats) if s % self.info.teams == team]
        return " & ".join(members)

    # --- seats and bots -----------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return "You" if seat == HUMAN else self.info.seat_name(seat)

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

    # --- building ---------------------------------------------------------------------------

    def build(self) -> None:
        """The plates, labels and buttons that live as long as the table."""
        hud = self.hud
        x0 = theme.TABLE_RIGHT
        mid = (x0 + theme.WIDTH) / 2
        hud.plate(arcade.LBWH(x0 - 3, 0, 6, theme.HEIGHT), theme.WOOD, None, 0)
        pack = self.match.rules.pack or "standard rules"
        hud.text(self.info.title, mid, 690, 18, theme.GOLD, anchor_x="center", bold=True)
        hud.text(f"{pack} · bots: {self.setup.bot}", mid, 666, 11, theme.CREAM, anchor_x="center")
        self.contract_text = hud.text("", mid, 636, 14, theme.WHITE, anchor_x="center", bold=True)
        self.taker_text = hud.text("", mid, 615, 12, theme.CREAM, anchor_x="center")
        self.points_text = hud.text("", mid, 594, 12, theme.CREAM, anchor_x="center")
        self.said_title = hud.text("", x0 + 24, 232, 13, theme.GOLD, bold=True)
        self.said_text = hud.text(
            "", x0 + 24, 224, 11, theme.CREAM, width=280, multiline=True, anchor_y="top"
        )
        sx, sy = self.status_position()
        self.status = hud.text(
            "", sx, sy, 16, theme.WHITE, anchor_x="center", anchor_y="center", bold=True
        )
        self.thinking = hud.text("", sx, sy, 16, theme.GOLD, anchor_y="center", bold=True)
        self.bid_prompt = hud.text(
            "", *self.bid_prompt_position(), 15, theme.WHITE, anchor_x="center", bold=True
        )
        """The bidding's question; a layout writes it (the bid buttons come from the view)."""
        self.seat_plates: dict[int, arcade.Sprite] = {}
        self.seat_labels: dict[int, arcade.Text] = {}
        self.seat_points: dict[int, arcade.Text] = {}
        self.bubble_plates: dict[int, arcade.Sprite] = {}
        self.bubble_labels: dict[int, arcade.Text] = {}
        for seat in range(self.seats):
            x, y = self.seat_anchor(seat)
            name = self.seat_name(seat)
            if seat != HUMAN:
                name += f" · {self.setup.bot}"
            self.seat_plates[seat] = hud.plate(arcade.XYWH(x, y + 6, 120, 28), SEAT_PLATE)
            label = hud.text(name, x, y, 14, theme.WHITE, anchor_x="center", bold=True)
            self.seat_labels[seat] = label
            set_plate(
                self.seat_plates[seat],
                arcade.XYWH(x, y + 6, quantize(label.content_width + 30), 28),
                SEAT_PLATE,
            )
            self.seat_points[seat] = hud.text("", x, y - 20, 11, theme.CREAM, anchor_x="center")
            bx, by = self.bubble_anchor(seat)
            plate = hud.plate(arcade.XYWH(bx, by, 100, 30), BUBBLE, theme.PANEL_EDGE)
            plate.visible = False
            self.bubble_plates[seat] = plate
            bubble = hud.text(
                "", bx, by, 13, theme.INK, anchor_x="center", anchor_y="center", bold=True
            )
            bubble.visible = False
            self.bubble_labels[seat] = bubble
        self.build_marks()
        self.toast = Toast(hud, *self.toast_position())
        bx = x0 + 80
        row = [
            ("Last trick  L", self.toggle_last_trick, "last"),
            ("Hint  H", self.ask_hint, "hint"),
            ("Undo  U", self.undo, "undo"),
            ("Help  ?", lambda: self.open_overlay("help"), "help"),
        ]
        for i, (label_text, action, name) in enumerate(row):
            self.buttons.add(
                Button(
                    hud,
                    label_text,
                    bx + (i % 2) * 160,
                    110 - (i // 2) * 44,
                    150,
                    36,
                    action,
                    size=12,
                    name=name,
                )
            )
        self.speed_button = self.buttons.add(
            Button(hud, "", bx, 22, 150, 32, self.cycle_speed, size=11, name="speed")
        )
        self.buttons.add(
            Button(
                hud,
                "Menu  Esc",
                bx + 160,
                22,
                150,
                32,
                lambda: self.open_overlay("menu"),
                size=11,
                name="menu",
            )
        )
        self.claim_button = self.buttons.add(
            Button(
                hud,
                "L'arrêt!  Claim the match",
                *self.bid_area(),
                300,
                44,
                self.claim,
                size=14,
                colour=(176, 60, 30, 255),
                hover_colour=(210, 80, 40, 255),
                name="claim",
            )
        )
        self.claim_button.visible = False
        self.refresh_speed()

    def refresh_speed(self) -> None:
        self.speed_button.set_label(f"Speed: {self.app.speed_name}")

    # --- the match --------------------------------------------------------------------------

    def begin(self) -> None:
        """Take the match where it stands: the deal in progress, or deal the next one."""
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
        self.close_panel()
        self.deal = self.match.next_deal()
        self.stage = "play"
        self.deal_path = None
        self.clear_bubbles()
        self.view = self.deal.view(HUMAN, self.scores())
        for sprite in [*self.cards.values(), *self.backs.values()]:
            sprite.visible = False
            sprite.motions.clear()
        self.shown = {}
        self.shown_backs = {}
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

    # --- frames ------------------------------------------------------------------------------

    def on_update(self, delta_time: float) -> None:
        self.clock += delta_time
        for sprite in self.sprites:
            if sprite.motions:
                sprite.animate(self.clock)
        self.poll_hint()
        if self.overlay:
            return
        if self.stage == "redeal":
            if self.clock >= self.redeal_at:
                self.start_deal()
            return
        if self.stage != "play" or self.deal is None or self.clock < self.busy_until:
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

    def busy(self) -> bool:
        """Whether cards are still moving (no action is taken meanwhile)."""
        return self.clock < self.busy_until

    def hurry(self) -> None:
        """End every animation now (a click during an animation)."""
        for sprite in [*self.cards.values(), *self.backs.values()]:
            sprite.finish()
        self.busy_until = self.clock

    def on_draw(self) -> None:
        self.frames += 1
        self.app.begin_frame()
        self.tick_hud()
        self.sync_glows()
        self.marks.draw()
        self.glows.draw()
        self.card_set.draw()
        self.hud.draw()
        self.sheet.draw()
        if not self.busy():  # the bidding waits for the cards to be dealt
            self.bids.draw()
        if self.stage in ("deal_over", "match_over"):
            self.panel.draw()
        if self.overlay:
            self.over.draw()

    def tick_hud(self) -> None:
        """What changes with time alone: messages, bubbles, the thinking dots."""
        now = self.clock
        self.toast.update(now)
        covered = self.toast.visible(now) and self.toast.y == self.status.y
        if self.status.visible == covered:
            self.status.visible = not covered
        for seat, until in list(self.bubble_until.items()):
            if now > until:
                del self.bubble_until[seat]
                self.bubble_plates[seat].visible = False
                self.bubble_labels[seat].visible = False
        ready = not self.busy()
        if self.bid_prompt.visible != ready:
            self.bid_prompt.visible = ready
        thinking = self.job is not None and not self.job.done
        dots = "." * (1 + int(now * 3) % 3) if thinking and not covered else ""
        if self.thinking.text != dots:
            self.thinking.text = dots

    def sync_glows(self) -> None:
        """The glows follow their cards (a few attribute copies per frame)."""
        for glow, (card, _) in zip(self.glows, self.glow_cards, strict=False):
            sprite = self.cards[card]
            glow.visible = sprite.visible and not sprite.busy
            glow.position = sprite.position
            glow.scale = sprite.scale
            glow.angle = sprite.angle

    # --- laying out and animating --------------------------------------------------------

    def relayout(self, before: View | None, animate: bool) -> None:
        """Move every card to where the current view puts it (animated or at once)."""
        view = self.view
        if view is None:
            return
        for sprite in [*self.cards.values(), *self.backs.values()]:
            sprite.finish()
        faces, backs = self.layout_cards(view)
        for i, (seat, card) in enumerate(view.trick):
            faces[card] = self.trick_place(seat, i)
        speed = self.app.speed if animate else 0.0
        now = self.clock
        move = theme.MOVE * speed
        done = now
        flips_at = now + move
        trick_done = before is not None and len(view.tricks) > len(before.tricks)
        held: set[int] = set()
        if trick_done:
            trick = view.tricks[-1]
            seats = trick.seats(view.seats, view.direction)
            collect_at = now + move + theme.TRICK_HOLD * speed
            wx, wy = self.won_pile(trick.winner)
            for i, (seat, card) in enumerate(zip(seats, trick.cards, strict=True)):
                sprite = self.cards[card]
                place = self.trick_place(seat, i)
                if not sprite.visible:
                    sprite.place(*self.hand_origin(seat), 0, self.card_scale)
                    sprite.visible = True
                sprite.show_face(True, False)
                sprite.z = 200 + i
                sprite.move(Motion(now, move, place.x, place.y, place.angle, place.scale))
                sprite.move(
                    Motion(
                        collect_at, theme.COLLECT * speed, wx, wy, 0, place.scale * 0.7, hide=True
                    )
                )
                held.add(card)
            flips_at = collect_at
            done = collect_at + theme.COLLECT * speed
        consumed: set[str] = set()
        trick_cards = {c for _, c in view.trick}
        dealt = 0
        for card, place in faces.items():
            sprite = self.cards[card]
            if card in held:
                continue
            sprite.z = place.z
            if card in self.shown and sprite.visible:
                flip = place.face_up and not sprite.face_up
                sprite.show_face(sprite.face_up and place.face_up, place.covered)
                sprite.move(
                    Motion(now, move, place.x, place.y, place.angle, place.scale, flip=flip)
                )
                done = max(done, now + move)
                continue
            back = self.backs.get(place.from_back or "")
            if (
                back is not None
                and place.from_back in self.shown_backs
                and place.from_back not in backs
            ):
                consumed.add(place.from_back or "")
                sprite.place(back.center_x, back.center_y, back.angle, place.scale)
                sprite.show_face(False, place.covered)
                sprite.visible = True
                flip_time = theme.FLIP * speed
                sprite.move(Motion(flips_at, flip_time, place.x, place.y, place.angle, flip=True))
                back.move(Motion(flips_at, 0, back.center_x, back.center_y, back.angle, hide=True))
                done = max(done, flips_at + flip_time)
                continue
            if card in trick_cards:
                seat = next(s for s, c in view.trick if c == card)
                ox, oy = self.hand_origin(seat)
            else:
                ox, oy = self.deck_origin()
            sprite.place(ox, oy, 0, place.scale)
            sprite.show_face(place.face_up, place.covered)
            sprite.visible = True
            delay = dealt * theme.DEAL_STAGGER * speed if card not in trick_cards else 0.0
            dealt += card not in trick_cards
            sprite.move(Motion(now + delay, move * 1.2, place.x, place.y, place.angle, place.scale))
            if animate and delay:
                sprite.visible = False  # it appears when its move starts
            done = max(done, now + delay + move * 1.2)
        for key, place in backs.items():
            found = self.backs.get(key)
            if found is None:
                found = CardSprite(None, place.scale)
                found.visible = False
                self.backs[key] = found
            sprite = found
            sprite.z = place.z
            if not place.drawn:
                # under a face-up card that is drawn with it: only its place is kept
                sprite.place(place.x, place.y, place.angle, place.scale)
                sprite.visible = False
                continue
            if sprite.visible:
                sprite.move(Motion(now, move, place.x, place.y, place.angle, place.scale))
                continue
            if not place.fly:
                sprite.place(place.x, place.y, place.angle, place.scale)
                sprite.visible = True
                continue
            ox, oy = self.deck_origin()
            sprite.place(ox, oy, 0, place.scale)
            delay = dealt * theme.DEAL_STAGGER * speed
            dealt += 1
            sprite.visible = not (animate and delay)
            sprite.move(Motion(now + delay, move * 1.2, place.x, place.y, place.angle, place.scale))
            done = max(done, now + delay + move * 1.2)
        for key, sprite in self.backs.items():
            if key not in backs and key not in consumed:
                sprite.visible = False
                sprite.motions.clear()
        for card, sprite in self.cards.items():
            if card not in faces and card not in held:
                sprite.visible = False
                sprite.motions.clear()
        self.shown = faces
        self.shown_backs = backs
        self.rebuild_sprite_list([*held])
        if not animate:
            for sprite in self.sprites:
                sprite.finish()
            done = now
        self.busy_until = max(self.busy_until if animate else now, done)
        self.refresh_highlights()

    def rebuild_sprite_list(self, extra: list[int]) -> None:
        """The draw order: face-down cards, then cards by their ``z``."""
        wanted: list[CardSprite] = [s for s in self.backs.values() if s.visible or s.motions]
        wanted += [self.cards[c] for c in self.shown]
        wanted += [self.cards[c] for c in extra]
        wanted.sort(key=lambda s: s.z)
        self.sprites = wanted
        self.card_set.replace(list(wanted))

    def refresh_highlights(self) -> None:
        """When the person is to play, light the legal cards (a halo drawn in their
        texture) and dim the others; light the proposed card during the bidding and the
        card the hint suggests (a glow under them)."""
        view = self.view
        self.glow_cards = []
        if view is None:
            return
        my_turn = self.stage == "play" and view.turn == HUMAN and view.phase == "play"
        hand = view.hand
        for card, sprite in self.cards.items():
            mine = bool(hand >> card & 1)
            legal = mine and bool(view.legal >> card & 1)
            sprite.show_face(sprite.face_up, None, my_turn and legal)
            dim = my_turn and mine and not legal
            colour = theme.DIM if dim else (255, 255, 255, 255)
            if tuple(sprite.color) != colour:
                sprite.color = colour
        if view.phase == "bidding" and view.turnup is not None and view.turnup in self.shown:
            self.glow_cards.append((view.turnup, PROPOSAL_COLOUR))
        if self.hint is not None and self.hint.kind == "play":
            self.glow_cards.append((self.hint.value, HINT_COLOUR))
        self.glows.replace(
            [
                arcade.Sprite(glow_texture(colour), scale=self.card_scale)
                for _, colour in self.glow_cards
            ]
        )
        self.sync_glows()

    # --- words on the table -----------------------------------------------------------

    def narrate(self, seat: int, action: Action, before: View, after: View) -> None:
        """Bubbles and messages for what just happened: bids, announcements, a claim."""
        if action.kind == "bid":
            self.bubble(seat, self.bid_text(action.value, before), 1e9)
        elif action.kind == "claim":
            self.toast.show(f"{self.seat_name(seat)} claims the match: l'arrêt!", self.clock)
        if after.contract is not None and before.contract is None:
            c = after.contract
            self.clear_bubbles()
            self.bubble(c.taker, f"takes {self.contract_name(c.trump, c.name)}", 2.5)
        for ann in after.announcements[len(before.announcements) :]:
            word = ann.text
            loud = word in ("belote", "rebelote", "belote-rebelote")
            self.bubble(ann.seat, capital(word) + ("!" if loud else ""), 3.0)
            self.toast.show(f"{self.seat_name(ann.seat)} announces: {word}", self.clock)

    def bubble(self, seat: int, words: str, seconds: float) -> None:
        """Show what ``seat`` says next to it for ``seconds``."""
        label = self.bubble_labels[seat]
        label.text = words
        x, y = self.bubble_anchor(seat)
        set_plate(
            self.bubble_plates[seat],
            arcade.XYWH(x, y, quantize(label.content_width + 30), 30),
            BUBBLE,
            theme.PANEL_EDGE,
        )
        label.visible = self.bubble_plates[seat].visible = True
        self.bubble_until[seat] = self.clock + seconds

    def clear_bubbles(self) -> None:
        for seat in list(self.bubble_until):
            self.bubble_until[seat] = -1.0

    def contract_name(self, trump: int | None, name: str) -> str:
        return suit_label(trump) if trump is not None else capital(name.replace("-", " "))

    def bid_text(self, bid: str, view: View) -> str:
        """A bid in words for a bubble or a button (only describes the engine's bids)."""
        if bid == "pass":
            return "Pass"
        if bid == "take" and view.turnup is not None:
            return f"Take {suit_label(view.turnup >> 3)}"
        if bid in SUITS:
            return suit_label(SUITS.index(bid))
        return capital(bid.replace("-", " "))

    def after_change(self) -> None:
        """Bring the texts, controls and marks up to date with the view."""
        self.update_status()
        self.update_bid_buttons()
        self.refresh_points()
        self.refresh_sheet()
        self.update_marks()

    def update_status(self) -> None:
        view = self.view
        words = ""
        if view is not None and self.deal is not None and self.stage == "play":
            if view.turn == HUMAN and view.phase == "bidding":
                words = "Your bid"
            elif view.turn == HUMAN and view.phase == "play":
                words = "Your turn: play a highlighted card"
            elif view.phase in ("bidding", "play"):
                verb = "bids" if view.phase == "bidding" else "plays"
                words = f"{self.seat_name(view.turn)} {verb}"
        self.status.text = words
        self.thinking.x = self.status.x + self.status.content_width / 2 + 4
        self.update_seats()

    def update_seats(self) -> None:
        """Light the name of the seat to act."""
        view = self.view
        for seat in range(self.seats):
            to_act = (
                view is not None
                and self.stage == "play"
                and view.turn == seat
                and view.phase in ("bidding", "play")
            )
            label = self.seat_labels[seat]
            colour = theme.INK if to_act else theme.WHITE
            if tuple(label.color) != colour:
                label.color = colour
            x, y = self.seat_anchor(seat)
            set_plate(
                self.seat_plates[seat],
                arcade.XYWH(x, y + 6, quantize(label.content_width + 30), 28),
                SEAT_PLATE_TURN if to_act else SEAT_PLATE,
            )

    def update_bid_buttons(self) -> None:
        """One button per legal bid when the person is to bid (their texts only describe
        the bids the engine lists)."""
        view = self.view
        self.bids = Layer()
        self.bid_buttons = ButtonRow()
        self.claim_button.visible = bool(
            view is not None and view.can_claim and self.stage == "play"
        )
        if view is None or self.stage != "play" or view.turn != HUMAN or view.phase != "bidding":
            return
        cx, cy = self.bid_area()
        gap = 10
        for bid in view.legal_bids:
            plain = bid != "pass"
            self.bid_buttons.add(
                Button(
                    self.bids,
                    self.bid_text(bid, view),
                    cx,
                    cy,
                    96,
                    44,
                    partial(self.human_bid, bid),
                    size=13,
                    colour=theme.BUTTON if plain else (120, 60, 50, 255),
                    hover_colour=theme.BUTTON_HOVER if plain else (160, 80, 64, 255),
                    name=f"bid:{bid}",
                    fit=True,
                )
            )
        buttons = self.bid_buttons.buttons
        total = sum(b.rect.width for b in buttons) + gap * (len(buttons) - 1)
        x = cx - total / 2
        for button in buttons:
            button.move_to(x + button.rect.width / 2, cy)
            x += button.rect.width + gap

    def refresh_points(self) -> None:
        view = self.view
        if view is None:
            return
        c = view.contract
        taker = ""
        if c is not None:
            self.contract_text.text = f"Trump: {self.contract_name(c.trump, c.name)}"
            taker = f"taken by {self.seat_name(c.taker)}"
        elif view.phase == "bidding" and view.turnup is not None:
            self.contract_text.text = f"Bidding on {suit_label(view.turnup >> 3)}"
        else:
            self.contract_text.text = ""
        self.taker_text.text = taker
        tricks = [0] * view.teams
        for t in view.tricks:
            tricks[t.winner % view.teams] += 1
        parts = [f"{self.team_name(team)} {view.points[team]}" for team in range(view.teams)]
        self.points_text.text = "Card points: " + " · ".join(parts) if view.tricks else ""
        if self.keep_count_yourself:
            self.points_text.text = "L'arrêt: keep count yourself"
        for seat in range(self.seats):
            team = seat % view.teams
            words = ""
            if self.info.teams == self.seats and view.phase != "bidding":
                n = tricks[team]
                words = f"{view.points[team]} card points · {n} trick{'s' if n != 1 else ''}"
                if self.keep_count_yourself:
                    words = f"{n} trick{'s' if n != 1 else ''}"
            self.seat_points[seat].text = words
        said = [f"{self.seat_name(a.seat)}: {a.text}" for a in view.announcements]
        self.said_title.text = "Announced" if said else ""
        self.said_text.text = "\n".join(said[-5:])

    @property
    def keep_count_yourself(self) -> bool:
        """Under l'arrêt players must remember their points (RULES.md: no looking back),
        so the table hides the running count and the match total."""
        return bool(self.match.rules.get("arret"))

    def refresh_sheet(self) -> None:
        """The score sheet in the side bar: every deal's score and the totals (laid out
        again only when a deal has been scored)."""
        key = (len(self.match.history), tuple(self.match.scores), id(self.match))
        if key == self.sheet_key:
            return
        self.sheet_key = key
        layer = Layer()
        x0 = theme.TABLE_RIGHT + 24
        teams = self.info.teams
        cols = [x0 + 120 + 100 * team for team in range(teams)]
        history = self.match.history
        shown = history[-9:]
        first = len(history) - len(shown)
        rows_y = [508 - 22 * i for i in range(len(shown))]
        total_y = min(rows_y[-1] if rows_y else 508, 508 - 22 * 8) - 34
        self.sheet_y = total_y
        layer.plate(arcade.LRBT(x0 - 4, x0 + 284, 526, 527), (255, 255, 255, 60), None, 0)
        layer.plate(
            arcade.LRBT(x0 - 4, x0 + 284, total_y + 22, total_y + 23), (255, 255, 255, 80), None, 0
        )
        texts = [
            layer.text("Score sheet", x0, 556, 14, theme.GOLD, bold=True),
            layer.text("Deal", x0, 534, 11, theme.GOLD),
        ]
        for team in range(teams):
            texts.append(
                layer.text(
                    self.team_name(team),
                    cols[team],
                    534,
                    11,
                    theme.GOLD,
                    anchor_x="center",
                    bold=True,
                )
            )
        marks = {"dedans": "dedans", "capot": "capot", "litige": "litige", "abeyance": "held"}
        if self.keep_count_yourself:
            shown = []
        for i, score in enumerate(shown):
            y = rows_y[i]
            texts.append(layer.text(str(first + i + 1), x0, y, 11, theme.CREAM))
            texts.append(layer.text(marks.get(score.outcome, ""), x0 + 22, y, 9, theme.CREAM))
            for team in range(teams):
                texts.append(
                    layer.text(
                        str(score.score[team]), cols[team], y, 12, theme.WHITE, anchor_x="center"
                    )
                )
        texts.append(layer.text("Total", x0, total_y, 13, theme.GOLD, bold=True))
        for team in range(teams):
            texts.append(
                layer.text(
                    "?" if self.keep_count_yourself else str(self.match.scores[team]),
                    cols[team],
                    total_y,
                    15,
                    theme.WHITE,
                    anchor_x="center",
                    bold=True,
                )
            )
        target = self.match.rules.get("target")
        if target is not None:
            texts.append(layer.text(f"Game to {target}", x0, total_y - 26, 11, theme.CREAM))
        self.sheet = layer
        self.sheet_texts = texts

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

    def card_at(self, x: float, y: float) -> tuple[str, Any] | None:
        """The card under a logical point: ``("card", card)`` or ``("back", key)``."""
        for sprite in reversed(self.sprites):
            if sprite.contains(x, y):
                if sprite.card is not None and sprite.face_up:
                    return "card", sprite.card
                key = next((k for k, s in self.backs.items() if s is sprite), None)
                return ("back", key) if key is not None else None
        return None

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

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        lx, ly = self.app.to_logical(x, y)
        if self.overlay:
            if not self.overlay_buttons.click(lx, ly) and self.overlay != "menu":
                self.overlay = ""
            return
        if self.stage in ("deal_over", "match_over"):
            if not self.panel_buttons.click(lx, ly):
                self.buttons.click(lx, ly)
            return
        if self.busy():
            self.hurry()
        if self.bid_buttons.click(lx, ly) or self.buttons.click(lx, ly):
            return
        hit = self.card_at(lx, ly)
        if hit is None:
            return
        kind, what = hit
        if kind == "card":
            self.click_card(what)
        elif self.is_own_back(what):
            self.toast.show(
                "That card is face down: nobody may play it until it is turned.", self.clock
            )

    def is_own_back(self, key: str) -> bool:
        """Whether the face-down card ``key`` is one of the person's."""
        return False

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        lx, ly = self.app.to_logical(x, y)
        for row in (self.buttons, self.bid_buttons, self.panel_buttons, self.overlay_buttons):
            row.hover(lx, ly)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        k = arcade.key
        if symbol == k.ESCAPE:
            if self.overlay:
                self.overlay = ""
            else:
                self.open_overlay("menu")
        elif symbol in (k.QUESTION, k.F1, k.SLASH):
            if self.overlay == "help":
                self.overlay = ""
            else:
                self.open_overlay("help")
        elif symbol == k.F:
            self.app.toggle_fullscreen()
        elif symbol == k.L:
            self.toggle_last_trick()
        elif symbol == k.H:
            self.ask_hint()
        elif symbol == k.U:
            self.undo()
        elif symbol == k.N:
            self.next_deal_key()

    def next_deal_key(self) -> None:
        if self.stage == "deal_over":
            self.start_deal()
        elif self.stage == "match_over":
            self.new_match()
        else:
            self.toast.show(
                "Finish this deal first (Esc opens the menu for a new match).", self.clock
            )

    def cycle_speed(self) -> None:
        names = list(theme.SPEEDS)
        self.app.set_speed(names[(names.index(self.app.speed_name) + 1) % len(names)])
        self.refresh_speed()
        if self.overlay == "menu":
            self.open_overlay("menu")

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
            self.toast.show(f"Hint: {self.bid_text(self.hint.value, view)}", self.clock, 5)
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
        self.overlay = ""
        self.close_panel()
        if self.deal is None:
            return
        self.view = self.deal.view(HUMAN, self.scores())
        self.clear_bubbles()
        self.relayout(None, animate=False)
        self.after_change()
        self.autosave()
        self.toast.show("Your last card is taken back.", self.clock)

    # --- panels ------------------------------------------------------------------------------

    def close_panel(self) -> None:
        self.panel = Layer()
        self.panel_buttons = ButtonRow()
        self.panel_texts = []

    def open_deal_panel(self) -> None:
        """The end-of-deal panel (and the end-of-match panel when the match is over):
        the engine's score of the deal, its notes, the match total, where the record is."""
        deal = self.deal
        layer = Layer()
        self.panel = layer
        self.panel_buttons = ButtonRow()
        cx, top = 480.0, 600.0
        shadow = layer.plate(arcade.LRBT(186, 786, 62, 602), (0, 0, 0, 90), None, 18)
        plate = layer.plate(arcade.LRBT(180, 780, 70, 610), theme.PANEL, theme.PANEL_EDGE, 18, 3)
        t: list[arcade.Text] = []
        self.panel_texts = t
        score = deal.score if deal is not None else None
        teams = self.info.teams
        y = top - 46
        if score is not None:
            head = self.deal_headline(score)
            t.append(layer.text(head, cx, y, 22, theme.INK, anchor_x="center", bold=True))
            cols = [cx + 40 + 130 * team for team in range(teams)]
            y -= 48
            for team in range(teams):
                name = self.team_long_name(team)
                t.append(
                    layer.text(name, cols[team], y, 13, theme.INK, anchor_x="center", bold=True)
                )
            rows = [
                ("Card points", score.card_points),
                ("Declarations, belote", score.declaration_points),
                ("Scores", score.score),
                ("Match total", tuple(self.match.scores)),
            ]
            if self.keep_count_yourself:
                rows.pop()
            for label, values in rows:
                y -= 32
                bold = label in ("Scores", "Match total")
                size = 15 if bold else 13
                t.append(layer.text(label, 220, y, 13, theme.INK, bold=bold))
                for team in range(teams):
                    value = str(values[team])
                    t.append(
                        layer.text(
                            value, cols[team], y, size, theme.INK, anchor_x="center", bold=bold
                        )
                    )
            y -= 10
            for note in score.notes:
                y -= 22
                t.append(layer.text(capital(note), cx, y, 12, theme.INK_SOFT, anchor_x="center"))
            if self.deal_path is not None:
                y -= 28
                where = f"Deal record: {self.deal_path}"
                t.append(layer.text(where, cx, y, 10, theme.INK_SOFT, anchor_x="center"))
        result = self.match.result
        if result is not None:
            ours = HUMAN % teams
            if result.winner is None:
                head, colour = "The match is drawn", theme.INK
            elif result.winner == ours:
                head, colour = "You win the match!", theme.GREEN_OK
            else:
                verb = "wins" if teams == self.seats else "win"
                head, colour = f"{self.team_long_name(result.winner)} {verb} the match", theme.RED
            y -= 44
            t.append(layer.text(head, cx, y, 20, colour, anchor_x="center", bold=True))
            y -= 26
            reason = capital(result.reason)
            t.append(layer.text(reason, cx, y, 12, theme.INK_SOFT, anchor_x="center"))
            y -= 46
            self.panel_buttons.add(
                Button(
                    layer,
                    "New match  N",
                    cx - 110,
                    y,
                    200,
                    44,
                    self.new_match,
                    size=14,
                    colour=theme.GREEN_OK,
                    name="new-match",
                )
            )
            self.panel_buttons.add(
                Button(
                    layer,
                    "Start menu",
                    cx + 110,
                    y,
                    200,
                    44,
                    self.to_menu,
                    size=14,
                    name="start-menu",
                )
            )
        else:
            y -= 50
            self.panel_buttons.add(
                Button(
                    layer,
                    "Next deal  N",
                    cx,
                    y,
                    220,
                    46,
                    self.start_deal,
                    size=15,
                    colour=theme.GREEN_OK,
                    name="next-deal",
                )
            )
        bottom = y - 40
        set_plate(
            plate, arcade.LRBT(180, 780, bottom, top + 10), theme.PANEL, theme.PANEL_EDGE, 18, 3
        )
        set_plate(shadow, arcade.LRBT(186, 786, bottom - 8, top + 2), (0, 0, 0, 90), None, 18)

    def deal_headline(self, score: DealScore) -> str:
        """The panel's title, from the score's outcome (the engine's words, not a rule)."""
        view = self.view
        taker = view.contract.taker if view is not None and view.contract is not None else None
        teams = self.info.teams
        who = self.team_long_name(taker % teams) if taker is not None else "The takers"
        plural = who == "You" or "&" in who
        if score.outcome == "capot":
            winner = score.capot
            name = self.team_long_name(winner) if winner is not None else "One side"
            return f"Capot! {name} won every trick"
        if score.outcome == "dedans":
            return f"Dedans: {who} {'fail' if plural else 'fails'} the contract"
        if score.outcome == "litige":
            return "Litige: the points wait for the next deal"
        if score.outcome == "abeyance":
            return "A tie: the points are held in abeyance"
        if score.made:
            return f"{who} {'make' if plural else 'makes'} the contract"
        return capital(score.outcome)

    def open_overlay(self, name: str) -> None:
        """Open a panel over the table (the table waits): help, last trick, menu."""
        layer = Layer()
        self.overlay_texts = []
        self.overlay_cards = []
        self.overlay_buttons = ButtonRow()
        cx = 480.0
        view = self.view
        if name == "last" and (view is None or not view.tricks):
            self.toast.show("No trick has been played yet in this deal.", self.clock)
            return
        self.overlay = name
        self.over = layer
        layer.plate(arcade.LRBT(156, 816, 142, 592), (0, 0, 0, 90), None, 18)
        layer.plate(arcade.LRBT(150, 810, 150, 600), theme.PANEL, theme.PANEL_EDGE, 18, 3)
        t = self.overlay_texts
        if name == "help":
            lines = [
                ("Click", "a highlighted card plays it; a dimmed one says why not"),
                ("N", "next deal (after a deal), new match (after a match)"),
                ("H", "a hint from the expert bot"),
                ("U", "undo your last card"),
                ("L", "look at the last trick"),
                ("F", "full screen on or off"),
                ("Esc", "menu (the match is saved; Continue resumes it)"),
                ("?", "this help"),
            ]
            t.append(layer.text("Keys", cx, 552, 22, theme.INK, anchor_x="center", bold=True))
            for i, (key, what) in enumerate(lines):
                y = 500 - i * 36
                t.append(layer.text(key, 250, y, 14, theme.INK, anchor_x="right", bold=True))
                t.append(layer.text(what, 268, y, 13, theme.INK))
            t.append(
                layer.text(
                    "Click anywhere to close", cx, 176, 11, theme.INK_SOFT, anchor_x="center"
                )
            )
        elif name == "last" and view is not None:
            trick = view.tricks[-1]
            seats = trick.seats(view.seats, view.direction)
            n = len(trick.cards)
            w = 110
            left = cx - (n - 1) * (w + 16) / 2
            t.append(
                layer.text(
                    f"Last trick (trick {len(view.tricks)})",
                    cx,
                    548,
                    20,
                    theme.INK,
                    anchor_x="center",
                    bold=True,
                )
            )
            for i, (seat, card) in enumerate(zip(seats, trick.cards, strict=True)):
                x = left + i * (w + 16)
                sprite = arcade.Sprite(face_texture(card), scale=w / theme.CARD_W)
                sprite.position = (x, 380)
                layer.plates.append(sprite)
                self.overlay_cards.append(
                    (card, arcade.XYWH(x, 380, w, w * theme.CARD_H / theme.CARD_W))
                )
                t.append(
                    layer.text(
                        self.seat_name(seat),
                        x,
                        282,
                        13,
                        theme.INK,
                        anchor_x="center",
                        bold=seat == trick.winner,
                    )
                )
            t.append(
                layer.text(
                    f"Won by {self.seat_name(trick.winner)}: {trick.points} points · "
                    f"led by {self.seat_name(trick.leader)}",
                    cx,
                    236,
                    14,
                    theme.INK,
                    anchor_x="center",
                )
            )
            t.append(
                layer.text(
                    "Click anywhere or press L to close",
                    cx,
                    176,
                    11,
                    theme.INK_SOFT,
                    anchor_x="center",
                )
            )
        elif name == "menu":
            t.append(layer.text("Menu", cx, 552, 22, theme.INK, anchor_x="center", bold=True))
            items = [
                ("Resume  Esc", self.close_overlay, "resume"),
                (f"Speed: {self.app.speed_name}", self.cycle_speed, "speed"),
                ("Full screen  F", self.app.toggle_fullscreen, "fullscreen"),
                ("New match", self.new_match, "new-match"),
                ("Start menu (match saved)", self.to_menu, "start-menu"),
                ("Quit (match saved)", self.quit, "quit"),
            ]
            for i, (label, action, key) in enumerate(items):
                self.overlay_buttons.add(
                    Button(layer, label, cx, 490 - i * 52, 300, 42, action, size=14, name=key)
                )

    def close_overlay(self) -> None:
        self.overlay = ""

    def toggle_last_trick(self) -> None:
        if self.overlay == "last":
            self.overlay = ""
        else:
            self.open_overlay("last")

    def to_menu(self) -> None:
        self.overlay = ""
        self.app.show_start()

    def quit(self) -> None:
        self.leave()
        self.window.close()

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
