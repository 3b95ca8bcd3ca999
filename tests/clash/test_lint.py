"""No floating point anywhere in the clash package [CB-060, CB-2700]: an AST scan of its source."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fairfight.clash

PACKAGE = Path(fairfight.clash.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
FLOAT_CALLS = {"float", "fsum", "truediv", "sqrt", "exp", "log", "pow"}


def _problems(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, float | complex):
            found.append(f"{where}: float literal {node.value!r}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append(f"{where}: true division")
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div):
            found.append(f"{where}: true division")
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in FLOAT_CALLS:
                found.append(f"{where}: call to {name}()")
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) \
                else [node.module or ""]
            if any(module.split(".")[0] in {"math", "statistics", "random"}
                   for module in modules):
                found.append(f"{where}: imports {modules}")
        if isinstance(node, ast.Attribute) and node.attr in {"float64", "float32", "inf", "nan"}:
            found.append(f"{where}: numpy float {node.attr}")
    return found


def test_the_package_has_sources() -> None:
    assert len(SOURCES) >= 10


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_no_floats(path: Path) -> None:
    assert _problems(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_lint_catches_floats() -> None:
    sample = "import math\nx = 1 / 2\ny = float(3)\nz = 0.5\nw = np.float64(1)\n"
    assert len(_problems(ast.parse(sample))) == 5


def test_the_world_modules_are_scanned_too() -> None:
    names = {path.stem for path in SOURCES}
    assert {"scenario", "world", "engagement", "orders", "turn", "knowledge", "ai", "record",
            "board_attack", "board_text", "generate", "setpieces", "playtest", "world_cli"} <= names
