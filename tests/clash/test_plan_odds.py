"""Plan odds against brute force: every sequence of draws played by the turn itself.

The brute force below knows nothing of outcome classes, merged states or independent
groups: it plays `run_turn` once for every sequence of draws of a small die (each exchange
of the turn takes the next draw of the sequence, the sequence growing whenever the turn asks
for one more), and counts the end states. The engine's count must give exactly the same
fractions. The die is reduced to six draws so the brute force stays cheap (6^3 turns);
the class grouping over the full 1000 draws is checked on its own against every draw.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from fairfight.clash import tables as t
from fairfight.clash import turn as turn_module
from fairfight.clash.engagement import AttackOrder, plan_clash
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.orders import parse_orders
from fairfight.clash.plan_odds import (
    PlanOdds,
    exchange_classes,
    plan_odds_in_view,
)
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World

from .world_helpers import base_scenario, example_world, world_of

DIE = (0, 190, 380, 570, 760, 999)


class _NeedMore(Exception):
    pass


def _brute_force(world: World, orders: dict[str, Any], player: str,
                 monkeypatch: pytest.MonkeyPatch) -> list[tuple[World, Fraction]]:
    """Every end state of the turn over every sequence of draws of the die."""
    parsed = parse_orders(world, orders)
    ends: list[tuple[World, Fraction]] = []

    def play(sequence: tuple[int, ...]) -> Iterator[tuple[World, Fraction]]:
        feed = iter(sequence)

        def draw(_world: World, _unit: Any) -> int:
            r = next(feed, None)
            if r is None:
                raise _NeedMore
            return r

        with monkeypatch.context() as patch:
            patch.setattr(turn_module, "clash_draw", draw)
            try:
                result = run_turn(world, parsed)
            except _NeedMore:
                result = None
        if result is None:
            for r in DIE:
                yield from play((*sequence, r))
            return
        yield result.world, Fraction(1, len(DIE) ** len(sequence))

    ends.extend(play(()))
    assert sum(p for _, p in ends) == 1
    return ends


def _check(world: World, orders: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> PlanOdds:
    odds = plan_odds_in_view(world, "blue", parse_orders(world, orders), draws=DIE)
    assert odds.refused is None
    ends = _brute_force(world, orders, "blue", monkeypatch)
    for objective in odds.objectives:
        tile = world.board.index(*objective.tile)
        expected = sum((p for w, p in ends if not w.hostile_at("blue", tile)), Fraction(0))
        assert objective.taken == expected, objective
    for uid, survives in odds.survival:
        assert survives == sum((p for w, p in ends if uid in w.units), Fraction(0)), uid
    assert odds.joint is not None
    for tiles, chance in odds.joint:
        indices = {world.board.index(*xy) for xy in tiles}
        targets = {world.board.index(*o.tile) for o in odds.objectives}
        assert chance == sum((p for w, p in ends if {
            tile for tile in targets if not w.hostile_at("blue", tile)} == indices),
            Fraction(0)), tiles
    return odds


def _unit(uid: str, player: str, cls: str, at: list[int], **extra: Any) -> dict[str, Any]:
    return {"id": uid, "player": player, "class": cls, "at": at, "supply": "full",
            "grade": "trained", "stance": "hold"} | extra


def _field() -> World:
    """Two fights four tiles apart: the tank, then the worn rifles, on the red rifles dug in
    the wood at (2,1); the blue scouts on the red scouts dug in on the hill at (7,1). Each
    can go either way on the small die."""
    dug_in = {"strength": 100, "dig_in": 2}
    return world_of(base_scenario([". . . . . . . . .", ". . f . . . . h .",
                                   ". . . . . . . . ."], [
        _unit("tank-1", "blue", "armoured-battalion", [1, 1], strength=60),
        _unit("rifles-1", "blue", "rifle-company", [1, 2], strength=15),
        _unit("scouts-1", "blue", "scout-troop", [6, 1], strength=40),
        _unit("r-rifles", "red", "rifle-company", [2, 1], **dug_in),
        _unit("r-scouts", "red", "scout-troop", [7, 1], **dug_in),
    ]))


ASSAULT = {"stance": "advance", "actions": [
    {"do": "assault", "target": [2, 1], "supporters": []}]}


def test_three_assaults_two_on_one_tile_equal_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    orders = {"tank-1": ASSAULT, "rifles-1": ASSAULT, "scouts-1": {
        "stance": "advance", "actions": [{"do": "assault", "target": [7, 1]}]}}
    odds = _check(_field(), orders, monkeypatch)
    assert odds.groups == 2
    assert any(0 < o.taken < 1 for o in odds.objectives)   # not a case that cannot fail


def test_a_move_under_a_reaction_then_an_assault_equal_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scouts step next to the red scouts (in Hold: they react), then assault them."""
    orders = {"scouts-1": {"stance": "advance", "actions": [
        {"do": "move", "path": [[6, 0]]}, {"do": "assault", "target": [7, 1]}]},
        "tank-1": ASSAULT}
    odds = _check(_field(), orders, monkeypatch)
    assert 0 < dict(odds.survival)["scouts-1"] < 1


