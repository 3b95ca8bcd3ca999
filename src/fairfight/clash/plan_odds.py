"""Plan odds: the exact distribution of a whole turn's orders, not one attack at a time.

The side's written orders are played on its knowledge view by the Cascade itself, in the
order the engine will run them, so an earlier assault changes a later one exactly as it
will in the turn [CB-270]. At each exchange the 1000 draws are grouped by what they decide
(the defender's and the lead's losses, the break and the falter: everything the
consequences read), and the turn goes on once per group, weighted by its count of draws;
states that end an activation alike are merged. So the count runs over the distinct outcome
states of each exchange, never over 1000^k draws.

Orders far enough apart to share no unit (no tile of one within `GROUP_REACH` of a tile of
another) are counted apart and combined as independent. A plan whose count would visit more
than `MAX_PLAN_OUTCOMES` exchange outcomes is refused in one line rather than estimated.
Only what the side knows is used: an enemy it has not seen is not guessed at, and its
unknown orders are not foreseen (it stands in the Stance the view shows).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.activation import activation_order
from fairfight.clash.batch import columns_from_specs
from fairfight.clash.engagement import ClashPlan
from fairfight.clash.exchange import Outcome, resolve_exchange
from fairfight.clash.invariants import every_draw
from fairfight.clash.knowledge import check_player, knowledge_view
from fairfight.clash.orders import (
    AbandonAction,
    AssaultAction,
    BombardAction,
    MoveAction,
    TurnOrders,
    UnitOrders,
)
from fairfight.clash.plan_groups import independent_groups
from fairfight.clash.plan_limits import GROUP_REACH, JOINT_LIMIT, MAX_PLAN_OUTCOMES
from fairfight.clash.spec import ClashSpec
from fairfight.clash.turn import _Cascade
from fairfight.clash.world import Unit, World, chebyshev

__all__ = [
    "ALL_DRAWS",
    "GROUP_REACH",
    "JOINT_LIMIT",
    "MAX_PLAN_OUTCOMES",
    "ObjectiveOdds",
    "PlanOdds",
    "PlanTooLarge",
    "exchange_classes",
    "final_classes",
    "plan_odds",
    "plan_odds_in_view",
    "refusal_text",
]

ALL_DRAWS: tuple[int, ...] = tuple(range(t.DRAWS))
"""The draws of the game's die [CB-800]."""


def refusal_text(needed: str) -> str:
    """The one-line refusal of a plan too large to count exactly."""
    limit = _limit()
    return (f"plan odds: the plan needs {needed} exchange outcomes to count exactly, over "
            f"the limit of {limit:,}; order fewer assaults on the same tiles")


def _limit() -> int:
    """The limit in force (read at each use, so a test may lower it)."""
    return MAX_PLAN_OUTCOMES


class PlanTooLarge(Exception):
    """The count passed `MAX_PLAN_OUTCOMES`."""


class _Branch(Exception):
    """The Cascade reached an exchange whose draw is not fixed yet."""

    def __init__(self, plan: ClashPlan, lead: str) -> None:
        super().__init__("branch")
        self.plan = plan
        self.lead = lead


def exchange_classes(spec: ClashSpec, draws: Sequence[int]) -> list[tuple[int, int]]:
    """The draws grouped by everything the consequences read (losses, break, falter):
    one representative draw and the count of draws for each distinct result."""
    x = every_draw(columns_from_specs([spec]))
    keys = np.stack([np.asarray(x.ld)[0], np.asarray(x.la)[0],
                     np.asarray(x.defender_breaks)[0].astype(np.int64),
                     np.asarray(x.attacker_falters)[0].astype(np.int64)], axis=1)
    classes: dict[tuple[int, ...], list[int]] = {}
    for r in draws:
        found = classes.setdefault(tuple(int(v) for v in keys[r]), [r, 0])
        found[1] += 1
    return [(r, count) for r, count in classes.values()]


def final_classes(plan: ClashPlan, draws: Sequence[int]) -> list[tuple[int, int]]:
    """The draws grouped more coarsely, for the last exchange of a group: by what decides
    the plan's answer once nothing acts after it (the break and the defender's fate, whether
    the tile is cleared, which participants are destroyed, the loss carried to the stack)."""
    merged: dict[tuple[Any, ...], list[int]] = {}
    for r, count in exchange_classes(plan.spec, draws):
        out = resolve_exchange(plan.spec, r, defender_in_city=plan.defender_in_city)
        key = (bool(out.exchange.defender_breaks), out.fate, out.tile_cleared,
               out.lead.strength == 0, tuple(u.strength == 0 for u in out.supporters),
               out.carried_over)
        found = merged.setdefault(key, [r, 0])
        found[1] += count
    return [(r, count) for r, count in merged.values()]


