"""The plugin author's guide (``docs/plugins.md``) agrees with the hook specifications and
with the conformance kit: every hook is documented once, with the specification's exact
arguments and return type, its kind, when it is called, what it returns and an example;
every code sample is valid Python; every check the kit can report is explained."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest
from atout.core import hookspecs
from atout.testing import kit

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"
HEADING = re.compile(r"^#{2,4} `(atout_\w+)\((.*)\)(?: -> (.+))?`$", re.MULTILINE)


def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def sections() -> dict[str, tuple[str, str | None, str]]:
    """Per documented hook: its documented arguments, return type, and section text."""
    text = guide()
    found: dict[str, tuple[str, str | None, str]] = {}
    matches = list(HEADING.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end() : end].split("\n## ")[0]
        assert m.group(1) not in found, f"{m.group(1)} is documented twice"
        found[m.group(1)] = (m.group(2), m.group(3), body)
    return found


def spec_signature(name: str) -> tuple[str, str]:
    """The specification's arguments and return type, as the guide writes them."""
    sig = inspect.signature(getattr(hookspecs, name))
    params = ", ".join(f"{p.name}: {p.annotation}" for p in sig.parameters.values())
    return params, str(sig.return_annotation)


def test_every_hook_of_the_specification_is_in_the_guide() -> None:
    missing = set(hookspecs.all_hook_names()) - set(sections())
    assert not missing, f"hooks missing from docs/plugins.md: {sorted(missing)}"


def test_the_guide_documents_no_hook_that_does_not_exist() -> None:
    stale = set(sections()) - set(hookspecs.all_hook_names())
    assert not stale, f"docs/plugins.md documents hooks that do not exist: {sorted(stale)}"


@pytest.mark.parametrize("name", hookspecs.all_hook_names())
def test_each_hook_is_documented_with_the_specifications_signature(name: str) -> None:
    documented = sections().get(name)
    assert documented is not None, f"{name} is not in docs/plugins.md"
    params, returns, _ = documented
    spec_params, spec_returns = spec_signature(name)
    assert params == spec_params, f"{name}: the guide says ({params}), the spec ({spec_params})"
    assert returns == spec_returns, f"{name}: the guide returns {returns}, the spec {spec_returns}"


@pytest.mark.parametrize("name", hookspecs.all_hook_names())
def test_each_hook_says_its_kind_when_it_is_called_what_it_returns_and_shows_an_example(
    name: str,
) -> None:
    body = sections()[name][2]
    firstresult = getattr(hookspecs, name).atout_spec["firstresult"]
    kind = re.search(r"\*\*Kind:\*\* (\w+)", body)
    assert kind is not None, f"{name}: no **Kind:** line"
    assert kind.group(1) == ("firstresult" if firstresult else "merged")
    for label in ("**When:**", "**Arguments:**", "**Returns:**", "**Example:**"):
        assert label in body, f"{name}: no {label}"
    assert "```python" in body, f"{name}: no example code"


def test_every_code_sample_of_the_guide_is_valid_python() -> None:
    blocks = re.findall(r"```python\n(.*?)```", guide(), re.DOTALL)
    assert len(blocks) >= len(hookspecs.all_hook_names())
    for block in blocks:
        ast.parse(block.replace("\n    ...\n", "\n    pass\n"))


def test_every_check_of_the_kit_is_explained() -> None:
    table = dict(re.findall(r"^\| `(\w+)` \| (.+) \|$", guide(), re.MULTILINE))
    assert set(table) == set(kit.CHECKS)


def test_the_guide_shows_the_entry_point_group_the_plugin_manager_reads() -> None:
    from atout.core.pluginmanager import DISABLE_ENV
    from atout.core.pluginmanager import ENTRY_POINT_GROUP

    text = guide()
    assert f'[project.entry-points."{ENTRY_POINT_GROUP}"]' in text
    assert DISABLE_ENV in text
