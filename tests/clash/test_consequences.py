"""Consequences that need no map: losses, floors, fates, disorder, experience [CB-1040..1300]."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fairfight.clash import tables as t
from fairfight.clash.aftermath import recover
from fairfight.clash.exchange import DefenderFate, TurnXp, allocate_losses, resolve_exchange
from fairfight.clash.spec import ClashSpec

from .conftest import load_golden
from .factories import ARMOUR, BATTERY, RIFLES, spec, unit
from .strategies import clash_specs


def _with_defender(base: ClashSpec, **fields: Any) -> ClashSpec:
    return base.model_copy(update={"defender": base.defender.model_copy(update=fields)})


def test_siege_sequence_cb2040() -> None:
    """Three battery shots at the median draw, then city recovery after fighting."""
    golden = load_golden("siege_cb2040.json")
    battery = unit(BATTERY, **{k: v for k, v in golden["battery"].items()
                               if k not in ("atk", "def", "tough", "role")})
    defender_fields = {k: v for k, v in golden["defender"].items()
                       if k not in ("atk", "def", "tough", "role")}
    defender = unit(RIFLES, **defender_fields)
    for shot in golden["shots"]:
        current = spec(battery, defender, kind=t.Kind.BOMBARDMENT, terrain=golden["terrain"],
                       in_own_city=golden["in_own_city"])
        outcome = resolve_exchange(current, golden["r"])
        assert (outcome.prepared.a, outcome.prepared.d) == (shot["a"], shot["d"])
        assert outcome.defender.loss == shot["strength_removed"]
        assert outcome.defender.disorder_gain == shot["disorder_added"]
        assert outcome.lead.loss == 0 and outcome.lead.disorder_gain == 0
        assert outcome.fate is DefenderFate.HOLDS
        defender = defender.model_copy(update={"strength": outcome.defender.strength,
                                               "disorder": outcome.defender.disorder})
    end = golden["end_of_turn"]
    assert (defender.strength, defender.disorder) == (end["strength"], end["disorder"])
    after = recover(defender.strength, defender.disorder, situation=t.RecoverySituation.CITY,
                    supply_tier=t.SupplyTier.ADEQUATE, fought=True)
    assert (after.strength, after.disorder) == (end["strength"],
                                                end["disorder_after_city_recovery"])


def test_bombardment_never_takes_the_last_point() -> None:
    """CB-1710: a target at strength 1 keeps it; the excess is carried over [CB-920]."""
    battery = unit(BATTERY, grade=t.Grade.ELITE, supply_tier=t.SupplyTier.FULL)
    target = unit(RIFLES, strength=1, grade=t.Grade.GREEN, supply_tier=t.SupplyTier.CUT)
    outcome = resolve_exchange(spec(battery, target, kind=t.Kind.BOMBARDMENT), 999)
    assert outcome.exchange.ld == 1
    assert outcome.defender.strength == 1
    assert outcome.carried_over == 1
    assert outcome.defender.disorder_gain == 3 * 1 + 5


def test_carry_over_allocation() -> None:
    """CB-920/CB-1730: each unit absorbs in order, above the floor; the rest is discarded."""
    assert allocate_losses(10, (4, 3, 2)) == ((4, 3, 2), 1)
    assert allocate_losses(10, (4, 3, 2), floor=1) == ((3, 2, 1), 4)
    assert allocate_losses(5, (40,)) == ((5,), 0)


def test_rout_when_encircled_and_shaken_in_works(worked_spec: ClashSpec) -> None:
    routed = resolve_exchange(worked_spec.model_copy(update={"encircled": True}), 617)
    assert routed.exchange.defender_breaks
    assert routed.fate is DefenderFate.ROUTED and routed.defender.strength == 0
    # works 1: may not retreat, holds with shaken 2 [CB-1340]
    held = resolve_exchange(_with_defender(worked_spec, works=1), 617)
    assert held.exchange.defender_breaks
    assert held.fate is DefenderFate.HOLDS_SHAKEN
    assert held.defender.shaken == t.SHAKEN_ON_HOLD and held.defender.strength > 0
    assert not held.tile_cleared and not held.lead_may_advance
    in_city = resolve_exchange(worked_spec, 617, defender_in_city=True)
    assert in_city.fate is DefenderFate.HOLDS_SHAKEN


def test_falter_costs_disorder_and_bars() -> None:
    """A worn lead against fresh entrenched infantry falters: +15 +25 disorder [CB-1150]."""
    lead = unit(ARMOUR, strength=50, disorder=30, stance=t.Stance.ADVANCE)
    defender = unit(RIFLES, stance=t.Stance.ENTRENCH, dig_in=4)
    outcome = resolve_exchange(spec(lead, defender, terrain=t.Terrain.FOREST), 0)
    assert outcome.exchange.attacker_falters and not outcome.exchange.defender_breaks
    assert outcome.lead.disorder_gain == 15 + 25 and outcome.lead_barred
    # the defender's xp includes the +10 for the attacker's break
    assert outcome.defender.xp_gain == 2 + outcome.exchange.la // 4 + 10


def test_xp_respects_the_turn_cap(worked_spec: ClashSpec) -> None:
    outcome = resolve_exchange(worked_spec, 617, turn_xp=TurnXp(lead=20, supporters=(24,),
                                                                   defender=25))
    assert (outcome.lead.xp_gain, outcome.supporters[0].xp_gain, outcome.defender.xp_gain) == (
        5, 1, 0)


def test_reaction_disorder_and_no_advance() -> None:
    reactor = unit(RIFLES, stance=t.Stance.ENTRENCH)
    mover = unit(ARMOUR, strength=30, stance=t.Stance.MARCH)
    outcome = resolve_exchange(spec(reactor, mover, kind=t.Kind.REACTION), 999)
    assert outcome.prepared.stance_attack_term == t.PREPARED_FIRE
    assert outcome.prepared.combined_arms_term == 0
    assert outcome.prepared.flank_shock == t.AMBUSH_SHOCK
    assert outcome.lead.disorder_gain in (5, 30)
    assert not outcome.lead_may_advance


@settings(max_examples=80, deadline=None, derandomize=True)
@given(clash_specs(), st.integers(0, 999))
def test_consequence_invariants(spec: ClashSpec, r: int) -> None:
    """Bounds and rules that hold for every clash at every draw."""
    outcome = resolve_exchange(spec, r)
    x = outcome.exchange
    units = (outcome.lead, outcome.defender, *outcome.supporters)
    assert all(0 <= unit.strength <= 100 and 0 <= unit.disorder <= 100 for unit in units)
    assert all(0 <= unit.xp_gain <= t.XP_PER_TURN_CAP for unit in units)
    assert not (x.defender_breaks and x.attacker_falters)  # CB-1010
    if spec.kind is t.Kind.BOMBARDMENT:
        assert outcome.defender.strength >= 1 and outcome.lead.loss == 0  # CB-1710, CB-910
        assert not x.defender_breaks and not x.attacker_falters  # CB-1020
        assert outcome.defender.disorder_gain == 3 * x.ld + 5  # CB-1200
    if spec.kind is not t.Kind.ASSAULT:
        assert not outcome.lead_may_advance  # CB-1090
    if outcome.fate is DefenderFate.HOLDS_SHAKEN:
        assert outcome.defender.shaken == 2 and (spec.in_own_city or spec.defender.works)
    if outcome.fate is DefenderFate.ROUTED:
        assert spec.encircled and outcome.defender.strength == 0
    assert outcome.lead.loss == x.la and x.ld <= spec.defender.strength


def test_stack_in_works_keeps_the_tile_when_its_top_unit_dies(worked_spec: ClashSpec) -> None:
    """CB-1040/CB-1340: the top defender dies and the stack breaks, but a garrison in works
    may not leave, so the rest of the stack holds and the lead cannot advance."""
    base = _with_defender(worked_spec, strength=20).model_copy(update={"stack_extra": 1})
    # resolve 40 + 15 (entrench) - 15 (disorder) - 40 (strength 20) clamps to 5; Ld is 20
    in_the_open = resolve_exchange(base, 617)
    assert in_the_open.fate is DefenderFate.DESTROYED and in_the_open.exchange.defender_breaks
    assert in_the_open.tile_cleared and in_the_open.lead_may_advance  # the rest retreats
    in_works = resolve_exchange(_with_defender(base, works=1), 617)
    assert in_works.fate is DefenderFate.DESTROYED and in_works.exchange.defender_breaks
    assert not in_works.tile_cleared and not in_works.lead_may_advance
    in_city = resolve_exchange(base, 617, defender_in_city=True)
    assert not in_city.tile_cleared
    alone = resolve_exchange(_with_defender(base, works=1).model_copy(
        update={"stack_extra": 0}), 617)
    assert alone.tile_cleared and alone.lead_may_advance
