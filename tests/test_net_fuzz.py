"""Wrong messages: each gets one error message, none changes the table, the server
lives on.

The table is stopped at seat 0's turn (its other seats are bots that only move when
seat 0 has acted), so its state before and after each wrong message must be the same.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from atout.core import Engine
from atout.ui.net import protocol as p
from atout.ui.net.botclient import create
from atout.ui.net.server import TableServer
from atout.ui.net.tables import Table
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

BAD_VALUES: list[Any] = [None, True, "x", 1.5, [], {}, -1, 10**30, "A" * 300]


def snapshot(table: Table) -> tuple[Any, ...]:
    s = table.session
    return (s.version, table.step(), table.started, json.dumps(s.record(), sort_keys=True))


async def next_reply(ws: ClientConnection, timeout: float = 5.0) -> dict[str, Any]:
    """The next message that is not a seat list (those come when others join)."""
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg.get("type") != "players":
            return msg


async def wait_turn(ws: ClientConnection, seat: int) -> dict[str, Any]:
    for _ in range(10_000):
        msg = await next_reply(ws)
        if msg.get("type") == "update" and msg.get("to_act") == seat and msg.get("view"):
            return msg
    raise AssertionError("the seat never got the turn")


def act(update: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A right action of seat 0 in ``update``'s position, with ``changes``."""
    view = update["view"]
    if view["phase"] == "bidding":
        action = {"kind": "bid", "bid": view["legal_bids"][0]}
    else:
        action = {"kind": "play", "card": view["legal"][0]}
    return {
        "type": "act",
        "seat": 0,
        "deal": update["deal"],
        "step": update["step"],
        "action": action,
        **changes,
    }


def wrong_messages(update: dict[str, Any], table: str) -> list[tuple[str, str | bytes]]:
    """(expected error code, frame) for every wrong message sent in ``update``'s position."""
    right = act(update)
    cases: list[tuple[str, str | bytes]] = [
        (p.BAD_JSON, "not json {"),
        (p.BAD_JSON, ""),
        (p.BAD_JSON, "[" * 5000 + "]" * 5000),
        (p.BAD_JSON, '{"type": "act", "seat": 0,'),
        (p.BAD_MESSAGE, "[1, 2, 3]"),
        (p.BAD_MESSAGE, '"act"'),
        (p.BAD_MESSAGE, "null"),
        (p.BAD_MESSAGE, b'{"type": "hello"}'),
        (p.UNKNOWN_TYPE, '{"type": 5}'),
        (p.UNKNOWN_TYPE, '{"type": "nope"}'),
        (p.UNKNOWN_TYPE, '{"no": "type"}'),
        (p.UNKNOWN_TYPE, '{"type": ["act"]}'),
        (p.UNKNOWN_TYPE, '{"type": {"a": 1}}'),
        (p.BAD_MESSAGE, json.dumps({"type": "x" * 5000})),
        (p.BAD_MESSAGE, json.dumps({**right, "ref": "r" * 65})),
        (p.BAD_MESSAGE, json.dumps({**right, "ref": 1.5})),
        (p.BAD_MESSAGE, json.dumps({**right, "ref": {"a": 1}})),
        (p.BAD_MESSAGE, json.dumps({**right, "ref": "\ud800"})),
        (p.BAD_MESSAGE, json.dumps({"type": "join", "table": table, "name": "\ud800"})),
        (p.BAD_MESSAGE, json.dumps({"type": "join", "table": table, "name": "a\x1b[2Jb"})),
        (p.BAD_MESSAGE, json.dumps({"type": "join", "table": table, "name": "n" * 101})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "seed": 10**18})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "seed": -1})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "pack": "\udfff"})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "rules": {"\x00": 1}})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "bot": "b\u202e"})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "x": [[[[[[[[[1]]]]]]]]]})),
        (p.TOO_LARGE, json.dumps({"type": "act", "pad": "x" * (p.MAX_MESSAGE + 10)})),
        (p.TOO_LARGE, json.dumps({**right, "pad": "y" * 200_000})),
        (p.BAD_MESSAGE, json.dumps(act(update, seat=float("nan")))),
        (p.NOT_YOUR_SEAT, json.dumps(act(update, seat=1))),
        (p.NOT_YOUR_SEAT, json.dumps(act(update, seat=3))),
        (p.STALE, json.dumps(act(update, step=update["step"] + 1))),
        (p.STALE, json.dumps(act(update, deal=update["deal"] + 1))),
        (p.BAD_MESSAGE, json.dumps(act(update, action={"kind": "play", "card": "ZZ"}))),
        (p.BAD_MESSAGE, json.dumps(act(update, action={"kind": "play", "card": 5}))),
        (p.BAD_MESSAGE, json.dumps(act(update, action={"kind": "bid", "bid": "b" * 500}))),
        (p.BAD_MESSAGE, json.dumps(act(update, action={"kind": "dance"}))),
        (p.BAD_MESSAGE, json.dumps(act(update, action="JH"))),
        (p.VERSION_ERROR, json.dumps({"type": "hello", "version": 99})),
        (p.BAD_MESSAGE, json.dumps({"type": "hello", "version": "1"})),
        (p.BAD_TOKEN, json.dumps({"type": "join", "table": table, "token": "guess"})),
        (p.NO_TABLE, json.dumps({"type": "join", "table": "NOSUCH"})),
        (p.NOT_HOST, json.dumps({"type": "start", "table": table, "host": "guess"})),
        (p.BAD_MESSAGE, json.dumps({"type": "explain", "card": 123})),
        (p.BAD_MESSAGE, json.dumps({"type": "explain", "card": "QQ"})),
        (p.BAD_RULES, json.dumps({"type": "create", "game": "chess"})),
        (p.BAD_RULES, json.dumps({"type": "create", "game": "belote", "rules": {"target": "x"}})),
        (p.BAD_RULES, json.dumps({"type": "create", "game": "belote", "rules": {"nope": 1}})),
        (p.BAD_RULES, json.dumps({"type": "create", "game": "belote", "bot": "nobody"})),
        (p.BAD_MESSAGE, json.dumps({"type": "create", "game": "belote", "rules": []})),
    ]
    if update["view"]["phase"] == "play":
        held = set(update["view"]["hand"])
        wrong = next(c for c in ("7C", "8D", "9H", "10S", "JC", "QD", "KH", "AS") if c not in held)
        cases.append((p.ILLEGAL, json.dumps(act(update, action={"kind": "play", "card": wrong}))))
    else:
        cases.append((p.ILLEGAL, json.dumps(act(update, action={"kind": "bid", "bid": "never"}))))
    # every field of an action, with every wrong kind of value
    for key in ("seat", "deal", "step", "action"):
        for value in BAD_VALUES:
            if key in ("deal", "step", "seat") and value == -1:
                code = p.NOT_YOUR_SEAT if key == "seat" else p.STALE
            else:
                code = p.BAD_MESSAGE
            cases.append((code, json.dumps(act(update, **{key: value}))))
    return cases


