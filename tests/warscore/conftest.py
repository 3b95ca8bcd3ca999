"""Fixtures for the warscore tests: the demonstration battle as data, YAML writing, the CLI."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from fairfight.cli import app

REPO = Path(__file__).resolve().parents[2]
DEMONSTRATION_FILE = REPO / "examples" / "warscore" / "demonstration.yaml"
WAR_FILE = REPO / "examples" / "warscore" / "war_of_the_ring.yaml"

NWS_PLAIN: dict[str, Any] = {
    "population": "over-1-million",  # 5
    "industry": "proto-industrial",  # 5
    "technology": "middle",  # 15
    "government": "supported-monarchy",  # 10
    "eagerness": "supported-war",  # 10
    "weariness": "rationing",  # 0
    "readiness": "in-position-or-stockpiled",  # 10
    "fronts": 2,  # 0
}
"""An NWS block worth 55 points by the source's tables."""


@pytest.fixture
def demo() -> dict[str, Any]:
    """A fresh copy of the demonstration battle as plain data."""
    return copy.deepcopy(yaml.safe_load(DEMONSTRATION_FILE.read_text(encoding="utf-8")))


@pytest.fixture
def write_yaml(tmp_path: Path) -> Callable[[Any], Path]:
    """Write data (or raw text) to a YAML file and return its path."""
    counter = iter(range(10_000))

    def write(data: Any) -> Path:
        path = tmp_path / f"input_{next(counter)}.yaml"
        text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False)
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def run() -> Callable[..., Any]:
    """Run `fairfight warscore ...` in-process."""
    runner = CliRunner()

    def invoke(*args: str) -> Any:
        return runner.invoke(app, ["warscore", *[str(arg) for arg in args]])

    return invoke


def war_data(years: list[dict[str, Any]]) -> dict[str, Any]:
    """A two-nation war (Gondor, Mordor) with the given years."""
    return {
        "war": "Test war",
        "nations": [{"name": "Gondor"}, {"name": "Mordor"}],
        "years": years,
    }
