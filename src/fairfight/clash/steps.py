"""The one rule for a single move step: whether a unit may step from one tile to the next.

The Cascade asks it at each step of a move or an abandon order (`turn`), and the board asks
it when a player draws a path (`paths`), so a path the board accepts is one the Cascade
walks — until something changes at activation [CB-340].
"""

from __future__ import annotations

from fairfight.clash import tables as t
from fairfight.clash.world import Unit, World

__all__ = ["step_problem"]


def step_problem(world: World, unit: Unit, here: int, tile: int, mp_left: int, *,
                 abandoning: bool = False) -> str | None:
    """Why the unit may not step from `here` to `tile` with `mp_left` movement points, or
    None when it may: an entrenched unit moves only by abandoning its works [CB-2020], a step
    costs one movement point, and the tile must be adjacent, passable, free of enemies and
    have room."""
    where = list(world.board.xy(tile))
    if unit.stance is t.Stance.ENTRENCH and not abandoning:
        return "an entrenched unit does not move"
    if mp_left < 1:
        return "no movement point left"
    if tile not in world.board.neighbours[here]:
        return f"{where} is not adjacent"
    if not world.passable(unit.cls, tile):
        return f"{where} is not passable"
    if world.hostile_at(unit.player, tile):
        return f"{where} holds enemy units"
    if not world.room(tile, 1):
        return f"{where} is full"
    return None
