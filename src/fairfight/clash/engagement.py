"""From a board and an order to the exact Clash Specification [CB-350].

`plan_clash(view, order)` assembles the force of Step 0 (supporter eligibility and choice,
CB-370/390), the top defender and the stack in carry-over order (CB-400, CB-920), flankers
(CB-980), the edge terms (CB-570/590), own city, supply, and the retreat candidates of the
defending stack (CB-1310) with the best-scoring destination (CB-1320). `encircled` is
nothing but "the candidate set is empty" (CB-1400): no other code writes it. The function
reads only the view it is given, so the truth and a player's knowledge build alike [CB-330].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.exchange import may_retreat
from fairfight.clash.kernel import contribution, power_terms
from fairfight.clash.ops import INT_OPS
from fairfight.clash.spec import MAX_FLANKERS, ClashSpec, Combatant
from fairfight.clash.world import Unit, World

__all__ = [
    "AttackOrder",
    "ClashPlan",
    "RETREAT_CITY_PULL",
    "RETREAT_COMPANY",
    "RETREAT_CONTACT",
    "build_clash_spec",
    "choose_supporters",
    "combatant",
    "count_flankers",
    "defence_contribution",
    "edge_mods",
    "eligible_supporters",
    "may_support",
    "plan_assaults",
    "plan_clash",
    "reflex_disengages",
    "retreat_candidates",
    "retreat_destination",
    "retreat_score",
    "stack_order",
    "support_contribution",
]

RETREAT_CONTACT = 4000
"""Score per hostile unit adjacent to a retreat candidate [CB-1320]."""
RETREAT_COMPANY = 500
"""Score bonus for a candidate holding a friendly unit."""
RETREAT_CITY_PULL = 2000
"""Score bonus for a candidate strictly closer to the nearest friendly city."""

_CODE: dict[Any, int] = {
    member: index for enum in (t.Grade, t.SupplyTier, t.Role, t.Terrain)
    for index, member in enumerate(enum)
}


def _contribution(view: World, unit: Unit, base: int, terrain: t.Terrain, factor: int) -> int:
    terms = power_terms(INT_OPS, _CODE[unit.grade], _CODE[view.supply_tier(unit)],
                        _CODE[unit.cls.role], _CODE[terrain])
    return int(contribution(INT_OPS, base, unit.strength, terms, factor))


def support_contribution(view: World, unit: Unit, terrain: t.Terrain) -> int:
    """A supporter's Step-1 contribution, the figure supporter choice ranks by [CB-390]."""
    return _contribution(view, unit, unit.cls.atk, terrain, t.SUPPORTER_FACTOR)


def defence_contribution(view: World, unit: Unit, terrain: t.Terrain) -> int:
    """A defender's Step-1 contribution, the figure the top defender is chosen by [CB-400]."""
    return _contribution(view, unit, unit.cls.defence, terrain, t.LEAD_FACTOR)


def stack_order(view: World, units: Iterable[Unit], terrain: t.Terrain) -> list[Unit]:
    """Greatest defensive contribution first, ties by lowest creation sequence: the top
    defender and then the carry-over order [CB-400, CB-920]."""
    return sorted(units, key=lambda u: (-defence_contribution(view, u, terrain), u.seq))


@dataclass(frozen=True, slots=True)
class AttackOrder:
    """An order that leads to a clash: who initiates, at which tile, with which support."""

    kind: t.Kind
    lead: str
    target: int
    supporters: tuple[str, ...] | None = None
    """None: automatic choice [CB-380]; otherwise the ids asked for, in order."""
    mover: str | None = None
    """A reaction's defender: the unit that moved, not the top of its tile [CB-1770]."""


