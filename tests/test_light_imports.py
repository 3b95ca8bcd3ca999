"""A ruleset is a library: importing it (and using any of its public names) loads no command
line, web, database, cluster or compiler package. Each check runs in a fresh interpreter, so
what an earlier test imported cannot hide a heavy import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import fairfight

RULESETS = ("ballot", "clash", "conquest", "warscore")
HEAVY = ("dask", "distributed", "fastapi", "numba", "rich", "sqlalchemy", "typer")
"""Top-level packages only the edges (command line, web, store, forecasts) may load."""
EDGES = {"cli", "store"}
"""Modules of a ruleset that are edges themselves: the command line and the persistence."""
SOURCE = Path(fairfight.__file__).parent

PROBE = """
import importlib, json, sys
for name in sys.argv[2:]:
    module = importlib.import_module(name)
    for public in getattr(module, "__all__", ()):
        getattr(module, public)
heavy = json.loads(sys.argv[1])
print(json.dumps(sorted(h for h in heavy if h in sys.modules)))
"""


def heavy_packages_loaded(*modules: str) -> list[str]:
    """Which HEAVY packages a fresh interpreter holds after importing `modules` and reading
    every name in their `__all__` (a lazy package imports its submodules on first use)."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(HEAVY), *modules],
        capture_output=True,
        text=True,
        check=False,
        cwd=SOURCE.parents[1],
    )
    assert result.returncode == 0, result.stderr[-2000:]
    loaded: list[str] = json.loads(result.stdout)
    return loaded


@pytest.mark.parametrize("ruleset", RULESETS)
def test_importing_a_ruleset_loads_no_heavy_package(ruleset: str) -> None:
    assert heavy_packages_loaded(f"fairfight.{ruleset}") == []


@pytest.mark.parametrize("ruleset", ["ballot", "warscore"])
def test_every_rule_module_loads_no_heavy_package(ruleset: str) -> None:
    modules = sorted(
        f"fairfight.{ruleset}.{path.stem}"
        for path in (SOURCE / ruleset).glob("*.py")
        if path.stem not in EDGES and not path.stem.startswith("_")
    )
    assert modules
    assert heavy_packages_loaded(*modules) == []


def test_the_probe_sees_a_heavy_import() -> None:
    assert heavy_packages_loaded("fairfight.ballot.cli") == ["rich", "typer"]
