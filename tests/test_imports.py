"""The import graph of pbem, read from the source: no cycles, the engine imports nothing
of the rest of pbem, the board package imports nothing of the rounds, the core engine
nothing of the titles, and no import hides inside a function in the engine.

Every import counts, at module level or in a function, except those under
``if TYPE_CHECKING:`` (they are not run).  ``from pkg import name`` is an edge to the
submodule pkg.name where there is one, else to the package itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PBEM = ROOT / "pbem"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PBEM.rglob("*.py")}


def imports(name: str) -> Iterator[tuple[str, bool]]:
    """(module imported, whether the import is inside a function) for every import of
    module ``name`` that runs."""
    path = modules()[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped: set[int] = set()
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            in_function |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        nested = id(node) in in_function
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules():
                    yield alias.name, nested
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules()]
            if len(subs) == len(node.names):
                yield from ((s, nested) for s in subs)
            elif target in modules():
                yield target, nested
                yield from ((s, nested) for s in subs)


@cache
def graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(t for t, _ in imports(name) if t != name) for name in modules()}


def cycles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_pbem_has_no_import_cycle() -> None:
    assert cycles(graph()) == []


def test_a_cycle_is_found() -> None:
    """The check itself: modules importing each other round a loop are a cycle, one
    importing them is not part of it."""
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}),
             "d": frozenset({"a"}), "e": frozenset()}
    assert cycles(edges) == [["a", "b", "c"]]
    assert "pbem.engine.state" in graph()["pbem.engine.facts"]  # the graph is read


def test_the_engine_imports_nothing_of_the_rest_of_pbem() -> None:
    for name, targets in graph().items():
        if name.startswith("pbem.engine"):
            assert all(t.startswith("pbem.engine") for t in targets), (name, targets)


def test_the_board_package_imports_nothing_of_the_rounds_or_titles() -> None:
    allowed = ("pbem.engine.board", "pbem.engine.errors", "pbem.engine.rulesdata",
               "pbem.engine.memo")
    for name, targets in graph().items():
        if name.startswith("pbem.engine.board"):
            assert all(t.startswith(allowed) for t in targets), (name, targets)


def test_the_core_engine_imports_no_title() -> None:
    for name, targets in graph().items():
        if name.startswith("pbem.engine") and not name.startswith("pbem.engine.titles"):
            assert not [t for t in targets if t.startswith("pbem.engine.titles")], name


def test_no_import_hides_in_a_function_of_the_engine() -> None:
    hidden = [(name, target) for name in modules() if name.startswith("pbem.engine")
              for target, nested in imports(name) if nested]
    assert hidden == []


def test_the_core_engine_names_no_title() -> None:
    """grep "1830\\|1870" pbem/engine/*.py finds the data loading only."""
    loading = {"title.py", "rulesdata.py"}
    for path in (PBEM / "engine").glob("*.py"):
        if path.name not in loading:
            text = path.read_text(encoding="utf-8")
            assert "1830" not in text and "1870" not in text, path.name