@dataclass(frozen=True, slots=True)
class ClashPlan:
    """A built specification and the world facts behind it (who, where, where to)."""

    spec: ClashSpec
    order: AttackOrder
    supporters: tuple[str, ...]
    defender: str
    stack: tuple[str, ...]
    candidates: tuple[int, ...]
    """The CB-1310 candidate set of the whole stack: empty means encircled [CB-1400]."""
    destination: int | None
    """Where the stack goes if it breaks; None when it has nowhere to go or may not leave."""
    defender_in_city: bool
    ignored_supporters: tuple[str, ...] = ()

    @property
    def encircled(self) -> bool:
        """No retreat candidate [CB-1400] (the spec field is set from this, nowhere else)."""
        return not self.candidates

    @property
    def retreat_allowed(self) -> bool:
        """Whether a broken defender may leave its tile at all: never out of a city or works
        when assaulted [CB-1340] (the one rule, `exchange.may_retreat`)."""
        return may_retreat(self.spec, self.defender_in_city)

    @property
    def retreat_tiles(self) -> tuple[int, ...]:
        """The tiles a board shows as ways back: none for a defender that may not retreat
        [CB-1340, CB-2420]."""
        return self.candidates if self.retreat_allowed else ()

    def to_json(self, view: World) -> dict[str, Any]:
        """The plan as plain data: ids, tiles as [x, y], the spec."""
        board = view.board
        return {
            "kind": self.spec.kind.value, "lead": self.order.lead,
            "target": list(board.xy(self.order.target)),
            "supporters": list(self.supporters), "defender": self.defender,
            "stack": list(self.stack),
            "retreat_candidates": [list(board.xy(c)) for c in self.candidates],
            "retreat_to": list(board.xy(self.destination))
            if self.destination is not None else None,
            "encircled": self.encircled, "defender_in_city": self.defender_in_city,
            "ignored_supporters": list(self.ignored_supporters),
            "spec": self.spec.to_json(),
        }


def reflex_disengages(view: World, unit: Unit) -> bool:
    """Whether an assault on `unit` meets a disengagement rather than a clash: an active
    withdraw reflex, not yet used this turn, not Detached [CB-1850, CB-1890, CB-1920], and
    not in a city or works, which only an explicit abandon order leaves [CB-1340, CB-2020,
    CB-2030]."""
    in_place = unit.tile in view.city_owner or view.works_at(unit.tile) > 0
    return (unit.withdraw_reflex and not unit.disengaged and not in_place
            and unit.cls.retreat_class is not t.RetreatClass.DETACHED)


def may_support(view: World, unit: Unit, lead: Unit, target: int) -> bool:
    """Supporter eligibility [CB-370, CB-260, CB-230]."""
    return (unit is not lead and view.allied(unit.player, lead.player)
            and unit.tile in view.board.neighbours[target]
            and not unit.activated and not unit.supported and unit.shots == 0
            and unit.cls.atk > 0 and unit.strength >= 1 and not unit.withdraw_reflex)


def eligible_supporters(view: World, lead: Unit, target: int) -> list[Unit]:
    """Every unit that may support this lead against this tile now, lowest sequence first."""
    nearby = [u for tile in view.board.neighbours[target] for u in view.units_at(tile)]
    return [u for u in sorted(nearby, key=lambda u: u.seq) if may_support(view, u, lead, target)]


def choose_supporters(view: World, lead: Unit, target: int,
                      explicit: Sequence[str] | None = None) -> tuple[list[Unit], list[str]]:
    """Up to two supporters: the ones asked for that are eligible, or the automatic choice
    (new role first, then highest contribution, then lowest sequence) [CB-380, CB-390].

    Returns the supporters and the ids asked for but not eligible at this moment.
    """
    terrain = view.board.terrain[target]
    eligible = eligible_supporters(view, lead, target)
    if explicit is not None:
        by_id = {u.id: u for u in eligible}
        chosen = [by_id[i] for i in dict.fromkeys(explicit) if i in by_id][:t.MAX_SUPPORTERS]
        return chosen, [i for i in explicit if i not in {u.id for u in chosen}]
    chosen = []
    roles = {lead.cls.role}
    for _ in range(t.MAX_SUPPORTERS):
        pool = [u for u in eligible if u not in chosen]
        if not pool:
            break
        fresh = [u for u in pool if u.cls.role not in roles] or pool
        best = min(fresh, key=lambda u: (-support_contribution(view, u, terrain), u.seq))
        chosen.append(best)
        roles.add(best.cls.role)
    return chosen, []


