"""A turn's log in words, at size: the generated 24x24 board, 30 units a side, ten AI turns.

What a seat's turn page adds to reading the events: the reader's name book (observation
levels at the start and end of every turn up to the one read) and one sentence per event.
Baseline in the same run: filtering the same turn's events to what the side saw
(`sightings.events_seen_by`), which the page did already, so the ratio is the cost of the
words on top. Reported for the last of ten turns (eleven worlds walked), p95 of 30 runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bench.timing import p95
from fairfight.clash.ai import ai_orders
from fairfight.clash.generate import generate_scenario
from fairfight.clash.record import merge_orders
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.sightings import events_seen_by
from fairfight.clash.turn import run_turn
from fairfight.clash.words import describe, name_book
from fairfight.clash.world import World, world_from_scenario

TURNS = 10
RUNS = 30


def _p95_ms(work: Callable[[], object]) -> float:
    work()
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        samples.append(1000 * (time.perf_counter() - start))
    return p95(samples)


def _game() -> tuple[list[World], list[list[dict[str, Any]]]]:
    world = world_from_scenario(parse_scenario(
        generate_scenario("field", width=24, height=24, per_side=30)))
    worlds, events = [world], []
    for _ in range(TURNS):
        orders = merge_orders([ai_orders(world, player) for player in world.sides])
        result = run_turn(world, orders)
        world = result.world
        worlds.append(world)
        events.append(result.events)
    return worlds, events


def main() -> None:
    worlds, turns = _game()
    player = next(iter(worlds[0].sides))
    seen = events_seen_by(worlds[-2], worlds[-1], turns[-1], player)

    def words() -> list[str]:
        book = name_book(worlds, player, seen)
        return [describe(event, book) for event in seen]

    baseline = _p95_ms(lambda: events_seen_by(worlds[-2], worlds[-1], turns[-1], player))
    measured = _p95_ms(words)
    print(f"turn {TURNS} of a 24x24 game, 30 units a side, {len(seen)} events seen by "
          f"{player}: words p95 {measured:.1f} ms, sightings p95 {baseline:.1f} ms "
          f"({measured / baseline:.2f}x baseline)", flush=True)
