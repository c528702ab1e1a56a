"""La Coinche at the Arcade table: the auction laid out as a grid of values by strains,
built from the engine's description of each bid (no line of the game in ui/), only
legal bids on it, clicked like any button; both tables keep it clear of the cards.  The
bids are said in words wherever the window says them: the Review screen (its lines and
its chips), the hint's line, the side bar's contract (a capot as "capot", even without
its auction)."""

from __future__ import annotations

import pytest
from atout.core.cards import SUIT_SYMBOLS
from atout.core.cards import SUITS
from atout.ui import i18n
from atout.ui.cards_text import bid_spoken
from atout.ui.i18n import set_language
from atout.ui.rules import resolve_rules
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.table import Table
from atout.ui.window.words import contract_name
from test_layout import check
from ui_helpers import click_button
from ui_helpers import human_to_act
from ui_helpers import pump
from ui_helpers import step

pytestmark = pytest.mark.ui

STRAIN_MARKS = {*SUIT_SYMBOLS, "SA", "TA"}
"""What a header of strains may say."""
SMALL_AND_USUAL = ((800, 600), (1280, 720))
"""The smallest window and the usual one."""


def start(app: App, game: str, pack: str, seed: int = 4) -> Table:
    setup = Setup(game=game, pack=pack, bot="random", seed=seed)
    return app.start_match(setup, resolve_rules(app.engine, game, setup.pack, setup.target))


def bidding(table: Table) -> bool:
    """Whether the person is to bid (the deal landed, nothing in flight)."""
    return human_to_act(table) and table.view is not None and table.view.phase == "bidding"


def grid_of(table: Table) -> dict[str, tuple[float, float, str]]:
    """The bid buttons on the table: name -> (x, y, label)."""
    return {
        b.name.removeprefix("bid:"): (b.center[0], b.center[1], b.label.text)
        for b in table.input.bid_buttons.buttons
        if b.visible
    }


@pytest.mark.parametrize(
    ("game", "pack"), [("coinche", "coinche-sans-tout-atout"), ("coinche-decouverte", "")]
)
def test_the_auction_is_a_grid_of_values_by_strains_with_only_legal_bids(
    app: App, game: str, pack: str
) -> None:
    table = start(app, game, pack)
    pump(
        table,
        lambda: human_to_act(table) and table.view is not None and table.view.phase == "bidding",
    )
    view = table.view
    assert view is not None
    grid = grid_of(table)
    assert set(grid) == set(view.legal_bids), "a button for each legal bid, no other"
    headers = {round(t.y): t.text for t in table.input.bids.texts if t.text in STRAIN_MARKS}
    _x80, y80, _label = grid[next(b for b in view.legal_bids if b.endswith(" C"))]
    for bid in view.legal_bids:
        if bid == "pass" or bid.startswith("capot"):
            continue
        value, strain = bid.split()
        x, y, label = grid[bid]
        mark = (
            SUIT_SYMBOLS[SUITS.index(strain)]
            if strain in SUITS
            else {"sans-atout": "SA", "tout-atout": "TA"}[strain]
        )
        # the button says the value and the strain, or the value under its row's header
        # of strains (a grid too wide for the table otherwise)
        assert label == f"{value} {mark}" or (label == value and headers[round(y)] == mark)
        # one column a value (rising to the right), one row a strain
        same_value = grid[f"{value} C"]
        assert x == same_value[0]
        if strain == "C":
            assert y == y80
    assert grid["capot C"][0] > grid["160 C"][0]
    # the buttons stay apart, and inside the felt
    boxes = [(x, y) for x, y, _ in grid.values()]
    assert len(set(boxes)) == len(boxes)
    assert all(0 < x < app.frame.table_right for x, _ in boxes)


def test_a_click_on_the_grid_bids_and_the_grid_follows_the_auction(app: App) -> None:
    table = start(app, "coinche", "coinche", seed=6)
    pump(
        table,
        lambda: human_to_act(table) and table.view is not None and table.view.phase == "bidding",
    )
    view = table.view
    assert view is not None
    assert table.deal is not None
    low = min(
        (b for b in view.legal_bids if b.endswith(" H") and b[0].isdigit()),
        key=lambda b: int(b.split()[0]),
    )
    click_button(app, table.input.bid_buttons.find(f"bid:{low}"))
    assert (0, low) in table.deal.state.bids
    pump(table, lambda: human_to_act(table) or table.deal.state.phase != "bidding")
    view = table.view
    assert view is not None and view.phase == "bidding" and view.turn == 0, "South again"
    grid = grid_of(table)
    assert low not in grid, "a bid at or below the last is not offered"
    assert set(grid) == set(view.legal_bids)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
