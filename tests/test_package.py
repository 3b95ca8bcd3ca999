"""Package-level promises: every public module declares its public names, both entry points work."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import fairfight

RULESETS = ["ballot", "clash", "conquest", "warscore"]


SOURCE = Path(fairfight.__file__).parent


def module_name(path: Path) -> str:
    """The dotted name of a source file under src/fairfight (a package is its __init__)."""
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def public_modules() -> list[str]:
    """Every public module, found from the files (so one that fails to import still counts):
    no part of its name starts with an underscore, and `__main__` entry points are left out."""
    names = []
    for path in SOURCE.rglob("*.py"):
        name = module_name(path)
        if not any(part.startswith("_") for part in name.split(".")):
            names.append(name)
    return sorted(names)


def source_of(name: str) -> Path:
    relative = Path(*name.split("."))
    package = SOURCE.parent / relative / "__init__.py"
    return package if package.exists() else (SOURCE.parent / relative).with_suffix(".py")


def _bound_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for item in target.elts for name in _bound_names(item)]
    return []


def defined_names(body: list[ast.stmt]) -> set[str]:
    """Names a module's own top-level code defines: functions, classes and assignments,
    including those under a top-level `if` or `try`; imports are not definitions, and a name
    deleted at top level is not kept."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(name for target in node.targets for name in _bound_names(target))
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            names.update(_bound_names(node.target))
        elif isinstance(node, ast.If):
            names |= defined_names(node.body) | defined_names(node.orelse)
        elif isinstance(node, ast.Try):
            names |= defined_names(node.body) | defined_names(node.orelse)
            for handler in node.handlers:
                names |= defined_names(handler.body)
        elif isinstance(node, ast.Delete):
            names -= {name for target in node.targets for name in _bound_names(target)}
    return names


def public_definitions(name: str) -> set[str]:
    """The public names a module defines itself, read from its source."""
    tree = ast.parse(source_of(name).read_text(encoding="utf-8"))
    return {n for n in defined_names(tree.body) if not n.startswith("_")}


@pytest.mark.parametrize("name", ["fairfight.core", *(f"fairfight.{r}" for r in RULESETS)])
def test_each_package_declares_its_public_api(name: str) -> None:
    assert hasattr(importlib.import_module(name), "__all__")


def isort_order(name: str) -> tuple[int, str]:
    """Constants, then classes, then the rest: the other common way to sort `__all__`."""
    if name.isupper():
        return (0, name)
    return (1, name) if name[:1].isupper() else (2, name)


def test_the_module_list_is_every_source_file() -> None:
    """Modules deep in the tree and packages count; `__main__` entry points do not."""
    modules = public_modules()
    assert {"fairfight", "fairfight.core.records", "fairfight.web.warscore"} <= set(modules)
    assert "fairfight.web.warscore.fields" in modules
    assert not [name for name in modules if "__" in name]


@pytest.mark.parametrize("name", public_modules())
def test_all_is_sorted_and_complete(name: str) -> None:
    """Every public module declares `__all__`: sorted, no repeats, every listed name present,
    and every public name the module defines itself (function, class, constant, alias) listed."""
    module = importlib.import_module(name)
    assert hasattr(module, "__all__"), f"{name} declares no __all__"
    exported = list(module.__all__)
    assert exported in (sorted(exported), sorted(exported, key=isort_order)), "not sorted"
    assert len(set(exported)) == len(exported), "a name is listed twice"
    missing = [public for public in exported if not hasattr(module, public)]
    assert not missing, f"listed but not defined: {missing}"
    unlisted = sorted(public_definitions(name) - set(exported))
    assert not unlisted, f"defined but not listed: {unlisted}"


def test_the_definition_reader_sees_every_kind_of_binding() -> None:
    tree = ast.parse(
        "import os\nfrom x import y\nA = 1\nB: int = 2\nC: int\nd, (e, _f) = 1, (2, 3)\n"
        "def g(): pass\nclass H: pass\nif True:\n    I = 1\nelse:\n    J = 2\n"
        "try:\n    K = 1\nexcept ImportError:\n    L = 1\ntmp = 0\ndel tmp\n"
    )
    assert defined_names(tree.body) == {"A", "B", "d", "e", "_f", "g", "H", "I", "J", "K", "L"}


def test_python_dash_m_runs_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "fairfight", "version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert result.stdout.strip() == importlib.import_module("fairfight").__version__
