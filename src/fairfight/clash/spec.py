"""The Clash Specification: every input of one exchange, as a frozen, validated value.

A specification holds only integers, enum values and booleans [CB-310], has one canonical
byte form [CB-320], and is what both the resolution and the preview read [CB-280]. The JSON
format is the one of the reconstructed tables (snake_case, lowercase enum values).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import fields
from typing import Annotated, Any, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    field_validator,
)
from pydantic_core.core_schema import ValidationInfo

from fairfight.clash import tables as t
from fairfight.clash.kernel import Columns
from fairfight.core.errors import RuleError
from fairfight.core.records import canonical_json
from fairfight.core.validation import parse_model

__all__ = [
    "COLUMN_NAMES",
    "ClashSpec",
    "Combatant",
    "Level",
    "MAX_EDGE_MODS",
    "MAX_FLANKERS",
    "MAX_SHAKEN",
    "MAX_STACK_EXTRA",
    "MAX_STAT",
    "Percent",
    "ROW_FORMAT",
    "Stat",
    "check_resolvable",
    "parse_spec",
    "stance_may_initiate",
    "to_columns",
]

MAX_STAT = 255
"""Highest class stat a specification accepts (the overflow budget of CB-2510 assumes 255)."""
MAX_FLANKERS = 8
"""A tile has eight neighbours; at most four flankers count [CB-970]."""
MAX_STACK_EXTRA = 8
MAX_EDGE_MODS = 2 * t.FORCE_MODS_MAX
"""attackerEdgeMods is a pre-summed total; anything wider than twice the clamp is a typo."""
MAX_SHAKEN = t.SHAKEN_ON_HOLD

Stat = Annotated[StrictInt, Field(ge=0, le=MAX_STAT)]
Percent = Annotated[StrictInt, Field(ge=0, le=t.MAX_STRENGTH)]
Level = Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)]


class Combatant(BaseModel):
    """One unit as the exchange sees it [CB-300]."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True,
                              use_attribute_docstrings=True)

    atk: Stat
    """The class's attack stat, 0-255 [CB-150]."""
    defence: Stat = Field(alias="def")
    """The class's defence stat, 0-255 (written `def`)."""
    tough: Annotated[StrictInt, Field(ge=1, le=MAX_STAT)]
    """The class's toughness, 1-255 [CB-110]."""
    role: t.Role
    """foot, armor, gun, recon, naval or air."""
    strength: Percent
    """Strength 0-100 (0 is refused at resolution, CB-340)."""
    disorder: Percent = 0
    """Disorder 0-100."""
    grade: t.Grade
    """green, trained, veteran or elite."""
    supply_tier: t.SupplyTier
    """cut, strained, adequate or full."""
    stance: t.Stance
    """march, advance, hold or entrench."""
    dig_in: Level = 0
    """Dig-in 0-4."""
    works: Level = 0
    """Works 0-4 of the tile it stands on."""
    shaken: Annotated[StrictInt, Field(ge=0, le=MAX_SHAKEN)] = 0
    """Shaken 0-2."""
    creation_sequence: Annotated[StrictInt, Field(ge=0)] = 0
    """The unit's creation sequence (the draw's initiator for a lead) [CB-820]."""