def test_the_siege_guns_then_armour_equal_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    world = example_world("siege.yaml")
    world.rules = world.rules.model_copy(update={"fixed_draw": None})
    fire = {"stance": "hold", "priority": 1, "actions": [{"do": "bombard", "target": [2, 2]}]}
    orders = {"gun-1": fire, "tank-1": {"stance": "advance", "actions": [
        {"do": "assault", "target": [2, 2], "supporters": "auto"}]}}
    odds = _check(world, orders, monkeypatch)
    assert odds.outcomes > len(DIE)   # two exchanges in a chain, each branching


def test_the_classes_over_every_draw_match_resolution_at_each_draw() -> None:
    """Grouping the 1000 draws by the exchange's results loses nothing the turn reads: every
    draw of a class resolves to the same losses, states and fate as its representative."""
    world = _field()
    plan = plan_clash(world, AttackOrder(t.Kind.ASSAULT, "tank-1", world.board.index(2, 1), ()))
    assert plan is not None
    classes = exchange_classes(plan.spec, range(1000))
    assert sum(n for _, n in classes) == 1000 and len(classes) > 2

    def state(r: int) -> Any:
        out = resolve_exchange(plan.spec, r)
        return (out.fate, out.tile_cleared, out.lead, out.defender, out.lead_barred,
                out.carried_over)

    by_state: dict[Any, int] = {}
    for r in range(1000):
        by_state[state(r)] = by_state.get(state(r), 0) + 1
    grouped: dict[Any, int] = {}
    for r, n in classes:
        grouped[state(r)] = grouped.get(state(r), 0) + n
    assert grouped == by_state


def test_a_plan_too_large_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The siege in full needs thousands of outcomes; with the limit lowered to 50 (to keep
    the test cheap) it is refused, naming the limit."""
    module = importlib.import_module("fairfight.clash.plan_odds")   # the module, not the function
    monkeypatch.setattr(module, "MAX_PLAN_OUTCOMES", 50)
    world = example_world("siege.yaml")
    world.rules = world.rules.model_copy(update={"fixed_draw": None})
    fire = {"stance": "hold", "priority": 1, "actions": [{"do": "bombard", "target": [2, 2]}]}
    attack = {"stance": "advance", "actions": [{"do": "assault", "target": [2, 2]}]}
    orders = {"gun-1": fire, "gun-2": fire, "gun-3": fire, "tank-1": attack, "tank-2": attack}
    odds = plan_odds_in_view(world, "blue", parse_orders(world, orders))
    assert odds.refused is not None and "\n" not in odds.refused
    assert "limit of 50;" in odds.refused and odds.objectives == ()


def test_an_unseen_defender_is_not_guessed() -> None:
    world = _field()
    orders = parse_orders(world, {"scouts-1": {"actions": [{"do": "assault", "target": [5, 1]}]}})
    odds = plan_odds_in_view(world, "blue", orders, draws=DIE)
    assert odds.objectives == () and "not guessed" in odds.notes[0]


def test_the_docs_state_the_limits_of_the_code() -> None:
    """The limit a player reads in the docs is the constant the count enforces."""
    from pathlib import Path

    from fairfight.clash.plan_limits import GROUP_REACH, JOINT_LIMIT, MAX_PLAN_OUTCOMES
    docs = (Path(__file__).resolve().parents[2] / "docs" / "clash.md").read_text("utf-8")
    assert f"more than {MAX_PLAN_OUTCOMES:,} exchange outcomes" in docs
    assert f"more than {GROUP_REACH} tiles apart" in docs
    assert f"at most {JOINT_LIMIT} rows" in docs
