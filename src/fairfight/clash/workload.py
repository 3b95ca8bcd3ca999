"""How much work a turn asks for, estimated on the world before the turn runs.

One rule for the command line and the web. A turn's work has two parts: the orders given
(each action, and each step of a move path, is a step of the Cascade) and the AI's planning,
which weighs every assault its units could make with every choice of up to two supporters (a
dense front of 1,000 units asks for 154,480 such plans, each a specification and an exact
preview). Both are counted here without building anything. A turn over its budget is planned
with the bounded search (the SUPPORT_CHOICES strongest supporters of each assault only); a
turn over budget even so is refused with its numbers, before any of the work starts
(docs/clash.md, "Bounded work").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fairfight.core.errors import InputError

if TYPE_CHECKING:
    from fairfight.clash.world import Unit, World

__all__ = [
    "DEFAULT_TURN_WORK",
    "MAX_ACTIONS_PER_TURN",
    "MAX_TURN_WORK",
    "SUPPORT_CHOICES",
    "TurnWork",
    "check_orders_work",
    "orders_work",
    "plan_turn_work",
    "planning_work",
]

MAX_ACTIONS_PER_TURN = 1_000
"""Actions plus move steps of one turn, all sides together (the Cascade's work); the web's cap."""
DEFAULT_TURN_WORK = 20_000
"""The work units a turn may take on the command line unless raised (--max-work): a plan
costs about 0.3 ms and 3 KB held until the AI ranks them, so 20,000 is about 6 s and 60 MB
on one core; the built-in scenarios need under 100."""
MAX_TURN_WORK = 10_000_000
"""The most --max-work may allow."""
SUPPORT_CHOICES = 4
"""Supporters the bounded search weighs per assault, the strongest: at most 11 plans for a
lead and a target (none, one, or two of the four) instead of up to 1 + 23 + 253 in a stack of
eight beside three others."""


@dataclass(frozen=True, slots=True)
class TurnWork:
    """A turn's estimated work: the AI's candidate plans and the orders' actions and steps,
    and the supporters the AI weighs per assault (None: all of them)."""

    plans: int
    steps: int
    support_choices: int | None = None

    @property
    def total(self) -> int:
        """Plans and steps together: the figure held against the budget."""
        return self.plans + self.steps


def orders_work(orders: Mapping[str, Any]) -> int:
    """Actions plus move steps of a turn's orders (unit id -> plain UnitOrders)."""
    work = 0
    for unit_orders in orders.values():
        actions = unit_orders.get("actions", ()) if isinstance(unit_orders, Mapping) else ()
        for action in actions if isinstance(actions, list | tuple) else ():
            path = action.get("path", ()) if isinstance(action, Mapping) else ()
            work += max(1, len(path) if isinstance(path, list | tuple) else 1)
    return work


def check_orders_work(orders: Mapping[str, Any]) -> None:
    """Refuse a turn whose orders ask for more than MAX_ACTIONS_PER_TURN actions and steps."""
    work = orders_work(orders)
    if work > MAX_ACTIONS_PER_TURN:
        raise InputError("orders", f"{work} actions and steps; a turn on the web has at "
                         f"most {MAX_ACTIONS_PER_TURN}")


def _may_support(world: World, unit: Unit, lead: Unit) -> bool:
    """The parts of supporter eligibility known before the turn starts [CB-370]."""
    return (unit is not lead and world.allied(unit.player, lead.player)
            and unit.cls.atk > 0 and unit.strength >= 1 and not unit.withdraw_reflex)


def planning_work(world: World, players: Iterable[str],
                  support_choices: int | None = None) -> int:
    """The assaults the AI weighs for `players`: for each unit that can attack and each enemy
    tile next to it, one plan per choice of none, one or two of the units that could support
    it there (of the `support_choices` strongest, when given). Counted on the true world, an
    upper bound of what each player's view holds."""
    plans = 0
    neighbours = world.board.neighbours
    for player in players:
        for unit in world.units.values():
            if unit.player != player or unit.cls.atk == 0 or unit.strength < 1:
                continue
            for target in neighbours[unit.tile]:
                if not world.hostile_at(player, target):
                    continue
                helpers = sum(1 for tile in neighbours[target] for other in world.units_at(tile)
                              if _may_support(world, other, unit))
                if support_choices is not None:
                    helpers = min(helpers, support_choices)
                plans += 1 + helpers + helpers * (helpers - 1) // 2
    return plans


def plan_turn_work(world: World, players: Iterable[str], orders: Mapping[str, Any],
                   budget: int = DEFAULT_TURN_WORK) -> TurnWork:
    """How the turn is to run within `budget`: the full search, else the bounded one, else an
    InputError with the numbers of both and the option that raises the budget."""
    chosen = tuple(players)
    steps = orders_work(orders)
    full = TurnWork(planning_work(world, chosen), steps)
    if full.total <= budget:
        return full
    bounded = TurnWork(planning_work(world, chosen, SUPPORT_CHOICES), steps, SUPPORT_CHOICES)
    if bounded.total <= budget:
        return bounded
    raise InputError(
        "--max-work",
        f"turn {world.turn} would weigh {full.plans:,} AI plans ({bounded.plans:,} with only "
        f"the {SUPPORT_CHOICES} strongest supporters of each assault) and run {steps:,} actions "
        f"and steps: {bounded.total:,} work units at the least, over the budget of {budget:,} "
        f"(a unit is about 0.3 ms and 3 KB); raise it with --max-work {bounded.total}")
