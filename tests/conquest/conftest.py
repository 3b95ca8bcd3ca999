"""Fixtures shared by the conquest tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairfight.conquest.store import season
from tests.conquest.helpers import SEED, star_map


@pytest.fixture
def season_file(tmp_path: Path) -> Path:
    """A new season on the star map, nothing fought yet."""
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    return path
