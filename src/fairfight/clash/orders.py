"""Orders for one turn: per unit, a Stance, a withdraw reflex and a list of actions.

Orders are given blind, before the Cascade; they are checked here only for what can be
known when they are written (the unit exists and is the player's, the tiles are on the map,
the action suits the class). Whether an action is still achievable is decided at the unit's
activation; an order gone stale is skipped with its reason in the events [CB-340].
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from fairfight.clash import tables as t
from fairfight.clash.scenario import MAX_SCENARIO_UNITS, NAME_PATTERN
from fairfight.clash.world import World, chebyshev
from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model

__all__ = [
    "AbandonAction",
    "Action",
    "AssaultAction",
    "BombardAction",
    "MAX_PRIORITY",
    "MoveAction",
    "Point",
    "TurnOrders",
    "UnitId",
    "UnitOrders",
    "check_orders",
    "parse_orders",
]

MAX_PRIORITY = 9
"""Highest activation priority a unit's orders may carry."""

Point = tuple[Annotated[StrictInt, Field(ge=0)], Annotated[StrictInt, Field(ge=0)]]
UnitId = Annotated[str, Field(pattern=NAME_PATTERN)]


class MoveAction(BaseModel):
    """Step along a path of adjacent tiles, one movement point a step."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    do: Literal["move"]
    """The kind of action."""
    path: Annotated[list[Point], Field(min_length=1, max_length=12)]
    """The tiles stepped onto, each adjacent to the one before, as [x, y]."""


class AssaultAction(BaseModel):
    """Assault an adjacent tile [CB-240]; support automatic or by ids [CB-380]."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    do: Literal["assault"]
    """The kind of action."""
    target: Point
    """The adjacent enemy tile, as [x, y]."""
    supporters: Literal["auto"] | Annotated[list[UnitId], Field(max_length=2)] = "auto"
    """"auto" (the rules choose up to two), or the ids of up to two supporters."""
    advance: StrictBool = True
    """Move into the tile when it is cleared and the rules allow it [CB-1060]."""


class BombardAction(BaseModel):
    """Fire on a tile within range [CB-1680]."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    do: Literal["bombard"]
    """The kind of action."""
    target: Point
    """The tile fired on, within the class's bombard range, as [x, y]."""


class AbandonAction(BaseModel):
    """Leave a city or works for an adjacent tile, by explicit order only [CB-2020]."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    do: Literal["abandon"]
    """The kind of action."""
    to: Point
    """The adjacent tile the garrison moves out to, as [x, y]."""


Action = Annotated[MoveAction | AssaultAction | BombardAction | AbandonAction,
                   Field(discriminator="do")]


class UnitOrders(BaseModel):
    """One unit's orders for the turn."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    stance: t.Stance | None = None
    """The Stance for this turn and after (absent: the unit keeps its own)."""
    withdraw_reflex: StrictBool | None = None
    """Set or clear the standing withdraw reflex (absent: unchanged)."""
    actions: Annotated[list[Action], Field(max_length=8)] = []
    """Carried out in order at the unit's activation; one no longer possible is skipped."""
    priority: Annotated[StrictInt, Field(ge=0, le=MAX_PRIORITY)] | None = None
    """Reorders the player's own activations: the player's units take the places their
    Stances give the player in the Cascade, higher priority first (none given counts as 0
    and keeps the Stance order), so guns can fire before the assault they prepare."""
    reason: Annotated[str, Field(max_length=200)] | None = None
    """Why the order was given (the AI explains itself here); not read by the rules."""


class TurnOrders(BaseModel):
    """Orders for a turn, by unit id (units without orders keep their Stance and act not)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    player: UnitId | None = None
    """When given, only this player's units may be named."""
    orders: Annotated[dict[UnitId, UnitOrders], Field(max_length=MAX_SCENARIO_UNITS)] = {}
    """Each ordered unit's orders, by unit id (at most one entry per unit a scenario holds)."""


def _on_board(world: World, point: tuple[int, int], where: str) -> int:
    board = world.board
    if not (point[0] < board.width and point[1] < board.height):
        raise InputError(where, f"{list(point)} is off the {board.width}x{board.height} map")
    return board.index(*point)


def check_orders(world: World, orders: TurnOrders) -> None:
    """What can be checked when orders are written; each refusal names the field."""
    for unit_id, unit_orders in orders.orders.items():
        where = f"orders.{unit_id}"
        unit = world.units.get(unit_id)
        if unit is None:
            raise InputError(where, f"no unit {unit_id!r} on the board")
        if orders.player is not None and unit.player != orders.player:
            raise InputError(where, f"unit {unit_id!r} belongs to {unit.player}, "
                             f"not {orders.player}")
        for i, action in enumerate(unit_orders.actions):
            here = f"{where}.actions[{i}]"
            if isinstance(action, MoveAction):
                for j, point in enumerate(action.path):
                    _on_board(world, point, f"{here}.path[{j}]")
            elif isinstance(action, AbandonAction):
                _on_board(world, action.to, f"{here}.to")
            else:
                _on_board(world, action.target, f"{here}.target")
            if isinstance(action, BombardAction) and unit.cls.bombard_range < 1:
                raise InputError(f"{here}.do", f"class {unit.cls.name} cannot bombard")
            if isinstance(action, AssaultAction) and unit.cls.atk == 0:
                raise InputError(f"{here}.do", "a class with atk 0 cannot assault")
            if isinstance(action, BombardAction):
                target = world.board.index(*action.target)
                if chebyshev(world.board.width, unit.tile, target) > unit.cls.bombard_range \
                        and not any(isinstance(a, MoveAction) for a in unit_orders.actions):
                    raise InputError(f"{here}.target", "out of bombard range "
                                     f"{unit.cls.bombard_range}")
            if isinstance(action, AssaultAction) and action.supporters != "auto":
                for j, supporter in enumerate(action.supporters):
                    other = world.units.get(supporter)
                    if other is None or not world.allied(other.player, unit.player):
                        raise InputError(f"{here}.supporters[{j}]",
                                         "is not a unit of this side")


def parse_orders(world: World, data: Any) -> TurnOrders:
    """Validate plain data into orders for this world."""
    if isinstance(data, dict) and "orders" not in data and "player" not in data:
        data = {"orders": data}
    orders = parse_model(TurnOrders, data)
    check_orders(world, orders)
    return orders
