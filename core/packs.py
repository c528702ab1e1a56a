"""House-rule packs: YAML files that set a game's rule options, loaded safely.

A pack is a flat YAML mapping (``docs/packs.md`` is the reference)::

    game: belote                          # the game it is for
    description: Play goes clockwise.     # one line
    extends: official                     # optional: another pack's name
    plugins: [my-house-rules]             # optional: rule plugins it needs
    direction: clockwise                  # option keys override what it extends

The loader knows no rule: which keys exist, their kinds, defaults and allowed values come
from the rule plugins through the ``atout_rule_options`` hook
(:meth:`~atout.core.engine.Engine.rule_options`).  A pack becomes one frozen
:class:`~atout.core.model.Rules` built by :meth:`~atout.core.engine.Engine.make_rules`;
nothing is applied before every pack of its ``extends`` chain has been read and checked.

Where packs come from:

* **shipped**: the ``*.yaml`` files of the ``atout.variants`` package (package data);
* **user**: the ``*.yaml`` files of :func:`user_dir`
  (``$XDG_CONFIG_HOME/atout/variants``, by default ``~/.config/atout/variants``);
* **file**: any path given explicitly (``atout play --pack FILE``).

A pack's name is its file name without ``.yaml``.  A user pack with the name of a shipped
pack is reported (:attr:`PackInfo.problem`, and a warning whenever that name is used) and
never used by name: the shipped pack keeps its meaning on every machine.  A shipped pack
only ever extends shipped packs.

Safety: only PyYAML's safe loader reads a pack (never ``yaml.load``); explicit tags
(``!!python/object/apply:...``), anchors and aliases (the "billion laughs" bomb), files
over :data:`MAX_PACK_BYTES`, non-UTF-8 and empty files are refused before anything is
built.  Every problem is one :class:`~atout.core.errors.PackError` whose message names
the file, the line (where YAML has one) and the key.
"""

from __future__ import annotations

import difflib
import importlib.resources
import itertools
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import yaml

from .engine import Engine
from .errors import AtoutError
from .errors import PackError
from .errors import error_message
from .files import FileProblem
from .files import FileTooLarge
from .files import nesting_line
from .files import read_bytes
from .limits import MAX_INT_DIGITS
from .model import RuleOption
from .model import Rules
from .text import N_
from .text import Message

SHIPPED_PACKAGE = "atout.variants"
PACK_SUFFIX = ".yaml"
MAX_PACK_BYTES = 64 * 1024
"""The largest pack file read (64 KiB; the longest shipped pack is under 2 KiB)."""
MAX_DESCRIPTION = 200
MAX_TITLE = 40
"""The longest pack title (a pack's name for people: a button's label)."""
MAX_PACK_DEPTH = 8
"""The deepest nesting of lists and mappings a pack file may have (a pack is flat: a
mapping holding one list, ``plugins``)."""
MAX_SCALAR = 1000
"""The longest single value (in characters) a pack may hold."""
HEADER_KEYS = ("game", "description", "title", "extends", "plugins")
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
ORIGINS = ("shipped", "user", "file")


# --- public values ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PackInfo:
    """One pack as :func:`list_packs` finds it (for ``atout variants list`` and the start view).

    ``origin`` is ``"shipped"``, ``"user"`` or ``"file"``; ``path`` is the file.  A pack
    that cannot be used has a ``problem`` (the whole message, file and line included) and
    may have an empty ``game``/``description``; a usable one has ``problem == ""``.
    ``warning`` says something the user should know although the pack loads.
    ``title`` is the pack's short name for people (optional: ``""`` when the pack has
    none; it is not inherited through ``extends``).
    """

    name: str
    game: str
    description: str
    origin: str
    path: str
    problem: str = ""
    warning: str = ""
    title: str = ""

    @property
    def usable(self) -> bool:
        """Whether the pack loads (by its name, for shipped and user packs)."""
        return not self.problem


@dataclass(frozen=True)
class Setting:
    """One option of a resolved pack: its value and which pack in the chain set it.

    ``set_by`` is a pack's name, or ``"default"`` when no pack of the chain sets the key;
    ``line`` is the line of that pack's file where it is set (``None`` for a default).
    """

    key: str
    value: Any
    set_by: str
    line: int | None
    description: str


