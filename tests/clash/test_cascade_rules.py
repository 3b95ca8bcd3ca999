"""The Cascade's rules as the issue found them broken, each against its requirement.

CB-1100 (a retreated or disengaged unit acts no more), CB-1340 and CB-2020-2030 (a garrison
never disengages by reflex and shows no retreat tile), the retreat room of the survivors,
city recovery only in a city of one's own side (CB-2070), and the bombardment's Stance term
(clash-tables decision 6, CB-210). The skipped orders of a halted unit (CB-1780) are in
test_turn.py, with the reaction that halts it.
"""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.board_attack import board_context, evaluate_plan
from fairfight.clash.engagement import AttackOrder, plan_clash
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.turn_end import recovery_situation
from fairfight.clash.world import World

from .factories import spec, unit
from .world_helpers import base_scenario, events_of, play, world_of

TANK = {"id": "tank", "player": "blue", "class": "armoured-battalion", "grade": "elite",
        "stance": "advance", "supply": "full"}


def _line(red: dict[str, Any], *more: dict[str, Any], tiles: list[Any] | None = None,
          draw: int = 999) -> World:
    """One row of open ground: the blue tank at (0,0), a red unit at (1,0)."""
    units = [{**TANK, "at": [0, 0]}, {"player": "red", "at": [1, 0], **red}, *more]
    return world_of(base_scenario([". . . . . ."], units, tiles=tiles or [],
                                  rules={"fixed_draw": draw}))


ASSAULT_1_0 = {"do": "assault", "target": [1, 0], "advance": False}
WORN = {"strength": 60, "disorder": 80, "supply": "adequate"}


def test_cb1100_a_unit_that_retreated_does_not_react_later_in_the_turn() -> None:
    """The worn rifles break, fall back to (2,0) and would have their Hold reaction left
    for the scout stepping next to them; having retreated they act no more."""
    scout = {"id": "scout", "player": "blue", "class": "scout-troop", "at": [4, 0],
             "stance": "hold"}
    rifles = {"id": "rifles", "class": "rifle-company", "stance": "hold", **WORN}
    world = _line(rifles, scout)
    orders = {"tank": {"actions": [ASSAULT_1_0]},
              "scout": {"actions": [{"do": "move", "path": [[3, 0]]}]}}
    result = play(world, orders)
    assert events_of(result, "retreat")[0]["to"] == [2, 0]
    assert [e["initiator"] for e in events_of(result, "clash")] == ["tank"]
    assert events_of(result, "move")[-1]["to"] == [3, 0]
    # the same step next to rifles that did not retreat draws their reaction
    still = _line({**rifles, "at": [2, 0]}, scout)
    calm = play(still, {"scout": orders["scout"]})
    assert [e["initiator"] for e in events_of(calm, "clash")] == ["rifles"]


def test_cb1100_a_unit_that_disengaged_does_not_react_later_in_the_turn() -> None:
    screen = {"id": "screen", "class": "scout-troop", "stance": "hold",
              "withdraw_reflex": True}
    scout = {"id": "scout", "player": "blue", "class": "scout-troop", "at": [4, 0],
             "stance": "hold"}
    result = play(_line(screen, scout), {
        "tank": {"actions": [ASSAULT_1_0]},
        "scout": {"actions": [{"do": "move", "path": [[3, 0]]}]}})
    assert events_of(result, "disengage")[0]["to"] == [2, 0]
    assert not events_of(result, "clash")


def test_cb1340_a_garrison_with_a_withdraw_reflex_fights_instead_of_leaving() -> None:
    """CB-1340: no retreat out of a city or works; CB-2020/2030: only an explicit abandon
    order leaves one. On open ground the same reflex disengages (CB-1850)."""
    screen = {"id": "screen", "class": "scout-troop", "withdraw_reflex": True}
    for tiles in ([{"at": [1, 0], "city": {"owner": "red"}}], [{"at": [1, 0], "works": 1}]):
        held = play(_line(screen, tiles=tiles), {"tank": {"actions": [ASSAULT_1_0]}})
        assert not events_of(held, "disengage") and not events_of(held, "caught")
        assert events_of(held, "clash")[0]["plan"]["defender"] == "screen"
    open_ground = play(_line(screen), {"tank": {"actions": [ASSAULT_1_0]}})
    assert events_of(open_ground, "disengage") and not events_of(open_ground, "clash")


