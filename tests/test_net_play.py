"""People play through a local table server: terminal clients at every seat, a host
that starts a server from the terminal, house rules that travel with the table, a
dropped player replaced by a bot and taking the seat back."""

from __future__ import annotations

import io
import random
import threading
import time
from pathlib import Path

import pytest
from atout.core import Engine
from atout.core import card_str
from atout.core.errors import AtoutError
from atout.ui.net.address import TableOrder
from atout.ui.net.client import Client
from atout.ui.net.client import NetworkError
from atout.ui.net.client import RemoteTable
from atout.ui.net.client import create_table
from atout.ui.net.runner import ServerThread
from atout.ui.net.server import TableServer
from atout.ui.rules import resolve_rules
from atout.ui.terminal import TerminalGame
from atout.ui.terminal_match import host_match
from atout.ui.terminal_match import join_match
from atout.ui.terminal_match import run_remote


class RemotePerson(io.StringIO):
    """Answers each prompt of a remote terminal game with a random legal action,
    sometimes after a card the rules forbid."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.game: TerminalGame | None = None
        self.rng = random.Random(seed)
        self.mistakes = 0

    def readline(self, size: int | None = -1) -> str:
        assert self.game is not None
        view = self.game.session.view(self.game.seat)
        if view.phase == "play" and self.rng.random() < 0.2:
            wrong = [c for c in range(32) if view.hand >> c & 1 and not view.legal >> c & 1]
            if wrong:
                self.mistakes += 1
                return card_str(self.rng.choice(wrong)) + "\n"
        return str(self.rng.choice(view.legal_actions())) + "\n"


@pytest.fixture
def server() -> ServerThread:
    thread = ServerThread(TableServer(Engine(), None, grace=0.3)).start()
    yield thread  # type: ignore[misc]
    thread.stop()


def play_everyone(url: str, made: dict, seats: int) -> list[tuple[RemoteTable, str, RemotePerson]]:
    """Every seat a terminal game in its own thread, until the match ends."""
    results: list[tuple[RemoteTable, str, RemotePerson]] = []
    failures: list[BaseException] = []
    clients: list[Client] = []

    def one(seat: int) -> None:
        try:
            client = Client(url).start()
            clients.append(client)
            table = RemoteTable(client, made["table"], made["tokens"][seat], f"P{seat}")
            person = RemotePerson(seat)
            out = io.StringIO()
            game = TerminalGame(table, person, out, seat=seat)
            person.game = game
            game.run()
            results.append((table, out.getvalue(), person))
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=one, args=(s,)) for s in range(seats)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for c in clients:
        c.close()
    assert not failures, failures
    assert len(results) == seats
    return sorted(results, key=lambda r: r[0].seat or 0)


def test_four_terminal_clients_play_a_four_player_match(server: ServerThread) -> None:
    engine = Engine()
    url = f"ws://127.0.0.1:{server.port}"
    rules = engine.make_rules("belote", {"target": 300})
    host = Client(url).start()
    made = create_table(host, rules, seed=3)
    host.close()
    results = play_everyone(url, made, 4)
    session = server.server.tables[made["table"]].session
    assert session.result is not None
    for seat, (table, text, person) in enumerate(results):
        assert table.result == session.result and table.scores == session.scores
        assert "=== Deal 1:" in text and "End of the deal" in text
        assert "the match:" in text.splitlines()[-1]
        assert f"You play {''}" in text or "You bid" in text
        if person.mistakes:
            assert "You cannot play" in text, seat
        for other in range(4):  # the players' names, sent with each join, not the seats'
            if other != seat:
                assert f"P{other} plays" in text, (seat, other)
        assert not any(f"{where} plays" in text for where in ("North", "East", "South", "West"))
    assert sum(p.mistakes for _, _, p in results) > 0
    # the match record the server gives names who played each seat
    record = server.server.tables[made["table"]].record()
    assert [(p["kind"], p["name"]) for p in record["players"]] == [
        ("remote", f"P{s}") for s in range(4)
    ]


def test_two_terminal_clients_play_a_decouverte_match(server: ServerThread) -> None:
    engine = Engine()
    url = f"ws://127.0.0.1:{server.port}"
    host = Client(url).start()
    made = create_table(host, engine.default_rules("decouverte"), seed=8)
    host.close()
    results = play_everyone(url, made, 2)
    session = server.server.tables[made["table"]].session
    assert session.result is not None and session.deals_scored >= 2
    texts = [text for _, text, _ in results]
    assert all("face-down card is turned" in t for t in texts)
    assert all("far :" in t for t in texts), "each player sees the piles"


def test_a_house_rule_pack_travels_with_the_table(server: ServerThread, tmp_path: Path) -> None:
    """The host resolves a pack file the server and the joining client never see."""
    engine = Engine()
    pack = tmp_path / "our-house.yaml"
    pack.write_text(
        "game: belote\ndescription: ours\nextends: official\ntarget: 700\ntie: abeyance\n",
        encoding="utf-8",
    )
    rules = resolve_rules(engine, "belote", str(pack))
    url = f"ws://127.0.0.1:{server.port}"
    host = Client(url).start()
    made = create_table(host, rules, seed=1)
    guest = Client(url).start()
    try:
        table = RemoteTable(guest, made["table"], made["tokens"][2], "Guest")
        assert table.rules == rules and table.rules.pack == rules.pack
        assert table.rules["target"] == 700
        assert server.server.tables[made["table"]].session.rules == rules
    finally:
        guest.close()
        host.close()


def test_a_table_with_rules_the_server_does_not_know_is_refused(server: ServerThread) -> None:
    engine = Engine()
    client = Client(f"ws://127.0.0.1:{server.port}").start()
    try:
        rules = engine.default_rules("belote").replace(no_such_option=True)
        with pytest.raises(NetworkError, match="no_such_option"):
            create_table(client, rules)
    finally:
        client.close()


def test_a_dropped_player_is_replaced_by_a_bot_and_takes_the_seat_back(
    server: ServerThread,
) -> None:
    engine = Engine()
    url = f"ws://127.0.0.1:{server.port}"
    host = Client(url).start()
    made = create_table(host, engine.default_rules("belote"), bot="random", seed=5)
    first = Client(url).start()
    table = RemoteTable(first, made["table"], made["tokens"][0], "Ada")
    table.start(made["host"])
    deadline = time.monotonic() + 20
    while not (table.to_act == 0 and table.latest_view) and time.monotonic() < deadline:
        table.wait(0.2)
    position = (table.deal, table.step)
    first.close()  # dropped: the seat waits for the grace period, then the bot plays it
    tables = server.server.tables
    while time.monotonic() < deadline:
        moved = server.call(lambda: tables[made["table"]].step())
        if moved != position:
            break
        time.sleep(0.05)
    assert moved != position, "the bot played the dropped seat"
    again = Client(url).start()
    try:
        back = RemoteTable(again, made["table"], made["tokens"][0], "Ada")
        state = server.call(lambda: tables[made["table"]].seat_state(0, time.monotonic()))
        assert state == "person", "the seat is the person's again, the bot stopped"
        while time.monotonic() < deadline:
            msg = again.get(0.2)
            if msg is not None:
                back.absorb(msg)
            view = back.latest_view
            if back.to_act == 0 and view is not None and view.to_act:
                back.act(0, view.legal_actions()[0])  # the seat is the person's again
                break
        assert back.result is not None or back.step > 0
    finally:
        again.close()
        host.close()


class ScreenReader(io.StringIO):
    """A person who reads the screen: presses Enter to start, then answers each prompt
    with the first legal card it lists, or passes (or takes) at the bidding."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen

    def readline(self, size: int | None = -1) -> str:
        prompt = self.screen.getvalue().rsplit("\n", 1)[-1]
        if "Press Enter" in prompt:
            return "\n"
        if "(legal: " in prompt:
            return prompt.split("(legal: ", 1)[1].split()[0].rstrip("):") + "\n"
        if "Your bid" in prompt:
            return ("pass" if "pass" in prompt else "take") + "\n"
        return "quit\n"


