"""The start view's two columns: the match's settings (the game, the bots, the target
score and the seed, the bots' speed) and the house rules (the list of packs, paged, and
the chosen pack's description), with the view's buttons around them.

:func:`build_columns` lays them out for a :class:`~atout.ui.window.frame.Frame` from the
choices they offer and the callbacks their buttons call, so this module knows nothing
of :class:`~atout.ui.window.start_view.StartView`; the view fills their texts in
(:meth:`~atout.ui.window.start_view.StartView.refresh`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import arcade
from atout.core import BotInfo
from atout.core import Engine
from atout.core.packs import PackInfo

from ..i18n import _
from ..messages import shown
from ..messages import shown_pack
from . import theme
from .frame import Frame
from .start_rows import DESCRIPTION
from .start_rows import PACK_PITCH
from .start_rows import add_match_buttons
from .start_rows import add_page_arrows
from .start_rows import fitted_row
from .start_rows import tallest
from .widgets import Button
from .widgets import ButtonRow
from .widgets import Layer
from .widgets import shrink_to

HEADING = 15
TARGET_STEP = 100
BOX = (8, 40, 24, 215)
BOX_EDGE = (255, 255, 255, 40)
SEED_BOX = (250, 248, 240, 255)

Action = Callable[[], None]


def pack_text(pack: PackInfo) -> str:
    """A pack in words under the list: its title and name (what ``--pack`` takes), what
    it changes, and where its file is unless shipped."""
    where = _(" (from {path})").format(path=pack.path) if pack.origin != "shipped" else ""
    title = shown_pack(pack.title, pack.origin)
    named = f"{title} ({pack.name})" if title else pack.name
    described = shown_pack(pack.description, pack.origin)
    return _("{name}: {description}").format(name=named, description=described) + where


def bot_text(bot: BotInfo) -> str:
    """A bot's level in words: its title, its name (what ``--bot`` takes), what it does."""
    title = shown(bot.title)
    named = f"{title} ({bot.name})" if bot.title and bot.title.lower() != bot.name else ""
    named = named or title or bot.name
    return _("{name}: {description}").format(name=named, description=shown(bot.description))


@dataclass(frozen=True)
class ColumnActions:
    """What the columns' buttons call (the start view's methods)."""

    select_game: Callable[[str], None]
    select_bot: Callable[[str], None]
    toggle_signals: Action
    """Turn the bots' signals on or off (the setting ``bot_signals``)."""
    step_target: Callable[[int], None]
    focus_seed: Action
    set_speed: Callable[[str], None]
    own_rules: Action
    page: Callable[[int], None]
    """A page of the pack list up (-1) or down (1)."""
    new_match: Action
    continue_match: Action
    with_people: Action
    settings: Action
    kept: Action


@dataclass(frozen=True)
class Columns:
    """The columns as built: their plates, texts and buttons, the texts the view fills
    in, and where the pack list's rows go."""

    layer: Layer
    buttons: ButtonRow
    boxes: list[arcade.Rect]
    """The two panels: the match's settings, the house rules."""
    game_text: arcade.Text
    bot_text: arcade.Text
    target_text: arcade.Text
    seed_box: Button
    pack_page_text: arcade.Text
    pack_text: arcade.Text
    message: arcade.Text
    pack_list: tuple[int, float, float, int]
    """The pack list: its rows, the middle of its first row, its middle ``x`` and its
    width."""


