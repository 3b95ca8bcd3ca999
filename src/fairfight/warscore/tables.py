"""Every constant of the warscore ruleset: the choice vocabularies and their scores.

The rules page, the forum renderer and the tests all read from here. Source: the forum war
algorithm (seed 002), with the project decisions of specs/warscore.md; naval rows are our own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Final, Generic, TypeVar

from fairfight.warscore.terms import (
    Armor,
    BattleKind,
    Defensives,
    Eagerness,
    Government,
    Industry,
    MoraleSpecial,
    NationalTechnology,
    Numbers,
    NwsStanding,
    Population,
    Positioning,
    PreviousBattles,
    Race,
    Readiness,
    ShipClass,
    SpecialUnit,
    SupportTier,
    Tier,
    Wealth,
    Weapons,
    Weariness,
)

_V = TypeVar("_V", int, Decimal)


@dataclass(frozen=True, slots=True)
class Row(Generic[_V]):
    """One line of a table: how the forum post names the choice, and what it scores."""

    label: str
    value: _V


# --- National War Score (integer points) -------------------------------------------------


POPULATION: Final[Mapping[Population, Row[int]]] = {
    Population.OVER_25_MILLION: Row("Greater than 25 Million", 15),
    Population.OVER_5_MILLION: Row("Greater than 5 Million", 10),
    Population.OVER_1_MILLION: Row("Greater than 1 Million", 5),
    Population.UNDER_1_MILLION: Row("Less than 1 Million", 0),
}
INDUSTRY: Final[Mapping[Industry, Row[int]]] = {
    Industry.PRE_INDUSTRIAL: Row("Pre-Industrial Society", 0),
    Industry.PROTO_INDUSTRIAL: Row("Proto-Industrial Society", 5),
    Industry.LIGHTLY_INDUSTRIALIZED: Row("Lightly Industrialized", 15),
    Industry.MODERATELY_INDUSTRIALIZED: Row("Moderately Industrialized", 25),
    Industry.FULLY_INDUSTRIALIZED: Row("Fully Industrialized", 45),
    Industry.MASSIVELY_INDUSTRIALIZED: Row("Massively Industrialized", 75),
}
NATIONAL_TECHNOLOGY: Final[Mapping[NationalTechnology, Row[int]]] = {
    NationalTechnology.HIGHEST: Row("Highest Tier", 25),
    NationalTechnology.HIGH: Row("High Tier", 20),
    NationalTechnology.MIDDLE: Row("Middle Tier", 15),
    NationalTechnology.LOWER: Row("Lower Tier", 10),
    NationalTechnology.LOWEST: Row("Lowest Tier", 5),
}
GOVERNMENT: Final[Mapping[Government, Row[int]]] = {
    Government.SUPPORTED_MONARCHY: Row("Monarchy or Autocracy supported by the citizens", 10),
    Government.SUPPORTED_OLIGARCHY: Row("Oligarchy supported by the citizens", 5),
    Government.UNSUPPORTED_OLIGARCHY: Row("Oligarchy not supported by the citizens", -10),
    Government.UNSUPPORTED_DICTATORSHIP: Row(
        "Absolute Monarchy or Dictatorship not supported", -15
    ),
}
EAGERNESS: Final[Mapping[Eagerness, Row[int]]] = {
    Eagerness.ZEALOUS: Row("Zealous", 25),
    Eagerness.SUPPORTED_WAR: Row("Supported War", 10),
    Eagerness.UNSUPPORTED_WAR: Row("Unsupported War", -5),
    Eagerness.REVOLTS: Row("Revolts", -15),
    Eagerness.CIVIL_WAR: Row("Civil War", -50),
}
WEARINESS: Final[Mapping[Weariness, Row[int]]] = {
    Weariness.FULLY_SUPPLIED: Row("Fully Supplied", 15),
    Weariness.WELL_SUPPLIED: Row("Well Supplied", 10),
    Weariness.RATIONING: Row("Rationing", 0),
    Weariness.UNDER_SUPPLIED: Row("Under Supplied", -10),
    Weariness.POORLY_SUPPLIED: Row("Poorly Supplied", -15),
    Weariness.STARVING: Row("Starving", -25),
}
READINESS: Final[Mapping[Readiness, Row[int]]] = {
    Readiness.IN_POSITION_STOCKPILED: Row("Armies in Position with Supplies Stockpiled", 20),
    Readiness.IN_POSITION_OR_STOCKPILED: Row("Armies in Position or Supplies Stockpiled", 10),
    Readiness.RUSHED_STOCKPILED: Row("Armies Rushed to Position with Supplies Stockpiled", 5),
    Readiness.RUSHED_UNSTOCKPILED: Row(
        "Armies Rushed to Position without Supplies Stockpiled", -5
    ),
    Readiness.UNABLE_TO_REACH_FRONT: Row("Armies Unable to Reach Front", -20),
}

NWS_CATEGORIES: Final[tuple[str, ...]] = (
    "Population",
    "Industry",
    "Technology",
    "Government",
    "War Eagerness",
    "War Weariness",
    "Readiness",
    "Fronts",
)
"""The eight NWS categories in the order of the forum layout."""

FRONTS: Final[Mapping[int, int]] = {1: 10, 2: 0, 3: -5}
"""Points for the first few front counts; beyond the last listed count, FURTHER_FRONT applies."""
FURTHER_FRONT: Final = -5
"""Points for every front beyond the last one listed in FRONTS."""
MIN_FRONTS: Final = 1
"""A nation at war has at least this many fronts."""

SUE_FOR_PEACE_BELOW: Final = 0
"""An NWS below this must sue for peace or face a popular revolt."""
CAPITULATE_AT_OR_BELOW: Final = 0
"""An NWS at or below this capitulates, which ends the nation's war."""

