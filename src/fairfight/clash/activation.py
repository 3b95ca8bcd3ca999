"""The order in which committed orders activate, and why, known before the turn runs.

Units activate by initiative (March 3, Advance 2, Hold 1, Entrench 0: the Stance ordered for
the turn, else the one the unit has), then by lowest creation sequence [clash.md]. A player
may reorder its own units with `UnitOrders.priority`: the player's units keep the places the
initiative order gives the player, and fill them highest priority first (ties in initiative
order). Other players' places never move, so priority cannot buy initiative against the
enemy. This is how the siege of the source is ordered as written, the guns first and then the
assault they prepare (CB-270, CB-2040, CB-2050): the batteries in Hold take priority 1 and so
the places the armour in Advance would have had.

`activation_order` is what `turn.run_turn` follows; `assault_risks` tells, for each ordered
assault, which earlier orders of the same turn may change the board it will be planned on
(CB-270, CB-460: every clash is built at its activation), so a preview made before the turn
can be marked as provisional on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.orders import (
    AbandonAction,
    Action,
    AssaultAction,
    BombardAction,
    MoveAction,
    TurnOrders,
    UnitOrders,
)
from fairfight.clash.world import INITIATIVE, Unit, World, chebyshev

__all__ = [
    "Activation",
    "AssaultRisk",
    "Change",
    "activation_order",
    "assault_risks",
    "describe_action",
]


@dataclass(frozen=True, slots=True)
class Activation:
    """One unit's place in the Cascade and the reason for it."""

    position: int
    """1 for the first unit to activate."""
    unit: str
    player: str
    stance: t.Stance
    initiative: int
    creation_sequence: int
    priority: int
    took_place_of: str | None
    """The unit whose initiative place this one took because of priority, if any."""
    actions: tuple[str, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The place as plain JSON."""
        return {"position": self.position, "unit": self.unit, "player": self.player,
                "stance": self.stance.value, "initiative": self.initiative,
                "creation_sequence": self.creation_sequence, "priority": self.priority,
                "took_place_of": self.took_place_of, "actions": list(self.actions),
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Change:
    """An earlier order that may change an assault: who, which action, and how."""

    unit: str
    action: int
    reason: str


@dataclass(frozen=True, slots=True)
class AssaultRisk:
    """An ordered assault and the earlier orders of the turn that may change it."""

    unit: str
    action: int
    target: tuple[int, int]
    changes: tuple[Change, ...]

    @property
    def may_change(self) -> bool:
        """Whether the preview made now may differ from the clash at activation."""
        return bool(self.changes)

    def to_json(self) -> dict[str, Any]:
        """The assault and its changes as plain JSON."""
        return {"unit": self.unit, "action": self.action, "target": list(self.target),
                "may_change": self.may_change,
                "changes": [{"unit": c.unit, "action": c.action, "reason": c.reason}
                            for c in self.changes]}


def describe_action(action: Action) -> str:
    """One action in a few words, with its tiles as (x,y)."""
    if isinstance(action, MoveAction):
        return "move " + " ".join(f"({x},{y})" for x, y in action.path)
    if isinstance(action, AbandonAction):
        return f"abandon to ({action.to[0]},{action.to[1]})"
    return f"{action.do} ({action.target[0]},{action.target[1]})"


def _stance(unit: Unit, orders: UnitOrders | None) -> t.Stance:
    return orders.stance if orders is not None and orders.stance is not None else unit.stance


def _priority(orders: UnitOrders | None) -> int:
    return (orders.priority or 0) if orders is not None else 0


def activation_order(world: World, orders: TurnOrders) -> list[Activation]:
    """Every unit of the world in the order the Cascade will activate it, with why."""
    given = orders.orders
    stances = {uid: _stance(unit, given.get(uid)) for uid, unit in world.units.items()}
    by_initiative = sorted(world.units.values(),
                           key=lambda u: (-INITIATIVE[stances[u.id]], u.seq))
    places: dict[str, list[int]] = {}
    for place, unit in enumerate(by_initiative):
        places.setdefault(unit.player, []).append(place)
    filled: list[tuple[Unit, Unit]] = [(u, u) for u in by_initiative]   # (unit, place owner)
    for player_places in places.values():
        ranked = sorted(player_places,
                        key=lambda place: (-_priority(given.get(by_initiative[place].id)),
                                           place))
        for place, chosen in zip(player_places, ranked, strict=True):
            filled[place] = (by_initiative[chosen], by_initiative[place])
    result = []
    for position, (unit, owner) in enumerate(filled, start=1):
        stance, priority = stances[unit.id], _priority(given.get(unit.id))
        reason = (f"{stance.value}: initiative {INITIATIVE[stance]}, "
                  f"creation sequence {unit.seq}")
        if owner is not unit:
            reason += f"; priority {priority} puts it in the place of {owner.id}"
        unit_orders = given.get(unit.id)
        result.append(Activation(
            position=position, unit=unit.id, player=unit.player, stance=stance,
            initiative=INITIATIVE[stance], creation_sequence=unit.seq, priority=priority,
            took_place_of=owner.id if owner is not unit else None,
            actions=tuple(describe_action(a) for a in unit_orders.actions)
            if unit_orders is not None else (), reason=reason))
    return result


def _touched(world: World, unit: Unit, action: Action) -> tuple[set[int], set[int]]:
    """The tiles an action fires on or assaults, and the tiles a unit leaves or enters."""
    board = world.board
    if isinstance(action, MoveAction):
        return set(), {unit.tile, *(board.index(*p) for p in action.path)}
    if isinstance(action, AbandonAction):
        return set(), {unit.tile, board.index(*action.to)}
    return {board.index(*action.target)}, set()


def _change(world: World, earlier: Unit, action: Action, lead: Unit, target: int,
            same_unit: bool) -> str | None:
    width = world.board.width
    fired, moved = _touched(world, earlier, action)
    if same_unit:
        return f"its own earlier order ({describe_action(action)}) comes first"
    if target in fired:
        return f"{earlier.id} attacks the same tile first ({describe_action(action)})"
    if lead.tile in fired:
        return f"{earlier.id} attacks the lead's tile first ({describe_action(action)})"
    if any(chebyshev(width, tile, target) <= 1 for tile in moved):
        return (f"{earlier.id} moves next to or out of the target's neighbourhood first "
                f"({describe_action(action)}): flankers, supporters or retreat room change")
    if fired and isinstance(action, AssaultAction) and \
            chebyshev(width, earlier.tile, target) <= 1:
        return (f"{earlier.id} assaults from next to the target first: units that support "
                "it cannot support again")
    if fired and isinstance(action, AssaultAction | BombardAction) and any(
            chebyshev(width, tile, target) <= 1 for tile in fired):
        return (f"{earlier.id} attacks a neighbouring tile first "
                f"({describe_action(action)}): a retreat may change the target's "
                "neighbourhood")
    return None


def assault_risks(world: World, orders: TurnOrders) -> list[AssaultRisk]:
    """Each ordered assault, in activation order, with the earlier orders of the same turn
    that may change it. Only the orders given are known: an enemy's reaction or its own
    orders, when not given, are not foreseen."""
    given = orders.orders
    earlier: list[tuple[Unit, int, Action]] = []
    risks = []
    for activation in activation_order(world, orders):
        unit = world.units[activation.unit]
        unit_orders = given.get(unit.id)
        if unit_orders is None:
            continue
        for index, action in enumerate(unit_orders.actions):
            if isinstance(action, AssaultAction):
                target = world.board.index(*action.target)
                changes = []
                for other, other_index, other_action in earlier:
                    reason = _change(world, other, other_action, unit, target,
                                     other is unit)
                    if reason is not None:
                        changes.append(Change(other.id, other_index, reason))
                risks.append(AssaultRisk(unit.id, index, action.target, tuple(changes)))
            earlier.append((unit, index, action))
    return risks
