"""Card sprites and the textures of the table.

The card faces and backs are the images that ship with arcade
(``:resources:images/cards/cardHearts10.png``).  A :class:`CardSprite` shows one card,
or a face-down card (no face), and animates itself: it slides to a place, turns over
(the flip: its width shrinks to nothing, the face replaces the back, the width grows
back), and may hide itself at the end of a move.

Every texture is drawn once with Pillow.  A card's shadow, the face-down card under it
(Découverte's piles) and the halo of a card that may be played are drawn *into* its
texture (four variants a card): a software renderer pays for every pixel of every
sprite, and one sprite a card is half the pixels of two.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass
from functools import cache

import arcade
from atout.core.cards import RANKS
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import Card
from PIL import Image
from PIL import ImageChops
from PIL import ImageDraw
from PIL import ImageFilter
from PIL import ImageFont

from ..cards_text import show_card
from . import theme

SUIT_FILES = ("Clubs", "Diamonds", "Hearts", "Spades")
BACK_FILE = ":resources:images/cards/cardBack_red2.png"


def card_file(card: Card) -> str:
    """The arcade resource of ``card``'s face."""
    rank = RANKS[card & 7]
    return f":resources:images/cards/card{SUIT_FILES[card >> 3]}{rank}.png"


PAD = 8
"""Transparent margin round a card image, where its shadow falls."""
UNDER = (17, 14)
"""Where a face-down card lies under a face-up one (image pixels right and down): its
edge shows as a red L below and right of the card (see :func:`under_image`)."""
PAD_UNDER = 24
"""The margin of a card lying on a face-down card (room for the face-down card's edge)."""
UNDER_RED = (201, 63, 63, 255)
"""The red of the card backs' pattern, which fills a covered card's visible edge."""
UNDER_EDGE = (70, 16, 16, 255)
"""The dark outline of the face-down card under a face-up one."""
PAD_LIT = 16
"""The margin of a lit card (room for its halo)."""


