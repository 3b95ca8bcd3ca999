"""Games that end, over the API and the pages: the result on both seats, the stream and the
replay; resignation; one-line 409s after the end. And the existence rule: a unit id that is
not the side's own gets byte-identical answers on every clash route, whether the unit is
unseen, destroyed or was never there."""

from __future__ import annotations

import copy
import json
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

__all__ = ["LAST_STAND", "seat_clients"]

LAST_STAND: dict[str, Any] = {
    "name": "Last Stand", "seed_key": "last-stand",
    "board": {"rows": [". . . . . . .", ". . . . . . .", ". . . . . . ."],
              "tiles": [{"at": [0, 0], "name": "Millbrook",
                         "city": {"owner": "blue", "works": 1}}]},
    "players": [{"id": "blue"}, {"id": "red"}],
    "units": [
        {"id": "b-guns", "name": "Blue Guns", "player": "blue", "class": "field-battery",
         "at": [0, 0], "stance": "hold"},
        {"id": "b-tank", "name": "Blue Armour", "player": "blue",
         "class": "armoured-battalion", "at": [0, 1], "stance": "advance"},
        {"id": "r-last", "name": "Red Remnant", "player": "red", "class": "rifle-company",
         "at": [1, 2], "strength": 1, "disorder": 90},
    ],
}
"""Blue's armour next to red's only unit, a 1-strength remnant: one assault ends the game."""

WITH_RESERVE: dict[str, Any] = copy.deepcopy(LAST_STAND)
WITH_RESERVE["units"].append(
    {"id": "r-far", "name": "Red Reserve", "player": "red", "class": "rifle-company",
     "at": [6, 0], "stance": "hold"})
"""The same, with a red reserve five tiles away, unseen by blue: the game goes on."""

ASSAULT = {"actions": [{"do": "assault", "target": [1, 2]}]}


def seat_clients(app: FastAPI, creator: TestClient, scenario: dict[str, Any],
                 ) -> tuple[str, TestClient, TestClient]:
    """An online table and one client per side, seated through the seat links."""
    answer = creator.post("/api/clash/tables", json={"scenario_data": scenario})
    assert answer.status_code == 200, answer.text
    clients = []
    for side in ("blue", "red"):
        client = TestClient(app, raise_server_exceptions=False)
        opened = client.get(answer.json()["seats"][side], follow_redirects=False)
        client.cookies.update(opened.cookies)
        clients.append(client)
    return answer.json()["game"], clients[0], clients[1]


def _post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body)


def test_a_game_played_to_the_last_unit_ends_for_both_seats(app: FastAPI,
                                                           creator: TestClient) -> None:
    game, blue, red = seat_clients(app, creator, LAST_STAND)
    assert blue.get(f"/clash/replay/{game}").status_code == 403   # still being played
    assert ("How this game ends: the last side with units on the board wins; at most 100 "
            "turns are played; or a side resigns.") in blue.get(f"/clash/play/{game}").text
    assert _post(blue, f"/api/clash/play/{game}/orders",
                 {"turn": 1, "unit": "b-tank", "orders": ASSAULT}).status_code == 200
    assert _post(blue, f"/api/clash/play/{game}/commit", {"turn": 1}).status_code == 200
    assert _post(red, f"/api/clash/play/{game}/commit", {"turn": 1}).status_code == 200
    for client in (blue, red):
        result = client.get(f"/api/clash/play/{game}").json()["result"]
        assert (result["winner"], result["reason"], result["turn"]) == ("blue", "last_unit", 1)
        assert result["words"] == "blue wins: red has no unit left on the board"
        # blue lost nothing (100 + 100 left); red lost its one unit of strength 1
        assert result["sides"] == [
            {"side": "blue", "units_lost": 0, "units_left": 2, "strength_lost": 0,
             "strength_left": 200, "cities": 1},
            {"side": "red", "units_lost": 1, "units_left": 0, "strength_lost": 1,
             "strength_left": 0, "cities": 0}]
        page = client.get(f"/clash/play/{game}").text
        assert "Game over after turn 1: blue wins" in page and 'id="commit"' not in page
        assert f'href="/clash/replay/{game}"' in page and 'id="resign"' not in page
        assert 'id="victory"' not in page
    stream = blue.get(f"/api/clash/play/{game}/stream?limit=1").text
    data = json.loads(stream.split("data: ", 1)[1].split("\n", 1)[0])
    assert data["finished"] and data["result"]["winner"] == "blue"
    replay = blue.get(f"/clash/replay/{game}")
    assert replay.status_code == 200 and "blue wins" in replay.text
    late = [_post(blue, f"/api/clash/play/{game}/orders",
                  {"turn": 2, "unit": "b-tank", "orders": {"stance": "hold"}}),
            _post(red, f"/api/clash/play/{game}/commit", {"turn": 2}),
            _post(red, f"/api/clash/play/{game}/resign", {"turn": 2})]
    for answer in late:
        assert answer.status_code == 409 and answer.json()["field"] == "game"
        assert "\n" not in answer.json()["message"]


