"""Bad input: one line naming the field and the rule, exit code 2, never a traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.warscore.conftest import NWS_PLAIN, war_data


def refused(run: Any, *args: Any) -> str:
    """Run the command, check it was refused cleanly, return its single line."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("InputError: ")
    return lines[0]


def test_unknown_race(run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]) -> None:
    demo["attacker"]["support"]["race"] = "martian"
    line = refused(run, "battle", write_yaml(demo))
    assert "attacker.support.race" in line
    assert "'orc'" in line  # the rule: the known races


def test_two_armour_values_as_a_list(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    demo["defender"]["technology"]["armor"] = ["light", "full-plate"]
    line = refused(run, "battle", write_yaml(demo))
    assert "defender.technology.armor" in line
    assert "one value" in line


def test_two_armour_values_as_a_repeated_key(
    run: Any, write_yaml: Callable[[Any], Path]
) -> None:
    text = """battle: Twice
year: 1
attacker:
  nation: A
  troops: 1000
  support: {race: human}
  technology:
    armor: light
    armor: full-plate
    weapons: normal
defender:
  nation: B
  troops: 1000
  support: {race: human}
  technology: {armor: light, weapons: normal}
"""
    line = refused(run, "battle", write_yaml(text))
    assert "attacker.technology.armor" in line
    assert "twice (line 9)" in line


def test_extra_human_plate_on_a_human_army_without_trolls(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    demo["defender"]["technology"]["armor"] = "extra-human-plate"
    line = refused(run, "battle", write_yaml(demo))
    assert "defender.technology.armor" in line
    assert "extra-human plate needs" in line


def test_strategic_fort_without_approval(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    demo["defender"]["defensives"] = "strategic-fort"
    line = refused(run, "battle", write_yaml(demo))
    assert "defender.defensives" in line
    assert "approval" in line
    demo["defender"]["approved_by"] = "Moderator"
    assert run("battle", write_yaml(demo)).exit_code == 0


@pytest.mark.parametrize("troops", [-5, 0, 43142.5, "43,142", True, 1_000_000_001])
def test_troops_must_be_a_positive_whole_number(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path], troops: Any
) -> None:
    demo["attacker"]["troops"] = troops
    line = refused(run, "battle", write_yaml(demo))
    assert "attacker.troops" in line


def test_zero_fronts(run: Any, write_yaml: Callable[[Any], Path]) -> None:
    nws = {"Gondor": dict(NWS_PLAIN), "Mordor": {**NWS_PLAIN, "fronts": 0}}
    line = refused(run, "war", write_yaml(war_data([{"year": 1, "nws": nws}])))
    assert "years[0].nws.Mordor.fronts" in line
    assert "at least 1" in line


def test_missing_defender(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    del demo["defender"]
    line = refused(run, "battle", write_yaml(demo))
    assert "defender" in line
    assert "required" in line.lower()


def test_yaml_syntax_error_names_the_line(run: Any, write_yaml: Callable[[Any], Path]) -> None:
    text = "battle: Broken\nyear: 3019\nattacker:\n  nation: Mordor\n troops: 5\n"
    line = refused(run, "battle", write_yaml(text))
    assert "YAML syntax error at line 5" in line  # the badly indented `troops`


def test_missing_file(run: Any, tmp_path: Path) -> None:
    line = refused(run, "battle", tmp_path / "nowhere.yaml")
    assert "file not found" in line


def test_unknown_field(run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]) -> None:
    demo["attacker"]["horses"] = 5
    assert "attacker.horses" in refused(run, "battle", write_yaml(demo))


def test_unknown_output_format(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    assert "--format" in refused(run, "battle", write_yaml(demo), "--format", "xml")


def test_attacker_with_defensives(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    demo["attacker"]["defensives"] = "small-fort"
    assert "attacker.defensives" in refused(run, "battle", write_yaml(demo))


def test_morale_specials_need_approval(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    del demo["defender"]["morale"]["approved_by"]
    assert "defender.morale.specials" in refused(run, "battle", write_yaml(demo))


def test_repeated_special_unit(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    demo["attacker"]["support"]["special_units"] = ["trolls", "trolls"]
    line = refused(run, "battle", write_yaml(demo))
    assert "attacker.support.special_units" in line
    assert "twice" in line


def test_typed_numbers_must_match_the_troops(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    demo["attacker"]["troops"] = 80000  # under twice Gondor's 43,142
    assert "attacker.morale.numbers" in refused(run, "battle", write_yaml(demo))


def test_year_not_in_war(run: Any, write_yaml: Callable[[Any], Path]) -> None:
    nws = {"Gondor": NWS_PLAIN, "Mordor": NWS_PLAIN}
    line = refused(run, "war", write_yaml(war_data([{"year": 5, "nws": nws}])), "--year", "6")
    assert "--year" in line


def test_war_battle_naming_a_stranger(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    nws = {"Gondor": NWS_PLAIN, "Mordor": NWS_PLAIN}
    battle = {key: value for key, value in demo.items() if key != "year"}
    battle["attacker"]["nation"] = "Rohan"
    battle["attacker"]["morale"].pop("nws")
    battle["defender"]["morale"].pop("nws")
    data = war_data([{"year": 1, "nws": nws, "battles": [battle]}])
    assert "years[0].battles[0].attacker.nation" in refused(run, "war", write_yaml(data))


def test_war_battle_with_typed_nws_term(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    nws = {"Gondor": NWS_PLAIN, "Mordor": NWS_PLAIN}
    battle = {key: value for key, value in demo.items() if key != "year"}
    data = war_data([{"year": 1, "nws": nws, "battles": [battle]}])
    line = refused(run, "war", write_yaml(data))
    assert "years[0].battles[0].attacker.morale.nws" in line
    assert "derived" in line


@pytest.mark.parametrize("text", ["", "- just\n- a list\n", "42\n"])
def test_file_that_is_not_a_mapping(
    run: Any, write_yaml: Callable[[Any], Path], text: str
) -> None:
    assert "must be a YAML mapping" in refused(run, "battle", write_yaml(text))


def test_war_file_given_to_battle(run: Any) -> None:
    from tests.warscore.conftest import WAR_FILE

    assert "is a war file" in refused(run, "battle", WAR_FILE)

