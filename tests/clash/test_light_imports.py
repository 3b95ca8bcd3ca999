"""Importing the clash ruleset loads none of the edges' libraries, and numba only on demand.

Each check runs in a fresh interpreter (the light modules share one, imported in turn), so
modules other tests imported do not hide a heavy import: the command line (typer, rich), the
web (fastapi), the store (sqlalchemy), the cluster (dask) and the compiler (numba) stay out of
`sys.modules`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
HEAVY = ("typer", "rich", "fastapi", "starlette", "uvicorn", "httptools", "uvloop",
         "multipart", "pydantic_settings", "markdown_it", "sqlalchemy", "psycopg", "dask",
         "distributed", "numba")
"""The command line, the web ([web]), the stores ([postgres]), the cluster ([scale]) and the
compiler ([fast])."""
LIGHT_MODULES = (
    "fairfight.clash", "fairfight.clash.spec", "fairfight.clash.exchange",
    "fairfight.clash.preview", "fairfight.clash.world", "fairfight.clash.turn",
    "fairfight.clash.fog", "fairfight.clash.panel", "fairfight.clash.evaluation",
    "fairfight.clash.readout", "fairfight.clash.batch", "fairfight.clash.board_attack",
    "fairfight.clash.activation", "fairfight.clash.schemas", "fairfight.clash.knowledge",
    "fairfight.clash.ai", "fairfight.clash.record",
)


def loaded_after(code: str) -> list[str]:
    """The heavy top-level packages in `sys.modules` after running `code` in a fresh
    interpreter."""
    probe = (f"import sys\n{code}\nimport json\n"
             f"print(json.dumps(sorted({{name.split('.')[0] for name in sys.modules}} & "
             f"set({list(HEAVY)!r}))))")
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, env=environment)
    found: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return found


@pytest.fixture(scope="module")
def heavy_loaded_by() -> dict[str, list[str]]:
    """Each light module's heavy imports, from one fresh interpreter importing them in turn.

    Importing only adds to `sys.modules`: while no heavy package is loaded, whatever the next
    import brings is that module's own, so one interpreter names the culprit as exactly as one
    interpreter per module would.
    """
    heavy = set(HEAVY)
    code = ("import importlib\nfound = {}\n"
            f"for name in {list(LIGHT_MODULES)!r}:\n"
            "    importlib.import_module(name)\n"
            f"    found[name] = sorted({{n.split('.')[0] for n in sys.modules}} & {heavy!r})\n"
            "print(json.dumps(found))")
    probe = f"import sys, json\n{code}"
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, env=environment)
    loaded: dict[str, list[str]] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize("module", LIGHT_MODULES)
def test_importing_loads_no_edge_library(module: str,
                                         heavy_loaded_by: dict[str, list[str]]) -> None:
    assert heavy_loaded_by[module] == []


def test_a_public_name_of_the_package_loads_no_edge_library() -> None:
    assert loaded_after("import fairfight.clash as c\nc.preview\nc.evaluate\nc.render_panel") == []


def test_numba_loads_when_the_compiled_batch_runs() -> None:
    """The probe can see a heavy import: the compiled batch preview does bring numba."""
    code = ("from fairfight.clash.batch import columns_from_specs, preview_batch\n"
            "from fairfight.clash.corpus import oracle_specs\n"
            "preview_batch(columns_from_specs(oracle_specs()[:2]))")
    assert loaded_after(code) == ["numba"]


def test_the_batch_runs_without_the_compiler() -> None:
    """With numba unimportable (an install without `fairfight[fast]`) the batch preview,
    the AI's and the overlay's path, runs on numpy and gives the scalar figures."""
    code = ("sys.modules['numba'] = None\n"
            "from fairfight.clash.batch import columns_from_specs, preview_batch\n"
            "from fairfight.clash.corpus import oracle_specs\n"
            "from fairfight.clash.preview import preview\n"
            "specs = oracle_specs()[:50]\n"
            "batch = preview_batch(columns_from_specs(specs))\n"
            "assert [batch.item_json(i)['break_permille'] for i in range(50)] == "
            "[preview(s).break_permille for s in specs]\n"
            "del sys.modules['numba']  # the blocker itself; any numba.* left would show")
    assert loaded_after(code) == []


def test_the_game_store_beside_the_ruleset_is_the_part_that_loads_sqlalchemy() -> None:
    """`fairfight.clash.store` (the web's games) brings SQLAlchemy; the ruleset never loads it."""
    assert loaded_after("import fairfight.clash.store") == ["sqlalchemy"]
    assert loaded_after("import fairfight.clash\nimport fairfight.clash.panel") == []
