"""The end of a turn: dig-in, then recovery of strength, disorder and shaken [CB-2070].

Recovery is taken from the base row of the unit's situation (a city of its own side, a
depot of its own side, both, or the field), then modified in CB-2080 order by supply and by
whether it fought. A city gives city recovery only to a unit of the side that holds it: an
unowned city, or the enemy's, is the field to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.aftermath import recover
from fairfight.clash.world import Unit, World

__all__ = ["end_of_turn", "recovery_situation"]


def recovery_situation(world: World, unit: Unit) -> t.RecoverySituation:
    """The base row of CB-2070 for a unit where it stands: only a city or depot of its own
    side counts [CB-2070]."""
    owner = world.city_owner.get(unit.tile)
    city = owner is not None and world.allied(owner, unit.player)
    depot = world.board.depots.get(unit.tile)
    on_depot = depot is not None and world.allied(depot, unit.player)
    if city:
        return t.RecoverySituation.CITY_DEPOT if on_depot else t.RecoverySituation.CITY
    return t.RecoverySituation.FIELD_DEPOT if on_depot else t.RecoverySituation.FIELD


def end_of_turn(world: World, emit: Callable[..., Any]) -> None:
    """Dig-in, then recovery in CB-2080 order with shaken decay [CB-1250, CB-2080]; each
    change is emitted as a `recovery` event."""
    for unit in list(world.units.values()):
        if (unit.stance is t.Stance.ENTRENCH and unit.tile == unit.start_tile
                and not unit.initiated):
            unit.dig_in = min(t.MAX_POSITION, unit.dig_in + 1)
        situation = recovery_situation(world, unit)
        before = (unit.strength, unit.disorder, unit.shaken)
        result = recover(unit.strength, unit.disorder, situation=situation,
                         supply_tier=world.supply_tier(unit), fought=unit.fought,
                         shaken=unit.shaken)
        unit.strength, unit.disorder, unit.shaken = (result.strength, result.disorder,
                                                     result.shaken)
        if before != (unit.strength, unit.disorder, unit.shaken):
            emit("recovery", unit=unit.id, situation=situation.value,
                 strength=unit.strength, disorder=unit.disorder, shaken=unit.shaken)
