"""What the table says, said once and only while it is true: a message about another
seat's turn, the contract, the bidding's round, the rules in force."""

from __future__ import annotations

from dataclasses import replace

import pytest
from atout.core.packs import list_packs
from atout.ui.cards_text import HUMAN
from atout.ui.net.client import Client
from atout.ui.net.runner import ServerThread
from atout.ui.net.server import TableServer
from atout.ui.rules import resolve_rules
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.gallery import person_to
from atout.ui.window.gallery import run_until
from atout.ui.window.gallery import start
from atout.ui.window.net_table import NetDriver
from atout.ui.window.table import Table
from ui_helpers import seat_at_server_table

pytestmark = pytest.mark.ui


def to_play(table: Table) -> None:
    """Bid (take when the person may) until the play begins."""
    while not person_to(table, "play"):
        assert run_until(table, lambda: person_to(table, "bidding") or person_to(table, "play"))
        view = table.view
        if view is not None and view.phase == "bidding":
            table.driver.human_bid("take" if "take" in view.legal_bids else view.legal_bids[0])


def test_a_wait_message_goes_when_the_turn_comes_to_the_person(app: App) -> None:
    """A click out of turn says whose turn it is; once the turn is the person's, the
    message is gone (the status line says "Your turn" alone)."""
    table = start(app, "decouverte")
    to_play(table)
    stand_in = app.engine.bot(
        "greedy", table.driver.session.game, table.driver.session.rules, seed=3
    )

    def north_to_play() -> bool:
        view = table.view
        return (
            view is not None
            and table.stage == "play"
            and view.phase == "play"
            and view.turn != HUMAN
            and not table.busy()
        )

    while not north_to_play():
        if person_to(table, "play"):
            table.driver.apply(HUMAN, stand_in.choose(table.driver.session.view(HUMAN)))
        assert run_until(table, lambda: north_to_play() or person_to(table, "play"))
    view = table.view
    assert view is not None
    mine = next(p.top for p in view.piles[HUMAN] if p.top is not None)
    table.driver.click_card(mine)
    assert table.toast.visible(table.clock) and table.toast.message.startswith("Wait")
    assert run_until(table, lambda: person_to(table, "play"))
    table.on_draw()
    assert table.status_panel.status.text.startswith("Your turn")
    waiting = table.toast.visible(table.clock) and table.toast.message.startswith("Wait")
    assert not waiting, table.toast.message


def test_a_card_clicked_during_the_bidding_is_refused_with_why(app: App) -> None:
    """A click on one of the person's cards while the bidding goes on plays nothing and
    says that the bidding comes first."""
    table = start(app, "decouverte")
    assert run_until(table, lambda: person_to(table, "bidding"))
    view = table.view
    assert view is not None
    version = table.driver.session.version
    table.driver.click_card(next(p.top for p in view.piles[HUMAN] if p.top is not None))
    assert table.driver.session.version == version
    assert table.toast.visible(table.clock)
    assert table.toast.message == "The bidding comes first: take or pass."


def test_a_network_table_refuses_a_card_before_its_turn_with_why(app: App) -> None:
    """At a table on a server, a click on one of the person's cards while the bidding goes
    on or another seat is to play sends nothing and says why, as at a local table."""
    server = ServerThread(TableServer(app.engine, None)).start()
    creator = Client(f"ws://127.0.0.1:{server.port}").start()
    table: Table | None = None
    try:
        table = seat_at_server_table(app, creator, server.port)
        assert isinstance(table.driver, NetDriver)
        view = table.view
        assert view is not None and view.phase == "bidding" and view.turn == 0
        sent: list[dict[str, object]] = []
        table.driver.remote.client.send = sent.append  # type: ignore[method-assign]
        mine = next(p.top for p in view.piles[0] if p.top is not None)
        table.driver.click_card(mine)
        assert table.toast.message == "The bidding comes first: take or pass."
        table.view = replace(view, phase="play", turn=1)
        table.driver.click_card(mine)
        assert table.toast.message == f"Wait: it is {table.seat_name(1)}'s turn."
        assert sent == []
    finally:
        if table is not None:
            table.leave()
        creator.close()
        server.stop()


def test_the_contract_is_said_once_by_the_takers_name(app: App) -> None:
    """No "takes ♥ hearts" bubble beside the "Takes ♥" mark."""
    for game in ("decouverte", "belote"):
        table = start(app, game)
        to_play(table)
        table.on_draw()
        panel = table.status_panel
        view = table.view
        assert view is not None and view.contract is not None
        marks = [t.text for p, t in panel.badges[view.contract.taker] if t.visible]
        assert any(m.startswith("Takes") for m in marks)
        said = [label.text for label in panel.bubble_labels.values() if label.visible]
        assert not any("takes" in words.lower() for words in said), said
        app.leave_table()


def test_the_side_bar_says_the_second_round_of_the_bidding(app: App) -> None:
    """In round 1 the bid is on the proposed suit; in round 2 the side bar no longer says
    so."""
    for game in ("decouverte", "belote"):
        table = start(app, game)
        assert run_until(table, lambda t=table: person_to(t, "bidding"))
        assert table.status_panel.contract_text.text.startswith("Bidding on")
        seen_round_2 = False
        for _ in range(4):
            view = table.view
            if view is None or view.phase != "bidding":
                break
            if "take" not in view.legal_bids:
                seen_round_2 = True
                assert table.status_panel.contract_text.text == "Bidding, round 2"
                break
            table.driver.human_bid("pass")
            run_until(table, lambda t=table: person_to(t, "bidding") or t.stage != "play")
        assert seen_round_2, "the gallery's seeds bring the person to the second round"
        app.leave_table()


def test_the_side_bar_names_the_rules_by_their_description_not_their_file(app: App) -> None:
    setup = Setup(game="decouverte", bot="greedy", seed=5, pack="decouverte")
    table = app.start_match(setup, resolve_rules(app.engine, "decouverte", "decouverte"))
    described = next(p for p in list_packs(app.engine) if p.name == "decouverte").description
    words = [t.text for t in table.hud.texts if t.visible and t.x > table.frame.table_right]
    assert not any("decouverte" in w for w in words), words
    assert described in words


def test_no_pack_speaks_of_a_seed_beside_the_seed_field(app: App) -> None:
    """The start view's Seed field is the shuffle's seed: no pack's description uses the
    word for something else."""
    for pack in list_packs(app.engine):
        assert "seed" not in pack.description.lower(), (pack.name, pack.description)


@pytest.mark.parametrize(("language", "held"), [("en", "held"), ("fr", "suspens"), ("de", "offen")])
def test_the_score_sheet_marks_a_deal_held_in_abeyance_in_the_persons_language(
    app: App, language: str, held: str
) -> None:
    """A tie whose points wait for the next deal is marked on the score sheet in the
    chosen language (it was the English "held" in French and German too)."""
    from atout.core.model import DealScore
    from atout.ui.i18n import set_language
    from atout.ui.window.side_bar import ScoreSheet

    table = start(app, "belote")
    match = table.match
    tie = DealScore((81, 81), (0, 0), (0, 0), "abeyance")

    class Held:
        info = match.info
        rules = match.rules
        seed = match.seed
        history = (tie,)
        scores = (0, 0)

    try:
        assert set_language(language) == language
        sheet = ScoreSheet(table.info, table.frame)
        sheet.refresh(Held(), keep_count_yourself=False)
        assert held in [t.text for t in sheet.texts]
    finally:
        set_language("en")