# --- Battle phase (Decimal factors) ------------------------------------------------------

TROOPS_PER_POINT: Final = 1000
"""Soldiers per point of the troops score."""
MAX_TROOPS: Final = 1_000_000_000
"""The largest army accepted; keeps every product within exact decimal precision."""
CENT: Final = Decimal("0.01")
"""Factors and totals are shown (and troops rounded half-up) to this step."""
SUPPORT_BASE: Final = Decimal("1.00")
"""Support before any unit, race, tier or ship is added."""
MORALE_BASE: Final = Decimal("1.00")
"""Morale before any term is added."""
TECHNOLOGY_BASE: Final = Decimal("1.00")
"""Technology before armour and weapons are added."""
NO_DEFENSIVES: Final = Decimal("1.00")
"""Defensives factor of an army without works (always the attacker)."""


SPECIAL_UNITS: Final[Mapping[SpecialUnit, Row[Decimal]]] = {
    SpecialUnit.MUMAKIL: Row("Mûmakil", Decimal("0.25")),
    SpecialUnit.TROLLS: Row("Trolls", Decimal("0.20")),
    SpecialUnit.NAZGUL: Row("Nazgûl", Decimal("0.15")),
    SpecialUnit.FELL_BEAST: Row("Fell-beast", Decimal("0.30")),
    SpecialUnit.ENTS: Row("Ents", Decimal("0.25")),
    SpecialUnit.WIZARD: Row("Wizard", Decimal("0.20")),
    SpecialUnit.BALROG: Row("Balrog", Decimal("0.35")),
}
RACES: Final[Mapping[Race, Row[Decimal]]] = {
    Race.HOBBIT: Row("Hobbit", Decimal("-0.50")),
    Race.GOBLIN: Row("Goblin", Decimal("-0.40")),
    Race.ORC: Row("Orc", Decimal("-0.30")),
    Race.DWARF: Row("Dwarf", Decimal("0.10")),
    Race.HUMAN: Row("Human", Decimal("0.00")),
    Race.ELF: Row("Elf", Decimal("0.10")),
    Race.URUK_HAI: Row("Uruk-hai", Decimal("0.20")),
    Race.GHOSTS: Row("Ghosts", Decimal("5.00")),
    Race.ENTS: Row("Ents", Decimal("2.00")),
}
BALLISTA: Final[Mapping[SupportTier, Row[Decimal]]] = {
    SupportTier.MINIMAL: Row("Minimal Ballista", Decimal("0.05")),
    SupportTier.MODERATE: Row("Moderate Ballista", Decimal("0.10")),
    SupportTier.FULL: Row("Full Ballista", Decimal("0.25")),
}
CAVALRY: Final[Mapping[SupportTier, Row[Decimal]]] = {
    SupportTier.MINIMAL: Row("Minimal Cavalry", Decimal("0.05")),
    SupportTier.MODERATE: Row("Moderate Cavalry", Decimal("0.10")),
    SupportTier.FULL: Row("Full Cavalry", Decimal("0.20")),
}
PIKES_CAVALRY_MULTIPLIER: Final = Decimal("0.25")
"""Cavalry support keeps this share when the enemy army carries pikes (a 75% cut)."""
SHIPS: Final[Mapping[ShipClass, Row[Decimal]]] = {
    ShipClass.GALLEYS: Row("Galleys", Decimal("0.05")),
    ShipClass.WARSHIPS: Row("Warships", Decimal("0.10")),
    ShipClass.GREAT_SHIPS: Row("Great Ships", Decimal("0.20")),
}

