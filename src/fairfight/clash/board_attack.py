"""An assault on the board as a player would order it: checked, planned, evaluated.

The command line's `clash attack` and the web sandbox's panel both come here, so the board's
names reach the panel's one consequence wording (`panel.consequence_lines`), and the checks
a player's order passes are the same in both.
"""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.aftermath import disengage
from fairfight.clash.engagement import (
    AttackOrder,
    ClashPlan,
    plan_clash,
    reflex_disengages,
    retreat_destination,
)
from fairfight.clash.evaluation import Evaluated, evaluate
from fairfight.clash.fog import FogField, FogRequest
from fairfight.clash.knowledge import check_player, fog_preview, knowledge_view
from fairfight.clash.panel import BoardContext
from fairfight.clash.readout import format_panel
from fairfight.clash.spec import stance_may_initiate
from fairfight.clash.world import Unit, World, chebyshev
from fairfight.core.errors import InputError

__all__ = [
    "attack_preview",
    "board_context",
    "evaluate_plan",
    "lead_may_take_the_tile",
    "plan_attack",
    "plan_bombardment",
]


def plan_attack(view: World, player: str, lead: str, target: tuple[int, int],
                supporters: tuple[str, ...] | None = None, *,
                stance: t.Stance | None = None) -> ClashPlan:
    """The assault of `lead` on the adjacent `target` over `view` (what `player` knows, or the
    truth), in `stance` if given; a refusal names the field."""
    unit = view.units.get(lead)
    if unit is None or not view.allied(unit.player, player):
        raise InputError("lead", f"{lead!r} is not one of {player}'s units")
    board = view.board
    if not (0 <= target[0] < board.width and 0 <= target[1] < board.height):
        raise InputError("target", f"{list(target)} is off the {board.width}x{board.height} map")
    tile = board.index(*target)
    if tile not in board.neighbours[unit.tile]:
        raise InputError("target", f"{list(target)} is not next to {unit.name}")
    if stance is not None:
        unit.stance = stance
    if not stance_may_initiate(unit.stance):
        raise InputError("stance", "a unit in march may not initiate (CB-1530); order it "
                         "to advance or hold")
    if unit.cls.atk == 0:
        raise InputError("lead", f"a {unit.cls.name} cannot assault (CB-230)")
    plan = plan_clash(view, AttackOrder(t.Kind.ASSAULT, lead, tile, supporters))
    if plan is None:
        raise InputError("target", f"no enemy {player} can see on {list(target)}")
    return plan


def plan_bombardment(view: World, player: str, battery: str,
                     target: tuple[int, int]) -> ClashPlan:
    """The bombardment by `battery` of `target` over `view`, as the Cascade would plan it
    [CB-1700, CB-1750]; a refusal names the field. Its panel is the same `evaluate` as an
    assault's: the exact distribution of the losses over the 1000 draws."""
    unit = view.units.get(battery)
    if unit is None or not view.allied(unit.player, player):
        raise InputError("lead", f"{battery!r} is not one of {player}'s units")
    board = view.board
    if not (0 <= target[0] < board.width and 0 <= target[1] < board.height):
        raise InputError("target", f"{list(target)} is off the {board.width}x{board.height} map")
    if unit.cls.bombard_shots == 0:
        raise InputError("lead", f"a {unit.cls.name} cannot bombard (CB-1700)")
    tile = board.index(*target)
    if not 1 <= chebyshev(board.width, unit.tile, tile) <= unit.cls.bombard_range:
        raise InputError("target", f"{list(target)} is beyond the range "
                         f"{unit.cls.bombard_range} of {unit.name}")
    if not stance_may_initiate(unit.stance):
        raise InputError("stance", "a unit in march may not initiate (CB-1530); order it "
                         "to hold first")
    plan = plan_clash(view, AttackOrder(t.Kind.BOMBARDMENT, battery, tile))
    if plan is None:
        raise InputError("target", f"no enemy {player} can see on {list(target)}")
    return plan


def lead_may_take_the_tile(unit: Unit) -> bool:
    """Whether the lead keeps a movement point to advance after the assault [CB-1060]."""
    return unit.mp >= 2 or unit.cls.movement >= 2


def board_context(view: World, plan: ClashPlan) -> BoardContext:
    """The board's names for a plan's panel: units, the target, the retreat tile (none, and
    no candidates, for a defender that may not retreat: CB-1340, CB-2420)."""
    board, destination = view.board, plan.destination
    return BoardContext(
        lead=view.units[plan.order.lead].name,
        supporters=tuple(view.units[i].name for i in plan.supporters),
        supporter_ids=plan.supporters, defender=view.units[plan.defender].name,
        target=board.label(plan.order.target),
        retreat_to=board.xy(destination) if destination is not None else None,
        retreat_label=board.label(destination) if destination is not None else None,
        candidates=tuple(board.xy(c) for c in plan.retreat_tiles), on_board=True)


def evaluate_plan(view: World, plan: ClashPlan, *, fog: bool = True) -> Evaluated:
    """A plan's panel over `view`: under fog, ranged over the defender's unobserved fields."""
    unknown = view.unobserved.get(plan.defender, ()) if fog else ()
    return evaluate(plan.spec, FogRequest(tuple(FogField(name) for name in unknown)),
                    capture_possible=lead_may_take_the_tile(view.units[plan.order.lead]),
                    defender_in_city=plan.defender_in_city, where=board_context(view, plan))


def attack_preview(world: World, player: str, lead: str, target: tuple[int, int],
                   supporters: tuple[str, ...] | None = None) -> dict[str, Any]:
    """One attack as `player` sees it, as plain data: the plan, the fog preview and the
    text panel (or the withdrawal a defender's reflex makes of it, CB-1860)."""
    check_player(world, player)
    view = knowledge_view(world, player)
    plan = plan_attack(view, player, lead, target, supporters)
    result = {"plan": plan.to_json(view), "preview": fog_preview(view, plan).to_json()}
    defender = view.units[plan.defender]
    if reflex_disengages(view, defender):
        _, away = retreat_destination(view, [defender], plan.order.target,
                                      view.units[lead].tile)
        if away is not None:
            loss = disengage(plan.spec.defender, destination_exists=True).loss
            panel = (f"  They will withdraw to {view.board.label(away)} without an exchange, "
                     f"losing {loss} strength; the tile is yours to take.\n")
            return {**result, "panel": panel, "withdraws": True}
    return {**result, "panel": format_panel(evaluate_plan(view, plan).panel),
            "withdraws": False}