def count_flankers(view: World, lead: Unit, target: int) -> int:
    """Units of the lead's side adjacent to the target, the lead excluded, supporters
    counted [CB-980]."""
    return sum(1 for tile in view.board.neighbours[target] for u in view.units_at(tile)
               if u is not lead and u.strength >= 1 and view.allied(u.player, lead.player))


def edge_mods(view: World, lead_tile: int, target: int) -> int:
    """River, uphill and amphibious terms of the lead's approach, pre-summed [CB-570, CB-590]."""
    board = view.board
    total = 0
    if board.crosses_river(lead_tile, target):
        total += t.RIVER_CROSSING
    if board.elevation[target] > board.elevation[lead_tile]:
        total += t.UPHILL
    if board.terrain[lead_tile] is t.Terrain.WATER and board.terrain[
            target] is not t.Terrain.WATER:
        total += t.AMPHIBIOUS
    return total


def retreat_candidates(view: World, stack: Sequence[Unit], tile: int,
                       lead_tile: int) -> list[int]:
    """Adjacent tiles the whole stack may step back to [CB-1310]: passable for every unit,
    free of hostile units, not the lead's tile, with room for the whole stack. Units already
    at strength 0 (destroyed by the exchange being settled) neither block nor crowd a tile."""
    if not stack:
        return []
    player = stack[0].player
    result = []
    for candidate in view.board.neighbours[tile]:
        if candidate == lead_tile:
            continue
        if not all(view.passable(u.cls, candidate) for u in stack):
            continue
        here = [u for u in view.units_at(candidate) if u.strength >= 1]
        if any(not view.allied(u.player, player) for u in here):
            continue
        if len(here) + len(stack) > view.rules.stacking:
            continue
        result.append(candidate)
    return result


def retreat_score(view: World, player: str, candidate: int, tile: int) -> int:
    """The integer score of CB-1320, lowest best (as written; not a strict lexicographic
    order)."""
    board = view.board
    contact = sum(1 for near in board.neighbours[candidate]
                  for u in view.hostile_at(player, near) if u.strength >= 1)
    score = RETREAT_CONTACT * contact - t.TERRAIN_COVER[board.terrain[candidate]]
    if any(view.allied(u.player, player) and u.strength >= 1
           for u in view.units_at(candidate)):
        score -= RETREAT_COMPANY
    here = view.nearest_city_distance(player, tile)
    there = view.nearest_city_distance(player, candidate)
    if here is not None and there is not None and there < here:
        score -= RETREAT_CITY_PULL
    return score


def retreat_destination(view: World, stack: Sequence[Unit], tile: int,
                        lead_tile: int) -> tuple[list[int], int | None]:
    """The candidates and the lowest-scoring one, ties by lowest tile index [CB-1320]."""
    candidates = retreat_candidates(view, stack, tile, lead_tile)
    if not candidates:
        return candidates, None
    player = stack[0].player
    best = min(candidates, key=lambda c: (retreat_score(view, player, c, tile), c))
    return candidates, best


def combatant(view: World, unit: Unit) -> Combatant:
    """A unit as the exchange sees it; works come from the tile it stands on [CB-300]."""
    cls = unit.cls
    return Combatant(
        atk=cls.atk, defence=cls.defence, tough=cls.tough, role=cls.role,
        strength=unit.strength, disorder=unit.disorder, grade=unit.grade,
        supply_tier=view.supply_tier(unit), stance=unit.stance, dig_in=unit.dig_in,
        works=view.works_at(unit.tile), shaken=unit.shaken, creation_sequence=unit.seq)


