"""The end of a game, decided from the world alone: each victory condition on a hand-built
board whose answer is worked out by hand in the comments."""

from __future__ import annotations

from typing import Any

import pytest

from fairfight.clash.ending import game_end
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.victory import DEFAULT_TURN_LIMIT, VictoryModel
from fairfight.clash.vocabulary import EndReason
from fairfight.clash.world import World, world_from_scenario
from fairfight.core.errors import InputError
from tests.clash.world_helpers import play


def _scenario(**victory: Any) -> dict[str, Any]:
    """Two cities (Ashford held by blue, Brill by red); blue 2 units (100 + 60), red 2 units
    (1 + 80); red's weak unit stands next to blue's armour."""
    return {
        "name": "Two Towns", "seed_key": "two-towns",
        "board": {"rows": [". . . . .", ". . . . .", ". . . . ."],
                  "tiles": [{"at": [0, 0], "name": "Ashford", "city": {"owner": "blue"}},
                            {"at": [4, 0], "name": "Brill", "city": {"owner": "red"}}]},
        "players": [{"id": "blue"}, {"id": "red"}],
        "units": [
            {"id": "b-tank", "player": "blue", "class": "armoured-battalion", "at": [1, 1],
             "stance": "advance"},
            {"id": "b-rifles", "player": "blue", "class": "rifle-company", "at": [0, 2],
             "strength": 60},
            {"id": "r-weak", "player": "red", "class": "rifle-company", "at": [2, 2],
             "strength": 1, "disorder": 90},
            {"id": "r-guard", "player": "red", "class": "rifle-company", "at": [4, 0],
             "strength": 80},
        ],
        **({"victory": victory} if victory else {}),
    }


def _world(**victory: Any) -> World:
    return world_from_scenario(parse_scenario(_scenario(**victory)))


def _after(world: World, turns: int, *, gone: tuple[str, ...] = (),
           owners: dict[int, str] | None = None) -> World:
    """The world as if `turns` turns were played, with units removed and cities retaken."""
    later = world.copy()
    later.turn += turns
    for unit_id in gone:
        later.remove(later.units[unit_id])
    later.city_owner.update(owners or {})
    return later


def test_a_game_that_has_just_begun_goes_on() -> None:
    assert game_end(_world()) is None
    assert VictoryModel().turn_limit == DEFAULT_TURN_LIMIT and VictoryModel().last_unit


def test_the_last_side_standing_wins_with_its_summary() -> None:
    end = game_end(_after(_world(), 3, gone=("r-weak", "r-guard")))
    assert end is not None
    assert (end.winner, end.reason, end.turn, end.turns_played) == (
        "blue", EndReason.LAST_UNIT, 3, 3)
    assert end.words == "blue wins: red has no unit left on the board"
    blue, red = end.sides
    # blue lost nothing: 2 units, 100 + 60 strength, Ashford; red lost both, 1 + 80 strength,
    # and still holds Brill (combat never takes a city, only entering it does)
    assert (blue.units_lost, blue.units_left, blue.strength_left, blue.cities) == (0, 2, 160, 1)
    assert (red.units_lost, red.units_left, red.strength_lost, red.cities) == (2, 0, 81, 1)


def test_no_unit_left_at_all_is_a_draw() -> None:
    end = game_end(_after(_world(), 1, gone=("b-tank", "b-rifles", "r-weak", "r-guard")))
    assert end is not None and end.winner is None and end.words.startswith("a draw: ")


def test_without_the_last_unit_rule_the_game_goes_on_to_the_limit() -> None:
    world = _world(last_unit=False, turn_limit=4)
    assert game_end(_after(world, 3, gone=("r-weak", "r-guard"))) is None
    end = game_end(_after(world, 4, gone=("r-weak", "r-guard")))
    assert end is not None and end.reason is EndReason.TURN_LIMIT


def test_a_resignation_ends_it_for_the_other_side() -> None:
    end = game_end(_world(), resigned=("red",))
    assert end is not None
    assert (end.winner, end.reason, end.turns_played) == ("blue", EndReason.RESIGNATION, 0)
    assert end.words == "blue wins: red resigned"


def test_cities_at_turn_count_the_named_cities() -> None:
    world = _world(cities_at_turn=3)
    assert game_end(_after(world, 2)) is None          # turn 3 is being played
    tied = game_end(_after(world, 3))                  # turn 3 played: 1 city each
    assert tied is not None and tied.winner is None and tied.reason is EndReason.CITIES
    assert tied.words == "a draw: cities held after turn 3: blue 1, red 1"
    taken = game_end(_after(world, 3, owners={4: "blue"}))   # Brill (4,0) is tile 4
    assert taken is not None and taken.winner == "blue"
    only_brill = game_end(_after(_world(cities_at_turn=3, cities=[[4, 0]]), 3))
    assert only_brill is not None and only_brill.winner == "red"   # only Brill counts


def test_the_turn_limit_goes_to_cities_then_strength() -> None:
    world = _world(turn_limit=2)
    assert game_end(_after(world, 1)) is None
    # cities 1-1, strength blue 160, red 81: blue
    end = game_end(_after(world, 2))
    assert end is not None and end.winner == "blue" and end.reason is EndReason.TURN_LIMIT
    # blue loses its armour (left 60), red 81: red
    assert game_end(_after(world, 2, gone=("b-tank",))).winner == "red"  # type: ignore[union-attr]


def test_a_played_turn_ends_the_game_when_red_is_wiped_out() -> None:
    """The armour assaults the 1-strength, 90-disorder remnant (r-guard removed beforehand):
    any draw destroys it, and red is left with nothing."""
    world = _after(_world(), 0, gone=("r-guard",))
    result = play(world, {"b-tank": {"actions": [{"do": "assault", "target": [2, 2]}]}})
    end = game_end(result.world)
    assert end is not None and end.winner == "blue" and end.turn == 1


@pytest.mark.parametrize("victory, field", [
    ({"cities": [[1, 1]]}, "victory.cities[0]"),
    ({"turn_limit": 301}, "victory.turn_limit"),
    ({"turn_limit": 0}, "victory.turn_limit"),
    ({"sudden_death": True}, "victory.sudden_death"),
])
def test_bad_victory_conditions_name_the_field(victory: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_scenario(_scenario(**victory))
    assert caught.value.field == field


def test_the_conditions_in_words() -> None:
    assert VictoryModel().describe() == (
        "the last side with units on the board wins; at most 100 turns are played")
    assert VictoryModel(last_unit=False, cities_at_turn=6, cities=[(3, 2)],
                        turn_limit=20).describe() == (
        "after turn 6 the side holding most of the named city wins; "
        "at most 20 turns are played")
