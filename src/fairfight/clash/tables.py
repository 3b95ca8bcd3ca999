"""Every constant and table of the clash rules, version 1 (`COMBAT_LOGIC_VERSION`).

The values are the reconstructed tables of the combat specification. Each table is a mapping
keyed by a typed enum; the kernels read them through `column(...)`, which lays a table out
in enum order so that both Python ints and numpy arrays can index it. Nothing else in the
package writes a rules number down. The enums themselves are the vocabulary
(`fairfight.clash.vocabulary`), re-exported here with the numbers they key.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.clash.vocabulary import (
    Grade,
    Kind,
    PerMille,
    RecoverySituation,
    RetreatClass,
    Role,
    Stance,
    SupplyTier,
    Terrain,
)

__all__ = [
    "AMBUSH_SHOCK",
    "AMPHIBIOUS",
    "BOMBARD_DISORDER_BASE",
    "BOMBARD_DISORDER_PER_LOSS",
    "BOMBARD_STRENGTH_FLOOR",
    "BROKE_DISORDER",
    "CALIBRATION_CAST",
    "CAUGHT",
    "COMBAT_LOGIC_VERSION",
    "COMBINED_ARMS",
    "CONTRIBUTION_DIVISOR",
    "DEFENDER_LOSS_DISORDER_DIVISOR",
    "DISENGAGE_DISORDER",
    "DISENGAGE_LOSS_NUMERATOR",
    "DRAWS",
    "DRAW_LOW_BITS",
    "ENCIRCLED_RESOLVE",
    "FALTER_DISORDER",
    "FLANK_SHOCK_CAP",
    "FLANK_SHOCK_PER_FLANKER",
    "FORCE_MODS_MAX",
    "FORCE_MODS_MIN",
    "GRADE_POWER",
    "GRADE_RESOLVE",
    "GRADE_VOLATILITY",
    "GRADE_XP_THRESHOLD",
    "Grade",
    "HIGH_DRAW",
    "KIND_PROFILES",
    "Kind",
    "KindProfile",
    "LEAD_DISORDER",
    "LEAD_FACTOR",
    "MARCH_MAY_INITIATE",
    "MAX_ATTACKER_TOTAL",
    "MAX_DEFENDER_TOTAL",
    "MAX_DISORDER",
    "MAX_POSITION",
    "MAX_STRENGTH",
    "MAX_SUPPORTERS",
    "MEDIAN_DRAW",
    "MIN_POWER",
    "OWN_CITY_RESOLVE",
    "PER_MILLE",
    "POSITION_STEP",
    "PREPARED_FIRE",
    "PerMille",
    "RECOVERY_BASE",
    "RELIABILITY_DIVISOR",
    "RESOLVE_BASE",
    "RESOLVE_MAX",
    "RESOLVE_MIN",
    "RESOLVE_PER_WORKS",
    "RIVER_CROSSING",
    "ROLE_TERRAIN",
    "RecoverySituation",
    "RetreatClass",
    "Role",
    "SHAKEN_ON_HOLD",
    "SHAKEN_RESOLVE",
    "STACK_CAP",
    "STACK_STEP",
    "STANCE_ATTACK",
    "STANCE_DEFENCE",
    "STANCE_RESOLVE",
    "STANCE_SHOCK_TO_ATTACKER",
    "STANCE_SHOCK_TO_DEFENDER",
    "STRENGTH_RESOLVE_DIVISOR",
    "STRENGTH_SCALE",
    "SUPPLY_POWER",
    "SUPPLY_RESOLVE",
    "SUPPLY_VOLATILITY",
    "SUPPORTER_DISORDER",
    "SUPPORTER_FACTOR",
    "SWING_DIVISOR",
    "Stance",
    "SupplyTier",
    "TERRAIN_CHAOS",
    "TERRAIN_COVER",
    "Terrain",
    "UPHILL",
    "UnitClass",
    "VOLATILITY_FLOORS",
    "VOLATILITY_FLOOR_CHAOTIC",
    "VOLATILITY_FLOOR_MEASURED",
    "VOLATILITY_MAX",
    "WORKS_SHOCK_CAP",
    "WORKS_SHOCK_PER_LEVEL",
    "XP_BASE",
    "XP_DAMAGE_DIVISOR",
    "XP_MAX",
    "XP_OPPONENT_BROKE",
    "XP_PER_TURN_CAP",
    "XP_SUPPORTER_DIVISOR",
    "grade_for_xp",
]

PER_MILLE: PerMille = 1000
"""One whole, in per-mille."""

COMBAT_LOGIC_VERSION = 1
"""Bumped whenever any constant, table, formula or ordering below changes [CB-2530]."""


@dataclass(frozen=True, slots=True)
class KindProfile:
    """The constants that distinguish the kinds of engagement [CB-200]."""

    intensity_out: int
    intensity_back: int
    max_supporters: int
    break_checks: bool
    may_advance: bool
    draws: int


KIND_PROFILES: dict[Kind, KindProfile] = {
    Kind.ASSAULT: KindProfile(60, 60, 2, True, True, 1),
    Kind.BOMBARDMENT: KindProfile(22, 0, 0, False, False, 1),
    Kind.REACTION: KindProfile(34, 14, 0, True, False, 1),
    Kind.DISENGAGEMENT: KindProfile(0, 0, 0, False, True, 0),
}

# --- Step 1: contributions [CB-470..CB-530] ---------------------------------------------
CONTRIBUTION_DIVISOR = 100_000_000
"""Strength (per cent) x modifiers (per-mille) x factor (per-mille) all divided at once."""
LEAD_FACTOR: PerMille = 1000
"""The lead attacker and the defender contribute at full weight [CB-490]."""
SUPPORTER_FACTOR: PerMille = 400
"""A supporter contributes, and bleeds, at 400 per-mille [CB-490, CB-900]."""
MAX_SUPPORTERS = KIND_PROFILES[Kind.ASSAULT].max_supporters
"""Up to two supporters may join an assault [CB-370]."""

GRADE_POWER: dict[Grade, PerMille] = {
    Grade.GREEN: 0, Grade.TRAINED: 80, Grade.VETERAN: 180, Grade.ELITE: 300,
}
GRADE_RESOLVE: dict[Grade, int] = {
    Grade.GREEN: 0, Grade.TRAINED: 5, Grade.VETERAN: 12, Grade.ELITE: 20,
}
GRADE_VOLATILITY: dict[Grade, PerMille] = {
    Grade.GREEN: 1000, Grade.TRAINED: 850, Grade.VETERAN: 700, Grade.ELITE: 550,
}
GRADE_XP_THRESHOLD: dict[Grade, int] = {
    Grade.GREEN: 0, Grade.TRAINED: 100, Grade.VETERAN: 300, Grade.ELITE: 700,
}

SUPPLY_POWER: dict[SupplyTier, PerMille] = {
    SupplyTier.CUT: -400, SupplyTier.STRAINED: -150, SupplyTier.ADEQUATE: 0, SupplyTier.FULL: 50,
}
SUPPLY_RESOLVE: dict[SupplyTier, int] = {
    SupplyTier.CUT: -15, SupplyTier.STRAINED: -5, SupplyTier.ADEQUATE: 0, SupplyTier.FULL: 0,
}
SUPPLY_VOLATILITY: dict[SupplyTier, PerMille] = {
    SupplyTier.CUT: 300, SupplyTier.STRAINED: 100, SupplyTier.ADEQUATE: 0, SupplyTier.FULL: -100,
}

ROLE_TERRAIN: dict[Role, dict[Terrain, PerMille]] = {
    Role.FOOT: {
        Terrain.OPEN: 50, Terrain.HILLS: 100, Terrain.FOREST: 150, Terrain.MARSH: 0,
        Terrain.MOUNTAIN: 200, Terrain.URBAN: 200, Terrain.WATER: -500,
    },
    Role.ARMOR: {
        Terrain.OPEN: 200, Terrain.HILLS: 0, Terrain.FOREST: -300, Terrain.MARSH: -400,
        Terrain.MOUNTAIN: -500, Terrain.URBAN: -200, Terrain.WATER: -500,
    },
    Role.GUN: {
        Terrain.OPEN: 100, Terrain.HILLS: 0, Terrain.FOREST: -150, Terrain.MARSH: -200,
        Terrain.MOUNTAIN: -200, Terrain.URBAN: -100, Terrain.WATER: -500,
    },
    Role.RECON: {
        Terrain.OPEN: 100, Terrain.HILLS: 100, Terrain.FOREST: 50, Terrain.MARSH: 0,
        Terrain.MOUNTAIN: 0, Terrain.URBAN: 0, Terrain.WATER: -500,
    },
    Role.NAVAL: {
        Terrain.OPEN: -300, Terrain.HILLS: -300, Terrain.FOREST: -300, Terrain.MARSH: -200,
        Terrain.MOUNTAIN: -300, Terrain.URBAN: -300, Terrain.WATER: 100,
    },
    Role.AIR: {
        Terrain.OPEN: 100, Terrain.HILLS: 0, Terrain.FOREST: -100, Terrain.MARSH: 0,
        Terrain.MOUNTAIN: -100, Terrain.URBAN: -200, Terrain.WATER: 100,
    },
}
"""How well each role fights on each terrain, per-mille of its power [CB-1450]."""

TERRAIN_COVER: dict[Terrain, PerMille] = {
    Terrain.OPEN: -50, Terrain.HILLS: 200, Terrain.FOREST: 400, Terrain.MARSH: 150,
    Terrain.MOUNTAIN: 600, Terrain.URBAN: 500, Terrain.WATER: 0,
}
TERRAIN_CHAOS: dict[Terrain, PerMille] = {
    Terrain.OPEN: 0, Terrain.HILLS: 100, Terrain.FOREST: 200, Terrain.MARSH: 300,
    Terrain.MOUNTAIN: 150, Terrain.URBAN: 400, Terrain.WATER: 100,
}

# --- Step 2: force-level modifiers [CB-540..CB-640] ------------------------------------
FORCE_MODS_MIN: PerMille = -700
FORCE_MODS_MAX: PerMille = 1800
COMBINED_ARMS: dict[int, PerMille] = {1: 0, 2: 120, 3: 260}
"""Bonus by the number of distinct roles in the attacking force [CB-560]."""
PREPARED_FIRE: PerMille = 200
"""A reactor's attack term, replacing its Stance term and combined arms [CB-1790]."""
RIVER_CROSSING: PerMille = -300
UPHILL: PerMille = -150
AMPHIBIOUS: PerMille = -500
POSITION_STEP: PerMille = 100
"""Per level of max(dig-in, works) [CB-1550]."""
MAX_POSITION = 4
"""Both dig-in and works run 0..4 [CB-1560, CB-1570]."""
STACK_STEP: PerMille = 100
"""Per extra unit on the defending tile [CB-1930]."""
STACK_CAP = 3
CAUGHT: PerMille = -200
"""Defender term after a failed disengagement [CB-1860]."""
MAX_DEFENDER_TOTAL: PerMille = 1600
MAX_ATTACKER_TOTAL: PerMille = 510
"""The reachable maxima CI asserts against these tables [CB-630, CB-2680]."""
MIN_POWER = 1
"""Neither force ever has zero power [CB-640]."""

