"""The rules page is generated from tables.py and shows every table and constant [CB-2740]."""

from __future__ import annotations

import re

import pytest

from fairfight.clash import tables as t
from fairfight.clash.rules_page import ENUMS, named_constants, rules_page
from fairfight.clash.victory import DEFAULT_TURN_LIMIT, MAX_TURN_LIMIT


def _table(page: str, heading: str) -> list[list[str]]:
    """The rows (cells as text) of the Markdown table under a heading."""
    section = page.split(f"\n## {heading}\n", 1)[1]
    rows = []
    for line in section.splitlines():
        if line.startswith("## "):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[1:]


@pytest.fixture(scope="module")
def page() -> str:
    return rules_page()


def test_role_terrain(page: str) -> None:
    rows = _table(page, "Role on terrain (power modifier)")
    assert {row[0]: [int(v) for v in row[1:]] for row in rows} == {
        role.value: [t.ROLE_TERRAIN[role][terrain] for terrain in t.Terrain]
        for role in t.Role}


def test_per_value_tables(page: str) -> None:
    expectations = {
        "Terrain cover and chaos": {x.value: [t.TERRAIN_COVER[x], t.TERRAIN_CHAOS[x]]
                                    for x in t.Terrain},
        "Stance": {x.value: [t.STANCE_ATTACK[x], t.STANCE_DEFENCE[x], t.STANCE_RESOLVE[x],
                             t.STANCE_SHOCK_TO_DEFENDER[x], t.STANCE_SHOCK_TO_ATTACKER[x]]
                   for x in t.Stance},
        "Grade": {x.value: [t.GRADE_XP_THRESHOLD[x], t.GRADE_POWER[x], t.GRADE_RESOLVE[x],
                            t.GRADE_VOLATILITY[x]] for x in t.Grade},
        "Supply": {x.value: [t.SUPPLY_POWER[x], t.SUPPLY_RESOLVE[x], t.SUPPLY_VOLATILITY[x]]
                   for x in t.SupplyTier},
        "Combined arms": {str(k): [v] for k, v in t.COMBINED_ARMS.items()},
        "Disorder gained by the lead": {k.value: [v] for k, v in t.LEAD_DISORDER.items()},
        "Recovery per turn (before supply and fighting modifiers)": {
            k.value: list(v) for k, v in t.RECOVERY_BASE.items()},
    }
    for heading, expected in expectations.items():
        rows = _table(page, heading)
        assert {row[0]: [int(v) for v in row[1:]] for row in rows} == expected, heading


def test_kinds_and_cast(page: str) -> None:
    kinds = {row[0]: row[1:] for row in _table(page, "Kinds of engagement")}
    for kind, profile in t.KIND_PROFILES.items():
        assert kinds[kind.value][:3] == [str(profile.intensity_out),
                                         str(profile.intensity_back),
                                         str(profile.max_supporters)]
    cast = {row[0]: row[1:] for row in _table(page, "Calibration cast")}
    for unit in t.CALIBRATION_CAST:
        assert cast[unit.name] == [str(unit.atk), str(unit.defence), str(unit.tough),
                                   unit.role.value, unit.retreat_class.value,
                                   str(unit.bombard_range), str(unit.bombard_shots)]


def test_every_named_constant(page: str) -> None:
    rows = dict((row[0], int(row[1])) for row in _table(page, "Constants"))
    constants = named_constants()
    assert len(constants) > 60
    assert rows == dict(constants)
    assert rows["COMBAT_LOGIC_VERSION"] == 1


def test_every_enum_member_is_described(page: str) -> None:
    for enum in ENUMS:
        for member in enum:
            assert re.search(rf"^\| {member.value} \| \S", page, re.MULTILINE), member


def test_how_a_game_ends_is_printed_from_the_model(page: str) -> None:
    section = page.split("## How a game ends", 1)[1].split("\n## ", 1)[0]
    assert f"| turn_limit | {DEFAULT_TURN_LIMIT} | Turns played at most" in section
    assert "| last_unit | yes |" in section and "| cities_at_turn | none |" in section
    assert f"at most {MAX_TURN_LIMIT} turns" in section
    assert "| resignation | Every other side resigned" in page
