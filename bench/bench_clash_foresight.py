"""Foresight at size: the threat view and plan odds (issue 33, items 5 and 6).

Targets: the threat view for 30 units a side on 24x24 in <= 150 ms p95 on the server; the
exact odds of a 6-assault plan in <= 1 s p95. The board is the generated 24x24 field after
AI turns have brought the fronts into contact. Baselines in the same run: for the threat
view, the hostile-tile overlay of the same side (the existing batch of attack previews over
the same knowledge view); for plan odds, the six assaults previewed one at a time, each
alone (what the attack panel gives without the plan).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bench.timing import p95
from fairfight.clash import tables as t
from fairfight.clash.ai import ai_orders
from fairfight.clash.engagement import AttackOrder, plan_clash
from fairfight.clash.generate import generate_scenario
from fairfight.clash.knowledge import knowledge_view, overlay
from fairfight.clash.orders import AssaultAction, TurnOrders, UnitOrders
from fairfight.clash.plan_odds import GROUP_REACH, plan_odds
from fairfight.clash.preview import preview
from fairfight.clash.record import merge_orders
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.threat import threats
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World, chebyshev, world_from_scenario

SAMPLES = 40
PLAN_SAMPLES = 10
ASSAULTS = 6


def _samples(work: Callable[[], object], n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def _in_contact(seed: str) -> World:
    """The generated field after AI turns until blue has at least six assaults to make."""
    world = world_from_scenario(parse_scenario(generate_scenario(seed)))
    for _ in range(12):
        if len(_assaults(world)) >= ASSAULTS:
            return world
        world = run_turn(world, merge_orders([ai_orders(world, p) for p in world.sides])).world
    return world


def _assaults(world: World) -> list[tuple[str, int]]:
    """Blue units next to a red tile, one assault each (lead, target), by unit order."""
    view = knowledge_view(world, "blue")
    found = []
    for unit in view.units.values():
        if unit.player != "blue" or unit.cls.atk == 0:
            continue
        for tile in view.board.neighbours[unit.tile]:
            if view.hostile_at("blue", tile):
                found.append((unit.id, tile))
                break
    return found


def _spread(world: World, found: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Six of the assaults, taken first where they lie apart (more than the independence
    reach from those already taken, and not on a city), then the rest in order."""
    width = world.board.width
    taken: list[tuple[str, int]] = []
    for lead, tile in found:
        tiles = (world.units[lead].tile, tile)
        if tile not in world.city_owner and all(
                chebyshev(width, a, b) > GROUP_REACH
                for other, aim in taken for a in tiles for b in (world.units[other].tile, aim)):
            taken.append((lead, tile))
    rest = [item for item in found if item not in taken]
    return (taken + rest)[:ASSAULTS]


def _time_plan(world: World, chosen: list[tuple[str, int]], label: str) -> None:
    """p95 of the plan's odds, against previewing its assaults one at a time."""
    board = world.board
    orders = TurnOrders(orders={lead: UnitOrders(stance=t.Stance.ADVANCE, actions=[
        AssaultAction(do="assault", target=board.xy(tile))]) for lead, tile in chosen})
    view = knowledge_view(world, "blue")

    def one_at_a_time() -> None:
        for lead, tile in chosen:
            plan = plan_clash(view, AttackOrder(t.Kind.ASSAULT, lead, tile))
            if plan is not None:
                preview(plan.spec)

    base = p95(_samples(one_at_a_time, PLAN_SAMPLES))
    odds = plan_odds(world, "blue", orders)
    took = p95(_samples(lambda: plan_odds(world, "blue", orders), PLAN_SAMPLES))
    print(f"plan odds, {label}, {len(chosen)} assaults ({odds.groups} independent groups, "
          f"{odds.outcomes} exchange outcomes{', refused' if odds.refused else ''}): "
          f"p95 {took * 1000:.0f} ms (target <= 1 s; {'PASS' if took <= 1 else 'FAIL'}), "
          f"{took / base:.1f}x previewing the {len(chosen)} assaults one at a time "
          f"(p95 {base * 1000:.1f} ms)", flush=True)


def main() -> None:
    world = _in_contact("bench-ai")
    sides = {p: sum(1 for u in world.units.values() if u.player == p) for p in world.sides}
    threats(world, "blue")   # warm-up: the batch preview loads once
    base = p95(_samples(lambda: overlay(world, "blue"), SAMPLES))
    took = p95(_samples(lambda: threats(world, "blue"), SAMPLES))
    reached = sum(1 for x in threats(world, "blue") if x.enemy)
    print(f"threat view, {world.board.width}x{world.board.height}, units {sides}, "
          f"{reached} units within reach: p95 {took * 1000:.1f} ms (target <= 150 ms; "
          f"{'PASS' if took <= 0.150 else 'FAIL'}), {took / base:.2f}x the overlay's "
          f"p95 {base * 1000:.1f} ms", flush=True)
    found = _assaults(world)
    spread = _spread(world, found)
    _time_plan(world, spread, "taken apart where the front allows")
    if set(spread) != set(found[:ASSAULTS]):
        _time_plan(world, found[:ASSAULTS], "the first six in contact")
