"""Two humans over HTTP: seats by secret link, blind commits, fog enforced on the server,
hot-seat hand-overs, the turn clock, and orders by hand.

On "Crossing" blue's gun line and tank are two tiles from red's front rifles (contact:
red's strength is not observed), red's reserve is five tiles away (unseen by blue), and
blue's rifles hold a city three tiles from red's front (unseen by red).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

__all__ = ["CROSSING", "open_seats", "seat_state"]

CROSSING: dict[str, Any] = {
    "name": "Crossing", "seed_key": "crossing",
    "board": {"rows": [". . . . . . .", ". . . . . . .", ". . . . . . ."],
              "tiles": [{"at": [0, 1], "name": "Millbrook",
                         "city": {"owner": "blue", "works": 1}}]},
    "players": [{"id": "blue"}, {"id": "red"}],
    "units": [
        {"id": "b-rifles", "name": "Blue Rifles", "player": "blue", "class": "rifle-company",
         "at": [0, 1], "strength": 71},
        {"id": "b-guns", "name": "Blue Guns", "player": "blue", "class": "field-battery",
         "at": [1, 0], "stance": "hold"},
        {"id": "b-tank", "name": "Blue Armour", "player": "blue",
         "class": "armoured-battalion", "at": [1, 2], "stance": "advance"},
        {"id": "r-front", "name": "Red Front", "player": "red", "class": "rifle-company",
         "at": [3, 1], "strength": 63, "stance": "hold"},
        {"id": "r-reserve", "name": "Red Reserve", "player": "red", "class": "rifle-company",
         "at": [6, 1], "strength": 47},
    ],
}


def open_seats(app: FastAPI, creator: TestClient, **table: Any) -> tuple[str, TestClient,
                                                                         TestClient]:
    """A new online table on Crossing and one client per side, each through its seat link."""
    answer = creator.post("/api/clash/tables", json={"scenario_data": CROSSING, **table})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    seats = []
    for side in ("blue", "red"):
        client = TestClient(app, raise_server_exceptions=False)
        opened = client.get(body["seats"][side], follow_redirects=False)
        assert opened.status_code == 303, opened.text
        assert "httponly" in opened.headers["set-cookie"].lower()
        client.cookies.update(opened.cookies)
        seats.append(client)
    return body["game"], seats[0], seats[1]


def seat_state(client: TestClient, game: str) -> Any:
    """The seat's state as JSON."""
    answer = client.get(f"/api/clash/play/{game}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def order(client: TestClient, game: str, unit: str, orders: dict[str, Any],
          turn: int = 1) -> Any:
    return client.post(f"/api/clash/play/{game}/orders",
                       json={"turn": turn, "unit": unit, "orders": orders})


def commit(client: TestClient, game: str, turn: int = 1) -> Any:
    return client.post(f"/api/clash/play/{game}/commit", json={"turn": turn})


def test_a_seat_sees_only_its_view(app: FastAPI, creator: TestClient) -> None:
    game, blue, red = open_seats(app, creator)
    units = {u["id"]: u for u in seat_state(blue, game)["view"]["units"]}
    assert set(units) == {"b-rifles", "b-guns", "b-tank", "r-front"}   # the reserve unseen
    assert units["r-front"]["strength"] == 100 and "strength" in units["r-front"]["unobserved"]
    assert set(u["id"] for u in seat_state(red, game)["view"]["units"]) == {
        "b-guns", "b-tank", "r-front", "r-reserve"}   # the rifles in the city unseen
    assert creator.get(f"/api/clash/play/{game}").status_code == 404   # no seat, no game
    assert red.get(f"/clash/seat/{game}?token=not-a-token").status_code == 404


def _crawl(client: TestClient, game: str, own: list[str], turns: list[int]) -> list[str]:
    pages = [f"/api/clash/play/{game}", f"/clash/play/{game}"]
    for unit in own:
        pages += [f"/clash/play/{game}?select={unit}",
                  f"/clash/play/{game}?select={unit}&mode=move",
                  f"/clash/play/{game}?select={unit}&mode=bombard"]
    for number in turns:
        pages += [f"/api/clash/play/{game}/turns/{number}", f"/clash/play/{game}?turn={number}"]
        seen = client.get(f"/api/clash/play/{game}/turns/{number}").json()
        assert len(seen["words"]) == len(seen["events"])   # one sentence per event seen
        pages += [f"/clash/play/{game}?turn={number}&event={index}"
                  for index in range(len(seen["events"]))]
    texts = []
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200, (page, answer.text)
        texts.append(answer.text)
    return texts


def _strengths_of(data: Any, unit: str) -> list[int]:
    found: list[int] = []
    if isinstance(data, dict):
        if data.get("id") == unit and "strength" in data:
            found.append(data["strength"])
        for value in data.values():
            found += _strengths_of(value, unit)
    elif isinstance(data, list):
        for value in data:
            found += _strengths_of(value, unit)
    return found


