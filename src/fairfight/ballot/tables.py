"""Every constant of the ballot rules and the named configs, in one place.

The rules page, the engine, the bots and the tests all read their numbers from here. Vote
thresholds are stored as fractions of a chamber and turned into seat counts by
`seats_needed`, so 218, 60, 290 and 67 are computed, never typed.
"""

from __future__ import annotations

import math
from enum import StrEnum
from fractions import Fraction
from typing import Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fairfight.core.errors import InputError

__all__ = [
    "AMEND_CALL",
    "AMEND_RATIFY",
    "AmendmentChoice",
    "BASELINE_CAP",
    "BASELINE_DEADBAND_TENTHS",
    "BASELINE_STEP_TENTHS",
    "BILL_TAGS",
    "BOARD",
    "BOARD_GENERIC_PART",
    "BOARD_INCUMBENCY_BONUS",
    "BallotConfig",
    "CANDIDATES_PER_PARTY",
    "CANDIDATE_CARDS",
    "CARD_STRENGTH",
    "DIE_SIDES",
    "DISTRICT_CARD_TAGS",
    "ELECTORAL_BONUS",
    "GENERAL_CANDIDATE_DICE",
    "GROUND_GAME_BONUS",
    "HONEYMOON",
    "HOUSE_PASS",
    "IMPEACH",
    "INCUMBENCY_BONUS",
    "LEAN_CAP",
    "LEAN_DECAY",
    "LEAN_PUSH",
    "LEAN_PUSH_MAX",
    "MAJORITY_WEIGHT",
    "MINORITY_WEIGHT",
    "MODIFIER_COUNTS",
    "NAMED_CONFIGS",
    "OFFICE_GOVERNOR",
    "OFFICE_HOUSE",
    "OFFICE_PRESIDENT",
    "OFFICE_SENATE",
    "OVERRIDE",
    "Office",
    "PARTIES",
    "PARTY_D",
    "PARTY_R",
    "PRESIDENTIAL_CYCLE",
    "PRIMARY_CANDIDATE_DICE",
    "Party",
    "SENATE_CLASS_OFFSETS",
    "SENATE_CYCLE",
    "SENATE_CYCLE_ORIGIN",
    "SENATE_PASS",
    "SWITCH_PENALTY",
    "ScoreTable",
    "Seat",
    "TAGS",
    "Tag",
    "VictoryMode",
    "card_modifier",
    "card_party",
    "lean_push",
    "named_config",
    "seats_needed",
]


Seat: TypeAlias = int
"""A player's seat number, 0..n-1."""
BOARD: Seat = -1
"""The holder value of a seat held by the board (the non-player side)."""


class Party(StrEnum):
    """The two parties a candidate can run under."""

    D = "D"
    """Democrats: positive lean and baseline favour them."""
    R = "R"
    """Republicans: negative lean and baseline favour them."""

    def other(self) -> Party:
        """The opposing party."""
        return PARTY_R if self is PARTY_D else PARTY_D

    def sign(self) -> int:
        """+1 for D, -1 for R: the direction of a push or a partisan term."""
        return 1 if self is PARTY_D else -1


PARTIES: tuple[Party, ...] = tuple(Party)
"""D then R: the parties in rules order (iterating the enum itself is slow in hot loops)."""
PARTY_D, PARTY_R = PARTIES
"""The parties as module names, for the innermost loops of the engine and the bots: on Python
3.11 every read of a member off its enum class (`Party.D`) goes through a Python-level hook,
because the enum metaclass defines `__getattr__`; a module name costs a tenth of that."""


class Tag(StrEnum):
    """The shared tag vocabulary of cards, states, bills and amendments, in rules order [1.3]."""

    CATHOLIC = "catholic"
    """Catholic voters."""
    EVANGELICAL = "evangelical"
    """Evangelical voters."""
    JEWISH = "jewish"
    """Jewish voters."""
    BLACK = "black"
    """Black voters."""
    HISPANIC = "hispanic"
    """Hispanic voters."""
    CUBAN = "cuban"
    """Cuban-American voters."""
    UNION = "union"
    """Union households."""
    RURAL = "rural"
    """Rural voters."""
    SUBURBAN = "suburban"
    """Suburban voters."""
    URBAN = "urban"
    """Urban voters."""
    FARM = "farm"
    """Farm country."""


