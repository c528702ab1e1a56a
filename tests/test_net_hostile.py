"""A hostile client cannot break a table server: a text no file can hold is refused
before it reaches a table, a table whose task fails says so instead of dying in silence,
the log never shows a save file or a token, one address cannot lock everyone out by
creating tables, and a connection that never says hello is closed."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from atout.core import Engine
from atout.core.limits import MAX_NAME
from atout.core.limits import MAX_SEED
from atout.core.savefile import SaveFile
from atout.ui.net import protocol as p
from atout.ui.net.server import CLOSE_POLICY
from atout.ui.net.server import TableServer
from atout.ui.net.tables import SAVE_SUFFIX
from atout.ui.net.tables import UNSTARTED_TTL
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def reply(ws: ClientConnection, *kinds: str, timeout: float = 10.0) -> dict[str, Any]:
    """The next message of one of ``kinds`` (or an error)."""
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] in kinds or msg["type"] == "error":
            return msg


async def hello(url: str, address: str = "127.0.0.1") -> ClientConnection:
    """A connection from ``address`` (any address of the loopback network) that said
    hello."""
    ws = await connect(url, local_addr=(address, 0))
    await ws.send(json.dumps({"type": "hello", "version": p.VERSION}))
    assert (await reply(ws, "welcome"))["type"] == "welcome"
    return ws


async def create(ws: ClientConnection, game: str = "decouverte") -> dict[str, Any]:
    await ws.send(json.dumps({"type": "create", "game": game, "bot": "random", "seed": 5}))
    return await reply(ws, "created")


def watch_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """Capture what a server's log shows: its own records, at every level, and those of
    asyncio and websockets (a dying task, a failing handler) from INFO up."""
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="atout.net")


def secrets_in(made: dict[str, Any]) -> list[str]:
    return [made["host"], *made["tokens"]]


def test_a_name_no_file_can_hold_is_refused_and_the_table_deals(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A lone surrogate (or a control character, or a name over 100 characters) in a
    name is refused with one error; the table deals, its save file holds the names."""
    watch_the_log(caplog)
    engine = Engine()
    longest = "é" * MAX_NAME

    async def main() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        server = TableServer(engine, tmp_path, grace=60.0)
        await server.start()
        try:
            url = f"ws://127.0.0.1:{server.port}"
            ws = await hello(url)
            made = await create(ws)
            refused = []
            for name in ("\ud800", "Ada\x1b[2J", "n" * (MAX_NAME + 1)):
                join = {"type": "join", "table": made["table"], "token": made["tokens"][0]}
                await ws.send(json.dumps({**join, "name": name}))
                refused.append(await reply(ws, "joined"))
            await ws.send(json.dumps({**join, "name": longest}))
            assert (await reply(ws, "joined"))["type"] == "joined"
            await ws.send(
                json.dumps({"type": "start", "table": made["table"], "host": made["host"]})
            )
            while True:  # the first deal reaches the seat: the table lives
                update = await reply(ws, "update")
                assert update["type"] == "update", update
                if update["view"] is not None:
                    break
            await ws.close()
            return made, refused, update
        finally:
            await server.stop()

    made, refused, update = asyncio.run(main())
    assert [r["code"] for r in refused] == [p.BAD_MESSAGE] * 3, refused
    assert "surrogate" in refused[0]["message"] and "100" in refused[2]["message"]
    assert update["deal"] == 1
    saved, _ = SaveFile(tmp_path / (made["table"] + SAVE_SUFFIX)).read()
    assert saved["match"]["players"][0]["name"] == longest, "the name reaches the record"
    assert saved["meta"]["names"][0] == longest
    for secret in secrets_in(made):
        assert secret not in caplog.text


