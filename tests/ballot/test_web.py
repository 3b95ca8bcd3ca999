"""Ballot pages through the HTTP interface: the lobby and its JSON twin, the create form, the
declare form (every declaration in one form, re-running a held seat, refusals kept beside their
field), the board's tags, the log newest first, your seats, the rules page, no inline script."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.ballot.geo import game_map
from fairfight.ballot.state import Holding, Phase
from fairfight.ballot.tables import VictoryMode
from fairfight.web.ballot.forms import decision_from_form, declaration_rows
from fairfight.web.ballot.seat_page import view_page
from tests.ballot.test_tables import client_of, create, make_app, seat_view, seated, simple_answer


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


def to_declare(app: Any) -> tuple[str, TestClient, dict[str, Any]]:
    """A one-person table played by simple moves until the person is asked to declare."""
    created = create(app, ["human", "machine", "pollster", "machine"], years=1)
    table = created["id"]
    person = seated(app, created)[0]
    for _ in range(100):
        view = seat_view(person, table, 0)
        if view["game"]["phase"] == "declare":
            return table, person, view
        move = {"version": view["version"], "decision": simple_answer(view["game"])}
        assert person.post(f"/api/ballot/tables/{table}/seats/0/move", json=move).status_code == 200
    raise AssertionError("never asked to declare")


def test_lobby_and_its_json_twin(app: Any) -> None:
    page = client_of(app).get("/ballot")
    assert page.status_code == 200 and "Create a table" in page.text
    data = client_of(app).get("/api/ballot").json()
    assert data["modes"] == [mode.value for mode in VictoryMode]
    assert data["kinds"] == ["human", "pollster", "machine"]


def test_a_bad_create_form_is_422_naming_the_field(app: Any) -> None:
    form = {"seat_0": "human", "seat_1": "wizard", "seat_2": "machine"}
    response = client_of(app).post("/ballot/tables", data=form)
    assert response.status_code == 422 and "seats[1]" in response.text
    response = client_of(app).post("/ballot/tables", data=form | {"seat_1": "human", "years": "99"})
    assert response.status_code == 422 and "years" in response.text


def test_creating_by_form_shows_the_links_and_lists_your_seat(app: Any) -> None:
    browser = client_of(app)
    form = {"victory": "points", "years": "1", "seat_0": "human", "seat_1": "human",
            "seat_2": "machine", "seat_3": "none", "seat_4": "none", "my_seat": "0", "listed": "1"}
    made = browser.post("/ballot/tables", data=form)
    assert made.status_code == 200 and "Invite links" in made.text
    assert str(made.url).endswith("/invites")  # the form's answer was a redirect
    links = re.findall(r'data-seat="(\d)">([^<]+)</code>', made.text)
    assert [seat for seat, _ in links] == ["0", "1"]
    table = links[0][1].split("/tables/")[1].split("/")[0]
    lobby = browser.get("/ballot").text
    assert f"/ballot/tables/{table}/seats/0" in lobby and "Your seats" in lobby
    assert f"/ballot/tables/{table}/seats/1" not in lobby
    assert "Your seats" not in client_of(app).get("/ballot").text  # another browser


def test_every_declaration_of_a_year_fits_one_form(app: Any) -> None:
    table, person, view = to_declare(app)
    html = person.get(f"/ballot/tables/{table}/seats/0").text
    rows = len(view["game"]["declarable"])
    # the page offers declarations to pick by race, and a list to open any other race; the
    # form still takes a row for every card it could declare (other clients post them)
    assert rows >= 5 and 'name="pick_' in html and 'name="another"' in html
    assert 'name="race_1"' not in html and "<input name=\"race_" not in html
    up = view["game"]["races_up"]
    form = {"version": str(view["version"])}
    for row, card in enumerate(view["game"]["declarable"]):
        form |= {f"race_{row}": up[row], f"card_{row}": str(card["id"]),
                 f"party_{row}": card["label"].split()[1]}
    review = person.post(f"/ballot/tables/{table}/seats/0/move", data=form)
    assert review.status_code == 200, review.text[-2000:]
    assert review.text.count("<li>") >= rows


def test_opening_a_race_lists_every_card_in_it_and_keeps_what_was_picked(app: Any) -> None:
    """The move form sent as a GET (a race's button, or the list of other races) opens one
    race with every declaration in it; the picks it carried stay picked; no race is made up."""
    table, person, view = to_declare(app)
    listed = [r["race"] for r in view["game"]["choices"]]
    other = next(race for race in view["game"]["races_up"] if race not in listed)
    first = view["game"]["choices"][0]
    keep = first["options"][-1]["value"]
    url = f"/ballot/tables/{table}/seats/0"
    html = person.get(url).text
    assert f'name="open" value="{first["race"]}"' in html and f"<option>{other}</option>" in html
    opened = person.get(url, params={"version": str(view["version"]),
                                     f"pick_{first['race']}": keep, "another": other})
    assert opened.status_code == 200
    hand = [c for c in view["game"]["declarable"]]
    for card in hand:
        for party in "DR":
            assert f'name="pick_{other}" value="{card["id"]}:{party}"' in opened.text
    assert f'name="pick_{first["race"]}" value="{keep}" checked' in opened.text
    mine = f"{hand[0]['id']}:R"
    third = next(race for race in view["game"]["races_up"] if race not in (*listed, other))
    again = person.get(url, params={"version": str(view["version"]), f"pick_{other}": mine,
                                    "another": third})  # a pick in a race no longer shown
    assert f'<input type="hidden" name="pick_{other}" value="{mine}">' in again.text
    assert f'name="pick_{third}" value="{mine}"' in again.text
    assert person.get(url, params={"open": "H-ZZ-9"}).status_code == 422
    twin = person.get(f"/api{url}", params={"open": other}).json()["game"]["choices"]
    assert twin[-1]["race"] == other and twin[-1]["opened"] and twin[-1]["more"] == 0
    assert len(twin[-1]["options"]) == 2 * len(hand)
    assert person.get(f"/api{url}", params={"open": "H-ZZ-9"}).status_code == 422
    assert seat_view(person, table, 0)["version"] == view["version"]


def test_a_refused_form_keeps_what_was_typed_and_shows_the_error_beside_it(app: Any) -> None:
    table, person, view = to_declare(app)
    card = view["game"]["declarable"][0]["id"]
    race = view["game"]["races_up"][0]
    form = {"version": str(view["version"]), "race_0": race, "card_0": str(card),
            "party_0": "D", "race_1": "H-ZZ-9", "card_1": str(card), "party_1": "R"}
    refused = person.post(f"/ballot/tables/{table}/seats/0/move", data=form)
    assert refused.status_code == 422  # a row no longer on the page: the error at the top
    assert "race_1: H-ZZ-9 is not a race of the map" in refused.text
    twice = person.post(f"/ballot/tables/{table}/seats/0/move",
                        data=form | {"race_1": view["game"]["races_up"][1]})
    assert twice.status_code == 422 and f"card #{card} is already declared in row 1" in twice.text
    picks = [r for r in view["game"]["choices"] if r["suggested"]][:2]
    value = picks[0]["options"][0]["value"]
    both = {"version": str(view["version"]), f"pick_{picks[0]['race']}": value,
            f"pick_{picks[1]['race']}": value}
    chosen = person.post(f"/ballot/tables/{table}/seats/0/move", data=both)
    assert chosen.status_code == 422 and f'id="error-pick_{picks[1]["race"]}"' in chosen.text
    assert f'name="pick_{picks[0]["race"]}" value="{value}" checked' in chosen.text
    mine = {c["id"] for c in view["game"]["declarable"]}
    other = next(n for n in range(100) if n not in mine)  # a candidate card someone else holds
    later = person.post(f"/ballot/tables/{table}/seats/0/move",
                        data={"version": str(view["version"]), "race_0": race,
                              "card_0": str(other), "party_0": "D"})
    assert later.status_code == 422
    assert f"race_0: {race}: card {other} is not a candidate card in your hand" in later.text
    assert seat_view(person, table, 0)["version"] == view["version"]


def test_a_form_version_that_is_not_digits_is_refused_naming_it(app: Any) -> None:
    table, person, view = to_declare(app)
    for text in ("1.0", "true", "٣", "9" * 40):
        refused = person.post(f"/ballot/tables/{table}/seats/0/move", data={"version": text})
        assert refused.status_code == 422 and "version: must be a whole number" in refused.text
    assert seat_view(person, table, 0)["version"] == view["version"]


def test_a_seat_you_hold_can_be_run_again(app: Any) -> None:
    _, person, view = to_declare(app)
    store = app.state.ballot_store
    row = store.load(view["id"])
    state = row.game().state
    assert state.phase is Phase.DECLARE
    race = game_map().races_in(state.year)[0]
    held = next(c for c in state.deck if c < 100)  # a candidate card no hand holds
    party = state.seats[race].party
    seats = list(state.seats)
    seats[race] = Holding(holder=0, party=party, card=held)
    holding = state.with_changes(seats=tuple(seats))
    page = view_page("t", holding, [], ["person", "bot", "bot", "bot"], 0, True)
    assert held in [card.id for card in page.declarable]
    assert any(f"card #{held}" in line for line in page.my_seats)
    rows = declaration_rows(holding, 0)
    form = {"race_0": game_map().seats[race].race_id, "card_0": str(held), "party_0": party.value}
    decision = decision_from_form(holding, 0, form)
    assert decision.entries[0].card == held and rows == len(page.declarable)  # type: ignore[union-attr]


def test_the_board_shows_tags_and_the_log_runs_newest_first(app: Any) -> None:
    created = create(app, ["human", "machine", "pollster"], years=1)
    table = created["id"]
    person = seated(app, created)[0]
    for _ in range(200):
        view = seat_view(person, table, 0)
        if view["status"] == "over":
            break
        move = {"version": view["version"], "decision": simple_answer(view["game"])}
        person.post(f"/api/ballot/tables/{table}/seats/0/move", json=move)
    html = person.get(f"/ballot/tables/{table}/seats/0").text
    first = game_map().states[0]
    assert ", ".join(first.tags) in html
    log = view["game"]["log"]
    assert log[0]["text"].startswith("Game over") and log[-1]["text"].startswith("==")
    assert any(line["others"] for line in log) and "<details>" in html


def test_the_rules_page_is_generated_and_no_page_has_an_inline_script(app: Any) -> None:
    rules = client_of(app).get("/ballot/rules")
    assert rules.status_code == 200 and "<table>" in rules.text
    created = create(app, ["human", "machine", "pollster"])
    person = seated(app, created)[0]
    for url in ("/ballot", f"/ballot/tables/{created['id']}",
                f"/ballot/tables/{created['id']}/seats/0", "/ballot/rules"):
        html = person.get(url).text
        assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html)), url