TAGS: tuple[str, ...] = tuple(tag.value for tag in Tag)


class Office(StrEnum):
    """The four kinds of seat, from the most nationalised down [6.2]."""

    PRESIDENT = "president"
    """One presidency, elected by electoral votes every 4 years."""
    SENATE = "senate"
    """100 Senate seats, two per state in classes I/II/III."""
    HOUSE = "house"
    """435 House seats, all elected in even years."""
    GOVERNOR = "governor"
    """50 governors on their real cycles."""


OFFICE_PRESIDENT, OFFICE_SENATE, OFFICE_HOUSE, OFFICE_GOVERNOR = tuple(Office)
"""The offices as module names, for the same reason as `PARTY_D`."""


class VictoryMode(StrEnum):
    """How a game can end before the year cap [10.3]."""

    POINTS = "points"
    """No earned ending: the year cap runs out and the highest score wins."""
    BILLS = "bills"
    """The first player to author the bill target of enacted omnibills wins that year."""
    TWO_TERMS = "two-terms"
    """A player who wins two consecutive, unvoided presidential elections wins."""
    THREE_TERMS = "three-terms"
    """A player who wins three unvoided presidential elections (any years) wins."""
    PARALLEL = "parallel"
    """Bills or two terms, whichever a player reaches first (both at once: higher score)."""
    AMENDMENT = "amendment"
    """A ratified amendment ends the game; the epilogue score decides the winner."""


class AmendmentChoice(StrEnum):
    """A governor bloc's answer on an amendment [8.2]."""

    FOR = "for"
    """Counts toward calling or ratifying."""
    AGAINST = "against"
    """Counts toward blocking a pending convention."""
    ABSTAIN = "abstain"
    """Counts for neither side."""


# Election dice [5.1, 5.4, 5.5]
DIE_SIDES = 6
GENERAL_CANDIDATE_DICE = 3
PRIMARY_CANDIDATE_DICE = 2

# Modifiers [5.3, 5.6]
INCUMBENCY_BONUS = 1
GROUND_GAME_BONUS = 1
SWITCH_PENALTY = 1
BOARD_GENERIC_PART = 1
BOARD_INCUMBENCY_BONUS = 1

# Deck [1.7]
MODIFIER_COUNTS: tuple[int, ...] = (12, 24, 24, 12)
"""Candidate cards per party with modifier 0, 1, 2, 3, in id order."""
CARD_STRENGTH = 3
"""m + number of tags = 3 on every candidate card."""
DISTRICT_CARD_TAGS = 2
CANDIDATES_PER_PARTY = sum(MODIFIER_COUNTS)
CANDIDATE_CARDS = 2 * CANDIDATES_PER_PARTY

# Map [1.2, 1.4]
ELECTORAL_BONUS = 2
"""Electoral votes = House seats + this (the two senators)."""
BASELINE_CAP = 3
BASELINE_DEADBAND_TENTHS = 50
"""Margins under 5 points give baseline 0."""
BASELINE_STEP_TENTHS = 100
SENATE_CLASS_OFFSETS: dict[str, int] = {"I": 0, "II": 2, "III": 4}
"""Class c is up when (year - SENATE_CYCLE_ORIGIN) % 6 equals this offset [2.2]."""
SENATE_CYCLE_ORIGIN = 2024
SENATE_CYCLE = 6
PRESIDENTIAL_CYCLE = 4

# Lean [6]
LEAN_PUSH: tuple[tuple[int, int], ...] = ((1, 2), (3, 3))
"""(largest margin, push) steps; a margin beyond the last step pushes LEAN_PUSH_MAX."""
LEAN_PUSH_MAX = 4
LEAN_CAP = 5
LEAN_DECAY = 1
HONEYMOON = 1

# Legislature [7]
HOUSE_PASS = Fraction(1, 2)
"""A House majority: strictly more than half of the seats."""
SENATE_PASS = Fraction(3, 5)
OVERRIDE = Fraction(2, 3)
IMPEACH = Fraction(2, 3)
BILL_TAGS = 2
MAJORITY_WEIGHT = 2
MINORITY_WEIGHT = 1

