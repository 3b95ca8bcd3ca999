"""Properties of whole turns on generated boards: the board stays legal, every clash's
specification is exactly the one rebuilt from the board at that moment's data, encirclement
is the empty candidate set, and the preview band holds the resolved losses."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fairfight.clash.ai import ai_orders
from fairfight.clash.generate import generate_scenario
from fairfight.clash.preview import preview
from fairfight.clash.record import merge_orders
from fairfight.clash.spec import parse_spec
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World
from tests.clash.world_helpers import world_of


def _legal(world: World) -> None:
    per_tile = Counter(u.tile for u in world.units.values())
    assert max(per_tile.values(), default=0) <= world.rules.stacking
    for tile, units in world.occupants.items():
        assert {world.sides[u.player] for u in units} and len(
            {world.sides[u.player] for u in units}) == 1
        assert all(u.tile == tile for u in units)
        assert all(world.passable(u.cls, tile) for u in units)
    for unit in world.units.values():
        assert 1 <= unit.strength <= 100 and 0 <= unit.disorder <= 100
        assert 0 <= unit.dig_in <= 4 and 0 <= unit.shaken <= 2 and 0 <= unit.xp <= 999


@settings(max_examples=8)
@given(key=st.text(alphabet="abcdefgh", min_size=1, max_size=6),
       size=st.integers(min_value=8, max_value=12))
def test_ai_turns_keep_the_board_legal_and_the_events_consistent(key: str, size: int) -> None:
    world = world_of(generate_scenario(key, width=size, height=size, per_side=8))
    for _ in range(4):
        result = run_turn(world, merge_orders([ai_orders(world, p) for p in world.sides]))
        for event in result.events:
            if event["event"] != "clash":
                continue
            spec = parse_spec(event["outcome"]["spec"])
            assert spec.encircled == (event["plan"]["retreat_candidates"] == [])
            view = preview(spec, defender_in_city=event["plan"]["defender_in_city"])
            assert view.ld_band.contains(event["outcome"]["ld"])
            assert view.la_band.contains(event["outcome"]["la"])
            if event["outcome"]["fate"] == "routed":
                assert event["plan"]["retreat_candidates"] == []
        _legal(result.world)
        world = result.world
