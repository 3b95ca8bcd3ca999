"""The AI: deterministic, explains every order, attacks only on good figures, and plays a
whole game through the real Cascade."""

from __future__ import annotations

from fairfight.clash.ai import MAX_FALTER, MIN_BREAK, ai_orders
from fairfight.clash.generate import generate_scenario
from fairfight.clash.record import GameRecord, merge_orders
from fairfight.clash.scenario import parse_scenario
from tests.clash.world_helpers import base_scenario, world_of


def test_orders_are_deterministic_and_explained() -> None:
    world = world_of(generate_scenario("ai", width=12, height=12, per_side=8))
    first = ai_orders(world, "blue")
    assert first == ai_orders(world, "blue")
    assert first.orders and all(o.reason for o in first.orders.values())
    assert {world.units[uid].player for uid in first.orders} == {"blue"}


def test_it_assaults_a_worn_enemy_and_says_why() -> None:
    world = world_of(base_scenario([". . . .", ". . . ."], [
        {"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 0],
         "grade": "veteran"},
        {"id": "foe", "player": "red", "class": "rifle-company", "at": [1, 0],
         "strength": 40, "disorder": 50},
    ]))
    order = ai_orders(world, "blue").orders["tank"]
    assert order.actions and order.actions[0].do == "assault"
    reason = order.reason or ""
    chance = int(reason.split("they break ")[1].split("‰")[0])
    falter = int(reason.split("we falter ")[1].split("‰")[0])
    assert chance >= MIN_BREAK and falter <= MAX_FALTER


def test_it_does_not_assault_an_entrenched_city() -> None:
    world = world_of(base_scenario([". u ."], [
        {"id": "scout", "player": "blue", "class": "scout-troop", "at": [0, 0]},
        {"id": "foe", "player": "red", "class": "rifle-company", "at": [1, 0],
         "stance": "entrench", "dig_in": 3},
    ], tiles=[{"at": [1, 0], "city": {"owner": "red", "works": 3}}]))
    order = ai_orders(world, "blue").orders["scout"]
    assert not any(action.do == "assault" for action in order.actions)


def test_an_ai_game_runs_through_the_cascade() -> None:
    record = GameRecord(parse_scenario(generate_scenario("aigame", width=12, height=12,
                                                         per_side=8)))
    world = record.start()
    for _ in range(6):
        world = record.play(world, merge_orders([ai_orders(world, p) for p in world.sides])
                            ).world
    kinds = {e["event"] for turn in record.turns for e in turn["events"]}
    assert {"move", "clash"} <= kinds
    assert world.turn == 7
