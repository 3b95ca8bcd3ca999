"""The Cascade: the CB-2040 siege and the CB-2050 shape from a scenario, rout against
retreat, draws addressed by (K, turn, initiator, ordinal), disengagement, reaction, dig-in."""

from __future__ import annotations

from typing import Any

from fairfight.clash.world import World
from fairfight.core.draws import hash64
from tests.clash.world_helpers import base_scenario, events_of, example_world, play, world_of

FIRE = {gun: {"actions": [{"do": "bombard", "target": [2, 2]}]}
        for gun in ("gun-1", "gun-2", "gun-3")}


def _siege_shot(strength: int) -> tuple[int, int, int, int]:
    """A, D, strength removed and disorder added for one battery shot at r = 500, typed
    from the specification's formulas and tables (CB-470, CB-540, CB-660, CB-870, CB-1200)."""
    battery = 48 * 100 * (1000 + 80 + 0 - 100) * 1000 // 100_000_000   # trained, gun/urban
    a = battery * (1000 + 0) // 1000                                      # hold: no term
    rifles = 44 * strength * (1000 + 80 + 0 + 200) * 1000 // 100_000_000  # trained, foot/urban
    d = rifles * (1000 + 500 + 300 + 300) // 1000        # urban cover, entrench, works 3
    s = (500 - 500) * 1250 // 2000                       # (850 + 850) / 2 + 400 chaos
    a_eff, d_eff = a * (1000 + s) // 1000, d * (1000 - s) // 1000
    share = a_eff * 1000 // (a_eff + d_eff)
    ld = min(strength, 22 * share * 100 // (1000 * 100))
    return a, d, ld, 3 * ld + 5


def test_cb2040_three_battery_shots_and_the_end_of_turn() -> None:
    world = example_world("siege.yaml")
    result = play(world, FIRE)
    shots = events_of(result, "clash")
    strength, expected = 100, []
    for _ in range(3):
        a, d, ld, disorder = _siege_shot(strength)
        expected.append((a, d, ld, disorder))
        strength -= ld
    assert expected == [(47, 117, 6, 23), (47, 109, 6, 23), (47, 102, 6, 23)]
    got = [(e["outcome"]["a"], e["outcome"]["d"], e["outcome"]["after"]["defender"]["loss"],
             e["outcome"]["after"]["defender"]["disorder_gain"]) for e in shots]
    assert got == expected
    assert [e["initiator"] for e in shots] == ["gun-1", "gun-2", "gun-3"]
    assert shots[-1]["outcome"]["after"]["defender"]["strength"] == 82
    assert shots[-1]["outcome"]["after"]["defender"]["disorder"] == 69
    garrison = result.world.units["garrison"]
    # city recovery 12/90, having fought: strength 0, disorder 90 // 2 = 45 (CB-2080)
    assert (garrison.strength, garrison.disorder) == (82, 69 - 45) == (82, 24)


def test_cb2050_a_gun_line_and_two_armoured_assaults_take_the_city_in_two_turns() -> None:
    world = example_world("siege.yaml")
    assaults = {tank: {"stance": "advance",
                       "actions": [{"do": "assault", "target": [2, 2], "supporters": []}]}
                for tank in ("tank-1", "tank-2")}
    first = play(world, {**FIRE, **assaults})
    assert first.world.city_owner[world.board.index(2, 2)] == "red"
    assert "garrison" in first.world.units
    second = play(first.world, {**FIRE, **assaults})
    assert "garrison" not in second.world.units
    assert second.world.city_owner[world.board.index(2, 2)] == "blue"
    assert events_of(second, "capture")[0]["tile"] == [2, 2]


def _pocket(escape: str) -> World:
    """Two red companies on (1,1), worn and shaken; water all round but for the tile the
    blue armour attacks from and, maybe, one open tile to the east."""
    rows = ["~ ~ ~", f". . {escape}", "~ ~ ~"]
    units = [
        {"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 1],
         "grade": "veteran", "stance": "advance", "supply": "full"},
        {"id": "r1", "player": "red", "class": "rifle-company", "at": [1, 1],
         "strength": 90, "disorder": 80, "supply": "adequate"},
        {"id": "r2", "player": "red", "class": "rifle-company", "at": [1, 1],
         "strength": 60, "disorder": 80, "supply": "adequate"},
    ]
    return world_of(base_scenario(rows, units, rules={"fixed_draw": 999}))


ASSAULT = {"tank": {"actions": [{"do": "assault", "target": [1, 1], "advance": False}]}}


def test_a_stack_with_no_retreat_candidate_is_routed_whole() -> None:
    result = play(_pocket("~"), ASSAULT)
    clash = events_of(result, "clash")[0]
    assert clash["plan"]["retreat_candidates"] == [] and clash["plan"]["encircled"]
    assert clash["outcome"]["spec"]["encircled"] is True
    assert clash["outcome"]["defender_breaks"]
    rout = events_of(result, "rout")[0]
    assert rout["units"] == ["r1", "r2"]
    assert "r1" not in result.world.units and "r2" not in result.world.units


def test_the_same_stack_with_one_free_tile_retreats_whole() -> None:
    result = play(_pocket("."), ASSAULT)
    clash = events_of(result, "clash")[0]
    assert clash["plan"]["retreat_candidates"] == [[2, 1]]
    assert clash["outcome"]["spec"]["encircled"] is False
    assert events_of(result, "retreat")[0] == {
        "event": "retreat", "units": ["r1", "r2"], "frm": [1, 1], "to": [2, 1]}
    assert {u.tile for u in result.world.units.values() if u.player == "red"} == {5}
    assert not events_of(result, "rout")


def _draw(key: str, turn: int, initiator: int, ordinal: int) -> int:
    return ((hash64(key, turn, initiator, ordinal) & 0xFFFFFFFF) * 1000) >> 32


def test_draws_are_addressed_by_turn_initiator_and_ordinal() -> None:
    units = [{"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 0],
              "stance": "hold", "seq": 7},
             {"id": "foe", "player": "red", "class": "rifle-company", "at": [1, 0]}]
    world = world_of(base_scenario([". . . ."], units, turn=3,
                                   tiles=[{"at": [1, 0], "works": 1}]))   # it never leaves
    attack = {"do": "assault", "target": [1, 0], "advance": False}
    result = play(world, {"tank": {"actions": [attack, attack]}})
    clashes = events_of(result, "clash")
    assert [(c["initiator"], c["ordinal"]) for c in clashes] == [("tank", 0), ("tank", 1)]
    assert [c["r"] for c in clashes] == [_draw("test", 3, 7, 0), _draw("test", 3, 7, 1)]
    # CB-270: the second clash sees the first one's losses
    first = clashes[0]["outcome"]["after"]["defender"]["strength"]
    assert clashes[1]["outcome"]["spec"]["defender"]["strength"] == first


def test_disengagement_once_a_turn_then_a_normal_clash() -> None:
    units = [{"id": "a", "player": "blue", "class": "armoured-battalion", "at": [0, 0],
              "stance": "hold"},
             {"id": "b", "player": "blue", "class": "armoured-battalion", "at": [3, 1],
              "stance": "hold"},
             {"id": "scout", "player": "red", "class": "scout-troop", "at": [1, 0],
              "withdraw_reflex": True},
             ]
    world = world_of(base_scenario([". . . .", ". . . ."], units))
    result = play(world, {
        "a": {"actions": [{"do": "assault", "target": [1, 0], "advance": False}]},
        "b": {"actions": [{"do": "assault", "target": [2, 0], "advance": False}]}})
    leave = events_of(result, "disengage")[0]
    assert leave["loss"] == 1000 // 60 == 16 and leave["to"] == [2, 0]   # CB-1870
    assert leave["disorder"] == 15
    clash = events_of(result, "clash")[0]          # b reaches it again: a normal clash
    assert clash["initiator"] == "b" and clash["outcome"]["spec"]["defender_extra_mods"] == 0


def test_a_move_next_to_an_entrenched_enemy_draws_a_reaction_and_halts() -> None:
    units = [{"id": "col", "player": "blue", "class": "rifle-company", "at": [0, 0]},
             {"id": "guard", "player": "red", "class": "rifle-company", "at": [3, 0],
              "stance": "entrench"}]
    world = world_of(base_scenario([". . . . .", ". . . . ."], units))
    result = play(world, {"col": {"stance": "advance", "actions": [
        {"do": "move", "path": [[1, 0], [2, 0]]},
        {"do": "assault", "target": [3, 0]},
        {"do": "move", "path": [[2, 1]]}]}})
    assert [e["to"] for e in events_of(result, "move")] == [[1, 0], [2, 0]]
    clashes = events_of(result, "clash")
    assert len(clashes) == 1                     # halted: the assault never happens
    # CB-1780: the dropped orders are logged, each with its reason
    assert [(e["unit"], e["action"], e["reason"]) for e in events_of(result, "skipped")] == [
        ("col", "assault", "halted by a reaction"), ("col", "move", "halted by a reaction")]
    reaction = clashes[0]
    assert (reaction["initiator"], reaction["ordinal"]) == ("guard", 0)
    assert reaction["outcome"]["spec"]["kind"] == "reaction"
    assert reaction["plan"]["defender"] == "col" and reaction["plan"]["target"] == [2, 0]
    assert reaction["r"] == _draw("test", 1, 2, 0)


def test_dig_in_grows_for_an_entrenched_unit_that_stays() -> None:
    units: list[dict[str, Any]] = [
        {"id": "a", "player": "blue", "class": "rifle-company", "at": [0, 0],
         "stance": "entrench", "dig_in": 1},
        {"id": "b", "player": "red", "class": "rifle-company", "at": [3, 0]}]
    world = world_of(base_scenario([". . . ."], units))
    assert play(world, {}).world.units["a"].dig_in == 2


def test_the_input_world_is_never_changed() -> None:
    world = example_world("siege.yaml")
    before = world.to_scenario()
    play(world, FIRE)
    assert world.to_scenario() == before


def test_abandon_leaves_a_city_only_by_order() -> None:
    units = [{"id": "garrison", "player": "red", "class": "rifle-company", "at": [1, 0],
              "stance": "entrench"},            # an abandon order leaves even from Entrench
             {"id": "field", "player": "red", "class": "rifle-company", "at": [3, 0]},
             {"id": "watch", "player": "blue", "class": "scout-troop", "at": [5, 0]}]
    world = world_of(base_scenario([". u . . . ."], units,
                                   tiles=[{"at": [1, 0], "city": {"owner": "red", "works": 2}}]))
    result = play(world, {"garrison": {"actions": [{"do": "abandon", "to": [0, 0]}]},
                          "field": {"actions": [{"do": "abandon", "to": [2, 0]}]}})
    assert events_of(result, "abandon")[0]["to"] == [0, 0]
    assert events_of(result, "skipped")[0]["reason"] == "not in a city or works"
    assert result.world.units["garrison"].tile == 0
    assert result.world.city_owner[1] == "red"     # left undefended, still red's


def test_activation_follows_the_stances_ordered_this_turn() -> None:
    units = [{"id": "first", "player": "blue", "class": "rifle-company", "at": [0, 0]},
             {"id": "second", "player": "blue", "class": "rifle-company", "at": [0, 2]},
             {"id": "foe", "player": "red", "class": "rifle-company", "at": [5, 1]}]
    world = world_of(base_scenario([". . . . . .", ". . . . . .", ". . . . . ."], units))
    result = play(world, {"first": {"stance": "hold", "actions": [{"do": "move",
                                                                    "path": [[1, 0]]}]},
                          "second": {"stance": "march", "actions": [{"do": "move",
                                                                      "path": [[1, 2]]}]}})
    assert [e["unit"] for e in events_of(result, "move")] == ["second", "first"]


def test_an_advance_needs_a_movement_point_left() -> None:
    units = [{"id": "rifles", "player": "blue", "class": "rifle-company", "at": [0, 0],
              "stance": "advance", "grade": "elite"},
             {"id": "foe", "player": "red", "class": "scout-troop", "at": [2, 0],
              "strength": 10, "disorder": 90, "stance": "advance"}]   # no reaction
    world = world_of(base_scenario([". . . ."], units, rules={"fixed_draw": 999}))
    result = play(world, {"rifles": {"actions": [{"do": "move", "path": [[1, 0]]},
                                                 {"do": "assault", "target": [2, 0]}]}})
    assert events_of(result, "clash")[0]["outcome"]["tile_cleared"]
    assert not events_of(result, "advance")           # 2 points: one to move, one to assault
    assert result.world.units["rifles"].tile == 1


def test_a_battery_that_fired_does_not_support() -> None:
    units = [{"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 1],
              "stance": "hold"},
             {"id": "gun", "player": "blue", "class": "field-battery", "at": [1, 0],
              "stance": "advance"},
             {"id": "foe", "player": "red", "class": "rifle-company", "at": [1, 1]}]
    world = world_of(base_scenario([". . .", ". . .", ". . ."], units,
                                   tiles=[{"at": [1, 1], "works": 2}]))
    result = play(world, {"gun": {"actions": [{"do": "bombard", "target": [1, 1]}]},
                          "tank": {"actions": [{"do": "assault", "target": [1, 1],
                                                "supporters": ["gun"]}]}})
    clashes = events_of(result, "clash")
    assert [c["initiator"] for c in clashes] == ["gun", "tank"]       # advance before hold
    assert clashes[1]["plan"]["supporters"] == []
    assert clashes[1]["plan"]["ignored_supporters"] == ["gun"]       # CB-260


def test_a_broken_garrison_in_works_holds_shaken_whole() -> None:
    units = [{"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 0],
              "grade": "elite", "stance": "advance", "supply": "full"},
             {"id": "g1", "player": "red", "class": "rifle-company", "at": [1, 0],
              "strength": 90, "disorder": 90},
             {"id": "g2", "player": "red", "class": "scout-troop", "at": [1, 0]}]
    world = world_of(base_scenario([". . ."], units, rules={"fixed_draw": 999},
                                   tiles=[{"at": [1, 0], "works": 1}]))
    result = play(world, {"tank": {"actions": [{"do": "assault", "target": [1, 0]}]}})
    assert events_of(result, "clash")[0]["outcome"]["defender_breaks"]
    assert events_of(result, "hold_shaken")[0]["units"] == ["g1", "g2"]
    assert not events_of(result, "retreat") and not events_of(result, "advance")
    # shaken 2 after the clash, one less after the end of the turn (CB-1130)
    assert [result.world.units[u].shaken for u in ("g1", "g2")] == [1, 1]


def test_the_retreat_goes_to_the_lowest_score() -> None:
    # candidates of (1,1), the lead being on (0,1): the forest (2,0) scores -400 (cover,
    # no nearer to red's city at (3,2)); the open (2,1) and (2,2) score 50 - 2000 = -1950
    # (one step nearer the city); the tie goes to the lower tile index, (2,1) (CB-1320)
    rows = ["~ ~ f ~", ". . . ~", "~ ~ . u"]
    units = [{"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 1],
              "grade": "elite", "stance": "advance"},
             {"id": "r", "player": "red", "class": "rifle-company", "at": [1, 1],
              "strength": 90, "disorder": 90}]
    world = world_of(base_scenario(rows, units, rules={"fixed_draw": 999},
                                   tiles=[{"at": [3, 2], "city": {"owner": "red"}}]))
    result = play(world, {"tank": {"actions": [{"do": "assault", "target": [1, 1],
                                                "advance": False}]}})
    clash = events_of(result, "clash")[0]
    assert clash["plan"]["retreat_candidates"] == [[2, 0], [2, 1], [2, 2]]
    assert events_of(result, "retreat")[0]["to"] == [2, 1]


def test_a_screen_with_nowhere_to_go_is_caught() -> None:
    rows = ["~ ~ ~", ". . ~", "~ ~ ~"]
    units = [{"id": "tank", "player": "blue", "class": "armoured-battalion", "at": [0, 1]},
             {"id": "screen", "player": "red", "class": "scout-troop", "at": [1, 1],
              "withdraw_reflex": True}]
    result = play(world_of(base_scenario(rows, units)),
                  {"tank": {"actions": [{"do": "assault", "target": [1, 1]}]}})
    assert events_of(result, "caught") == [{"event": "caught", "unit": "screen",
                                            "tile": [1, 1]}]
    assert not events_of(result, "disengage")
    clash = events_of(result, "clash")[0]
    assert clash["outcome"]["spec"]["defender_extra_mods"] == -200          # CB-1860
    assert clash["outcome"]["spec"]["encircled"] is True
