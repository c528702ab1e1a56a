"""A table server killed with SIGKILL in mid-deal restarts, every table resumes where it
was, and the clients reconnect on their own and play the match to its end."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from atout.core import Engine
from atout.ui.net.client import Client
from atout.ui.net.client import RemoteTable
from atout.ui.net.client import create_table
from atout.ui.net.tables import SAVE_SUFFIX


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, data: Path, workers: int = 1) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "atout.ui.cli",
            "serve",
            "--port",
            str(port),
            "--data",
            str(data),
            "--grace",
            "3",
            "--workers",
            str(workers),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the server says when it listens
    assert "listening on" in line, line + (proc.stderr.read() if proc.stderr else "")
    return proc


def play_until(table: RemoteTable, stop: int, deadline: float) -> None:
    """Play seat 0's first legal action until ``stop`` actions were played by it, or the
    match ends."""
    done = 0
    while table.result is None and done < stop and time.monotonic() < deadline:
        view = table.latest_view
        if table.to_act == table.seat and view is not None and view.to_act:
            table.act(0, view.legal_actions()[0])
            done += 1
        else:
            table.wait(0.5)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_killed_server_restarts_and_every_table_resumes(tmp_path: Path, workers: int) -> None:
    """Also a server of two worker processes whose front is killed: its workers stop
    (their channel to the front closed), and the new front's workers resume the tables."""
    engine = Engine()
    port = free_port()
    proc = start_server(port, tmp_path, workers)
    clients: list[Client] = []
    try:
        tables: list[RemoteTable] = []
        for game in ("belote", "decouverte"):
            client = Client(f"ws://127.0.0.1:{port}", reconnect_for=30.0).start()
            clients.append(client)
            made = create_table(client, engine.default_rules(game), bot="random", seed=21)
            table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
            table.start(made["host"])
            tables.append(table)
        deadline = time.monotonic() + 60
        for table in tables:
            play_until(table, 9, deadline)  # into the first deal, seat 0 to act
            while (
                not (table.latest_view and table.latest_view.to_act) and time.monotonic() < deadline
            ):
                table.wait(0.5)
        before = [(t.deal, t.step, t.latest_view.hand if t.latest_view else 0) for t in tables]
        assert all(step > 0 for _, step, _ in before), "killed in mid-deal"
        assert len(list(tmp_path.glob("*" + SAVE_SUFFIX))) == 2
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc = start_server(port, tmp_path, workers)
        for table, (deal, step, hand) in zip(tables, before, strict=True):
            # the client reconnects by itself and is sent where its table stands
            back = False
            for _ in range(300):
                msg = table.client.get(0.1)
                if msg is None:
                    if back and not table.pending:
                        break
                    continue
                table.absorb(msg)
                back = back or msg == {"type": "connection", "state": "back"}
            assert back, "the client reconnected"
            assert (table.deal, table.step) == (deal, step)
            assert table.latest_view is not None and table.latest_view.hand == hand
        for table in tables:
            play_until(table, 10_000, deadline + 60)
            assert table.result is not None, "the match went on to its end"
            assert table.record()["deals"], "the finished deals are in the record"
    finally:
        for client in clients:
            client.close()
        proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
