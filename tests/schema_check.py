"""A small JSON Schema validator for the subset of JSON Schema (2020-12) that the
protocol's schemas use (docs/protocol-schemas/): types, ``const``, ``enum``, objects
(``properties``, ``required``, ``additionalProperties``), arrays (``items``,
``prefixItems``, ``minItems``, ``maxItems``), bounds on numbers and texts, ``pattern``,
``anyOf``, ``oneOf`` and ``$ref`` (within a file and to another file of the folder).

A keyword outside that subset is an error, not ignored: a schema that says more than
this validator checks fails loudly instead of passing everything."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "protocol-schemas"

_NOTES = {"$schema", "$id", "$defs", "title", "description"}
_CHECKED = {
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "anyOf",
    "oneOf",
    "$ref",
}


class SchemaError(AssertionError):
    """A value the schema refuses: where, and why."""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise SchemaError(f"not a JSON value: {value!r:.40}")


def _same(a: Any, b: Any) -> bool:
    """JSON equality (``1`` is not ``true``)."""
    ka, kb = _kind(a), _kind(b)
    numbers = {"integer", "number"}
    if ka != kb and not (ka in numbers and kb in numbers):
        return False
    if ka == "array":
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if ka == "object":
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


class Validator:
    """Validates values against the schema files of one folder."""

    def __init__(self, folder: Path = SCHEMAS) -> None:
        self.folder = folder
        self._files: dict[Path, dict[str, Any]] = {}
        self._known: set[int] = set()
        self._refs: dict[tuple[str, Path], tuple[dict[str, Any], Path]] = {}

    def load(self, path: Path) -> dict[str, Any]:
        path = path.resolve()
        if path not in self._files:
            self._files[path] = json.loads(path.read_text(encoding="utf-8"))
        return self._files[path]

    def validate(self, value: Any, name: str) -> None:
        """Check ``value`` against the schema file ``name`` (``server/update.json``)."""
        path = self.folder / name
        self._check(value, self.load(path), path, "$")

    def _resolve(self, ref: str, base: Path) -> tuple[dict[str, Any], Path]:
        key = (ref, base)
        if key not in self._refs:
            self._refs[key] = self._find(ref, base)
        return self._refs[key]

    def _find(self, ref: str, base: Path) -> tuple[dict[str, Any], Path]:
        file, _, pointer = ref.partition("#")
        path = (base.parent / file).resolve() if file else base
        node: Any = self.load(path)
        for part in [p for p in pointer.split("/") if p]:
            node = node[part]
        return node, path

    def _check(self, value: Any, schema: dict[str, Any], base: Path, where: str) -> None:
        if id(schema) not in self._known:
            unknown = set(schema) - _NOTES - _CHECKED
            if unknown:
                raise SchemaError(f"{base.name}: keywords this validator does not check: {unknown}")
            self._known.add(id(schema))
        if "$ref" in schema:
            target, path = self._resolve(schema["$ref"], base)
            self._check(value, target, path, where)
        kind = _kind(value)
        if "type" in schema:
            want = schema["type"]
            if not (want == kind or (want == "number" and kind == "integer")):
                raise SchemaError(f"{where}: expected {want}, not {kind}: {value!r:.60}")
        if "const" in schema and not _same(value, schema["const"]):
            raise SchemaError(f"{where}: expected {schema['const']!r}, not {value!r:.60}")
        if "enum" in schema and not any(_same(value, x) for x in schema["enum"]):
            raise SchemaError(f"{where}: {value!r:.60} is not one of {schema['enum']}")
        if kind in ("integer", "number"):
            if "minimum" in schema and value < schema["minimum"]:
                raise SchemaError(f"{where}: {value} is below {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                raise SchemaError(f"{where}: {value} is above {schema['maximum']}")
        if kind == "string":
            if len(value) < schema.get("minLength", 0):
                raise SchemaError(f"{where}: shorter than {schema['minLength']}")
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                raise SchemaError(f"{where}: longer than {schema['maxLength']}")
            if "pattern" in schema and not re.search(schema["pattern"], value):
                raise SchemaError(f"{where}: {value!r:.60} does not match {schema['pattern']}")
        if kind == "object":
            props = schema.get("properties", {})
            for key in schema.get("required", []):
                if key not in value:
                    raise SchemaError(f"{where}: {key} is missing")
            for key, item in value.items():
                if key in props:
                    self._check(item, props[key], base, f"{where}.{key}")
                elif schema.get("additionalProperties", True) is False:
                    raise SchemaError(f"{where}: {key} is not a field here")
        if kind == "array":
            if len(value) < schema.get("minItems", 0):
                raise SchemaError(f"{where}: fewer than {schema['minItems']} items")
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                raise SchemaError(f"{where}: more than {schema['maxItems']} items")
            prefix = schema.get("prefixItems", [])
            for i, item in enumerate(value):
                if i < len(prefix):
                    self._check(item, prefix[i], base, f"{where}[{i}]")
                elif "items" in schema:
                    self._check(item, schema["items"], base, f"{where}[{i}]")
        if "anyOf" in schema and not any(
            self._fits(value, s, base, where) for s in schema["anyOf"]
        ):
            raise SchemaError(f"{where}: fits none of anyOf: {value!r:.80}")
        if "oneOf" in schema:
            fits = sum(
                self._fits(value, s, base, where)
                for s in schema["oneOf"]
                if not self._ruled_out(value, s, base)
            )
            if fits != 1:
                raise SchemaError(f"{where}: fits {fits} of oneOf, not 1: {value!r:.80}")

    def _ruled_out(self, value: Any, schema: dict[str, Any], base: Path) -> bool:
        """Whether an object branch of a ``oneOf`` cannot fit ``value`` because a field
        it fixes (``const``, like an event's ``kind``) has another value: skipped
        without a full check (it would fail it)."""
        if "$ref" in schema:
            schema, base = self._resolve(schema["$ref"], base)
        if not isinstance(value, dict):
            return False
        for key, prop in schema.get("properties", {}).items():
            if "const" in prop and key in value and not _same(value[key], prop["const"]):
                return True
        return False

    def _fits(self, value: Any, schema: dict[str, Any], base: Path, where: str) -> bool:
        try:
            self._check(value, schema, base, where)
        except SchemaError as exc:
            if "keywords this validator does not check" in str(exc):
                raise
            return False
        return True