STANCE_ATTACK: dict[Stance, PerMille] = {
    Stance.MARCH: 0, Stance.ADVANCE: 250, Stance.HOLD: 0, Stance.ENTRENCH: -400,
}
"""March may not initiate at all; its 0 is never read by a legal spec [CB-1530]."""
STANCE_DEFENCE: dict[Stance, PerMille] = {
    Stance.MARCH: -300, Stance.ADVANCE: -200, Stance.HOLD: 0, Stance.ENTRENCH: 300,
}
STANCE_RESOLVE: dict[Stance, int] = {
    Stance.MARCH: -5, Stance.ADVANCE: -10, Stance.HOLD: 0, Stance.ENTRENCH: 15,
}
STANCE_SHOCK_TO_DEFENDER: dict[Stance, int] = {
    Stance.MARCH: 0, Stance.ADVANCE: 6, Stance.HOLD: 0, Stance.ENTRENCH: 0,
}
"""Shock the lead's Stance adds to the defender when attacking [CB-1520]."""
STANCE_SHOCK_TO_ATTACKER: dict[Stance, int] = {
    Stance.MARCH: 0, Stance.ADVANCE: 0, Stance.HOLD: 5, Stance.ENTRENCH: 10,
}
"""Shock the defender's Stance adds to the lead when defending [CB-1520]."""
MARCH_MAY_INITIATE = False
"""Whether a unit in March may initiate an assault or a bombardment [CB-1530] (a reaction
is not an initiative: `spec.stance_may_initiate` reads this for every kind)."""

