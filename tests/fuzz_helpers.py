"""What the fuzz tests share: nasty values, seeded mutations of JSON trees and texts, and
the one-line contract every entry point that reads a file or an argument must keep.

The contract: bad input is answered by one :class:`~atout.core.errors.AtoutError` whose
message is one line naming the file (what the command line prints as ``atout: MESSAGE``);
never another exception, never a traceback.  Whatever reaches the terminal holds no
control character once :func:`atout.ui.safe_text.printable` has escaped it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from atout.ui.safe_text import printable

NASTY_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    3,
    2**63,
    10**17,
    -(10**17),
    1.5,
    1e308,
    -0.0,
    "",
    "x",
    "JH",
    "10S",
    "take",
    "pass",
    "H",
    "♥",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "\u202eevil",
    "\ud800",
    "a\nb",
    "a" * 5000,
    [],
    {},
    [[[[[]]]]],
    {"held": [{"kind": "litige", "takers": 0, "points": 20}]},
    {"held": [{"kind": "abeyance", "takers": 1, "points": [1, 10**17]}]},
    ["JH", "JH"],
    {"up": "JH", "down": "JH"},
    {"seat": 0, "play": "JH"},
    {"seat": 0, "bid": "\x1b[2J"},
]
"""Values a record or a save may be given by hand or by accident."""

NASTY_TEXTS: list[str] = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "9" * 5000,
    "-" + "9" * 30,
    "[" * 5000,
    "{" * 3000,
    '"\\u001b[31m"',
    '"\\ud800"',
    '"\\u0000"',
    "\x00",
    "\xff",
    "\n",
    "}",
    ",",
    '"',
    "\\",
]
"""Raw texts spliced into a file: numbers JSON refuses or Python cannot hold, nesting
bombs, escapes, broken syntax."""


def walk(tree: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``tree`` (keys and indexes), the root ``()`` first."""
    paths = [path]
    if isinstance(tree, dict):
        for key, value in tree.items():
            paths.extend(walk(value, (*path, key)))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            paths.extend(walk(value, (*path, i)))
    return paths


def _parent(tree: Any, path: tuple[Any, ...]) -> Any:
    node = tree
    for step in path[:-1]:
        node = node[step]
    return node


def mutate_tree(tree: Any, rng: random.Random) -> Any:
    """A copy of the JSON ``tree`` with one seeded change: a value replaced by a nasty
    one, a key or an item removed, a key added, an item repeated."""
    tree = json.loads(json.dumps(tree))
    paths = [p for p in walk(tree) if p]
    if not paths:
        return rng.choice(NASTY_VALUES)
    path = rng.choice(paths)
    parent = _parent(tree, path)
    step = path[-1]
    op = rng.randrange(5)
    if op <= 1:
        parent[step] = rng.choice(NASTY_VALUES)
    elif op == 2:
        del parent[step]
    elif op == 3 and isinstance(parent, dict):
        parent[rng.choice(["carry_in", "start", "x", "\x1b[31m", "seed", "deals"])] = rng.choice(
            NASTY_VALUES
        )
    elif isinstance(parent, list):
        parent.insert(step, parent[step])
    else:
        parent[step] = [parent[step]]
    return tree


def mutate_text(text: str, rng: random.Random) -> str:
    """``text`` with one seeded change: a nasty text spliced in, a slice cut out, the
    end cut off, or one character changed."""
    if not text:
        return rng.choice(NASTY_TEXTS)
    op = rng.randrange(4)
    at = rng.randrange(len(text))
    if op == 0:
        return text[:at] + rng.choice(NASTY_TEXTS) + text[at:]
    if op == 1:
        return text[:at] + text[at + rng.randrange(1, 40) :]
    if op == 2:
        return text[:at]
    return text[:at] + chr(rng.randrange(0, 0x3000)) + text[at + 1 :]


def dump(tree: Any) -> str:
    """The JSON text of ``tree`` (ASCII: a lone surrogate is written as its escape)."""
    return json.dumps(tree, ensure_ascii=True, allow_nan=True)


def check_message(message: str, source: str) -> None:
    """One line that names ``source`` and, once escaped for the terminal, holds no
    control character."""
    assert message.startswith(str(source)), f"does not name {source}: {message!r}"
    shown = printable(message)
    assert "\n" not in shown and "\r" not in shown, f"more than one line: {message!r}"
    check_printed(shown)


def check_printed(text: str) -> None:
    """Text as printed on the terminal: no control, format or surrogate character
    (newlines between lines aside)."""
    if text.replace("\n", "").isprintable():  # the usual case, checked in C
        return
    for char in text:
        if char == "\n":
            continue
        category = unicodedata.category(char)
        assert category not in ("Cc", "Cf", "Cs", "Zl", "Zp"), f"{char!r} reaches the terminal"


def memory_folder(fallback: Path) -> Iterator[Path]:
    """A folder in memory (``/dev/shm``) for the fuzz tests' thousands of small files,
    removed after; ``fallback`` where there is none.  The files are the same, only the
    disk is spared."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield fallback
        return
    folder = Path(tempfile.mkdtemp(prefix="atout-fuzz-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
