"""The board sandbox over HTTP: games per session, the board panel, orders, the Cascade.

Belvoir Wood is the §23 situation as a board; its figures are typed from the worked example
(bands 26/34/41 and 14/19/25, odds 97 : 74, retreat to Ford Seven), not from our output.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app

CORNERED = {
    "name": "Cornered", "seed_key": "cornered",
    "board": {"rows": [". . .", ". . .", ". . ."]},
    "players": [{"id": "blue"}, {"id": "red"}],
    "units": [
        {"id": "rifles-r", "player": "red", "class": "rifle-company", "at": [0, 0]},
        {"id": "tank-b", "player": "blue", "class": "armoured-battalion", "at": [1, 0],
         "stance": "advance"},
        {"id": "rifles-b", "player": "blue", "class": "rifle-company", "at": [0, 1]},
        {"id": "gun-b", "player": "blue", "class": "field-battery", "at": [1, 1]},
    ],
}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(database_url="sqlite://")),
                    raise_server_exceptions=False) as test_client:
        yield test_client


def new_game(client: TestClient, scenario: str = "belvoir-wood", **extra: Any) -> Any:
    answer = client.post("/api/clash/games", json={"scenario": scenario, **extra})
    assert answer.status_code == 200, answer.text
    return answer.json()


def panel(client: TestClient, **params: str) -> Any:
    answer = client.get("/api/clash/game/panel", params={"lead": "armour-2", "target": "1,1",
                                                        **params})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_no_game_is_404(client: TestClient) -> None:
    answer = client.get("/api/clash/game")
    assert answer.status_code == 404
    assert "start one" in answer.json()["message"]
    assert client.get("/clash/game", follow_redirects=False).status_code == 303


def test_belvoir_wood_panel_shows_the_section_23_figures(client: TestClient) -> None:
    new_game(client)
    answer = panel(client)
    shown, plan = answer["panel"], answer["plan"]
    assert shown["they_lose"]["band"] == [26, 34, 41]
    assert shown["you_lose"]["band"] == [14, 19, 25]
    assert shown["odds"] == [97, 74] and shown["reliability"] == 250
    assert shown["verdict"]["permille"] == 1000
    assert plan["supporters"] == ["battery-1"] and plan["spec"]["flankers"] == 1
    assert plan["retreat_to"] == [2, 2]
    assert shown["retreat"]["label"] == "Ford Seven" and not shown["retreat"]["encircled"]
    assert any("fall back to Ford Seven" in line for line in shown["consequence"])
    assert any("You take Belvoir Wood" in line for line in shown["consequence"])


def test_fog_gives_ranges_and_pivots_over_the_unobserved_fields(client: TestClient) -> None:
    new_game(client)
    fogged = panel(client, fog="true")["panel"]["fog"]
    assert fogged["provisional"] == ["grade", "supply_tier"]
    assert fogged["break_range"] == [44, 1000]  # CB-2360, level L2
    assert fogged["pivots"][0]["field"] == "grade"


def test_without_the_battery(client: TestClient) -> None:
    new_game(client)
    automatic = panel(client)["panel"]
    alone = panel(client, supporters="none")["panel"]
    assert alone["odds"][0] == automatic["alternatives"][0]["a"] == 66
    assert alone["you_lose"]["band"][0] == automatic["alternatives"][0]["la_band"][0]


def test_overlay_matches_the_panel_of_the_best_attack(client: TestClient) -> None:
    state = new_game(client)
    (tile,) = state["overlay"]
    assert tile["tile"] == [1, 1] and tile["lead"] == "armour-2"
    fogged = panel(client, fog="true")["panel"]
    assert tile["break_permille"] == fogged["verdict"]["permille"]


def test_order_and_cascade_reconcile_inside_the_band(client: TestClient) -> None:
    new_game(client)
    orders = client.post("/api/clash/game/orders", json={
        "lead": "armour-2", "target": [1, 1], "supporters": "auto", "stance": "advance"})
    assert orders.status_code == 200 and "armour-2" in orders.json()
    turn = client.post("/api/clash/game/turn").json()
    clashes = [(i, e) for i, e in enumerate(turn["events"]) if e["event"] == "clash"]
    assert clashes
    index, event = clashes[0]
    line = turn["reconciliations"][str(index)]
    assert line["they_lose"]["actual"] == event["outcome"]["ld"]
    assert line["they_lose"]["predicted"] == [26, 34, 41]
    assert line["they_lose"]["inside"] and line["you_lose"]["inside"]
    assert client.get("/api/clash/game").json()["turns_played"] == 1
    again = client.get(f"/api/clash/game/turns/{turn['turn']}").json()
    assert again["events"] == turn["events"]


def test_page_draws_the_retreat_tile_and_the_panel(client: TestClient) -> None:
    client.post("/clash/games", data={"scenario": "belvoir-wood", "side": "blue", "ai": "on"})
    page = client.get("/clash/game?select=armour-2&target=1,1").text
    assert re.search(r'id="retreat-tile" data-x="2" data-y="2"', page)
    assert "26 ── 34 ── 41" in page and 'id="order-form"' in page
    assert 'class="cb-overlay ov-high" data-permille="1000"' in page
    client.post("/clash/game/orders", data={"lead": "armour-2", "target": "1,1",
                                            "supporters": "battery-1", "stance": "advance",
                                            "advance": "on"})
    after = client.post("/clash/game/turn")
    assert after.status_code == 200 and 'id="reconciliation"' in after.text
    assert "predicted 26–41, actual" in after.text


def test_a_cornered_defender_is_marked_cut_off(client: TestClient) -> None:
    upload = client.post("/clash/games/upload", data={"side": "blue", "ai": "on"},
                         files={"file": ("cornered.yaml", yaml.safe_dump(CORNERED).encode())})
    assert upload.status_code == 200
    answer = client.get("/api/clash/game/panel", params={"lead": "tank-b", "target": "0,0"})
    shown = answer.json()["panel"]
    assert shown["retreat"]["encircled"] and shown["retreat"]["to"] is None
    assert any("cut off" in line for line in shown["consequence"])
    page = client.get("/clash/game?select=tank-b&target=0,0").text
    assert 'class="cb-cutoff"' in page and "Retreat tile: none — cut off" in page


def test_refusals_name_the_field(client: TestClient) -> None:
    new_game(client)
    far = client.get("/api/clash/game/panel", params={"lead": "armour-2", "target": "3,2"})
    assert far.status_code == 422 and far.json()["field"] == "target"
    theirs = client.get("/api/clash/game/panel", params={"lead": "rifles-3", "target": "0,1"})
    assert theirs.status_code == 422 and theirs.json()["field"] == "lead"
    bad = client.post("/api/clash/games", json={"scenario": "atlantis"})
    assert bad.status_code == 422 and bad.json()["field"] == "scenario"
    side = client.post("/api/clash/games", json={"side": "green"})
    assert side.status_code == 422 and side.json()["field"] == "side"
    broken = client.post("/clash/games/upload", data={"side": "blue"},
                         files={"file": ("x.yaml", b"name: [\n")})
    assert broken.status_code == 422 and "YAML syntax error" in broken.text


def test_each_session_has_its_own_game(client: TestClient) -> None:
    new_game(client)
    with TestClient(client.app) as other:
        assert other.get("/api/clash/game").status_code == 404
        new_game(other, "siege", side="blue")
        assert other.get("/api/clash/game").json()["name"] == "siege"
    assert client.get("/api/clash/game").json()["name"] == "belvoir-wood"


def test_pages_carry_no_inline_script_or_style(client: TestClient) -> None:
    client.post("/clash/games", data={"scenario": "belvoir-wood", "side": "blue"})
    for path in ("/clash", "/clash/game?select=armour-2&target=1,1", "/clash/exchange",
                 "/clash/rules"):
        page = client.get(path).text
        assert "<script>" not in page and "style=" not in page, path


def test_the_overlay_marks_provisional_only_under_fog(client: TestClient) -> None:
    new_game(client)
    fogged = client.get("/clash/game?fog=on").text
    clear = client.get("/clash/game?fog=off").text
    assert re.search(r"▲\d+‰\?", fogged)   # the defender's grade is not observed
    assert "‰?" not in clear and re.search(r"▲\d+‰<", clear)
