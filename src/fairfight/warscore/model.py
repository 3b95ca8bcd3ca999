"""Input files of the warscore ruleset, validated with pydantic, plus the rules that span fields.

A battle file and a war file are YAML; their shapes are documented in docs/warscore.md. Field
shapes (one value per category, known names, whole troop counts) are checked by the models; the
checks that look at several fields at once live in `check_battle` and raise `InputError` with
the full dotted path of the field that broke the rule.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
)

from fairfight.core.errors import InputError
from fairfight.warscore.tables import (
    DEFENSIVES_NEEDING_APPROVAL,
    EXTRA_HUMAN_RACES,
    EXTRA_HUMAN_UNITS,
    HARBOUR_DEFENSIVES,
    LAND_DEFENSIVES,
    MAX_TROOPS,
    MIN_FRONTS,
    MITHRIL_ABOVE,
    OUTNUMBER_RATIO,
    PARTIAL_ARMY_TIER_STEP,
    SUPPORT_TIER_ORDER,
    WEALTH_SUPPORT_CAP,
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
    Wealth,
    Weapons,
    Weariness,
)

_T = TypeVar("_T")


def _one_value(value: Any) -> Any:
    """Refuse a list where the category takes a single choice."""
    if isinstance(value, list | tuple | set):
        raise ValueError("takes one value, not a list")
    return value


def _no_repeats(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each special may be listed once."""
    seen = set()
    for value in values:
        if value in seen:
            raise ValueError(f"'{value}' is listed twice; each kind counts once")
        seen.add(value)
    return values


def _at_least_one_front(value: int) -> int:
    if value < MIN_FRONTS:
        raise ValueError(f"must be at least {MIN_FRONTS}: a nation at war has a front")
    return value


def _positive_troops(value: Any) -> Any:
    """Troops are counted in whole soldiers: no fractions, no text, no booleans."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TROOPS:
        raise ValueError(f"must be a whole number of soldiers, from 1 to {MAX_TROOPS:,}")
    return value


def _plain_name(value: str) -> str:
    """A name goes into forum posts verbatim: a line break would forge a line of the post, a
    square bracket a BBCode tag (`[url=...]`), so neither (nor any control character) is let in."""
    if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "[]\u2028\u2029" for c in value):
        raise ValueError("a name may not hold line breaks, control characters or square "
                         "brackets (they would forge lines or BBCode tags in the post)")
    return value


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120),
                 AfterValidator(_plain_name)]
Approver = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120),
                     AfterValidator(_plain_name)]
TroopCount = Annotated[StrictInt, BeforeValidator(_positive_troops)]
FrontCount = Annotated[StrictInt, AfterValidator(_at_least_one_front)]


One = Annotated[_T, BeforeValidator(_one_value)]
"""A single-choice field of the given enum (a list is refused with a clear message)."""


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SupportInput(_Input):
    """Support: race, special units, ballista and cavalry tiers (land), ship class (naval)."""

    race: One[Race]
    special_units: Annotated[tuple[SpecialUnit, ...], AfterValidator(_no_repeats)] = ()
    ballista: One[SupportTier] | None = None
    cavalry: One[SupportTier] | None = None
    ships: One[ShipClass] | None = None
    partial: StrictBool = False
    approved_by: Approver | None = None


class MoraleInput(_Input):
    """Morale terms; `nws` and `numbers` are derived whenever the engine knows enough."""

    nws: One[NwsStanding] | None = None
    numbers: One[Numbers] | None = None
    previous: One[PreviousBattles] | None = None
    positioning: One[Positioning] | None = None
    specials: Annotated[tuple[MoraleSpecial, ...], AfterValidator(_no_repeats)] = ()
    approved_by: Approver | None = None


class TechnologyInput(_Input):
    """Armour and weapons, with the mithril and scant-armour modifiers."""

    armor: One[Armor]
    weapons: One[Weapons]
    mithril: StrictBool = False
    scant: StrictBool = False


class ArmyInput(_Input):
    """One side of a battle."""

    nation: Name
    troops: TroopCount
    wealth: One[Wealth] | None = None
    nws_score: StrictInt | None = None
    pikes: StrictBool = False
    support: SupportInput
    morale: MoraleInput = MoraleInput()
    defensives: One[Defensives] | None = None
    technology: TechnologyInput
    approved_by: Approver | None = None


class BattleBody(_Input):
    """A battle without its year (inside a war file the year comes from the enclosing block)."""

    battle: Name
    kind: One[BattleKind] = BattleKind.LAND
    attacker: ArmyInput
    defender: ArmyInput


class BattleInput(BattleBody):
    """A battle file: one battle and the year it is fought in."""

    year: StrictInt


class NwsInput(_Input):
    """One nation's National War Score inputs for one year: the eight categories."""

    population: One[Population]
    industry: One[Industry]
    technology: One[NationalTechnology]
    government: One[Government]
    eagerness: One[Eagerness]
    weariness: One[Weariness]
    readiness: One[Readiness]
    fronts: FrontCount


