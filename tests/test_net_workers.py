"""A server of several worker processes behind one port (``atout serve --workers 2``):
tables are routed by their code, a join reaches the worker that holds its table, the
front answers ``hello`` as a worker would, and a worker killed is started again with its
tables where they were."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterable
from collections.abc import Iterator
from pathlib import Path

import pytest
from atout.core import Engine
from atout.ui.net import protocol as p
from atout.ui.net.bench import children_of
from atout.ui.net.client import Client
from atout.ui.net.client import NetworkError
from atout.ui.net.client import RemoteTable
from atout.ui.net.client import create_table
from atout.ui.net.front import channel_messages
from atout.ui.net.tables import SAVE_SUFFIX
from atout.ui.net.tables import worker_of
from websockets.sync.client import connect


def start_server(data: Path, workers: int = 2, *more: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "atout.ui.cli",
            "serve",
            "--port",
            "0",
            "--data",
            str(data),
            "--grace",
            "3",
            "--workers",
            str(workers),
            *more,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, signalled as a terminal would
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "listening on" in line, line + (proc.stderr.read() if proc.stderr else "")
    port = int(line.split("listening on ", 1)[1].split(",", 1)[0].rsplit(":", 1)[1])
    return proc, port


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def workers_of(proc: subprocess.Popen[str]) -> dict[int, int]:
    """The slot of each worker process of the server ``proc``: its pid."""
    found = {}
    for pid in children_of(proc.pid):
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"--worker" in argv:
            slot = int(argv[argv.index(b"--worker") + 1].split(b"/")[0])
            found[slot] = pid
    return found


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    proc, port = start_server(tmp_path)
    try:
        yield proc, f"ws://127.0.0.1:{port}"
    finally:
        stop(proc)


def still_running(pids: Iterable[int]) -> list[int]:
    """Those of the server processes ``pids`` still running (a server's command line)."""
    running = []
    for pid in pids:
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if b"atout.ui.cli" in argv and state != "Z":  # a zombie has ended
            running.append(pid)
    return running


def hand_of(table: RemoteTable) -> int:
    """The hand of the table's seat in its latest view (0 before any)."""
    return table.latest_view.hand if table.latest_view else 0


def seat_to_act(table: RemoteTable, deadline: float) -> None:
    """Wait until the table gives this client's seat the turn."""
    while time.monotonic() < deadline:
        view = table.latest_view
        if view is not None and view.to_act and table.to_act == table.seat:
            return
        table.wait(0.2)
    raise AssertionError("the seat never had the turn")


def test_tables_go_to_both_workers_and_a_join_reaches_its_table(
    server: tuple[subprocess.Popen[str], str], tmp_path: Path
) -> None:
    _, url = server
    engine = Engine()
    clients: list[Client] = []
    try:
        made = []
        for game in ("belote", "decouverte"):
            client = Client(url).start()
            clients.append(client)
            made.append((game, create_table(client, engine.default_rules(game), bot="random")))
        # a create goes to the worker with the fewest tables: one table on each worker
        assert sorted(worker_of(m["table"], 2) for _, m in made) == [0, 1]
        assert {p.stem for p in tmp_path.glob("*" + SAVE_SUFFIX)} == {m["table"] for _, m in made}
        for game, answer in made:
            # a new connection joins with the code alone and reaches the table's worker
            client = Client(url).start()
            clients.append(client)
            table = RemoteTable(client, answer["table"], answer["tokens"][1], "Bea")
            assert (table.game, table.seat) == (game, 1)
            watcher = Client(url).start()
            clients.append(watcher)
            assert RemoteTable(watcher, answer["table"].lower()).game == game
        with pytest.raises(NetworkError, match="no table"):
            RemoteTable(clients[0], "ZZZZZZ")
    finally:
        for client in clients:
            client.close()


def test_the_front_answers_hello_as_a_worker_would(
    server: tuple[subprocess.Popen[str], str],
) -> None:
    _, url = server
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "version": p.VERSION + 1, "ref": 7}))
        refused = json.loads(ws.recv(10))
        assert (refused["type"], refused["code"], refused["ref"]) == ("error", p.VERSION_ERROR, 7)
        ws.send(json.dumps({"type": "hello", "version": p.VERSION, "ref": 8}))
        assert json.loads(ws.recv(10)) == {
            "type": "welcome",
            "version": p.VERSION,
            "server": "atout",
            "ref": 8,
        }
        # what follows hello is answered by a worker, in order, on the same connection
        ws.send(b"\x00binary")
        ws.send(json.dumps({"type": "record", "ref": 9}))
        binary = json.loads(ws.recv(10))
        assert (binary["type"], binary["code"]) == ("error", p.BAD_MESSAGE)
        assert json.loads(ws.recv(10))["code"] == p.NOT_SEATED
    with connect(url) as ws:  # no hello first: the worker says so
        ws.send(json.dumps({"type": "join", "table": "ABCDEF", "ref": 1}))
        assert json.loads(ws.recv(10))["code"] == p.NOT_HELLO


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_worker_is_started_again_and_its_tables_resume(
    server: tuple[subprocess.Popen[str], str], sig: signal.Signals
) -> None:
    """Killed, or stopped alone by SIGTERM (it saves its tables and ends): either way the
    front starts it again."""
    proc, url = server
    engine = Engine()
    clients: list[Client] = []
    try:
        tables = []
        for game in ("belote", "decouverte"):
            client = Client(url, reconnect_for=30.0).start()
            clients.append(client)
            made = create_table(client, engine.default_rules(game), bot="random", seed=5)
            table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
            table.start(made["host"])
            tables.append(table)
        deadline = time.monotonic() + 60
        for table in tables:
            seat_to_act(table, deadline)
        before = [(t.deal, t.step, t.latest_view.hand if t.latest_view else 0) for t in tables]
        slots = workers_of(proc)
        assert sorted(slots) == [0, 1]
        victim = worker_of(tables[0].code, 2)
        os.kill(slots[victim], sig)
        # its client reconnects through the front and is sent where its table stands by
        # the worker started again
        back = told = False
        for _ in range(300):
            msg = tables[0].client.get(0.1)
            if msg is None:
                if told and not tables[0].pending:
                    break
                continue
            tables[0].absorb(msg)
            back = back or msg == {"type": "connection", "state": "back"}
            told = told or (back and msg.get("type") == "update")
        assert back and told, "the client reconnected and was sent its table"
        hand = tables[0].latest_view.hand if tables[0].latest_view else 0
        assert (tables[0].deal, tables[0].step, hand) == before[0]
        new = workers_of(proc)
        assert new[victim] != slots[victim] and new[1 - victim] == slots[1 - victim]
        # the other worker's table never noticed; both play on
        for table in tables:
            view = table.latest_view
            assert view is not None
            table.act(table.seat or 0, view.legal_actions()[0])
            assert table.step > before[tables.index(table)][1]
    finally:
        for client in clients:
            client.close()


