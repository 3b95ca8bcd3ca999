"""The arithmetic of one exchange (Steps 1-7 of the resolution procedure), written once.

`prepare` computes everything the draw cannot change (contributions, A and D, volatility,
both resolves and the fixed shock terms); `exchange` applies one draw. Both take an `Ops`
and `Columns` whose fields are Python ints for one clash or int64 arrays for a batch, so
the scalar resolution, the preview, the batch preview and the sweeps all run this source
and no other [CB-2140, CB-210].
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from fairfight.clash import tables as t
from fairfight.clash.ops import Ops, Value

__all__ = [
    "ASSAULT",
    "BOMBARDMENT",
    "BREAK_CHECKS",
    "COMBINED_ARMS",
    "Columns",
    "Exchange",
    "GRADE_POWER",
    "GRADE_RESOLVE",
    "GRADE_VOLATILITY",
    "INTENSITY_BACK",
    "INTENSITY_OUT",
    "MEDIAN_DRAW",
    "MIN_POWER",
    "PER_MILLE",
    "PowerTerms",
    "Prepared",
    "REACTION",
    "ROLE_TERRAIN_COLUMN",
    "ResolveTerms",
    "STANCE_ATTACK",
    "STANCE_DEFENCE",
    "STANCE_RESOLVE",
    "STANCE_SHOCK_TO_ATTACKER",
    "STANCE_SHOCK_TO_DEFENDER",
    "STRENGTH_SCALE",
    "SUPPLY_POWER",
    "SUPPLY_RESOLVE",
    "SUPPLY_VOLATILITY",
    "SWING_DIVISOR",
    "TERRAIN_CHAOS",
    "TERRAIN_COUNT",
    "TERRAIN_COVER",
    "column",
    "contribution",
    "exchange",
    "power_terms",
    "prepare",
    "resolve",
    "resolve_terms",
]


def column(table: Mapping[Any, int], keys: Iterable[Any]) -> tuple[int, ...]:
    """A table laid out in the order of `keys` (an enum: declaration order), so that the
    enum's code indexes it; a missing entry is an error, not a silent zero."""
    return tuple(table[key] for key in keys)


GRADE_POWER = column(t.GRADE_POWER, t.Grade)
GRADE_RESOLVE = column(t.GRADE_RESOLVE, t.Grade)
GRADE_VOLATILITY = column(t.GRADE_VOLATILITY, t.Grade)
SUPPLY_POWER = column(t.SUPPLY_POWER, t.SupplyTier)
SUPPLY_RESOLVE = column(t.SUPPLY_RESOLVE, t.SupplyTier)
SUPPLY_VOLATILITY = column(t.SUPPLY_VOLATILITY, t.SupplyTier)
STANCE_ATTACK = column(t.STANCE_ATTACK, t.Stance)
STANCE_DEFENCE = column(t.STANCE_DEFENCE, t.Stance)
STANCE_RESOLVE = column(t.STANCE_RESOLVE, t.Stance)
STANCE_SHOCK_TO_DEFENDER = column(t.STANCE_SHOCK_TO_DEFENDER, t.Stance)
STANCE_SHOCK_TO_ATTACKER = column(t.STANCE_SHOCK_TO_ATTACKER, t.Stance)
TERRAIN_COVER = column(t.TERRAIN_COVER, t.Terrain)
TERRAIN_CHAOS = column(t.TERRAIN_CHAOS, t.Terrain)
TERRAIN_COUNT = len(t.Terrain)
ROLE_TERRAIN_COLUMN = tuple(
    value for role in t.Role for value in column(t.ROLE_TERRAIN[role], t.Terrain)
)
"""roleTerrain flattened as [role code x 7 + terrain code]."""
COMBINED_ARMS = (0, *column(t.COMBINED_ARMS, range(1, max(t.COMBINED_ARMS) + 1)))
"""Indexed by the count of distinct roles (a force always has at least one)."""
INTENSITY_OUT = tuple(t.KIND_PROFILES[kind].intensity_out for kind in t.Kind)
INTENSITY_BACK = tuple(t.KIND_PROFILES[kind].intensity_back for kind in t.Kind)
BREAK_CHECKS = tuple(int(t.KIND_PROFILES[kind].break_checks) for kind in t.Kind)
ASSAULT = list(t.Kind).index(t.Kind.ASSAULT)
REACTION = list(t.Kind).index(t.Kind.REACTION)
BOMBARDMENT = list(t.Kind).index(t.Kind.BOMBARDMENT)
PER_MILLE = t.PER_MILLE
MEDIAN_DRAW = t.MEDIAN_DRAW
SWING_DIVISOR = t.SWING_DIVISOR
MIN_POWER = t.MIN_POWER
STRENGTH_SCALE = t.STRENGTH_SCALE


