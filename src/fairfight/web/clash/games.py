"""Clash games on the web: the built-in scenarios, uploaded ones, who plays which side, a
played turn as the pages show it, and the reconciliation of a clash event.

Games themselves live in the database (`store`, `service`): this module holds what is the
same for every game, whoever plays it.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from fairfight.clash.generate import generate_scenario
from fairfight.clash.panel_model import Reconciliation
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.setpieces import siege_scenario
from fairfight.clash.world import World, world_from_scenario
from fairfight.core.errors import InputError
from fairfight.core.text import check_yaml_nesting
from fairfight.inputs import load_yaml
from fairfight.web.clash.caps import check_scenario_size

__all__ = [
    "COOKIE",
    "PlayedTurn",
    "SCENARIOS",
    "builtin_scenario",
    "scenario_from_text",
    "sides_of",
    "world_of",
]

COOKIE = "fairfight_clash"
"""The cookie holding the seat token of the browser's game against the AI."""

SCENARIOS: dict[str, str] = {
    "belvoir-wood": "Belvoir Wood — the §23 worked example as a board (3 x 4)",
    "siege": "Siege of Castel — a works-3 city, a gun line and armour (5 x 5)",
    "skirmish": "Skirmish — a generated 12 x 12 board, 8 units a side",
    "field": "Open field — a generated 24 x 24 board, 30 units a side",
}


@cache
def _belvoir_text() -> str:
    return (files("fairfight.web.clash") / "scenarios" / "belvoir-wood.yaml").read_text(
        encoding="utf-8")


def builtin_scenario(name: str) -> dict[str, Any]:
    """A built-in scenario as plain data (copies, since callers may change them)."""
    if name == "belvoir-wood":
        data: dict[str, Any] = yaml.safe_load(_belvoir_text())
        return data
    if name == "siege":
        return siege_scenario("siege")
    if name == "skirmish":
        return generate_scenario("skirmish", width=12, height=12, per_side=8)
    if name == "field":
        return generate_scenario("field", width=24, height=24, per_side=30)
    raise InputError("scenario", f"unknown scenario {name!r}; use {', '.join(SCENARIOS)}")


def scenario_from_text(text: str) -> dict[str, Any]:
    """An uploaded scenario (YAML or JSON) as plain scenario data, read by the command line's
    bounded reader (nesting, aliases and integers checked as it parses, so 10,000 levels are
    refused, not a RecursionError), its size checked against the caps before the rules."""
    check_yaml_nesting(text, "file")
    with tempfile.TemporaryDirectory(prefix="fairfight-scenario-") as folder:
        path = Path(folder) / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            data = load_yaml(path)
            check_scenario_size(data)
            return world_from_scenario(parse_scenario(data)).to_scenario()
        except InputError as error:
            if error.field == str(path):
                raise InputError("file", error.rule) from None
            raise


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """One turn as a page shows it: the worlds before and after, the orders, the events
    (as the viewer saw them under fog), and each clash event's reconciliation line."""

    number: int
    before: World
    after: World
    orders: dict[str, Any]
    events: list[dict[str, Any]]
    reconciliations: dict[int, Reconciliation]


def sides_of(world: World, player: str, ai: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(human sides, AI sides) of a game: `player` alone with the AI on every side hostile
    to it, or every side human."""
    if player not in world.sides:
        raise InputError("side", f"unknown player {player!r}; players: "
                         + ", ".join(world.sides))
    if not ai:
        return tuple(world.sides), ()
    return (player,), tuple(p for p in world.sides if not world.allied(p, player))


def world_of(name: str) -> World:
    """A built-in scenario's world."""
    return world_from_scenario(parse_scenario(builtin_scenario(name)))