SUPPORT_TIER_ORDER: Final[tuple[SupportTier, ...]] = (
    SupportTier.MINIMAL,
    SupportTier.MODERATE,
    SupportTier.FULL,
)
"""Support tiers from lowest to highest, for the wealth caps."""
WEALTH_SUPPORT_CAP: Final[Mapping[Wealth, SupportTier]] = {
    Wealth.MIDDLE: SupportTier.MINIMAL,
    Wealth.UPPER: SupportTier.MODERATE,
    Wealth.WEALTHY: SupportTier.FULL,
}
"""The highest support tier a nation of this wealth fields across its whole army."""
PARTIAL_ARMY_TIER_STEP: Final = 1
"""Extra tiers allowed, with approval, when only part of the army gets the support."""


NWS_STANDING: Final[Mapping[NwsStanding, Row[Decimal]]] = {
    NwsStanding.MORE_THAN_DOUBLE: Row("Double NWS", Decimal("0.20")),
    NwsStanding.LESS_THAN_HALF: Row("Half NWS", Decimal("-0.20")),
    NwsStanding.WITHIN_10: Row("Even NWS", Decimal("0.00")),
    NwsStanding.GREATER: Row("Greater NWS", Decimal("0.05")),
    NwsStanding.LESS: Row("Less NWS", Decimal("-0.05")),
}
"""The derived term is checked in this order; the first that holds applies."""
NWS_DOMINANCE_FACTOR: Final = 2
"""More than this many times the enemy's NWS (or less than its inverse) is dominance."""
NWS_NEAR_MARGIN: Final = 10
"""Scores at most this far apart count as even."""

