"""Playing with people from the window: two people at one screen (Découverte), and two
window tables playing a whole match through a table server (one hosts it from the
window, the other joins by typing the address and its token)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

import arcade
import pytest
from atout.core import Engine
from atout.core import cards_of
from atout.ui import savegame
from atout.ui.net.address import TableOrder
from atout.ui.net.client import CONNECTION
from atout.ui.net.client import Client
from atout.ui.net.client import RemoteTable
from atout.ui.savegame import Setup
from atout.ui.window.app import App
from atout.ui.window.driver import MatchDriver
from atout.ui.window.net_table import NetDriver
from atout.ui.window.start_people import PeopleView
from atout.ui.window.table import Table
from ui_helpers import click
from ui_helpers import click_button
from ui_helpers import press
from ui_helpers import pump
from ui_helpers import seat_at_server_table

pytestmark = pytest.mark.ui


def type_into(app: App, view: PeopleView, field: str, text: str) -> None:
    """Click the field called ``field``, empty it, then type ``text`` through the window."""
    box = next(b for b in view.boxes if b.name == field)
    click_button(app, box.button)
    for _ in range(len(view.values[box.key])):
        press(app, arcade.key.BACKSPACE)
    app.window.dispatch_event("on_text", text)
    app.window.dispatch_events()
    assert view.values[box.key] == text


def people_screen(app: App, setup: Setup | None = None) -> PeopleView:
    start = app.show_start()
    if setup is not None:
        start.preselect(setup)
    click_button(app, start.buttons.find("people"))
    view = app.window.current_view
    assert isinstance(view, PeopleView)
    return view


def act_by_click(app: App, table: Table, rng: random.Random) -> None:
    """The seat drawn acts as a person would: a bid button, or a click on a legal card."""
    view = table.view
    assert view is not None
    if view.phase == "bidding":
        bids = [b for b in ("take", "pass") if table.input.bid_buttons.find(f"bid:{b}")]
        click_button(app, table.input.bid_buttons.find(f"bid:{rng.choice(bids)}"))
    else:
        sprite = table.board.cards[rng.choice(list(cards_of(view.legal)))]
        click(app, sprite.center_x, sprite.center_y)


def test_a_text_field_edits_at_its_cursor(app: App) -> None:
    view = people_screen(app)
    type_into(app, view, "first", "Ana")
    box = next(b for b in view.boxes if b.name == "first")
    press(app, arcade.key.LEFT)
    press(app, arcade.key.LEFT)
    app.window.dispatch_event("on_text", "n")
    app.window.dispatch_events()
    assert view.values["first"] == "Anna"
    assert box.button.label.text == "An|na"
    press(app, arcade.key.HOME)
    press(app, arcade.key.DELETE)
    assert view.values["first"] == "nna"
    press(app, arcade.key.END)
    press(app, arcade.key.BACKSPACE)
    assert view.values["first"] == "nn"
    assert box.button.label.text == "nn|"
    # a long value shows the part around the cursor, the cursor always in sight
    address = next(b for b in view.boxes if b.name == "address")
    type_into(app, view, "address", "W" * 100)
    assert address.button.label.text.startswith("…W") and address.button.label.text.endswith("W|")
    press(app, arcade.key.HOME)
    shown = address.button.label.text
    assert shown.startswith("|W") and len(shown) < 101
    press(app, arcade.key.TAB)  # the focus leaves: the cursor goes back to the end
    assert address.cursor is None


# --- two people at one screen ---------------------------------------------------------------


def two_people_table(app: App, seed: int, first: str, second: str) -> Table:
    """The table of two people at one screen, named on the people screen as a person
    would: typed into its fields, then its play button clicked."""
    view = people_screen(app, Setup(game="decouverte", seed=seed))
    type_into(app, view, "first", first)
    type_into(app, view, "second", second)
    click_button(app, view.buttons.find("people:play"))
    table = app.window.current_view
    assert isinstance(table.driver, MatchDriver)
    return table


def test_two_people_share_one_screen_and_take_turns(app: App) -> None:
    table = two_people_table(app, 11, "Anna", "Ben")
    session = table.driver.session
    assert [(p.kind, p.name) for p in session.players] == [("person", "Anna"), ("person", "Ben")]
    assert not any(session.is_bot(s) for s in range(2))
    # the save names both players (the session's players, as every save does)
    header = json.loads(savegame.saved_match_path().read_text().splitlines()[0])
    assert [(p["kind"], p["name"]) for p in header["players"]] == [
        ("person", "Anna"),
        ("person", "Ben"),
    ]
    assert header["match"]["players"] == header["players"]  # and so does the record
    rng = random.Random(3)
    turns_seen = set()
    refused = 0
    for _ in range(60):
        pump(table, lambda: not table.busy() or table.stage != "play", frames=100, dt=0.3)
        if table.stage != "play":
            break
        seat = session.to_act
        assert seat is not None
        # the table draws the view of the person to act and says so, on their side
        assert table.me == seat and table.view is not None and table.view.seat == seat
        name = ("Anna", "Ben")[seat]
        status = table.status_panel.status.text
        assert name in status and ("▼" if seat == 0 else "▲") in status, status
        assert tuple(table.status_panel.seat_plates[seat].color)  # the plate is drawn
        turns_seen.add(seat)
        other = 1 - seat
        tops = [p.top for p in table.view.piles[other] if p.top is not None]
        if table.view.phase == "play" and tops and refused < 3:
            version = session.version
            sprite = table.board.cards[tops[0]]
            click(app, sprite.center_x, sprite.center_y)
            assert session.version == version, "a click by the side not to act was taken"
            assert f"it is {name}'s turn" in table.toast.message
            refused += 1
        act_by_click(app, table, rng)
    assert turns_seen == {0, 1} and refused == 3
    # the deal's end names the players, and the save still does
    pump(table, lambda: table.stage in ("deal_over", "match_over"), frames=200)
    words = " ".join(t.text for t in table.deal_panel.texts)
    assert "Anna" in words or "Ben" in words


def test_undo_and_hint_are_for_the_person_to_act_and_the_match_stays_theirs(app: App) -> None:
    table = two_people_table(app, 4, "Ann", "Bo")
    names = ("Ann", "Bo")
    rng = random.Random(1)
    session = table.driver.session
    pump(table, lambda: not table.busy(), frames=100)
    while session.view(0).phase == "bidding":
        act_by_click(app, table, rng)
        pump(table, lambda: not table.busy(), frames=100)
    first = session.to_act
    assert first is not None
    act_by_click(app, table, rng)  # the first card of the deal
    pump(table, lambda: not table.busy(), frames=100)
    second = table.me
    assert second == 1 - first == session.to_act
    press(app, arcade.key.U)  # the second player has no card to take back
    assert (
        table.toast.message
        == f"Nothing to undo: {names[second]} has not played a card in this deal."
    )
    act_by_click(app, table, rng)  # the trick is complete: its winner leads
    pump(table, lambda: not table.busy(), frames=100)
    leader = session.to_act
    assert leader is not None and table.me == leader
    press(app, arcade.key.U)  # the leader's card of the first trick: the other has seen it
    assert table.toast.message == f"Undo refused: {names[1 - leader]} has seen your card."
    assert session.to_act == leader == table.me
    # a hint is for the person to act too (the greedy bot's, to be quick)
    session.hint_bot = "greedy"
    press(app, arcade.key.H)
    job = table.driver.hint_job
    assert job is not None and job.wait(30)
    pump(table, lambda: table.hint is not None, frames=20)
    assert table.hint in session.view(leader).legal_actions()
    # Continue resumes the match with both seats played from the screen, names kept
    seen = session.view(0)
    app.show_start()
    again = app.continue_match()
    assert (
        isinstance(again.driver, MatchDriver)
        and again.driver.people == [0, 1]
        and again.you is None
    )
    assert [again.seat_name(0), again.seat_name(1)] == list(names)
    assert again.driver.session.view(0) == seen and again.me == again.driver.session.to_act
    # a new match (the menu's, or N after a match) is the same two people's
    again.driver.new_match()
    fresh = app.window.current_view
    assert (
        isinstance(fresh.driver, MatchDriver)
        and fresh is not again
        and fresh.driver.people == [0, 1]
    )
    assert [fresh.seat_name(0), fresh.seat_name(1)] == list(names)


# --- a whole match through a table server --------------------------------------------------


def wait_for(view: PeopleView, until: Callable[[], bool]) -> None:
    connecting = view.connecting
    assert connecting is not None and connecting.wait(20), "no answer from the server"
    for _ in range(20):
        view.on_update(0.05)
        if until():
            return
    assert until(), view.message.text


def test_two_window_tables_play_a_whole_match_through_a_server(
    window: arcade.Window, engine: Engine, app: App
) -> None:
    # Anna hosts from the window (a server in the background, any free port)
    setup = Setup(game="decouverte", bot="random", target=200, seed=21)
    host_view = people_screen(app, setup)
    type_into(app, host_view, "name:host", "Anna")
    type_into(app, host_view, "port", "0")
    click_button(app, host_view.buttons.find("people:host"))
    wait_for(host_view, lambda: isinstance(getattr(window.current_view, "driver", None), NetDriver))
    anna = window.current_view
    assert isinstance(anna.driver, NetDriver) and anna.stage == "waiting" and anna.you == 0
    link = anna.driver.link
    assert link.server is not None and link.host_token is not None
    shown = " ".join(t.text for t in anna.driver.lobby.texts)
    assert f"{link.address} {link.tokens[1]}" in shown  # what Ben types
    # Ben joins from a second window app by typing the address and his token
    window.show_view(arcade.View(window))  # leaving Anna's table to itself
    other = App(window, engine, speed=0.25)
    try:
        port = link.server.port
        join_view = people_screen(other)
        typed = f"127.0.0.1:{port}/{link.table.code} {link.tokens[1]}"
        type_into(other, join_view, "address", typed)
        type_into(other, join_view, "name:join", "Ben")
        click_button(other, join_view.buttons.find("people:join"))
        wait_for(
            join_view, lambda: isinstance(getattr(window.current_view, "driver", None), NetDriver)
        )
        ben = window.current_view
        assert isinstance(ben.driver, NetDriver) and ben.you == 1 and ben.bottom == 1
        play_both(anna, ben)
        for table in (anna, ben):
            assert table.stage == "match_over" and table.driver.kept.result is not None
        # both windows show the same final scores, the server's
        assert anna.driver.kept.scores == ben.driver.kept.scores == anna.driver.remote.scores
        assert max(anna.driver.kept.scores) >= 200
        sheets = [[t.text for t in x.sheet.texts] for x in (anna, ben)]
        assert sheets[0][2:4] == ["You", "Ben"] and sheets[1][2:4] == ["Anna", "You"]
        assert sheets[0][4:] == sheets[1][4:]  # every deal's score and the totals
        assert f"Total{anna.driver.kept.scores[0]}{anna.driver.kept.scores[1]}" in "".join(
            sheets[0]
        )
        assert [s.score for s in anna.driver.kept.history] == [
            s.score for s in ben.driver.kept.history
        ]
        # the end of the match: the last deal's score and the result, in both windows
        for table in (anna, ben):
            words = " ".join(t.text for t in table.deal_panel.texts)
            assert "Score" in words and "Match total" in words and "match" in words
        # each window names both players
        assert anna.seat_name(1) == "Ben" and ben.seat_name(0) == "Anna"
        # each window kept the match record the server sent
        for table in (anna, ben):
            for _ in range(200):
                if table.driver.record_saved:
                    break
                table.on_update(0.05)
                time.sleep(0.01)
            assert table.driver.record_saved
        records = sorted(savegame.records_dir().glob(f"decouverte-table-{link.table.code}*"))
        assert len(records) == 2
        record = json.loads(records[0].read_text())
        assert record["scores"] == list(anna.driver.kept.scores)
        assert [p["name"] for p in record["players"]] == ["Anna", "Ben"]
    finally:
        window.show_view(arcade.View(window))
        other.shutdown()
        anna.leave()
    assert link.server is None  # the hosted server stopped with Anna's table


def test_a_guest_is_told_the_table_closed_when_the_window_host_leaves(
    window: arcade.Window, app: App
) -> None:
    """The host's window leaving stops its server: every guest is told the table closed
    for good, instead of reconnecting to a server that is gone."""
    host_view = people_screen(app, Setup(game="decouverte", bot="random", seed=5))
    type_into(app, host_view, "name:host", "Anna")
    type_into(app, host_view, "port", "0")
    click_button(app, host_view.buttons.find("people:host"))
    wait_for(host_view, lambda: isinstance(getattr(window.current_view, "driver", None), NetDriver))
    anna = window.current_view
    assert isinstance(anna.driver, NetDriver) and anna.driver.link.server is not None
    url = f"ws://127.0.0.1:{anna.driver.link.server.port}"
    guest = Client(url, reconnect_for=60.0).start()
    try:
        table = RemoteTable(guest, anna.driver.link.table.code, anna.driver.link.tokens[1], "Ben")
        assert table.code == anna.driver.link.table.code
        anna.leave()
        deadline = time.monotonic() + 20
        told: list[dict[str, object]] = []
        while not any(m.get("state") == "closed" for m in told):
            assert time.monotonic() < deadline, f"the guest is told the table closed: {told}"
            message = guest.get(0.2)
            if message is not None and message.get("type") == CONNECTION:
                told.append(message)
        assert "the host closed the table" in str(told[-1].get("reason"))
    finally:
        guest.close()
        window.show_view(arcade.View(window))


def play_both(anna: Table, ben: Table) -> None:
    """Both windows play by clicks (each clicked on the window it is shown in) until the
    match is over; each deal's panel is closed by its Next deal button.  One frame in
    eight is drawn (the frames are what is tested here; the gallery checks the drawing)."""
    rng = random.Random(8)
    window = anna.window
    for frame in range(6000):
        if all(t.stage == "match_over" for t in (anna, ben)):
            return
        for table in (anna, ben):
            table.on_update(0.3)
            if frame % 8 == 0:
                table.on_draw()
            if table.busy():
                continue
            if table.stage == "deal_over":
                window.show_view(table)
                click_button(table.app, table.deal_panel.buttons.find("next-deal"))
            elif table.driver.acting() is not None:
                window.show_view(table)
                act_by_click(table.app, table, rng)
        time.sleep(0.002)  # the server's thread answers meanwhile
    raise AssertionError("the match did not end")


def test_a_lost_connection_is_a_message_not_a_freeze(
    window: arcade.Window, engine: Engine, app: App
) -> None:
    """The server goes away mid-match: the table says so over the felt and goes on
    drawing; clicks do nothing until the server says where the table stands."""
    from atout.ui.net.client import Client
    from atout.ui.net.runner import ServerThread
    from atout.ui.net.server import TableServer

    server = ServerThread(TableServer(engine, None, grace=0.2)).start()
    creator = Client(f"ws://127.0.0.1:{server.port}").start()
    try:
        table = seat_at_server_table(app, creator, server.port)
        assert isinstance(table.driver, NetDriver)
    finally:
        creator.close()
        server.stop()
    for _ in range(400):
        table.on_update(0.1)
        if table.driver.trouble:
            break
        time.sleep(0.005)
    assert table.driver.trouble == "Connection lost: reconnecting…"
    table.on_draw()
    assert table.driver.lobby.trouble_text is not None
    assert table.driver.lobby.trouble_text.text == table.driver.trouble
    assert table.driver.acting() is None  # nothing is sent while the table is out of touch
    app.leave_table()
    assert table.driver.left


def test_atout_play_join_opens_the_window_joining(monkeypatch: pytest.MonkeyPatch) -> None:
    """``atout play --join ADDRESS --token T`` (no ``--text``) opens the window joined."""
    import argparse

    from atout.ui.commands import play

    calls: list[tuple[object, ...]] = []

    def fake_run(engine: Engine, setup: Setup | None, join: tuple[str, str] | None) -> int:
        calls.append((setup, join))
        return 0

    monkeypatch.setattr("atout.ui.display.display_problem", lambda: None)
    monkeypatch.setattr("atout.ui.window.app.run", fake_run)
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    args = parser.parse_args(["--join", "10.0.0.2:8765/K7QX2M", "--token", "abc", "--name", "Bo"])
    assert play.run(args, Engine()) == 0
    assert calls == [(None, ("10.0.0.2:8765/K7QX2M abc", "Bo"))]


def test_a_bad_address_is_one_clear_message(app: App) -> None:
    view = people_screen(app)
    view.join_now("no-table-here", "Bo")
    connecting = view.connecting
    assert connecting is not None and connecting.wait(10)
    view.on_update(0.05)
    assert view.connecting is None
    assert view.message.text.startswith("Could not connect: expected HOST:PORT/TABLE")
    assert isinstance(app.window.current_view, PeopleView)


def test_a_belote_table_is_drawn_from_the_seat_joined(
    window: arcade.Window, engine: Engine, app: App
) -> None:
    """Joined at seat 2 of a four-player table (the host started it: bots at the sides):
    that seat's hand is at the bottom, its partner (seat 0) across, seat 1 at its left."""
    from atout.ui.window.net_connect import host
    from atout.ui.window.net_connect import join

    rules = engine.default_rules("belote")
    link = host(engine, TableOrder(rules, "random", 5, "Anna"), ("127.0.0.1", 0))
    anna = app.show_net_table(Setup(game="belote"), link)
    assert isinstance(anna.driver, NetDriver)
    window.show_view(arcade.View(window))
    other = App(window, engine, speed=0.25)
    try:
        assert link.server is not None
        seat2 = join(f"127.0.0.1:{link.server.port}/{link.table.code} {link.tokens[2]}", "Carla")
        carla = other.show_net_table(Setup(game="belote"), seat2)
        assert isinstance(carla.driver, NetDriver)
        anna.driver.start_now()
        for _ in range(300):
            for table in (anna, carla):
                table.on_update(0.3)
            if carla.view is not None and not carla.busy():
                break
            time.sleep(0.005)
        view = carla.view
        assert view is not None and view.seat == 2 and carla.bottom == 2
        height = carla.frame.height
        hand = list(cards_of(view.hand))
        assert len(hand) >= 5
        assert all(carla.board.cards[c].center_y < height / 3 for c in hand)
        assert carla.layout.seat_anchor(0)[1] > 2 * height / 3  # the partner across
        assert (
            carla.layout.seat_anchor(1)[0] < carla.frame.felt_mid < carla.layout.seat_anchor(3)[0]
        )
        assert carla.seat_name(0) == "Anna" and carla.seat_name(2) == "You"
        carla.on_draw()
    finally:
        window.show_view(arcade.View(window))
        other.shutdown()
        anna.leave()