def test_fog_crawl_finds_nothing_the_view_hides(app: FastAPI, creator: TestClient) -> None:
    game, blue, red = open_seats(app, creator)
    assert order(blue, game, "b-guns", {"actions": [{"do": "bombard", "target": [3, 1]}]}
                 ).status_code == 200
    assert order(red, game, "r-reserve", {"stance": "entrench"}).status_code == 200
    commit(blue, game)
    commit(red, game)
    for client, own, hidden, ranged in (
            (blue, ["b-rifles", "b-guns", "b-tank"], ["r-reserve", "Red Reserve"],
             ("r-front", 63)),
            (red, ["r-front", "r-reserve"], ["b-rifles", "Blue Rifles"], ("b-guns", None))):
        for text in _crawl(client, game, own, [1]):
            for name in hidden:
                assert name not in text
            if text.startswith("{"):
                unit, true_strength = ranged
                if true_strength is not None:
                    assert true_strength not in _strengths_of(json.loads(text), unit)
    seen_by_red = red.get(f"/api/clash/play/{game}/turns/1").json()["events"]
    red_orders = next(e for e in seen_by_red if e["event"] == "orders")["orders"]
    assert set(red_orders) == {"r-reserve"}   # blue's orders are not shown to red


def test_stale_and_duplicate_commits_are_refused(app: FastAPI, creator: TestClient) -> None:
    game, blue, red = open_seats(app, creator)
    stale = commit(blue, game, turn=2)
    assert stale.status_code == 409 and stale.json()["field"] == "turn"
    assert commit(blue, game).status_code == 200
    again = commit(blue, game)
    assert again.status_code == 409 and "already committed" in again.json()["message"]
    late = order(blue, game, "b-tank", {"stance": "hold"})
    assert late.status_code == 409
    assert seat_state(blue, game)["turn"] == 1
    assert commit(red, game).status_code == 200
    state = seat_state(blue, game)
    assert state["turn"] == 2 and state["turns_played"] == [1]
    assert commit(red, game, turn=1).status_code == 409   # the old turn is gone


def test_an_order_for_the_other_side_is_refused(app: FastAPI, creator: TestClient) -> None:
    """Red's unit and a unit that does not exist get the same answer: an order never tells
    blue whether a unit it cannot see is there."""
    game, blue, _ = open_seats(app, creator)
    answer = order(blue, game, "r-front", {"stance": "march"})
    missing = order(blue, game, "r-nowhere", {"stance": "march"})
    assert answer.status_code == missing.status_code == 422
    assert answer.json()["message"] == missing.json()["message"] == "blue has no unit of that id"
    assert answer.json()["field"] == "unit" and answer.json()["value"] is None
    assert answer.text == missing.text   # not even the id is quoted back


@pytest.mark.parametrize("unit", ["", "u" * 5000, "../blue-1", "١٢", "blue 1"])
def test_a_malformed_unit_id_is_a_422_in_one_line(
    app: FastAPI, creator: TestClient, unit: str,
) -> None:
    game, blue, _ = open_seats(app, creator)
    answer = order(blue, game, unit, {"stance": "march"})
    assert answer.status_code == 422, answer.text[:300]
    assert answer.json()["field"] == "unit" and "\n" not in answer.text
    assert len(answer.json()["value"]) <= 40  # quoted back, shortened


def test_a_lone_surrogate_in_an_order_is_a_422(app: FastAPI, creator: TestClient) -> None:
    game, blue, _ = open_seats(app, creator)
    body = b'{"turn": 1, "unit": "\\ud800", "orders": {"stance": "march"}}'
    answer = blue.post(f"/api/clash/play/{game}/orders", content=body,
                       headers={"content-type": "application/json"})
    assert answer.status_code == 422 and answer.json()["field"] == "body"
    assert answer.json()["message"].startswith("Invalid JSON")  # no lone surrogate is text


