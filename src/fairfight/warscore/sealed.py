"""Sealed sheets of a stored war: what a side may write, what the war fills in, and the result.

A sheet is the YAML a side writes for one round: an army (the `attacker:` or `defender:` block
of a battle file, without `nation`) or a nation's National War Score for a year (the block under
a war file's `nws:`). Terms that come from the war's stored history or from the moderator are
never typed by a side: the nation and its wealth, both nations' NWS for the year, the previous
battle's outcome, the troops comparison and every moderator approval. `filled_army` adds them;
`battle_of_sheets` and `year_of_sheets` build and score the round exactly as the command line
scores a battle or a year, so anyone holding the published sheets can score them again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.inputs import parse_yaml
from fairfight.warscore.model import (
    Approver,
    ArmyInput,
    BattleBody,
    Name,
    NwsInput,
    One,
    check_army_alone,
)
from fairfight.warscore.score import BattleResult, score_battle
from fairfight.warscore.tables import BattleKind, PreviousBattles, Wealth
from fairfight.warscore.war import NwsScore, score_nws

__all__ = [
    "FILLED_BY_THE_WAR",
    "MAX_NATIONS",
    "MAX_YEARS",
    "NationSetup",
    "RoundKind",
    "RoundSetup",
    "SHEET_MAX_BYTES",
    "Sheet",
    "WarSetup",
    "approver_name",
    "army_sheet_data",
    "battle_of_sheets",
    "check_army_sheet",
    "filled_army",
    "nws_sheet",
    "sheet_digest",
    "year_of_sheets",
]

SHEET_MAX_BYTES = 16 * 1024
"""A sheet is a screenful of YAML; anything larger is refused before it is parsed."""
FILLED_BY_THE_WAR = {
    "nation": "comes from the nation's link",
    "wealth": "comes from the war's nations",
    "nws_score": "comes from the war's stored National War Scores",
    "approved_by": "is the moderator's recorded approval, never typed by a side",
}
"""Top-level army fields a sheet may not hold, and why."""
MAX_NATIONS = 16
"""Nations in one war (a forum war has a handful)."""
MAX_YEARS = 50
"""Years a war is planned to run."""
_FILLED_MORALE = {
    "nws": "is derived from the war's stored National War Scores",
    "numbers": "is derived from the two armies' troops",
    "approved_by": "is the moderator's recorded approval, never typed by a side",
}
_FRESH = str(PreviousBattles.FRESH)
_FILLED_SUPPORT = {"approved_by": "is the moderator's recorded approval, never typed by a side"}


class RoundKind(StrEnum):
    """What a round of a stored war settles."""

    BATTLE = "battle"
    """One battle: the attacker's and the defender's army sheets."""
    YEAR = "year"
    """One year's National War Scores: a sheet from every nation."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """A sheet as a side sent it: the exact text and its SHA-256 (what everyone is shown)."""

    nation: str
    text: str

    def sha256(self) -> str:
        """SHA-256 of the sheet's UTF-8 bytes, as lowercase hex."""
        return sheet_digest(self.text)