# Amendments [8]
AMEND_CALL = Fraction(2, 3)
AMEND_RATIFY = Fraction(3, 4)


class ScoreTable(BaseModel):
    """Points for what a player holds at a scoring [9]."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    presidency: int = 5
    senate: int = 3
    governor: int = 2
    house: int = 1
    bill: int = 3
    leaning_state: int = 1
    amendment: int = 2
    district_card: int = 1
    hand_card: int = 1


class BallotConfig(BaseModel):
    """A named rules configuration; the defaults are `as-written-plus` [12.9]."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "as-written-plus"
    victory: VictoryMode = VictoryMode.AMENDMENT
    start_year: int = Field(2028, ge=2028, le=2400)
    year_cap: int = Field(16, ge=1, le=64)
    players_min: int = 2
    players_max: int = 6
    hand_size: int = Field(16, ge=1, le=24)
    hand_limit: int = Field(16, ge=1, le=40)
    pack_size: int = Field(8, ge=1, le=12)
    picks: int = Field(4, ge=0, le=12)
    lean_cap: int = Field(LEAN_CAP, ge=1, le=9)
    lean_decay: int = Field(LEAN_DECAY, ge=0, le=5)
    honeymoon: int = Field(HONEYMOON, ge=0, le=3)
    bill_target: int = Field(8, ge=1, le=64)
    bill_life: int = Field(4, ge=1, le=64)
    amend_tags: int = Field(3, ge=1, le=11)
    author: Literal["house"] = "house"
    score: ScoreTable = ScoreTable()

    @field_validator("start_year")
    @classmethod
    def _presidential_start(cls, year: int) -> int:
        """The first year elects a president, so no vote ever meets an empty presidency [7.2]."""
        if year % PRESIDENTIAL_CYCLE:
            raise ValueError(f"must be a presidential year (a multiple of {PRESIDENTIAL_CYCLE})")
        return year

    def last_year(self) -> int:
        """The final calendar year of play (2043 by default) [10.1]."""
        return self.start_year + self.year_cap - 1


NAMED_CONFIGS: dict[str, BallotConfig] = {
    "as-written-plus": BallotConfig(),
    "speaker": BallotConfig(name="speaker"),
    **{
        mode.value: BallotConfig(name=mode.value, victory=mode)
        for mode in VictoryMode
        if mode is not VictoryMode.AMENDMENT
    },
}
"""Named configs: `as-written-plus` (victory `amendment`), `speaker` (the design's name for the
same Speaker-only authoring rule) and one config per other victory mode, named after it."""


def named_config(name: str, victory: str | None = None) -> BallotConfig:
    """Look up a config by name, optionally switching the victory mode."""
    if name not in NAMED_CONFIGS:
        raise InputError("config", f"unknown config {name!r}; known: {', '.join(NAMED_CONFIGS)}")
    config = NAMED_CONFIGS[name]
    if victory is not None:
        modes = [mode.value for mode in VictoryMode]
        if victory not in modes:
            raise InputError("victory", f"unknown mode {victory!r}; known: {', '.join(modes)}")
        config = config.model_copy(update={"victory": VictoryMode(victory)})
    return config


def seats_needed(share: Fraction, seats: int, strictly_more: bool = False) -> int:
    """Yes votes needed out of `seats`: at least share*seats, or strictly more when asked."""
    exact = share * seats
    if strictly_more:
        return math.floor(exact) + 1
    return math.ceil(exact)


def lean_push(margin: int) -> int:
    """How far a win by `margin` pips pushes its state's lean [6.1]."""
    for largest, push in LEAN_PUSH:
        if margin <= largest:
            return push
    return LEAN_PUSH_MAX


def card_modifier(card_id: int) -> int:
    """The printed modifier m of candidate card `card_id` (ids in party blocks of 72) [1.7]."""
    within = card_id % CANDIDATES_PER_PARTY
    for modifier, count in enumerate(MODIFIER_COUNTS):
        if within < count:
            return modifier
        within -= count
    raise ValueError("card id beyond the candidate blocks")


def card_party(card_id: int) -> Party:
    """The party printed on a candidate card [1.7]."""
    return Party.D if card_id < CANDIDATES_PER_PARTY else Party.R

