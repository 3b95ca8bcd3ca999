"""The sandbox's attack panel on the board, and the orders a player gives from it.

`board_panel` builds the clash from the board by the engine's own `plan_clash` (over the
player's knowledge view when fog is on, over the truth when it is off), previews it, and
names the retreat tile, the candidates and the units. An order is the engine's UnitOrders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StrictBool

from fairfight.clash import tables as t
from fairfight.clash.engagement import ClashPlan, plan_clash
from fairfight.clash.knowledge import fog_preview, knowledge_view
from fairfight.clash.orders import AssaultAction, UnitId, UnitOrders
from fairfight.clash.preview import preview
from fairfight.clash.world import World
from fairfight.core.errors import InputError
from fairfight.web.clash.games import Game, attack_order
from fairfight.web.clash.panel import AttackPanel, BoardContext, attack_panel

__all__ = [
    "BoardPanel",
    "OrderRequest",
    "PlannedAttack",
    "board_panel",
    "order_of",
    "parse_point",
    "viewed_world",
]

Coordinate = Annotated[int, Field(ge=0, le=63)]


class OrderRequest(BaseModel):
    """An assault order from the panel: who, where, with whom, in which Stance."""

    lead: UnitId
    target: tuple[Coordinate, Coordinate]
    supporters: Literal["auto"] | Annotated[list[UnitId], Field(max_length=2)] = "auto"
    stance: t.Stance | None = None
    advance: StrictBool = True


class BoardPanel(BaseModel):
    """The attack panel of a board attack and the plan it was built from."""

    panel: AttackPanel
    plan: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlannedAttack:
    """A previewed board attack: the view it was built on, its plan and its panel."""

    view: World
    plan: ClashPlan
    panel: AttackPanel


def parse_point(text: str, field: str = "target") -> tuple[int, int]:
    """`x,y` as two integers."""
    left, _, right = text.partition(",")
    if not (left.strip().isdigit() and right.strip().isdigit()):
        raise InputError(field, "write the tile as x,y, for example 1,1")
    return int(left), int(right)


def viewed_world(game: Game, fog: bool, world: World | None = None) -> World:
    """What the panel reads: the player's knowledge view under fog, else a copy of the truth."""
    source = world if world is not None else game.world
    return knowledge_view(source, game.player) if fog else source.copy()


def board_panel(game: Game, lead: str, target: tuple[int, int],
                supporters: tuple[str, ...] | None = None, *, fog: bool = True,
                stance: t.Stance | None = None) -> PlannedAttack:
    """The attack panel of `lead` assaulting `target`, as the player would order it."""
    view = viewed_world(game, fog)
    unit = view.units.get(lead)
    if unit is None or not view.allied(unit.player, game.player):
        raise InputError("lead", f"{lead!r} is not one of your units")
    board = view.board
    if not (0 <= target[0] < board.width and 0 <= target[1] < board.height):
        raise InputError("target", f"{list(target)} is off the {board.width}x{board.height} map")
    tile = board.index(*target)
    if tile not in board.neighbours[unit.tile]:
        raise InputError("target", f"{list(target)} is not next to {unit.name}")
    if stance is not None:
        unit.stance = stance
    if unit.stance is t.Stance.MARCH:
        raise InputError("stance", "a unit in march may not initiate (CB-1530); order it "
                         "to advance or hold")
    if unit.cls.atk == 0:
        raise InputError("lead", f"a {unit.cls.name} cannot assault (CB-230)")
    plan = plan_clash(view, attack_order(lead, tile, supporters))
    if plan is None:
        raise InputError("target", f"no enemy you can see on {list(target)}")
    fog_view = fog_preview(view, plan) if fog else None
    capture = unit.mp >= 2 or unit.cls.movement >= 2
    nominal = preview(plan.spec, capture_possible=capture,
                      defender_in_city=plan.defender_in_city)
    names = [view.units[i].name for i in plan.supporters]
    destination = plan.destination
    where = BoardContext(
        lead=unit.name, supporters=tuple(names), supporter_ids=plan.supporters,
        defender=view.units[plan.defender].name, target=board.label(tile),
        retreat_to=board.xy(destination) if destination is not None else None,
        retreat_label=board.label(destination) if destination is not None else None,
        candidates=tuple(board.xy(c) for c in plan.candidates), on_board=True)
    panel = attack_panel(nominal, fog_view if fog_view and fog_view.unobserved else None,
                         where)
    return PlannedAttack(view, plan, panel)


def order_of(request: OrderRequest) -> UnitOrders:
    """The engine's orders for one unit from an order request."""
    action = AssaultAction(do="assault", target=request.target,
                           supporters=request.supporters, advance=request.advance)
    return UnitOrders(stance=request.stance, actions=[action],
                      reason="ordered from the attack panel")
