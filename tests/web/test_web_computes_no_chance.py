"""No module under `fairfight.web` computes a chance: the rulesets compute, the web formats.

Read from the source with ast, every module of the web package is refused
- an import (or a use, as `module.name`) of a ruleset function that computes a chance: the
  exact helpers of `core.exact`, the ballot's dice and estimate tables, the clash preview's
  machinery, the conquest battle odds and the forecast's and stakes' inner steps. The web may
  call what returns a finished value (`clash.evaluation.evaluate`, `ballot.advice`,
  `conquest.forecast.forecast`, `conquest.stakes.stakes_of`) and format it;
- chance arithmetic of its own: a `Fraction(a, b)` made from two numbers, or a `Fraction` in
  a sum, difference, product or quotient. Parsing a stored "num/den" (`Fraction(text)`) and
  formatting it are not computing.

Names are resolved by importing what a module imports, so a function reached by another path
(a re-export, a moved module) is still the same function.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

import fairfight.web

WEB = Path(fairfight.web.__file__).parent

CHANCE_MODULES = (
    "fairfight.ballot.dice",
    "fairfight.ballot.estimates",
    "fairfight.ballot.revealed",
    "fairfight.clash.batch",
    "fairfight.clash.distribution",
    "fairfight.clash.kernel",
    "fairfight.clash.preview",
    "fairfight.conquest.forecast.kernel",
    "fairfight.core.exact",
)
"""Modules whose every function computes a chance (exact tables, previews, kernels)."""
CHANCE_FUNCTIONS = {
    "fairfight.clash.fog": ("preview_under_fog", "shown_pivots"),
    "fairfight.conquest.rules.engine": ("battle_chance", "round_chance"),
    "fairfight.conquest.forecast.title_odds": ("run_chunk", "season_arrays", "wilson_interval"),
    "fairfight.conquest.forecast.stakes": ("engine_step", "forced_draws", "importance_noise_points",
                                  "importance_points", "outcome_states"),
}
"""Chance-computing functions of modules whose other names the web may use (the fog fields'
parser, the engine's state helpers, `forecast` and `stakes_of`, which return finished values)."""
NOT_YET: dict[str, str] = {
}
"""Modules known to compute a chance today, with what removes it; each must still do so."""


def _forbidden() -> dict[int, str]:
    """id of each chance-computing object (modules and functions) -> its dotted name."""
    found: dict[int, str] = {}
    for name in CHANCE_MODULES:
        module = importlib.import_module(name)
        found[id(module)] = name
        for attribute, value in vars(module).items():
            # functions and compiled kernels made there; its classes are values, not computing
            if callable(value) and not inspect.isclass(value) \
                    and getattr(value, "__module__", None) == module.__name__:
                found[id(value)] = f"{name}.{attribute}"
    for name, functions in CHANCE_FUNCTIONS.items():
        module = importlib.import_module(name)
        for function in functions:
            found[id(getattr(module, function))] = f"{name}.{function}"
    return found


FORBIDDEN = _forbidden()


def _target(module: str, name: str | None) -> object:
    """What `from module import name` (or `import module`, name None) binds."""
    imported = importlib.import_module(module)
    if name is None:
        return imported
    try:
        return getattr(imported, name)
    except AttributeError:
        return importlib.import_module(f"{module}.{name}")


def _bindings(tree: ast.Module, package: str) -> dict[str, object]:
    """Every name the module's imports bind (anywhere in it) -> the object bound; imports of
    the web's own modules are skipped, as each of those is checked itself."""
    bound: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith("fairfight.web"):
                    top = alias.asname or alias.name.split(".")[0]
                    bound[top] = _target(alias.name if alias.asname else top, None)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if base.startswith("fairfight.web") or base == "__future__":
                continue
            for alias in node.names:
                bound[alias.asname or alias.name] = _target(base, alias.name)
    return bound


def _resolved(node: ast.expr, bound: dict[str, object]) -> object | None:
    """The object a name or a dotted attribute chain stands for, when its root is imported."""
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _resolved(node.value, bound)
        if isinstance(owner, ModuleType):
            return getattr(owner, node.attr, None)
    return None


def _is_fraction(node: ast.expr, bound: dict[str, object]) -> bool:
    """A `Fraction(...)` call, or one wrapped in `float(...)`/`int(...)`."""
    if not isinstance(node, ast.Call):
        return False
    if _resolved(node.func, bound) is Fraction:
        return True
    wrapper = isinstance(node.func, ast.Name) and node.func.id in ("float", "int")
    return wrapper and len(node.args) == 1 and _is_fraction(node.args[0], bound)


def chance_findings(source: str, module: str, is_package: bool = False) -> list[str]:
    """Where the source of `module` computes a chance, one line each (empty when it does not)."""
    tree = ast.parse(source)
    bound = _bindings(tree, module if is_package else module.rpartition(".")[0])
    found = []
    for name, value in sorted(bound.items()):
        if id(value) in FORBIDDEN:
            found.append(f"{module}: imports {FORBIDDEN[id(value)]} (as {name})")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            value = _resolved(node, bound)
            if value is not None and id(value) in FORBIDDEN:
                found.append(f"{module}:{node.lineno}: uses {FORBIDDEN[id(value)]}")
        elif isinstance(node, ast.Call) and _resolved(node.func, bound) is Fraction \
                and len(node.args) + len(node.keywords) == 2:
            found.append(f"{module}:{node.lineno}: makes a chance as Fraction(a, b)")
        elif isinstance(node, ast.BinOp) and (
                _is_fraction(node.left, bound) or _is_fraction(node.right, bound)):
            found.append(f"{module}:{node.lineno}: does arithmetic on a Fraction")
    return found


def web_modules() -> dict[str, Path]:
    """Every module of the web package by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(WEB.rglob("*.py")):
        parts = list(path.relative_to(WEB.parent.parent).with_suffix("").parts)
        found[".".join(parts).removesuffix(".__init__")] = path
    return found


@pytest.mark.parametrize("module", sorted(web_modules()))
def test_no_web_module_computes_a_chance(module: str) -> None:
    path = web_modules()[module]
    found = chance_findings(path.read_text(encoding="utf-8"), module,
                            is_package=path.name == "__init__.py")
    if module in NOT_YET:
        assert found, f"{module} computes no chance any more: remove it from NOT_YET"
    else:
        assert found == []


def test_the_known_exceptions_are_web_modules() -> None:
    assert set(NOT_YET) <= set(web_modules())


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from fairfight.core.exact import at_least\n",
         ["planted: imports fairfight.core.exact.at_least (as at_least)"]),
        ("from fairfight.ballot import dice as tables\n",
         ["planted: imports fairfight.ballot.dice (as tables)"]),
        ("from fairfight.conquest import engine\n\ndef odds(rounds):\n"
         "    return engine.battle_chance(rounds)\n",
         ["planted:4: uses fairfight.conquest.rules.engine.battle_chance"]),
        ("import fairfight.conquest.forecast.stakes\n\ndef step(s):\n"
         "    return fairfight.conquest.forecast.stakes.engine_step(s)\n",
         ["planted:4: uses fairfight.conquest.forecast.stakes.engine_step"]),
        ("from fractions import Fraction\n\ndef pairing(a, d):\n    return Fraction(1, a * d)\n",
         ["planted:4: makes a chance as Fraction(a, b)"]),
        ("from fractions import Fraction\n\ndef mixed(w, t):\n"
         "    return float(Fraction(w)) * t\n",
         ["planted:4: does arithmetic on a Fraction"]),
    ],
)
def test_a_planted_chance_is_found(source: str, expected: list[str]) -> None:
    assert chance_findings(source, "planted") == expected


def test_parsing_and_finished_values_are_not_computing() -> None:
    source = ("from fractions import Fraction\nfrom fairfight.clash.evaluation import evaluate\n"
              "from fairfight.conquest import engine\n\ndef shown(text, spec):\n"
              "    return Fraction(text), evaluate(spec), engine.fraction_text(Fraction(text))\n")
    assert chance_findings(source, "planted") == []
