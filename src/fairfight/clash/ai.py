"""An explainable AI: every order it gives comes with the figures that chose it.

From its knowledge view the AI previews every assault its units could make (with the
automatic support the rules will pick) in one batch of the exact preview [CB-2290]; takes
the attacks whose break chance is high and whose falter and loss risks are low, best first,
at most two leads per target; has its batteries shell the enemy tile its assaults need most;
sends worn units back to a friendly city; and moves the rest toward the nearest enemy or
enemy city along a distance field. Deterministic: the same view gives the same orders.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.engagement import ClashPlan, retreat_candidates
from fairfight.clash.knowledge import attack_candidates, knowledge_view
from fairfight.clash.orders import (
    AssaultAction,
    BombardAction,
    MoveAction,
    TurnOrders,
    UnitOrders,
)
from fairfight.clash.world import Unit, World, chebyshev

__all__ = [
    "CUT_OFF_BONUS",
    "LEADS_PER_TARGET",
    "MAX_DESTROYED",
    "MAX_FALTER",
    "MIN_BREAK",
    "POCKET_CANDIDATES",
    "WORN",
    "ai_orders",
    "score_attack",
]

MIN_BREAK = 450
"""Assault only where the defender breaks in at least this many draws out of 1000..."""
MAX_FALTER = 300
"""...the lead falters in at most this many..."""
MAX_DESTROYED = 50
"""...and the lead is destroyed in at most this many."""
WORN = 40
"""A unit below this strength goes back to a friendly city to recover."""
LEADS_PER_TARGET = 2
POCKET_CANDIDATES = 3
"""An enemy stack with this few ways out is worth closing in on."""
CUT_OFF_BONUS = 500
"""Extra score for a target with no retreat: breaking it destroys the whole stack."""


def score_attack(item: dict[str, Any]) -> int:
    """Win chance, then break chance, against falter risk and own losses (per-mille units)."""
    return int(2 * item["win_permille"] + item["break_permille"] - 2 * item["falter_permille"]
            - 4 * item["destroyed_permille"] - 10 * item["la_band"][1])


def _distance_field(view: World, player: str, cls_unit: Unit, goals: list[int]) -> list[int]:
    """Steps to the nearest goal over tiles this unit may enter (enemy tiles excluded)."""
    size = view.board.width * view.board.height
    distance = [-1] * size
    queue: deque[int] = deque()
    for goal in sorted(set(goals)):
        distance[goal] = 0
        queue.append(goal)
    while queue:
        tile = queue.popleft()
        for nxt in view.board.neighbours[tile]:
            if distance[nxt] < 0 and view.passable(cls_unit.cls, nxt) and not view.hostile_at(
                    player, nxt):
                distance[nxt] = distance[tile] + 1
                queue.append(nxt)
    return distance


def _path(view: World, unit: Unit, field: list[int], occupancy: dict[int, int]) -> list[int]:
    """Steepest descent on the field, up to the unit's movement, into tiles with room."""
    path: list[int] = []
    tile = unit.tile
    for _ in range(unit.cls.movement):
        here = field[tile]
        options = [n for n in view.board.neighbours[tile]
                   if 0 <= field[n] < here and occupancy.get(n, 0) < view.rules.stacking
                   and view.passable(unit.cls, n) and not view.hostile_at(unit.player, n)]
        if here <= 0 or not options:
            break
        tile = min(options, key=lambda n: (field[n], n))
        path.append(tile)
    if path:
        occupancy[unit.tile] = occupancy.get(unit.tile, 1) - 1
        occupancy[path[-1]] = occupancy.get(path[-1], 0) + 1
    return path


def _explain(item: dict[str, Any], plan: ClashPlan, view: World) -> str:
    x, y = view.board.xy(plan.order.target)
    low, _, high = item["la_band"]
    support = f" with {', '.join(plan.supporters)}" if plan.supporters else ""
    cut = " (cut off: a break destroys them)" if plan.encircled else ""
    return (f"assault ({x},{y}){support}{cut}: they break {item['break_permille']}‰, we falter "
            f"{item['falter_permille']}‰, we lose {low}–{high}")


