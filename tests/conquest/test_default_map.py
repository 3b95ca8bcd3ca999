"""The default map through the whole system: a full season, the demo command, map-stats."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.rules import engine, scenario
from tests.conquest.helpers import SEED, play


def _default_map() -> dict[str, Any]:
    assert scenario.map_path(scenario.DEFAULT_MAP).is_file(), "the default map ships in maps/"
    loaded: dict[str, Any] = scenario.load_map(scenario.DEFAULT_MAP)
    return loaded


def test_a_full_season_on_the_default_map_ends_with_one_faction() -> None:
    map_data = _default_map()
    state, history, _ = play(map_data, SEED)
    owners = {r["owner"] for r in state["board"]["regions"].values()}
    assert len(owners) == 1
    assert len(history) == len(map_data["regions"]) - 1  # no rebellion without fans
    kinds = {e["border"]["kind"] for e in history}
    assert kinds <= {"land", "sea"}


def test_map_stats_matches_the_engine_view_of_the_default_map() -> None:
    map_data = _default_map()
    result = CliRunner().invoke(app, ["map-stats", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    world = engine.compile_world(map_data)
    assert stats["factions"] == len(world["regions"])
    assert stats["borders"] == len(world["borders"])
    assert stats["land"] == sum(1 for b in world["borders"] if b[2] == "land")
    assert stats["sea"] == sum(1 for b in world["borders"] if b[2] == "sea")


def test_demo_command_runs_reveals_exports_and_verifies() -> None:
    _default_map()
    result = CliRunner().invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "champion:" in result.output
    assert "REBELLION" in result.output
    assert "final map matches" in result.output