def build_columns(
    frame: Frame,
    engine: Engine,
    choices: tuple[list[str], list[str], list[PackInfo]],
    message: str,
    actions: ColumnActions,
    learn: Callable[[Layer, ButtonRow, float, float, float], None],
) -> Columns:
    """Every plate, text and button of the start view, laid out for ``frame``:
    ``choices`` are the games, the bots of the chosen game and its packs; ``message``
    the line under the columns; ``learn`` adds the row of learning buttons (its layer,
    its row of buttons, the width, the height of their middle, the margin).

    Each column is laid out from its top: a heading, its controls, the description
    of the choice in the room the longest description needs, then the next one."""
    games, bots, packs = choices
    w, h = frame.width, frame.height
    layer = Layer()
    b = ButtonRow()
    gold = theme.GOLD
    margin, gap = (48.0, 24.0) if w >= 1200 else (24.0, 20.0)
    col = (w - 2 * margin - gap) / 2
    left_x = margin + 28
    right_x = margin + col + gap + 28
    inner = col - 56
    box_top, box_bottom = h - 128, 108.0
    boxes = [
        arcade.LRBT(margin, margin + col, box_bottom, box_top),
        arcade.LRBT(margin + col + gap, w - margin, box_bottom, box_top),
    ]
    """The two panels: the match's settings, the house rules."""
    for box in boxes:
        layer.plate(box, BOX, BOX_EDGE, 16, 2)
    mid = w / 2
    layer.text("atout", mid, h - 70, 44, gold, anchor_x="center", bold=True)
    tagline = layer.text(
        _("Belote Découverte for two · Belote and La Coinche for four · house rules · bots"),
        mid,
        h - 104,
        14,
        theme.CREAM,
        anchor_x="center",
    )
    # between the corner buttons (settings and rules at the left, the kept matches
    # and the guided deal at the right): smaller, else left out on a narrow window
    room = 2 * min(mid - (margin + 170), (w - margin - 250) - mid)
    if not shrink_to(tagline, room):
        tagline.text = ""
    x = left_x
    y = box_top - 38
    layer.text(_("Game"), x, y, HEADING, gold, bold=True)
    y -= 34
    infos = [engine.game(game) for game in games]
    long = [_("{game} · {seats} players").format(game=shown(i.title), seats=i.seats) for i in infos]
    probe = Layer()
    need = sum(probe.text(t, 0, 0, 13, bold=True).content_width + 46 for t in long)
    titles = long if need <= inner else [shown(i.title) for i in infos]
    rows = fitted_row(
        layer,
        b,
        x,
        y,
        (120, 34),
        8,
        [
            (title, partial(actions.select_game, i.name), f"game:{i.name}")
            for title, i in zip(titles, infos, strict=True)
        ],
        room=inner,
    )
    y -= 30 + (rows - 1) * 42  # more games than one row holds: the next rows
    squeeze = 12 * (rows - 1)
    """What each gap below gives back for the game rows past the first."""
    game_text = layer.text(
        "", x, y, DESCRIPTION, theme.CREAM, width=int(inner), multiline=True, anchor_y="top"
    )
    y -= tallest([shown(i.description) for i in infos], inner) + 34 - squeeze
    layer.text(_("Bots"), x, y, HEADING, gold, bold=True)
    # whether the bots signal, at the heading's right (the view shows it for a game with
    # partners only, and writes its label: the setting is the person's, see .settings)
    signals_w = int(min(190.0, inner / 2))
    b.add(
        Button(
            layer,
            "",
            x + inner - signals_w / 2,
            y + 5,
            signals_w,
            30,
            actions.toggle_signals,
            size=12,
            name="signals",
        )
    )
    y -= 32
    names = bots
    bot_buttons = [
        (shown(engine.bots[bot].title) or bot, partial(actions.select_bot, bot), f"bot:{bot}")
        for bot in names
    ]
    fitted_row(layer, b, x, y, (100, 36), 10, bot_buttons)
    y -= 30
    bot_label = layer.text(
        "", x, y, DESCRIPTION, theme.CREAM, width=int(inner), multiline=True, anchor_y="top"
    )
    described = [bot_text(engine.bots[n]) for n in names]
    y -= tallest(described or [_("No bot plays this game.")], inner) + 34 - squeeze
    layer.text(_("Target score"), x, y, HEADING, gold, bold=True)
    seed_x = x + max(250.0, inner * 0.45)
    layer.text(_("Seed"), seed_x, y, HEADING, gold, bold=True)
    y -= 36
    b.add(Button(layer, "−", x + 24, y, 46, 38, lambda: actions.step_target(-TARGET_STEP), size=18))
    target_text = layer.text(
        "", x + 100, y, 18, theme.WHITE, anchor_x="center", anchor_y="center", bold=True
    )
    b.add(Button(layer, "+", x + 176, y, 46, 38, lambda: actions.step_target(TARGET_STEP), size=18))
    seed_w = min(240, int(margin + col - 28 - seed_x))
    seed_box = b.add(
        Button(
            layer,
            "",
            seed_x + seed_w / 2,
            y,
            seed_w,
            38,
            actions.focus_seed,
            colour=SEED_BOX,
            hover_colour=(255, 255, 255, 255),
            text_colour=theme.INK,
            name="seed",
        )
    )
    y -= 52 - squeeze
    layer.text(_("Speed of the bots"), x, y, HEADING, gold, bold=True)
    y -= 32
    for i, speed in enumerate(theme.SPEEDS):
        b.add(
            Button(
                layer,
                _(speed),
                x + 56 + i * 124,
                y,
                112,
                34,
                partial(actions.set_speed, speed),
                size=12,
                name=f"speed:{speed}",
            )
        )
    # the house rules: a list of packs (paged), the chosen pack's description below
    rx = right_x
    right_edge = w - margin - 28
    y = box_top - 38
    layer.text(_("House rules"), rx, y, HEADING, gold, bold=True)
    pack_page_text = layer.text("", right_edge - 60, y, DESCRIPTION, theme.CREAM, anchor_x="center")
    b.add(
        Button(
            layer,
            _("Your own…  (E)"),
            right_edge - 195,
            y + 5,
            150,
            30,
            actions.own_rules,
            size=12,
            name="own-rules",
        )
    )
    list_top = y - 20
    all_packs = packs
    texts = [pack_text(p) for p in all_packs] or ["x"]
    described_h = tallest(texts, right_edge - rx)
    room = list_top - (box_bottom + 24 + described_h + 16)
    pack_rows = max(3, min(len(all_packs) or 1, int(room // PACK_PITCH)))
    pack_top = list_top - PACK_PITCH / 2
    pack_x = (rx + right_edge - 56) / 2
    pack_width = int(right_edge - 56 - rx)
    arrows_x = right_edge - 20
    bottom = pack_top - (pack_rows - 1) * PACK_PITCH
    add_page_arrows(layer, b, arrows_x, pack_top, bottom, actions.page)
    y = pack_top - (pack_rows - 1) * PACK_PITCH - PACK_PITCH / 2 - 18
    pack_text_label = layer.text(
        "",
        rx,
        y,
        DESCRIPTION,
        theme.CREAM,
        width=int(right_edge - rx),
        multiline=True,
        anchor_y="top",
    )
    add_match_buttons(layer, b, mid, actions.new_match, actions.continue_match, actions.with_people)
    # the settings at the heading's left, the kept matches at its right
    corner_y = h - 44
    b.add(
        Button(
            layer,
            _("Settings  (S)"),
            margin + 80,
            corner_y,
            160,
            36,
            actions.settings,
            size=13,
            name="settings",
        )
    )
    b.add(
        Button(
            layer,
            _("Kept matches"),
            w - margin - 120,
            corner_y,
            240,
            36,
            actions.kept,
            size=13,
            name="kept",
        )
    )
    # learning the game, under them
    learn(layer, b, w, corner_y - 42, margin)
    message_label = layer.text(message, mid, 92, 13, gold, anchor_x="center", anchor_y="center")
    return Columns(
        layer,
        b,
        boxes,
        game_text,
        bot_label,
        target_text,
        seed_box,
        pack_page_text,
        pack_text_label,
        message_label,
        (pack_rows, pack_top, pack_x, pack_width),
    )
