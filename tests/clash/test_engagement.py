"""build_clash_spec from a board: the section 23 attack, supporters, defender, flankers,
edge terms, supply, and encirclement computed from the retreat candidates only."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.engagement import (
    AttackOrder,
    build_clash_spec,
    choose_supporters,
    plan_clash,
    retreat_score,
)
from fairfight.clash.preview import preview
from fairfight.clash.readout import render_panel
from fairfight.clash.spec import ClashSpec
from tests.clash.world_helpers import base_scenario, example_world, world_of

WORLD_MODULES = ("scenario", "world", "engagement", "orders", "turn", "record", "knowledge",
                 "ai", "playtest", "world_cli", "game")


def test_section_23_from_a_scenario_is_the_golden_spec(worked_spec: ClashSpec) -> None:
    world = example_world("belvoir-wood.yaml")
    target = world.board.index(1, 1)
    spec = build_clash_spec(world, AttackOrder(t.Kind.ASSAULT, "armour-2", target))
    assert spec == worked_spec
    assert spec is not None and spec.canonical_bytes() == worked_spec.canonical_bytes()


def test_section_23_from_a_scenario_gives_the_same_panel(worked_spec: ClashSpec) -> None:
    world = example_world("belvoir-wood.yaml")
    plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "armour-2", world.board.index(1, 1)))
    assert plan is not None
    ours = render_panel(preview(plan.spec, defender_in_city=plan.defender_in_city))
    assert ours == render_panel(preview(worked_spec))
    assert "THEY BREAK — certain (1000‰)" in ours
    # "They fall back to Ford Seven. They are not cut off."
    assert world.board.label(plan.destination or 0) == "Ford Seven"
    assert not plan.encircled


def _ring(units: list[dict[str, Any]], **extra: Any) -> Any:
    return world_of(base_scenario([". . . .", ". . . .", ". . . ."], units, **extra))


def _unit(uid: str, player: str, cls: str, at: list[int], **fields: Any) -> dict[str, Any]:
    return {"id": uid, "player": player, "class": cls, "at": at, **fields}


def test_auto_support_prefers_a_new_role_then_power_then_sequence() -> None:
    world = _ring([
        _unit("lead", "blue", "armoured-battalion", [0, 1]),
        _unit("tank", "blue", "armoured-battalion", [0, 0]),      # same role as the lead
        _unit("rifle-weak", "blue", "rifle-company", [1, 0], strength=50),
        _unit("rifle", "blue", "rifle-company", [2, 0]),
        _unit("gun", "blue", "field-battery", [2, 2]),
        _unit("foe", "red", "rifle-company", [1, 1]),
    ])
    chosen, _ = choose_supporters(world, world.units["lead"], world.board.index(1, 1))
    # open ground, factor 400: gun 48*100*1100*400/1e8 = 21, rifle 30*100*1050*400/1e8 = 12
    assert [u.id for u in chosen] == ["gun", "rifle"]


def test_explicit_support_keeps_only_eligible_units_and_names_the_rest() -> None:
    world = _ring([
        _unit("lead", "blue", "armoured-battalion", [0, 1]),
        _unit("gun", "blue", "field-battery", [2, 2]),
        _unit("far", "blue", "rifle-company", [3, 0]),
        _unit("foe", "red", "rifle-company", [1, 1]),
    ])
    plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "lead", world.board.index(1, 1),
                                         ("far", "gun")))
    assert plan is not None
    assert plan.supporters == ("gun",) and plan.ignored_supporters == ("far",)
    world.units["gun"].activated = True   # a unit that has taken its activation [CB-370]
    plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "lead", world.board.index(1, 1)))
    assert plan is not None and plan.supporters == ()


def test_top_defender_stack_and_flankers() -> None:
    world = _ring([
        _unit("lead", "blue", "armoured-battalion", [0, 1]),
        _unit("s1", "blue", "rifle-company", [1, 0]),
        _unit("s2", "blue", "rifle-company", [2, 0]),
        _unit("s3", "blue", "scout-troop", [0, 0]),
        _unit("far", "blue", "scout-troop", [3, 1]),
        _unit("scout", "red", "scout-troop", [1, 1]),
        _unit("rifles", "red", "rifle-company", [1, 1], strength=60),
        _unit("tank", "red", "armoured-battalion", [1, 1]),
    ])
    plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "lead", world.board.index(1, 1)))
    assert plan is not None
    # open: rifles 44*60*1050/1e5 = 27, tank 38*100*1200/1e5 = 45, scout 24*100*1100/1e5 = 26
    assert plan.stack == ("tank", "rifles", "scout")
    assert plan.spec.defender.defence == 38 and plan.spec.stack_extra == 2
    assert plan.spec.flankers == 3      # s1, s2, s3; the lead and the unit two tiles off not


def test_edge_terms_river_and_uphill() -> None:
    world = _ring([
        _unit("lead", "blue", "rifle-company", [0, 1]),
        _unit("foe", "red", "rifle-company", [1, 1]),
    ], tiles=[{"at": [1, 1], "elevation": 2}])
    spec = build_clash_spec(world, AttackOrder(t.Kind.ASSAULT, "lead", world.board.index(1, 1)))
    assert spec is not None and spec.attacker_edge_mods == -150
    data = base_scenario([". . . .", ". . . .", ". . . ."], [
        _unit("lead", "blue", "rifle-company", [0, 1]),
        _unit("foe", "red", "rifle-company", [1, 1])])
    data["board"]["rivers"] = [[[0, 1], [1, 1]]]
    world = world_of(data)
    spec = build_clash_spec(world, AttackOrder(t.Kind.ASSAULT, "lead", world.board.index(1, 1)))
    assert spec is not None and spec.attacker_edge_mods == -300


def test_derived_supply_follows_the_road_from_the_depot() -> None:
    units = [_unit("near", "blue", "rifle-company", [1, 0]),
             _unit("far", "blue", "rifle-company", [9, 0]),
             _unit("foe", "red", "rifle-company", [5, 1])]
    data = base_scenario(["." * 10, "." * 10], units, tiles=[{"at": [0, 0], "depot": "blue"}])
    world = world_of(data)
    assert world.supply_tier(world.units["near"]) is t.SupplyTier.FULL
    assert world.supply_tier(world.units["far"]) is t.SupplyTier.STRAINED
    data["units"].append(_unit("block", "red", "rifle-company", [5, 0]))
    world = world_of(data)   # both rows held at column 5: the road is cut
    assert world.supply_tier(world.units["far"]) is t.SupplyTier.CUT


def test_retreat_score_is_the_integer_formula() -> None:
    world = example_world("belvoir-wood.yaml")
    # Ford Seven (2,2): no enemy adjacent, open cover -50, no company, and it is closer to
    # the red city at (3,2) than Belvoir Wood: 0 + 50 - 0 - 2000
    assert retreat_score(world, "red", world.board.index(2, 2), world.board.index(1, 1)) \
        == -1950


def _assignments_to_encircled(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg == "encircled":
            found.append(ast.unparse(node.value))
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = getattr(target, "attr", getattr(target, "id", ""))
                if name == "encircled":
                    found.append(ast.unparse(node))
        if isinstance(node, ast.Dict):   # model_copy(update={"encircled": ...}) and the like
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "encircled" and \
                        ast.unparse(value) != "self.encircled":
                    found.append(f"{{'encircled': {ast.unparse(value)}}}")
    return found


def test_encircled_is_only_ever_the_empty_candidate_set() -> None:
    package = Path(__file__).resolve().parents[2] / "src" / "fairfight" / "clash"
    found = {}
    for name in WORLD_MODULES:
        path = package / f"{name}.py"
        if path.exists():
            found[name] = _assignments_to_encircled(path)
    assert found.pop("engagement") == ["not candidates"]
    assert all(not hits for hits in found.values()), found
