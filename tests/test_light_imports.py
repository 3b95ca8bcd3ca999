"""A ruleset is a library: importing it (and using any of its public names) loads no command
line, web, database, cluster or compiler package. Each check runs in a fresh interpreter, so
what an earlier test imported cannot hide a heavy import."""

from __future__ import annotations

import importlib
import json
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fairfight

RULESETS = ("ballot", "clash", "conquest", "warscore")
HEAVY = ("dask", "distributed", "fastapi", "numba", "rich", "sqlalchemy", "typer")
"""Top-level packages only the edges (command line, web, store, forecasts) may load."""
EDGES = {"cli", "store"}
"""Modules of a ruleset that are edges themselves: the command line and the persistence (and
the command line's helpers, named `cli_*`)."""
SOURCE = Path(fairfight.__file__).parent
LIGHT_PACKAGES = ("fairfight.conquest.record", "fairfight.conquest.rules")
"""Packages that are rules or ship in an archive: every module in them, found by walking the
package, must load light (a new module is checked without being listed anywhere)."""

PROBE = """
import importlib, json, sys
for name in sys.argv[2:]:
    module = importlib.import_module(name)
    for public in getattr(module, "__all__", ()):
        getattr(module, public)
heavy = json.loads(sys.argv[1])
print(json.dumps(sorted(h for h in heavy if h in sys.modules)))
"""


def package_modules(package: str) -> list[str]:
    """The package and every module under it, sub-packages included, as pkgutil finds them on
    disk (the package's `__path__`), so none can be left out by a list."""
    path = importlib.import_module(package).__path__
    found = (info.name for info in pkgutil.walk_packages(path, f"{package}."))
    return [package, *sorted(found)]


def heavy_packages_loaded(*modules: str, search: Path | None = None) -> list[str]:
    """Which HEAVY packages a fresh interpreter holds after importing `modules` and reading
    every name in their `__all__` (a lazy package imports its submodules on first use).
    `search` is a folder put first on the interpreter's path."""
    prelude = "" if search is None else f"import sys; sys.path.insert(0, {str(search)!r})\n"
    result = subprocess.run(
        [sys.executable, "-c", prelude + PROBE, json.dumps(HEAVY), *modules],
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


def test_the_witness_package_and_its_protocol_load_light() -> None:
    """The witness's checks are a library too; its store, service and command line are edges."""
    assert heavy_packages_loaded("fairfight.witness", "fairfight.witness.protocol") == []
    assert "sqlalchemy" in heavy_packages_loaded("fairfight.witness.store")


@pytest.mark.parametrize("ruleset", ["ballot", "warscore"])
def test_every_rule_module_loads_no_heavy_package(ruleset: str) -> None:
    modules = sorted(
        f"fairfight.{ruleset}.{path.stem}"
        for path in (SOURCE / ruleset).glob("*.py")
        if path.stem not in EDGES and not path.stem.startswith(("_", "cli_"))
    )
    assert modules
    assert heavy_packages_loaded(*modules) == []


@pytest.mark.parametrize("package", LIGHT_PACKAGES)
def test_every_module_of_a_light_package_loads_no_heavy_package(package: str) -> None:
    modules = package_modules(package)
    assert len(modules) > 3 and all(name.startswith(f"{package}.") for name in modules[1:])
    assert heavy_packages_loaded(*modules) == []


def test_the_walk_finds_the_shipped_files() -> None:
    assert {"fairfight.conquest.rules.engine", "fairfight.conquest.rules.tables"} <= set(
        package_modules("fairfight.conquest.rules")
    )
    assert "fairfight.conquest.record.verifier" in package_modules("fairfight.conquest.record")


def test_a_heavy_module_planted_in_a_light_package_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy of `rules/` under another name, with one module added that imports SQLAlchemy:
    the walk finds the new module by itself and the probe sees the heavy import."""
    planted = tmp_path / "planted_rules"
    shutil.copytree(SOURCE / "conquest" / "rules", planted,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (planted / "deep").mkdir()
    (planted / "deep" / "__init__.py").write_text('"""A sub-package."""\n')
    (planted / "deep" / "careless.py").write_text("import sqlalchemy\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    modules = package_modules("planted_rules")
    assert "planted_rules.deep.careless" in modules and "planted_rules.engine" in modules
    assert heavy_packages_loaded(*modules, search=tmp_path) == ["sqlalchemy"]
    (planted / "deep" / "careless.py").unlink()
    assert heavy_packages_loaded(*package_modules("planted_rules"), search=tmp_path) == []
    for name in [name for name in sys.modules if name.split(".")[0] == "planted_rules"]:
        del sys.modules[name]  # the copy's modules go with its folder


def test_the_probe_sees_a_heavy_import() -> None:
    assert heavy_packages_loaded("fairfight.ballot.cli") == ["rich", "typer"]