@dataclass(slots=True)
class Columns:
    """A clash specification flattened to integers (enum codes are declaration indices).

    An absent supporter has strength 0, which makes its contribution 0 and keeps its role
    out of the count of distinct roles.
    """

    kind: Value
    terrain: Value
    flankers: Value
    stack_extra: Value
    attacker_edge_mods: Value
    defender_extra_mods: Value
    in_own_city: Value
    encircled: Value
    volatility_floor: Value
    lead_atk: Value
    lead_tough: Value
    lead_role: Value
    lead_strength: Value
    lead_disorder: Value
    lead_grade: Value
    lead_supply: Value
    lead_stance: Value
    lead_works: Value
    lead_shaken: Value
    support1_atk: Value
    support1_role: Value
    support1_strength: Value
    support1_grade: Value
    support1_supply: Value
    support2_atk: Value
    support2_role: Value
    support2_strength: Value
    support2_grade: Value
    support2_supply: Value
    defender_def: Value
    defender_tough: Value
    defender_role: Value
    defender_strength: Value
    defender_disorder: Value
    defender_grade: Value
    defender_supply: Value
    defender_stance: Value
    defender_dig_in: Value
    defender_works: Value
    defender_shaken: Value


@dataclass(slots=True)
class Prepared:
    """Every quantity of Steps 1-4 plus the draw-independent terms of Steps 6-7."""

    power_lead: PowerTerms
    power_support1: PowerTerms
    power_support2: PowerTerms
    power_defender: PowerTerms
    contribution_lead: Value
    contribution_support1: Value
    contribution_support2: Value
    contribution_defender: Value
    a_raw: Value
    d_raw: Value
    distinct_roles: Value
    stance_attack_term: Value
    combined_arms_term: Value
    attacker_mods: Value
    cover_term: Value
    stance_defence_term: Value
    position_term: Value
    stack_term: Value
    defender_mods: Value
    a: Value
    d: Value
    volatility_lead: Value
    volatility_defender: Value
    volatility: Value
    reliability: Value
    resolve_terms_attacker: ResolveTerms
    resolve_terms_defender: ResolveTerms
    resolve_attacker: Value
    resolve_defender: Value
    intensity_out: Value
    intensity_back: Value
    lead_strength: Value
    defender_strength: Value
    defender_loss_divisor: Value
    attacker_loss_divisor: Value
    flank_shock: Value
    stance_shock_to_defender: Value
    stance_shock_to_attacker: Value
    works_shock: Value
    break_checks: Value


@dataclass(slots=True)
class Exchange:
    """The draw-dependent quantities of Steps 5-7 for one r [CB-870, CB-960]."""

    r: Value
    s: Value
    a_eff: Value
    d_eff: Value
    share_a: Value
    share_d: Value
    ld: Value
    la: Value
    shock_defender: Value
    shock_attacker: Value
    defender_breaks: Value
    attacker_shock_reaches_resolve: Value
    attacker_falters: Value


class PowerTerms(NamedTuple):
    """The per-mille modifiers of one unit's power, each a term the panel names [CB-470]."""

    grade: Value
    supply: Value
    role_terrain: Value


class ResolveTerms(NamedTuple):
    """The terms of a resolve, in the order of CB-710; the resolve is their clamped sum."""

    base: Value
    grade: Value
    stance: Value
    works: Value
    supply: Value
    own_city: Value
    disorder: Value
    strength: Value
    encircled: Value
    shaken: Value


def power_terms(ops: Ops, grade: Value, supply: Value, role: Value, terrain: Value) -> PowerTerms:
    """A unit's grade, supply and role-in-terrain modifiers [CB-480..CB-510]."""
    return PowerTerms(ops.take(GRADE_POWER, grade), ops.take(SUPPLY_POWER, supply),
                      ops.take(ROLE_TERRAIN_COLUMN, role * TERRAIN_COUNT + terrain))


def contribution(ops: Ops, base: Value, strength: Value, terms: PowerTerms, factor: int) -> Value:
    """One unit's raw power: one expression, one division, floored per unit [CB-470, CB-530]."""
    return base * strength * (PER_MILLE + sum(terms)) * factor // t.CONTRIBUTION_DIVISOR


