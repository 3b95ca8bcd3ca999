"""The words of the clash rules: the enums every table is keyed by, and the per-mille quantity.

Kept apart from `tables`, which holds the numbers (and re-exports these names): a reader of
the vocabulary meets each member with the one-line docstring the rules page prints for it
(`fairfight.core.enumdocs`), without a hundred constants in between.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

__all__ = [
    "EndReason",
    "Grade",
    "Kind",
    "PerMille",
    "RecoverySituation",
    "RetreatClass",
    "Role",
    "Stance",
    "SupplyTier",
    "Terrain",
]

PerMille: TypeAlias = int
"""A fraction expressed in thousandths."""


class Kind(StrEnum):
    """The kinds of engagement [CB-200]."""

    ASSAULT = "assault"
    """A lead attacker and up to two supporters against the top defender of a tile."""
    BOMBARDMENT = "bombardment"
    """A battery fires on a tile within range; no supporters, no break checks."""
    REACTION = "reaction"
    """A unit in position fires on an enemy that halts next to it."""
    DISENGAGEMENT = "disengagement"
    """A defender under a withdraw reflex leaves before any exchange; no draw."""


class Terrain(StrEnum):
    """The seven terrain families that carry a combat profile [CB-1440]."""

    OPEN = "open"
    """Flat, clear ground: predictable and exposed."""
    HILLS = "hills"
    """Broken, rising ground."""
    FOREST = "forest"
    """Woods: strong cover, poor visibility."""
    MARSH = "marsh"
    """Wet ground: moderate cover, very hard to plan in."""
    MOUNTAIN = "mountain"
    """The strongest natural cover."""
    URBAN = "urban"
    """Built-up ground: high cover and the highest chaos."""
    WATER = "water"
    """Open water: only naval and air units fight well here."""


class Role(StrEnum):
    """The combat role of a unit class [CB-1450]."""

    FOOT = "foot"
    """Infantry."""
    ARMOR = "armor"
    """Tanks and other armoured vehicles."""
    GUN = "gun"
    """Artillery."""
    RECON = "recon"
    """Scouts."""
    NAVAL = "naval"
    """Ships."""
    AIR = "air"
    """Aircraft."""


class Grade(StrEnum):
    """Experience grade, derived from xp [CB-1600]."""

    GREEN = "green"
    """No combat experience."""
    TRAINED = "trained"
    """Drilled and blooded."""
    VETERAN = "veteran"
    """Reliably better than the rest."""
    ELITE = "elite"
    """Rare: a formation with a long history."""


class SupplyTier(StrEnum):
    """How well a unit is supplied in a fight [CB-1620]."""

    CUT = "cut"
    """Out of supply."""
    STRAINED = "strained"
    """At the end of an extended line."""
    ADEQUATE = "adequate"
    """In supply."""
    FULL = "full"
    """In supply and standing on a supply source."""


class Stance(StrEnum):
    """The per-turn tactical setting of a unit [CB-1510]."""

    MARCH = "march"
    """On the road: may not initiate an assault or bombardment."""
    ADVANCE = "advance"
    """Pressing forward."""
    HOLD = "hold"
    """Holding the current position."""
    ENTRENCH = "entrench"
    """Digging in."""


class RetreatClass(StrEnum):
    """How a broken unit leaves its tile [CB-1330]."""

    STANDARD = "standard"
    """Land units: one step to the best adjacent tile."""
    WATERBORNE = "waterborne"
    """Naval units: the same step, restricted to water tiles."""
    DETACHED = "detached"
    """Air units: never step back; abort to base, and may not disengage."""


class RecoverySituation(StrEnum):
    """Where a unit ends its turn, for recovery [CB-2070]."""

    FIELD = "field"
    """In the open, away from a depot."""
    FIELD_DEPOT = "field_depot"
    """On a depot outside a city."""
    CITY = "city"
    """In a city."""
    CITY_DEPOT = "city_depot"
    """In a city that holds a depot."""


class EndReason(StrEnum):
    """Why a game ended; each scenario says which of these apply (`victory`)."""

    RESIGNATION = "resignation"
    """Every other side resigned: the side left wins."""
    LAST_UNIT = "last_unit"
    """One side alone has units on the board: it wins (none left at all is a draw)."""
    CITIES = "cities"
    """The turn named for the cities was played: the side holding the most of the counted
    cities wins (equal counts are a draw)."""
    TURN_LIMIT = "turn_limit"
    """The last turn allowed was played: the side holding the most counted cities wins, then
    the side with the most strength on the board; still equal, a draw."""
