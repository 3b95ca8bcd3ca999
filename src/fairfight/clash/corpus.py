"""The reference corpora of the CI invariants: the monotonicity sweep and the oracle corpus.

The sweep [CB-2670] crosses every terrain, grade, supply tier and Stance with three strength
levels, two disorder levels, two dig-in levels and every pairing of the calibration cast:
7 x 4 x 4 x 4 x 3 x 2 x 2 x 16 = 86,016 assaults, each at all 1000 draws (86,016,000
evaluations). The oracle corpus [CB-2690] takes the 5,376 combinations of terrain and the
per-unit settings and varies everything else of the specification around them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.kernel import Columns
from fairfight.clash.parallel import Int64Array
from fairfight.clash.spec import ClashSpec, Combatant, stance_may_initiate

__all__ = [
    "CAST_SIZE",
    "ORACLE_SIZE",
    "SWEEP_DIG_INS",
    "SWEEP_DISORDERS",
    "SWEEP_RADICES",
    "SWEEP_SIZE",
    "SWEEP_STRENGTHS",
    "SweepPoint",
    "UNIT_SETTINGS",
    "oracle_specs",
    "random_columns",
    "sweep_columns",
    "sweep_point",
]

SWEEP_STRENGTHS = (40, 70, 100)
SWEEP_DISORDERS = (0, 40)
SWEEP_DIG_INS = (0, 2)
CAST_SIZE = len(t.CALIBRATION_CAST)
SWEEP_RADICES = (
    len(t.Terrain), len(t.Grade), len(t.SupplyTier), len(t.Stance), len(SWEEP_STRENGTHS),
    len(SWEEP_DISORDERS), len(SWEEP_DIG_INS), CAST_SIZE, CAST_SIZE,
)
"""terrain, grade, supply, Stance, strength, disorder, dig-in, attacker class, defender class."""
SWEEP_SIZE = int(np.prod(SWEEP_RADICES))
UNIT_SETTINGS = int(np.prod(SWEEP_RADICES[1:7]))
ORACLE_SIZE = len(t.Terrain) * UNIT_SETTINGS


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """The digits of one sweep index (codes are enum declaration indices)."""

    terrain: Int64Array
    grade: Int64Array
    supply: Int64Array
    stance: Int64Array
    strength: Int64Array
    disorder: Int64Array
    dig_in: Int64Array
    attacker: Int64Array
    defender: Int64Array


def sweep_point(index: Int64Array) -> SweepPoint:
    """Split sweep indices into their mixed-radix digits, terrain varying fastest."""
    digits = []
    rest = np.asarray(index, dtype=np.int64)
    for radix in SWEEP_RADICES:
        digits.append(rest % radix)
        rest = rest // radix
    point = SweepPoint(*digits)
    return SweepPoint(
        terrain=point.terrain, grade=point.grade, supply=point.supply, stance=point.stance,
        strength=np.asarray(SWEEP_STRENGTHS, dtype=np.int64)[point.strength],
        disorder=np.asarray(SWEEP_DISORDERS, dtype=np.int64)[point.disorder],
        dig_in=np.asarray(SWEEP_DIG_INS, dtype=np.int64)[point.dig_in],
        attacker=point.attacker, defender=point.defender,
    )


def _cast_column(index: Int64Array, stat: str) -> Int64Array:
    values = [getattr(unit, stat) for unit in t.CALIBRATION_CAST]
    if stat == "role":
        values = [list(t.Role).index(role) for role in values]
    column: Int64Array = np.asarray(values, dtype=np.int64)[index]
    return column


def sweep_columns(index: Int64Array) -> Columns:
    """The sweep's assaults at the given indices: lone lead, one flanker, both sides at the
    point's grade, supply, Stance, strength and disorder, the defender at its dig-in."""
    point = sweep_point(index)
    n = point.terrain.shape[0]

    def constant(value: int) -> Int64Array:
        return np.full(n, value, dtype=np.int64)

    none = constant(0)
    return Columns(
        kind=constant(list(t.Kind).index(t.Kind.ASSAULT)), terrain=point.terrain,
        flankers=constant(1), stack_extra=none, attacker_edge_mods=none,
        defender_extra_mods=none, in_own_city=none.astype(bool), encircled=none.astype(bool),
        volatility_floor=constant(t.VOLATILITY_FLOOR_MEASURED),
        lead_atk=_cast_column(point.attacker, "atk"),
        lead_tough=_cast_column(point.attacker, "tough"),
        lead_role=_cast_column(point.attacker, "role"), lead_strength=point.strength,
        lead_disorder=point.disorder, lead_grade=point.grade, lead_supply=point.supply,
        lead_stance=point.stance, lead_works=none, lead_shaken=none,
        support1_atk=none, support1_role=none, support1_strength=none, support1_grade=none,
        support1_supply=none, support2_atk=none, support2_role=none, support2_strength=none,
        support2_grade=none, support2_supply=none,
        defender_def=_cast_column(point.defender, "defence"),
        defender_tough=_cast_column(point.defender, "tough"),
        defender_role=_cast_column(point.defender, "role"),
        defender_strength=point.strength, defender_disorder=point.disorder,
        defender_grade=point.grade, defender_supply=point.supply,
        defender_stance=point.stance, defender_dig_in=point.dig_in, defender_works=none,
        defender_shaken=none,
    )


