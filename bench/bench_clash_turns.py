"""Clash turns at size: an AI turn on the generated 24x24 board, and a 1,000-unit dense front.

Targets (issue 23): an AI turn on 24x24 with 30 units a side in <= 0.3 s; a 1,000-unit dense
front either plays a turn in <= 5 s or is refused up front by a documented cap. The web
refuses it (`web.clash.caps.MAX_UNITS`); the library plays it, so its turn is measured here.
Baseline in the same run: the same world's turn with no orders (the Cascade's bookkeeping
and the end of the turn), so the ratio is the cost of the orders and their clashes.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from fairfight.clash.ai import ai_orders
from fairfight.clash.generate import generate_scenario
from fairfight.clash.orders import TurnOrders
from fairfight.clash.record import merge_orders
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World, world_from_scenario
from fairfight.core.errors import InputError
from fairfight.web.clash.caps import MAX_UNITS, check_scenario_size

AI_TURNS = 10
FRONT_SIDE = 50
FRONT_ROWS = 10   # rows of units each side: 10 x 50 = 500 a side


def _seconds(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def dense_front() -> dict[str, Any]:
    """A 50x50 board, 500 units a side in ten full rows each, the two fronts in contact."""
    units = []
    for row in range(FRONT_ROWS):
        for x in range(FRONT_SIDE):
            units.append({"id": f"b{row}-{x}", "player": "blue", "at": [x, 15 + row],
                          "class": "armoured-battalion" if x % 3 == 0 else "rifle-company",
                          "stance": "advance"})
            units.append({"id": f"r{row}-{x}", "player": "red", "at": [x, 25 + row],
                          "class": "rifle-company", "stance": "hold"})
    return {"name": "dense front", "seed_key": "bench-front",
            "board": {"rows": [" ".join("." * FRONT_SIDE) for _ in range(FRONT_SIDE)]},
            "players": [{"id": "blue"}, {"id": "red"}], "units": units}


def _ai_turn(world: World) -> tuple[float, float, World, int]:
    """Seconds for both sides' AI orders, seconds for the turn, the world after, and the
    turn's clashes."""
    start = time.perf_counter()
    orders = merge_orders([ai_orders(world, player) for player in world.sides])
    chosen = time.perf_counter()
    result = run_turn(world, orders)
    clashes = sum(1 for event in result.events if event["event"] == "clash")
    return chosen - start, time.perf_counter() - chosen, result.world, clashes


def main() -> None:
    world = world_from_scenario(parse_scenario(generate_scenario("bench-ai")))
    sides = {p: sum(1 for u in world.units.values() if u.player == p) for p in world.sides}
    idle = min(_seconds(lambda: run_turn(world, TurnOrders())) for _ in range(3))
    start = world
    for _ in range(AI_TURNS):   # warm-up: the first contact loads the batch preview once
        world = _ai_turn(world)[2]
    world = start   # the same game again, timed: the turns are the same, the imports done
    choosing, playing, fought = [], [], 0
    for _ in range(AI_TURNS):
        chose, played, world, clashes = _ai_turn(world)
        choosing.append(chose)
        playing.append(played)
        fought += clashes
    whole = [c + p for c, p in zip(choosing, playing, strict=True)]
    print(f"AI turn, {world.board.width}x{world.board.height}, units a side {sides}: "
          f"median {statistics.median(whole):.3f} s, worst {max(whole):.3f} s of "
          f"{AI_TURNS} turns (target <= 0.3 s: "
          f"{'meets' if max(whole) <= 0.3 else 'MISSES'}); both AIs choose in "
          f"{statistics.median(choosing):.3f} s, the Cascade plays in "
          f"{statistics.median(playing):.3f} s ({fought} clashes); "
          f"{statistics.median(whole) / idle:,.1f}x "
          f"the turn with no orders ({idle * 1000:.1f} ms)", flush=True)

    data = dense_front()
    try:
        check_scenario_size(data)
        print("1,000-unit front: NOT refused by the web cap", flush=True)
    except InputError as refusal:
        print(f"1,000-unit front on the web: refused before any work ({refusal}; "
              f"caps.MAX_UNITS = {MAX_UNITS})", flush=True)
    front = world_from_scenario(parse_scenario(data))
    idle = _seconds(lambda: run_turn(front, TurnOrders()))
    chose, played, _, clashes = _ai_turn(front)
    print(f"1,000-unit front in the library ({len(front.units)} units): AI orders "
          f"{chose:.2f} s + turn {played:.2f} s = {chose + played:.2f} s (target <= 5 s: "
          f"{'meets' if chose + played <= 5 else 'MISSES'}); {(chose + played) / idle:,.1f}x "
          f"the turn with no orders ({idle:.2f} s); {clashes} clashes", flush=True)


if __name__ == "__main__":
    main()
