"""A table hosted from the terminal, with real servers on 127.0.0.1: the host is told who
joins and leaves, and when the host leaves every guest is told the table closed (no
guest is left reconnecting to a server that stopped)."""

from __future__ import annotations

import io
import queue
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

from atout.core import Engine
from atout.ui.net.address import TableOrder
from atout.ui.net.client import Client
from atout.ui.net.client import RemoteTable
from atout.ui.net.client import create_table
from atout.ui.net.runner import ServerThread
from atout.ui.net.server import TableServer
from atout.ui.terminal import TerminalGame
from atout.ui.terminal_match import host_match
from atout.ui.terminal_match import join_match

WAIT = 15.0
"""Seconds a step may take before the test gives up (each takes well under one)."""


class Typist(io.StringIO):
    """A person at a keyboard: each line given to :meth:`type` is read once, in order;
    reading waits for the next one (the end of the input after :data:`WAIT` seconds)."""

    def __init__(self) -> None:
        super().__init__()
        self.typed: queue.Queue[str] = queue.Queue()

    def type(self, line: str) -> None:
        self.typed.put(line + "\n")

    def readline(self, size: int | None = -1) -> str:
        try:
            return self.typed.get(timeout=WAIT)
        except queue.Empty:
            return ""


def until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


class Host:
    """``atout play --text --host`` in a thread of its own, typed at by :attr:`keys`."""

    def __init__(self, tmp_path: Path, game: str = "belote", seed: int = 3) -> None:
        engine = Engine()
        self.keys = Typist()
        self.screen = io.StringIO()
        self.code: int | None = None

        def run() -> None:
            self.code = host_match(
                engine,
                TableOrder(engine.default_rules(game), "random", seed, "Ada"),
                listen=("127.0.0.1", 0),
                inp=self.keys,
                out=self.screen,
                data=tmp_path,
            )

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        until(lambda: "Press Enter to start" in self.text, "the host's lobby")

    @property
    def text(self) -> str:
        return self.screen.getvalue()

    def join_line(self, seat_name: str) -> tuple[str, str]:
        """The address and token the host printed for ``seat_name``."""
        found = re.search(rf"{seat_name}\s+atout play --join (\S+) --token (\S+)", self.text)
        assert found is not None, self.text
        return found.group(1), found.group(2)


class Guest:
    """``atout play --text --join ...`` in a thread of its own."""

    def __init__(self, address: str, token: str | None, name: str) -> None:
        self.keys = Typist()
        self.screen = io.StringIO()
        self.code: int | None = None

        def run() -> None:
            self.code = join_match(address, token, name, inp=self.keys, out=self.screen)

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        until(lambda: "atout: joined table" in self.text, "the guest's join")

    @property
    def text(self) -> str:
        return self.screen.getvalue()


def test_the_host_is_told_in_the_lobby_who_joins_and_leaves(tmp_path: Path) -> None:
    host = Host(tmp_path)
    address, token = host.join_line("North")
    url, code = address.rsplit("/", 1)
    client = Client(f"ws://{url}").start()
    try:
        RemoteTable(client, code, token, "Bob")
        until(lambda: "(Bob joined the table as North)" in host.text, "the join told")
    finally:
        client.close()
    until(lambda: "(Bob left North's seat; the Beginner bot takes it" in host.text, "the leave")
    assert host.text.rstrip().endswith("Press Enter to start (or type quit):")
    host.keys.type("quit")
    host.thread.join(WAIT)
    assert host.code == 0


def test_when_the_host_quits_at_a_prompt_each_guest_is_told_the_table_closed(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path)  # belote, seed 3: West deals, the host (South) bids first
    guest = Guest(*host.join_line("North"), "Bob")
    host.keys.type("")
    until(lambda: "Your bid (" in host.text, "the host's first prompt")
    until(lambda: "=== Deal 1: West deals ===" in guest.text, "the guest sees the deal")
    host.keys.type("quit")
    host.thread.join(WAIT)
    guest.thread.join(WAIT)
    assert not guest.thread.is_alive(), "the guest is not left waiting"
    assert guest.code == 1
    assert "The table cannot be reached any more (the host closed the table)." in guest.text
    assert "reconnecting" not in guest.text
    assert "(Ada is at the table as South)" in guest.text
    assert "You closed the table" in host.text


def test_when_the_host_quits_in_the_lobby_each_guest_is_told_the_table_closed(
    tmp_path: Path,
) -> None:
    host = Host(tmp_path)
    guest = Guest(*host.join_line("East"), "Cy")
    address = host.join_line("East")[0]
    watcher = Guest(address, None, "Dee")
    for person in (guest, watcher):
        until(lambda p=person: "Waiting for the host to start" in p.text, "seated")
    assert "as a spectator" in watcher.text
    host.keys.type("quit")
    host.thread.join(WAIT)
    for person in (guest, watcher):
        person.thread.join(WAIT)
        assert not person.thread.is_alive(), "nobody is left waiting"
        assert "(the host closed the table)" in person.text


