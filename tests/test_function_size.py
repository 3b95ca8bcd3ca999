"""No function in src/ is over 60 lines: a longer one does more than one step; split it at a seam.

A function's length runs from its `def` line to its last line, docstring included, as `ast`
reports it. Database migrations are exempt (each is one dated script, read once and never
changed). The few exceptions are named below, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import fairfight

SOURCE = Path(fairfight.__file__).parent
MOST_LINES = 60
EXEMPT_FOLDER = "migrations"
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("conquest/forecast/kernel.py", "_play_season"): (
        "a numba kernel: compiled as one loop nest, calls out of it cost the speed it exists for"),
    ("conquest/forecast/kernel.py", "run_seasons"): (
        "a numba kernel: the parallel loop over seasons with its per-season buffers in one body"),
    ("clash/kernel.py", "prepare"): (
        "compiled by numba from its own source (clash/compiled.py): it builds the Prepared "
        "record in one call, and numba cannot merge partial results kept in dicts"),
}
"""(module, function) -> why it may be longer than the house limit."""


def long_functions(source: str, limit: int = MOST_LINES) -> dict[str, int]:
    """The functions (and methods, by qualified name) of `source` longer than `limit` lines."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                if lines > limit:
                    found[name] = lines
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def over_limit() -> dict[tuple[str, str], int]:
    """Every function under src/fairfight over the limit and not a named exception."""
    too_long = {}
    for path in sorted(SOURCE.rglob("*.py")):
        module = path.relative_to(SOURCE)
        if EXEMPT_FOLDER in module.parts:
            continue
        for name, lines in long_functions(path.read_text(encoding="utf-8")).items():
            if (str(module), name) not in EXCEPTIONS:
                too_long[(str(module), name)] = lines
    return too_long


def test_no_function_is_over_the_limit() -> None:
    too_long = over_limit()
    assert not too_long, f"functions over {MOST_LINES} lines: {too_long}"


def test_a_long_function_is_found() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MOST_LINES - 1))
    planted = f"def planted():\n{body}\n    return 0\n\ndef short():\n    return 1\n"
    planted += f"class Holder:\n    def method(self):\n{body}\n        return 0\n".replace(
        "\n    x", "\n        x")
    assert long_functions(planted) == {"planted": MOST_LINES + 1, "Holder.method": MOST_LINES + 1}


def test_a_function_at_the_limit_passes() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MOST_LINES - 1))
    assert long_functions(f"def fits():\n{body}\n") == {}


def test_every_exception_exists_and_says_why() -> None:
    for (module, name), reason in EXCEPTIONS.items():
        path = SOURCE / module
        assert path.exists(), f"{module} is named as an exception but does not exist"
        assert name in long_functions(path.read_text(encoding="utf-8"), limit=0), (
            f"{module}:{name} is named as an exception but no such function exists")
        assert len(reason) > 20
