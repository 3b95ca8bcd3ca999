"""The war score builder over HTTP: form posts without JavaScript, the JSON twins, YAML files.

Expected figures are the source's demonstration (Mordor 112.50, Gondor 175.53, 156 %,
Operational Victory), typed from the source, not taken from our own output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import yaml
from fastapi.testclient import TestClient

from fairfight.warscore import load_battle
from fairfight.web import WebSettings, create_app

DEMONSTRATION = Path(__file__).parents[2] / "examples" / "warscore" / "demonstration.yaml"
WAR = Path(__file__).parents[2] / "examples" / "warscore" / "war_of_the_ring.yaml"


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def demonstration() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(DEMONSTRATION.read_text(encoding="utf-8"))
    return data


def as_form(data: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """A battle file flattened into the builder's dotted form fields."""
    items: list[tuple[str, str]] = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            items += as_form(value, f"{name}.")
        elif isinstance(value, list):
            items += [(name, str(item)) for item in value]
        elif isinstance(value, bool):
            if value:
                items.append((name, "on"))
        else:
            items.append((name, str(value)))
    return items


def post_form(client: TestClient, path: str, data: dict[str, Any]) -> Any:
    """Post a battle as the browser posts the form (repeated names for checkbox groups)."""
    return client.post(path, content=urlencode(as_form(data)),
                       headers={"content-type": "application/x-www-form-urlencoded"})


def error_slot(page: str, field: str) -> str:
    """The text of the error element beside a form field."""
    match = re.search(rf'data-error-for="{re.escape(field)}"[^>]*>([^<]*)<', page)
    assert match, f"no error slot for {field}"
    return match.group(1)


def test_form_post_without_javascript_reproduces_the_demonstration(client: TestClient) -> None:
    page = post_form(client, "/warscore", demonstration())
    assert page.status_code == 200
    assert re.search(r'data-side="attacker">112\.50<', page.text)
    assert re.search(r'data-side="defender">175\.53<', page.text)
    assert "156% Operational Victory for Gondor" in page.text
    assert "[b]Demonstration battle (3019)[/b]" in page.text  # the BBCode post
    assert "- Result: 156% Operational Victory for Gondor" in page.text


def test_demonstration_link_fills_the_form(client: TestClient) -> None:
    page = client.get("/warscore?example=demonstration").text
    assert 'name="defender.troops" value="43142"' in page
    assert 'value="wizard"\n      checked' in page or re.search(r'value="wizard"\s+checked', page)


def test_extra_human_plate_on_a_human_army_is_refused_beside_the_field(
        client: TestClient) -> None:
    data = demonstration()
    data["defender"]["technology"]["armor"] = "extra-human-plate"
    page = post_form(client, "/warscore", data)
    assert page.status_code == 422
    assert "extra-human plate needs race" in error_slot(page.text, "defender.technology.armor")
    live = post_form(client, "/api/warscore/check", data).json()
    assert live["valid"] is False
    assert live["errors"][0]["field"] == "defender.technology.armor"
    api = client.post("/api/warscore/battle", json=data)
    assert api.status_code == 422
    assert api.json()["field"] == "defender.technology.armor"


def test_extra_human_plate_is_accepted_for_an_army_with_trolls(client: TestClient) -> None:
    data = demonstration()
    data["attacker"]["technology"]["armor"] = "extra-human-plate"
    assert client.post("/api/warscore/battle", json=data).status_code == 200


def test_strategic_fort_needs_approval(client: TestClient) -> None:
    data = demonstration()
    data["defender"]["defensives"] = "strategic-fort"
    refused = post_form(client, "/api/warscore/check", data)
    assert refused.json()["errors"][0]["field"] == "defender.defensives"
    data["defender"]["approved_by"] = "Moderator"
    accepted = post_form(client, "/api/warscore/check", data)
    assert accepted.json()["valid"] is True
    assert accepted.json()["result"]["defender"]["defensives"] == "2.00"


def test_pikes_cut_the_enemy_cavalry_to_a_quarter(client: TestClient) -> None:
    data = demonstration()
    data["attacker"]["support"] = {"race": "human", "cavalry": "full"}  # 1.00 + 0.20
    plain = client.post("/api/warscore/battle", json=data).json()["result"]
    data["defender"]["pikes"] = True
    piked = client.post("/api/warscore/battle", json=data).json()["result"]
    assert plain["attacker"]["support"] == "1.20"
    assert piked["attacker"]["support"] == "1.05"  # 1.00 + 0.20 x 0.25


def test_every_problem_is_named_at_its_own_field(client: TestClient) -> None:
    answer = client.post("/api/warscore/check", data={
        "battle": "B", "year": "3019", "attacker.troops": "many"}).json()
    fields = {error["field"] for error in answer["errors"]}
    assert {"attacker.nation", "attacker.troops", "attacker.support.race",
            "attacker.technology.armor", "defender.support.race"} <= fields
    assert not {"attacker.support", "defender"} & fields


