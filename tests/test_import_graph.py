"""No import circle in src/: the module graph is read from the source (ast, nothing imported).

Every import statement counts, wherever it stands: at the top, inside a function, or under
`if TYPE_CHECKING:`. A deferred or type-only import keeps the interpreter from tripping over a
circle, but the two modules still depend on each other, which is what the layering forbids.
Importing a submodule is an edge to that submodule only, not to its parent package (Python
runs the parent first, whatever the parent imports).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import fairfight

SOURCE = Path(fairfight.__file__).parent


def module_names(root: Path) -> dict[str, Path]:
    """Dotted module name -> source file, for every .py file under `root` (a package)."""
    found = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_modules(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules that module `name` imports anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    targets.add(submodule)
                elif base in known:
                    targets.add(base)
    targets.discard(name)
    return targets


def import_graph(root: Path) -> dict[str, set[str]]:
    known = module_names(root)
    return {name: imported_modules(name, path, known) for name, path in known.items()}


def tangles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that reach each other through imports (two or more each)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, iteratively: a module's imports are walked in sorted order.
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, pending = work[-1]
            target = next(pending, None)
            if target is not None:
                if target not in order:
                    order[target] = low[target] = len(order)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[module] = min(low[module], order[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == order[module]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == module:
                        break
                if len(group) > 1:
                    groups.append(group)

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return groups


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per tangle, as a path from its first module back to itself."""
    return sorted(_circle_through(group, graph) for group in tangles(graph))


def _circle_through(group: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest circle from the group's first module back to itself (breadth first)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module] & group):
                if target == start:
                    return [*paths[module], start]
                if target not in paths:
                    paths[target] = [*paths[module], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle through {start}")  # a strongly connected group has one


def test_src_has_no_import_circle() -> None:
    graph = import_graph(SOURCE)
    found = [
        f"{' -> '.join(_circle_through(group, graph))} (modules in the circle: "
        f"{', '.join(sorted(group))})"
        for group in sorted(tangles(graph), key=min)
    ]
    assert not found, "import circles: " + "; ".join(found)


def test_the_graph_sees_the_project_modules() -> None:
    graph = import_graph(SOURCE)
    assert "fairfight.core.records" in graph["fairfight.ballot.record"]
    assert "fairfight.ballot.estimates" in graph["fairfight.ballot.human"]  # from pkg import mod


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


def test_circles_through_deferred_type_only_and_relative_imports_are_found(
    tmp_path: Path,
) -> None:
    package = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def later():\n    from . import c\n",
            "pkg/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n",
            "pkg/d.py": "import pkg.a\nfrom pkg.sub import e\n",
            "pkg/sub/__init__.py": "from ..d import x\n",
            "pkg/sub/e.py": "import os\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.sub"] == {"pkg.d"}
    assert graph["pkg.d"] == {"pkg.a", "pkg.sub.e"}
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_a_package_and_its_submodules_make_no_circle_by_themselves(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {"pkg/__init__.py": "from pkg.a import f\n", "pkg/a.py": "def f():\n    return 1\n"},
    )
    assert cycles(import_graph(package)) == []
