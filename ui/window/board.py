"""The cards on the felt: where each one lies, and how it gets there.

A :class:`Board` owns the 32 card sprites and the face-down cards, and moves them to the
places a layout gives for a view (:meth:`Board.relayout`): the played card slides to the
trick, a finished trick stays a moment and goes to its winner, a face-down card that the
rules turned is flipped where it lies, new cards are dealt from the deck.  It knows no
game: the places come from a :class:`CardLayout` (each table is one), the cards to light
from the table.  While cards move the board is *busy*; the table takes no action then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import Protocol

import arcade
from atout.core import Trick
from atout.core import View

from . import theme
from .sprites import CardSprite
from .sprites import Motion
from .sprites import glow_texture
from .sprites import ring_texture
from .widgets import Colour
from .widgets import SpriteSet

HINT_COLOUR = (80, 200, 255, 255)
"""The frame round the card a hint suggests (drawn over the cards: a lit card's own halo
would hide a glow under it)."""
FOCUS_COLOUR = (255, 255, 255, 255)
"""The frame round the card the keyboard's focus is on (arrows move it, Enter plays)."""
FRAMES = (HINT_COLOUR, FOCUS_COLOUR)
"""The colours drawn as a frame over a card (not a glow under it)."""
TURNED_COLOUR = (255, 96, 200, 255)
"""The glow round a card the rules have just turned face up (the message line says
which card it lay under)."""
PROPOSAL_COLOUR = (255, 240, 150, 255)
"""The glow under the card proposed as trump during the bidding."""


