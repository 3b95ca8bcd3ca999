"""Shared builders for the world tests: scenarios from dicts, orders, runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairfight.clash.orders import parse_orders
from fairfight.clash.scenario import load_scenario, parse_scenario
from fairfight.clash.turn import TurnResult, run_turn
from fairfight.clash.world import World, world_from_scenario

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "clash" / "scenarios"


def example_world(name: str) -> World:
    """The true world of one of the example scenarios."""
    return world_from_scenario(load_scenario(EXAMPLES / name))


def world_of(data: dict[str, Any]) -> World:
    """A world from scenario data."""
    return world_from_scenario(parse_scenario(data))


def play(world: World, orders: dict[str, Any]) -> TurnResult:
    """One turn of the given orders (unit id -> unit orders)."""
    return run_turn(world, parse_orders(world, orders))


def events_of(result: TurnResult, kind: str) -> list[dict[str, Any]]:
    """The events of one kind, in order."""
    return [event for event in result.events if event["event"] == kind]


def base_scenario(rows: list[str], units: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A two-player scenario on the given rows."""
    data: dict[str, Any] = {
        "seed_key": "test", "board": {"rows": rows, "tiles": extra.pop("tiles", [])},
        "players": [{"id": "blue"}, {"id": "red"}], "units": units,
    }
    data.update(extra)
    return data
