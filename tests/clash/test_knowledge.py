"""Fog: observation levels, previews from what the player knows, and the overlay."""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.board_attack import attack_preview
from fairfight.clash.engagement import AttackOrder, plan_clash
from fairfight.clash.knowledge import (
    Level,
    attack_candidates,
    fog_preview,
    knowledge_view,
    observation_levels,
    overlay,
    player_view,
)
from fairfight.clash.preview import preview
from tests.clash.world_helpers import base_scenario, example_world, world_of


def _field(units: list[dict[str, Any]]) -> Any:
    return world_of(base_scenario([". . . . . .", ". . . . . .", ". . . . . ."], units))


def _u(uid: str, player: str, cls: str, at: list[int], **state: Any) -> dict[str, Any]:
    return {"id": uid, "player": player, "class": cls, "at": at, **state}


def test_levels_by_distance_recon_and_last_fight() -> None:
    world = _field([
        _u("me", "blue", "rifle-company", [0, 1]),
        _u("near", "red", "rifle-company", [1, 1]),
        _u("mid", "red", "rifle-company", [2, 2]),
        _u("far", "red", "rifle-company", [5, 1]),
    ])
    assert observation_levels(world, "blue") == {"near": Level.OBSERVED, "mid": Level.CONTACT}
    world.units["me"].fought_with.add("mid")          # fought it in the last Cascade
    assert observation_levels(world, "blue")["mid"] is Level.IDENTIFIED
    scout = _field([_u("me", "blue", "scout-troop", [0, 1]),
                    _u("near", "red", "rifle-company", [1, 1])])
    assert observation_levels(scout, "blue") == {"near": Level.IDENTIFIED}   # CB-2320


def test_a_view_hides_what_is_not_observed() -> None:
    world = _field([
        _u("me", "blue", "armoured-battalion", [0, 1], stance="advance"),
        _u("near", "red", "rifle-company", [1, 1], grade="veteran", supply="cut",
           strength=60, stance="entrench"),
        _u("mid", "red", "rifle-company", [2, 2], strength=30, stance="entrench"),
        _u("far", "red", "rifle-company", [5, 1]),
    ])
    view = knowledge_view(world, "blue")
    assert "far" not in view.units
    near, mid = view.units["near"], view.units["mid"]
    assert (near.strength, near.stance) == (60, t.Stance.ENTRENCH)     # L2: observed
    assert (near.grade, near.supply) == (t.Grade.TRAINED, t.SupplyTier.ADEQUATE)  # estimates
    assert (mid.strength, mid.stance) == (100, t.Stance.HOLD)          # L1: estimated
    assert view.unobserved["near"] == ("grade", "supply_tier")
    assert world.units["near"].grade is t.Grade.VETERAN               # the truth untouched
    plan = plan_clash(view, AttackOrder(t.Kind.ASSAULT, "me", view.board.index(1, 1)))
    assert plan is not None
    fog = fog_preview(view, plan)
    assert [f.value for f in fog.unobserved] == ["grade", "supply_tier"]
    true_plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "me", world.board.index(1, 1)))
    assert true_plan is not None
    truth = preview(true_plan.spec).break_permille
    low, high = fog.ranges["break_permille"]
    assert low <= truth <= high                 # the truth lies inside the provisional range


def test_the_panel_of_a_world_attack_names_the_retreat_tile() -> None:
    world = example_world("belvoir-wood.yaml")
    world.units["battery-1"].fought_with.add("rifles-3")   # identified: nothing provisional
    result = attack_preview(world, "blue", "armour-2", (1, 1))
    assert "fall back to Ford Seven" in result["panel"]
    assert result["preview"]["break_permille"] == 1000
    assert result["plan"]["supporters"] == ["battery-1"]


def test_the_overlay_is_the_best_batch_preview_per_enemy_tile() -> None:
    world = _field([
        _u("tank", "blue", "armoured-battalion", [0, 1], stance="advance", grade="veteran"),
        _u("rifle", "blue", "rifle-company", [2, 0], stance="hold"),
        _u("gun", "blue", "field-battery", [0, 0]),
        _u("foe", "red", "rifle-company", [1, 1], strength=50, disorder=40),
        _u("other", "red", "rifle-company", [3, 1]),
    ])
    tiles = {item.tile: item for item in overlay(world, "blue")}
    assert set(tiles) == {(1, 1), (3, 1)}
    view = knowledge_view(world, "blue")
    best = max(
        preview(plan.spec).break_permille
        for lead in ("tank", "rifle", "gun")
        if (plan := plan_clash(view, AttackOrder(t.Kind.ASSAULT, lead,
                                                 view.board.index(1, 1)))) is not None)
    assert tiles[(1, 1)].break_permille == best
    assert {plan.order.lead for plan in attack_candidates(view, "blue")} == {
        "tank", "rifle", "gun"}


def test_player_view_marks_units_with_no_retreat() -> None:
    data = base_scenario(["~ ~ ~ .", "~ . ~ .", "~ ~ ~ ."], [
        _u("alone", "red", "rifle-company", [1, 1]),
        _u("watch", "blue", "rifle-company", [3, 1])])
    cut = {u["id"]: u["cut_off"] for u in player_view(world_of(data), "red")["units"]}
    assert cut == {"alone": True, "watch": False}   # water all round: nowhere to go


def test_a_withdraw_reflex_is_seen_only_when_identified() -> None:
    units = [_u("tank", "blue", "armoured-battalion", [0, 1]),
             _u("screen", "red", "scout-troop", [1, 1], withdraw_reflex=True)]
    world = _field(units)
    assert attack_preview(world, "blue", "tank", (1, 1))["withdraws"] is False   # L2
    world.units["tank"].fought_with.add("screen")                                 # L3
    result = attack_preview(world, "blue", "tank", (1, 1))
    assert result["withdraws"] is True
    assert "losing 16 strength" in result["panel"]          # floor(1000 / 60), CB-1870
