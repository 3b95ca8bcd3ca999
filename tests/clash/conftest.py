"""Shared fixtures of the clash tests: golden vectors and the worked-example specification."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fairfight.clash.spec import ClashSpec, parse_spec

GOLDEN = Path(__file__).parent / "golden"


def load_golden(name: str) -> dict[str, Any]:
    """A golden vector from tests/clash/golden."""
    data: dict[str, Any] = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def worked() -> dict[str, Any]:
    """The section 23 golden vector."""
    return load_golden("worked_example_23.json")


@pytest.fixture(scope="session")
def worked_spec(worked: dict[str, Any]) -> ClashSpec:
    """The section 23 attack as a specification."""
    return parse_spec(worked["spec"])
