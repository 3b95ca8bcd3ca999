"""Scenario files: valid files load, every refusal names its field, the schema is the model's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from fairfight.clash import tables as t
from fairfight.clash.scenario import (
    CAST_CLASSES,
    SCHEMA_PATH,
    RulesModel,
    parse_scenario,
    scenario_schema,
)
from fairfight.clash.world import world_from_scenario
from fairfight.core.errors import InputError
from tests.clash.world_helpers import EXAMPLES, base_scenario


def _good() -> dict[str, Any]:
    return base_scenario(
        [". . ~", ". f ."],
        [{"id": "a", "player": "blue", "class": "rifle-company", "at": [0, 0]},
         {"id": "b", "player": "red", "class": "scout-troop", "at": [2, 1]}],
        tiles=[{"at": [1, 1], "city": {"owner": "red", "works": 2}, "depot": "red"}])


def test_a_good_scenario_loads_into_a_world() -> None:
    world = world_from_scenario(parse_scenario(_good()))
    assert (world.board.width, world.board.height) == (3, 2)
    assert world.board.terrain[2] is t.Terrain.WATER
    assert world.works_at(4) == 2 and world.city_owner[4] == "red"
    assert [u.seq for u in world.units.values()] == [1, 2]
    assert world.units["a"].grade is t.Grade.GREEN


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["units"][0].update(at=[5, 0]), "units[0].at", "off the 3x2 map"),
    (lambda d: d["units"][0].update(at=[2, 0]), "units[0].at", "water"),
    (lambda d: d["units"][0].update({"class": "dragon"}), "units[0].class", "unknown class"),
    (lambda d: d["units"][1].update(player="green"), "units[1].player", "unknown player"),
    (lambda d: d["units"].extend(
        [{"id": f"x{i}", "player": "blue", "class": "rifle-company", "at": [0, 0]}
         for i in range(3)]), "units[4].at", "stacking capacity is 3"),
    (lambda d: d["units"][1].update(at=[0, 0]), "units[1].at", "hostile"),
    (lambda d: d["units"][1].update(id="a"), "units[1].id", "used twice"),
    (lambda d: d["units"][0].update(strength=101), "units[0].strength", "less than or equal"),
    (lambda d: d["units"][0].update(xp=5, grade="elite"), "units[0].grade", "not both"),
    (lambda d: d["board"]["rows"].append(". ."), "board.rows[2]", "row 0 has 3"),
    (lambda d: d["board"]["rows"].__setitem__(0, ". x ~"), "board.rows[0]", "unknown terrain"),
    (lambda d: d["board"]["tiles"][0]["city"].update(owner="green"),
     "board.tiles[0].city.owner", "unknown player"),
    (lambda d: d["board"].update(rivers=[[[0, 0], [2, 0]]]), "board.rivers[0]", "adjacent"),
    (lambda d: d.update(rules={"volatility_floor": 300}), "rules.volatility_floor", "250"),
    (lambda d: d["units"][0].update(stance="charge"), "units[0].stance", "march"),
])
def test_each_refusal_names_the_field(change: Any, field: str, words: str) -> None:
    data = _good()
    change(data)
    with pytest.raises(InputError) as caught:
        parse_scenario(data)
    assert caught.value.field == field
    assert words in caught.value.rule


def test_the_published_schema_is_the_models() -> None:
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == scenario_schema()


def test_the_rules_option_offers_the_tables_floors() -> None:
    for floor in t.VOLATILITY_FLOORS:
        assert RulesModel(volatility_floor=floor).volatility_floor == floor  # type: ignore[arg-type]
    assert RulesModel().volatility_floor == t.VOLATILITY_FLOOR_MEASURED


def test_the_cast_is_built_in_with_the_tables_stats() -> None:
    for cls in t.CALIBRATION_CAST:
        model = CAST_CLASSES[cls.name.lower().replace(" ", "-")]
        assert (model.atk, model.defence, model.tough, model.role) == (
            cls.atk, cls.defence, cls.tough, cls.role)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_loads(path: Any) -> None:
    from fairfight.clash.scenario import load_scenario
    assert load_scenario(path).units


def test_a_saved_world_is_a_scenario_again() -> None:
    world = world_from_scenario(parse_scenario(_good()))
    again = world_from_scenario(parse_scenario(world.to_scenario()))
    assert again.to_scenario() == world.to_scenario()


def test_a_designers_class_is_priced_and_fights_with_its_own_stats() -> None:
    from fairfight.clash.engagement import AttackOrder, build_clash_spec
    data = base_scenario([". . ."], [
        {"id": "g", "player": "blue", "class": "grenadiers", "at": [0, 0]},
        {"id": "r", "player": "red", "class": "rifle-company", "at": [1, 0]}])
    data["classes"] = {"grenadiers": {"name": "Grenadiers", "atk": 40, "def": 50, "tough": 110,
                                      "role": "foot", "movement": 3}}
    world = world_from_scenario(parse_scenario(data))
    # 40 + 50 + 110 // 2 + 10 x (3 - 2) + 0 = 155
    assert world.units["g"].cls.price() == 155
    spec = build_clash_spec(world, AttackOrder(t.Kind.ASSAULT, "g", 1))
    assert spec is not None and (spec.lead.atk, spec.lead.defence, spec.lead.tough) == (
        40, 50, 110)
    data["classes"]["rifle-company"] = data["classes"]["grenadiers"]
    with pytest.raises(InputError, match="built-in class id"):
        parse_scenario(data)
