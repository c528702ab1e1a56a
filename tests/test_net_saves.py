"""The table server's save files (group commit): an action's line is in the file as soon
as the action is taken (before anyone is told), forced to disk by the syncer's next pass;
a deal's start waits for the worker's flush, a deal's end does not (its line is written
first), and whatever comes during a whole-file write follows it in order."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core.savefile import SaveFile
from atout.core.session import REMOTE
from atout.core.session import Player
from atout.core.session import Session
from atout.ui.net.client import Client
from atout.ui.net.client import RemoteTable
from atout.ui.net.client import create_table
from atout.ui.net.runner import ServerThread
from atout.ui.net.saves import DeferredSaveFile
from atout.ui.net.saves import Syncer
from atout.ui.net.saves import defer_saves
from atout.ui.net.server import TableServer


def server_session(engine: Engine, path: Path, syncer: Syncer) -> tuple[Session, DeferredSaveFile]:
    session = Session(
        engine, "belote", engine.default_rules("belote"), players=[Player(REMOTE)] * 4, seed=3
    )
    session.attach(path)
    file = defer_saves(session, syncer)
    assert file is not None
    return session, file


def act_once(session: Session, rng: random.Random) -> int:
    seat = session.to_act
    assert seat is not None
    session.act(seat, rng.choice(session.view(seat).legal_actions()))
    return seat


def test_an_action_is_in_the_file_at_once_and_forced_by_the_next_pass(tmp_path: Path) -> None:
    engine = Engine()
    syncer = Syncer(interval=3600.0)  # no pass by itself: the test makes it
    path = tmp_path / "T.table"
    session, file = server_session(engine, path, syncer)
    session.next_deal()
    assert file.pending, "the deal's whole-file write waits for the worker's flush"
    file.flush()
    rng = random.Random(3)
    for n in range(1, 4):
        seat = act_once(session, rng)
        assert not file.pending, "an action's line is written at once, not deferred"
        lines = path.read_text().splitlines()
        assert len(lines) == 1 + n and json.loads(lines[-1])["seat"] == seat
        assert file.unsynced
    syncer.flush()
    assert not file.unsynced, "one pass forced the three lines"
    back = Session.resume(engine, path)
    assert back.deal is not None and session.deal is not None
    assert back.deal.actions == session.deal.actions
    session.detach()


def test_lines_after_a_pending_whole_write_follow_it(tmp_path: Path) -> None:
    engine = Engine()
    syncer = Syncer(interval=3600.0)
    path = tmp_path / "T.table"
    session, file = server_session(engine, path, syncer)
    session.next_deal()  # its whole-file write not flushed yet...
    rng = random.Random(4)
    act_once(session, rng)  # ... so this line waits behind it
    assert file.pending
    assert len(path.read_text().splitlines()) == 1
    file.flush()
    assert len(path.read_text().splitlines()) == 2
    syncer.flush()
    assert not file.unsynced
    session.detach()


def test_close_forces_what_is_left_and_the_plain_append_forces_at_once(tmp_path: Path) -> None:
    engine = Engine()
    session = Session(engine, "decouverte", engine.default_rules("decouverte"), seed=2)
    path = tmp_path / "s.jsonl"
    session.attach(path)
    session.next_deal()
    session.play_bots()
    before = len(path.read_text().splitlines())
    file = SaveFile(path)
    file.write_action(0, session.view(0).legal_actions()[0])
    assert file.unsynced
    file.close()
    assert not file.unsynced
    plain = SaveFile(path)
    plain.append_action(0, session.view(0).legal_actions()[0])
    assert not plain.unsynced, "the terminal's append forces each line at once"
    plain.close()
    assert len(path.read_text().splitlines()) == before + 2


def play_to_deal_end(session: Session, file: DeferredSaveFile, rng: random.Random) -> int:
    """Act until the deal in play is over (flushing the deal's start first); how many
    lines the file had just before its last action."""
    if file.pending:
        file.flush()
    deal = session.deal
    assert deal is not None
    while True:
        lines = len(file.path.read_text().splitlines())
        act_once(session, rng)
        if deal.is_over:
            return lines


def test_a_deals_last_action_is_written_at_once_and_the_rewrite_follows(
    tmp_path: Path,
) -> None:
    engine = Engine()
    syncer = Syncer(interval=3600.0)
    path = tmp_path / "T.table"
    session, file = server_session(engine, path, syncer)
    session.next_deal()
    rng = random.Random(5)
    before = play_to_deal_end(session, file, rng)
    deal = session.deal
    assert deal is not None and deal.is_over
    lines = path.read_text().splitlines()
    assert len(lines) == before + 1, "the last action's line is in the file at once"
    assert file.deferred and not file.urgent, "its rewrite is left for later"
    back = Session.resume(engine, path)  # a server killed now: the deal is over
    assert back.deal is not None and back.deal.actions == deal.actions and back.deal.is_over
    assert back.scores == session.scores
    back.detach()
    file.settle()  # no deal follows: the server queues the rewrite...
    assert file.pending and not file.urgent and not file.deferred
    file.flush()  # ... and flushes it in the background
    assert not file.pending
    assert len(path.read_text().splitlines()) == 1, "then the whole file is rewritten"
    back = Session.resume(engine, path)
    assert back.scores == session.scores and back.needs_deal == session.needs_deal
    back.detach()
    session.detach()


def test_writes_during_a_flush_wait_behind_it_in_order(tmp_path: Path) -> None:
    engine = Engine()
    syncer = Syncer(interval=3600.0)
    path = tmp_path / "T.table"
    session, file = server_session(engine, path, syncer)
    entered, release = threading.Event(), threading.Event()
    replace = file._replace

    def slow_replace(data: dict[str, Any]) -> None:
        entered.set()
        assert release.wait(30)
        replace(data)

    file._replace = slow_replace  # type: ignore[method-assign]
    session.next_deal()
    worker = threading.Thread(target=file.flush)
    worker.start()
    try:
        assert entered.wait(30), "the flush took the deal's whole-file write"
        assert file.pending, "a flush running counts as pending"
        seat = act_once(session, random.Random(6))  # while the rewrite runs...
        assert file.urgent, "... its line waits behind it"
    finally:
        release.set()
        worker.join(30)
    assert not file.pending and not file.urgent, "the running flush wrote it too"
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["seat"] == seat
    back = Session.resume(engine, path)
    assert back.deal is not None and session.deal is not None
    assert back.deal.actions == session.deal.actions
    back.detach()
    session.detach()


def test_a_deals_end_is_told_while_its_rewrite_is_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a server: once the first deal is dealt, every whole-file rewrite is held;
    the action that ends the deal is still answered (nothing was released), and the
    file resumes past it."""
    engine = Engine()
    holding, held, release = threading.Event(), threading.Event(), threading.Event()
    original = DeferredSaveFile._replace

    def replace(self: DeferredSaveFile, data: dict[str, Any]) -> None:
        if holding.is_set():
            held.set()
            assert release.wait(60)
        original(self, data)

    monkeypatch.setattr(DeferredSaveFile, "_replace", replace)
    data = tmp_path / "data"
    server = ServerThread(TableServer(engine, data, grace=0.3)).start()
    client = Client(f"ws://127.0.0.1:{server.port}").start()
    try:
        made = create_table(client, engine.default_rules("decouverte"), bot="random", seed=7)
        table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
        table.start(made["host"])
        deadline = time.monotonic() + 60
        while table.deal < 1 and time.monotonic() < deadline:
            table.wait(0.2)
        holding.set()
        while table.deals_scored < 1 and time.monotonic() < deadline:
            view = table.latest_view
            if table.to_act == table.seat and view is not None and view.to_act:
                table.act(0, view.legal_actions()[0])
            else:
                table.wait(0.2)
        assert table.deals_scored == 1, "the deal's end was told"
        assert held.wait(30), "the next rewrite began, and is held"
        copy = tmp_path / "copy.table"
        copy.write_bytes((data / (made["table"] + ".table")).read_bytes())
        back = Session.resume(engine, copy)  # a server killed now
        assert back.deals_scored == 1 and back.scores == table.scores
        back.detach()
    finally:
        release.set()
        client.close()
        server.stop()


def test_a_deal_followed_by_another_is_rewritten_once(tmp_path: Path) -> None:
    engine = Engine()
    syncer = Syncer(interval=3600.0)
    path = tmp_path / "T.table"
    session, file = server_session(engine, path, syncer)
    rewrites: list[int] = []
    replace = file._replace

    def counted(data: dict[str, Any]) -> None:
        rewrites.append(len(data["match"]["deals"]))
        replace(data)

    file._replace = counted  # type: ignore[method-assign]
    session.next_deal()
    play_to_deal_end(session, file, random.Random(8))
    assert rewrites == [1], "the deal's start alone so far"
    session.next_deal()  # the next deal's rewrite holds the end of the one before
    file.flush()
    assert rewrites == [1, 2], "the deal's end was not written whole on its own"
    back = Session.resume(engine, path)
    assert back.deal_number == session.deal_number == 2 and back.deals_scored == 1
    back.detach()
    session.detach()


def test_the_server_writes_a_deal_whole_once_when_another_follows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table of bots plays deals: the session is put together for a whole-file write at
    its creation and each deal's start, never for a deal's end that another follows."""
    engine = Engine()
    built: list[int] = []
    save_data = Session._save_data

    def counted(self: Session) -> dict[str, Any]:
        built.append(self.deal_number)
        return save_data(self)

    monkeypatch.setattr(Session, "_save_data", counted)
    server = ServerThread(TableServer(engine, tmp_path, grace=0.3)).start()
    client = Client(f"ws://127.0.0.1:{server.port}").start()
    try:
        rules = engine.make_rules("decouverte", {"target": 100_000})
        made = create_table(client, rules, bot="random", seed=9)
        client.send({"type": "start", "table": made["table"], "host": made["host"]})
        table = server.server.tables[made["table"]]
        deadline = time.monotonic() + 60
        state = (0, 0, 0)
        while state[0] < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
            state = server.call(
                lambda: (table.session.deals_scored, table.session.deal_number, len(built))
            )
        scored, dealt, writes = state
        assert scored >= 3, "the bots played three deals"
        assert writes == 1 + dealt, "the creation and each deal's start, no deal's end"
    finally:
        client.close()
        server.stop()