def test_hot_seat_hides_the_other_sides_orders(app: FastAPI, creator: TestClient) -> None:
    table = creator.post("/api/clash/tables", json={"scenario_data": CROSSING,
                                                    "mode": "hotseat"}).json()
    game = table["game"]
    screen = creator.get(f"/clash/play/{game}")
    assert "Hand over to blue" in screen.text and "cb-board" not in screen.text
    assert creator.get(f"/api/clash/play/{game}").json()["view"] is None
    assert creator.post(f"/api/clash/play/{game}/handover",
                        json={"side": "red"}).status_code == 422   # blue's turn to order
    creator.post(f"/api/clash/play/{game}/handover", json={"side": "blue"})
    assert order(creator, game, "b-tank",
                 {"actions": [{"do": "move", "path": [[2, 2]]}]}).status_code == 200
    assert commit(creator, game).status_code == 200
    between = creator.get(f"/clash/play/{game}")
    assert "Hand over to red" in between.text
    assert "b-tank" not in between.text and "Blue Armour" not in between.text
    creator.post(f"/api/clash/play/{game}/handover", json={"side": "red"})
    state = seat_state(creator, game)
    assert state["side"] == "red" and state["pending"] == {}
    page = creator.get(f"/clash/play/{game}").text
    assert "move 1 step" not in page and "(2,2)" not in page.split('id="orders"')[1]
    assert commit(creator, game).status_code == 200
    assert seat_state(creator, game)["turns_played"] == [1]


def test_the_turn_clock_runs_the_turn_with_what_was_committed(app: FastAPI,
                                                              creator: TestClient) -> None:
    now = [1_000_000.0]
    app.state.clash.store.clock = lambda: now[0]
    game, blue, red = open_seats(app, creator, clock_seconds=60)
    assert order(red, game, "r-front", {"stance": "entrench"}).status_code == 200
    assert order(blue, game, "b-tank", {"stance": "hold"}).status_code == 200
    commit(blue, game)
    now[0] += 59
    assert seat_state(red, game)["turn"] == 1
    now[0] += 2
    state = seat_state(red, game)
    assert state["turn"] == 2
    units = {u["id"]: u for u in state["view"]["units"]}
    assert units["r-front"]["stance"] == "hold"   # red never committed: standing orders
    assert {u["id"]: u for u in seat_state(blue, game)["view"]["units"]}["b-tank"][
        "stance"] == "hold"


def test_size_caps_are_refused_before_any_work(app: FastAPI, creator: TestClient) -> None:
    crowded = {**CROSSING, "units": [
        {"id": f"u{i}", "player": "blue", "class": "rifle-company", "at": [0, 0]}
        for i in range(201)]}
    answer = creator.post("/api/clash/tables", json={"scenario_data": crowded})
    assert answer.status_code == 422
    assert answer.json()["detail"] == "units: 201 units; a game on the web has at most 200"
    wide = {**CROSSING, "board": {"rows": [" ".join("." * 49)]}}
    answer = creator.post("/api/clash/tables", json={"scenario_data": wide})
    assert answer.status_code == 422 and answer.json()["field"] == "board.rows[0]"
    upload = creator.post("/clash/games/upload", files={"file": (
        "big.json", json.dumps(crowded), "application/json")})
    assert upload.status_code == 422 and "at most 200" in upload.text


def test_per_client_cap(app: FastAPI, creator: TestClient) -> None:
    app.state.clash.games_per_client = 2
    for _ in range(2):
        assert creator.post("/api/clash/tables", json={"scenario": "belvoir-wood"}
                            ).status_code == 200
    refused = creator.post("/api/clash/tables", json={"scenario": "belvoir-wood"})
    assert refused.status_code == 429 and refused.json()["message"].startswith("client:")


def test_orders_by_hand_on_the_pages(app: FastAPI, creator: TestClient) -> None:
    game, blue, _ = open_seats(app, creator)
    move = blue.get(f"/clash/play/{game}?select=b-tank&mode=move&path=2,2").text
    assert re.search(r"\(2,2\) — 1 of 3 MP <strong class=\"cb-warn\">⚠ reaction possible: "
                     r"Red Front", move)
    assert move.count("⚠ reaction</text>") == 1   # the step's tile on the board
    bombard = blue.get(f"/clash/play/{game}?select=b-guns&mode=bombard").text
    assert "Range 2 (highlighted), shots left 1; targets in range: 1." in bombard
    base = {"turn": "1", "unit": "b-guns"}
    for form in ({**base, "kind": "bombard", "target": "3,1"},
                 {**base, "unit": "b-rifles", "kind": "stance", "stance": "entrench",
                  "withdraw_shown": "1", "withdraw": "on"},
                 {**base, "unit": "b-tank", "kind": "move", "path": "2,2;2,1"}):
        assert blue.post(f"/clash/play/{game}/orders", data=form,
                         follow_redirects=False).status_code == 303
    pending = seat_state(blue, game)["pending"]
    assert pending["b-guns"]["actions"] == [{"do": "bombard", "target": [3, 1]}]
    assert pending["b-rifles"] == {"stance": "entrench", "withdraw_reflex": True,
                                   "actions": [], "reason": "stance ordered on the board"}
    assert pending["b-tank"]["actions"][0]["path"] == [[2, 2], [2, 1]]
    activation = [row["unit"] for row in seat_state(blue, game)["activation"]]
    assert activation == ["b-tank", "b-guns", "b-rifles"]   # advance, hold, entrench
    blue.post(f"/clash/play/{game}/orders", data={**base, "unit": "b-rifles",
                                                  "kind": "abandon", "to": "0,0"})
    assert seat_state(blue, game)["pending"]["b-rifles"]["actions"] == [
        {"do": "abandon", "to": [0, 0]}]
    blue.post(f"/clash/play/{game}/cancel", data={"turn": "1", "unit": "b-guns"})
    assert "b-guns" not in seat_state(blue, game)["pending"]


