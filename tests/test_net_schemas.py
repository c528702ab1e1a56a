"""Every frame the server sends matches the protocol's JSON Schemas
(docs/protocol-schemas/), in played matches of both games (passed-out deals, records,
explanations and errors included) and in a session that goes through every message; the
messages come in the order docs/protocol.md gives; and the schemas can fail."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from atout.core import Engine
from atout.ui.net import protocol as p
from atout.ui.net.server import TableServer
from schema_check import SCHEMAS
from schema_check import SchemaError
from schema_check import Validator
from test_net_leaks import play_table
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect

CHECK = Validator()


def check_server(msg: dict[str, Any]) -> None:
    CHECK.validate(msg, f"server/{msg['type']}.json")


def test_every_message_type_has_a_schema() -> None:
    server = {p.name for p in (SCHEMAS / "server").glob("*.json")}
    client = {p.name for p in (SCHEMAS / "client").glob("*.json")}
    assert client == {f"{t}.json" for t in TableServer._handlers} | {"hello.json"}
    assert server == {
        f"{t}.json"
        for t in (
            "welcome",
            "created",
            "joined",
            "players",
            "update",
            "started",
            "explained",
            "record",
            "left",
            "error",
        )
    }
    codes = CHECK.load(SCHEMAS / "server" / "error.json")["properties"]["code"]["enum"]
    assert codes == list(p.ERROR_CODES)


def test_every_frame_of_played_matches_fits_its_schema() -> None:
    engine = Engine()
    kinds: set[str] = set()
    events: set[str] = set()
    passed_out: dict[str, int] = {"belote": 0, "decouverte": 0}
    for game, seed, pack in (
        ("belote", 1, "arret"),
        ("decouverte", 2, "decouverte-reveal-on-lead"),
    ):
        deals, frames = asyncio.run(play_table(engine, game, seed, pack))
        passed_out[game] += sum(d.state.phase == "redeal" for d in deals)
        for seat_frames in frames:
            for msg, _ in seat_frames:
                check_server(msg)
                kinds.add(msg["type"])
                if msg["type"] == "update":
                    events.update(e["kind"] for e in msg["events"])
    assert min(passed_out.values()) > 0, passed_out
    assert kinds >= {"welcome", "joined", "players", "update", "record", "explained", "error"}
    assert events >= {"deal", "hand", "bid", "contract", "play", "announce", "turn", "trick"}
    assert events >= {"score", "redeal", "match-over", "claim"}


async def recv(ws: ClientConnection) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    check_server(msg)
    return msg


async def send(ws: ClientConnection, msg: dict[str, Any]) -> None:
    if msg["type"] in {"hello", *TableServer._handlers}:
        CHECK.validate(msg, f"client/{msg['type']}.json")
    await ws.send(json.dumps(msg))


async def ask(ws: ClientConnection, msg: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``msg`` with a ref; every message up to the one that answers it."""
    await send(ws, {**msg, "ref": msg["type"]})
    got = []
    while True:
        got.append(await recv(ws))
        if got[-1].get("ref") == msg["type"]:
            return got


def test_a_session_through_every_message_in_the_documented_order() -> None:
    engine = Engine()

    async def main() -> dict[str, list[dict[str, Any]]]:
        server = TableServer(engine, None, grace=60.0)
        await server.start()
        seen: dict[str, list[dict[str, Any]]] = {}
        try:
            url = f"ws://127.0.0.1:{server.port}"
            async with connect(url) as ws, connect(url) as other:
                seen["hello"] = await ask(ws, {"type": "hello", "version": p.VERSION})
                seen["hello again"] = await ask(ws, {"type": "hello", "version": p.VERSION})
                await send(other, {"type": "hello", "version": p.VERSION})
                await recv(other)
                for kind in ("record", "explain", "leave"):
                    extra = {"card": "JH"} if kind == "explain" else {}
                    seen[f"{kind} first"] = await ask(ws, {"type": kind, **extra})
                made = (await ask(ws, {"type": "create", "game": "decouverte", "seed": 3}))[-1]
                seen["create"] = [made]
                code = made["table"]
                join = {"type": "join", "table": code.lower(), "token": made["tokens"][0]}
                seen["join"] = [*await ask(ws, {**join, "name": "Ada"}), await recv(ws)]
                seen["players"] = [await recv(ws)]
                seen["start"] = await ask(
                    ws, {"type": "start", "table": code, "host": made["host"]}
                )
                seen["deal 1"] = [await recv(ws)]
                seen["start again"] = await ask(
                    ws, {"type": "start", "table": code, "host": made["host"]}
                )
                seen["watch"] = [
                    *await ask(other, {"type": "join", "table": code}),
                    await recv(other),
                ]
                seen["leave"] = await ask(ws, {"type": "leave"})
                for _ in range(500):  # the watcher's next seat list: seat 0 to the bot
                    msg = await recv(other)
                    if msg["type"] == "players" and msg["players"][0]["state"] != "person":
                        seen["left"] = [msg]
                        break
        finally:
            await server.stop()
        return seen

    seen = asyncio.run(main())
    types = {k: [m["type"] for m in v] for k, v in seen.items()}
    assert types["hello"] == types["hello again"] == ["welcome"]
    assert [m.get("code") for m in seen["record first"]] == [p.NOT_SEATED]
    assert [m.get("code") for m in seen["explain first"]] == [p.NOT_SEATED]
    assert seen["leave first"][0] == {"type": "left", "table": None, "ref": "leave"}
    assert types["join"] == ["joined", "update"], "joined, then where the table stands"
    assert seen["join"][1]["view"] is None and seen["join"][1]["deal"] == 0
    assert seen["players"][0]["players"][0] == {"seat": 0, "name": "Ada", "state": "person"}
    assert types["start"] == ["players", "started"], "the seat list says started, then started"
    assert seen["start"][0]["started"] is True
    first = seen["deal 1"][0]
    assert (first["type"], first["deal"], first["step"]) == ("update", 1, 0)
    assert first["events"][0]["kind"] == "deal"
    assert types["start again"] == ["started"]
    assert types["watch"] == ["joined", "update"] and seen["watch"][0]["seat"] is None
    assert seen["leave"][-1]["type"] == "left"
    assert seen["left"][0]["players"][0]["state"] == "bot"