def test_a_host_plays_from_the_terminal_against_bots(tmp_path: Path) -> None:
    engine = Engine()
    rules = engine.make_rules("decouverte", {"target": 200})
    screen = io.StringIO()
    code = host_match(
        engine,
        TableOrder(rules, "random", 2),
        listen=("127.0.0.1", 0),
        inp=ScreenReader(screen),
        out=screen,
        data=tmp_path,
    )
    out = screen.getvalue()
    assert code == 0
    assert "atout play --join 127.0.0.1:" in out and "--token " in out
    assert "Your card (legal:" in out
    assert "the match:" in out
    assert list(tmp_path.glob("*.table")), "the hosted table was saved"


def test_joining_with_a_bad_address_or_token_is_one_clear_error(server: ServerThread) -> None:
    with pytest.raises(AtoutError, match="HOST:PORT/TABLE"):
        join_match("nowhere", None)
    engine = Engine()
    client = Client(f"ws://127.0.0.1:{server.port}").start()
    made = create_table(client, engine.default_rules("belote"))
    client.close()
    with pytest.raises(AtoutError, match="no seat"):
        join_match(f"127.0.0.1:{server.port}/{made['table']}", "wrong-token")
    with pytest.raises(AtoutError, match="no table"):
        join_match(f"127.0.0.1:{server.port}/NOSUCH", None)
    with pytest.raises(AtoutError, match="cannot reach"):
        join_match("127.0.0.1:1/ABCDEF", None)