def _stream_event(client: TestClient, game: str, last: str | None = None) -> dict[str, str]:
    headers = {"last-event-id": last} if last else {}
    with client.stream("GET", f"/api/clash/play/{game}/stream?limit=1",
                       headers=headers) as answer:
        assert answer.headers["content-type"].startswith("text/event-stream")
        assert answer.headers["x-accel-buffering"] == "no"
        body = "".join(answer.iter_text())
    fields = dict(line.split(": ", 1) for line in body.strip().splitlines())
    return fields


def test_the_live_stream_says_only_that_the_game_moved_on(app: FastAPI,
                                                          creator: TestClient) -> None:
    app.state.clash.stream_poll_seconds = 0.01
    game, blue, red = open_seats(app, creator)
    first = _stream_event(blue, game)
    assert first["event"] == "progress"
    assert json.loads(first["data"])["committed"] == {"blue": False, "red": False}
    commit(red, game)
    after = _stream_event(blue, game, last=first["id"])
    data = json.loads(after["data"])
    assert after["id"] != first["id"] and data["committed"] == {"blue": False, "red": True}
    assert set(data) == {"turn", "committed", "turns_played", "side", "finished", "result"}
    assert data["result"] is None
    assert creator.get(f"/api/clash/play/{game}/stream?limit=1").status_code == 404


def test_a_seat_token_opens_nothing_in_the_sandbox(app: FastAPI, creator: TestClient) -> None:
    game, blue, _ = open_seats(app, creator)
    token = blue.cookies[f"fairfight_clash_seat_{game}"]
    peeking = TestClient(app, cookies={"fairfight_clash": token})
    assert peeking.get("/clash/game/scenario.json").status_code == 404   # the truth
    assert peeking.get("/api/clash/game").status_code == 404


def test_a_game_against_the_ai_takes_every_order_on_the_play_page(creator: TestClient) -> None:
    started = creator.post("/api/clash/games", json={"scenario": "skirmish"})
    assert started.status_code == 200
    page = creator.get("/clash/game").text
    game = re.search(r'href="/clash/play/([^"]+)" id="all-orders"', page)
    assert game
    play = creator.get(f"/clash/play/{game[1]}").text
    assert "the AI plays red" in play
    unit = next(u["id"] for u in creator.get("/api/clash/game").json()["view"]["units"]
                if u["player"] == "blue")
    assert creator.post(f"/clash/play/{game[1]}/orders", data={
        "turn": "1", "unit": unit, "kind": "stance", "stance": "entrench"},
        follow_redirects=False).status_code == 303
    assert creator.post(f"/clash/play/{game[1]}/commit", data={"turn": "1"},
                        follow_redirects=False).status_code == 303
    assert creator.get("/api/clash/game").json()["turns_played"] == 1   # the AI played too


def test_an_assault_preview_is_marked_when_earlier_orders_may_change_it(
        app: FastAPI, creator: TestClient) -> None:
    game, blue, _ = open_seats(app, creator)
    # the armour (Advance) moves next to red's front and assaults it: its own move comes first
    assault = [{"do": "move", "path": [[2, 2]]},
               {"do": "assault", "target": [3, 1], "supporters": []}]
    order(blue, game, "b-tank", {"actions": assault})
    rows = {row["unit"]: row for row in seat_state(blue, game)["activation"]}
    assert [row["unit"] for row in seat_state(blue, game)["activation"]][:1] == ["b-tank"]
    assert rows["b-tank"]["may_change"] == [
        "its own earlier order (move (2,2)) comes first"]
    # the guns (Hold) fire on the same tile; with priority 1 they take the armour's place
    order(blue, game, "b-guns", {"priority": 1,
                                 "actions": [{"do": "bombard", "target": [3, 1]}]})
    rows = {row["unit"]: row for row in seat_state(blue, game)["activation"]}
    assert [rows["b-guns"]["position"], rows["b-tank"]["position"]] == [1, 2]
    assert "priority 1 puts it in the place of Blue Armour" in rows["b-guns"]["why"]
    assert rows["b-tank"]["may_change"] == [
        "Blue Guns attacks the same tile first (bombard (3,1))",
        "its own earlier order (move (2,2)) comes first"]
    assert rows["b-guns"]["may_change"] == []   # a bombardment is not an assault preview
