"""What a player sees first: the hint's frame, the marks of the trump, the taker and the
dealer, the court cards' pictures, a dimmed card's colours, the end-of-deal panel."""

from __future__ import annotations

import pytest
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import parse_card
from atout.ui.window import sprites
from atout.ui.window.app import App
from atout.ui.window.board import HINT_COLOUR
from atout.ui.window.gallery import person_to
from atout.ui.window.gallery import play_out
from atout.ui.window.gallery import run_until
from atout.ui.window.gallery import start
from atout.ui.window.sprites import CORNER
from atout.ui.window.sprites import dimmed
from atout.ui.window.sprites import face_image
from PIL import Image
from PIL import ImageChops

pytestmark = pytest.mark.ui


def test_the_hint_is_framed_over_the_lit_card_it_suggests(app: App) -> None:
    """The hint's frame is drawn over the cards: the pixels just outside the suggested
    card are the hint's blue, not the golden halo of a card that may be played."""
    table = start(app, "belote")
    app.hint_bot = "greedy"
    app.speed = 0.0
    while not person_to(table, "play"):
        assert run_until(table, lambda: person_to(table, "bidding") or person_to(table, "play"))
        view = table.view
        if view is not None and view.phase == "bidding":
            table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])
    table.driver.ask_hint()
    assert run_until(table, lambda: table.hint is not None, frames=400)
    assert table.hint is not None and table.hint.kind == "play"
    table.on_draw()
    image = app.snapshot()
    sprite = table.board.cards[table.hint.value]
    assert sprite.lit  # a legal card, in its own halo
    x, y = app.to_window(sprite.center_x, sprite.top + 3)
    pixel = image.getpixel((int(x), int(image.height - y)))
    assert isinstance(pixel, tuple)
    r, _, b = pixel[:3]
    assert b > r + 60 and b > 150, f"the hint's frame is not seen above the card: {pixel}"
    assert (table.hint.value, HINT_COLOUR) in table.board.glow_cards


def test_trump_taker_and_dealer_are_marked_at_the_table(app: App) -> None:
    for game in ("decouverte", "belote"):
        table = start(app, game)
        app.speed = 0.0
        while not person_to(table, "play"):
            assert run_until(table, lambda t=table: person_to(t, "bidding") or person_to(t, "play"))
            view = table.view
            if view is not None and view.phase == "bidding":
                table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])
        table.on_draw()
        view = table.view
        assert view is not None and view.contract is not None
        contract = view.contract
        panel = table.status_panel
        assert panel.trump_plate.visible and panel.trump_mark.visible
        if contract.trump is not None:
            assert panel.trump_mark.text == SUIT_SYMBOLS[contract.trump]
        shown = {
            seat: [t.text for p, t in badges if t.visible] for seat, badges in panel.badges.items()
        }
        assert "Dealer" in shown[view.dealer]
        assert any(w.startswith("Takes") for w in shown[contract.taker])
        others = [s for s in shown if s not in (view.dealer, contract.taker)]
        assert all(not shown[s] for s in others)


def test_jack_queen_and_king_have_pictures_of_their_own() -> None:
    for suit in "CDHS":
        j, q, k = (face_image(parse_card(rank + suit)) for rank in "JQK")
        for a, b in ((j, q), (q, k), (j, k)):
            diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).crop(
                (36, 40, 104, 150)
            )
            assert diff.getbbox() is not None
            histogram = diff.convert("L").point(lambda v: 255 if v > 60 else 0).histogram()
            assert histogram[255] > 300, "the middle pictures hardly differ"


def corner(image: Image.Image, turned: bool = False) -> Image.Image:
    """A corner's index of a card face (``turned``: the bottom-right one, turned over)."""
    left, top, right, bottom = CORNER
    if turned:
        w, h = image.size
        return image.crop((w - right, h - bottom, w - left, h - top)).rotate(180)
    return image.crop(CORNER)


