"""Clash world benchmarks: a 500-clash Cascade by composition, the overlay, an AI game.

Targets (issue 11): a Cascade of 500 clashes in <= 0.5 s on one core (CB-2590) and flat in
composition (CB-2600, reported as slowest / fastest); the overlay for 30 attackers against
30 enemy tiles in <= 50 ms; a 20-turn AI game on 24x24 with 30 units a side in < 60 s.
Baselines, measured in the same run: 500 bare `resolve_exchange` calls, and a plain loop of
scalar previews over the overlay's specifications.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

from bench.timing import best_seconds
from fairfight.clash.ai import ai_orders
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.generate import generate_scenario
from fairfight.clash.knowledge import attack_candidates, knowledge_view, overlay
from fairfight.clash.orders import TurnOrders, parse_orders
from fairfight.clash.preview import preview
from fairfight.clash.record import merge_orders
from fairfight.clash.scenario import MAX_SCENARIO_UNITS, parse_scenario
from fairfight.clash.spec import parse_spec
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World, world_from_scenario

PAIRS = 250
COMPOSITIONS: dict[str, tuple[str, str, str, str, int]] = {
    # name: (lead class, defender class, terrain letter, defender stance, supporters)
    "armour on rifles, open": ("armoured-battalion", "rifle-company", ".", "hold", 0),
    "rifles on entrenched armour, mountain": ("rifle-company", "armoured-battalion", "M",
                                              "entrench", 0),
    "scouts on scouts, marsh": ("scout-troop", "scout-troop", "m", "advance", 0),
    "armour + 2 supporters on a stack of 3, forest": ("armoured-battalion", "rifle-company",
                                                      "f", "entrench", 2),
}


def _cascade(lead: str, defender: str, letter: str, stance: str,
             supporters: int) -> tuple[World, Any]:
    """PAIRS separate fights, each lead ordered to assault twice; the targets stand in
    works 1 so they hold their tile and the second assault happens. A composition with
    supporters and a stack has fewer pairs, as many as the scenario's unit cap
    (`MAX_SCENARIO_UNITS`) holds; its time is scaled to 500 clashes like the others'."""
    stacked = 1 + 2 * (supporters > 0)
    pairs = min(PAIRS, MAX_SCENARIO_UNITS // (1 + supporters + stacked))
    columns = 20
    width, height = 3 * columns, 3 * (-(-pairs // columns))
    rows = [[letter] * width for _ in range(height)]
    units: list[dict[str, Any]] = []
    tiles: list[dict[str, Any]] = []
    orders: dict[str, Any] = {}
    for i in range(pairs):
        x, y = 3 * (i % columns), 3 * (i // columns)
        tiles.append({"at": [x + 1, y], "works": 1})
        units.append({"id": f"l{i}", "player": "blue", "class": lead, "at": [x, y],
                      "stance": "advance", "supply": "full"})
        for j in range(supporters):
            units.append({"id": f"s{i}-{j}", "player": "blue", "class": "field-battery"
                          if j == 0 else "rifle-company", "at": [x + j, y + 1],
                          "supply": "full"})
        for j in range(stacked):
            units.append({"id": f"d{i}-{j}", "player": "red", "class": defender,
                          "at": [x + 1, y], "stance": stance, "supply": "adequate"})
        attack = {"do": "assault", "target": [x + 1, y], "advance": False}
        orders[f"l{i}"] = {"actions": [attack, attack]}
    data = {"seed_key": "bench", "board": {"rows": ["".join(r) for r in rows],
                                           "tiles": tiles},
            "players": [{"id": "blue"}, {"id": "red"}], "units": units}
    world = world_from_scenario(parse_scenario(data))
    return world, parse_orders(world, orders)


def _overlay_world() -> World:
    """30 attackers in a row, each facing its own enemy tile."""
    units = []
    for i in range(30):
        units.append({"id": f"a{i}", "player": "blue", "class": "armoured-battalion"
                      if i % 2 else "rifle-company", "at": [2 * i, 0], "stance": "advance"})
        units.append({"id": f"e{i}", "player": "red", "class": "rifle-company",
                      "at": [2 * i + 1, 1], "stance": "entrench"})
    data = {"seed_key": "overlay", "board": {"rows": ["." * 60, "." * 60]},
            "players": [{"id": "blue"}, {"id": "red"}], "units": units}
    return world_from_scenario(parse_scenario(data))


def main() -> None:
    world, orders = _cascade(*COMPOSITIONS["armour on rifles, open"])
    first = run_turn(world, orders)
    spec = next(e for e in first.events if e["event"] == "clash")
    sample = parse_spec(spec["outcome"]["spec"])
    bare = best_seconds(lambda: [resolve_exchange(sample, r % 1000) for r in range(500)], 3)
    print(f"{'500 bare resolve_exchange calls (baseline)':<52}{bare * 1000:>9.1f} ms")
    per_500: dict[str, float] = {}
    for name, composition in COMPOSITIONS.items():
        world, orders = _cascade(*composition)
        clashes = sum(1 for e in run_turn(world, orders).events if e["event"] == "clash")
        seconds = best_seconds(partial(run_turn, world, orders), 3)
        idle = best_seconds(partial(run_turn, world, TurnOrders()), 3)
        per_500[name] = (seconds - idle) * 500 / clashes
        print(f"Cascade, {name:<44}{per_500[name] * 1000:>9.1f} ms per 500 clashes "
              f"({clashes} clashes; {per_500[name] / bare:,.1f}x baseline; the turn's own "
              f"bookkeeping for {len(world.units)} units {idle * 1000:.0f} ms)", flush=True)
    ratio = max(per_500.values()) / min(per_500.values())
    print(f"{'slowest / fastest composition':<52}{ratio:>9.2f}")
    world = _overlay_world()
    view = knowledge_view(world, "blue")
    specs = [plan.spec for plan in attack_candidates(view, "blue")]
    scalar = best_seconds(lambda: [preview(s) for s in specs], 5)
    fast = best_seconds(lambda: overlay(world, "blue"), 5)
    print(f"{'overlay, 30 attackers x 30 enemy tiles':<52}{fast * 1000:>9.1f} ms "
          f"({len(specs)} attacks, view and plans included; the previews alone as a scalar "
          f"loop: {scalar * 1000:.1f} ms)", flush=True)
    world = world_from_scenario(parse_scenario(generate_scenario("bench-ai")))
    start = time.perf_counter()
    clashes = 0
    for _ in range(20):
        result = run_turn(world, merge_orders([ai_orders(world, p) for p in world.sides]))
        clashes += sum(1 for e in result.events if e["event"] == "clash")
        world = result.world
    seconds = time.perf_counter() - start
    print(f"{'AI game, 20 turns, 24x24, 30 units a side':<52}{seconds:>9.2f} s "
          f"({clashes} clashes)", flush=True)
