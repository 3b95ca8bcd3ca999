"""Orders as a player writes them on a board: move paths with their cost and the steps where
a reaction is possible, bombardment reach and shots, and abandon tiles.

Everything reads the player's view (a knowledge view under fog), so it tells what can be
known when orders are written; the Cascade still decides at activation [CB-340]. A step's
reaction mark names the visible enemies adjacent to it that could react [CB-1770]: in Hold
or Entrench with an attack, or of a Stance the view has not observed.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.clash import tables as t
from fairfight.clash.steps import step_problem
from fairfight.clash.turn import REACTING_STANCES
from fairfight.clash.world import World, chebyshev

__all__ = [
    "PathStep",
    "abandon_tiles",
    "bombard_targets",
    "move_path",
    "next_steps",
    "possible_reactors",
    "shots_left",
]


@dataclass(frozen=True, slots=True)
class PathStep:
    """One step of a move path: the tile, the movement points spent so far, the enemies
    that could react there, and why the step cannot be taken (None when it can)."""

    tile: int
    cost: int
    reactors: tuple[str, ...]
    problem: str | None


def possible_reactors(view: World, player: str, tile: int) -> tuple[str, ...]:
    """Visible enemy units next to `tile` that could react to a unit entering it."""
    found = []
    for neighbour in view.board.neighbours[tile]:
        for unit in view.units_at(neighbour):
            if view.allied(unit.player, player) or unit.cls.atk == 0 or unit.strength < 1:
                continue
            unseen = "stance" in view.unobserved.get(unit.id, ())
            if unit.stance in REACTING_STANCES or unseen:
                found.append(unit.id)
    return tuple(sorted(found))


def move_path(view: World, unit_id: str, path: list[int]) -> list[PathStep]:
    """Each step of a path from the unit's tile, one movement point a step, judged by the
    Cascade's own step rule (`steps.step_problem`) on the view."""
    unit = view.units[unit_id]
    steps: list[PathStep] = []
    here = unit.tile
    for cost, tile in enumerate(path, start=1):
        problem = step_problem(view, unit, here, tile, unit.cls.movement - cost + 1)
        steps.append(PathStep(tile, cost, possible_reactors(view, unit.player, tile), problem))
        here = tile
    return steps


def next_steps(view: World, unit_id: str, path: list[int]) -> list[int]:
    """Tiles that extend a path by one step the view allows."""
    unit = view.units[unit_id]
    if len(path) >= unit.cls.movement or unit.stance is t.Stance.ENTRENCH:
        return []
    here = path[-1] if path else unit.tile
    return [tile for tile in view.board.neighbours[here]
            if tile != unit.tile and tile not in path and view.passable(unit.cls, tile)
            and not view.hostile_at(unit.player, tile) and view.room(tile, 1)]


def bombard_targets(view: World, unit_id: str) -> list[int]:
    """Enemy tiles the view shows within the unit's bombardment range [CB-1680]."""
    unit = view.units[unit_id]
    reach = unit.cls.bombard_range
    if reach < 1:
        return []
    width = view.board.width
    return sorted(tile for tile, units in view.occupants.items()
                  if units and view.hostile_at(unit.player, tile)
                  and 1 <= chebyshev(width, unit.tile, tile) <= reach)


def shots_left(view: World, unit_id: str) -> int:
    """Shots the unit has left this turn."""
    unit = view.units[unit_id]
    return max(0, unit.cls.bombard_shots - unit.shots)


def abandon_tiles(view: World, unit_id: str) -> list[int]:
    """Where a unit in a city or works may go by an abandon order [CB-2020]."""
    unit = view.units[unit_id]
    if view.works_at(unit.tile) == 0 and unit.tile not in view.city_owner:
        return []
    return [tile for tile in view.board.neighbours[unit.tile]
            if view.passable(unit.cls, tile) and not view.hostile_at(unit.player, tile)
            and view.room(tile, 1)]
