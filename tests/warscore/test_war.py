"""The National War Score phase, capitulation, and wars across years."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairfight.warscore import NwsInput, WarInput, fronts_score, score_nws, score_war
from fairfight.warscore.war import UnscoredBattle
from tests.warscore.conftest import NWS_PLAIN, WAR_FILE, war_data


@pytest.mark.parametrize(
    ("fronts", "points"), [(1, 10), (2, 0), (3, -5), (4, -10), (5, -15), (10, -40)]
)
def test_fronts_rule(fronts: int, points: int) -> None:
    assert fronts_score(fronts) == points


def test_nws_adds_all_eight_categories() -> None:
    nws = NwsInput.model_validate(
        {
            "population": "over-25-million",  # 15
            "industry": "massively-industrialized",  # 75
            "technology": "highest",  # 25
            "government": "unsupported-dictatorship",  # -15
            "eagerness": "civil-war",  # -50
            "weariness": "starving",  # -25
            "readiness": "unable-to-reach-front",  # -20
            "fronts": 6,  # -5 - 5 x 3 = -20
        }
    )
    score = score_nws("Harad", 1, nws)
    assert score.total() == 15 + 75 + 25 - 15 - 50 - 25 - 20 - 20 == -15
    assert score.sues_for_peace() and score.capitulates()
    assert score_nws("Plain", 1, NwsInput.model_validate(NWS_PLAIN)).total() == 55


def test_zero_capitulates_without_the_negative_flag() -> None:
    # readiness 10 -> -20 and eagerness 10 -> -15: 55 - 30 - 25 = 0
    zero = {**NWS_PLAIN, "readiness": "unable-to-reach-front", "eagerness": "revolts"}
    score = score_nws("Zero", 1, NwsInput.model_validate(zero))
    assert score.total() == 0
    assert score.capitulates()
    assert not score.sues_for_peace()


def battle(attacker: str, defender: str, name: str) -> dict[str, Any]:
    army = {"troops": 10000, "support": {"race": "human"},
            "technology": {"armor": "light", "weapons": "normal"}}
    return {"battle": name, "attacker": {**copy.deepcopy(army), "nation": attacker},
            "defender": {**copy.deepcopy(army), "nation": defender}}


def test_capitulation_ends_the_war() -> None:
    broken = {**NWS_PLAIN, "eagerness": "civil-war"}  # 55 - 10 - 50 = -5
    war = WarInput.model_validate(war_data([
        {"year": 1, "nws": {"Gondor": NWS_PLAIN, "Mordor": NWS_PLAIN},
         "battles": [battle("Mordor", "Gondor", "First")]},
        {"year": 2, "nws": {"Gondor": NWS_PLAIN, "Mordor": broken},
         "battles": [battle("Gondor", "Mordor", "Second")]},
        {"year": 3, "nws": {}, "battles": [battle("Gondor", "Mordor", "Third")]},
    ]))
    report = score_war(war)
    first, second, third = report.years
    assert not isinstance(first.battles[0], UnscoredBattle)
    assert first.battles[0].tier == "stalemate"  # identical armies, equal NWS
    assert [score.total() for score in second.nws] == [55, -5]
    assert second.capitulated == ("Mordor",)
    assert isinstance(second.battles[0], UnscoredBattle)
    assert isinstance(third.battles[0], UnscoredBattle)
    assert third.nws == ()
    assert report.capitulations == (("Mordor", 2),)
    assert report.ended_in() == 2


def test_missing_nws_for_a_fighting_nation_is_refused(
    run: Any, write_yaml: Callable[[Any], Path]
) -> None:
    data = war_data([{"year": 1, "nws": {"Gondor": NWS_PLAIN}}])
    result = run("war", write_yaml(data))
    assert result.exit_code == 2
    assert "years[0].nws: Mordor is still at war" in result.output


def test_nws_term_derived_in_a_war() -> None:
    strong = {**NWS_PLAIN, "population": "over-25-million", "industry": "fully-industrialized"}
    # Gondor 55 + 10 + 40 = 105 against Mordor 55: 105 < 110, not double; more than 10 above
    war = WarInput.model_validate(war_data([
        {"year": 1, "nws": {"Gondor": strong, "Mordor": NWS_PLAIN},
         "battles": [battle("Mordor", "Gondor", "Derived")]},
    ]))
    result = score_war(war).years[0].battles[0]
    assert not isinstance(result, UnscoredBattle)
    assert result.defender.morale.notes == ("Greater NWS",)
    assert result.attacker.morale.notes == ("Less NWS",)


def test_example_war_text(run: Any) -> None:
    result = run("war", WAR_FILE)
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "- Mordor (3020)\n- Total: -45\n" in text  # 10+15+15-15-15-25-20-10
    assert "- Status: must sue for peace or face a popular revolt" in text
    assert "- Battle of the Morannon (3020): not scored, Mordor capitulated in 3020" in text
    assert "- Siege of Barad-dur (3021): not scored, Mordor capitulated in 3020" in text
    assert "- Gondor (3018)\n- Total: 75\n" in text  # 5+5+15+10+10+10+10+10
    assert "- Mordor (3019)\n- Total: 25\n" in text  # 10+15+15-15+10-10+5-5
    assert "Naval battle" in text


def test_example_war_json_and_year(run: Any) -> None:
    full = json.loads(run("war", WAR_FILE, "--format", "json").stdout)
    assert full["ended_in"] == 3020
    assert full["capitulations"] == [{"nation": "Mordor", "year": 3020}]
    scored = [b["scored"] for year in full["years"] for b in year["battles"]]
    assert scored == [True, True, True, False, False]
    osgiliath = full["years"][0]["battles"][0]
    # Mordor: 60.00 x (1 + 0.20 + 0.15 - 0.30 + 0.25) x (1 + 0 + 0.20 + 0.10) x (1 + 0.20)
    assert osgiliath["attacker"]["total"] == "121.68"
    only = json.loads(run("war", WAR_FILE, "--year", "3019", "--json").stdout)
    assert [year["year"] for year in only["years"]] == [3019]
    assert only["ended_in"] is None
    pelennor = only["years"][0]["battles"][0]
    # Gondor support: 1 + 0.20 wizard + 0 human + 0.20 full cavalry x 0.25 (Mordor's pikes)
    assert pelennor["defender"]["support"] == "1.25"
    assert pelennor["winner"] == "defender"


def test_example_war_bbcode(run: Any) -> None:
    text = run("war", WAR_FILE, "--format", "bbcode").stdout
    assert text.count("[list]") == text.count("[/list]")
    assert "[b]Mordor (3020)[/b]" in text