def _last_attack(orders: UnitOrders) -> bool:
    """Whether the unit's one assault or bombardment is its last action (so its exchange is
    the last of its activation: advances and retreats draw no reaction)."""
    attacks = [a for a in orders.actions if isinstance(a, AssaultAction | BombardAction)]
    return len(attacks) == 1 and orders.actions[-1] is attacks[0]


class _FedCascade(_Cascade):
    """The Cascade with its draws given in order; a clash past them asks to branch."""

    def __init__(self, world: World, draws: tuple[int, ...]) -> None:
        super().__init__(world)
        self.feed = iter(draws)

    def clash(self, lead: Unit, plan: ClashPlan, *, advance: bool) -> Outcome:
        r = next(self.feed, None)
        if r is None:
            raise _Branch(plan, lead.id)
        rules = self.w.rules
        self.w.rules = rules.model_copy(update={"fixed_draw": r})
        try:
            return super().clash(lead, plan, advance=advance)
        finally:
            self.w.rules = rules


@dataclass
class _Count:
    """Work done so far, against the limit."""

    draws: Sequence[int]
    outcomes: int = 0

    def spend(self, n: int) -> None:
        self.outcomes += n
        if self.outcomes > _limit():
            raise PlanTooLarge(self.outcomes)


def _activation_outcomes(world: World, uid: str, orders: UnitOrders, count: _Count,
                         final: bool = False) -> Iterator[tuple[World, Fraction]]:
    """Every distinct way the unit's activation can end, with its chance; for the group's
    `final` activation, its own last attack is grouped by `final_classes`."""
    coarse = final and _last_attack(orders)
    pending: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while pending:
        fed, chance = pending.pop()
        copy = world.copy()
        unit = copy.units.get(uid)
        try:
            if unit is not None and not unit.activated:
                _FedCascade(copy, fed).activate(unit, orders)
        except _Branch as branch:
            classes = (final_classes(branch.plan, count.draws)
                       if coarse and branch.lead == uid else
                       exchange_classes(branch.plan.spec, count.draws))
            count.spend(len(classes))
            total = len(count.draws)
            pending += [((*fed, r), chance * Fraction(n, total)) for r, n in classes]
            continue
        yield copy, chance


@dataclass(frozen=True, slots=True)
class _Ahead:
    """What the group's later activations can read: their units (and named supporters),
    the tiles they assault or fire at, and the tiles they stand on or walk through."""

    units: frozenset[str]
    targets: tuple[int, ...]
    walked: tuple[int, ...]

    def reads(self, world: World, unit: Unit, player: str) -> bool:
        """Whether a later activation may read more of the unit than where it stands (and
        that it lives): it acts or is named to support; an enemy stands on a later target
        (the stack) or next to a walked tile (a reactor); one of the side's units stands
        next to a later target (a supporter) [CB-370, CB-1770]."""
        if unit.id in self.units:
            return True
        width = world.board.width
        if world.allied(unit.player, player):
            return any(chebyshev(width, unit.tile, tile) <= 1 for tile in self.targets)
        return unit.tile in self.targets or any(
            chebyshev(width, unit.tile, tile) <= 1 for tile in self.walked)


def _ahead(world: World, later: list[str], given: dict[str, UnitOrders]) -> _Ahead:
    units, targets, walked = set(later), set(), set()
    board = world.board
    for uid in later:
        walked.add(world.units[uid].tile)
        for action in given[uid].actions:
            if isinstance(action, MoveAction):
                walked |= {board.index(*p) for p in action.path}
            elif isinstance(action, AbandonAction):
                walked.add(board.index(*action.to))
            else:
                targets.add(board.index(*action.target))
                if isinstance(action, AssaultAction) and action.supporters != "auto":
                    units |= set(action.supporters)
    return _Ahead(frozenset(units), tuple(sorted(targets)), tuple(sorted(walked)))


