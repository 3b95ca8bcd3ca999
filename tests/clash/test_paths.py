"""A path drawn on the board is judged by the Cascade's own step rule: every step the board
refuses is the step the turn skips, for the same reason, and a path the board accepts is
walked step by step (CB-340, CB-2020)."""

from __future__ import annotations

from typing import Any

import pytest

from fairfight.clash.paths import move_path
from fairfight.clash.steps import step_problem

from .world_helpers import base_scenario, events_of, play, world_of

ROWS = [". ~ . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . ."]


def _rifles(uid: str, at: list[int], **extra: Any) -> dict[str, Any]:
    return {"id": uid, "player": "blue", "class": "rifle-company", "at": at, **extra}


UNITS = [
    _rifles("mover", [0, 1]),
    _rifles("dug-in", [0, 3], stance="entrench"),
    _rifles("next-to-red", [6, 3]),
    *(_rifles(f"stack-{n}", [2, 2]) for n in range(3)),   # stacking 3: the tile is full
    {"id": "red", "player": "red", "class": "rifle-company", "at": [7, 3],
     "stance": "advance"},
]

CASES = {   # unit, path, the one reason both give
    "not adjacent": ("mover", [[2, 1]], "[2, 1] is not adjacent"),
    "water": ("mover", [[1, 0]], "[1, 0] is not passable"),
    "enemy": ("next-to-red", [[7, 3]], "[7, 3] holds enemy units"),
    "entrenched": ("dug-in", [[1, 3]], "an entrenched unit does not move"),
    "full": ("mover", [[1, 1], [2, 2]], "[2, 2] is full"),
    "movement": ("mover", [[1, 1], [2, 1], [3, 1]], "no movement point left"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_board_refuses_the_step_the_turn_skips_for_the_same_reason(case: str) -> None:
    world = world_of(base_scenario(ROWS, UNITS))
    unit, path, reason = CASES[case]
    steps = move_path(world, unit, [world.board.index(*p) for p in path])
    assert [s.problem for s in steps[:-1]] == [None] * (len(steps) - 1)
    assert steps[-1].problem == reason
    result = play(world, {unit: {"actions": [{"do": "move", "path": path}]}})
    assert [e["reason"] for e in events_of(result, "skipped")] == [reason]
    assert len(events_of(result, "move")) == len(path) - 1


def test_a_path_the_board_accepts_is_walked_step_by_step() -> None:
    world = world_of(base_scenario(ROWS, UNITS))
    path = [[1, 1], [2, 1]]
    steps = move_path(world, "mover", [world.board.index(*p) for p in path])
    assert [(s.cost, s.problem) for s in steps] == [(1, None), (2, None)]
    moves = events_of(play(world, {"mover": {"actions": [{"do": "move", "path": path}]}}),
                      "move")
    assert [e["to"] for e in moves] == path


def test_an_entrenched_unit_steps_out_of_its_works_only_by_abandoning() -> None:
    world = world_of(base_scenario(ROWS, UNITS))
    dug_in = world.units["dug-in"]
    out = world.board.index(1, 3)
    assert step_problem(world, dug_in, dug_in.tile, out, 2) == \
        "an entrenched unit does not move"
    assert step_problem(world, dug_in, dug_in.tile, out, 2, abandoning=True) is None