def test_a_failing_table_is_logged_without_its_secrets_and_its_clients_told(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deal's save cannot be written (as when a text could not be encoded): every
    client of the table gets an ``internal`` error, and the log names the failure
    without the save file's text, its layout or its tokens."""
    watch_the_log(caplog)
    engine = Engine()

    def fail(self: SaveFile, data: dict[str, Any]) -> None:
        text = json.dumps(data, ensure_ascii=False)
        raise UnicodeEncodeError("utf-8", text, 0, 1, "surrogates not allowed")

    async def main() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        server = TableServer(engine, tmp_path, grace=60.0)
        await server.start()
        try:
            url = f"ws://127.0.0.1:{server.port}"
            seat, watcher = await hello(url), await hello(url)
            made = await create(seat)
            code = made["table"]
            await seat.send(json.dumps({"type": "join", "table": code, "token": made["tokens"][0]}))
            await watcher.send(json.dumps({"type": "join", "table": code}))
            assert (await reply(seat, "joined"))["type"] == "joined"
            assert (await reply(watcher, "joined"))["type"] == "joined"
            monkeypatch.setattr(SaveFile, "write", fail)
            await seat.send(json.dumps({"type": "start", "table": code, "host": made["host"]}))
            told = await reply(seat, "no such type")
            seen = await reply(watcher, "no such type")
            await seat.close()
            await watcher.close()
            return made, told, seen
        finally:
            monkeypatch.undo()
            await server.stop()

    made, told, seen = asyncio.run(main())
    assert told["code"] == p.INTERNAL and seen["code"] == p.INTERNAL, (told, seen)
    assert "UnicodeEncodeError" in caplog.text, "the failure is logged"
    for secret in secrets_in(made):
        assert secret not in caplog.text, "a token in the log"
    assert '"layout"' not in caplog.text and '"hands"' not in caplog.text


def test_one_address_flooding_create_keeps_nobody_out_for_long(tmp_path: Path) -> None:
    """One connection creates at most its share, one address at most its own; another
    address still creates; a server filled with tables nobody starts is free again once
    they expire (and a restart does not bring them back)."""
    engine = Engine()
    clock = Clock()

    async def main() -> dict[str, Any]:
        server = TableServer(
            engine,
            tmp_path,
            max_tables=12,
            max_per_connection=4,
            max_per_address=8,
            clock=clock,
        )
        await server.start()
        out: dict[str, Any] = {}
        try:
            url = f"ws://127.0.0.1:{server.port}"
            flood = [await hello(url) for _ in range(3)]
            answers = [(await create(flood[0]))["type"] for _ in range(5)]
            out["one connection"] = answers
            answers = [(await create(ws))["type"] for ws in flood[1:] for _ in range(3)]
            out["one address"] = answers
            refused = await create(flood[2])
            out["address refused"] = refused
            other = await hello(url, "127.0.0.2")
            out["other address"] = [(await create(other))["type"] for _ in range(4)]
            third = await hello(url, "127.0.0.3")
            out["full"] = await create(third)
            clock.now += UNSTARTED_TTL
            out["after expiry"] = (await create(third))["type"]
            out["tables"] = len(server.tables)
            for ws in [*flood, other, third]:
                await ws.close()
            clock.now += UNSTARTED_TTL
        finally:
            await server.stop()
        again = TableServer(engine, tmp_path, clock=clock)
        await again.start()
        out["after restart"] = len(again.tables)
        await again.stop()
        return out

    out = asyncio.run(main())
    assert out["one connection"] == ["created"] * 4 + ["error"]
    assert out["one address"] == ["created"] * 4 + ["error"] * 2
    assert out["address refused"]["code"] == p.TABLE_LIMIT
    assert out["other address"] == ["created"] * 4
    assert out["full"]["code"] == p.FULL and "expires" in out["full"]["message"]
    assert out["after expiry"] == "created"
    assert out["tables"] == 1, "the tables nobody started are gone"
    assert out["after restart"] == 0, "an expired table is not read back"
    assert list(tmp_path.glob("*" + SAVE_SUFFIX)) == []


def test_a_connection_that_never_says_hello_is_closed() -> None:
    engine = Engine()

    async def main() -> int | None:
        server = TableServer(engine, None, hello_timeout=0.2)
        await server.start()
        try:
            async with connect(f"ws://127.0.0.1:{server.port}") as ws:
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)
                return ws.close_code
        finally:
            await server.stop()

    assert asyncio.run(main()) == CLOSE_POLICY


def test_a_text_frame_that_is_not_utf8_closes_the_connection_with_1007() -> None:
    engine = Engine()

    async def main() -> int | None:
        server = TableServer(engine, None)
        await server.start()
        try:
            async with connect(f"ws://127.0.0.1:{server.port}") as ws:
                await ws.send(b'{"type": "hello", "version": 1, "x": "\xff"}', text=True)
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)
                return ws.close_code
        finally:
            await server.stop()

    assert asyncio.run(main()) == 1007


def test_the_largest_seed_makes_a_table_that_restarts(tmp_path: Path) -> None:
    """A seed beyond 18 digits is refused at ``create`` (the save reader would refuse
    it after a restart); the largest allowed seed's table is read back."""
    engine = Engine()

    async def main() -> tuple[list[dict[str, Any]], int, bool]:
        server = TableServer(engine, tmp_path, grace=60.0)
        await server.start()
        try:
            url = f"ws://127.0.0.1:{server.port}"
            ws = await hello(url)
            refused = []
            for seed in (MAX_SEED + 1, 10**30):
                await ws.send(json.dumps({"type": "create", "game": "belote", "seed": seed}))
                refused.append(await reply(ws, "created"))
            await ws.send(json.dumps({"type": "create", "game": "belote", "seed": MAX_SEED}))
            made = await reply(ws, "created")
            code = made["table"]
            await ws.send(json.dumps({"type": "start", "table": code, "host": made["host"]}))
            assert (await reply(ws, "started"))["type"] == "started"
            await ws.close()
        finally:
            await server.stop()
        again = TableServer(engine, tmp_path)
        await again.start()
        try:
            assert again.problems == []
            table = again.tables[code]
            return refused, table.session.match.seed, table.started
        finally:
            await again.stop()

    refused, seed, started = asyncio.run(main())
    assert [r.get("code") for r in refused] == [p.BAD_MESSAGE] * 2, refused
    assert seed == MAX_SEED and started


def test_a_table_whose_file_cannot_be_written_is_not_made(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``create`` on a disk that refuses the save file: one ``internal`` error, and no
    table is left behind half made (nor counted against the connection)."""
    watch_the_log(caplog)
    engine = Engine()

    def refuse(self: SaveFile, data: dict[str, Any]) -> None:
        raise OSError(28, "No space left on device")

    async def main() -> tuple[dict[str, Any], int, dict[str, Any]]:
        server = TableServer(engine, tmp_path, max_per_connection=1)
        await server.start()
        try:
            ws = await hello(f"ws://127.0.0.1:{server.port}")
            monkeypatch.setattr(SaveFile, "write", refuse)
            failed = await create(ws)
            left = len(server.tables)
            monkeypatch.undo()
            made = await create(ws)
            await ws.close()
            return failed, left, made
        finally:
            monkeypatch.undo()
            await server.stop()

    failed, left, made = asyncio.run(main())
    assert failed["code"] == p.INTERNAL
    assert left == 0, "no table without its file"
    assert made["type"] == "created", made
