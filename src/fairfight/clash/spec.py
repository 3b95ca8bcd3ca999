"""The Clash Specification: every input of one exchange, as a frozen, validated value.

A specification holds only integers, enum values and booleans [CB-310], has one canonical
byte form [CB-320], and is what both the resolution and the preview read [CB-280]. The JSON
format is the one of the reconstructed tables (snake_case, lowercase enum values).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator
from pydantic_core.core_schema import ValidationInfo

from fairfight.clash import tables as t
from fairfight.clash.kernel import Columns
from fairfight.core.errors import RuleError
from fairfight.core.records import canonical_json
from fairfight.core.validation import parse_model

__all__ = [
    "MAX_FLANKERS",
    "MAX_STAT",
    "ClashSpec",
    "Combatant",
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

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    atk: Stat
    defence: Stat = Field(alias="def")
    tough: Annotated[StrictInt, Field(ge=1, le=MAX_STAT)]
    role: t.Role
    strength: Percent
    disorder: Percent = 0
    grade: t.Grade
    supply_tier: t.SupplyTier
    stance: t.Stance
    dig_in: Level = 0
    works: Level = 0
    shaken: Annotated[StrictInt, Field(ge=0, le=MAX_SHAKEN)] = 0
    creation_sequence: Annotated[StrictInt, Field(ge=0)] = 0


class ClashSpec(BaseModel):
    """Every input the procedure reads, and nothing else [CB-290]."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: t.Kind
    terrain: t.Terrain
    lead: Combatant
    supporters: tuple[Combatant, ...] = ()
    defender: Combatant
    flankers: Annotated[StrictInt, Field(ge=0, le=MAX_FLANKERS)] = 0
    stack_extra: Annotated[StrictInt, Field(ge=0, le=MAX_STACK_EXTRA)] = 0
    attacker_edge_mods: Annotated[StrictInt, Field(ge=-MAX_EDGE_MODS, le=MAX_EDGE_MODS)] = 0
    defender_extra_mods: StrictInt = 0
    in_own_city: StrictBool = False
    encircled: StrictBool = False
    volatility_floor: StrictInt = t.VOLATILITY_FLOOR_MEASURED

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
