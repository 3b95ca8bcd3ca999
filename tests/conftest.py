"""Test-wide settings: a deterministic hypothesis profile so CI runs are repeatable, and the
`slow` marker's promise kept.

A test marked `slow` is a bigger sweep of a property a default test already checks on a sample
(the marker's help in pyproject.toml: "kept out of the default run"); `make test` leaves it out
without reporting a skip, and `FAIRFIGHT_SLOW=1 pytest -m slow` runs every one of them.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("fairfight", derandomize=True, deadline=None, max_examples=60)
settings.load_profile("fairfight")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the `slow` tests out unless FAIRFIGHT_SLOW is set."""
    if os.environ.get("FAIRFIGHT_SLOW"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
