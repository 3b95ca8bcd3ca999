"""The vocabulary of the warscore ruleset: every choice a battle or war file can name.

Each member's value is the key written in the YAML files; `tables.py` gives each its label and
score, and re-exports these enums so the tables stay the one place to look things up.
"""

from __future__ import annotations

from enum import StrEnum


class Population(StrEnum):
    """How many people the nation has."""

    OVER_25_MILLION = "over-25-million"
    """More than 25 million people."""
    OVER_5_MILLION = "over-5-million"
    """More than 5 million people."""
    OVER_1_MILLION = "over-1-million"
    """More than 1 million people."""
    UNDER_1_MILLION = "under-1-million"
    """Fewer than 1 million people."""


class Industry(StrEnum):
    """How far the nation has industrialised."""

    PRE_INDUSTRIAL = "pre-industrial"
    """No industry to speak of."""
    PROTO_INDUSTRIAL = "proto-industrial"
    """Workshops and early manufactories."""
    LIGHTLY_INDUSTRIALIZED = "lightly-industrialized"
    """Some factories."""
    MODERATELY_INDUSTRIALIZED = "moderately-industrialized"
    """A real industrial base."""
    FULLY_INDUSTRIALIZED = "fully-industrialized"
    """An industrial economy."""
    MASSIVELY_INDUSTRIALIZED = "massively-industrialized"
    """Industry on the greatest scale."""


class NationalTechnology(StrEnum):
    """The nation's technology tier."""

    HIGHEST = "highest"
    """The highest tier."""
    HIGH = "high"
    """The high tier."""
    MIDDLE = "middle"
    """The middle tier."""
    LOWER = "lower"
    """The lower tier."""
    LOWEST = "lowest"
    """The lowest tier."""


class Government(StrEnum):
    """The form of government and whether the citizens back it."""

    SUPPORTED_MONARCHY = "supported-monarchy"
    """A monarchy or autocracy the citizens support."""
    SUPPORTED_OLIGARCHY = "supported-oligarchy"
    """An oligarchy the citizens support."""
    UNSUPPORTED_OLIGARCHY = "unsupported-oligarchy"
    """An oligarchy the citizens do not support."""
    UNSUPPORTED_DICTATORSHIP = "unsupported-dictatorship"
    """An absolute monarchy or dictatorship the citizens do not support."""


class Eagerness(StrEnum):
    """How keen the nation is on this war."""

    ZEALOUS = "zealous"
    """The people burn for the war."""
    SUPPORTED_WAR = "supported-war"
    """The people back the war."""
    UNSUPPORTED_WAR = "unsupported-war"
    """The people do not back the war."""
    REVOLTS = "revolts"
    """Parts of the nation are in revolt."""
    CIVIL_WAR = "civil-war"
    """The nation is at war with itself."""


class Weariness(StrEnum):
    """How well the nation keeps its war supplied."""

    FULLY_SUPPLIED = "fully-supplied"
    """Everything the armies need."""
    WELL_SUPPLIED = "well-supplied"
    """Most of what the armies need."""
    RATIONING = "rationing"
    """Supplies are rationed."""
    UNDER_SUPPLIED = "under-supplied"
    """Supplies run short."""
    POORLY_SUPPLIED = "poorly-supplied"
    """Supplies run badly short."""
    STARVING = "starving"
    """The armies and people go hungry."""


class Readiness(StrEnum):
    """Whether the armies stood ready when the war began."""

    IN_POSITION_STOCKPILED = "in-position-stockpiled"
    """Armies in position and supplies stockpiled."""
    IN_POSITION_OR_STOCKPILED = "in-position-or-stockpiled"
    """Armies in position, or supplies stockpiled, but not both."""
    RUSHED_STOCKPILED = "rushed-stockpiled"
    """Armies rushed into position; supplies stockpiled."""
    RUSHED_UNSTOCKPILED = "rushed-unstockpiled"
    """Armies rushed into position; nothing stockpiled."""
    UNABLE_TO_REACH_FRONT = "unable-to-reach-front"
    """Armies cannot reach the front."""


class BattleKind(StrEnum):
    """Where the battle is fought."""

    LAND = "land"
    """A battle on land (the source's algorithm)."""
    NAVAL = "naval"
    """A battle at sea (this project's own rules)."""


class SpecialUnit(StrEnum):
    """Special units supporting the army (each kind at most once)."""

    MUMAKIL = "mumakil"
    """War elephants."""
    TROLLS = "trolls"
    """Trolls."""
    NAZGUL = "nazgul"
    """Ring-wraiths."""
    FELL_BEAST = "fell-beast"
    """Winged fell beasts."""
    ENTS = "ents"
    """Ents marching with the army."""
    WIZARD = "wizard"
    """A wizard."""
    BALROG = "balrog"
    """A balrog."""


class Race(StrEnum):
    """The race making up the bulk of the army (one value)."""

    HOBBIT = "hobbit"
    """Hobbits."""
    GOBLIN = "goblin"
    """Goblins."""
    ORC = "orc"
    """Orcs."""
    DWARF = "dwarf"
    """Dwarves."""
    HUMAN = "human"
    """Men."""
    ELF = "elf"
    """Elves."""
    URUK_HAI = "uruk-hai"
    """Uruk-hai."""
    GHOSTS = "ghosts"
    """An army of the dead."""
    ENTS = "ents"
    """An army of Ents."""


class SupportTier(StrEnum):
    """How much of the army a support arm covers (ballista or cavalry)."""

    MINIMAL = "minimal"
    """A little support."""
    MODERATE = "moderate"
    """A fair amount of support."""
    FULL = "full"
    """Support throughout the army."""