class NationInput(_Input):
    """A nation taking part in a war."""

    name: Name
    wealth: One[Wealth] | None = None


class YearInput(_Input):
    """One year of a war: each nation's NWS inputs and the battles fought that year."""

    year: StrictInt
    nws: dict[Name, NwsInput]
    battles: tuple[BattleBody, ...] = ()


class WarInput(_Input):
    """A war file: the nations and the years of the war in order."""

    war: Name
    nations: tuple[NationInput, ...] = Field(min_length=2)
    years: tuple[YearInput, ...] = Field(min_length=1)


# --- rules spanning several fields ---------------------------------------------------------


def _approver(block: str | None, army: ArmyInput) -> str | None:
    """An approval given on a block, or failing that on the whole army."""
    return block if block is not None else army.approved_by


def _tier_rank(tier: SupportTier) -> int:
    return SUPPORT_TIER_ORDER.index(tier)


def _check_support_caps(army: ArmyInput, where: str) -> None:
    """Wealth caps the support tiers; a partial army may go one tier higher with approval."""
    if army.wealth is None:
        return
    cap = WEALTH_SUPPORT_CAP[army.wealth]
    approved = _approver(army.support.approved_by, army) is not None
    for arm, tier in (("ballista", army.support.ballista), ("cavalry", army.support.cavalry)):
        if tier is None or _tier_rank(tier) <= _tier_rank(cap):
            continue
        field = f"{where}.support.{arm}"
        stretched = min(_tier_rank(cap) + PARTIAL_ARMY_TIER_STEP, len(SUPPORT_TIER_ORDER) - 1)
        if _tier_rank(tier) > stretched:
            raise InputError(
                field, f"a nation of {army.wealth} wealth fields at most "
                f"{SUPPORT_TIER_ORDER[stretched]} support, and that only for part of its "
                "army with approval"
            )
        if not army.support.partial:
            raise InputError(
                field, f"a nation of {army.wealth} wealth fields at most {cap} support across its "
                f"whole army; set support.partial and approved_by to go one tier higher"
            )
        if not approved:
            raise InputError(
                field, f"{tier} support for part of an army of {army.wealth} wealth needs "
                f"moderator approval (approved_by)"
            )


def _check_technology(army: ArmyInput, where: str) -> None:
    """Extra-human plate, mithril and scant armour each have a precondition."""
    tech = army.technology
    armor_order = tuple(Armor)
    if tech.armor is Armor.EXTRA_HUMAN_PLATE and not (
        army.support.race in EXTRA_HUMAN_RACES
        or EXTRA_HUMAN_UNITS.intersection(army.support.special_units)
    ):
        races = " or ".join(sorted(EXTRA_HUMAN_RACES))
        units = " or ".join(sorted(EXTRA_HUMAN_UNITS))
        raise InputError(
            f"{where}.technology.armor",
            f"extra-human plate needs race {races}, or {units} among the special units",
        )
    if tech.mithril and armor_order.index(tech.armor) <= armor_order.index(MITHRIL_ABOVE):
        raise InputError(
            f"{where}.technology.mithril", f"mithril counts only for armour above {MITHRIL_ABOVE}"
        )
    if tech.scant and tech.armor is Armor.NONE:
        raise InputError(
            f"{where}.technology.scant", "scant armour needs some armour to be scant of"
        )