# --- Step 3: volatility [CB-660..CB-700] -------------------------------------------------
VOLATILITY_FLOOR_MEASURED: PerMille = 250
VOLATILITY_FLOOR_CHAOTIC: PerMille = 600
VOLATILITY_FLOORS = (VOLATILITY_FLOOR_MEASURED, VOLATILITY_FLOOR_CHAOTIC)
VOLATILITY_MAX: PerMille = 1500
RELIABILITY_DIVISOR = 4
"""Reliability shown to the player is volatility / 4 [CB-700]."""

# --- Step 4: resolve [CB-710] -------------------------------------------------------------
RESOLVE_BASE = 40
RESOLVE_PER_WORKS = 6
OWN_CITY_RESOLVE = 10
ENCIRCLED_RESOLVE = -20
SHAKEN_RESOLVE = -20
STRENGTH_RESOLVE_DIVISOR = 2
RESOLVE_MIN = 5
RESOLVE_MAX = 95

# --- Step 5: the draw [CB-800..CB-840] ----------------------------------------------------
DRAWS = 1000
"""r is uniform over 0..999."""
DRAW_LOW_BITS = 32
MEDIAN_DRAW = 500
HIGH_DRAW = DRAWS - 1

# --- Step 6: the exchange [CB-870] --------------------------------------------------------
SWING_DIVISOR = 2000
"""s = (r - 500) x volatility / 2000: a swing of up to a quarter of the volatility."""
STRENGTH_SCALE = 100
MAX_STRENGTH = 100
MAX_DISORDER = 100