@pytest.mark.parametrize(
    ("name", "frame"),
    [
        ("server/update.json", {"type": "update"}),
        (
            "server/players.json",
            {"type": "players", "table": "ABCDEF", "started": 1, "players": []},
        ),
        ("server/error.json", {"type": "error", "code": "oops", "message": "x"}),
        ("server/welcome.json", {"type": "welcome", "version": 1, "server": "atout", "x": 1}),
        ("server/explained.json", {"type": "explained", "card": "1H", "reason": None}),
        ("server/left.json", {"type": "left", "table": "abc"}),
    ],
)
def test_the_schemas_refuse_a_wrong_frame(name: str, frame: dict[str, Any]) -> None:
    with pytest.raises(SchemaError):
        CHECK.validate(frame, name)


def test_the_schemas_refuse_a_view_or_an_event_out_of_shape() -> None:
    update = {
        "type": "update",
        "table": "ABCDEF",
        "deal": 1,
        "step": 0,
        "to_act": 0,
        "scores": [0, 0],
        "deals_scored": 0,
        "result": None,
        "started": True,
        "events": [{"kind": "deal", "deal": 1, "seat": 1}],
        "view": None,
    }
    CHECK.validate(update, "server/update.json")
    for wrong in (
        {"kind": "deal", "deal": 1},
        {"kind": "dance", "deal": 1},
        {"kind": "play", "deal": 1, "seat": 0, "card": "JH", "extra": 1},
        {"kind": "redeal", "deal": True},
    ):
        with pytest.raises(SchemaError):
            CHECK.validate({**update, "events": [wrong]}, "server/update.json")
    with pytest.raises(SchemaError):
        CHECK.validate({**update, "view": {"seat": 0}}, "server/update.json")


def test_a_table_that_starts_by_itself_says_so_before_its_first_deal() -> None:
    """Every seat held: each client gets the seat list with ``started`` true, then the
    first deal's update."""
    engine = Engine()

    async def main() -> list[list[dict[str, Any]]]:
        server = TableServer(engine, None, grace=60.0)
        await server.start()
        try:
            url = f"ws://127.0.0.1:{server.port}"
            async with connect(url) as a, connect(url) as b:
                for ws in (a, b):
                    await send(ws, {"type": "hello", "version": p.VERSION})
                    await recv(ws)
                made = (await ask(a, {"type": "create", "game": "decouverte"}))[-1]
                got: list[list[dict[str, Any]]] = [[], []]
                for seat, ws in enumerate((a, b)):
                    token = made["tokens"][seat]
                    await send(ws, {"type": "join", "table": made["table"], "token": token})
                for seat, ws in enumerate((a, b)):
                    while (
                        not got[seat]
                        or got[seat][-1]["type"] != "update"
                        or not got[seat][-1]["deal"]
                    ):
                        got[seat].append(await recv(ws))
                return got
        finally:
            await server.stop()

    for frames in asyncio.run(main()):
        players = [m for m in frames if m["type"] == "players"]
        assert players[-1]["started"] is True, [m["type"] for m in frames]
        assert frames[-1]["deal"] == 1 and frames[-1]["step"] == 0


def test_the_protocol_page_lists_every_error_and_close_code() -> None:
    page = (SCHEMAS.parent / "protocol.md").read_text(encoding="utf-8")
    for code in p.ERROR_CODES:
        assert f"| `{code}` |" in page, code
    for close in (1001, 1007, 1008, 1009, 1011, 4001):
        assert f"| {close} |" in page, close
