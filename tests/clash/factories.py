"""Small builders for specifications in tests."""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.spec import ClashSpec, Combatant

RIFLES, ARMOUR, BATTERY, SCOUTS = t.CALIBRATION_CAST


def unit(cls: t.UnitClass, **fields: Any) -> Combatant:
    """A combatant of a calibration class; fields override the defaults."""
    values: dict[str, Any] = {
        "atk": cls.atk, "defence": cls.defence, "tough": cls.tough, "role": cls.role,
        "strength": 100, "grade": t.Grade.TRAINED, "supply_tier": t.SupplyTier.ADEQUATE,
        "stance": t.Stance.HOLD,
    }
    values.update(fields)
    return Combatant(**values)


def spec(lead: Combatant, defender: Combatant, **fields: Any) -> ClashSpec:
    """A clash specification; an assault in the open unless fields say otherwise."""
    values: dict[str, Any] = {"kind": t.Kind.ASSAULT, "terrain": t.Terrain.OPEN,
                              "lead": lead, "defender": defender}
    values.update(fields)
    return ClashSpec(**values)