# --- Step 7: break checks [CB-960..CB-1010] -----------------------------------------------
FLANK_SHOCK_PER_FLANKER = 8
FLANK_SHOCK_CAP = 4
"""At most four flankers count [CB-970]."""
AMBUSH_SHOCK = 12
"""The fixed flank term of a reaction [CB-970]."""
WORKS_SHOCK_PER_LEVEL = 8
WORKS_SHOCK_CAP = 16

# --- Step 8/9: consequences and bookkeeping [CB-1040..CB-1300] ----------------------------
SHAKEN_ON_HOLD = 2
"""A defender that breaks but may not retreat holds with shaken 2 [CB-1340, CB-1130]."""
FALTER_DISORDER = 25
LEAD_DISORDER: dict[Kind, int] = {Kind.ASSAULT: 15, Kind.BOMBARDMENT: 0, Kind.REACTION: 5}
SUPPORTER_DISORDER = 10
DEFENDER_LOSS_DISORDER_DIVISOR = 2
"""Assault and reaction: the defender gains floor(Ld / 2) disorder [CB-1190]."""
BROKE_DISORDER = 10
BOMBARD_DISORDER_PER_LOSS = 3
BOMBARD_DISORDER_BASE = 5
"""Bombardment: the target gains 3 x Ld + 5 disorder [CB-1200]."""
BOMBARD_STRENGTH_FLOOR = 1
"""A bombardment never takes a unit's last strength point [CB-1710]."""
XP_BASE = 2
XP_DAMAGE_DIVISOR = 4
XP_OPPONENT_BROKE = 10
XP_SUPPORTER_DIVISOR = 2
XP_PER_TURN_CAP = 25
XP_MAX = 999

# --- Disengagement [CB-1860] --------------------------------------------------------------
DISENGAGE_LOSS_NUMERATOR = 1000
"""The parting loss is floor(1000 / tough)."""
DISENGAGE_DISORDER = 15

# --- Recovery [CB-2070, CB-2080] ----------------------------------------------------------
RECOVERY_BASE: dict[RecoverySituation, tuple[int, int]] = {
    RecoverySituation.FIELD: (4, 20),
    RecoverySituation.FIELD_DEPOT: (8, 40),
    RecoverySituation.CITY: (12, 90),
    RecoverySituation.CITY_DEPOT: (20, 90),
}
"""(strength, disorder) recovered per turn before the modifiers of CB-2080."""


@dataclass(frozen=True, slots=True)
class UnitClass:
    """Static combat stats of a unit class [CB-150]."""

    name: str
    atk: int
    defence: int
    tough: int
    role: Role
    retreat_class: RetreatClass
    bombard_range: int
    bombard_shots: int


CALIBRATION_CAST: tuple[UnitClass, ...] = (
    UnitClass("Rifle Company", 30, 44, 100, Role.FOOT, RetreatClass.STANDARD, 0, 0),
    UnitClass("Armoured Battalion", 62, 38, 130, Role.ARMOR, RetreatClass.STANDARD, 0, 0),
    UnitClass("Field Battery", 48, 20, 70, Role.GUN, RetreatClass.STANDARD, 2, 1),
    UnitClass("Scout Troop", 18, 24, 60, Role.RECON, RetreatClass.STANDARD, 0, 0),
)
"""The four classes the constants are calibrated against."""


def grade_for_xp(xp: int) -> Grade:
    """The grade a unit holds at this xp [CB-1600, CB-170]."""
    reached = [grade for grade, threshold in GRADE_XP_THRESHOLD.items() if xp >= threshold]
    return reached[-1]