NUMBERS: Final[Mapping[Numbers, Row[Decimal]]] = {
    Numbers.HEAVILY_OUTNUMBERING: Row("Heavily Outnumbering", Decimal("0.20")),
    Numbers.HEAVILY_OUTNUMBERED: Row("Heavily Outnumbered", Decimal("-0.20")),
}
OUTNUMBER_RATIO: Final = 2
"""A troops ratio of at least this much is heavy outnumbering."""
PREVIOUS_BATTLES: Final[Mapping[PreviousBattles, Row[Decimal]]] = {
    PreviousBattles.FRESH: Row("Fresh Troops", Decimal("0.10")),
    PreviousBattles.RECENTLY_VICTORIOUS: Row("Recently Victorious", Decimal("0.20")),
    PreviousBattles.RECENTLY_DEFEATED: Row("Recently Defeated", Decimal("-0.20")),
}
POSITIONING: Final[Mapping[Positioning, Row[Decimal]]] = {
    Positioning.ENCIRCLED: Row("Encircled", Decimal("-0.30")),
    Positioning.OUT_OF_SUPPLY: Row("Out of Supply", Decimal("-0.50")),
    Positioning.SURROUNDED_OUT_OF_SUPPLY: Row(
        "Surrounded and Out of Supply", Decimal("-0.90")
    ),
}
MORALE_SPECIALS: Final[Mapping[MoraleSpecial, Row[Decimal]]] = {
    MoraleSpecial.WARRIOR_CODE: Row("Warrior Code", Decimal("0.25")),
    MoraleSpecial.KNIGHTLY_ORDER: Row("Knightly Order", Decimal("0.25")),
    MoraleSpecial.ZEALOTRY: Row("Zealotry", Decimal("0.25")),
    MoraleSpecial.GREAT_LEADER: Row("Great Leader", Decimal("0.50")),
    MoraleSpecial.GLORIOUS_LAST_STAND: Row("Glorious Last Stand", Decimal("1.00")),
}
DISBAND_BELOW: Final = Decimal("0")
"""An army whose morale is below this disbands or surrenders before the battle."""


LAND_DEFENSIVES: Final[Mapping[Defensives, Row[Decimal]]] = {
    Defensives.LIGHT_ENTRENCHMENTS: Row("Light Entrenchments", Decimal("1.05")),
    Defensives.HEAVY_ENTRENCHMENTS: Row("Heavy Entrenchments", Decimal("1.20")),
    Defensives.SMALL_FORT: Row("Small Fort", Decimal("1.25")),
    Defensives.LARGE_FORT: Row("Large Fort", Decimal("1.50")),
    Defensives.STRATEGIC_FORT: Row("Strategic Fort", Decimal("2.00")),
}
HARBOUR_DEFENSIVES: Final[Mapping[Defensives, Row[Decimal]]] = {
    Defensives.HARBOUR_CHAIN: Row("Harbour Chain", Decimal("1.10")),
    Defensives.HARBOUR_FORT: Row("Harbour Fort", Decimal("1.25")),
}
DEFENSIVES_NEEDING_APPROVAL: Final = frozenset({Defensives.STRATEGIC_FORT})


ARMOR: Final[Mapping[Armor, Row[Decimal]]] = {
    Armor.NONE: Row("No Armor", Decimal("0.00")),
    Armor.LIGHT: Row("Light Armor", Decimal("0.10")),
    Armor.CHAIN_MAIL: Row("Chain Mail Armor", Decimal("0.20")),
    Armor.PARTIAL_PLATE: Row("Partial Plate Armor", Decimal("0.30")),
    Armor.FULL_PLATE: Row("Full Plate Armor", Decimal("0.40")),
    Armor.EXTRA_HUMAN_PLATE: Row("Extra-Human Plate Armor", Decimal("0.50")),
}
WEAPONS: Final[Mapping[Weapons, Row[Decimal]]] = {
    Weapons.IMPROVISED: Row("Improvised", Decimal("-0.40")),
    Weapons.POORLY_MADE: Row("Poorly Made", Decimal("-0.10")),
    Weapons.NORMAL: Row("Normal", Decimal("0.00")),
    Weapons.WELL_MADE: Row("Well Made", Decimal("0.20")),
    Weapons.EXCEPTIONAL: Row("Exceptional", Decimal("0.30")),
}
MITHRIL_BONUS: Final = Decimal("0.05")
"""Mithril construction adds this to armour heavier than MITHRIL_ABOVE."""
MITHRIL_ABOVE: Final = Armor.LIGHT
"""Mithril counts only for armour heavier than this."""
SCANT_ARMOR_PENALTY: Final = Decimal("-0.05")
"""Added on top of the armour when only part of the army wears it."""
EXTRA_HUMAN_RACES: Final = frozenset({Race.DWARF, Race.URUK_HAI})
"""Races that may wear extra-human plate."""
EXTRA_HUMAN_UNITS: Final = frozenset({SpecialUnit.TROLLS})
"""Special units whose presence allows extra-human plate."""

