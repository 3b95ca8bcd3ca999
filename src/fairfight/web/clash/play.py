"""The sandbox's attack panel on the board, and the orders a player gives from it.

`board_panel` plans and evaluates the attack by the engine's `board_attack` (over the
player's knowledge view when fog is on, over the truth when it is off), the path the command
line's `clash attack` takes too. An order is the engine's UnitOrders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StrictBool

from fairfight.clash import tables as t
from fairfight.clash.board_attack import evaluate_plan, plan_attack, plan_bombardment
from fairfight.clash.engagement import ClashPlan
from fairfight.clash.knowledge import knowledge_view
from fairfight.clash.orders import AssaultAction, UnitId, UnitOrders
from fairfight.clash.panel_model import AttackPanel
from fairfight.clash.world import World
from fairfight.core.errors import InputError
from fairfight.core.validation import is_plain_digits
from fairfight.web.clash.service import Game

__all__ = [
    "BoardPanel",
    "Coordinate",
    "OrderRequest",
    "PlannedAttack",
    "board_panel",
    "bombard_panel",
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
    if not (is_plain_digits(left.strip()) and is_plain_digits(right.strip())):
        raise InputError(field, "write the tile as x,y, for example 1,1")
    return int(left), int(right)


def viewed_world(game: Game, fog: bool, world: World | None = None) -> World:
    """What the panel reads: the player's knowledge view under fog (always, when two humans
    play), else a copy of the truth."""
    source = world if world is not None else game.world
    if fog or game.fog_enforced:
        return knowledge_view(source, game.player)
    return source.copy()


def board_panel(game: Game, lead: str, target: tuple[int, int],
                supporters: tuple[str, ...] | None = None, *, fog: bool = True,
                stance: t.Stance | None = None) -> PlannedAttack:
    """The attack panel of `lead` assaulting `target`, as the player would order it."""
    view = viewed_world(game, fog)
    plan = plan_attack(view, game.player, lead, target, supporters, stance=stance)
    return PlannedAttack(view, plan, evaluate_plan(view, plan, fog=fog).panel)


def bombard_panel(game: Game, battery: str, target: tuple[int, int]) -> PlannedAttack:
    """The exact panel of `battery` bombarding `target`, over the player's knowledge view."""
    view = viewed_world(game, True)
    plan = plan_bombardment(view, game.player, battery, target)
    return PlannedAttack(view, plan, evaluate_plan(view, plan).panel)


def order_of(request: OrderRequest) -> UnitOrders:
    """The engine's orders for one unit from an order request."""
    action = AssaultAction(do="assault", target=request.target,
                           supporters=request.supporters, advance=request.advance)
    return UnitOrders(stance=request.stance, actions=[action],
                      reason="ordered from the attack panel")
