"""No import cycle in the ``atout`` package: the graph of which module imports which,
built from the source files (never by importing them), has no loop.

What counts as an edge ``a -> b``: module ``a`` imports ``atout`` module ``b`` in a
statement that runs, wherever it stands: at module level, in a class, or in a function.
An import inside a function that would close a cycle is a cycle put off until the call,
not a cycle removed, so it counts.  The one exception is a block under
``if TYPE_CHECKING:``: it never runs (it only gives names to annotations).  The front
ends (``atout.ui``) are held to more: no cycle there even with those imports.

``from package import name`` is an edge to ``package.name`` when that is a module, else to
``package``; the parent packages that Python initialises on the way are not edges
(``from . import theme`` depends on the theme, not on the package's ``__init__``).
Imports by ``importlib`` (plugins found by entry point, the benchmark's measures named by
strings) are not followed.  The source folders are mapped to module names by
``pyproject.toml``'s ``package-dir``, as the installed package is.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def source_modules() -> dict[str, Path]:
    """Every module of the ``atout`` distribution and its source file."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_dir: dict[str, str] = config["tool"]["setuptools"]["package-dir"]
    # a folder mapped to a package of its own (core/testing -> atout.testing) is that
    # package, not a subpackage of its parent folder's: the longest folder wins
    folders = sorted(package_dir.items(), key=lambda item: len(Path(item[1]).parts))
    owner: dict[Path, tuple[str, Path]] = {}
    for package, folder in folders:
        base = ROOT / folder
        for path in base.rglob("*.py"):
            owner[path] = (package, base)
    modules: dict[str, Path] = {}
    for path, (package, base) in owner.items():
        parts = list(path.relative_to(base).with_suffix("").parts)
        if not all(part.isidentifier() for part in parts):
            continue  # a script folder, not an importable module
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join([package, *parts])] = path
    return modules


def is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def running_imports(
    tree: ast.AST, type_checking: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of a module that may run (those under ``if TYPE_CHECKING``
    too when ``type_checking``: what a type checker follows)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and is_type_checking(node.test) and not type_checking:
            for child in node.orelse:
                yield from running_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from running_imports(node, type_checking)


def imports_of(
    name: str, path: Path, modules: dict[str, Path], type_checking: bool = False
) -> set[str]:
    """The ``atout`` modules that module ``name`` (source ``path``) imports."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in running_imports(tree, type_checking):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target:
                    found.add(target)
            continue
        if node.level:
            base_parts = package.split(".")
            base_parts = base_parts[: len(base_parts) - (node.level - 1)]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:
            if f"{base}.{alias.name}" in modules:
                found.add(f"{base}.{alias.name}")
            elif base in modules:
                found.add(base)
    found.discard(name)
    return found


def import_graph(type_checking: bool = False) -> dict[str, set[str]]:
    modules = source_modules()
    return {name: imports_of(name, path, modules, type_checking) for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of more than one module (each holds at least one cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def one_cycle(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A loop through the component's first module, as ``[a, b, ..., a]``."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & component):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no cycle through {start}")


def test_the_graph_sees_the_package() -> None:
    """The graph knows the modules and the edges it should (a test of the test)."""
    graph = import_graph()
    assert "atout.core.engine" in graph and "atout.testing.kit" in graph
    assert "atout.ui.window.table" in graph["atout.ui.window.driver"]
    # the app imports the views, never the other way
    assert "atout.ui.window.app" not in graph["atout.ui.window.start_view"]
    cycle = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(cycle) == [{"a", "b", "c"}]
    assert one_cycle(cycle, {"a", "b", "c"}) == ["a", "b", "c", "a"]


def test_no_import_cycle() -> None:
    graph = import_graph()
    cycles = strongly_connected(graph)
    named = [" -> ".join(one_cycle(graph, c)) for c in cycles]
    assert named == [], "import cycles:\n" + "\n".join(named)


def test_the_front_ends_have_no_cycle_even_for_the_type_checker() -> None:
    """In ``atout.ui`` not even a ``TYPE_CHECKING`` import closes a loop: the views know
    the app as a :class:`~atout.ui.window.host.Host` protocol, and only the app imports
    the views."""
    graph = import_graph(type_checking=True)
    ui = {name: deps for name, deps in graph.items() if name.startswith("atout.ui")}
    named = [" -> ".join(one_cycle(ui, c)) for c in strongly_connected(ui)]
    assert named == [], "import cycles:\n" + "\n".join(named)
