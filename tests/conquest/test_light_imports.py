"""The rules load light: importing the conquest package, its tables, engine, verifier or map
loader pulls in no command-line, web, database or cluster library."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("typer", "rich", "fastapi", "sqlalchemy", "dask", "numba")
"""Libraries only the command line, the web service, the store and the forecasts need."""


@pytest.mark.parametrize(
    "module",
    [
        "fairfight.conquest",
        "fairfight.conquest.engine",
        "fairfight.conquest.tables",
        "fairfight.conquest.verifier",
        "fairfight.conquest.scenario",
    ],
)
def test_importing_loads_no_heavy_library(module: str) -> None:
    """Run in a fresh interpreter, so nothing another test imported can hide a heavy import."""
    program = (
        f"import json, sys; import {module}; heavy = {HEAVY!r}; "
        "print(json.dumps(sorted(name for name in sys.modules if name.split('.')[0] in heavy)))"
    )
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) == []


def test_the_check_itself_sees_a_heavy_import() -> None:
    """The same probe on the command line's module does find typer, so an empty list above
    means something."""
    program = (
        "import json, sys; import fairfight.conquest.cli; print(json.dumps('typer' in sys.modules))"
    )
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert json.loads(run.stdout) is True
