"""One turn: orders, the Cascade of activations, and the end of the turn.

Units activate by initiative (March first, Entrench last) and then by lowest creation
sequence; each carries out its actions in order. Every clash is built from the board as it
stands at that instant (CB-460), drawn at hash64(K, turn, initiator, ordinal) (CB-800/830),
resolved by the one resolution function, and applied in full before anything else happens
(CB-270). Retreat, rout and encirclement all come from the retreat candidates of
`engagement`; there is no other path. `run_turn` never changes the world it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.activation import activation_order
from fairfight.clash.aftermath import caught, disengage
from fairfight.clash.draws import draw_r
from fairfight.clash.engagement import (
    AttackOrder,
    ClashPlan,
    combatant,
    plan_clash,
    reflex_disengages,
)
from fairfight.clash.engagement import retreat_destination as destination_of
from fairfight.clash.exchange import (
    DefenderFate,
    Outcome,
    TurnXp,
    allocate_losses,
    resolve_exchange,
)
from fairfight.clash.orders import (
    AbandonAction,
    AssaultAction,
    BombardAction,
    MoveAction,
    TurnOrders,
    UnitOrders,
)
from fairfight.clash.spec import stance_may_initiate
from fairfight.clash.steps import step_problem
from fairfight.clash.turn_end import end_of_turn
from fairfight.clash.world import Unit, World, chebyshev
from fairfight.core.records import digest

__all__ = [
    "REACTING_STANCES",
    "TurnResult",
    "clash_draw",
    "run_turn",
    "state_digest",
]

REACTING_STANCES = (t.Stance.HOLD, t.Stance.ENTRENCH)
"""A unit in Hold or Entrench holds one reaction per turn [clash.md]."""


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The world after the turn and the canonical events of the turn."""

    world: World
    events: list[dict[str, Any]]


def state_digest(world: World) -> str:
    """SHA-256 of the canonical world state between turns."""
    return digest(world.to_scenario())


def clash_draw(world: World, initiator: Unit) -> int:
    """The draw of the initiator's next clash [CB-800, CB-830]; the calibration option
    `fixed_draw` replaces it when set."""
    if world.rules.fixed_draw is not None:
        return world.rules.fixed_draw
    return draw_r(world.seed_key, world.turn, initiator.seq, initiator.ordinal)


