"""Before the turn runs: the order in which a side's orders will activate, and why, and
which assault previews earlier activations of the same turn may change.

An adapter over the engine's `World.activation_order` (initiative by Stance — March first,
Entrench last — then lowest creation sequence): it applies the ordered Stances to a copy of
the view and reads the order back. When the engine offers its own explanation of the
activation order, `activation_preview` is the one function to switch over to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.clash.orders import (
    AbandonAction,
    AssaultAction,
    BombardAction,
    MoveAction,
    UnitOrders,
)
from fairfight.clash.world import World, chebyshev

__all__ = ["Activation", "activation_preview", "describe_action"]


@dataclass(frozen=True, slots=True)
class Activation:
    """One of the side's units in activation order, with the reason and what may change."""

    position: int
    unit: str
    name: str
    stance: str
    initiative: int
    seq: int
    actions: tuple[str, ...]
    why: str
    may_change: tuple[str, ...]
    """For an assault or bombardment: the earlier activations that may change its preview."""


def describe_action(action: MoveAction | AssaultAction | BombardAction | AbandonAction) -> str:
    """One short line for an action."""
    if isinstance(action, MoveAction):
        end = action.path[-1]
        return f"move {len(action.path)} step{'s' if len(action.path) != 1 else ''} to " \
               f"({end[0]},{end[1]})"
    if isinstance(action, AbandonAction):
        return f"abandon to ({action.to[0]},{action.to[1]})"
    target = action.target
    return f"{action.do} ({target[0]},{target[1]})"


def _touches(view: World, action: object, target: int) -> bool:
    """Whether an earlier action acts on or next to a target tile."""
    width = view.board.width
    if isinstance(action, (AssaultAction, BombardAction)):
        tile = view.board.index(*action.target)
        return chebyshev(width, tile, target) <= 1
    if isinstance(action, MoveAction):
        return any(chebyshev(width, view.board.index(*p), target) <= 1 for p in action.path)
    if isinstance(action, AbandonAction):
        return chebyshev(width, view.board.index(*action.to), target) <= 1
    return False


def activation_preview(view: World, player: str,
                       orders: dict[str, UnitOrders]) -> list[Activation]:
    """The side's units in the order they will activate under these orders."""
    world = view.copy()
    for uid, unit_orders in orders.items():
        if uid in world.units and unit_orders.stance is not None:
            world.units[uid].stance = unit_orders.stance
    rows: list[Activation] = []
    earlier: list[tuple[str, UnitOrders]] = []
    ordered = world.activation_order()
    for unit in ordered:
        if not world.allied(unit.player, player):
            continue
        unit_orders = orders.get(unit.id, UnitOrders())
        changes: list[str] = []
        for action in unit_orders.actions:
            if not isinstance(action, (AssaultAction, BombardAction)):
                continue
            target = world.board.index(*action.target)
            changes += [f"{world.units[uid].name} acts first" for uid, given in earlier
                        if any(_touches(world, a, target) for a in given.actions)]
            changes += [f"{enemy.name} ({enemy.stance.value}) may act first"
                        for enemy in ordered if not world.allied(enemy.player, player)
                        and enemy.initiative > unit.initiative
                        and chebyshev(world.board.width, enemy.tile, target) <= 1]
        rows.append(Activation(
            position=len(rows) + 1, unit=unit.id, name=unit.name, stance=unit.stance.value,
            initiative=unit.initiative, seq=unit.seq,
            actions=tuple(describe_action(a) for a in unit_orders.actions),
            why=f"{unit.stance.value} (initiative {unit.initiative}), creation sequence "
                f"{unit.seq}",
            may_change=tuple(dict.fromkeys(changes))))
        if unit_orders.actions:
            earlier.append((unit.id, unit_orders))
    return rows
