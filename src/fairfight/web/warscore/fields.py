"""The battle form's fields, named by the dotted path of the battle file they fill.

A form field is named exactly as the field of the battle file (`defender.support.race`), so a
refusal from the models or from `check_battle` lands beside the input it names. Choices and
their scores come from the ruleset's tables; nothing here is a second copy of a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from fairfight.warscore import tables as t
from fairfight.warscore.rules_page import NWS_FIELDS

__all__ = [
    "ARMY_SECTIONS",
    "BATTLE_FIELDS",
    "Choice",
    "FieldSpec",
    "NWS_FORM",
    "SIDES",
    "all_fields",
]

SIDES = ("attacker", "defender")


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a select or checkbox group: the file's value and what the form shows."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One input of the form; `path` is the field's dotted path inside its army (or battle)."""

    path: str
    label: str
    kind: str
    """text, int, select, multi (checkboxes) or bool."""
    choices: tuple[Choice, ...] = ()
    required: bool = False
    hint: str = ""


def _signed(value: Decimal | int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


def _choices(table: Mapping[Any, t.Row[Any]], factor: bool = False) -> tuple[Choice, ...]:
    """Options from a table, each label carrying the score it adds (or the factor it sets)."""
    return tuple(
        Choice(str(key), f"{row.label} ({row.value if factor else _signed(row.value)})")
        for key, row in table.items()
    )


def _plain(enum: type[StrEnum]) -> tuple[Choice, ...]:
    return tuple(Choice(str(member), str(member)) for member in enum)


BATTLE_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec("battle", "Battle name", "text", required=True),
    FieldSpec("year", "Year", "int", required=True),
    FieldSpec("kind", "Kind", "select", _plain(t.BattleKind), required=True,
              hint="Naval rules are this project's own; see the rules page."),
)

ARMY_SECTIONS: tuple[tuple[str, tuple[FieldSpec, ...]], ...] = (
    ("Army", (
        FieldSpec("nation", "Nation", "text", required=True),
        FieldSpec("troops", "Troops", "int", required=True,
                  hint=f"Whole soldiers; {t.TROOPS_PER_POINT:,} troops score 1.00."),
        FieldSpec("wealth", "Wealth", "select", _plain(t.Wealth),
                  hint="Caps the ballista and cavalry tiers."),
        FieldSpec("nws_score", "National War Score", "int",
                  hint="Give both nations' scores and the NWS morale term is derived."),
        FieldSpec("pikes", "Carries pikes", "bool",
                  hint="Cuts the enemy's cavalry support by 75%."),
        FieldSpec("approved_by", "Approved by (moderator)", "text",
                  hint="Needed for a Strategic Fort; also covers the blocks below."),
    )),
    ("Support", (
        FieldSpec("support.race", "Race", "select", _choices(t.RACES), required=True),
        FieldSpec("support.special_units", "Special units", "multi",
                  _choices(t.SPECIAL_UNITS)),
        FieldSpec("support.ballista", "Ballista (land)", "select", _choices(t.BALLISTA)),
        FieldSpec("support.cavalry", "Cavalry (land)", "select", _choices(t.CAVALRY)),
        FieldSpec("support.ships", "Ships (naval)", "select", _choices(t.SHIPS)),
        FieldSpec("support.partial", "Only part of the army has this support", "bool"),
        FieldSpec("support.approved_by", "Support approved by", "text"),
    )),
    ("Morale", (
        FieldSpec("morale.nws", "NWS standing", "select", _choices(t.NWS_STANDING),
                  hint="Leave empty when both NWS scores are given."),
        FieldSpec("morale.numbers", "Numbers", "select", _choices(t.NUMBERS),
                  hint="Derived from the troops; if given it must match."),
        FieldSpec("morale.previous", "Previous battles", "select",
                  _choices(t.PREVIOUS_BATTLES)),
        FieldSpec("morale.positioning", "Positioning", "select", _choices(t.POSITIONING)),
        FieldSpec("morale.specials", "Morale specials (approval)", "multi",
                  _choices(t.MORALE_SPECIALS)),
        FieldSpec("morale.approved_by", "Morale approved by", "text"),
    )),
    ("Defensives", (
        FieldSpec("defensives", "Defensives (defender only)", "select",
                  _choices({**t.LAND_DEFENSIVES, **t.HARBOUR_DEFENSIVES}, factor=True)),
    )),
    ("Technology", (
        FieldSpec("technology.armor", "Armour", "select", _choices(t.ARMOR), required=True),
        FieldSpec("technology.weapons", "Weapons", "select", _choices(t.WEAPONS),
                  required=True),
        FieldSpec("technology.mithril", "Mithril", "bool",
                  hint=f"Counts only above {t.MITHRIL_ABOVE} armour."),
        FieldSpec("technology.scant", "Scant armour", "bool"),
    )),
)


NWS_FORM: tuple[FieldSpec, ...] = (
    FieldSpec("nation", "Nation", "text", required=True),
    FieldSpec("year", "Year", "int", required=True),
    *(FieldSpec(field, title, "select", _choices(table), required=True)
      for (field, table), title in zip(NWS_FIELDS, t.NWS_CATEGORIES, strict=False)),
    FieldSpec("fronts", t.NWS_CATEGORIES[-1], "int", required=True,
              hint=f"At least {t.MIN_FRONTS}; 1 front scores {t.FRONTS[1]:+}, "
              f"each front beyond {max(t.FRONTS)} scores {t.FURTHER_FRONT}."),
)
"""One nation's National War Score for one year: the eight categories of a war file."""


def all_fields() -> list[tuple[str, FieldSpec]]:
    """Every form input as (full dotted name, spec), battle fields first, then each army."""
    named = [(spec.path, spec) for spec in BATTLE_FIELDS]
    for side in SIDES:
        for _, section in ARMY_SECTIONS:
            named += [(f"{side}.{spec.path}", spec) for spec in section]
    return named