@pytest.mark.parametrize(
    ("sig", "to", "processes"),
    [
        (signal.SIGTERM, "front", 2),
        (signal.SIGINT, "group", 2),
        (signal.SIGTERM, "every", 2),
        (signal.SIGKILL, "front", 2),
        (signal.SIGTERM, "front", 1),
    ],
    ids=["kill-PID", "Ctrl-C", "service-manager-stop", "front-killed", "one-process"],
)
def test_a_signal_stops_the_front_and_its_workers_and_every_table_resumes(
    tmp_path: Path, sig: signal.Signals, to: str, processes: int
) -> None:
    """SIGTERM to the front (``kill PID``), Ctrl-C (SIGINT to the terminal's process
    group) and SIGTERM to every process of the server (a service manager's stop) each
    stop it cleanly: the front ends once its workers have (within a generous bound, not
    a speed test) and says it stopped.  A front killed outright leaves no worker behind
    either.  A server started again resumes every table where the signal found it.  A
    server of one process (``--workers 1``) stops on SIGTERM the same way."""
    engine = Engine()
    proc, port = start_server(tmp_path, processes)
    clients: list[Client] = []
    workers: dict[int, int] = {}
    try:
        tables = []
        for game in ("belote", "decouverte"):
            client = Client(f"ws://127.0.0.1:{port}").start()
            clients.append(client)
            made = create_table(client, engine.default_rules(game), bot="random", seed=8)
            table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
            table.start(made["host"])
            tables.append((table, made["tokens"][0]))
        deadline = time.monotonic() + 60
        for table, _ in tables:  # one action of the person's, the bots' after it
            seat_to_act(table, deadline)
            view = table.latest_view
            assert view is not None
            table.act(table.seat or 0, view.legal_actions()[0])
            seat_to_act(table, deadline)
        before = [(t.code, t.deal, t.step, hand_of(t)) for t, _ in tables]
        assert all(step > 0 for _, _, step, _ in before), "stopped in mid-deal"
        workers = workers_of(proc)
        assert sorted(workers) == ([0, 1] if processes == 2 else [])
        if to == "group":
            os.killpg(proc.pid, sig)
        for pid in [proc.pid, *workers.values()] if to == "every" else [proc.pid]:
            os.kill(pid, sig)
        # the streams close when every process that holds them (the workers too) ended
        _, err = proc.communicate(timeout=20)
        assert not still_running(workers.values())
        assert "Traceback" not in err, err
        if sig != signal.SIGKILL:
            assert proc.returncode == 0 and "stopped" in err, err
    finally:
        for client in clients:
            client.close()
        for pid in still_running([proc.pid, *workers.values()]):
            os.kill(pid, signal.SIGKILL)
        proc.wait(20)
    proc, port = start_server(tmp_path)
    try:
        for (code, deal, step, hand), (_, token) in zip(before, tables, strict=True):
            client = Client(f"ws://127.0.0.1:{port}").start()
            clients.append(client)
            again = RemoteTable(client, code, token, "Ada")
            assert (again.deal, again.step, hand_of(again)) == (deal, step, hand), code
    finally:
        for client in clients:
            client.close()
        stop(proc)