class _Cascade:
    """The mutable work of one turn over a private copy of the world."""

    def __init__(self, world: World) -> None:
        self.w = world
        self.events: list[dict[str, Any]] = []

    def xy(self, tile: int) -> list[int]:
        return list(self.w.board.xy(tile))

    def emit(self, kind: str, **fields: Any) -> None:
        self.events.append({"event": kind, **fields})

    def skip(self, unit: Unit, action: str, reason: str) -> None:
        self.emit("skipped", unit=unit.id, action=action, reason=reason)

    # --- activation ------------------------------------------------------------------
    def activate(self, unit: Unit, orders: UnitOrders) -> None:
        """Carry out the unit's actions in order; those it can no longer carry out (it was
        halted by a reaction, it retreated, or it was destroyed) are logged as skipped."""
        unit.activated = True
        for index, action in enumerate(orders.actions):
            stopped = self.stopped(unit)
            if stopped:
                for dropped in orders.actions[index:]:
                    self.skip(unit, dropped.do, stopped)
                return
            if isinstance(action, MoveAction):
                if not self.move(unit, [self.w.board.index(*p) for p in action.path], "move"):
                    unit.halted = True
            elif isinstance(action, AbandonAction):
                if self.w.works_at(unit.tile) == 0 and unit.tile not in self.w.city_owner:
                    self.skip(unit, "abandon", "not in a city or works")
                elif not self.move(unit, [self.w.board.index(*action.to)], "abandon"):
                    unit.halted = True
            elif isinstance(action, AssaultAction):
                self.assault(unit, action)
            elif isinstance(action, BombardAction):
                self.bombard(unit, self.w.board.index(*action.target))

    def stopped(self, unit: Unit) -> str | None:
        """Why a unit carries out no more of its orders this turn, if it does not
        [CB-1100, CB-1780]."""
        if unit.id not in self.w.units:
            return "the unit was destroyed"
        if unit.halted:
            return "halted by a reaction"
        if unit.retreated:
            return "the unit retreated"
        if unit.disengaged:
            return "the unit disengaged"
        return None

    def move(self, unit: Unit, path: list[int], label: str) -> bool:
        """Step along the path; False when the unit halted (a reaction) or is gone."""
        w = self.w
        for tile in path:
            problem = step_problem(w, unit, unit.tile, tile, unit.mp,
                                   abandoning=label == "abandon")
            if problem:
                self.skip(unit, label, problem)
                return True
            start = unit.tile
            w.move(unit, tile)
            unit.mp -= 1
            unit.moved = True
            self.emit(label, unit=unit.id, frm=self.xy(start), to=self.xy(tile))
            self.enter_city(unit, tile)
            if self.react(unit):
                return False
        return True

    def enter_city(self, unit: Unit, tile: int) -> None:
        """Entering a city not held by the unit's side takes it (the world's rule, not
        combat's: CB-2060)."""
        w = self.w
        if tile not in w.city_owner:
            return
        owner = w.city_owner[tile]
        if owner is None or not w.allied(owner, unit.player):
            w.city_owner[tile] = unit.player
            self.emit("capture", unit=unit.id, player=unit.player, tile=self.xy(tile))

    # --- engagements -------------------------------------------------------------------
    def react(self, mover: Unit) -> bool:
        """A reaction by the first eligible enemy adjacent to the mover; the mover halts
        whatever the outcome [CB-1770, CB-1780]."""
        w = self.w
        reactors = sorted(
            (u for tile in w.board.neighbours[mover.tile] for u in w.units_at(tile)
             if not w.allied(u.player, mover.player) and u.stance in REACTING_STANCES
             and not u.reaction_used and u.cls.atk > 0 and u.strength >= 1
             and not (u.retreated or u.disengaged)),   # it acts no more [CB-1100]
            key=lambda u: u.seq)
        if not reactors:
            return False
        reactor = reactors[0]
        reactor.reaction_used = True
        plan = plan_clash(w, AttackOrder(t.Kind.REACTION, reactor.id, mover.tile,
                                         mover=mover.id))
        mover.mp = min(mover.mp, 0)
        if plan is not None:
            self.clash(reactor, plan, advance=False)
        return True

    def assault(self, lead: Unit, action: AssaultAction) -> None:
        w = self.w
        target = w.board.index(*action.target)
        problem = self.initiate_problem(lead, target, 1)
        if problem:
            self.skip(lead, "assault", problem)
            return
        lead.mp -= 1
        supporters = None if action.supporters == "auto" else tuple(action.supporters)
        plan = plan_clash(w, AttackOrder(t.Kind.ASSAULT, lead.id, target, supporters))
        if plan is None:
            self.skip(lead, "assault", "nothing to fight")
            return
        defender = w.units[plan.defender]
        if reflex_disengages(w, defender):
            _, to = destination_of(w, [defender], target, lead.tile)
            if to is not None:
                self.disengagement(lead, defender, to, action.advance)
                return
            self.emit("caught", unit=defender.id, tile=self.xy(target))
            plan = replace(plan, spec=caught(plan.spec))
        self.clash(lead, plan, advance=action.advance)

    def bombard(self, battery: Unit, target: int) -> None:
        cls = battery.cls
        problem = self.initiate_problem(battery, target, cls.bombard_range)
        if not problem and battery.moved:
            problem = "a battery that moved this turn may not fire"
        if not problem and battery.shots >= cls.bombard_shots:
            problem = "no shots left this turn"
        if not problem and battery.supported:
            problem = "it supported an assault this turn"
        if problem:
            self.skip(battery, "bombard", problem)
            return
        plan = plan_clash(self.w, AttackOrder(t.Kind.BOMBARDMENT, battery.id, target))
        if plan is None:
            self.skip(battery, "bombard", "nothing to fight")
            return
        battery.shots += 1
        battery.mp = 0
        self.clash(battery, plan, advance=False)

    def initiate_problem(self, unit: Unit, target: int, reach: int) -> str | None:
        if not stance_may_initiate(unit.stance):
            return "a unit in march may not initiate"
        if unit.barred:
            return "it faltered this turn"
        if reach == 1 and unit.mp < 1:
            return "no movement point left to assault"
        if not 1 <= chebyshev(self.w.board.width, unit.tile, target) <= reach:
            return f"{self.xy(target)} is out of reach"
        if not self.w.hostile_at(unit.player, target):
            return f"no enemy on {self.xy(target)}"
        return None

    def disengagement(self, lead: Unit, unit: Unit, to: int, advance: bool) -> None:
        """No draw, no exchange: the unit pays its parting loss and steps back [CB-1860]."""
        result = disengage(combatant(self.w, unit), destination_exists=True)
        start = unit.tile
        unit.strength, unit.disorder = result.strength, result.disorder
        unit.disengaged = unit.fought = True
        lead.fought = True
        self.emit("disengage", unit=unit.id, attacker=lead.id, loss=result.loss,
                  frm=self.xy(start), to=self.xy(to), strength=unit.strength,
                  disorder=unit.disorder)
        if unit.strength == 0:
            self.destroy(unit, "disengagement")
        else:   # it acts no more this turn [CB-1100]
            self.w.move(unit, to)
            unit.mp = 0
            unit.activated = True
        self.advance(lead, start, advance)

    def clash(self, lead: Unit, plan: ClashPlan, *, advance: bool) -> Outcome:
        w = self.w
        r = clash_draw(w, lead)
        supporters = [w.units[i] for i in plan.supporters]
        defender = w.units[plan.defender]
        ordinal = lead.ordinal
        outcome = resolve_exchange(
            plan.spec, r, defender_in_city=plan.defender_in_city,
            turn_xp=TurnXp(lead.turn_xp, tuple(u.turn_xp for u in supporters),
                           defender.turn_xp))
        lead.ordinal += 1
        lead.initiated = lead.fought = True
        stack = [w.units[i] for i in plan.stack]
        target = defender.tile
        self.emit("clash", initiator=lead.id, ordinal=ordinal, r=r,
                  plan=plan.to_json(w), outcome=outcome.to_json())
        _apply(lead, outcome.lead)
        lead.barred = lead.barred or outcome.lead_barred
        for unit, result in zip(supporters, outcome.supporters, strict=True):
            _apply(unit, result)
            unit.supported = unit.fought = True
            unit.fought_with.add(defender.id)
        _apply(defender, outcome.defender)
        lead.fought_with.add(defender.id)
        defender.fought_with.update([lead.id, *plan.supporters])
        rest = stack[1:]
        floor = t.BOMBARD_STRENGTH_FLOOR if plan.spec.kind is t.Kind.BOMBARDMENT else 0
        taken, discarded = allocate_losses(outcome.carried_over,
                                           tuple(u.strength for u in rest), floor)
        for unit, loss in zip(rest, taken, strict=True):
            unit.strength -= loss
        for unit in stack:
            unit.fought = True
        if outcome.carried_over:
            self.emit("carry_over", units=[u.id for u in rest], losses=list(taken),
                      discarded=discarded)
        self.fate(plan, outcome, stack, target)
        for unit in (lead, *supporters, *stack):
            if unit.id in w.units and unit.strength == 0:
                self.destroy(unit, "strength")
        if outcome.lead_may_advance and lead.id in w.units:
            self.advance(lead, target, advance)
        return outcome

    def fate(self, plan: ClashPlan, outcome: Outcome, stack: list[Unit], target: int) -> None:
        """Hold, hold shaken, retreat or rout the whole stack [CB-1040, CB-1110, CB-1420].

        The stack is what is left after the exchange's losses; a routed top defender counts
        with the strength the exchange left it (the rout, not the exchange, destroys it).
        When the exchange destroyed the top defender, the retreat room is that of the
        survivors, the units destroyed in the exchange neither moving nor crowding a tile.
        """
        if not outcome.exchange.defender_breaks:
            return
        top = stack[0]
        left = plan.spec.defender.strength - outcome.exchange.ld
        remaining = [(u, u.strength) for u in stack[1:] if u.strength > 0]
        if outcome.fate is not DefenderFate.DESTROYED and left > 0:
            remaining.insert(0, (top, left))
        if not remaining:
            return
        units = [u for u, _ in remaining]
        if outcome.fate is DefenderFate.HOLDS_SHAKEN or not outcome.tile_cleared:
            for unit in units:
                unit.shaken = t.SHAKEN_ON_HOLD
            self.emit("hold_shaken", units=[u.id for u in units], tile=self.xy(target))
            return
        destination = plan.destination
        if len(units) < len(stack):
            lead_tile = self.w.units[plan.order.lead].tile
            _, destination = destination_of(self.w, units, target, lead_tile)
        if destination is None:
            self.emit("rout", player=top.player, tile=self.xy(target),
                      units=[u.id for u in units], strength=[s for _, s in remaining])
            for unit in units:
                self.destroy(unit, "rout")
            return
        for unit in units:   # spent, and acting no more this turn [CB-1100]
            self.w.move(unit, destination)
            unit.mp = 0
            unit.activated = unit.retreated = True
        self.emit("retreat", units=[u.id for u in units], frm=self.xy(target),
                  to=self.xy(destination))

    def advance(self, lead: Unit, target: int, wanted: bool) -> None:
        """Into a cleared tile, in Advance or Hold, with a movement point and room [CB-1060]."""
        w = self.w
        if not wanted or lead.stance not in (t.Stance.ADVANCE, t.Stance.HOLD):
            return
        if lead.mp < 1 or w.units_at(target) or not w.passable(lead.cls, target):
            return
        start = lead.tile
        w.move(lead, target)
        lead.mp -= 1
        self.emit("advance", unit=lead.id, frm=self.xy(start), to=self.xy(target))
        self.enter_city(lead, target)

    def destroy(self, unit: Unit, cause: str) -> None:
        self.emit("destroyed", unit=unit.id, player=unit.player, cause=cause,
                  tile=self.xy(unit.tile))
        self.w.remove(unit)


