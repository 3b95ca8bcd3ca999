"""The play page: the activation order a seat reads before the turn is the order the
Cascade walks, a player sets an order's priority (the siege: guns first, then the assault),
the board marks retreat tiles only for a defender that may retreat (CB-1340, CB-2420), and
the attack panel charts both sides' strength after the clash."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.clash import turn
from fairfight.clash.board_attack import plan_bombardment
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.knowledge import knowledge_view
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.sightings import UNSEEN_ID, event_units, masked_event
from fairfight.clash.words import describe, name_book
from fairfight.clash.world import world_from_scenario
from tests.web.test_clash_seats import CROSSING, commit, open_seats, order, seat_state

ASSAULT = [{"do": "move", "path": [[2, 2]]},
           {"do": "assault", "target": [3, 1], "supporters": []}]


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
    blue.post(f"/clash/play/{game}/orders", data={"turn": "1", "unit": "b-guns",
                                                  "kind": "bombard", "target": "3,1",
                                                  "stance": "hold"})
    assert seat_state(blue, game)["pending"]["b-guns"]["priority"] == 1   # it keeps its place
    refused = blue.post(f"/clash/play/{game}/priority",
                        data={"turn": "1", "unit": "b-rifles", "priority": "1"})
    assert refused.status_code == 422 and "no orders this turn" in refused.text
    assert blue.post(f"/clash/play/{game}/priority", data={
        "turn": "1", "unit": "b-guns", "priority": "10"}).status_code == 422


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


def test_the_panel_draws_both_distributions_and_the_falling_below_chances(
        app: FastAPI, creator: TestClient) -> None:
    game, _, red = open_seats(app, creator, scenario_data=GARRISON)
    page = red.get(f"/clash/play/{game}", params={"select": "r-tank", "mode": "assault",
                                                  "target": "1,0"}).text
    charts = re.findall(r'<figure class="cp-chart" data-side="(\w+)">(.*?)</figure>', page,
                        re.S)
    assert [side for side, _ in charts] == ["they", "you"]
    for side, chart in charts:
        draws = [int(n) for n in re.findall(r"<title>strength \d+: (\d+) of 1000 draws", chart)]
        assert len(draws) == chart.count('class="cp-bar') and sum(draws) == 1000
        assert re.search(r'role="img" aria-label="[^"]+: strength \d+ before, after the clash',
                         chart)
        who = "they" if side == "they" else "you"
        assert f"Chance {who} are destroyed: <strong>" in chart
    assert re.search(r"Chance they fall below 50: <strong>[a-z ]+</strong> "
                     r'<span class="num">\(\d+‰\)', page)


def test_bombard_mode_shows_the_exact_panel_behind_plain_links(
        app: FastAPI, creator: TestClient) -> None:
    """Every bar of the bombardment's strength-after chart is the count of draws that leave
    that strength, counted here by resolving all 1000 draws of the spec the side can build."""
    game, blue, _ = open_seats(app, creator)
    chosen = blue.get(f"/clash/play/{game}?select=b-guns&mode=bombard")
    assert re.findall(r'href="([^"]+)" class="cb-target-link" data-pjax aria-label="([^"]+)"',
                      chosen.text) == [
        (f"/clash/play/{game}?select=b-guns&amp;mode=bombard&amp;target=3%2C1", "bombard (3,1)")]
    page = blue.get(f"/clash/play/{game}?select=b-guns&mode=bombard&target=3%2C1")
    assert page.status_code == 200 and 'data-kind="bombardment"' in page.text
    assert page.text.index('id="order-bombard"') < page.text.index('id="panel-details"')
    bars = {int(s): int(n) for s, n in re.findall(
        r"<title>strength (\d+): (\d+) of 1000 draws</title>",
        page.text.split('data-side="they"')[1].split("</figure>")[0])}
    view = knowledge_view(world_from_scenario(parse_scenario(CROSSING)), "blue")
    plan = plan_bombardment(view, "blue", "b-guns", (3, 1))
    counted = Counter(resolve_exchange(plan.spec, r, defender_in_city=plan.defender_in_city)
                      .defender.strength for r in range(1000))
    assert bars == dict(counted) and sum(bars.values()) == 1000
    moved = blue.get(f"/clash/play/{game}?select=b-tank&mode=move")
    assert set(re.findall(r'aria-label="(move to \(\d,\d\))"', moved.text)) >= {"move to (2,2)"}
    assert "aria-label=\"attack (" not in moved.text


def test_the_log_in_words_reads_the_names_of_every_turn_so_far(
        app: FastAPI, creator: TestClient) -> None:
    """The service gathers a side's names turn by turn and keeps them; its words equal those
    of a name book read over every world of the game at once, for each side and turn, and
    the seat's turn JSON carries the same sentences beside the structured events."""
    game, blue, red = open_seats(app, creator)
    moves = [[[5, 1], [4, 1]], [[3, 2]], [[3, 1]]]   # the reserve comes into sight
    for turn_number, path in enumerate(moves, start=1):
        order(red, game, "r-reserve", {"actions": [{"do": "move", "path": path}]},
              turn=turn_number)
        commit(blue, game, turn=turn_number)
        commit(red, game, turn=turn_number)
    service = app.state.clash
    for side, client in (("blue", blue), ("red", red)):
        seat = service.open(game, side)
        worlds = [service.world_after(seat.row, seat.turns, i) for i in range(len(moves) + 1)]
        for number in (3, 1, 2):   # any order: the kept names never run ahead of the turn
            played = service.played(seat, number)
            book = name_book(worlds[:number + 1], side, played.events)
            expected = [describe(event, book) for event in played.events]
            assert service.words(seat, played, side) == expected
            answer = client.get(f"/api/clash/play/{game}/turns/{number}").json()
            assert answer["words"] == expected and len(answer["events"]) == len(expected)
            assert answer["events"] == [masked_event(event, book.units)
                                        for event in played.events]
            for event in answer["events"]:   # an id in the JSON is one the side can name
                assert event_units(event) <= set(book.units) | {UNSEEN_ID}, event
    seen = blue.get(f"/api/clash/play/{game}/turns/3").json()["words"]
    assert "Red Reserve moved from (3,2) to (3,1)." in seen   # in contact since turn 2's end