def _shadow_of(card: Image.Image, size: tuple[int, int], at: tuple[int, int]) -> Image.Image:
    alpha = card.getchannel("A").point(lambda a: a * theme.SHADOW[3] // 255)
    shadow = Image.new("RGBA", card.size, (*theme.SHADOW[:3], 0))
    shadow.putalpha(alpha)
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    layer.paste(shadow, (at[0] + 3, at[1] + 4))
    return layer.filter(ImageFilter.GaussianBlur(2))


def with_shadow(
    image: Image.Image, beneath: Image.Image | None = None, lit: bool = False
) -> Image.Image:
    """The card image on a margin with a soft shadow below and right of it; with
    ``beneath``, lying on that card (a face-down card whose edge shows below right);
    ``lit``, in a golden halo (a card that may be played now).

    Drawing the shadow, the face-down card and the halo in the card's own texture costs
    nothing per frame: separate sprites would double the pixels a software renderer
    fills.  The card stays in the middle of the image in every variant.
    """
    card = image.convert("RGBA")
    w, h = card.size
    pad = PAD_UNDER if beneath is not None else PAD_LIT if lit else PAD
    size = (w + 2 * pad, h + 2 * pad)
    out = Image.new("RGBA", size, (0, 0, 0, 0))
    if lit:
        halo = Image.new("RGBA", size, (0, 0, 0, 0))
        ImageDraw.Draw(halo).rounded_rectangle(
            (pad - 9, pad - 9, pad + w + 8, pad + h + 8), 16, fill=theme.GOLD
        )
        out = Image.alpha_composite(out, halo.filter(ImageFilter.GaussianBlur(4)))
    if beneath is not None:
        under = beneath.convert("RGBA")
        at = (pad + UNDER[0], pad + UNDER[1])
        out = Image.alpha_composite(out, _shadow_of(under, size, at))
        out.alpha_composite(under, at)
    out = Image.alpha_composite(out, _shadow_of(card, size, (pad, pad)))
    out.alpha_composite(card, (pad, pad))
    return out


@cache
def _image(path: str) -> Image.Image:
    return arcade.load_texture(path).image


@cache
def under_image() -> Image.Image:
    """The face-down card drawn under a face-up one: the back with its white margin
    painted red and a dark outline, so that the edge that shows is a solid red L (the
    plain back's edge is mostly white margin: a covered pile looked like a lone card)."""
    image = _image(BACK_FILE).convert("RGBA").copy()
    w, h = image.size
    d = ImageDraw.Draw(image)
    d.rounded_rectangle((1, 1, w - 2, h - 2), 8, outline=UNDER_RED, width=7)
    d.rounded_rectangle((0, 0, w - 1, h - 1), 8, outline=UNDER_EDGE, width=2)
    return image


@cache
def legend_texture() -> arcade.Texture:
    """A blank card lying on a face-down card: the table's legend of a covered pile."""
    w, h = theme.CARD_W, theme.CARD_H
    blank = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(blank).rounded_rectangle(
        (0, 0, w - 1, h - 1), 10, fill=(255, 255, 255, 255), outline=(187, 187, 187, 255), width=2
    )
    return _texture(with_shadow(blank, under_image()), "atout-legend-covered")


COURT_INK = {"red": (200, 48, 48, 255), "black": (34, 34, 40, 255)}
"""The colour of a court card's picture (the colours of arcade's indices)."""


def court_ink(suit: int) -> tuple[int, int, int, int]:
    """The ink of a court card's picture: arcade's red or black, or the four-colour
    deck's ink of the suit (:func:`~atout.ui.window.theme.suit_ink`)."""
    if theme.four_colour():
        return theme.suit_ink(suit)
    return COURT_INK["red" if SUIT_FILES[suit] in ("Hearts", "Diamonds") else "black"]


def recoloured(image: Image.Image, suit: int) -> Image.Image:
    """Arcade's face of a card of ``suit`` in the four-colour deck's ink: the ink (red
    for diamonds, black for clubs) painted in the suit's colour, its anti-aliased
    edges in proportion; the white paper and the rest unchanged.  Hearts and spades
    keep arcade's red and black."""
    if suit not in (0, 1):  # clubs, diamonds
        return image
    red, green, blue, alpha = image.split()
    if suit == 1:  # how red a pixel is: arcade's red ink (200, 48, 48) is all ink
        ink = ImageChops.subtract(red, green).point(lambda v: min(255, v * 255 // 150))
    else:  # how dark: arcade's black ink is all ink, its grey border none
        darkest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
        ink = darkest.point(lambda v: 255 if v < 60 else max(0, (160 - v) * 255 // 100))
    painted = Image.new("RGBA", image.size, theme.suit_ink(suit))
    out = Image.composite(painted, image, ink)
    out.putalpha(alpha)
    return out


COURT_PAPER = (252, 247, 232, 255)
DIM_WASH = (150, 150, 150, 255)
"""The grey a card that may not be played is washed with (40%): red stays red, not
maroon, and every ink keeps its contrast with the paper."""


def _font(name: str, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A font of the machine (DejaVu ships with the tables' fonts), else Pillow's own."""
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size)


def court_picture(rank: str, suit: int, letter: str = "") -> Image.Image:
    """The middle picture of a jack, queen or king, drawn here (arcade's faces give all
    three one crown): a framed panel with the rank's headgear (a crown for the king, a
    pearl tiara for the queen, a feathered cap for the jack), its letter large and the
    suit below (``letter``: the rank's letter in the language shown, ``rank`` by default).
    Drawn at four times the size and scaled down (smooth edges); 68x116."""
    k = 4
    w, h = 68 * k, 116 * k
    ink = court_ink(suit)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (2 * k, 2 * k, w - 2 * k, h - 2 * k), 8 * k, fill=COURT_PAPER, outline=ink, width=2 * k
    )
    cx = w // 2
    top = 10 * k
    if rank == "K":  # a crown: a band and three points, each with a ball
        d.rectangle((cx - 20 * k, top + 24 * k, cx + 20 * k, top + 30 * k), fill=ink)
        d.polygon(
            [
                (cx - 20 * k, top + 24 * k),
                (cx - 22 * k, top + 6 * k),
                (cx - 10 * k, top + 16 * k),
                (cx, top + 2 * k),
                (cx + 10 * k, top + 16 * k),
                (cx + 22 * k, top + 6 * k),
                (cx + 20 * k, top + 24 * k),
            ],
            fill=ink,
        )
        for x, y in ((cx - 22 * k, top + 5 * k), (cx, top + 1 * k), (cx + 22 * k, top + 5 * k)):
            d.ellipse((x - 3 * k, y - 3 * k, x + 3 * k, y + 3 * k), fill=ink)
    elif rank == "Q":  # a tiara: an arch of pearls over a thin band
        d.rounded_rectangle((cx - 19 * k, top + 24 * k, cx + 19 * k, top + 29 * k), 2 * k, fill=ink)
        for i in range(7):
            x = cx + (i - 3) * 6 * k
            y = top + 22 * k - (9 - abs(i - 3) * 3) * k
            r = (3 if i != 3 else 5) * k
            d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=2 * k, fill=COURT_PAPER)
    else:  # the jack's cap: a beret with a long feather
        d.chord((cx - 20 * k, top + 8 * k, cx + 16 * k, top + 44 * k), 180, 360, fill=ink)
        d.rectangle((cx - 20 * k, top + 25 * k, cx + 16 * k, top + 29 * k), fill=ink)
        d.line(
            [(cx + 8 * k, top + 14 * k), (cx + 18 * k, top + 4 * k), (cx + 26 * k, top + 1 * k)],
            fill=ink,
            width=3 * k,
        )
        d.ellipse((cx + 20 * k, top - 1 * k, cx + 28 * k, top + 5 * k), fill=ink)
    big = _font("DejaVuSerif-Bold.ttf", 46 * k)
    d.text((cx, top + 62 * k), letter or rank, font=big, fill=ink, anchor="mm")
    symbol = _font("DejaVuSans.ttf", 22 * k)
    d.text((cx, top + 93 * k), SUIT_SYMBOLS[suit], font=symbol, fill=ink, anchor="mm")
    return img.resize((68, 116), Image.Resampling.LANCZOS)


CORNER = (10, 10, 34, 37)
"""Where arcade's face writes the rank's letter in the top-left corner (the bottom-right
one is the same turned over)."""


def rank_letter(card: Card) -> str:
    """The letter of ``card``'s rank as the language shown writes it (French R D V,
    German K D B for king, queen, jack): the card's text without its suit."""
    return show_card(card)[: -len(SUIT_SYMBOLS[card >> 3])]


def corner_letter(image: Image.Image, letter: str) -> None:
    """Write ``letter`` over arcade's index letter, in both corners, in its ink."""
    left, top, right, bottom = CORNER
    box = image.crop(CORNER)
    ink = min(box.getdata(), key=lambda p: p[0] + p[1] + p[2])  # the index's darkest ink
    patch = Image.new("RGBA", (right - left, bottom - top), (255, 255, 255, 255))
    d = ImageDraw.Draw(patch)
    font = _font("DejaVuSerif-Bold.ttf", 25 if len(letter) < 2 else 15)
    d.text(((right - left) / 2, (bottom - top) / 2), letter, font=font, fill=ink, anchor="mm")
    image.paste(patch, (left, top))
    w, h = image.size
    image.paste(patch.rotate(180), (w - right, h - bottom))


def face_image(card: Card, letter: str = "") -> Image.Image:
    """The face of ``card``: arcade's image, with a picture of its own for a court card;
    ``letter``, the rank's letter in the language shown, replaces arcade's English one
    in the corners when it differs (a French queen is a D)."""
    image = _image(card_file(card)).convert("RGBA")
    if theme.four_colour():
        image = recoloured(image, card >> 3)
    rank = RANKS[card & 7]
    if rank not in ("J", "Q", "K"):
        return image
    image = image.copy()
    d = ImageDraw.Draw(image)
    d.rectangle((34, 34, 106, 156), fill=(255, 255, 255, 255))
    d.rectangle((22, 60, 118, 128), fill=(255, 255, 255, 255))
    image.alpha_composite(court_picture(rank, card >> 3, letter), (36, 37))
    if letter and letter != rank:
        corner_letter(image, letter)
    return image


def dimmed(image: Image.Image) -> Image.Image:
    """A card that may not be played now: washed with grey, its inks' hues kept."""
    wash = Image.new("RGBA", image.size, DIM_WASH)
    out = Image.blend(image, wash, 0.4)
    out.putalpha(image.getchannel("A"))
    return out


def face_texture(
    card: Card, covered: bool = False, lit: bool = False, dim: bool = False
) -> arcade.Texture:
    """The face of ``card`` with its shadow (made once for each language's letters);
    ``covered``: lying on a face-down card; ``lit``: in the halo of a card that may be
    played; ``dim``: washed grey, a card that may not be played now."""
    return _face_texture(card, covered, lit, dim, rank_letter(card), theme.four_colour())


@cache
def _face_texture(
    card: Card, covered: bool, lit: bool, dim: bool, letter: str, four: bool
) -> arcade.Texture:
    beneath = under_image() if covered else None
    image = face_image(card, letter)
    if dim:
        image = dimmed(image)
    name = f"atout-face-{card}-{letter}{'-covered' if covered else ''}{'-lit' if lit else ''}"
    name += ("-dim" if dim else "") + ("-four" if four else "")
    return _texture(with_shadow(image, beneath, lit), name)


@cache
def back_texture() -> arcade.Texture:
    """The back of every card, with its shadow."""
    return _texture(with_shadow(_image(BACK_FILE)), "atout-back")


def _texture(image: Image.Image, name: str) -> arcade.Texture:
    return arcade.Texture(image, hash=name, hit_box_algorithm=arcade.hitbox.algo_bounding_box)


@cache
def rounded_texture(
    width: int,
    height: int,
    radius: int,
    fill: tuple[int, int, int, int],
    outline: tuple[int, int, int, int] | None = None,
    outline_width: int = 0,
) -> arcade.Texture:
    """A rounded rectangle (drawn at twice the size and scaled down: smooth corners)."""
    k = 2
    img = Image.new("RGBA", (width * k, height * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (0, 0, width * k - 1, height * k - 1),
        radius=radius * k,
        fill=fill,
        outline=outline,
        width=outline_width * k,
    )
    img = img.resize((width, height), Image.Resampling.LANCZOS)
    name = f"atout-rr-{width}-{height}-{radius}-{fill}-{outline}-{outline_width}"
    return _texture(img, name)


@cache
def glow_texture(colour: tuple[int, int, int, int] = theme.GOLD) -> arcade.Texture:
    """A soft halo the size of a card plus a margin: drawn under a card to light it."""
    margin = 30
    w, h = theme.CARD_W + 2 * margin, theme.CARD_H + 2 * margin
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (margin - 14, margin - 14, w - margin + 13, h - margin + 13), 22, fill=colour
    )
    img = img.filter(ImageFilter.GaussianBlur(7))
    return _texture(img, f"atout-glow-{colour}")


@cache
def ring_texture(colour: tuple[int, int, int, int]) -> arcade.Texture:
    """A bright frame round a card, drawn *over* the cards: the hint's mark, which a
    card's own halo (drawn in its texture) cannot hide."""
    margin = 30
    w, h = theme.CARD_W + 2 * margin, theme.CARD_H + 2 * margin
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box = (margin - 16, margin - 16, w - margin + 15, h - margin + 15)
    draw.rounded_rectangle(box, 22, outline=(255, 255, 255, 255), width=16)
    glow = img.filter(ImageFilter.GaussianBlur(5))
    ring = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(ring).rounded_rectangle(box, 22, outline=colour, width=10)
    tinted = Image.new("RGBA", (w, h), colour)
    tinted.putalpha(glow.getchannel("A"))
    return _texture(Image.alpha_composite(tinted, ring), f"atout-ring-{colour}")


_warming: list[threading.Thread] = []
_preloaded: weakref.WeakSet[arcade.Window] = weakref.WeakSet()


def all_card_textures() -> list[arcade.Texture]:
    """Every card texture the tables use (made on the first call, then cached)."""
    textures = [back_texture()]
    for card in range(32):
        for covered in (False, True):
            for lit in (False, True):
                textures.append(face_texture(card, covered, lit))
            textures.append(face_texture(card, covered, dim=True))
    return textures


def warm_textures() -> None:
    """Start drawing the card textures with Pillow on a background thread (Pillow lets
    other threads run while it works), so that the first table opens at once."""
    if not _warming:
        thread = threading.Thread(target=all_card_textures, name="atout-textures", daemon=True)
        _warming.append(thread)
        thread.start()


def preload_textures(window: arcade.Window) -> None:
    """Make every card texture now and put it in the window's texture atlas, so that no
    frame of the game pays for drawing a texture with Pillow or uploading it."""
    if window in _preloaded:
        return
    for thread in _warming:
        thread.join()
    atlas = window.ctx.default_atlas
    for texture in all_card_textures():
        atlas.add(texture)
    _preloaded.add(window)


def ease(p: float) -> float:
    """Ease-out cubic: fast start, gentle landing."""
    p = min(1.0, max(0.0, p))
    return 1 - (1 - p) ** 3


@dataclass
class Motion:
    """One move of a sprite: from where it is when the move starts to ``(x, y)``.

    ``start`` is a time on the table's clock; ``flip`` turns the card face up half-way;
    ``hide`` makes the sprite invisible when the move ends (a trick taken away).
    """

    start: float
    duration: float
    x: float
    y: float
    angle: float = 0.0
    scale: float | None = None
    flip: bool = False
    hide: bool = False
    x0: float | None = None
    y0: float | None = None
    angle0: float = 0.0
    scale0: float = 1.0


class CardSprite(arcade.Sprite):
    """A card on the table: a face (``card``) or a face-down card (``card`` is None).

    ``face_up`` says which texture shows.  ``motions`` is a queue of moves played in
    order by :meth:`animate`; :meth:`finish` ends them all at once.
    """

    def __init__(self, card: Card | None, scale: float) -> None:
        texture = back_texture() if card is None else face_texture(card)
        super().__init__(texture, scale=scale)
        self.card = card
        self.face_up = card is not None
        self.covered = False
        self.lit = False
        self.dim = False
        self.base_scale = scale
        self.motions: list[Motion] = []
        self.z = 0

    def show_face(
        self,
        up: bool,
        covered: bool | None = None,
        lit: bool | None = None,
        dim: bool | None = None,
    ) -> None:
        """Show the face (``True``) or the back of the card; ``covered``: the face lies
        on a face-down card; ``lit``: in a halo; ``dim``: washed grey (``None`` keeps
        what it was)."""
        if self.card is None:
            up = False
        covered = self.covered if covered is None else covered
        lit = self.lit if lit is None else lit
        dim = self.dim if dim is None else dim and not lit
        changed = (up, covered, lit, dim) != (self.face_up, self.covered, self.lit, self.dim)
        if changed:
            self.face_up = up
            self.covered = covered
            self.lit = lit
            self.dim = dim
            if up and self.card is not None:
                self.texture = face_texture(self.card, covered, lit, dim)
            else:
                self.texture = back_texture()
            self.scale = self.base_scale

    @property
    def busy(self) -> bool:
        """Whether a move is under way or waiting."""
        return bool(self.motions)

    def place(self, x: float, y: float, angle: float = 0.0, scale: float | None = None) -> None:
        """Put the card at once where it belongs (no animation)."""
        self.motions.clear()
        self.center_x, self.center_y = x, y
        self.angle = angle
        if scale is not None and scale != self.base_scale:
            self.base_scale = scale
        self.scale = self.base_scale

    def move(self, motion: Motion) -> None:
        """Queue a move."""
        self.motions.append(motion)

    def animate(self, now: float) -> None:
        """Advance the queued moves to the time ``now``."""
        while self.motions:
            m = self.motions[0]
            if now < m.start:
                return
            if m.x0 is None or m.y0 is None:
                m.x0, m.y0, m.angle0 = self.center_x, self.center_y, self.angle
                m.scale0 = self.base_scale
                self.visible = True
            p = 1.0 if m.duration <= 0 else (now - m.start) / m.duration
            if p >= 1.0:
                self._end(m)
                self.motions.pop(0)
                continue
            e = ease(p)
            self.center_x = m.x0 + (m.x - m.x0) * e
            self.center_y = m.y0 + (m.y - m.y0) * e
            self.angle = m.angle0 + (m.angle - m.angle0) * e
            target_scale = m.scale if m.scale is not None else m.scale0
            s = m.scale0 + (target_scale - m.scale0) * e
            if m.flip:
                if p >= 0.5 and not self.face_up:
                    self.show_face(True)
                width = abs(math.cos(p * math.pi))
                self.scale = (max(0.02, s * width), s)
            else:
                self.scale = s
            return

    def _end(self, m: Motion) -> None:
        self.center_x, self.center_y, self.angle = m.x, m.y, m.angle
        if m.scale is not None:
            self.base_scale = m.scale
        if m.flip:
            self.show_face(True)
        self.scale = self.base_scale
        if m.hide:
            self.visible = False

    def finish(self) -> None:
        """End every queued move at once."""
        for m in self.motions:
            self._end(m)
        self.motions.clear()

    def contains(self, x: float, y: float) -> bool:
        """Whether the logical point ``(x, y)`` lies on the card (its unrotated rectangle)."""
        if not self.visible:
            return False
        w = theme.CARD_W * self.base_scale / 2
        h = theme.CARD_H * self.base_scale / 2
        if abs(self.angle) > 45:
            w, h = h, w
        return abs(x - self.center_x) <= w and abs(y - self.center_y) <= h