def plan_clash(view: World, order: AttackOrder) -> ClashPlan | None:
    """The specification of a clash and its world facts, or None when there is nothing to
    fight (no lead, no enemy on the target tile) [CB-340, CB-350]."""
    lead = view.units.get(order.lead)
    if lead is None or lead.strength < 1:
        return None
    target = order.target
    hostile = [u for u in view.hostile_at(lead.player, target) if u.strength >= 1]
    if order.mover is not None:
        hostile = [u for u in hostile if u.id == order.mover] + [
            u for u in hostile if u.id != order.mover]
        if not hostile or hostile[0].id != order.mover:
            return None
    if not hostile:
        return None
    terrain = view.board.terrain[target]
    ranked = stack_order(view, hostile, terrain)
    stack = ([hostile[0]] + [u for u in ranked if u is not hostile[0]]
             if order.mover is not None else ranked)
    defender = stack[0]
    supporters: list[Unit] = []
    ignored: list[str] = []
    if order.kind is t.Kind.ASSAULT:
        supporters, ignored = choose_supporters(view, lead, target, order.supporters)
    candidates, destination = retreat_destination(view, stack, target, lead.tile)
    city_owner = view.city_owner.get(target)
    spec = ClashSpec(
        kind=order.kind, terrain=terrain, lead=combatant(view, lead),
        supporters=tuple(combatant(view, u) for u in supporters),
        defender=combatant(view, defender),
        flankers=min(MAX_FLANKERS, count_flankers(view, lead, target))
        if order.kind is t.Kind.ASSAULT else 0,
        stack_extra=len(stack) - 1,
        attacker_edge_mods=edge_mods(view, lead.tile, target)
        if order.kind is t.Kind.ASSAULT else 0,
        in_own_city=city_owner is not None and city_owner == defender.player,
        encircled=not candidates,
        volatility_floor=view.rules.volatility_floor,
    )
    defender_in_city = target in view.city_owner
    if not may_retreat(spec, defender_in_city):
        destination = None   # a garrison never leaves by a break: no retreat tile [CB-1340]
    return ClashPlan(
        spec=spec, order=order, supporters=tuple(u.id for u in supporters),
        defender=defender.id, stack=tuple(u.id for u in stack),
        candidates=tuple(candidates), destination=destination,
        defender_in_city=defender_in_city, ignored_supporters=tuple(ignored))


def plan_assaults(view: World, lead_id: str, target: int,
                  choices: Sequence[tuple[str, ...]]) -> list[ClashPlan]:
    """`plan_clash` of one lead's assault on one tile for each choice of supporters, in order.

    Only the supporters differ from one choice to the next, so the defending stack, its
    retreat, the flankers and the edge terms are worked out once (an AI weighing every pair of
    a dense front's supporters asks for dozens of choices a tile)."""
    base = plan_clash(view, AttackOrder(t.Kind.ASSAULT, lead_id, target, ()))
    if base is None:
        return []
    eligible = {u.id: u for u in eligible_supporters(view, view.units[lead_id], target)}
    fighters: dict[str, Combatant] = {}
    plans = []
    for choice in choices:
        chosen = [eligible[i] for i in dict.fromkeys(choice) if i in eligible]
        chosen = chosen[:t.MAX_SUPPORTERS]
        ids = tuple(u.id for u in chosen)
        for unit in chosen:
            if unit.id not in fighters:
                fighters[unit.id] = combatant(view, unit)
        spec = base.spec.model_copy(update={"supporters": tuple(fighters[i] for i in ids)})
        plans.append(replace(
            base, spec=spec, order=AttackOrder(t.Kind.ASSAULT, lead_id, target, choice),
            supporters=ids, ignored_supporters=tuple(i for i in choice if i not in ids)))
    return plans


def build_clash_spec(view: World, order: AttackOrder) -> ClashSpec | None:
    """The exact ClashSpec of an order over a view, or None when unachievable [CB-350]."""
    plan = plan_clash(view, order)
    return plan.spec if plan is not None else None