def _state_key(world: World, player: str, ahead: _Ahead) -> tuple[Any, ...]:
    """What can still matter of a state: a unit in full only while a later activation may
    read it; otherwise only where it stands (or that it is gone). The side's units that have
    activated can neither lead, support nor move again [CB-370]."""
    units: list[tuple[Any, ...]] = []
    for u in world.units.values():
        if (u.activated and world.allied(u.player, player)) or not ahead.reads(world, u, player):
            units.append((u.id, u.tile))
            continue
        units.append((u.id, u.tile, u.strength, u.disorder, u.xp, u.shaken, u.dig_in,
                      u.stance, u.mp, u.activated, u.supported, u.shots, u.moved, u.fought,
                      u.initiated, u.barred, u.disengaged, u.retreated, u.halted,
                      u.reaction_used, u.ordinal, u.turn_xp, tuple(sorted(u.fought_with))))
    return tuple(units), tuple(sorted(world.city_owner.items(), key=lambda i: i[0]))


def _count_group(start: World, player: str, places: list[str], group: set[str],
                 given: dict[str, UnitOrders], count: _Count) -> list[tuple[World, Fraction]]:
    """The distinct end states of one group's orders, with their chances: the Cascade's
    places walked in order, the other units taking their slots without acting [CB-370]."""
    states: list[tuple[World, Fraction]] = [(start.copy(), Fraction(1))]
    order = [uid for uid in places if uid in group]
    last = max(index for index, uid in enumerate(places) if uid in group)
    for index, uid in enumerate(places):
        if uid not in group:
            for world, _ in states:
                if uid in world.units:
                    world.units[uid].activated = True
            continue
        merged: dict[tuple[Any, ...], tuple[World, Fraction]] = {}
        ahead = _ahead(start, order[order.index(uid) + 1:], given)
        for world, chance in states:
            for after, part in _activation_outcomes(world, uid, given[uid], count,
                                                    final=index == last):
                key = _state_key(after, player, ahead)
                seen = merged.get(key)
                merged[key] = (after, part * chance) if seen is None else (
                    seen[0], seen[1] + part * chance)
        states = list(merged.values())
    return states


@dataclass(frozen=True, slots=True)
class ObjectiveOdds:
    """An assaulted tile and the chance it holds no enemy when the plan has run."""

    tile: tuple[int, int]
    units: tuple[str, ...]
    """The side's units ordered to assault it."""
    taken: Fraction


@dataclass(frozen=True, slots=True)
class PlanOdds:
    """The whole plan's odds: each objective, each unit's survival, the joint distribution of
    the objectives where it is small, and what was left out; or a refusal."""

    objectives: tuple[ObjectiveOdds, ...] = ()
    survival: tuple[tuple[str, Fraction], ...] = ()
    joint: tuple[tuple[tuple[tuple[int, int], ...], Fraction], ...] | None = None
    """Each set of objectives taken together, with its chance; None when too many."""
    groups: int = 0
    outcomes: int = 0
    """Exchange outcomes visited (the measure the limit is stated in)."""
    notes: tuple[str, ...] = ()
    refused: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data; each chance as exact "n/d" text and as whole per-mille (floor)."""
        return {
            "objectives": [{"tile": list(o.tile), "units": list(o.units),
                            **_chance("taken", o.taken)} for o in self.objectives],
            "survival": [{"unit": unit, **_chance("survives", p)}
                         for unit, p in self.survival],
            "joint": None if self.joint is None else [
                {"taken": [list(tile) for tile in tiles], **_chance("chance", p)}
                for tiles, p in self.joint],
            "groups": self.groups, "outcomes": self.outcomes, "limit": _limit(),
            "notes": list(self.notes), "refused": self.refused}


def _chance(name: str, p: Fraction) -> dict[str, Any]:
    return {name: f"{p.numerator}/{p.denominator}",
            f"{name}_permille": p.numerator * t.DRAWS // p.denominator}


def _prepared(view: World, player: str, orders: TurnOrders) -> tuple[
        World, dict[str, UnitOrders], list[str]]:
    """The view as `run_turn` readies it: fresh turn flags, the side's Stances and reflexes
    applied, and the activation order the Cascade will walk."""
    world = view.copy()
    for unit in world.units.values():
        unit.start_turn()
        unit.fought_with = set()
    given = {uid: o for uid, o in orders.orders.items()
             if uid in world.units and world.units[uid].player == player}
    for uid, unit_orders in given.items():
        unit = world.units[uid]
        if unit_orders.stance is not None:
            unit.stance = unit_orders.stance
        if unit_orders.withdraw_reflex is not None:
            unit.withdraw_reflex = unit_orders.withdraw_reflex
    places = [a.unit for a in activation_order(world, TurnOrders(orders=given))]
    return world, given, places


def _unseen_notes(world: World, player: str, given: dict[str, UnitOrders]) -> list[str]:
    notes = []
    for uid, unit_orders in given.items():
        for action in unit_orders.actions:
            if isinstance(action, MoveAction | AbandonAction):
                continue
            tile = world.board.index(*action.target)
            if not world.hostile_at(player, tile):
                notes.append(f"{uid}: no enemy is seen on {list(action.target)}; an unseen "
                             "defender is not guessed, so this order finds no one here")
    return notes


def _targets(world: World, player: str, group: set[str],
             given: dict[str, UnitOrders]) -> dict[int, tuple[str, ...]]:
    """The group's objectives: each assaulted tile with a seen enemy, and who assaults it."""
    found: dict[int, list[str]] = {}
    for uid in sorted(group, key=lambda i: world.units[i].seq):
        for action in given[uid].actions:
            if isinstance(action, AssaultAction):
                tile = world.board.index(*action.target)
                if world.hostile_at(player, tile):
                    found.setdefault(tile, []).append(uid)
    return {tile: tuple(dict.fromkeys(units)) for tile, units in sorted(found.items())}