def test_a_spectator_watches_the_public_events(server: ServerThread) -> None:
    engine = Engine()
    url = f"ws://127.0.0.1:{server.port}"
    host = Client(url).start()
    made = create_table(host, engine.make_rules("belote", {"target": 200}), bot="random", seed=9)
    watcher = Client(url).start()
    try:
        table = RemoteTable(watcher, made["table"], None)
        assert table.seat is None
        RemoteTable(host, made["table"], None).start(made["host"])
        out = io.StringIO()
        run_remote(table, io.StringIO(""), out)
        text = out.getvalue()
        assert "the trick (" in text and "the match:" in text
        assert "Your" not in text
    finally:
        watcher.close()
        host.close()


def test_a_watcher_that_reads_nothing_does_not_hold_up_the_table() -> None:
    """Each connection has its own queue of messages: a client that never reads (the
    socket's buffers full) costs its own connection, never the table's pace."""
    import asyncio
    import json

    from atout.ui.net import protocol as p
    from atout.ui.net.botclient import create
    from atout.ui.net.botclient import play_seat
    from websockets.asyncio.client import connect

    engine = Engine()

    async def main() -> bool:
        server = TableServer(engine, None)
        await server.start()
        try:
            url = f"ws://127.0.0.1:{server.port}"
            rules = engine.make_rules("belote", {"target": 300})
            made = await create(url, rules, seed=2)
            async with connect(url, max_queue=1, close_timeout=0.2) as idle:
                for msg in (
                    {"type": "hello", "version": p.VERSION},
                    {"type": "join", "table": made["table"]},
                ):
                    await idle.send(json.dumps(msg))
                runs = await asyncio.gather(
                    *(
                        play_seat(
                            url,
                            made["table"],
                            token,
                            rules,
                            lambda view: view.legal_actions()[0],
                            deadline=30,
                        )
                        for token in made["tokens"]
                    )
                )
            return all(r.finished for r in runs)
        finally:
            await server.stop()

    assert asyncio.run(main())


def test_a_client_joining_mid_match_gets_the_deals_scored_before(server: ServerThread) -> None:
    engine = Engine()
    url = f"ws://127.0.0.1:{server.port}"
    host = Client(url).start()
    early_client = Client(url).start()
    late_client = Client(url).start()
    try:
        made = create_table(host, engine.make_rules("belote", {"target": 400}), bot="random")
        early = RemoteTable(early_client, made["table"], None)
        RemoteTable(host, made["table"], None).start(made["host"])
        deadline = time.monotonic() + 30
        while early.deals_scored < 2 and time.monotonic() < deadline:
            early.wait(0.5)
        assert early.deals_scored >= 2
        late = RemoteTable(late_client, made["table"], None)
        # the joined message and the first update are sent together: the scores add up
        assert len(late.scored) == late.deals_scored >= 2
        assert tuple(map(sum, zip(*(s.score for s in late.scored), strict=True))) == late.scores
        while (early.result is None or late.result is None) and time.monotonic() < deadline:
            early.wait(0.2)
            late.wait(0.2)
        assert early.result is not None and late.result is not None
        assert [s.score for s in late.scored] == [s.score for s in early.scored]
        # joined again after a lost connection: the list is replaced in place
        kept = late.scored
        first = {
            "kind": "score",
            "deal": 1,
            "score": {
                "score": list(early.scored[0].score),
                "card_points": list(early.scored[0].card_points),
                "declaration_points": list(early.scored[0].declaration_points),
                "outcome": early.scored[0].outcome,
            },
        }
        late.absorb({"type": "joined", "scored": [first]})
        assert late.scored is kept and [s.score for s in kept] == [early.scored[0].score]
    finally:
        for c in (host, early_client, late_client):
            c.close()