def test_a_resignation_ends_the_game_after_a_confirmation(app: FastAPI,
                                                         creator: TestClient) -> None:
    game, blue, red = seat_clients(app, creator, WITH_RESERVE)
    page = red.get(f"/clash/play/{game}").text
    assert 'id="resign-confirm"' in page and "required" in page
    unconfirmed = red.post(f"/clash/play/{game}/resign", data={"turn": "1"})
    assert unconfirmed.status_code == 422 and "confirm" in unconfirmed.text
    assert red.get(f"/api/clash/play/{game}").json()["result"] is None
    done = red.post(f"/clash/play/{game}/resign", data={"turn": "1", "confirm": "on"},
                    follow_redirects=False)
    assert done.status_code == 303
    result = blue.get(f"/api/clash/play/{game}").json()["result"]
    assert (result["winner"], result["reason"], result["turn"]) == ("blue", "resignation", 0)
    assert result["words"] == "blue wins: red resigned"
    again = _post(blue, f"/api/clash/play/{game}/commit", {"turn": 1})
    assert again.status_code == 409 and again.json()["message"].startswith("the game is over")
    assert blue.get(f"/clash/replay/{game}").status_code == 200


def _blue_after_red_lost_a_unit(app: FastAPI, creator: TestClient,
                                ) -> tuple[str, TestClient]:
    """Turn 1 played on WITH_RESERVE: the remnant destroyed, the reserve alive and unseen."""
    game, blue, red = seat_clients(app, creator, WITH_RESERVE)
    _post(blue, f"/api/clash/play/{game}/orders", {"turn": 1, "unit": "b-tank",
                                                   "orders": ASSAULT})
    _post(blue, f"/api/clash/play/{game}/commit", {"turn": 1})
    _post(red, f"/api/clash/play/{game}/commit", {"turn": 1})
    state = blue.get(f"/api/clash/play/{game}").json()
    assert state["turn"] == 2 and state["result"] is None
    assert {u["id"] for u in state["view"]["units"]} == {"b-guns", "b-tank"}
    return game, blue


def _answers(blue: TestClient, game: str, unit: str) -> list[tuple[int, bytes]]:
    """Every clash route that takes a unit id, asked about `unit`."""
    turn = {"turn": "2"}
    answers = [
        _post(blue, f"/api/clash/play/{game}/orders",
              {"turn": 2, "unit": unit, "orders": {"stance": "hold"}}),
        _post(blue, f"/api/clash/play/{game}/orders", {"turn": 2, "unit": "b-tank", "orders": {
            "actions": [{"do": "assault", "target": [2, 2], "supporters": [unit]}]}}),
        _post(blue, f"/api/clash/play/{game}/cancel", {"turn": 2, "unit": unit}),
        blue.post(f"/clash/play/{game}/orders", data={**turn, "unit": unit, "kind": "stance",
                                                      "stance": "hold"}),
        blue.post(f"/clash/play/{game}/orders", data={
            **turn, "unit": "b-tank", "kind": "assault", "target": "2,2", "supporters": unit}),
        blue.post(f"/clash/play/{game}/priority", data={**turn, "unit": unit,
                                                        "priority": "1"}),
        blue.post(f"/clash/play/{game}/cancel", data={**turn, "unit": unit}),
        blue.get(f"/clash/play/{game}", params={"select": unit}),
        blue.get(f"/clash/play/{game}", params={"select": unit, "mode": "move",
                                                "path": "6,1"}),
        blue.get(f"/clash/play/{game}", params={"select": unit, "target": "6,0"}),
        blue.get("/api/clash/game/panel", params={"lead": unit, "target": "6,0"}),
    ]
    return [(answer.status_code, answer.content) for answer in answers]


def test_an_unseen_a_destroyed_and_a_never_existing_id_get_the_same_answers(
    app: FastAPI, creator: TestClient,
) -> None:
    game, blue = _blue_after_red_lost_a_unit(app, creator)
    unseen = _answers(blue, game, "r-far")
    destroyed = _answers(blue, game, "r-last")
    never = _answers(blue, game, "r-nobody")
    assert unseen == destroyed == never
    statuses = [status for status, _ in unseen]
    assert statuses[0] == statuses[1] == 422 and statuses[5] == 422   # refused, not 500
    assert b"has no unit of that id" in unseen[0][1]


def test_a_tile_holding_an_unseen_unit_answers_as_an_empty_one(
    app: FastAPI, creator: TestClient,
) -> None:
    """(6,0) holds the unseen reserve in one game and nothing in its twin (the reserve at
    (6,2)): every answer about the tile is the same but for the game's own id."""
    moved = copy.deepcopy(WITH_RESERVE)
    moved["units"][-1]["at"] = [6, 2]
    answers = []
    for scenario in (WITH_RESERVE, moved):
        game, blue, _ = seat_clients(app, creator, scenario)
        asked = [
            _post(blue, f"/api/clash/play/{game}/orders", {"turn": 1, "unit": "b-guns",
                  "orders": {"actions": [{"do": "bombard", "target": [6, 0]}]}}),
            _post(blue, f"/api/clash/play/{game}/orders", {"turn": 1, "unit": "b-tank",
                  "orders": {"actions": [{"do": "move", "path": [[1, 0], [2, 0]]},
                                         {"do": "assault", "target": [6, 0]}]}}),
            blue.get(f"/clash/play/{game}", params={"select": "b-tank", "target": "6,0"}),
            blue.get(f"/clash/play/{game}", params={"select": "b-guns", "mode": "bombard",
                                                    "target": "6,0"}),
            blue.get(f"/clash/play/{game}", params={"select": "b-tank", "mode": "move",
                                                    "path": "1,0;2,0;3,0;4,0;5,0;6,0"}),
        ]
        answers.append([(a.status_code, a.text.replace(game, "GAME")) for a in asked])
    assert answers[0] == answers[1]
