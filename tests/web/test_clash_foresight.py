"""The threat view and plan odds over HTTP: seat-only, built from the side's view (the unseen
reserve and the unseen city garrison never appear), on the play page without JavaScript.

On Crossing (see `test_clash_seats`) the red front rifles at (3,1), two tiles from blue's
guns (1,0) and tank (1,2), move two: one step to (2,0), (2,1) or (2,2) and the assault.
That reaches the guns and the tank but not blue's rifles at (0,1), whose free neighbours
(1,1) is two steps away. Red's reserve at (6,1) is unseen by blue.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.test_clash_seats import open_seats, order

ASSAULT_AFTER_MOVE = {"stance": "advance", "actions": [
    {"do": "move", "path": [[2, 2]]}, {"do": "assault", "target": [3, 1]}]}


def test_threats_and_plan_odds_as_json_from_the_view(app: FastAPI, creator: TestClient) -> None:
    game, blue, red = open_seats(app, creator)
    answer = blue.get(f"/api/clash/play/{game}/threats")
    assert answer.status_code == 200, answer.text
    rows = {row["unit"]: row for row in answer.json()["threats"]}
    assert set(rows) == {"b-rifles", "b-guns", "b-tank"}
    assert rows["b-rifles"]["enemy"] is None
    assert rows["b-guns"]["enemy"] == rows["b-tank"]["enemy"] == "r-front"
    assert rows["b-tank"]["provisional"]   # red's strength is the view's estimate
    assert "r-reserve" not in answer.text
    assert "b-rifles" not in red.get(f"/api/clash/play/{game}/threats").text
    assert order(blue, game, "b-tank", ASSAULT_AFTER_MOVE).status_code == 200
    odds = blue.get(f"/api/clash/play/{game}/plan-odds")
    assert odds.status_code == 200, odds.text
    body = odds.json()["odds"]
    assert body["refused"] is None and body["groups"] == 1
    [objective] = body["objectives"]
    assert objective["tile"] == [3, 1] and objective["units"] == ["b-tank"]
    assert [s["unit"] for s in body["survival"]] == ["b-tank"]
    assert "r-reserve" not in odds.text
    empty = red.get(f"/api/clash/play/{game}/plan-odds").json()["odds"]
    assert empty["objectives"] == [] and "b-tank" not in str(empty)   # blue's orders unseen


def test_the_routes_need_a_seat(app: FastAPI, creator: TestClient) -> None:
    game, _, _ = open_seats(app, creator)
    for route in ("threats", "plan-odds"):
        assert creator.get(f"/api/clash/play/{game}/{route}").status_code == 404
        assert creator.get(f"/api/clash/play/nope/{route}").status_code == 404


def test_the_play_page_shows_both_without_script(app: FastAPI, creator: TestClient) -> None:
    game, blue, _ = open_seats(app, creator)
    plain = blue.get(f"/clash/play/{game}").text
    assert 'id="threats-toggle"' in plain and "threat-table" not in plain
    assert "Write orders first" in plain
    shown = blue.get(f"/clash/play/{game}?threats=on").text
    assert 'id="threat-table"' in shown and "Red Front" in shown
    assert shown.count('class="cb-threat th-') == 2   # the guns' and the tank's tiles
    assert "Red Reserve" not in shown
    order(blue, game, "b-tank", ASSAULT_AFTER_MOVE)
    counted = blue.get(f"/clash/play/{game}?odds=on").text
    assert 'id="odds-objectives"' in counted and 'id="odds-survival"' in counted
    assert "Blue Armour" in counted
