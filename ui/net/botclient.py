"""Bot clients: a seat played over a real socket by a choosing function, all in asyncio.

The benchmark connects hundreds of them to one server (``atout bench``'s
``server_actions_per_s``), and the tests use them to play through a server and to
record every frame a seat receives.  A bot client is an ordinary client: it says hello,
joins with its seat's token and answers each ``update`` that gives it the turn with an
``act`` naming the deal and step it answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from atout.core import Action
from atout.core import Rules
from atout.core import View
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from . import protocol as p

_encode = json.JSONEncoder(separators=(",", ":")).encode

Chooser = Callable[[View], Action]
Picker = Callable[[dict[str, Any]], dict[str, Any]]
"""Chooses from a view's wire form (``legal``, ``legal_bids``, ``can_claim``) the wire
form of an action: a client that needs no :class:`View` (the bench's) skips reading one."""
Frame = Callable[[dict[str, Any], str], None]
"""Called with every message a client receives, decoded, and its text."""


@dataclass
class SeatRun:
    """What one bot client did: its actions, their round-trip times (ms), the errors it
    received, and whether it saw the match end."""

    actions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False


async def create(
    url: str, rules: Rules, bot: str = "random", seed: int | None = None
) -> dict[str, Any]:
    """Create a table on the server at ``url``: the ``created`` answer."""
    async with connect(url, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "version": p.VERSION}))
        await ws.recv()
        await ws.send(json.dumps(p.create_message(rules, bot, seed)))
        answer: dict[str, Any] = json.loads(await ws.recv())
        if answer.get("type") != "created":
            raise RuntimeError(f"the server refused the table: {answer.get('message')}")
        return answer


async def play_seat(
    url: str,
    table: str,
    token: str | None,
    rules: Rules,
    choose: Chooser | None,
    on_frame: Frame | None = None,
    before_act: Callable[[View, dict[str, Any]], list[str]] | None = None,
    deadline: float = 120.0,
    host: str | None = None,
    go: asyncio.Event | None = None,
    run: SeatRun | None = None,
    pick: Picker | None = None,
    pace: Callable[[], Awaitable[None]] | None = None,
) -> SeatRun:
    """Play ``table``'s seat of ``token`` (``None``: watch) with ``choose`` until the
    match is over or ``deadline`` seconds pass.  ``before_act(view, update)`` may return
    extra frames (texts) to send before each action (the tests' wrong actions);
    ``host``: start the table with this host token once seated; ``go``: wait for this
    event before the first action; ``run``: the record to fill (the caller keeps what it
    holds even if it cancels the task); ``pick``: chooses from the view's wire form
    instead of ``choose`` (no :class:`View` is read); ``pace``: awaited before each
    action is sent (the bench spaces a table's actions with it)."""
    run = run if run is not None else SeatRun()
    sent_at: dict[int, float] = {}
    ref = 0
    answered: tuple[int, int] | None = None
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    async with connect(url, compression=None, max_size=p.MAX_FRAME, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "version": p.VERSION}))
        join: dict[str, Any] = {"type": "join", "table": table}
        if token is not None:
            join["token"] = token
        await ws.send(json.dumps(join))
        if host is not None:
            await ws.send(json.dumps({"type": "start", "table": table, "host": host}))
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout_at(end):  # one timer for the whole run
                while True:
                    raw = await ws.recv()
                    text = raw if isinstance(raw, str) else raw.decode()
                    msg = json.loads(text)
                    if on_frame is not None:
                        on_frame(msg, text)
                    kind = msg.get("type")
                    if kind == "error":
                        run.errors.append(msg)
                        continue
                    if kind != "update":
                        continue
                    r = msg.get("ref")
                    if isinstance(r, int) and r in sent_at:
                        run.latencies_ms.append((time.perf_counter() - sent_at.pop(r)) * 1000.0)
                    if msg.get("result") is not None:
                        run.finished = True
                        break
                    view_data = msg.get("view")
                    if (
                        (choose is None and pick is None)
                        or view_data is None
                        or msg.get("to_act") != view_data.get("seat")
                    ):
                        continue
                    position = (msg["deal"], msg["step"])
                    if position == answered:
                        continue
                    answered = position
                    if go is not None and not go.is_set():
                        await go.wait()
                    if pick is not None:
                        action = pick(view_data)
                    else:
                        assert choose is not None
                        view = p.view_from_json(view_data, rules.game, rules)
                        if before_act is not None:
                            for extra in before_act(view, msg):
                                await ws.send(extra)
                        action = p.action_to_json(choose(view))
                    if pace is not None:
                        await pace()
                    ref += 1
                    sent_at[ref] = time.perf_counter()
                    await ws.send(
                        _encode(
                            {
                                "type": "act",
                                "seat": view_data["seat"],
                                "deal": msg["deal"],
                                "step": msg["step"],
                                "action": action,
                                "ref": ref,
                            }
                        )
                    )
                    run.actions += 1
    return run
