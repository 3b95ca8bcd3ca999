"""The threat view: what the enemy can do to each of the side's units next turn.

For every unit of the side, the worst assault among the visible enemy units that can reach
it next turn: an enemy walks by the Cascade's own step rule (`steps.step_problem`: no enemy
tile, no full tile, land stays on land) to a tile next to the unit with a movement point
left for the assault [CB-240], and attacks from there with automatic support. Each such
assault is previewed by the one exact preview (the batch kernel) and the one with the
highest break chance is the threat. Everything is built from the side's knowledge view:
unseen enemies are absent, unobserved figures are the view's estimates and marked
provisional, so the view never tells the side more than it knows [CB-2310].
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.engagement import AttackOrder, ClashPlan, plan_clash
from fairfight.clash.knowledge import check_player, knowledge_view
from fairfight.clash.steps import step_problem
from fairfight.clash.verdict import verdict_text
from fairfight.clash.world import Unit, World

__all__ = ["ATTACK_STANCE", "HEAT_BANDS", "Threat", "heat_band", "reachable_tiles", "threat_data",
           "threats", "threats_in_view"]

HEAT_BANDS = ((0, "none"), (99, "low"), (499, "medium"), (t.DRAWS, "high"))
"""Heat of a threat by its break chance (the first band whose bound is not below it); the
board draws each band with its own pattern and label, never by colour alone."""

ATTACK_STANCE = t.Stance.ADVANCE
"""The Stance an enemy is assumed to attack in: its orders for next turn are unknown, and
Advance is the Stance of an assault that moves first."""


def heat_band(break_permille: int) -> str:
    """The heat band of a break chance."""
    return next(name for bound, name in HEAT_BANDS if break_permille <= bound)


@dataclass(frozen=True, slots=True)
class Threat:
    """The worst assault a visible enemy can make on one of the side's units next turn."""

    unit: str
    tile: tuple[int, int]
    enemy: str | None
    """The enemy lead; None when no visible enemy can reach the unit."""
    approach: tuple[int, int] | None
    """The tile the enemy attacks from."""
    defender: str | None
    """The unit of the stack that would defend (the stack's top defender) [CB-2520]."""
    supporters: tuple[str, ...]
    break_permille: int
    falter_permille: int
    verdict: str
    provisional: bool
    """An unobserved figure of the enemy (an estimate of the view) went into it [CB-2330]."""

    @property
    def heat(self) -> str:
        """The heat band of the break chance."""
        return heat_band(self.break_permille) if self.enemy else "none"

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"unit": self.unit, "tile": list(self.tile), "enemy": self.enemy,
                "approach": list(self.approach) if self.approach else None,
                "defender": self.defender, "supporters": list(self.supporters),
                "break_permille": self.break_permille,
                "falter_permille": self.falter_permille, "verdict": self.verdict,
                "heat": self.heat, "provisional": self.provisional}


def reachable_tiles(view: World, enemy: Unit) -> dict[int, int]:
    """Every tile the enemy can stand on next turn with a movement point left to assault,
    with the steps it took (its own tile at 0), by the Cascade's step rule."""
    budget = enemy.cls.movement - 1
    steps = {enemy.tile: 0}
    queue = deque([enemy.tile])
    while queue:
        here = queue.popleft()
        if steps[here] >= budget:
            continue
        for tile in view.board.neighbours[here]:
            if tile in steps or step_problem(view, enemy, here, tile,
                                             budget - steps[here]):
                continue
            steps[tile] = steps[here] + 1
            queue.append(tile)
    return steps


def _enemy_plans(view: World, enemy: Unit, targets: set[int]) -> list[tuple[ClashPlan, int]]:
    """Every assault the enemy could make on one of `targets` from a tile it can reach,
    with that tile, planned on a copy of the view with the enemy standing there, in
    Advance."""
    reach = reachable_tiles(view, enemy)
    world = view.copy()
    mover = world.units[enemy.id]
    mover.stance = ATTACK_STANCE
    mover.mp = mover.cls.movement
    plans: list[tuple[ClashPlan, int]] = []
    for tile in sorted(reach):
        aims = [target for target in view.board.neighbours[tile] if target in targets]
        if not aims:
            continue
        if mover.tile != tile:
            world.move(mover, tile)
        for target in aims:
            plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, enemy.id, target, None))
            if plan is not None:
                plans.append((plan, tile))
    return plans


def threats_in_view(view: World, player: str) -> list[Threat]:
    """The threat to each of the player's units, over a view the caller already built."""
    own = [u for u in view.units.values() if view.allied(u.player, player)]
    targets = {u.tile for u in own}
    plans: list[tuple[ClashPlan, int]] = []
    for enemy in view.units.values():
        if view.allied(enemy.player, player) or enemy.cls.atk == 0 or enemy.strength < 1:
            continue
        plans += _enemy_plans(view, enemy, targets)
    worst: dict[int, tuple[tuple[int, int, int], int]] = {}
    if plans:
        batch = preview_batch(columns_from_specs([plan.spec for plan, _ in plans]))
        for index, (plan, _) in enumerate(plans):
            key = (int(batch.break_permille[index]), int(batch.win_permille[index]),
                   -view.units[plan.order.lead].seq)
            current = worst.get(plan.order.target)
            if current is None or key > current[0]:
                worst[plan.order.target] = (key, index)
        falters = [int(f) for f in batch.falter_permille]
    result = []
    for unit in own:
        found = worst.get(unit.tile)
        if found is None:
            result.append(Threat(unit.id, view.board.xy(unit.tile), None, None, None, (),
                                 0, 0, "No visible enemy can reach it", False))
            continue
        (chance, _, _), index = found
        plan, approach = plans[index]
        result.append(Threat(
            unit.id, view.board.xy(unit.tile), plan.order.lead,
            view.board.xy(approach), plan.defender, plan.supporters, chance, falters[index],
            verdict_text(chance),
            any(i in view.unobserved for i in (plan.order.lead, *plan.supporters))))
    return result


def threats(world: World, player: str) -> list[Threat]:
    """The threat view of `player` [CB-2430's counterpart]: from the player's knowledge view
    only, never from the true board."""
    check_player(world, player)
    return threats_in_view(knowledge_view(world, player), player)


def threat_data(world: World, player: str) -> list[dict[str, Any]]:
    """The threat view as plain data."""
    return [threat.to_json() for threat in threats(world, player)]