def _apply(unit: Unit, result: Any) -> None:
    """A participant's strength, disorder, xp (cap 999 [CB-1230]) and shaken after a clash."""
    unit.strength, unit.disorder, unit.shaken = result.strength, result.disorder, result.shaken
    unit.xp = min(t.XP_MAX, unit.xp + result.xp_gain)
    unit.turn_xp += result.xp_gain


def run_turn(world: World, orders: TurnOrders) -> TurnResult:
    """Play one turn of the given orders over a copy of `world` [CB-270]."""
    w = world.copy()
    cascade = _Cascade(w)
    for unit in w.units.values():
        unit.start_turn()
        unit.fought_with = set()
    given = {uid: o for uid, o in orders.orders.items() if uid in w.units}
    cascade.emit("turn", turn=w.turn, digest=state_digest(w))
    cascade.emit("orders", orders={
        uid: given[uid].model_dump(mode="json", exclude_none=True)
        for uid in sorted(given, key=lambda i: w.units[i].seq)})
    for uid, unit_orders in given.items():
        unit = w.units[uid]
        if unit_orders.stance is not None:
            unit.stance = unit_orders.stance
        if unit_orders.withdraw_reflex is not None:
            unit.withdraw_reflex = unit_orders.withdraw_reflex
    for place in activation_order(w, orders):
        active = w.units.get(place.unit)
        if active is not None and not active.activated:
            cascade.activate(active, given.get(active.id, UnitOrders()))
    end_of_turn(w, cascade.emit)
    w.turn += 1
    for unit in w.units.values():
        unit.start_turn()   # ready for the next orders: previews see fresh flags
    cascade.emit("end", turn=w.turn - 1, digest=state_digest(w))
    return TurnResult(w, cascade.events)
