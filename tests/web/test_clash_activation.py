"""The activation order a seat reads before the turn is the order the Cascade walks, and a
player sets an order's priority on the play page (the siege: guns first, then the assault)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.clash import turn
from fairfight.web import WebSettings, create_app
from tests.web.test_clash_seats import commit, open_seats, order, seat_state

ASSAULT = [{"do": "move", "path": [[2, 2]]},
           {"do": "assault", "target": [3, 1], "supporters": []}]


@pytest.fixture
def app() -> FastAPI:
    return create_app(WebSettings(database_url="sqlite://"))


@pytest.fixture
def creator(app: FastAPI) -> Any:
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _walked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The units `run_turn` activates, in the order it activates them."""
    walked: list[str] = []
    activate = turn._Cascade.activate

    def recording(self: Any, unit: Any, orders: Any) -> None:
        walked.append(unit.id)
        activate(self, unit, orders)

    monkeypatch.setattr(turn._Cascade, "activate", recording)
    return walked


@pytest.mark.parametrize("gun_priority", [None, 1])
def test_the_order_shown_before_the_turn_is_the_order_the_turn_walks(
        app: FastAPI, creator: TestClient, monkeypatch: pytest.MonkeyPatch,
        gun_priority: int | None) -> None:
    game, blue, red = open_seats(app, creator)
    order(blue, game, "b-tank", {"stance": "advance", "actions": ASSAULT})
    guns = {"actions": [{"do": "bombard", "target": [3, 1]}]}
    order(blue, game, "b-guns", {**guns, **({"priority": gun_priority} if gun_priority else {})})
    order(blue, game, "b-rifles", {"stance": "entrench"})
    order(red, game, "r-front", {"stance": "entrench"})
    order(red, game, "r-reserve", {"stance": "march",
                                   "actions": [{"do": "move", "path": [[5, 1]]}]})
    shown = {side: [row["unit"] for row in seat_state(client, game)["activation"]]
             for side, client in (("blue", blue), ("red", red))}
    walked = _walked(monkeypatch)
    commit(blue, game)
    assert commit(red, game).status_code == 200
    assert seat_state(blue, game)["turns_played"] == [1]
    for side, units in shown.items():
        assert [uid for uid in walked if uid.startswith(side[0] + "-")] == units
    expected = ["b-guns", "b-tank"] if gun_priority else ["b-tank", "b-guns"]
    assert shown["blue"] == [*expected, "b-rifles"]


def test_a_priority_set_on_the_play_page_moves_the_guns_before_the_assault(
        app: FastAPI, creator: TestClient) -> None:
    game, blue, _ = open_seats(app, creator)
    order(blue, game, "b-tank", {"actions": ASSAULT})
    order(blue, game, "b-guns", {"actions": [{"do": "bombard", "target": [3, 1]}]})
    page = blue.get(f"/clash/play/{game}").text
    assert 'id="priority-b-guns"' in page and "set the priority of Blue Guns" in page
    assert blue.post(f"/clash/play/{game}/priority",
                     data={"turn": "1", "unit": "b-guns", "priority": "1"},
                     follow_redirects=False).status_code == 303
    state = seat_state(blue, game)
    assert state["pending"]["b-guns"]["priority"] == 1
    assert state["pending"]["b-guns"]["actions"] == [{"do": "bombard", "target": [3, 1]}]
    assert [row["unit"] for row in state["activation"]][:2] == ["b-guns", "b-tank"]
    page = blue.get(f"/clash/play/{game}").text
    assert '<option value="1" selected>' in page
    refused = blue.post(f"/clash/play/{game}/priority",
                        data={"turn": "1", "unit": "b-rifles", "priority": "1"})
    assert refused.status_code == 422 and "no orders this turn" in refused.text
    assert blue.post(f"/clash/play/{game}/priority", data={
        "turn": "1", "unit": "b-guns", "priority": "10"}).status_code == 422