def _check_kind(army: ArmyInput, kind: BattleKind, where: str) -> None:
    """Land battles use ballista, cavalry and land works; naval ones ships and harbour works."""
    support = army.support
    if kind is BattleKind.NAVAL:
        for arm in ("ballista", "cavalry"):
            if getattr(support, arm) is not None:
                raise InputError(f"{where}.support.{arm}", "not part of a naval battle")
        if army.pikes:
            raise InputError(f"{where}.pikes", "pikes only matter against cavalry on land")
        if army.defensives is not None and army.defensives not in HARBOUR_DEFENSIVES:
            raise InputError(
                f"{where}.defensives", "a naval defender counts only harbour works: "
                + ", ".join(HARBOUR_DEFENSIVES)
            )
    else:
        if support.ships is not None:
            raise InputError(f"{where}.support.ships", "ships count only in a naval battle")
        if army.defensives is not None and army.defensives not in LAND_DEFENSIVES:
            raise InputError(
                f"{where}.defensives", "harbour works count only in a naval battle"
            )


def derived_numbers(ours: int, theirs: int) -> Numbers | None:
    """Heavy outnumbering either way, from the two armies' troops (ratio at least 2)."""
    if ours >= OUTNUMBER_RATIO * theirs:
        return Numbers.HEAVILY_OUTNUMBERING
    if theirs >= OUTNUMBER_RATIO * ours:
        return Numbers.HEAVILY_OUTNUMBERED
    return None


def _check_army(army: ArmyInput, enemy: ArmyInput, kind: BattleKind, where: str) -> None:
    _check_kind(army, kind, where)
    _check_technology(army, where)
    _check_support_caps(army, where)
    if army.morale.specials and _approver(army.morale.approved_by, army) is None:
        raise InputError(
            f"{where}.morale.specials", "morale specials need moderator approval (approved_by)"
        )
    if army.defensives in DEFENSIVES_NEEDING_APPROVAL and army.approved_by is None:
        raise InputError(
            f"{where}.defensives",
            f"{army.defensives} needs moderator approval ({where}.approved_by)",
        )
    derived = derived_numbers(army.troops, enemy.troops)
    if army.morale.numbers is not None and army.morale.numbers is not derived:
        raise InputError(
            f"{where}.morale.numbers",
            f"does not match the troops ({army.troops:,} against {enemy.troops:,}); "
            "leave it out and it is derived",
        )
    if army.nws_score is not None and enemy.nws_score is not None and army.morale.nws is not None:
        raise InputError(
            f"{where}.morale.nws", "both nations' NWS are given, so this term is derived"
        )


def check_army_alone(army: ArmyInput, kind: BattleKind, attacking: bool, where: str) -> None:
    """The rules one army must keep whatever it faces, so a sheet can be refused before it is
    sealed rather than when the battle is scored [warscore sealed sheets]."""
    if attacking and army.defensives is not None:
        raise InputError(f"{where}.defensives", "the attacker has no defensives")
    _check_army(army, army.model_copy(update={"troops": army.troops}), kind, where)


def check_battle(battle: BattleBody, prefix: str = "") -> None:
    """Every rule that spans fields of a battle; raises InputError naming the field [warscore]."""
    lead = f"{prefix}." if prefix else ""
    if battle.attacker.defensives is not None:
        raise InputError(f"{lead}attacker.defensives", "the attacker has no defensives")
    if battle.attacker.nation == battle.defender.nation:
        raise InputError(f"{lead}defender.nation", "an army cannot fight its own nation")
    _check_army(battle.attacker, battle.defender, battle.kind, f"{lead}attacker")
    _check_army(battle.defender, battle.attacker, battle.kind, f"{lead}defender")


__all__ = [
    "Approver",
    "ArmyInput",
    "BattleBody",
    "BattleInput",
    "FrontCount",
    "MoraleInput",
    "Name",
    "NationInput",
    "NwsInput",
    "One",
    "SupportInput",
    "TechnologyInput",
    "TroopCount",
    "WarInput",
    "YearInput",
    "check_army_alone",
    "check_battle",
    "derived_numbers",
]