def ai_orders(world: World, player: str, support_choices: int | None = None) -> TurnOrders:
    """Orders for every unit of `player`, each with its reason; `support_choices` bounds the
    supporters weighed per assault (`workload.plan_turn_work` says when a turn needs it)."""
    view = knowledge_view(world, player)
    own = [u for u in view.units.values() if u.player == player]
    orders: dict[str, UnitOrders] = {}
    plans = attack_candidates(view, player, combinations=True, support_choices=support_choices)
    chosen: dict[int, int] = {}
    committed: set[str] = set()
    if plans:
        batch = preview_batch(columns_from_specs([plan.spec for plan in plans]))
        ranked = sorted(((batch.item_json(i), plan) for i, plan in enumerate(plans)),
                        key=lambda pair: (-score_attack(pair[0]) - CUT_OFF_BONUS * int(
                            pair[1].encircled), pair[1].order.lead, pair[1].order.target))
        for item, plan in ranked:
            lead = view.units[plan.order.lead]
            if (lead.id in committed or committed.intersection(plan.supporters)
                    or item["break_permille"] < MIN_BREAK
                    or item["falter_permille"] > MAX_FALTER
                    or item["destroyed_permille"] > MAX_DESTROYED
                    or lead.strength < WORN or lead.cls.bombard_range > 0
                    or chosen.get(plan.order.target, 0) >= LEADS_PER_TARGET):
                continue
            chosen[plan.order.target] = chosen.get(plan.order.target, 0) + 1
            committed.update((lead.id, *plan.supporters))
            x, y = view.board.xy(plan.order.target)
            orders[lead.id] = UnitOrders(
                stance=t.Stance.ADVANCE, reason=_explain(item, plan, view),
                actions=[AssaultAction(do="assault", target=(x, y),
                                       supporters=list(plan.supporters))])
            for supporter in plan.supporters:   # they wait in Hold, so they activate later
                orders[supporter] = UnitOrders(
                    stance=t.Stance.HOLD, reason=f"support {lead.id} against ({x},{y})")
    enemy_tiles = sorted({u.tile for u in view.units.values()
                          if not view.allied(u.player, player)})
    width = view.board.width
    for unit in own:
        if unit.id in orders or unit.cls.bombard_range == 0:
            continue
        in_range = [tile for tile in enemy_tiles
                    if chebyshev(width, unit.tile, tile) <= unit.cls.bombard_range]
        if in_range:
            target = min(in_range, key=lambda tile: (-chosen.get(tile, 0), -sum(
                1 for n in view.board.neighbours[tile] for u in view.units_at(n)
                if u.player == player), tile))
            x, y = view.board.xy(target)
            orders[unit.id] = UnitOrders(
                stance=t.Stance.HOLD, reason=f"bombard ({x},{y}) to wear its resolve down",
                actions=[BombardAction(do="bombard", target=(x, y))])
    _movement_orders(view, player, own, enemy_tiles, orders)
    return TurnOrders(player=player, orders=orders)


def _pocket_tiles(view: World, player: str, enemy_tiles: list[int]) -> list[int]:
    """The retreat candidates of enemy stacks down to POCKET_CANDIDATES of them: standing
    there takes a way out away (encirclement is only ever the empty candidate set)."""
    tiles: set[int] = set()
    for tile in enemy_tiles:
        candidates = retreat_candidates(view, view.units_at(tile), tile, -1)
        if 0 < len(candidates) <= POCKET_CANDIDATES:
            tiles.update(candidates)
    return sorted(tiles)


def _movement_orders(view: World, player: str, own: list[Unit], enemy_tiles: list[int],
                     orders: dict[str, UnitOrders]) -> None:
    """Worn units fall back to a city; the rest close with the enemy."""
    occupancy = {tile: len(units) for tile, units in view.occupants.items()}
    cities = [tile for tile, owner in view.city_owner.items()
              if owner is not None and view.allied(owner, player)]
    targets = [n for tile in enemy_tiles for n in view.board.neighbours[tile]]
    targets += [tile for tile, owner in view.city_owner.items()
                if (owner is None or not view.allied(owner, player))
                and not view.hostile_at(player, tile)]
    if not targets:
        targets = [tile for tile, owner in view.board.depots.items()
                   if not view.allied(owner, player)]
    pockets = _pocket_tiles(view, player, enemy_tiles)
    fields: dict[tuple[str, bool], list[int]] = {}
    for unit in own:
        if unit.id in orders:
            continue
        adjacent_enemy = any(view.hostile_at(player, n) for n in view.board.neighbours[unit.tile])
        worn = unit.strength < WORN and cities and unit.tile not in cities
        if adjacent_enemy and not worn:
            stance = t.Stance.HOLD if unit.cls.bombard_range else t.Stance.ENTRENCH
            orders[unit.id] = UnitOrders(stance=stance, reason="hold the line: no good attack")
            continue
        water = unit.cls.retreat_class is t.RetreatClass.WATERBORNE
        key = ("home" if worn else "front", water)
        if key not in fields:
            fields[key] = _distance_field(view, player, unit, cities if worn else targets)
        pocket = ("pocket", water)
        if pockets and not worn and pocket not in fields:
            fields[pocket] = _distance_field(view, player, unit, pockets)
        closing = pocket in fields and 0 < fields[pocket][unit.tile] <= unit.cls.movement
        path = _path(view, unit, fields[pocket if closing else key], occupancy)
        if not path:
            orders[unit.id] = UnitOrders(stance=t.Stance.HOLD, reason="nowhere better to go")
            continue
        x, y = view.board.xy(path[-1])
        reason = (f"worn ({unit.strength}): back toward a city" if worn
                  else f"close the last ways out of an enemy stack: move to ({x},{y})"
                  if closing else f"close with the enemy: move to ({x},{y})")
        orders[unit.id] = UnitOrders(
            stance=t.Stance.HOLD if worn else t.Stance.ADVANCE, reason=reason,
            actions=[MoveAction(do="move", path=[view.board.xy(step) for step in path])])