@pytest.mark.parametrize(
    ("game", "pack"), [("coinche", "coinche-sans-tout-atout"), ("coinche-decouverte", "")]
)
def test_the_auction_and_the_contract_keep_the_layout_rules_at_the_small_and_usual_sizes(
    app: App, language: str, game: str, pack: str
) -> None:
    """The grid of the auction (every value and strain, sans atout and tout atout too),
    then the table with the contract made, at 800x600 and 1280x720 in each language: no
    button runs into a card, a name or another button, no word out of its button."""
    assert set_language(language) == language
    try:
        table = start(app, game, pack)
        pump(table, lambda: bidding(table))
        found = check(app, table, f"{game} auction", SMALL_AND_USUAL)
        view = table.view
        assert view is not None
        click_button(app, table.input.bid_buttons.find(f"bid:{view.legal_bids[0]}"))  # the lowest
        for _frame in range(400):  # then the person passes until the auction ends
            if bidding(table):
                click_button(app, table.input.bid_buttons.find("bid:pass"))
            if table.view is not None and table.view.contract is not None:
                break
            step(table)
        pump(table, lambda: table.view is not None and table.view.contract is not None)
        pump(table, lambda: not table.busy())
        found += check(app, table, f"{game} contract", SMALL_AND_USUAL)
        # the side bar says the contract as its bid says it, in the language
        view = table.view
        assert view is not None and view.contract is not None
        bid = table.contract_bid(view)
        words = bid_spoken(bid) if bid is not None else None
        said = table.status_panel.contract_text.text
        assert words and words in said and said.startswith(i18n._("Contract: {contract}")[:4])
        taken = contract_name(None, "tout-atout")
        assert taken == {"en": "Tout atout", "fr": "Tout atout", "de": "Tout Atout"}[language]
    finally:
        app.render_offscreen(None)
        set_language("en")
    assert not found, "\n".join(found)


def test_the_review_names_a_bid_as_the_table_says_it(app: App) -> None:
    """The Review screen's "You bid ..." names a Coinche bid as its button does (from the
    engine's description), in the language: never the record's text ("80 C")."""
    from atout.core.session import Session
    from atout.ui.window.review_labels import action_name

    engine = app.engine
    rules = engine.make_rules("coinche", {"sans_tout_atout": "both"})
    session = Session(engine, "coinche", rules, seed=3)
    session.next_deal()
    view = session.view(0)
    assert view.phase == "bidding"
    assert set_language("de") == "de"
    try:
        said = [action_name(engine, view, bid) for bid in ("80 C", "110 sans-atout", "contre")]
    finally:
        set_language("en")
    assert said == ["80 ♣", "110 SA", "Contre"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_reviews_chips_say_each_bid_as_the_table_does_and_keep_the_layout(
    app: App, language: str
) -> None:
    """The Review screen of a Coinche deal: each bid's chip in the step list says it as
    its button did (``90 ♥``, ``capot ♠``, ``Contre``), never
    the record's text (``90 h``), and the panel keeps the layout rules at 800x600 and
    1280x720 (a chip is as wide as its words)."""
    from atout.ui.cards_text import bid_text
    from test_review_view import deal_over
    from test_review_view import finish

    assert set_language(language) == language
    try:
        table = deal_over(app, "coinche", seed=4)
        table.open_review()
        review = table.review
        assert review is not None
        finish(table, review)
        review.show(0)
        texts = [t.text for t in review.layer.texts]
        bids = [(i, d) for i, d in enumerate(review.decisions) if d.phase == "bidding"]
        assert bids, "the person bid in this deal"
        for i, d in bids:
            view = review.views[i]
            if d.action == "pass":
                continue
            said = bid_text(
                d.action, view, app.engine.describe_bid(view.game, view.rules, d.action)
            )
            assert said in texts, f"no chip says {said!r}"
            assert d.action not in texts and d.action[:4].lower() not in texts
        found = check(app, table, "coinche review", SMALL_AND_USUAL)
    finally:
        app.render_offscreen(None)
        set_language("en")
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("language", "capot"), [("en", "capot"), ("de", "Capot")])
def test_the_side_bar_says_a_capot_without_its_auction_as_capot(
    app: App, language: str, capot: str
) -> None:
    """A capot contract whose auction the view does not hold (a position written by
    hand) is said "capot ♠" with its level in the side bar, never "250"."""
    import dataclasses

    from atout.core import Contract

    table = start(app, "coinche", "coinche")
    pump(table, lambda: table.view is not None)
    assert table.view is not None
    view = dataclasses.replace(table.view, bids=(), contract=Contract(1, 3, "S", 250, 2))
    assert set_language(language) == language
    try:
        table.status_panel.refresh_points(view, False, table.contract_bid(view))
        said = table.status_panel.contract_text.text
    finally:
        set_language("en")
    assert f"{capot} ♠" in said and "×2" in said and "250" not in said


@pytest.mark.parametrize(("language", "said"), [("en", "90 ♥ hearts"), ("fr", "90 ♥ cœur")])
def test_a_hinted_bid_is_said_in_words_on_the_message_line(
    app: App, language: str, said: str
) -> None:
    """The window's hint for a Coinche bid says it as the terminal's hint does ("Hint: 90 ♥
    hearts"), in the language: never the bid's text ("90 H")."""
    from atout.core import Action

    table = start(app, "coinche", "coinche", seed=6)
    pump(table, lambda: bidding(table))
    view = table.view
    assert view is not None and "90 H" in view.legal_bids
    assert set_language(language) == language
    try:
        table.hint = Action.bid("90 H")
        table.driver.show_hint_line(view)
        line = table.toast.label.text
    finally:
        table.hint = None
        set_language("en")
    assert said in line and "90 H" not in line