@dataclass(frozen=True)
class ResolvedPack:
    """A pack with its whole ``extends`` chain resolved (for ``atout variants show``).

    ``chain`` lists the pack first, then what it extends, and so on; ``settings`` has
    every option of the game in the rule plugins' order; ``rules`` is the frozen result.
    """

    name: str
    game: str
    description: str
    origin: str
    path: str
    chain: tuple[str, ...]
    plugins: tuple[str, ...]
    settings: tuple[Setting, ...]
    rules: Rules
    warnings: tuple[str, ...] = ()
    title: str = ""


# --- where packs live ------------------------------------------------------------------------


def user_dir() -> Path:
    """The user's pack folder: ``$XDG_CONFIG_HOME/atout/variants``, by default
    ``~/.config/atout/variants`` (a relative ``XDG_CONFIG_HOME`` is ignored, as the XDG
    specification says)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return root / "atout" / "variants"


@dataclass(frozen=True)
class _Source:
    """A pack file somewhere: its name, origin, a path to show, and how to read it."""

    name: str
    origin: str
    path: str
    read: Callable[[int], bytes] = field(compare=False, repr=False)


def _file_reader(path: Path) -> Callable[[int], bytes]:
    def read(limit: int) -> bytes:
        # a regular file only (a FIFO or a device is refused, never waited on or read
        # without end); asked for one byte more than a pack may have, to tell it is over
        return read_bytes(path, limit)

    return read


def _resource_reader(resource: Any) -> Callable[[int], bytes]:
    def read(limit: int) -> bytes:
        with resource.open("rb") as fh:
            data: bytes = fh.read(limit + 1)
            return data

    return read


def shipped_sources() -> dict[str, _Source]:
    """The shipped packs by name (the ``*.yaml`` package data of ``atout.variants``)."""
    out: dict[str, _Source] = {}
    root = importlib.resources.files(SHIPPED_PACKAGE)
    for entry in root.iterdir():
        name = entry.name
        if name.endswith(PACK_SUFFIX) and not name.startswith(".") and entry.is_file():
            stem = name[: -len(PACK_SUFFIX)]
            out[stem] = _Source(stem, "shipped", str(entry), _resource_reader(entry))
    return dict(sorted(out.items()))


def user_sources() -> dict[str, _Source]:
    """The user's packs by name (the ``*.yaml`` files of :func:`user_dir`)."""
    folder = user_dir()
    out: dict[str, _Source] = {}
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return out
    for path in entries:
        if path.name.endswith(PACK_SUFFIX) and not path.name.startswith("."):
            stem = path.name[: -len(PACK_SUFFIX)]
            out[stem] = _Source(stem, "user", str(path), _file_reader(path))
    return out