def test_the_limits_hold_across_the_workers(tmp_path: Path) -> None:
    """Each worker holds its share of a server-wide limit: with two tables in play a
    network address, two workers take one each and a third is refused."""
    proc, port = start_server(tmp_path, 2, "--per-address", "2")
    rules = Engine().default_rules("decouverte")
    clients = [Client(f"ws://127.0.0.1:{port}").start() for _ in range(3)]
    try:
        codes = [create_table(client, rules)["table"] for client in clients[:2]]
        assert sorted(worker_of(code, 2) for code in codes) == [0, 1]
        with pytest.raises(NetworkError, match="at most 1 tables in play") as refused:
            create_table(clients[2], rules)
        assert refused.value.code == p.TABLE_LIMIT
    finally:
        for client in clients:
            client.close()
        stop(proc)


def test_a_second_join_moves_a_connection_to_the_other_worker(
    server: tuple[subprocess.Popen[str], str],
) -> None:
    """One table per connection, and a second ``join`` moves it: also to a table that
    another worker holds (the connection is handed over, the client sees nothing)."""
    _, url = server
    rules = Engine().default_rules("decouverte")
    create = {"type": "create", **p.create_message(rules, "random", None)}

    def answer(ws: object, kind: str) -> dict[str, object]:
        for _ in range(20):
            msg = json.loads(ws.recv(10))  # type: ignore[attr-defined]
            if msg["type"] in (kind, "error"):
                return msg  # type: ignore[no-any-return]
        raise AssertionError(f"no {kind}")

    with connect(url) as ws, connect(url) as other:
        for c in (ws, other):
            c.send(json.dumps({"type": "hello", "version": p.VERSION}))
            assert answer(c, "welcome")["type"] == "welcome"
        ws.send(json.dumps(create))
        here = answer(ws, "created")
        other.send(json.dumps(create))
        there = answer(other, "created")
        assert worker_of(str(here["table"]), 2) != worker_of(str(there["table"]), 2)
        tokens = there["tokens"]
        assert isinstance(tokens, list)
        ws.send(json.dumps({"type": "join", "table": here["table"], "token": "x" * 20}))
        assert answer(ws, "joined")["code"] == p.BAD_TOKEN  # its own worker answered
        ws.send(json.dumps({"type": "join", "table": there["table"], "token": tokens[1]}))
        joined = answer(ws, "joined")
        assert (joined["type"], joined["table"], joined["seat"]) == ("joined", there["table"], 1)
        ws.send(json.dumps({"type": "record", "ref": 3}))
        assert answer(ws, "record")["table"] == there["table"]
        # the limit on the tables a connection creates follows it to its new worker
        for _ in range(19):
            ws.send(json.dumps(create))
            assert answer(ws, "created")["type"] == "created"
        ws.send(json.dumps(create))
        assert answer(ws, "created")["code"] == p.TABLE_LIMIT