def resolve_terms(
    ops: Ops, grade: Value, stance: Value, works: Value, supply: Value, in_own_city: Value,
    disorder: Value, strength: Value, encircled: Value, shaken: Value,
) -> ResolveTerms:
    """Each term of a resolve, by the same function for both sides [CB-710, CB-780]."""
    return ResolveTerms(
        base=t.RESOLVE_BASE,
        grade=ops.take(GRADE_RESOLVE, grade),
        stance=ops.take(STANCE_RESOLVE, stance),
        works=t.RESOLVE_PER_WORKS * works,
        supply=ops.take(SUPPLY_RESOLVE, supply),
        own_city=ops.where(in_own_city, t.OWN_CITY_RESOLVE, 0),
        disorder=-disorder,
        strength=-((t.MAX_STRENGTH - strength) // t.STRENGTH_RESOLVE_DIVISOR),
        encircled=ops.where(encircled, t.ENCIRCLED_RESOLVE, 0),
        shaken=ops.where(shaken > 0, t.SHAKEN_RESOLVE, 0),
    )


def resolve(ops: Ops, terms: ResolveTerms) -> Value:
    """A resolve: the sum of its terms, held within the limits [CB-710, CB-780]."""
    return ops.clamp(sum(terms), t.RESOLVE_MIN, t.RESOLVE_MAX)


def _distinct_roles(ops: Ops, c: Columns) -> Value:
    """Count of distinct roles in the attacking force (absent supporters have strength 0)."""
    second = ops.both(c.support1_strength > 0, c.support1_role != c.lead_role)
    third = ops.both(
        c.support2_strength > 0,
        ops.both(
            c.support2_role != c.lead_role,
            ops.either(c.support1_strength <= 0, c.support2_role != c.support1_role),
        ),
    )
    return 1 + ops.as_int(second) + ops.as_int(third)


def prepare(ops: Ops, c: Columns) -> Prepared:
    """Steps 1-4 and the fixed terms of the break checks, in the order of section 5."""
    is_reaction = c.kind == REACTION
    is_assault = c.kind == ASSAULT
    # Step 1 [CB-470..CB-530]
    power_lead = power_terms(ops, c.lead_grade, c.lead_supply, c.lead_role, c.terrain)
    power_support1 = power_terms(ops, c.support1_grade, c.support1_supply, c.support1_role,
                                 c.terrain)
    power_support2 = power_terms(ops, c.support2_grade, c.support2_supply, c.support2_role,
                                 c.terrain)
    power_defender = power_terms(ops, c.defender_grade, c.defender_supply, c.defender_role,
                                 c.terrain)
    lead = contribution(ops, c.lead_atk, c.lead_strength, power_lead, t.LEAD_FACTOR)
    support1 = contribution(ops, c.support1_atk, c.support1_strength, power_support1,
                            t.SUPPORTER_FACTOR)
    support2 = contribution(ops, c.support2_atk, c.support2_strength, power_support2,
                            t.SUPPORTER_FACTOR)
    defender = contribution(ops, c.defender_def, c.defender_strength, power_defender,
                            t.LEAD_FACTOR)
    a_raw = lead + support1 + support2
    d_raw = defender
    # Step 2 [CB-540..CB-640, CB-1790]
    roles = _distinct_roles(ops, c)
    stance_attack = ops.where(is_reaction, t.PREPARED_FIRE, ops.take(STANCE_ATTACK, c.lead_stance))
    combined_arms = ops.where(is_reaction, 0, ops.take(COMBINED_ARMS, roles))
    attacker_mods = ops.clamp(stance_attack + combined_arms + c.attacker_edge_mods,
                              t.FORCE_MODS_MIN, t.FORCE_MODS_MAX)
    cover = ops.take(TERRAIN_COVER, c.terrain)
    stance_defence = ops.take(STANCE_DEFENCE, c.defender_stance)
    position = t.POSITION_STEP * ops.maximum(c.defender_dig_in, c.defender_works)
    stack = t.STACK_STEP * ops.minimum(t.STACK_CAP, c.stack_extra)
    defender_mods = ops.clamp(cover + stance_defence + position + stack + c.defender_extra_mods,
                              t.FORCE_MODS_MIN, t.FORCE_MODS_MAX)
    a = ops.maximum(t.MIN_POWER, a_raw * (PER_MILLE + attacker_mods) // PER_MILLE)
    d = ops.maximum(t.MIN_POWER, d_raw * (PER_MILLE + defender_mods) // PER_MILLE)
    # Step 3 [CB-660..CB-700]
    volatility_lead = ops.take(GRADE_VOLATILITY, c.lead_grade) + ops.take(
        SUPPLY_VOLATILITY, c.lead_supply)
    volatility_defender = ops.take(GRADE_VOLATILITY, c.defender_grade) + ops.take(
        SUPPLY_VOLATILITY, c.defender_supply)
    volatility = ops.clamp((volatility_lead + volatility_defender) // 2
                           + ops.take(TERRAIN_CHAOS, c.terrain),
                           c.volatility_floor, t.VOLATILITY_MAX)
    # Step 4 [CB-710..CB-780]; city and encirclement are the defender's alone
    resolve_terms_attacker = resolve_terms(
        ops, c.lead_grade, c.lead_stance, c.lead_works, c.lead_supply, False, c.lead_disorder,
        c.lead_strength, False, c.lead_shaken)
    resolve_terms_defender = resolve_terms(
        ops, c.defender_grade, c.defender_stance, c.defender_works, c.defender_supply,
        c.in_own_city, c.defender_disorder, c.defender_strength, c.encircled, c.defender_shaken)
    # fixed shock terms [CB-960..CB-1000, CB-1810]
    flank_shock = ops.where(
        is_assault,
        t.FLANK_SHOCK_PER_FLANKER * ops.minimum(t.FLANK_SHOCK_CAP, c.flankers),
        ops.where(is_reaction, t.AMBUSH_SHOCK, 0),
    )
    stance_shock_to_defender = ops.where(
        is_assault, ops.take(STANCE_SHOCK_TO_DEFENDER, c.lead_stance), 0)
    stance_shock_to_attacker = ops.where(
        is_assault, ops.take(STANCE_SHOCK_TO_ATTACKER, c.defender_stance), 0)
    works_shock = ops.where(
        is_assault, ops.minimum(t.WORKS_SHOCK_CAP, t.WORKS_SHOCK_PER_LEVEL * c.defender_works), 0)
    return Prepared(
        power_lead=power_lead, power_support1=power_support1, power_support2=power_support2,
        power_defender=power_defender,
        contribution_lead=lead, contribution_support1=support1,
        contribution_support2=support2, contribution_defender=defender,
        a_raw=a_raw, d_raw=d_raw, distinct_roles=roles,
        stance_attack_term=stance_attack, combined_arms_term=combined_arms,
        attacker_mods=attacker_mods, cover_term=cover, stance_defence_term=stance_defence,
        position_term=position, stack_term=stack, defender_mods=defender_mods, a=a, d=d,
        volatility_lead=volatility_lead, volatility_defender=volatility_defender,
        volatility=volatility, reliability=volatility // t.RELIABILITY_DIVISOR,
        resolve_terms_attacker=resolve_terms_attacker,
        resolve_terms_defender=resolve_terms_defender,
        resolve_attacker=resolve(ops, resolve_terms_attacker),
        resolve_defender=resolve(ops, resolve_terms_defender),
        intensity_out=ops.take(INTENSITY_OUT, c.kind),
        intensity_back=ops.take(INTENSITY_BACK, c.kind),
        lead_strength=c.lead_strength, defender_strength=c.defender_strength,
        defender_loss_divisor=PER_MILLE * c.defender_tough,
        attacker_loss_divisor=PER_MILLE * c.lead_tough,
        flank_shock=flank_shock, stance_shock_to_defender=stance_shock_to_defender,
        stance_shock_to_attacker=stance_shock_to_attacker, works_shock=works_shock,
        break_checks=ops.take(BREAK_CHECKS, c.kind) > 0,
    )


# --- Steps 5-7: one draw ------------------------------------------------------------------
def exchange(ops: Ops, p: Prepared, r: Value) -> Exchange:
    """Steps 5-7 for the draw r, in the order and with the divisions of CB-870 and CB-960.

    One draw pushes A up and D down by the same swing s [CB-890]; the defender break
    suppresses the falter [CB-1010]; a bombardment has no break checks [CB-1020].
    """
    s = (r - MEDIAN_DRAW) * p.volatility // SWING_DIVISOR
    a_eff = ops.maximum(MIN_POWER, p.a * (PER_MILLE + s) // PER_MILLE)
    d_eff = ops.maximum(MIN_POWER, p.d * (PER_MILLE - s) // PER_MILLE)
    share_a = a_eff * PER_MILLE // (a_eff + d_eff)
    share_d = PER_MILLE - share_a
    ld = ops.minimum(p.defender_strength,
                     p.intensity_out * share_a * STRENGTH_SCALE // p.defender_loss_divisor)
    la = ops.minimum(p.lead_strength,
                     p.intensity_back * share_d * STRENGTH_SCALE // p.attacker_loss_divisor)
    shock_defender = ld + p.flank_shock + p.stance_shock_to_defender
    shock_attacker = la + p.stance_shock_to_attacker + p.works_shock
    breaks = ops.both(p.break_checks, shock_defender >= p.resolve_defender)
    reaches = ops.both(p.break_checks, shock_attacker >= p.resolve_attacker)
    return Exchange(r, s, a_eff, d_eff, share_a, share_d, ld, la, shock_defender,
                    shock_attacker, breaks, reaches, ops.both(reaches, ops.negate(breaks)))