class Wealth(StrEnum):
    """How rich the nation is, which caps the support tier it can field."""

    MIDDLE = "middle"
    """A nation of middle wealth."""
    UPPER = "upper"
    """A nation of upper wealth."""
    WEALTHY = "wealthy"
    """A wealthy nation."""


class ShipClass(StrEnum):
    """The main class of ship in a fleet (naval battles only, one value)."""

    GALLEYS = "galleys"
    """Oared galleys."""
    WARSHIPS = "warships"
    """Purpose-built warships."""
    GREAT_SHIPS = "great-ships"
    """Great ships of the line."""


class NwsStanding(StrEnum):
    """Our National War Score against the enemy's, for the morale term."""

    MORE_THAN_DOUBLE = "more-than-double"
    """Ours is more than twice theirs."""
    LESS_THAN_HALF = "less-than-half"
    """Ours is less than half of theirs."""
    WITHIN_10 = "within-10"
    """Ours is within the near margin of theirs."""
    GREATER = "greater"
    """Ours is greater than theirs."""
    LESS = "less"
    """Ours is less than theirs."""


class Numbers(StrEnum):
    """Comparative strength in troops."""

    HEAVILY_OUTNUMBERING = "heavily-outnumbering"
    """We have at least OUTNUMBER_RATIO times their troops."""
    HEAVILY_OUTNUMBERED = "heavily-outnumbered"
    """They have at least OUTNUMBER_RATIO times our troops."""


class PreviousBattles(StrEnum):
    """How the army's recent fighting went."""

    FRESH = "fresh"
    """Fresh troops."""
    RECENTLY_VICTORIOUS = "recently-victorious"
    """Recently victorious."""
    RECENTLY_DEFEATED = "recently-defeated"
    """Recently defeated."""


class Positioning(StrEnum):
    """A bad position the army is caught in."""

    ENCIRCLED = "encircled"
    """Encircled."""
    OUT_OF_SUPPLY = "out-of-supply"
    """Cut off from supply."""
    SURROUNDED_OUT_OF_SUPPLY = "surrounded-out-of-supply"
    """Surrounded and cut off from supply."""


class MoraleSpecial(StrEnum):
    """Special morale boosts, each needing moderator approval (each at most once)."""

    WARRIOR_CODE = "warrior-code"
    """A warrior code."""
    KNIGHTLY_ORDER = "knightly-order"
    """A knightly order."""
    ZEALOTRY = "zealotry"
    """Religious or ideological zeal."""
    GREAT_LEADER = "great-leader"
    """A great leader (a wizard, a ring-wraith, Aragorn, Thorin and their like)."""
    GLORIOUS_LAST_STAND = "glorious-last-stand"
    """A glorious last stand (Helm's Deep and its like)."""


class Defensives(StrEnum):
    """Works protecting the defender (land works on land, harbour works at sea)."""

    LIGHT_ENTRENCHMENTS = "light-entrenchments"
    """Light entrenchments dug by the troops."""
    HEAVY_ENTRENCHMENTS = "heavy-entrenchments"
    """Heavy entrenchments dug by the troops."""
    SMALL_FORT = "small-fort"
    """A small fort built in peacetime."""
    LARGE_FORT = "large-fort"
    """A large fort built in peacetime."""
    STRATEGIC_FORT = "strategic-fort"
    """A strategic fort or line, years in the building (needs approval)."""
    HARBOUR_CHAIN = "harbour-chain"
    """A chain across a defended harbour (naval)."""
    HARBOUR_FORT = "harbour-fort"
    """A fort guarding a defended harbour (naval)."""


class Armor(StrEnum):
    """The armour most of the army wears (one value)."""

    NONE = "none"
    """No armour."""
    LIGHT = "light"
    """Light armour."""
    CHAIN_MAIL = "chain-mail"
    """Chain mail."""
    PARTIAL_PLATE = "partial-plate"
    """Partial plate."""
    FULL_PLATE = "full-plate"
    """Full plate."""
    EXTRA_HUMAN_PLATE = "extra-human-plate"
    """Plate only dwarves, Uruk-hai and trolls can carry."""


class Weapons(StrEnum):
    """The quality of the army's weapons (one value)."""

    IMPROVISED = "improvised"
    """Improvised weapons."""
    POORLY_MADE = "poorly-made"
    """Poorly made weapons."""
    NORMAL = "normal"
    """Ordinary weapons."""
    WELL_MADE = "well-made"
    """Well made weapons."""
    EXCEPTIONAL = "exceptional"
    """Exceptional weapons."""


class Tier(StrEnum):
    """How decisive a battle was, from the ratio of the larger total to the smaller."""

    STALEMATE = "stalemate"
    """Equal totals: both armies hold their ground."""
    MARGINAL = "marginal"
    """The beaten army retreats from the field."""
    SOLID = "solid"
    """The beaten army is forced from the field but retreats in order."""
    OPERATIONAL = "operational"
    """The beaten army is forced from the field and retreats in disorder."""
    STRATEGIC = "strategic"
    """The beaten army shatters."""


__all__ = [
    "Armor",
    "BattleKind",
    "Defensives",
    "Eagerness",
    "Government",
    "Industry",
    "MoraleSpecial",
    "NationalTechnology",
    "Numbers",
    "NwsStanding",
    "Population",
    "Positioning",
    "PreviousBattles",
    "Race",
    "Readiness",
    "ShipClass",
    "SpecialUnit",
    "SupportTier",
    "Tier",
    "Wealth",
    "Weapons",
    "Weariness",
]
