"""A turn's work is estimated before it runs: the estimate is the count the AI then makes,
a dense front is planned with the bounded search, and a turn over budget even so is refused."""

from __future__ import annotations

import itertools
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.clash import tables as t
from fairfight.clash.engagement import AttackOrder, ClashPlan, eligible_supporters, plan_clash
from fairfight.clash.knowledge import attack_candidates, knowledge_view
from fairfight.clash.scenario import load_scenario, parse_scenario
from fairfight.clash.spec import stance_may_initiate
from fairfight.clash.workload import (
    DEFAULT_TURN_WORK,
    SUPPORT_CHOICES,
    check_orders_work,
    orders_work,
    plan_turn_work,
    planning_work,
)
from fairfight.clash.world import World, world_from_scenario
from fairfight.cli import app
from fairfight.core.errors import InputError
from tests.clash.dense_front import dense_front

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "examples" / "clash" / "scenarios").iterdir())


def _front(units: int, rows: int = 10) -> World:
    return world_from_scenario(parse_scenario(dense_front(units, rows=rows)))


def _counted(world: World, support_choices: int | None = None) -> int:
    """The plans the AI really builds for every player."""
    return sum(len(attack_candidates(knowledge_view(world, player), player, combinations=True,
                                     support_choices=support_choices))
               for player in world.sides)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_estimate_is_the_count_of_plans_on_the_shipped_scenarios(path: Path) -> None:
    world = world_from_scenario(load_scenario(path))
    assert planning_work(world, world.sides) == _counted(world) > 0


def test_the_estimate_is_the_count_of_plans_on_a_dense_front() -> None:
    world = _front(60)
    assert planning_work(world, world.sides) == _counted(world)
    bounded = planning_work(world, world.sides, SUPPORT_CHOICES)
    assert bounded == _counted(world, SUPPORT_CHOICES)
    assert bounded < planning_work(world, world.sides)


def test_a_turn_within_budget_runs_the_full_search() -> None:
    world = _front(60)
    work = plan_turn_work(world, world.sides, {})
    assert work.support_choices is None and work.plans == _counted(world)


def test_a_dense_front_over_budget_runs_the_bounded_search() -> None:
    world = _front(60)
    full = planning_work(world, world.sides)
    work = plan_turn_work(world, world.sides, {}, budget=full - 1)
    assert work.support_choices == SUPPORT_CHOICES
    assert work.plans == _counted(world, SUPPORT_CHOICES)


def test_a_turn_over_budget_even_bounded_is_refused_with_its_numbers() -> None:
    world = _front(60)
    bounded = planning_work(world, world.sides, SUPPORT_CHOICES)
    with pytest.raises(InputError) as caught:
        plan_turn_work(world, world.sides, {}, budget=bounded - 1)
    assert caught.value.field == "--max-work"
    assert f"{bounded:,}" in caught.value.rule and f"--max-work {bounded}" in caught.value.rule


def test_the_1000_unit_front_is_estimated_without_planning() -> None:
    world = _front(1000, rows=50)
    full = planning_work(world, world.sides)
    bounded = planning_work(world, world.sides, SUPPORT_CHOICES)
    assert full > DEFAULT_TURN_WORK >= bounded   # the default budget plays it, bounded
    pairs = planning_work(world, world.sides, 0)   # one plan a lead and target: no supporters
    assert pairs < bounded <= 11 * pairs   # none, one or two of four supporters: 1 + 4 + 6


def test_orders_work_counts_actions_and_steps_and_survives_any_shape() -> None:
    orders = {"a": {"actions": [{"do": "move", "path": [[0, 0], [1, 0], [2, 0]]},
                                {"do": "assault"}]},
              "b": {"actions": "nonsense"}, "c": 7, "d": {"actions": [3, {"path": 5}]}}
    assert orders_work(orders) == 3 + 1 + 1 + 1
    many = {"a": {"actions": [{"do": "move", "path": [[0, 0]] * 1001}]}}
    with pytest.raises(InputError, match="1001 actions and steps"):
        check_orders_work(many)


def test_clash_play_refuses_an_over_budget_turn_before_any_work(tmp_path: Path) -> None:
    scenario = tmp_path / "front.json"
    scenario.write_text(json.dumps(dense_front()), "utf-8")
    record = tmp_path / "game.jsonl"
    result = CliRunner().invoke(app, ["clash", "play", str(scenario), "--record", str(record),
                                      "--max-work", "1000"])
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.splitlines()
    assert "154,480 AI plans" in line and "--max-work" in line
    assert not record.exists()


@pytest.mark.slow
def test_the_1000_unit_front_plays_a_turn_within_500_mb(tmp_path: Path) -> None:
    scenario = tmp_path / "front.json"
    scenario.write_text(json.dumps(dense_front()), "utf-8")
    record = tmp_path / "game.jsonl"
    done = subprocess.run([sys.executable, "-m", "fairfight", "clash", "play", str(scenario),
                           "--turns", "1", "--record", str(record), "--json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kb < 500 * 1024
    replayed = subprocess.run([sys.executable, "-m", "fairfight", "clash", "replay",
                               str(record)], capture_output=True, text=True, check=False)
    assert replayed.returncode == 0, replayed.stderr


def _one_at_a_time(view: World, player: str) -> list[ClashPlan]:
    """The AI's plans built the plain way: `plan_clash` for every choice of supporters."""
    plans = []
    for unit in list(view.units.values()):
        if unit.player != player or unit.cls.atk == 0 or unit.strength < 1:
            continue
        stance = unit.stance
        if not stance_may_initiate(stance):
            unit.stance = t.Stance.ADVANCE
        for target in view.board.neighbours[unit.tile]:
            if not view.hostile_at(player, target):
                continue
            ids = [u.id for u in eligible_supporters(view, unit, target)]
            for choice in [(), *((i,) for i in ids), *itertools.combinations(ids, 2)]:
                plan = plan_clash(view, AttackOrder(t.Kind.ASSAULT, unit.id, target, choice))
                if plan is not None:
                    plans.append(plan)
        unit.stance = stance
    return plans


@pytest.mark.parametrize("world", ["belvoir-wood", "siege", "front"])
def test_plans_built_together_equal_plans_built_one_at_a_time(world: str) -> None:
    found = (_front(60) if world == "front"
             else world_from_scenario(load_scenario(SCENARIOS[0].parent / f"{world}.yaml")))
    for player in found.sides:
        view = knowledge_view(found, player)
        together = attack_candidates(view, player, combinations=True)
        alone = _one_at_a_time(view, player)
        assert len(together) == len(alone) > 0
        for built, plain in zip(together, alone, strict=True):
            assert built == plain
            assert built.spec.column_row() == plain.spec.column_row()