def test_messages_sent_with_the_handshake_reach_the_worker_in_order(
    server: tuple[subprocess.Popen[str], str],
) -> None:
    """A client that sends its hello, a create and more in one write with the handshake
    (before the server's answer) is answered every message, in order: what the front read
    past the message that routes the connection goes to the worker with it."""
    import socket as sockets

    from websockets.client import ClientProtocol
    from websockets.frames import Frame
    from websockets.frames import Opcode
    from websockets.uri import parse_uri

    _, url = server
    rules = Engine().default_rules("decouverte")
    client = ClientProtocol(parse_uri(url))
    client.send_request(client.connect())
    request = b"".join(client.data_to_send())
    frames = [
        {"type": "hello", "version": p.VERSION, "ref": 1},
        {**p.create_message(rules, "random", None), "ref": 2},
        {"type": "record", "ref": 3},
        {"type": "hello", "version": p.VERSION, "ref": 4},
    ]
    host, port = url.removeprefix("ws://").split(":")
    with sockets.create_connection((host, int(port)), timeout=10) as raw:
        sent = request
        for msg in frames:  # frames made by hand: the protocol sends none before the answer
            frame = Frame(Opcode.TEXT, json.dumps(msg).encode())
            sent += frame.serialize(mask=True, extensions=[])
        raw.sendall(sent)
        answers: list[dict[str, object]] = []
        while len(answers) < len(frames):
            data = raw.recv(65536)
            assert data, "the connection closed"
            client.receive_data(data)
            for event in client.events_received():
                if isinstance(event, Frame) and event.opcode == Opcode.TEXT:
                    answers.append(json.loads(event.data))
    assert [a.get("ref") for a in answers] == [1, 2, 3, 4]
    assert [a["type"] for a in answers] == ["welcome", "created", "error", "welcome"]


def test_a_channel_gives_what_waits_with_its_descriptors_then_one_empty_message() -> None:
    """Front and worker read their channel alike: every message waiting now, with the
    descriptors it carries; nothing more while the channel is open; once the other end
    is gone, one empty message and the end."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.setblocking(False)
    r, w = os.pipe()
    try:
        socket.send_fds(theirs, [b"moved"], [r])
        theirs.send(b'{"tables": 2}')
        got = list(channel_messages(ours, 1 << 20))
        assert [data for data, _ in got] == [b"moved", b'{"tables": 2}']
        assert len(got[0][1]) == 1 and got[1][1] == []
        os.close(got[0][1][0])
        assert list(channel_messages(ours, 1 << 20)) == []  # open, nothing waiting
        theirs.close()
        assert list(channel_messages(ours, 1 << 20)) == [(b"", [])]
    finally:
        os.close(r)
        os.close(w)
        ours.close()
        theirs.close()