def test_wrong_messages_get_one_error_each_and_change_nothing() -> None:
    engine = Engine()

    async def main() -> tuple[int, int]:
        server = TableServer(engine, None, grace=0.0)
        await server.start()
        try:
            url = f"ws://127.0.0.1:{server.port}"
            made = await create(url, engine.default_rules("belote"), bot="random", seed=4)
            code = made["table"]
            table = server.tables[code]
            async with connect(url, max_size=p.MAX_FRAME) as ws, connect(url) as other:
                # before hello: refused
                await other.send(json.dumps({"type": "join", "table": code}))
                assert (await next_reply(other))["code"] == p.NOT_HELLO
                await other.send(json.dumps({"type": "hello", "version": p.VERSION}))
                assert (await next_reply(other))["type"] == "welcome"
                for msg in (
                    {"type": "hello", "version": p.VERSION},
                    {"type": "join", "table": code, "token": made["tokens"][0]},
                    {"type": "start", "table": code, "host": made["host"]},
                ):
                    await ws.send(json.dumps(msg))
                first = await wait_turn(ws, 0)
                old = act(first)
                await ws.send(json.dumps(old))
                update = await wait_turn(ws, 0)
                before = snapshot(table)
                cases = wrong_messages(update, code)
                cases.append((p.STALE, json.dumps(old)))  # an old action replayed
                for expected, frame in cases:
                    await ws.send(frame)
                    reply = await next_reply(ws)
                    assert reply["type"] == "error", (frame[:200], reply)
                    assert reply["code"] == expected, (frame[:200], reply)
                    assert reply["message"]
                    assert snapshot(table) == before, frame[:200]
                # a spectator (no token) may not act, even for a seat's right action
                await other.send(json.dumps({"type": "join", "table": code}))
                while (await next_reply(other))["type"] != "update":
                    pass
                await other.send(json.dumps(act(update)))
                assert (await next_reply(other))["code"] == p.NOT_SEATED
                # a flood: every message answered, the excess refused, nothing changed
                flood = 900
                for _ in range(flood):
                    await ws.send(json.dumps({"type": "explain", "card": "JH"}))
                codes = [(await next_reply(ws)).get("code") for _ in range(flood)]
                assert codes.count(p.FLOOD) > 0 and codes.count(p.FLOOD) < flood
                assert snapshot(table) == before
                await asyncio.sleep(p.BURST / p.RATE + 0.5)  # the budget refills
                # the server lives on: the right action is taken
                await ws.send(json.dumps(act(update, ref="ok")))
                reply = await next_reply(ws)
                assert reply["type"] == "update" and reply.get("ref") == "ok", reply
                assert snapshot(table) != before
            # a frame above the websocket limit closes that connection only
            async with connect(url, max_size=None) as big:
                await big.send("x" * (p.MAX_FRAME + 1))
                try:
                    await asyncio.wait_for(big.recv(), 5)
                except ConnectionClosed as exc:
                    assert exc.rcvd is not None and exc.rcvd.code == 1009
                else:
                    raise AssertionError("an oversized frame was read")
            async with connect(url) as again:
                await again.send(json.dumps({"type": "hello", "version": p.VERSION}))
                assert (await next_reply(again))["type"] == "welcome"
            return len(cases) + 3, flood
        finally:
            await server.stop()

    cases, flood = asyncio.run(main())
    assert cases >= 70 and flood > 0, cases


def test_a_flood_that_does_not_stop_is_cut_off() -> None:
    engine = Engine()

    async def main() -> int | None:
        server = TableServer(engine, None)
        await server.start()
        try:
            async with connect(f"ws://127.0.0.1:{server.port}") as ws:
                try:
                    for _ in range(p.BURST + 3 * p.FLOOD_CLOSE):
                        await ws.send("{}")
                    for _ in range(20_000):
                        await asyncio.wait_for(ws.recv(), 5)
                except ConnectionClosed as exc:
                    return exc.rcvd.code if exc.rcvd is not None else None
            return None
        finally:
            await server.stop()

    assert asyncio.run(main()) == 1008