class _Approval(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    by: Approver


def approver_name(text: str) -> str:
    """A moderator's name as an approval records it: the rules of a name in a post (it fills
    the army's `approved_by`), or InputError naming `by`."""
    return parse_model(_Approval, {"by": text}).by


def sheet_digest(text: str) -> str:
    """SHA-256 of a sheet's UTF-8 bytes, as lowercase hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _mapping(text: str, where: str) -> dict[str, Any]:
    """The sheet's YAML, which must be a mapping, under the size limit."""
    if len(text.encode("utf-8")) > SHEET_MAX_BYTES:
        raise InputError(where, f"a sheet is at most {SHEET_MAX_BYTES:,} bytes")
    try:
        data = parse_yaml(text, where)
    except InputError as error:  # a field the YAML reader names is a field of this sheet
        if error.field == where or error.field.startswith(f"{where}."):
            raise
        raise InputError(f"{where}.{error.field}", error.rule) from None
    if not isinstance(data, dict):
        raise InputError(where, "must be a YAML mapping (the fields of one army or one NWS)")
    return data


def _refuse_filled(data: dict[str, Any], where: str) -> None:
    """A side may not type what the war fills in."""
    blocks = ((where, data, FILLED_BY_THE_WAR),
              (f"{where}.morale", data.get("morale"), _FILLED_MORALE),
              (f"{where}.support", data.get("support"), _FILLED_SUPPORT))
    for prefix, block, rules in blocks:
        if isinstance(block, dict):
            for key, why in rules.items():
                if key in block:
                    raise InputError(f"{prefix}.{key}", why)


def army_sheet_data(text: str, where: str = "sheet") -> dict[str, Any]:
    """An army sheet's fields, refused when it types a term the war fills in. Of the previous
    battles a side may claim only fresh troops: victory and defeat come from the record."""
    data = _mapping(text, where)
    _refuse_filled(data, where)
    morale = data.get("morale")
    if isinstance(morale, dict) and morale.get("previous", _FRESH) != _FRESH:
        raise InputError(f"{where}.morale.previous", "only `fresh` may be claimed; a victory or "
                         "defeat comes from the nation's last published battle in this war")
    return data


def filled_army(data: dict[str, Any], filled: dict[str, Any]) -> dict[str, Any]:
    """The sheet with the war's terms added (`filled` holds top-level fields and `morale`)."""
    army = {**data, **{key: value for key, value in filled.items() if key != "morale"}}
    if filled.get("morale"):
        army["morale"] = {**data.get("morale", {}), **filled["morale"]}
    return army


def check_army_sheet(text: str, filled: dict[str, Any], kind: BattleKind, attacking: bool,
                     where: str = "sheet") -> ArmyInput:
    """A sheet read and checked on its own (with the war's terms), before it may be sealed."""
    data = army_sheet_data(text, where)
    morale = data.get("morale")
    if "previous" in filled.get("morale", {}) and isinstance(morale, dict) \
            and "previous" in morale:
        raise InputError(f"{where}.morale.previous", "comes from the nation's last published "
                         f"battle in this war ({filled['morale']['previous']}); leave it out")
    army = parse_model(ArmyInput, filled_army(data, filled), where)
    check_army_alone(army, kind, attacking, where)
    return army


def battle_of_sheets(header: dict[str, Any], sheets: dict[str, str],
                     filled: dict[str, dict[str, Any]]) -> tuple[BattleBody, BattleResult]:
    """The battle built from both sealed sheets and the war's terms, and its result.

    `header` holds `battle`, `year` and `kind`; `sheets` and `filled` are keyed by
    `attacker` and `defender`."""
    body = {"battle": header["battle"], "kind": header["kind"]}
    for side in ("attacker", "defender"):
        body[side] = filled_army(army_sheet_data(sheets[side], f"{side}.sheet"), filled[side])
    battle = parse_model(BattleBody, body)
    return battle, score_battle(battle, int(header["year"]))


def nws_sheet(text: str, where: str = "sheet") -> NwsInput:
    """A nation's NWS sheet for one year (the eight categories and its fronts)."""
    return parse_model(NwsInput, _mapping(text, where), where)


def year_of_sheets(year: int, sheets: dict[str, str]) -> tuple[NwsScore, ...]:
    """Every nation's National War Score for the year, from its sealed sheet, in the order of
    the nations' names (the order a published document's sheets read back in)."""
    return tuple(score_nws(nation, year, nws_sheet(sheets[nation], f"{nation}.sheet"))
                 for nation in sorted(sheets))


# --- setting up a stored war and its rounds ------------------------------------------------


class _Setup(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NationSetup(_Setup):
    """A nation of a stored war: its name, the side it fights on, and its wealth if known."""

    name: Name
    side: Name
    wealth: One[Wealth] | None = None


class WarSetup(_Setup):
    """What a game master gives to create a war: its name, the moderator's name as it will be
    recorded with each approval, the nations and the years the war is planned to run."""

    war: Name
    moderator: Name
    nations: tuple[NationSetup, ...] = Field(min_length=2, max_length=MAX_NATIONS)
    years: tuple[StrictInt, ...] = Field(min_length=1, max_length=MAX_YEARS)

    def checked(self) -> WarSetup:
        """The setup, or InputError: nations named once, two sides at least, years rising."""
        names = [nation.name for nation in self.nations]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise InputError(f"nations[{index}].name", f"'{name}' is listed twice")
        if len({nation.side for nation in self.nations}) < 2:
            raise InputError("nations", "a war needs nations on at least two sides")
        for index in range(1, len(self.years)):
            if self.years[index] <= self.years[index - 1]:
                raise InputError(f"years[{index}]", "years must be listed in increasing order")
        return self

    def config(self) -> dict[str, Any]:
        """The stored configuration (what `standing_of` reads)."""
        return {"name": self.war, "moderator": self.moderator, "years": list(self.years),
                "nations": [{"name": n.name, "side": n.side,
                             "wealth": None if n.wealth is None else str(n.wealth)}
                            for n in self.nations]}


class RoundSetup(_Setup):
    """A round the moderator opens: a battle between two nations, or a year's NWS."""

    kind: One[RoundKind]
    year: StrictInt
    battle: Name | None = None
    battle_kind: One[BattleKind] = BattleKind.LAND
    attacker: Name | None = None
    defender: Name | None = None

    def header(self, war: dict[str, Any]) -> dict[str, Any]:
        """The round's stored header, or InputError naming the field that does not fit."""
        names = [nation["name"] for nation in war["nations"]]
        if self.year not in war["years"]:
            raise InputError("year", f"is not one of the war's years {war['years']}")
        if self.kind is RoundKind.YEAR:
            return {"year": self.year}
        for field in ("battle", "attacker", "defender"):
            if getattr(self, field) is None:
                raise InputError(field, "a battle round needs it")
        for field in ("attacker", "defender"):
            if getattr(self, field) not in names:
                raise InputError(field, "is not one of the war's nations")
        if self.attacker == self.defender:
            raise InputError("defender", "an army cannot fight its own nation")
        sides = {nation["name"]: nation["side"] for nation in war["nations"]}
        if sides[str(self.attacker)] == sides[str(self.defender)]:
            raise InputError("defender", "fights on the attacker's own side")
        return {"battle": self.battle, "year": self.year, "kind": str(self.battle_kind),
                "attacker": self.attacker, "defender": self.defender}