# --- Result -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TierRow:
    """A result tier: its title, the smallest ratio that reaches it, and what befalls the loser."""

    title: str
    floor: Decimal
    consequence: str


TIERS: Final[Mapping[Tier, TierRow]] = {
    Tier.MARGINAL: TierRow(
        "Marginal Victory", Decimal("1.00"), "retreats from the field"
    ),
    Tier.SOLID: TierRow(
        "Solid Victory", Decimal("1.25"), "is forced from the field but retreats in good order"
    ),
    Tier.OPERATIONAL: TierRow(
        "Operational Victory", Decimal("1.50"), "is forced from the field and retreats in disorder"
    ),
    Tier.STRATEGIC: TierRow("Strategic Victory", Decimal("2.00"), "shatters"),
}
"""Victory tiers from lowest to highest; a ratio reaches a tier at its floor (inclusive)."""
STALEMATE_TITLE: Final = "Stalemate"
"""Title of a battle with equal totals, where both armies hold their ground."""


__all__ = [
    "ARMOR",
    "Armor",
    "BALLISTA",
    "BattleKind",
    "CAPITULATE_AT_OR_BELOW",
    "CAVALRY",
    "CENT",
    "DEFENSIVES_NEEDING_APPROVAL",
    "DISBAND_BELOW",
    "Defensives",
    "EAGERNESS",
    "EXTRA_HUMAN_RACES",
    "EXTRA_HUMAN_UNITS",
    "Eagerness",
    "FRONTS",
    "FURTHER_FRONT",
    "GOVERNMENT",
    "Government",
    "HARBOUR_DEFENSIVES",
    "INDUSTRY",
    "Industry",
    "LAND_DEFENSIVES",
    "MAX_TROOPS",
    "MIN_FRONTS",
    "MITHRIL_ABOVE",
    "MITHRIL_BONUS",
    "MORALE_BASE",
    "MORALE_SPECIALS",
    "MoraleSpecial",
    "NATIONAL_TECHNOLOGY",
    "NO_DEFENSIVES",
    "NUMBERS",
    "NWS_CATEGORIES",
    "NWS_DOMINANCE_FACTOR",
    "NWS_NEAR_MARGIN",
    "NWS_STANDING",
    "NationalTechnology",
    "Numbers",
    "NwsStanding",
    "OUTNUMBER_RATIO",
    "PARTIAL_ARMY_TIER_STEP",
    "PIKES_CAVALRY_MULTIPLIER",
    "POPULATION",
    "POSITIONING",
    "PREVIOUS_BATTLES",
    "Population",
    "Positioning",
    "PreviousBattles",
    "RACES",
    "READINESS",
    "Race",
    "Readiness",
    "Row",
    "SCANT_ARMOR_PENALTY",
    "SHIPS",
    "SPECIAL_UNITS",
    "STALEMATE_TITLE",
    "SUE_FOR_PEACE_BELOW",
    "SUPPORT_BASE",
    "SUPPORT_TIER_ORDER",
    "ShipClass",
    "SpecialUnit",
    "SupportTier",
    "TECHNOLOGY_BASE",
    "TIERS",
    "TROOPS_PER_POINT",
    "Tier",
    "TierRow",
    "WEALTH_SUPPORT_CAP",
    "WEAPONS",
    "WEARINESS",
    "Wealth",
    "Weapons",
    "Weariness",
]