def test_yaml_download_is_a_battle_file_the_command_line_reads(
        client: TestClient, tmp_path: Path) -> None:
    download = post_form(client, "/warscore/battle.yaml", demonstration())
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    path = tmp_path / "battle.yaml"
    path.write_text(download.text, encoding="utf-8")
    assert load_battle(path).defender.troops == 43142
    again = client.post("/warscore/upload", files={"file": ("battle.yaml", download.content)})
    assert again.status_code == 200
    assert re.search(r'data-side="defender">175\.53<', again.text)
    assert 'name="attacker.troops" value="100000"' in again.text


def test_unfinished_download_notes_the_first_refusal(client: TestClient) -> None:
    download = client.post("/warscore/battle.yaml", data={"battle": "Draft"})
    assert download.text.startswith("# A battle file")
    assert "# Not accepted yet: attacker.nation: " in download.text
    assert "battle: Draft" in download.text


def test_upload_goes_through_the_command_line_readers(client: TestClient) -> None:
    repeated = b"battle: A\nbattle: B\nyear: 1\n"
    page = client.post("/warscore/upload", files={"file": ("twice.yaml", repeated)})
    assert page.status_code == 422
    assert "given twice (line 2)" in page.text
    assert "fairfight-upload" not in page.text  # the temporary path never shows
    broken = client.post("/warscore/upload", files={"file": ("bad.yaml", b"battle: [\n")})
    assert broken.status_code == 422
    assert "YAML syntax error" in broken.text


def test_oversized_or_binary_upload_is_refused(client: TestClient) -> None:
    big = client.post("/warscore/upload", files={"file": ("big.yaml", b"#" * 70_000)})
    assert big.status_code in (413, 422)
    binary = client.post("/warscore/upload", files={"file": ("x.yaml", b"\xff\xfe\x00")})
    assert binary.status_code == 422
    assert "not UTF-8" in binary.text


def test_war_file_upload_and_text(client: TestClient) -> None:
    text = WAR.read_text(encoding="utf-8")
    page = client.post("/warscore/upload", files={"file": ("war.yaml", text.encode())})
    assert page.status_code == 200
    assert "War of the Ring" in page.text and "capitulated" in page.text
    check = client.post("/api/warscore/war/check", json={"yaml": text}).json()
    assert check["valid"] and "[size=150][b]War of the Ring[/b][/size]" in check["bbcode"]
    no_front = text.replace("fronts: 1", "fronts: 0", 1)
    bad = client.post("/api/warscore/war/check", json={"yaml": no_front})
    assert bad.json()["errors"][0]["field"].endswith(".fronts")
    posted = client.post("/warscore/war", data={"yaml": text})
    assert posted.status_code == 200 and "Year 3018" in posted.text


def test_war_json_twin(client: TestClient) -> None:
    data = yaml.safe_load(WAR.read_text(encoding="utf-8"))
    answer = client.post("/api/warscore/war", json=data)
    assert answer.status_code == 200
    assert answer.json()["result"]["war"] == "War of the Ring"


def test_rules_page_is_the_command_line_markdown_in_html(client: TestClient) -> None:
    markdown = client.get("/api/warscore/rules").text
    page = client.get("/warscore/rules").text
    headings = re.findall(r"^## (.+)$", markdown, flags=re.M)
    assert headings
    for heading in headings:
        assert f"<h2>{heading.replace('&', '&amp;')}</h2>" in page
    assert "<table>" in page and "Strategic Fort" in page


def test_pages_carry_no_inline_script(client: TestClient) -> None:
    for path in ("/warscore", "/warscore/war", "/warscore/rules"):
        page = client.get(path).text
        assert "<script>" not in page and "style=" not in page
        assert " on" + "click=" not in page


def test_nws_form_scores_a_nation_year_like_the_war_file(client: TestClient) -> None:
    war = yaml.safe_load(WAR.read_text(encoding="utf-8"))
    first = war["years"][0]
    fields = {"nation": "Gondor", "year": str(first["year"]),
              **{key: str(value) for key, value in first["nws"]["Gondor"].items()}}
    answer = client.post("/api/warscore/nws/check", data=fields).json()
    from_war = client.post("/api/warscore/war", json=war).json()["result"]
    gondor = next(block for block in from_war["years"][0]["nws"] if block["nation"] == "Gondor")
    assert answer["valid"] and answer["result"]["total"] == gondor["total"]
    assert yaml.safe_load(answer["result"]["yaml"]) == {"Gondor": first["nws"]["Gondor"]}
    page = client.post("/warscore/war/nws", data=fields)
    assert page.status_code == 200 and f"NWS {gondor['total']}" in page.text


def test_nws_form_names_each_missing_category(client: TestClient) -> None:
    answer = client.post("/api/warscore/nws/check", data={"nation": "X", "fronts": "0"}).json()
    fields = {error["field"] for error in answer["errors"]}
    assert {"year", "population", "readiness", "fronts"} <= fields
    page = client.post("/warscore/war/nws", data={"nation": "X", "fronts": "0"})
    assert page.status_code == 422 and "a nation at war has a front" in page.text
