"""Finished tables are put away, and the players' names kept: a table whose match is over
and that nobody has been connected to for the linger period leaves the server's memory
(its save file stays), and a client that comes later still learns how the match ended;
a name given at join survives a restart of the server."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.ui.net.client import Client
from atout.ui.net.client import NetworkError
from atout.ui.net.client import RemoteTable
from atout.ui.net.client import create_table
from atout.ui.net.runner import ServerThread
from atout.ui.net.server import TableServer
from atout.ui.net.tables import SAVE_SUFFIX


def bots_play_a_match(server: ServerThread) -> dict[str, Any]:
    """A Découverte table to 200 points, started with nobody seated: the bots play every
    seat to the end.  The ``created`` answer."""
    engine = Engine()
    client = Client(f"ws://127.0.0.1:{server.port}").start()
    try:
        rules = engine.make_rules("decouverte", {"target": 200})
        made = create_table(client, rules, bot="random", seed=4)
        client.request({"type": "start", "table": made["table"], "host": made["host"]})
    finally:
        client.close()
    return made


def wait_until(check: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Whether ``check()`` comes true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def held(server: ServerThread, code: str) -> bool:
    """Whether the server holds table ``code`` in memory."""
    return server.call(lambda: code in server.server.tables)


def test_a_finished_table_is_put_away_and_read_back_for_a_late_player(tmp_path: Path) -> None:
    server = ServerThread(TableServer(Engine(), tmp_path, grace=0.1, linger=0.3)).start()
    try:
        made = bots_play_a_match(server)
        code = made["table"]
        assert held(server, code), "a table in play stays in memory"
        assert wait_until(lambda: not held(server, code)), "put away once over and alone"
        assert (tmp_path / (code + SAVE_SUFFIX)).is_file(), "its save file stays"
        late = Client(f"ws://127.0.0.1:{server.port}").start()
        try:
            table = RemoteTable(late, code, made["tokens"][1], "Late")
            assert table.result is not None, "the late player sees how the match ended"
            assert sum(table.scores) > 0
            assert held(server, code)
            record = table.record()
            assert record["deals"] and "seed" in record
        finally:
            late.close()
        assert wait_until(lambda: not held(server, code)), "put away again once left"
    finally:
        server.stop()


def test_a_table_with_a_client_stays_and_one_never_saved_says_it_is_closed() -> None:
    server = ServerThread(TableServer(Engine(), None, grace=0.1, linger=0.3)).start()
    try:
        made = bots_play_a_match(server)
        code = made["table"]
        watcher = Client(f"ws://127.0.0.1:{server.port}").start()
        try:
            table = RemoteTable(watcher, code)
            assert wait_until(lambda: table.wait(0.05) is not None and table.result is not None)
            time.sleep(0.6)
            assert held(server, code), "a watched table is not put away"
        finally:
            watcher.close()
        assert wait_until(lambda: not held(server, code))
        late = Client(f"ws://127.0.0.1:{server.port}").start()
        try:
            with pytest.raises(NetworkError, match="is over") as caught:
                RemoteTable(late, code, made["tokens"][0])
            assert caught.value.code == "closed"
        finally:
            late.close()
    finally:
        server.stop()


def test_the_players_names_are_kept_in_the_save_file(tmp_path: Path) -> None:
    """A name given at ``join`` reaches the save file with the next deal, and a server
    restarted on the folder names the seat the same."""
    engine = Engine()
    server = ServerThread(TableServer(engine, tmp_path, grace=30.0)).start()
    try:
        client = Client(f"ws://127.0.0.1:{server.port}").start()
        try:
            made = create_table(client, engine.default_rules("belote"), bot="random", seed=1)
            table = RemoteTable(client, made["table"], made["tokens"][2], "Ada")
            table.start(made["host"])
            assert wait_until(lambda: table.wait(0.05) is not None and table.deal >= 1)
            assert table.seat_name(2) == "Ada"
            assert table.seat_name(0) == table.info.seat_name(0), "no name: the seat's"
        finally:
            client.close()
    finally:
        server.stop()
    again = ServerThread(TableServer(engine, tmp_path, grace=30.0)).start()
    try:
        seats = again.call(lambda: again.server.tables[made["table"]].seats)
        assert [s.name for s in seats] == ["", "", "Ada", ""]
    finally:
        again.stop()