def test_a_guest_at_a_prompt_is_told_at_once_when_the_table_closes() -> None:
    from atout.ui.terminal import LineReader

    engine = Engine()
    server = ServerThread(TableServer(engine, None, grace=30.0)).start()
    try:
        url = f"ws://127.0.0.1:{server.port}"
        owner = Client(url).start()
        made = create_table(owner, engine.default_rules("belote"), bot="random", seed=3)
        client = Client(url).start()
        table = RemoteTable(client, made["table"], made["tokens"][0], "Ada")
        table.start(made["host"])
        keys = Typist()
        screen = io.StringIO()
        game = TerminalGame(table, keys, screen, seat=0, lines=LineReader(keys))
        result: list[int] = []
        thread = threading.Thread(target=lambda: result.append(game.run()), daemon=True)
        thread.start()
        until(lambda: "Your bid (" in screen.getvalue(), "the person's prompt")
        server.close_tables("the host closed the table")
        thread.join(WAIT)
        assert result == [1], "the game ends while the person has typed nothing"
        assert "The table cannot be reached any more (the host closed the table)." in (
            screen.getvalue()
        )
        client.close()
        owner.close()
    finally:
        server.stop()


def answer(screen: str) -> str | None:
    """What a person answers to the prompt ``screen`` ends with (``None``: no prompt):
    pass at the bidding, else the first legal card."""
    prompt = screen.rsplit("\n", 1)[-1]
    if "Your bid (" in prompt:
        return "pass"
    if "(legal: " in prompt:
        return prompt.split("(legal: ", 1)[1].split()[0].rstrip("):")
    return None


def test_a_guest_who_quits_leaves_the_table_going_for_the_others(tmp_path: Path) -> None:
    host = Host(tmp_path)
    guest = Guest(*host.join_line("North"), "Bob")
    host.keys.type("")
    deadline = time.monotonic() + WAIT
    answered = ""
    while answer(guest.text) is None:  # the host plays until the guest is asked
        assert time.monotonic() < deadline, "the guest is asked to act"
        screen = host.text
        typed = answer(screen)
        if typed is not None and screen != answered:
            answered = screen  # once a prompt
            host.keys.type(typed)
        time.sleep(0.05)
    guest.keys.type("quit")
    guest.thread.join(WAIT)
    assert "You left the table; a bot plays your seat" in guest.text
    until(lambda: "(Bob left North's seat" in host.text, "the host told")
    assert "(Bob left North's seat; the Beginner bot plays it now)" in host.text
    host.keys.type("quit")
    host.thread.join(WAIT)
    assert host.code == 0


def test_a_guest_whose_server_vanishes_gives_up_after_the_reconnection_time() -> None:
    """A host killed without a word (the server gone, nobody told): the guest tries
    again for the client's reconnection time, says so, then says the table cannot be
    reached and ends."""
    engine = Engine()
    server = ServerThread(TableServer(engine, None, grace=30.0)).start()
    url = f"ws://127.0.0.1:{server.port}"
    owner = Client(url).start()
    made = create_table(owner, engine.default_rules("belote"), bot="random", seed=3)
    client = Client(url, reconnect_for=0.5).start()
    table = RemoteTable(client, made["table"], made["tokens"][2], "Bob")
    screen = io.StringIO()
    game = TerminalGame(table, Typist(), screen, seat=2)
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(game.run()), daemon=True)
    thread.start()
    server.stop()
    thread.join(WAIT)
    client.close()
    owner.close()
    assert result == [1]
    text = screen.getvalue()
    assert "(connection lost; reconnecting (for up to 0.5 s)...)" in text
    assert text.endswith("The table cannot be reached any more (the server did not come back).\n")


def test_the_hosts_lobby_ends_by_itself_when_every_seat_is_taken(tmp_path: Path) -> None:
    host = Host(tmp_path, game="decouverte", seed=2)
    guest = Guest(*host.join_line("North"), "Bob")
    until(lambda: "Every seat is taken: the table starts." in host.text, "the table starts")
    until(lambda: "=== Deal 1" in guest.text, "the guest sees the deal")
    host.keys.type("quit")  # the answer to the host's first prompt
    host.thread.join(WAIT)
    guest.thread.join(WAIT)
    assert host.code == 0
    assert "(Bob joined the table as North)" in host.text
    assert "(the host closed the table)" in guest.text