def file_source(path: str | os.PathLike[str]) -> _Source:
    """A pack given by its path (its name is the file name without the suffix)."""
    p = Path(path)
    name = p.name
    for suffix in (PACK_SUFFIX, ".yml"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return _Source(name, "file", str(path), _file_reader(p))


def is_path(name_or_path: str) -> bool:
    """Whether ``name_or_path`` names a file rather than a pack: it has a folder part or a
    ``.yaml``/``.yml`` suffix, or is not a valid pack name."""
    text = str(name_or_path)
    if "/" in text or os.sep in text or text.endswith((PACK_SUFFIX, ".yml")):
        return True
    return NAME_PATTERN.fullmatch(text) is None


# --- reading one file --------------------------------------------------------------------------


def _fail(source: _Source, message: str, line: int | None = None, key: str = "") -> Message:
    """A problem of a pack file, naming the file, the line and the key as they are
    written; ``message`` (best a :class:`~atout.core.text.Message`) is translated where
    it is shown."""
    if line is not None and key:
        return Message(
            "{file}: line {line}: {key}: {problem}",
            file=source.path,
            line=line,
            key=key,
            problem=message,
        )
    if line is not None:
        return Message(
            "{file}: line {line}: {problem}", file=source.path, line=line, problem=message
        )
    if key:
        return Message("{file}: {key}: {problem}", file=source.path, key=key, problem=message)
    return Message("{file}: {problem}", file=source.path, problem=message)


def _read_text(source: _Source) -> str:
    """The file's text: at most :data:`MAX_PACK_BYTES`, UTF-8, not empty."""
    try:
        data = source.read(MAX_PACK_BYTES)
    except FileTooLarge:
        data = b"\0" * (MAX_PACK_BYTES + 1)  # reported below, as for a shipped pack
    except FileProblem as exc:
        raise PackError(_fail(source, error_message(exc))) from None
    except FileNotFoundError:
        raise PackError(_fail(source, Message("no such file"))) from None
    except IsADirectoryError:
        raise PackError(_fail(source, Message("is a folder, not a pack file"))) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise PackError(
            _fail(source, Message("cannot be read ({reason})", reason=reason))
        ) from None
    if len(data) > MAX_PACK_BYTES:
        raise PackError(
            _fail(
                source,
                Message(
                    "the file is over {size} KiB; a pack is a few lines",
                    size=MAX_PACK_BYTES // 1024,
                ),
            )
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        byte = f"0x{data[exc.start]:02x}"
        raise PackError(
            _fail(source, Message("not UTF-8 text (byte {byte} is not UTF-8)", byte=byte), line)
        ) from None
    if not text.strip():
        raise PackError(
            _fail(source, Message("the file is empty; a pack needs at least game and description"))
        )
    return text


def _yaml_problem(source: _Source, exc: yaml.YAMLError) -> PackError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark is not None else None
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    text = f"{context}: {problem}" if context else str(problem)
    return PackError(_fail(source, Message("not valid YAML ({problem})", problem=text), line))


_FLOW_TOKENS = re.compile(r"'[^'\n]*'?|\"(?:[^\"\\\n]|\\.)*\"?|#[^\n]*|[\[\]{}]")
"""A quoted text or a comment (skipped), or a bracket of a flow collection: PyYAML's
scanner reads a nest of flow brackets whole before its parser says a word, in time that
grows with the square of the depth, so the nesting is looked at first."""


def _check_events(source: _Source, text: str) -> None:
    """Refuse nesting, explicit tags, anchors and aliases before any node is built."""
    too_deep = Message(
        "nested more than {depth} deep; a pack is a flat mapping", depth=MAX_PACK_DEPTH
    )
    line = nesting_line(text, MAX_PACK_DEPTH, _FLOW_TOKENS)
    if line is not None:
        raise PackError(_fail(source, too_deep, line))
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            mark = event.start_mark
            line = mark.line + 1 if mark is not None else None
            if isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
                depth += 1
                if depth > MAX_PACK_DEPTH:
                    raise PackError(_fail(source, too_deep, line))
            elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
                depth -= 1
            elif isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_SCALAR:
                raise PackError(
                    _fail(
                        source,
                        Message(
                            "a value of {count} characters (at most {most})",
                            count=len(event.value),
                            most=MAX_SCALAR,
                        ),
                        line,
                    )
                )
            if isinstance(event, yaml.AliasEvent):
                raise PackError(
                    _fail(
                        source,
                        Message(
                            "aliases (*{anchor}) are not allowed in a pack",
                            anchor=str(event.anchor),
                        ),
                        line,
                    )
                )
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                raise PackError(
                    _fail(
                        source,
                        Message(
                            "anchors (&{anchor}) are not allowed in a pack", anchor=str(anchor)
                        ),
                        line,
                    )
                )
            tag = getattr(event, "tag", None)
            if tag is not None and isinstance(
                event, yaml.ScalarEvent | yaml.SequenceStartEvent | yaml.MappingStartEvent
            ):
                shown = tag.replace("tag:yaml.org,2002:", "!!")
                raise PackError(
                    _fail(
                        source,
                        Message(
                            "tags ({tag}) are not allowed in a pack: plain values only", tag=shown
                        ),
                        line,
                    )
                )
    except yaml.YAMLError as exc:
        raise _yaml_problem(source, exc) from None


class _NotAValue(Exception):
    """A scalar that PyYAML's safe constructor cannot build (``=``, ``<<``, an
    impossible date such as ``2024-02-30``, an integer of thousands of digits)."""


def _construct(node: yaml.Node) -> Any:
    """The Python value of one checked node, built by PyYAML's safe constructor; a
    value it cannot build is :class:`_NotAValue`."""
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
        digits = node.value.replace("_", "").lstrip("+-")
        if len(digits) > MAX_INT_DIGITS:
            raise _NotAValue(Message("a number of {count} digits", count=len(digits)))
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_document(node)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as exc:
        shown = node.value if isinstance(node, yaml.ScalarNode) else "this value"
        value = repr(str(shown)[:40])
        raise _NotAValue(Message("{value} is not a value a pack can hold", value=value)) from exc
    finally:
        loader.dispose()


def _unsafe_text(text: str) -> str | None:
    """Why ``text`` cannot be shown as one line (a control character, a lone surrogate),
    or ``None``."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp") and char != "\t":
            code = f"U+{ord(char):04X}"
            if 0xD800 <= ord(char) <= 0xDFFF:
                return Message("holds a lone surrogate ({code}); one line of plain text", code=code)
            return Message("holds a control character ({code}); one line of plain text", code=code)
    return None


@dataclass
class _Entry:
    key: str
    line: int
    node: yaml.Node


@dataclass
class _Raw:
    """One pack file, read and structurally checked, its options not yet judged."""

    source: _Source
    game: str = ""
    game_line: int = 1
    description: str = ""
    title: str = ""
    extends: str | None = None
    extends_line: int = 1
    plugins: tuple[str, ...] = ()
    plugins_line: int = 1
    options: list[_Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _scalar_text(node: yaml.Node) -> str | None:
    """A header's text as written (``description: 2024-02-30`` is that text, not a
    date); ``None`` for a list, a mapping or an empty value."""
    if isinstance(node, yaml.ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return str(node.value)
    return None


def read_pack(source: _Source) -> _Raw:
    """Read one pack file: fatal problems (size, encoding, YAML, tags, aliases, not a
    mapping) raise :class:`PackError`; problems with single keys are collected."""
    text = _read_text(source)
    _check_events(source, text)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise _yaml_problem(source, exc) from None
    if root is None or (isinstance(root, yaml.ScalarNode) and not root.value.strip()):
        raise PackError(
            _fail(
                source,
                Message("the file has no content; a pack needs at least game and description"),
            )
        )
    if not isinstance(root, yaml.MappingNode):
        kind = (
            Message("a pack is a mapping of keys to values, not a list")
            if isinstance(root, yaml.SequenceNode)
            else Message("a pack is a mapping of keys to values, not a single value")
        )
        raise PackError(_fail(source, kind, root.start_mark.line + 1))
    raw = _Raw(source)
    seen: dict[str, int] = {}
    for key_node, value_node in root.value:
        line = key_node.start_mark.line + 1
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if not isinstance(key, str) or not key:
            raw.problems.append(
                _fail(source, Message("a key must be a name such as direction"), line)
            )
            continue
        if key in seen:
            raw.problems.append(
                _fail(
                    source, Message("given twice (first on line {line})", line=seen[key]), line, key
                )
            )
            continue
        seen[key] = line
        if key in HEADER_KEYS:
            _read_header(raw, key, value_node, line)
        else:
            raw.options.append(_Entry(key, line, value_node))
    first_line = root.start_mark.line + 1
    if "game" not in seen:
        raw.problems.append(
            _fail(source, Message("missing: a pack says which game it is for"), first_line, "game")
        )
    if "description" not in seen:
        raw.problems.append(
            _fail(
                source,
                Message("missing: a pack has a one-line description"),
                first_line,
                "description",
            )
        )
    return raw


def _read_header(raw: _Raw, key: str, node: yaml.Node, line: int) -> None:
    source = raw.source
    if key == "plugins":
        raw.plugins_line = line
        items = node.value if isinstance(node, yaml.SequenceNode) else None
        names = [_scalar_text(n) for n in items] if items is not None else [None]
        if items is None or any(not n for n in names):
            raw.problems.append(
                _fail(
                    source, Message("expected a list of plugin names, e.g. [my-rules]"), line, key
                )
            )
            return
        raw.plugins = tuple(n for n in names if n)
        return
    text = _scalar_text(node)
    if not text:
        expected = {
            "game": Message("expected the game's name, e.g. belote"),
            "description": Message("expected one line of text"),
            "title": Message("expected a short name, e.g. Always undertrump"),
            "extends": Message("expected another pack's name, e.g. official"),
        }[key]
        raw.problems.append(_fail(source, expected, line, key))
        return
    unsafe = _unsafe_text(text.strip())
    if key == "game":
        if unsafe or NAME_PATTERN.fullmatch(text) is None:
            value = repr(text[:40])
            raw.problems.append(
                _fail(source, Message("{value} is not a game's name", value=value), line, key)
            )
            return
        raw.game, raw.game_line = text, line
    elif key == "description":
        if "\n" in text.strip():
            raw.problems.append(_fail(source, Message("must be one line"), line, key))
        elif unsafe:
            raw.problems.append(_fail(source, unsafe, line, key))
        elif len(text) > MAX_DESCRIPTION:
            raw.problems.append(
                _fail(
                    source,
                    Message("must be at most {most} characters", most=MAX_DESCRIPTION),
                    line,
                    key,
                )
            )
        raw.description = text.strip()
    elif key == "title":
        if "\n" in text.strip():
            raw.problems.append(_fail(source, Message("must be one line"), line, key))
        elif unsafe:
            raw.problems.append(_fail(source, unsafe, line, key))
        elif len(text.strip()) > MAX_TITLE:
            raw.problems.append(
                _fail(
                    source, Message("must be at most {most} characters", most=MAX_TITLE), line, key
                )
            )
        else:
            raw.title = text.strip()
    else:
        if NAME_PATTERN.fullmatch(text) is None:
            raw.problems.append(
                _fail(
                    source,
                    Message(
                        "{value} is not a pack name (extends takes a name such as official, "
                        "not a path)",
                        value=repr(text),
                    ),
                    line,
                    key,
                )
            )
            return
        raw.extends, raw.extends_line = text, line


# --- judging options against the schema --------------------------------------------------------


def _option_value(option: RuleOption, node: yaml.Node) -> tuple[Any, str | None]:
    """The value a pack gives ``option``, or why it cannot be one."""
    if not isinstance(node, yaml.ScalarNode):
        return None, Message("expected a single value, not a list or a mapping")
    if option.kind == "choice":
        # The text as written: YAML 1.1 would read `declarations: on` as true.
        value: Any = node.value
    else:
        try:
            value = _construct(node)
        except _NotAValue as exc:
            problem = error_message(exc)
            return None, Message("{problem} ({allowed})", problem=problem, allowed=_allowed(option))
    if value is None or value == "":
        return None, Message("needs a value ({allowed})", allowed=_allowed(option))
    return value, option.check(value)


def _allowed(option: RuleOption) -> Message:
    if option.kind == "bool":
        return Message("true or false")
    if option.kind == "choice":
        return Message("one of {choices}", choices=", ".join(option.choices))
    low = "" if option.minimum is None else str(option.minimum)
    high = "" if option.maximum is None else str(option.maximum)
    if not low and not high:
        return Message("a whole number")
    return Message("a whole number {range}", range=f"{low}..{high}".rstrip("."))


def _unknown_key(engine: Engine, raw: _Raw, entry: _Entry, options: dict[str, RuleOption]) -> str:
    others = [
        other
        for other in sorted(engine.games)
        if other != raw.game and entry.key in engine.rule_options(other)
    ]
    if others:  # every game that has it (several games may share an option)
        return _fail(
            raw.source,
            Message(
                "unknown option for {game}: it is an option of {games}",
                game=raw.game,
                games=", ".join(others),
            ),
            entry.line,
            entry.key,
        )
    close = difflib.get_close_matches(entry.key, [*options, *HEADER_KEYS], n=1)
    problem = (
        Message(
            "unknown option for {game}; did you mean {close}? (atout variants options {game} "
            "lists them)",
            game=raw.game,
            close=close[0],
        )
        if close
        else Message(
            "unknown option for {game} (atout variants options {game} lists them)", game=raw.game
        )
    )
    return _fail(raw.source, problem, entry.line, entry.key)


def _judge(engine: Engine, raw: _Raw) -> tuple[dict[str, tuple[Any, int]], list[str]]:
    """The option values of one pack, each checked against the game's schema."""
    options = engine.rule_options(raw.game)
    values: dict[str, tuple[Any, int]] = {}
    problems: list[str] = []
    for entry in raw.options:
        option = options.get(entry.key)
        if option is None:
            problems.append(_unknown_key(engine, raw, entry, options))
            continue
        value, problem = _option_value(option, entry.node)
        if problem:
            problems.append(_fail(raw.source, problem, entry.line, entry.key))
        else:
            values[entry.key] = (value, entry.line)
    return values, problems


# --- resolving chains ---------------------------------------------------------------------------


class _Catalog:
    """Every pack a lookup may reach, each file read at most once per catalog."""

    def __init__(self) -> None:
        self.shipped = shipped_sources()
        self.user = user_sources()
        self._read: dict[str, _Raw | PackError] = {}

    def raw(self, source: _Source) -> _Raw:
        cached = self._read.get(source.path)
        if cached is None:
            try:
                cached = read_pack(source)
            except PackError as exc:
                cached = exc
            self._read[source.path] = cached
        if isinstance(cached, PackError):
            raise cached
        return cached

    def shadowing(self, name: str) -> str:
        """The warning for a user pack named like a shipped one ("" when none)."""
        if name in self.shipped and name in self.user:
            return Message(
                "{file}: has the name of the shipped pack {name}, which is used instead; "
                "rename the file to use it",
                file=self.user[name].path,
                name=repr(name),
            )
        return ""

    def find(self, name: str, wanted_by: _Raw | None) -> tuple[_Source, str]:
        """The pack called ``name`` (shipped first), and a warning when a user pack has
        the same name.  A shipped pack only extends shipped packs."""
        from_shipped = wanted_by is not None and wanted_by.source.origin == "shipped"
        places = [self.shipped] if from_shipped else [self.shipped, self.user]
        for place in places:
            if name in place:
                warn = place is self.shipped and not from_shipped
                return place[name], self.shadowing(name) if warn else ""
        known = sorted({*self.shipped, *(self.user if len(places) > 1 else {})})
        close = difflib.get_close_matches(name, known, n=1)
        found: dict[str, str] = {"name": repr(name)}  # the fields in the messages' order
        if close:
            found["close"] = close[0]
        found["packs"] = ", ".join(known)
        if wanted_by is None:
            no_pack = (
                N_("no pack named {name}; did you mean {close}? (the packs are: {packs})")
                if close
                else N_("no pack named {name} (the packs are: {packs})")
            )
            raise PackError(Message(no_pack, **found))
        problem = Message(
            N_("no pack named {name} to extend; did you mean {close}? (the packs are: {packs})")
            if close
            else N_("no pack named {name} to extend (the packs are: {packs})"),
            **found,
        )
        raise PackError(_fail(wanted_by.source, problem, wanted_by.extends_line, "extends"))

    def source_for(self, name_or_path: str) -> tuple[_Source, str]:
        if is_path(name_or_path):
            user = self.user.get(name_or_path)
            if user is not None and not os.path.exists(name_or_path):
                # a user pack whose file name is no pack name: say so, as the listing does
                raise PackError(
                    _fail(
                        user,
                        Message(
                            "the file name is not a pack name (letters, digits, - and _ only); "
                            "rename the file, or give its path"
                        ),
                    )
                )
            return file_source(name_or_path), ""
        return self.find(name_or_path, None)


def _chain(catalog: _Catalog, first: _Source) -> tuple[list[_Raw], list[str]]:
    """The pack and every pack it extends, in that order; a cycle or a missing pack is a
    :class:`PackError`."""
    raws = [catalog.raw(first)]
    warnings: list[str] = []
    seen = {first.path: raws[0]}
    while raws[-1].extends is not None:
        child = raws[-1]
        assert child.extends is not None
        source, warning = catalog.find(child.extends, child)
        if warning:
            warnings.append(warning)
        if source.path in seen:
            names = " -> ".join([*(r.source.name for r in raws), source.name])
            raise PackError(
                _fail(
                    child.source,
                    Message("extends cycle: {names}", names=names),
                    child.extends_line,
                    "extends",
                )
            )
        try:
            parent = catalog.raw(source)
        except PackError as exc:
            raise PackError(
                Message(
                    "{problem} (extended by {file})",
                    problem=error_message(exc),
                    file=child.source.path,
                )
            ) from None
        seen[source.path] = parent
        raws.append(parent)
    return raws, warnings


def _check_chain(engine: Engine, raws: list[_Raw], game: str | None) -> list[str]:
    """Every problem of a chain that stops it from loading, first problems first."""
    problems: list[str] = []
    for raw in raws:
        problems.extend(raw.problems)
    if problems:
        return problems
    loaded = sorted(name for name, plugin in engine.pm.list_name_plugin() if plugin is not None)
    for raw in raws:
        for plugin in raw.plugins:
            if not engine.pm.has_plugin(plugin):
                problems.append(
                    _fail(
                        raw.source,
                        Message(
                            "needs the rule plugin {plugin}, which is not loaded (install it, "
                            "or give it with --plugin; loaded: {plugins})",
                            plugin=repr(plugin),
                            plugins=", ".join(loaded),
                        ),
                        raw.plugins_line,
                        "plugins",
                    )
                )
    if problems:
        return problems
    head = raws[0]
    for raw in raws:
        if raw.game not in engine.games:
            known = ", ".join(sorted(engine.games)) or Message("none")
            return [
                _fail(
                    raw.source,
                    Message(
                        "unknown game {game} (the games are: {games})",
                        game=repr(raw.game),
                        games=known,
                    ),
                    raw.game_line,
                    "game",
                )
            ]
    for child, parent in itertools.pairwise(raws):
        if parent.game != child.game:
            return [
                _fail(
                    child.source,
                    Message(
                        "{pack} is a pack for {game}, but this pack is for {other}",
                        pack=repr(parent.source.name),
                        game=parent.game,
                        other=child.game,
                    ),
                    child.extends_line,
                    "extends",
                )
            ]
    if game is not None and head.game != game:
        given = head.source.path if head.source.origin == "file" else head.source.name
        return [
            _fail(
                head.source,
                Message(
                    "this pack is for {game}, not {other} (play it with: atout play {game} "
                    "--pack {pack})",
                    game=head.game,
                    other=game,
                    pack=given,
                ),
                head.game_line,
                "game",
            )
        ]
    for raw in raws:
        problems.extend(_judge(engine, raw)[1])
    return problems


def _raise_first(problems: list[str]) -> None:
    if problems:
        more = len(problems) - 1
        if not more:
            raise PackError(problems[0])
        if more == 1:
            raise PackError(
                Message(
                    "{problem} (and 1 more problem: atout variants check lists them)",
                    problem=problems[0],
                )
            )
        raise PackError(
            Message(
                "{problem} (and {count} more problems: atout variants check lists them)",
                problem=problems[0],
                count=more,
            )
        )


def _resolve(
    engine: Engine, catalog: _Catalog, source: _Source, warning: str, game: str | None
) -> ResolvedPack:
    raws, warnings = _chain(catalog, source)
    if warning:
        warnings.insert(0, warning)
    _raise_first(_check_chain(engine, raws, game))
    head = raws[0]
    options = engine.rule_options(head.game)
    chosen: dict[str, tuple[Any, str, int]] = {}
    for raw in reversed(raws):
        values, _ = _judge(engine, raw)
        for key, (value, line) in values.items():
            chosen[key] = (value, raw.source.name, line)
    try:
        rules = engine.make_rules(head.game, {k: v for k, (v, _, _) in chosen.items()}, source.name)
    except AtoutError as exc:  # the checks above make this unreachable; never half-apply
        raise PackError(_fail(source, error_message(exc))) from None
    settings = tuple(
        Setting(
            key,
            rules[key],
            chosen[key][1] if key in chosen else "default",
            chosen[key][2] if key in chosen else None,
            option.description,
        )
        for key, option in options.items()
    )
    plugins: list[str] = []
    for raw in raws:
        plugins.extend(p for p in raw.plugins if p not in plugins)
    return ResolvedPack(
        name=source.name,
        game=head.game,
        description=head.description,
        origin=source.origin,
        path=source.path,
        chain=tuple(r.source.name for r in raws),
        plugins=tuple(plugins),
        settings=settings,
        rules=rules,
        warnings=tuple(dict.fromkeys(warnings)),
        title=head.title,
    )


# --- the API -------------------------------------------------------------------------------------


def resolve(engine: Engine, name_or_path: str, game: str | None = None) -> ResolvedPack:
    """Resolve a pack (a name, or a path to a file) with its whole ``extends`` chain.

    :param game: when given, a pack for another game is a :class:`PackError`.
    :return: every option's value and which pack set it, and the frozen rules.
    :raises PackError: for any problem, naming the file, the line and the key.
    """
    catalog = _Catalog()
    source, warning = catalog.source_for(name_or_path)
    return _resolve(engine, catalog, source, warning, game)


def load_rules(engine: Engine, name_or_path: str, game: str | None = None) -> Rules:
    """The frozen :class:`Rules` of a pack (a name or a path); ``Rules.pack`` is its name.

    :raises PackError: for any problem (see :func:`resolve`); nothing is half-applied.
    """
    return resolve(engine, name_or_path, game).rules


def list_packs(engine: Engine) -> list[PackInfo]:
    """Every shipped and user pack, shipped first, each sorted by game then name.

    A pack that does not load is listed with its ``problem`` (a bad user pack leaves the
    others usable); a user pack with a shipped pack's name is listed with a problem too.
    """
    catalog = _Catalog()
    out: list[PackInfo] = []
    for place in (catalog.shipped, catalog.user):
        for name, source in place.items():
            out.append(_info(engine, catalog, name, source))
    order = {origin: i for i, origin in enumerate(ORIGINS)}
    out.sort(key=lambda p: (order[p.origin], p.game or "~", p.name))
    return out


def _info(engine: Engine, catalog: _Catalog, name: str, source: _Source) -> PackInfo:
    game = description = ""
    try:
        raw = catalog.raw(source)
        game, description = raw.game, raw.description
    except PackError as exc:
        return PackInfo(
            name, game, description, source.origin, source.path, problem=error_message(exc)
        )
    if source.origin == "user" and NAME_PATTERN.fullmatch(name) is None:
        problem = _fail(
            source, Message("the file name is not a pack name (letters, digits, - and _ only)")
        )
        return PackInfo(name, game, description, source.origin, source.path, problem=problem)
    if source.origin == "user" and name in catalog.shipped:
        return PackInfo(
            name, game, description, source.origin, source.path, problem=catalog.shadowing(name)
        )
    try:
        resolved = _resolve(engine, catalog, source, "", None)
    except AtoutError as exc:
        return PackInfo(
            name, game, description, source.origin, source.path, problem=error_message(exc)
        )
    return PackInfo(
        name,
        resolved.game,
        resolved.description,
        source.origin,
        source.path,
        warning=resolved.warnings[0]
        if len(resolved.warnings) == 1
        else "; ".join(resolved.warnings),
        title=resolved.title,
    )


def check_file(engine: Engine, path: str | os.PathLike[str]) -> list[str]:
    """Every problem of the pack file at ``path`` (empty when it is valid): each message
    names the file, the line and the key.  Used by ``atout variants check``."""
    catalog = _Catalog()
    source = file_source(path)
    try:
        raws, _ = _chain(catalog, source)
    except PackError as exc:
        # the chain stops (a missing or broken parent, a cycle): the file's own
        # problems are listed too, so that one run of the check shows every one
        return [error_message(exc), *_own_problems(engine, catalog, source)]
    problems = _check_chain(engine, raws, None)
    try:
        in_user_dir = Path(path).resolve().parent == user_dir().resolve()
    except OSError:
        in_user_dir = False
    if in_user_dir and source.name in catalog.shipped:
        problems.append(
            _fail(
                source,
                Message(
                    "has the name of the shipped pack {name}, which is used instead; "
                    "rename the file",
                    name=repr(source.name),
                ),
            )
        )
    return problems


def _own_problems(engine: Engine, catalog: _Catalog, source: _Source) -> list[str]:
    """The problems of one pack file read alone (its chain aside): what it holds that is
    not a pack, and its keys judged against its game's options when its game is known."""
    try:
        raw = catalog.raw(source)
    except PackError:
        return []  # unreadable: the chain's problem already says so
    if raw.problems or raw.game not in engine.games:
        return list(raw.problems)
    return _judge(engine, raw)[1]


def option_table(engine: Engine, game: str) -> list[tuple[str, str, str, str, str, str]]:
    """The schema of ``game`` as rows (key, kind, default, allowed, description, source),
    values written as a pack writes them (for ``atout variants options`` and the docs)."""
    rows = []
    for key, option in engine.rule_options(game).items():
        rows.append(
            (
                key,
                option.kind,
                yaml_text(option.default),
                allowed_text(option),
                option.description,
                option.source,
            )
        )
    return rows


def allowed_text(option: RuleOption) -> str:
    """The allowed values of an option, as the docs write them: ``true, false``,
    ``a, b, c`` or ``0..1000``."""
    if option.kind == "bool":
        return "true, false"
    if option.kind == "choice":
        return ", ".join(option.choices)
    low = "" if option.minimum is None else str(option.minimum)
    high = "" if option.maximum is None else str(option.maximum)
    return f"{low}..{high}"


def yaml_text(value: Any) -> str:
    """A value as a pack writes it (``true``, ``1000``, ``clockwise``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