def test_cb1340_cb2420_a_garrison_has_no_retreat_tile_on_the_board() -> None:
    world = _line({"id": "rifles", "class": "rifle-company"},
                  tiles=[{"at": [1, 0], "city": {"owner": "red", "works": 2}}])
    plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "tank", world.board.index(1, 0)))
    assert plan is not None
    assert plan.candidates == (2,)            # the CB-1310 set: it is not encircled
    assert not plan.spec.encircled
    assert not plan.retreat_allowed and plan.retreat_tiles == ()
    assert plan.destination is None and plan.to_json(world)["retreat_to"] is None
    where = board_context(world, plan)
    assert where.retreat_to is None and where.candidates == ()
    panel = evaluate_plan(world, plan, fog=False).panel
    assert panel.retreat is None
    assert any("cannot retreat" in line for line in panel.consequence)
    # the same rifles in the open have their tile
    field = _line({"id": "rifles", "class": "rifle-company"})
    open_plan = plan_clash(field, AttackOrder(t.Kind.ASSAULT, "tank", 1))
    assert open_plan is not None and open_plan.destination == 2
    assert open_plan.retreat_tiles == (2,)


def _pocket_with_friends() -> World:
    """Red's top rifles (strength 30) and a scout on (1,1); the one tile behind them holds
    two red companies, so with stacking 3 it has room for one unit, not for both."""
    rows = ["~ ~ ~ ~", ". . . .", "~ ~ ~ ~"]
    red = {"player": "red", "supply": "adequate", "disorder": 80}
    units = [{**TANK, "at": [0, 1]},
             {**red, "id": "top", "class": "rifle-company", "at": [1, 1], "strength": 30},
             {**red, "id": "scout", "class": "scout-troop", "at": [1, 1], "strength": 40},
             {**red, "id": "r3", "class": "rifle-company", "at": [2, 1]},
             {**red, "id": "r4", "class": "rifle-company", "at": [2, 1]}]
    return world_of(base_scenario(rows, units, rules={"fixed_draw": 999}))


def test_retreat_room_is_checked_for_the_survivors() -> None:
    """The stack of two has no candidate (encircled, CB-1400); the exchange destroys the
    top rifles, and the scout alone fits behind: it retreats, it is not routed."""
    result = play(_pocket_with_friends(),
                  {"tank": {"actions": [{"do": "assault", "target": [1, 1], "advance": False}]}})
    clash = events_of(result, "clash")[0]
    assert clash["plan"]["stack"] == ["top", "scout"]
    assert clash["plan"]["encircled"] and clash["outcome"]["fate"] == "destroyed"
    assert clash["outcome"]["defender_breaks"]
    assert events_of(result, "retreat") == [
        {"event": "retreat", "units": ["scout"], "frm": [1, 1], "to": [2, 1]}]
    assert not events_of(result, "rout")
    assert result.world.units["scout"].tile == result.world.board.index(2, 1)


def test_cb2070_only_a_city_of_the_units_own_side_gives_city_recovery() -> None:
    units = [{"id": "own", "player": "blue", "class": "rifle-company", "at": [0, 0],
              "strength": 40, "supply": "full"},
             {"id": "stray", "player": "blue", "class": "rifle-company", "at": [2, 0],
              "strength": 40, "supply": "full"},
             {"id": "guest", "player": "blue", "class": "rifle-company", "at": [4, 0],
              "strength": 40, "supply": "full"},
             {"id": "far", "player": "red", "class": "rifle-company", "at": [5, 1]}]
    tiles = [{"at": [0, 0], "city": {"owner": "blue"}}, {"at": [2, 0], "city": {}},
             {"at": [4, 0], "city": {"owner": "red"}}]
    world = world_of(base_scenario([". . . . . .", ". . . . . ."], units, tiles=tiles))
    situations = {uid: recovery_situation(world, world.units[uid]) for uid in
                  ("own", "stray", "guest")}
    assert situations == {"own": t.RecoverySituation.CITY, "stray": t.RecoverySituation.FIELD,
                          "guest": t.RecoverySituation.FIELD}
    after = play(world, {}).world
    # CB-2070 rows: city +12 strength, field +4 (Full supply, did not fight)
    assert [after.units[uid].strength for uid in ("own", "stray", "guest")] == [52, 44, 44]


def test_a_bombardment_takes_the_firing_batterys_stance_term() -> None:
    """Decision 6 of the reconstructed tables (CB-210: one procedure): the firing battery's
    Stance attack term of CB-1520 applies, Hold 0, Advance +250, Entrench -400."""
    battery = t.CALIBRATION_CAST[2]
    assert battery.role is t.Role.GUN
    for stance, term in ((t.Stance.HOLD, 0), (t.Stance.ADVANCE, 250),
                         (t.Stance.ENTRENCH, -400)):
        shot = spec(unit(battery, stance=stance), unit(t.CALIBRATION_CAST[0]),
                    kind=t.Kind.BOMBARDMENT)
        prepared = resolve_exchange(shot, 500).prepared
        assert prepared.attacker_mods == term
        assert prepared.a == prepared.a_raw * (1000 + term) // 1000
