"""The attack panel's JSON and HTML on single exchanges.

The §23 figures below are typed from the combat specification's worked example (and the
reconstructed tables' golden vector), not taken from our own output.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.clash import parse_spec, render_panel
from fairfight.clash import preview as engine_preview
from fairfight.web import WebSettings, create_app

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "src" / "fairfight" / "web" / "clash"
GOLDEN = json.loads((ROOT / "tests" / "clash" / "golden" / "worked_example_23.json").read_text())


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(database_url="sqlite://")),
                    raise_server_exceptions=False) as test_client:
        yield test_client


def section_23() -> dict[str, Any]:
    spec: dict[str, Any] = GOLDEN["spec"]
    return spec


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_built_in_copies_equal_the_examples() -> None:
    for name in ("worked-example", "reaction-ambush", "siege-bombardment"):
        assert (PACKAGE / "specs" / f"{name}.json").read_bytes() == (
            ROOT / "examples" / "clash" / f"{name}.json").read_bytes()
    assert (PACKAGE / "scenarios" / "belvoir-wood.yaml").read_bytes() == (
        ROOT / "examples" / "clash" / "scenarios" / "belvoir-wood.yaml").read_bytes()


def test_section_23_panel_json(client: TestClient) -> None:
    answer = client.post("/api/clash/preview", json={"spec": section_23()})
    assert answer.status_code == 200
    panel = answer.json()["panel"]
    assert panel["verdict"]["text"].startswith("They break — certain (1000‰)")
    assert panel["falter"]["permille"] == 0 and "never" in panel["falter"]["text"]
    assert panel["they_lose"]["band"] == [26, 34, 41]
    assert panel["they_lose"]["left"] == [37, 52]
    assert panel["you_lose"]["band"] == [14, 19, 25]
    assert panel["you_lose"]["left"] == [67, 78]
    assert panel["odds"] == [97, 74] and panel["reliability"] == 250
    assert panel["verdict"]["resolve"] == 29 and panel["verdict"]["shock"] == [40, 55]
    lead, battery = panel["your_force"]["units"]
    assert (lead["contribution"], battery["contribution"]) == (53, 18)
    assert {(i["value"], i["source"]) for i in lead["terms"]} == {
        (180, "veteran"), (50, "full supply"), (-300, "armor in forest")}
    assert {(i["value"], i["source"]) for i in panel["your_force"]["terms"]} == {
        (250, "advance"), (120, "combined arms (armor + gun)")}
    assert panel["their_force"]["units"][0]["contribution"] == 39
    assert [(i["value"], i["source"]) for i in panel["their_force"]["terms"]] == [
        (400, "forest cover"), (300, "entrench"), (200, "dug in ×2")]
    assert panel["break_checks"]["your_resolve"]["total"] == 38


def test_order_of_the_panel_follows_cb_2390(client: TestClient) -> None:
    page = client.get("/clash/exchange?example=worked-example").text
    marks = [page.index(mark) for mark in (
        'id="verdict"', 'id="falter"', 'id="bands"', 'id="odds"', "Your force",
        'id="consequence"', "Without each supporter")]
    assert marks == sorted(marks)


def test_section_23_page_shows_the_figures(client: TestClient) -> None:
    page = text_of(client.get("/clash/exchange?example=worked-example").text)
    for figure in ("They break — certain (1000‰)", "26 ── 34 ── 41", "78 drops to 37–52",
                   "14 ── 19 ── 25", "92 drops to 67–78", "97 : 74", "±250‰",
                   "Your attack falters: never (0‰)", "+180 veteran", "+200 dug in ×2"):
        assert figure in page, figure


def test_panel_agrees_with_the_text_panel() -> None:
    spec = parse_spec(section_23())
    text = render_panel(engine_preview(spec))
    from fairfight.clash.panel import attack_panel

    panel = attack_panel(engine_preview(spec))
    assert f"ODDS {panel.odds[0]} : {panel.odds[1]}" in text
    assert f"±{panel.reliability}‰" in text
    for alternative in panel.alternatives:
        assert f"they break {alternative.break_permille}‰" in text


def test_resolution_at_617_reconciles_inside_the_bands(client: TestClient) -> None:
    answer = client.post("/api/clash/resolve", json={"spec": section_23(), "r": 617}).json()
    outcome, line = answer["outcome"], answer["reconciliation"]
    assert (outcome["ld"], outcome["la"]) == (35, 18)
    assert outcome["after"]["defender"]["strength"] == 43
    assert line["they_lose"]["inside"] and line["you_lose"]["inside"]
    assert line["they_lose"]["text"].startswith("predicted 26–41, actual 35")
    page = text_of(client.get("/clash/exchange?example=worked-example&r=617").text)
    assert "predicted 26–41, actual 35" in page


@pytest.mark.parametrize("r", [0, 1, 499, 500, 998, 999])
def test_every_draw_lands_inside_the_bands(client: TestClient, r: int) -> None:
    for name in ("worked-example", "reaction-ambush", "siege-bombardment"):
        spec = client.get(f"/api/clash/examples/{name}").json()
        line = client.post("/api/clash/resolve", json={"spec": spec, "r": r}).json()
        assert line["reconciliation"]["they_lose"]["inside"], (name, r)
        assert line["reconciliation"]["you_lose"]["inside"], (name, r)


def test_fog_shows_the_cb_2360_pivots(client: TestClient) -> None:
    answer = client.post("/api/clash/preview", json={
        "spec": section_23(), "unobserved": ["grade", "supply_tier"]}).json()
    fog = answer["panel"]["fog"]
    assert fog["break_range"] == [44, 1000]
    grade = next(p for p in fog["pivots"] if p["field"] == "grade")
    assert grade["values"] == [["green", 1000], ["trained", 1000], ["veteran", 885],
                               ["elite", 125]]
    # certain, certain, likely, unlikely: the verdict's wording first changes at veteran
    assert grade["threshold"] == "veteran" and grade["changes_verdict"]
    supply = next(p for p in fog["pivots"] if p["field"] == "supply_tier")
    assert supply["threshold"] is None and not supply["changes_verdict"]
    page = text_of(client.get("/clash/exchange?fog=grade&fog=supply_tier").text)
    assert "PROVISIONAL" in page and "44–1000‰" in page
    assert "the verdict changes at veteran" in page
    assert "full 1000‰ — does not change the verdict" in page


def test_bombardment_says_no_falter_check(client: TestClient) -> None:
    spec = client.get("/api/clash/examples/siege-bombardment").json()
    panel = client.post("/api/clash/preview", json={"spec": spec}).json()["panel"]
    assert panel["falter"]["permille"] is None
    assert "no falter check" in panel["falter"]["text"]


def test_bad_requests_are_422_with_the_field(client: TestClient) -> None:
    spec = section_23()
    spec["lead"]["strength"] = 0
    refused = client.post("/api/clash/preview", json={"spec": spec})
    assert refused.status_code == 422 and refused.json()["field"] == "lead.strength"
    wrong = client.post("/api/clash/resolve", json={"spec": section_23(), "r": 1000})
    assert wrong.status_code == 422 and wrong.json()["field"] == "r"
    assert client.get("/clash/exchange?r=abc").status_code == 422
    assert client.get("/clash/exchange?fog=colour").status_code == 422
    assert client.get("/api/clash/examples/nothing").status_code == 422
    pasted = client.post("/clash/exchange", data={"spec": '{"kind": "assault"}'})
    assert pasted.status_code == 422 and "spec.terrain" in pasted.text


def test_rules_page_is_the_command_line_markdown(client: TestClient) -> None:
    markdown = client.get("/api/clash/rules").text
    page = client.get("/clash/rules").text
    for heading in re.findall(r"^## (.+)$", markdown, flags=re.M):
        assert f"<h2>{heading.replace('&', '&amp;')}</h2>" in page