@dataclass
class Place:
    """Where a card lies on the table, and how.

    ``from_back`` names the face-down card (a key of :meth:`CardLayout.layout_cards`'
    backs) that this card is when it was just turned: the board flips it there.
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
    """``False``: a face-down card drawn with the card that covers it; the board only
    keeps its place (where it flips when the rules turn it)."""


class CardLayout(Protocol):
    """Where a table puts the cards (each game's table answers)."""

    def layout_cards(self, view: View) -> tuple[dict[int, Place], dict[str, Place]]:
        """Every visible card of ``view`` (faces by card, face-down cards by a key that
        stays the same while the card stays), the current trick excepted."""
        ...

    def trick_place(self, seat: int, index: int) -> Place:
        """Where ``seat``'s card lies in the trick (``index``: its order in the trick)."""
        ...

    def won_pile(self, seat: int) -> tuple[float, float]:
        """Where the tricks ``seat`` wins go."""
        ...

    def hand_origin(self, seat: int) -> tuple[float, float]:
        """Where a card of ``seat``'s closed hand comes from when it is played."""
        ...

    def deck_origin(self) -> tuple[float, float]:
        """Where dealt cards come from."""
        ...


class Board:
    """The card sprites of one table, their places, their moves and their glows."""

    def __init__(self, layout: CardLayout, card_scale: float) -> None:
        self.layout = layout
        self.card_scale = card_scale
        self.cards: dict[int, CardSprite] = {}
        for c in range(32):
            sprite = CardSprite(c, card_scale)
            sprite.visible = False
            self.cards[c] = sprite
        self.backs: dict[str, CardSprite] = {}
        self.shown: dict[int, Place] = {}
        self.shown_backs: dict[str, Place] = {}
        self.sprites: list[CardSprite] = []
        """The cards on the table in drawing order (face-down cards, then by ``z``)."""
        self.card_set = SpriteSet()
        self.glows = SpriteSet()
        self.glow_cards: list[tuple[int, Colour]] = []
        self.rings = SpriteSet()
        """The frames of the hint's card and of the keyboard's focus: drawn in
        :attr:`card_set`, each just after its card."""
        self.busy_until = 0.0
        """The table's clock when the last move ends."""

    def all_sprites(self) -> list[CardSprite]:
        return [*self.cards.values(), *self.backs.values()]

    def clear(self) -> None:
        """Take every card off the table (a new deal is about to be dealt)."""
        for sprite in self.all_sprites():
            sprite.visible = False
            sprite.motions.clear()
        self.shown = {}
        self.shown_backs = {}

    def busy(self, now: float) -> bool:
        """Whether cards are still moving at ``now``: their last move ends later, or a
        move is still queued (at speed 0 the cards land at the next frame, not before)."""
        return now < self.busy_until or any(s.motions for s in self.sprites)

    def animate(self, now: float) -> None:
        """Move the cards that are under way to where they are at ``now``."""
        for sprite in self.sprites:
            if sprite.motions:
                sprite.animate(now)

    def hurry(self, now: float) -> None:
        """End every move at once (a click during an animation)."""
        for sprite in self.all_sprites():
            sprite.finish()
        self.busy_until = now

    def draw(self) -> None:
        """The glows, then the cards with their frames (a handful of draw calls)."""
        self.sync_glows()
        self.glows.draw()
        self.card_set.draw()

    def ring_cards(self) -> list[tuple[int, Colour]]:
        """The framed cards (the hint's, the keyboard's focus), in the order of
        :attr:`rings`."""
        return [(card, c) for card, c in self.glow_cards if c in FRAMES]

    def under_ring(self, card: int) -> list[CardSprite]:
        """The cards drawn before the frame of ``card`` (the frame may cover them)."""
        before: list[CardSprite] = []
        for sprite in self.card_set:
            if isinstance(sprite, CardSprite):
                before.append(sprite)
            elif sprite in self.rings and self.framed_card(sprite) == card:
                break
        return before

    def framed_card(self, ring: arcade.Sprite) -> int | None:
        """The card a frame of :attr:`rings` is drawn round."""
        for sprite, (card, _) in zip(self.rings, self.ring_cards(), strict=False):
            if sprite is ring:
                return card
        return None

    def compose(self) -> None:
        """The draw order: the cards by :attr:`sprites`, each frame just after its card
        (the cards lying over a framed card are drawn over its frame: the frame hides no
        neighbour's corner), in one sprite list."""
        frames = dict(zip((card for card, _ in self.ring_cards()), self.rings, strict=False))
        order: list[arcade.Sprite] = []
        for sprite in self.sprites:
            order.append(sprite)
            ring = frames.get(sprite.card) if sprite.card is not None else None
            if ring is not None:
                order.append(ring)
        self.card_set.replace(order)

    def card_at(self, x: float, y: float) -> tuple[str, Any] | None:
        """The card under a logical point: ``("card", card)`` or ``("back", key)``."""
        for sprite in reversed(self.sprites):
            if sprite.contains(x, y):
                if sprite.card is not None and sprite.face_up:
                    return "card", sprite.card
                key = next((k for k, s in self.backs.items() if s is sprite), None)
                return ("back", key) if key is not None else None
        return None

    # --- laying out ----------------------------------------------------------------------

    def relayout(
        self, view: View, won: Trick | None, now: float, speed: float, animate: bool
    ) -> None:
        """Move every card to where ``view`` puts it, animated at ``speed`` (a factor on
        every delay) or at once; ``won`` is the trick the last action completed (the
        session's trick event), shown on the table before it goes to its winner."""
        layout = self.layout
        for sprite in self.all_sprites():
            sprite.finish()
        faces, backs = layout.layout_cards(view)
        for i, (seat, card) in enumerate(view.trick):
            faces[card] = layout.trick_place(seat, i)
        speed = speed if animate else 0.0
        move = theme.MOVE * speed
        done = now
        flips_at = now + move
        held: set[int] = set()
        if won is not None:
            trick = won
            seats = trick.seats(view.seats, view.direction)
            collect_at = now + move + theme.TRICK_HOLD * speed
            wx, wy = layout.won_pile(trick.winner)
            for i, (seat, card) in enumerate(zip(seats, trick.cards, strict=True)):
                sprite = self.cards[card]
                place = layout.trick_place(seat, i)
                if not sprite.visible:
                    sprite.place(*layout.hand_origin(seat), 0, self.card_scale)
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
                ox, oy = layout.hand_origin(seat)
            else:
                ox, oy = layout.deck_origin()
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
            ox, oy = layout.deck_origin()
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

    def rebuild_sprite_list(self, extra: list[int]) -> None:
        """The draw order: face-down cards, then cards by their ``z``."""
        wanted: list[CardSprite] = [s for s in self.backs.values() if s.visible or s.motions]
        wanted += [self.cards[c] for c in self.shown]
        wanted += [self.cards[c] for c in extra]
        wanted.sort(key=lambda s: s.z)
        self.sprites = wanted
        self.compose()

    # --- lights ------------------------------------------------------------------------------

    def highlight(
        self,
        view: View | None,
        my_turn: bool,
        hint_card: int | None,
        marks: Sequence[tuple[int, Colour]] = (),
        focus_card: int | None = None,
    ) -> None:
        """When ``my_turn`` (the person is to play), light the legal cards (a halo drawn
        in their texture) and dim the others; light the proposed card during the
        bidding, ``hint_card`` (a frame over it) and ``focus_card`` (the keyboard's
        focus: a frame of its own, unless it is the hint's card); ``marks`` are cards
        glowing in a colour of their own (the Review screen's card played, a card just
        turned)."""
        self.glow_cards = []
        if view is None:
            self.compose()
            return
        hand = view.hand
        for card, sprite in self.cards.items():
            mine = bool(hand >> card & 1)
            legal = mine and bool(view.legal >> card & 1)
            dim = my_turn and mine and not legal
            sprite.show_face(sprite.face_up, None, my_turn and legal, dim)
        if view.phase == "bidding" and view.turnup is not None and view.turnup in self.shown:
            self.glow_cards.append((view.turnup, PROPOSAL_COLOUR))
        self.glow_cards.extend(marks)
        if hint_card is not None:
            self.glow_cards.append((hint_card, HINT_COLOUR))
        if focus_card is not None and focus_card != hint_card:
            self.glow_cards.append((focus_card, FOCUS_COLOUR))
        under = [(card, c) for card, c in self.glow_cards if c not in FRAMES]
        over = [(card, c) for card, c in self.glow_cards if c in FRAMES]
        self.glow_cards = [*under, *over]
        scale = self.card_scale
        self.glows.replace([arcade.Sprite(glow_texture(c), scale=scale) for _, c in under])
        self.rings.replace([arcade.Sprite(ring_texture(c), scale=scale) for _, c in over])
        self.compose()
        self.sync_glows()

    def sync_glows(self) -> None:
        """The glows follow their cards (a few attribute copies per frame)."""
        glows = [*self.glows, *self.rings]  # in the order of glow_cards
        for glow, (card, _) in zip(glows, self.glow_cards, strict=False):
            sprite = self.cards[card]
            glow.visible = sprite.visible and not sprite.busy
            glow.position = sprite.position
            glow.scale = sprite.scale
            glow.angle = sprite.angle