def _unit(cast_index: int, grade: t.Grade, supply: t.SupplyTier, stance: t.Stance,
          strength: int, disorder: int, **extra: int) -> Combatant:
    unit = t.CALIBRATION_CAST[cast_index]
    return Combatant(
        atk=unit.atk, defence=unit.defence, tough=unit.tough, role=unit.role,
        strength=strength, disorder=disorder, grade=grade, supply_tier=supply, stance=stance,
        creation_sequence=cast_index, **extra,
    )


def oracle_specs() -> list[ClashSpec]:
    """The 5,376 specifications of the oracle corpus [CB-2690].

    Each terrain meets each of the 768 per-unit settings of the sweep once; the setting's
    number then picks the cast pairing, the kind, the supporters, flankers, stack, works,
    city, encirclement, shaken, caught, edge terms and the volatility floor, so that every
    field of the specification takes several values across the corpus.
    """
    grades, supplies, stances = list(t.Grade), list(t.SupplyTier), list(t.Stance)
    kinds = (t.Kind.ASSAULT, t.Kind.BOMBARDMENT, t.Kind.REACTION)
    edges = (0, t.UPHILL, t.RIVER_CROSSING, t.AMPHIBIOUS)
    specs = []
    for number in range(ORACLE_SIZE):
        point = sweep_point(np.asarray([number]))
        setting = number // len(t.Terrain)
        attacker, defender = setting % CAST_SIZE, (setting // CAST_SIZE) % CAST_SIZE
        kind = kinds[(setting // 16) % 3]
        grade, supply = grades[int(point.grade[0])], supplies[int(point.supply[0])]
        stance = stances[int(point.stance[0])]
        strength, disorder = int(point.strength[0]), int(point.disorder[0])
        lead_stance = stance
        if not stance_may_initiate(stance, kind):
            lead_stance = t.Stance.ADVANCE
        supporters: tuple[Combatant, ...] = ()
        if kind is t.Kind.ASSAULT:
            count = (setting // 48) % 3
            supporters = tuple(
                _unit((attacker + k + 1) % CAST_SIZE, grades[(setting + k) % 4],
                      supplies[(setting // 3 + k) % 4], t.Stance.HOLD, 100 - 30 * k, 0)
                for k in range(count)
            )
        specs.append(ClashSpec(
            kind=kind, terrain=list(t.Terrain)[int(point.terrain[0])],
            lead=_unit(attacker, grade, supply, lead_stance, strength, disorder),
            supporters=supporters,
            defender=_unit(defender, grades[(setting // 5) % 4], supply, stance,
                           101 - strength, 40 - disorder, dig_in=int(point.dig_in[0]),
                           works=(setting // 7) % 5, shaken=2 * (setting % 9 == 0)),
            flankers=setting % 6, stack_extra=(setting // 6) % 4,
            attacker_edge_mods=edges[setting % 4],
            defender_extra_mods=t.CAUGHT if setting % 13 == 0 else 0,
            in_own_city=setting % 7 == 0, encircled=setting % 11 == 0,
            volatility_floor=t.VOLATILITY_FLOORS[int(setting % 5 == 0)],
        ))
    return specs


def random_columns(n: int, seed: int) -> Columns:
    """n valid clashes drawn at random over every field (for benchmarks and batch tests).

    Classes come from the calibration cast; kinds, terrains, conditions, supporters, flags
    and terms are uniform over their legal values, so the batch sees a realistic mix of
    certain and uncertain outcomes.
    """
    rng = np.random.default_rng(seed)

    def pick(values: tuple[int, ...] | list[int]) -> Int64Array:
        chosen: Int64Array = np.asarray(values, dtype=np.int64)[rng.integers(0, len(values), n)]
        return chosen

    def between(low: int, high: int) -> Int64Array:
        drawn: Int64Array = rng.integers(low, high + 1, n, dtype=np.int64)
        return drawn

    kinds = [list(t.Kind).index(kind) for kind in
             (t.Kind.ASSAULT, t.Kind.BOMBARDMENT, t.Kind.REACTION)]
    kind = pick(kinds)
    assault = kind == list(t.Kind).index(t.Kind.ASSAULT)
    lead_stance = between(0, len(t.Stance) - 1)
    may_initiate = np.asarray([[stance_may_initiate(stance, kind_of) for stance in t.Stance]
                               for kind_of in t.Kind])  # [kind code, stance code]
    advance = list(t.Stance).index(t.Stance.ADVANCE)
    lead_stance = np.where(may_initiate[kind, lead_stance], lead_stance, advance)
    supporters = np.where(assault, between(0, t.MAX_SUPPORTERS), 0)
    cast = {name: between(0, CAST_SIZE - 1) for name in ("lead", "s1", "s2", "defender")}
    s1_strength = np.where(supporters >= 1, between(1, 100), 0)
    s2_strength = np.where(supporters >= 2, between(1, 100), 0)
    return Columns(
        kind=kind, terrain=between(0, len(t.Terrain) - 1), flankers=between(0, 8),
        stack_extra=between(0, 3), attacker_edge_mods=pick((0, t.UPHILL, t.RIVER_CROSSING)),
        defender_extra_mods=pick((0, 0, 0, t.CAUGHT)), in_own_city=between(0, 1) > 0,
        encircled=between(0, 5) == 0, volatility_floor=pick(t.VOLATILITY_FLOORS),
        lead_atk=_cast_column(cast["lead"], "atk"), lead_tough=_cast_column(cast["lead"], "tough"),
        lead_role=_cast_column(cast["lead"], "role"), lead_strength=between(1, 100),
        lead_disorder=between(0, 100), lead_grade=between(0, 3), lead_supply=between(0, 3),
        lead_stance=lead_stance, lead_works=between(0, 4), lead_shaken=between(0, 2),
        support1_atk=_cast_column(cast["s1"], "atk"),
        support1_role=_cast_column(cast["s1"], "role"),
        support1_strength=s1_strength, support1_grade=between(0, 3),
        support1_supply=between(0, 3),
        support2_atk=_cast_column(cast["s2"], "atk"),
        support2_role=_cast_column(cast["s2"], "role"),
        support2_strength=s2_strength, support2_grade=between(0, 3),
        support2_supply=between(0, 3),
        defender_def=_cast_column(cast["defender"], "defence"),
        defender_tough=_cast_column(cast["defender"], "tough"),
        defender_role=_cast_column(cast["defender"], "role"),
        defender_strength=between(1, 100), defender_disorder=between(0, 100),
        defender_grade=between(0, 3), defender_supply=between(0, 3),
        defender_stance=between(0, 3), defender_dig_in=between(0, 4),
        defender_works=between(0, 4), defender_shaken=between(0, 2),
    )
