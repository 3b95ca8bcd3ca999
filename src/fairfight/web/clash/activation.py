"""Before the turn runs: the side's orders in the order they will activate, and why, and
which assault previews earlier orders of the same turn may change — as the page says it.

Every value comes from the engine (`fairfight.clash.activation.activation_order`, the order
`turn.run_turn` walks, and `assault_risks`); this module only picks the side's units and
writes unit ids as the board's names. The enemy's orders are secret, so only the side's own
orders are known here; the side's units keep their relative order whatever the enemy
orders, because priority never moves another player's places.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fairfight.clash.activation import activation_order, assault_risks
from fairfight.clash.orders import TurnOrders, UnitOrders
from fairfight.clash.world import World

__all__ = ["ActivationRow", "activation_rows"]


@dataclass(frozen=True, slots=True)
class ActivationRow:
    """One of the side's units in activation order, with the reason and what may change."""

    position: int
    """1 for the side's first unit to activate."""
    unit: str
    name: str
    stance: str
    priority: int
    actions: tuple[str, ...]
    why: str
    may_change: tuple[str, ...]
    """For each of its assaults: the earlier orders of the turn that may change its preview."""

    def to_json(self) -> dict[str, Any]:
        """The row as plain JSON (the seat's API)."""
        return {"position": self.position, "unit": self.unit, "name": self.name,
                "stance": self.stance, "priority": self.priority,
                "actions": list(self.actions), "why": self.why,
                "may_change": list(self.may_change)}


def _namer(view: World) -> Any:
    """A function writing every unit id of the view in a text as the unit's name."""
    names = {uid: unit.name for uid, unit in view.units.items() if unit.name != uid}
    if not names:
        return lambda text: text
    pattern = re.compile(r"(?<![\w-])(" + "|".join(
        re.escape(uid) for uid in sorted(names, key=len, reverse=True)) + r")(?![\w-])")
    return lambda text: pattern.sub(lambda found: names[found[1]], text)


def activation_rows(view: World, player: str,
                    orders: dict[str, UnitOrders]) -> list[ActivationRow]:
    """The side's units in the order the Cascade will activate them under these orders."""
    turn_orders = TurnOrders(orders={uid: o for uid, o in orders.items() if uid in view.units})
    named = _namer(view)
    changes: dict[str, list[str]] = {}
    for risk in assault_risks(view, turn_orders):
        changes.setdefault(risk.unit, []).extend(named(c.reason) for c in risk.changes)
    rows: list[ActivationRow] = []
    for place in activation_order(view, turn_orders):
        if not view.allied(place.player, player):
            continue
        rows.append(ActivationRow(
            position=len(rows) + 1, unit=place.unit, name=view.units[place.unit].name,
            stance=place.stance.value, priority=place.priority, actions=place.actions,
            why=named(place.reason),
            may_change=tuple(dict.fromkeys(changes.get(place.unit, ())))))
    return rows
