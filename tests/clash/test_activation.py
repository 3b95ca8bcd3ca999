"""The activation order before the turn runs, priority, and the assaults earlier orders may
change: the siege of CB-2040/CB-2050 ordered as the source writes it, guns first (CB-270)."""

from __future__ import annotations

from typing import Any

from fairfight.clash.activation import activation_order, assault_risks
from fairfight.clash.orders import parse_orders
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World

from .world_helpers import example_world

FIRE = {"actions": [{"do": "bombard", "target": [2, 2]}]}
ASSAULT = {"stance": "advance",
           "actions": [{"do": "assault", "target": [2, 2], "supporters": []}]}


def _siege_orders(gun_priority: int | None) -> dict[str, Any]:
    guns = {gun: {**FIRE, **({"priority": gun_priority} if gun_priority else {})}
            for gun in ("gun-1", "gun-2", "gun-3")}
    return {**guns, "tank-1": ASSAULT, "tank-2": ASSAULT}


def _order(world: World, orders: dict[str, Any]) -> list[str]:
    return [a.unit for a in activation_order(world, parse_orders(world, orders))]


def test_the_stances_order_the_cascade_when_no_priority_is_given() -> None:
    """Initiative (Advance 2 before Hold 1 before Entrench 0), then creation sequence."""
    world = example_world("siege.yaml")
    orders = parse_orders(world, _siege_orders(None))
    places = activation_order(world, orders)
    assert [a.unit for a in places] == ["tank-1", "tank-2", "gun-1", "gun-2", "gun-3",
                                        "rifles-a", "rifles-b", "garrison"]
    first = places[0]
    assert (first.position, first.stance.value, first.initiative) == (1, "advance", 2)
    assert first.reason == "advance: initiative 2, creation sequence 5"
    assert first.actions == ("assault (2,2)",) and first.took_place_of is None


def test_priority_moves_the_guns_into_the_armours_places() -> None:
    world = example_world("siege.yaml")
    places = activation_order(world, parse_orders(world, _siege_orders(1)))
    assert [a.unit for a in places] == ["gun-1", "gun-2", "gun-3", "tank-1", "tank-2",
                                        "rifles-a", "rifles-b", "garrison"]
    assert places[0].took_place_of == "tank-1"
    assert places[0].reason == ("hold: initiative 1, creation sequence 1; priority 1 puts "
                                "it in the place of tank-1")


def test_priority_never_moves_another_players_units() -> None:
    """The red garrison keeps its place whatever red's priorities say."""
    world = example_world("siege.yaml")
    orders = {**_siege_orders(None), "garrison": {"priority": 9}}
    assert _order(world, orders)[-1] == "garrison"


def test_the_siege_as_written_guns_first_then_the_assault() -> None:
    """CB-2040's three shots at the median draw leave the garrison at 82 strength and 69
    disorder; ordered with priority, the first armoured assault meets exactly that."""
    world = example_world("siege.yaml")
    result = run_turn(world, parse_orders(world, _siege_orders(1)))
    clashes = [e for e in result.events if e["event"] == "clash"]
    assert [c["initiator"] for c in clashes][:4] == ["gun-1", "gun-2", "gun-3", "tank-1"]
    defender = clashes[3]["outcome"]["spec"]["defender"]
    assert (defender["strength"], defender["disorder"]) == (82, 69)
    # without priority the armour goes in first, against the fresh garrison
    plain = run_turn(world, parse_orders(world, _siege_orders(None)))
    first = next(e for e in plain.events if e["event"] == "clash")
    assert first["initiator"] == "tank-1"
    assert first["outcome"]["spec"]["defender"]["disorder"] == 0


def test_assaults_after_fire_on_their_tile_are_marked_as_changeable() -> None:
    world = example_world("siege.yaml")
    risks = assault_risks(world, parse_orders(world, _siege_orders(1)))
    assert [(r.unit, r.target) for r in risks] == [("tank-1", (2, 2)), ("tank-2", (2, 2))]
    assert [c.unit for c in risks[0].changes] == ["gun-1", "gun-2", "gun-3"]
    assert risks[0].changes[0].reason == "gun-1 attacks the same tile first (bombard (2,2))"
    assert [c.unit for c in risks[1].changes] == ["gun-1", "gun-2", "gun-3", "tank-1"]
    assert all(r.may_change for r in risks)
    # the first assault of a turn with nothing before it stands as previewed
    alone = assault_risks(world, parse_orders(world, {"tank-1": ASSAULT}))
    assert len(alone) == 1 and not alone[0].may_change


def test_a_units_own_move_before_its_assault_is_a_change() -> None:
    world = example_world("siege.yaml")
    orders = {"tank-1": {"stance": "advance", "actions": [
        {"do": "move", "path": [[1, 2]]}, {"do": "assault", "target": [2, 2]}]}}
    (risk,) = assault_risks(world, parse_orders(world, orders))
    assert [(c.unit, c.action) for c in risk.changes] == [("tank-1", 0)]
    assert "its own earlier order (move (1,2))" in risk.changes[0].reason


def test_the_order_and_the_risks_as_plain_json() -> None:
    world = example_world("siege.yaml")
    orders = parse_orders(world, _siege_orders(1))
    first = activation_order(world, orders)[0].to_json()
    assert first == {"position": 1, "unit": "gun-1", "player": "blue", "stance": "hold",
                     "initiative": 1, "creation_sequence": 1, "priority": 1,
                     "took_place_of": "tank-1", "actions": ["bombard (2,2)"],
                     "reason": "hold: initiative 1, creation sequence 1; priority 1 puts it "
                               "in the place of tank-1"}
    risk = assault_risks(world, orders)[0].to_json()
    assert risk["unit"] == "tank-1" and risk["target"] == [2, 2] and risk["may_change"]
    assert [c["unit"] for c in risk["changes"]] == ["gun-1", "gun-2", "gun-3"]