def _joint(parts: list[dict[tuple[int, ...], Fraction]]) -> dict[tuple[int, ...], Fraction]:
    """Independent groups' distributions of objectives taken, multiplied out."""
    joint: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for part in parts:
        joint = {tuple(sorted(a + b)): p * q for a, p in joint.items() for b, q in part.items()}
    return joint


def plan_odds_in_view(view: World, player: str, orders: TurnOrders, *,
                      draws: Sequence[int] = ALL_DRAWS) -> PlanOdds:
    """The plan's odds over a view the caller already built. `draws` is the die: every
    draw of the game unless a test asks for a smaller one to check against brute force."""
    world, given, places = _prepared(view, player, orders)
    if view.rules.fixed_draw is not None and draws is ALL_DRAWS:
        draws = (view.rules.fixed_draw,)   # the calibration option: one draw for all
    notes = _unseen_notes(world, player, given)
    groups = independent_groups(world, given)
    count = _Count(draws)
    counted = []
    try:
        for group in groups:
            counted.append((group, _count_group(world, player, places, group, given, count)))
    except PlanTooLarge:
        return PlanOdds(groups=len(groups), outcomes=count.outcomes, notes=tuple(notes),
                        refused=refusal_text(f"more than {_limit():,}"))
    objectives: list[ObjectiveOdds] = []
    alive = {u.id: Fraction(1) for u in world.units.values() if u.player == player}
    parts = []
    for group, states in counted:
        targets = _targets(world, player, group, given)
        part: dict[tuple[int, ...], Fraction] = {}
        for after, chance in states:
            taken = tuple(tile for tile in targets if not after.hostile_at(player, tile))
            part[taken] = part.get(taken, Fraction(0)) + chance
        parts.append(part)
        for tile, units in targets.items():
            objectives.append(ObjectiveOdds(world.board.xy(tile), units, sum(
                (p for taken, p in part.items() if tile in taken), Fraction(0))))
        for uid in alive:
            alive[uid] *= sum((p for after, p in states if uid in after.units), Fraction(0))
    joint = _joint(parts)
    board = world.board
    return PlanOdds(
        objectives=tuple(sorted(objectives, key=lambda o: (o.tile[1], o.tile[0]))),
        survival=tuple((uid, p) for uid, p in alive.items() if uid in given or p < 1),
        joint=tuple((tuple(board.xy(tile) for tile in taken), p)
                    for taken, p in sorted(joint.items())) if len(joint) <= JOINT_LIMIT
        else None,
        groups=len(groups), outcomes=count.outcomes, notes=tuple(notes))


def plan_odds(world: World, player: str, orders: TurnOrders) -> PlanOdds:
    """The odds of `player`'s written orders for this turn, from its knowledge view only."""
    check_player(world, player)
    return plan_odds_in_view(knowledge_view(world, player), player, orders)
