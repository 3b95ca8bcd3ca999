"""The board marks retreat tiles only for a defender that may retreat: none for a garrison
assaulted in its city or works (CB-1340, CB-2420), the candidates for one in the open."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app
from tests.web.test_clash_seats import open_seats

GARRISON: dict[str, Any] = {
    "name": "Millbrook", "seed_key": "millbrook",
    "board": {"rows": [". . . .", ". . . .", ". . . ."],
              "tiles": [{"at": [0, 1], "name": "Millbrook",
                         "city": {"owner": "blue", "works": 1}}]},
    "players": [{"id": "blue"}, {"id": "red"}],
    "units": [
        {"id": "b-garrison", "name": "Millbrook Rifles", "player": "blue",
         "class": "rifle-company", "at": [0, 1], "strength": 40, "stance": "hold"},
        {"id": "b-guns", "name": "Blue Guns", "player": "blue", "class": "field-battery",
         "at": [1, 0], "stance": "hold"},
        {"id": "r-tank", "name": "Red Armour", "player": "red",
         "class": "armoured-battalion", "at": [1, 1], "stance": "advance"},
    ],
}


@pytest.fixture
def app() -> FastAPI:
    return create_app(WebSettings(database_url="sqlite://"))


@pytest.fixture
def creator(app: FastAPI) -> Any:
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _assault_page(red: TestClient, game: str, target: str) -> str:
    answer = red.get(f"/clash/play/{game}",
                     params={"select": "r-tank", "mode": "assault", "target": target})
    assert answer.status_code == 200, answer.text
    assert 'id="order-attack"' in answer.text
    return answer.text


def test_a_garrison_that_may_not_retreat_has_no_retreat_tiles_on_the_board(
        app: FastAPI, creator: TestClient) -> None:
    game, _, red = open_seats(app, creator, scenario_data=GARRISON)
    page = _assault_page(red, game, "0,1")
    assert 'class="cb-candidate"' not in page and 'id="retreat-tile"' not in page
    assert 'id="retreat-line"' not in page


def test_a_defender_in_the_open_shows_its_way_back(app: FastAPI, creator: TestClient) -> None:
    game, _, red = open_seats(app, creator, scenario_data=GARRISON)
    page = _assault_page(red, game, "1,0")
    assert 'class="cb-candidate"' in page or 'id="retreat-tile"' in page