class ClashSpec(BaseModel):
    """Every input the procedure reads, and nothing else [CB-290]."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    kind: t.Kind
    """assault, bombardment or reaction."""
    terrain: t.Terrain
    """The defender's terrain family."""
    lead: Combatant
    """The lead attacker (the reactor of a reaction)."""
    supporters: tuple[Combatant, ...] = ()
    """Up to two supporters, assault only [CB-370]."""
    defender: Combatant
    """The top defender (the mover of a reaction)."""
    flankers: Annotated[StrictInt, Field(ge=0, le=MAX_FLANKERS)] = 0
    """The lead's side's other units adjacent to the target, 0-8 (4 count) [CB-980]."""
    stack_extra: Annotated[StrictInt, Field(ge=0, le=MAX_STACK_EXTRA)] = 0
    """Units under the top defender, 0-8 (3 count)."""
    attacker_edge_mods: Annotated[StrictInt, Field(ge=-MAX_EDGE_MODS, le=MAX_EDGE_MODS)] = 0
    """River, uphill and amphibious terms of the approach, pre-summed, per mille."""
    defender_extra_mods: StrictInt = 0
    """0, or -200 for a defender caught after a failed disengagement [CB-1860]."""
    in_own_city: StrictBool = False
    """The defender stands in a city of its own side."""
    encircled: StrictBool = False
    """The defending stack has no retreat candidate [CB-1400]."""
    volatility_floor: StrictInt = t.VOLATILITY_FLOOR_MEASURED
    """250 (measured) or 600 (chaotic) [CB-2630]."""

    @field_validator("kind")
    @classmethod
    def _a_clash_kind(cls, kind: t.Kind) -> t.Kind:
        if kind is t.Kind.DISENGAGEMENT:
            raise ValueError("a disengagement has no exchange; use the disengagement procedure")
        return kind

    @field_validator("lead")
    @classmethod
    def _lead_may_initiate(cls, lead: Combatant, info: ValidationInfo) -> Combatant:
        kind = info.data.get("kind")
        if lead.atk == 0 and kind in (t.Kind.ASSAULT, t.Kind.REACTION):
            raise ValueError("a unit with atk 0 may not initiate an assault or a reaction (CB-230)")
        if isinstance(kind, t.Kind) and not stance_may_initiate(lead.stance, kind):
            raise ValueError("a unit in stance march may not initiate (CB-1530)")
        return lead

    @field_validator("supporters")
    @classmethod
    def _supporters_allowed(
        cls, supporters: tuple[Combatant, ...], info: ValidationInfo
    ) -> tuple[Combatant, ...]:
        kind = info.data.get("kind")
        if kind is not None and supporters:
            allowed = t.KIND_PROFILES[kind].max_supporters
            if allowed == 0:
                raise ValueError(f"a {kind.value} has no supporters (CB-440, CB-450)")
            if len(supporters) > allowed:
                raise ValueError(f"at most {allowed} supporters may join an assault (CB-370)")
        for supporter in supporters:
            if supporter.atk == 0:
                raise ValueError("a supporter needs atk above 0 (CB-230)")
            if supporter.strength == 0:
                raise ValueError("a supporter needs strength at least 1 (CB-370)")
        return supporters

    @field_validator("defender_extra_mods")
    @classmethod
    def _only_caught(cls, value: int) -> int:
        if value not in (0, t.CAUGHT):
            raise ValueError(f"only the caught term may be set: 0 or {t.CAUGHT} (CB-620)")
        return value

    @field_validator("volatility_floor")
    @classmethod
    def _known_floor(cls, value: int) -> int:
        if value not in t.VOLATILITY_FLOORS:
            choices = " or ".join(str(floor) for floor in t.VOLATILITY_FLOORS)
            raise ValueError(f"must be {choices} (CB-2630)")
        return value

    _row: bytes = PrivateAttr(default=b"")
    """The 40 kernel integers of the spec, packed once when it is made (`column_row`)."""

    def model_post_init(self, context: Any, /) -> None:
        """Pack the kernel's integers once, so that many specs stack into columns without
        reading their fields again (`batch.columns_from_specs`)."""
        self._row = _pack(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; with `update`, its packed row is made anew from the updated fields."""
        copy = super().model_copy(update=update, deep=deep)
        if update:
            copy._row = _pack(copy)
        return copy

    def column_row(self) -> bytes:
        """The spec as `to_columns` gives it, packed as little-endian int32 in the order of
        `kernel.Columns` (`ROW_FORMAT`; every field is far inside 32 bits)."""
        row: bytes = self.__pydantic_private__["_row"]  # type: ignore[index]
        return row

    def to_json(self) -> dict[str, Any]:
        """The interchange form: plain JSON values, class stat `def` under its own name."""
        return self.model_dump(mode="json", by_alias=True)

    def canonical_bytes(self) -> bytes:
        """The one byte form of this specification: canonical JSON [CB-320]."""
        return canonical_json(self.to_json())


def stance_may_initiate(stance: t.Stance, kind: t.Kind = t.Kind.ASSAULT) -> bool:
    """Whether a lead in this Stance may initiate a clash of this kind [CB-1530]."""
    return (stance is not t.Stance.MARCH or t.MARCH_MAY_INITIATE
            or kind not in (t.Kind.ASSAULT, t.Kind.BOMBARDMENT))


def parse_spec(data: Any, prefix: str = "") -> ClashSpec:
    """Validate plain JSON data into a ClashSpec; the first problem becomes an InputError."""
    return parse_model(ClashSpec, data, prefix)


def check_resolvable(spec: ClashSpec) -> None:
    """Refuse a clash with nobody to fight it before any draw is used [CB-340, CB-860]."""
    if spec.lead.strength == 0:
        raise RuleError("lead.strength", "a clash needs a lead with strength at least 1 (CB-340)")
    if spec.defender.strength == 0:
        raise RuleError(
            "defender.strength", "a clash needs a defender with strength at least 1 (CB-340)"
        )


_CODES: dict[Any, int] = {  # enum member -> its index in declaration order
    member: index
    for enum in (t.Kind, t.Terrain, t.Role, t.Grade, t.SupplyTier, t.Stance)
    for index, member in enumerate(enum)
}


def _supporter_fields(spec: ClashSpec, slot: int) -> tuple[int, int, int, int, int]:
    """(atk, role, strength, grade, supply) of a supporter slot; an empty slot is all zero."""
    if slot >= len(spec.supporters):
        return 0, 0, 0, 0, 0
    unit = spec.supporters[slot]
    return (unit.atk, _CODES[unit.role], unit.strength, _CODES[unit.grade],
            _CODES[unit.supply_tier])


COLUMN_NAMES = tuple(item.name for item in fields(Columns))
"""The kernel's integer fields in declaration order: the layout of a packed row."""
ROW_FORMAT = struct.Struct(f"<{len(COLUMN_NAMES)}i")
"""A packed row: one little-endian int32 per kernel field."""


def _pack(spec: ClashSpec) -> bytes:
    columns = to_columns(spec)
    return ROW_FORMAT.pack(*(int(getattr(columns, name)) for name in COLUMN_NAMES))


def to_columns(spec: ClashSpec) -> Columns:
    """The specification as the integers the kernel reads (enum codes by declaration order)."""
    lead, defender = spec.lead, spec.defender
    s1 = _supporter_fields(spec, 0)
    s2 = _supporter_fields(spec, 1)
    return Columns(
        kind=_CODES[spec.kind], terrain=_CODES[spec.terrain], flankers=spec.flankers,
        stack_extra=spec.stack_extra, attacker_edge_mods=spec.attacker_edge_mods,
        defender_extra_mods=spec.defender_extra_mods, in_own_city=spec.in_own_city,
        encircled=spec.encircled, volatility_floor=spec.volatility_floor,
        lead_atk=lead.atk, lead_tough=lead.tough, lead_role=_CODES[lead.role],
        lead_strength=lead.strength, lead_disorder=lead.disorder,
        lead_grade=_CODES[lead.grade], lead_supply=_CODES[lead.supply_tier],
        lead_stance=_CODES[lead.stance], lead_works=lead.works, lead_shaken=lead.shaken,
        support1_atk=s1[0], support1_role=s1[1], support1_strength=s1[2],
        support1_grade=s1[3], support1_supply=s1[4],
        support2_atk=s2[0], support2_role=s2[1], support2_strength=s2[2],
        support2_grade=s2[3], support2_supply=s2[4],
        defender_def=defender.defence, defender_tough=defender.tough,
        defender_role=_CODES[defender.role], defender_strength=defender.strength,
        defender_disorder=defender.disorder, defender_grade=_CODES[defender.grade],
        defender_supply=_CODES[defender.supply_tier], defender_stance=_CODES[defender.stance],
        defender_dig_in=defender.dig_in, defender_works=defender.works,
        defender_shaken=defender.shaken,
    )