def test_court_cards_show_the_languages_letters_in_their_corners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A French queen is a D: both corners and the middle picture say so, in the ink of
    arcade's index, while the English faces keep arcade's own corners; a card's texture
    is made again for the letters of the language shown."""
    queen = parse_card("QH")
    english = face_image(queen).convert("RGB")
    french = face_image(queen, "D").convert("RGB")
    arcade_face = Image.open(sprites.arcade.resources.resolve(sprites.card_file(queen)))
    assert (
        ImageChops.difference(corner(english), corner(arcade_face.convert("RGB"))).getbbox() is None
    )
    assert ImageChops.difference(corner(english), corner(french)).getbbox() is not None
    assert ImageChops.difference(corner(french), corner(french, turned=True)).getbbox() is None
    reds = [p for p in corner(french).getdata() if p[0] > 150 and p[1] < 110 and p[2] < 110]
    assert len(reds) > 40, "the new letter is not in the index's red"
    before = sprites.face_texture(queen)
    monkeypatch.setattr(sprites, "rank_letter", lambda card: "D")
    assert sprites.face_texture(queen) is not before
    monkeypatch.undo()
    assert sprites.face_texture(queen) is before


def test_a_dimmed_red_card_stays_red_and_readable() -> None:
    """Washed, not darkened: the hearts of a dimmed card stay a clear red (not maroon)
    and stand out from its paper."""
    image = dimmed(face_image(parse_card("8H"))).convert("RGB")
    pixels = list(image.getdata())
    reds = [p for p in pixels if p[0] > p[1] + 50]
    assert len(reds) > 500
    r = sum(p[0] for p in reds) / len(reds)
    g = sum(p[1] for p in reds) / len(reds)
    assert r >= 150 and r - g >= 60, (r, g)
    paper = image.getpixel((70, 20))
    assert isinstance(paper, tuple) and min(paper) - g > 80


def test_the_end_of_deal_panel_says_what_the_game_scores_and_keeps_the_table_quiet(
    app: App,
) -> None:
    """A Découverte deal without declarations has no row of zeros; the record is named,
    not its whole path; Hint and Undo are off while the panel is up."""
    table = start(app, "decouverte")
    app.speed = 0.0
    assert table.match.rules.get("declarations") != "on"
    play_out(table)
    assert table.stage in ("deal_over", "match_over")
    texts = [t.text for t in table.deal_panel.texts]
    assert not any(t.startswith("Declarations") for t in texts)
    assert table.deal_path is not None
    assert f"Record: {table.deal_path.name}" in texts
    assert not any(str(table.deal_path.parent) in t for t in texts)
    for name in ("hint", "undo"):
        button = table.buttons.find(name)
        assert button is not None and not button.enabled


def test_the_gallery_writes_every_screen(app: App, tmp_path: object) -> None:
    """``atout play --screenshots`` writes a PNG per screen and size."""
    from pathlib import Path

    from atout.ui.window.gallery import write_gallery

    folder = Path(str(tmp_path)) / "shots"
    written = write_gallery(folder, ((1280, 720),), engine=app.engine)
    names = {p.name for p in written}
    for game in ("decouverte", "belote"):
        for stop in ("bidding", "play-hint", "deal-over", "match-over"):
            assert f"{game}-{stop}-1280x720.png" in names
    with Image.open(written[0]) as image:
        assert image.size == (1280, 720)


def test_in_the_second_round_the_persons_first_bid_gives_way_to_the_buttons(app: App) -> None:
    """The bubble of the person's first-round pass would stand by the second round's
    buttons: it goes when they come; the other seats' passes stay."""
    from atout.ui.cards_text import HUMAN
    from atout.ui.window.gallery import deal_screens

    app.speed = 0.0
    app.hint_bot = "greedy"
    for game in ("decouverte", "belote"):
        table = start(app, game)
        for screen in deal_screens(app, table, game):
            if screen.name.endswith("bidding-round-2"):
                break
        else:
            pytest.fail(f"no second round in the seeded {game} deal")
        table.on_draw()
        panel = table.status_panel
        assert table.input.bid_buttons.buttons
        assert not panel.bubble_labels[HUMAN].visible
        others = [s for s in range(table.seats) if s != HUMAN]
        assert all(panel.bubble_labels[s].visible for s in others)
        app.leave_table()
