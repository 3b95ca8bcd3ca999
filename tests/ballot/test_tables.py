"""Ballot tables through the HTTP API: creating, the lobby, joining by link, starting with bots,
rejoining, leaving to a stand-in, stale moves, the two-tab race, the committed deal, the record
and its replay, the turn clock, webhooks and the stored rules check."""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from typer.testing import CliRunner

from fairfight.ballot.luck import record_luck
from fairfight.ballot.record import load_record, verify_record
from fairfight.ballot.state import decision_from_data
from fairfight.ballot.store import (
    ALREADY_ANSWERED,
    OPEN_TABLES_PER_CLIENT,
    TABLES,
    UNSTARTED_TABLE_SECONDS,
    BallotStore,
    StaleAnswer,
)
from fairfight.web import WebSettings, create_app
from fairfight.web.ballot.notify import check_webhook, deliver
from fairfight.web.ballot.routes import ballot_database_url

PEOPLE = ["human", "machine", "human", "human"]


def make_app(tmp_path: Path) -> Any:
    """A service on a throwaway database whose webhooks may call this machine."""
    settings = WebSettings(
        database_url=f"sqlite:///{tmp_path / 'ff.db'}", ballot_webhooks_to_private=True
    )
    return create_app(settings)


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


def client_of(app: Any, token: str | None = None, host: str | None = None) -> TestClient:
    headers = {}
    if token:
        headers["X-Seat-Token"] = token
    if host:
        headers["X-Host-Token"] = host
    return TestClient(app, base_url="http://testserver", headers=headers)


def create(app: Any, seats: list[str], years: int = 1, **more: Any) -> dict[str, Any]:
    spec = {"victory": "points", "years": years, "seats": seats} | more
    response = client_of(app).post("/api/ballot/tables", json=spec)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    return created


def seated(app: Any, created: dict[str, Any]) -> dict[int, TestClient]:
    """Every human seat joined through its API, one client (person) each."""
    people = {}
    for link in created["seats"]:
        person = client_of(app, link["token"])
        answer = person.post(f"/api/ballot/tables/{created['id']}/seats/{link['seat']}/join")
        assert answer.status_code == 200, answer.text
        people[link["seat"]] = person
    return people


def simple_answer(game: dict[str, Any]) -> dict[str, Any]:
    """A legal move for whatever is asked: first pack card, no declarations, 'no', discards."""
    phase = game["phase"]
    if phase == "draft":
        return {"type": "DraftPick", "card": game["pack"][0]["id"]}
    if phase == "declare":
        return {"type": "Declarations", "entries": []}
    if phase == "withdraw":
        return {"type": "Withdrawals", "races": []}
    if phase == "discard":
        surplus = len(game["hand"]) - 16
        return {"type": "Discards", "cards": sorted(c["id"] for c in game["hand"])[:surplus]}
    if phase == "author":
        return {"type": "BillDraft", "tags": [], "rider": -1}
    if phase == "amend-propose":
        return {"type": "AmendmentDraft", "tags": []}
    if phase == "amend-vote":
        return {"type": "AmendmentVote", "choice": "abstain"}
    return {"type": "YesNo", "yes": False}


def seat_view(person: TestClient, table: str, seat: int) -> dict[str, Any]:
    response = person.get(f"/api/ballot/tables/{table}/seats/{seat}")
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def play_round(people: dict[int, TestClient], table: str) -> dict[str, Any]:
    """Every person asked answers once; the public view afterwards."""
    public = client_of(next(iter(people.values())).app).get(f"/api/ballot/tables/{table}").json()
    for seat in public["waiting_for"]:
        view = seat_view(people[seat], table, seat)
        move = {"version": view["version"], "decision": simple_answer(view["game"])}
        answer = people[seat].post(f"/api/ballot/tables/{table}/seats/{seat}/move", json=move)
        assert answer.status_code == 200, answer.text
    result: dict[str, Any] = (
        client_of(next(iter(people.values())).app).get(f"/api/ballot/tables/{table}").json()
    )
    return result


def play_to_end(people: dict[int, TestClient], table: str, rounds: int = 400) -> dict[str, Any]:
    public: dict[str, Any] = {}
    for _ in range(rounds):
        public = play_round(people, table)
        if public["status"] == "over":
            break
    assert public["status"] == "over"
    return public


def test_the_tables_database_is_a_file_of_its_own() -> None:
    assert ballot_database_url("sqlite:///data/season.db") == "sqlite:///data/season-ballot.db"
    assert ballot_database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_lobby_lists_listed_tables_newest_first_and_pages(app: Any) -> None:
    store: BallotStore = app.state.ballot_store
    ticks = iter(range(1000, 2000))
    store.clock = lambda: float(next(ticks))
    made = [create(app, ["human", "pollster", "machine"])["id"] for _ in range(3)]
    hidden = create(app, ["human", "pollster", "machine"], listed=False)["id"]
    lobby = client_of(app).get("/api/ballot").json()
    ids = [row["id"] for row in lobby["tables"]]
    assert ids == made[::-1] and hidden not in ids
    assert hidden not in client_of(app).get("/ballot").text
    assert lobby["tables"][0]["open_seats"] == 1 and lobby["tables"][0]["status"] == "open"
    for number in range(20):
        store.create(
            store.load(made[0]).config, ["human", "pollster", "machine"],  # type: ignore[union-attr]
            client=f"10.0.0.{number}",
        )
    first, second = (client_of(app).get(f"/api/ballot?page={n}").json() for n in (0, 1))
    assert len(first["tables"]) == 20 and first["more"]
    assert [row["id"] for row in second["tables"]][-3:] == made[::-1] and not second["more"]


def test_open_tables_per_client_are_capped(app: Any) -> None:
    store: BallotStore = app.state.ballot_store
    now = {"t": 1000.0}
    store.clock = lambda: now["t"]
    for _ in range(OPEN_TABLES_PER_CLIENT):
        create(app, ["human", "pollster", "machine"])
    spec = {"seats": ["human", "pollster", "machine"]}
    refused = client_of(app).post("/api/ballot/tables", json=spec)
    assert refused.status_code == 422 and refused.json()["field"] == "table"
    now["t"] += UNSTARTED_TABLE_SECONDS + 1  # tables nobody started stop counting
    assert client_of(app).post("/api/ballot/tables", json=spec).status_code == 200


def test_the_game_starts_when_every_link_is_used(app: Any) -> None:
    created = create(app, PEOPLE)
    table = created["id"]
    assert [s["seat"] for s in created["seats"]] == [0, 2, 3]
    wrong = client_of(app, "not-the-token").get(f"/api/ballot/tables/{table}/seats/0")
    assert wrong.status_code == 403
    other = client_of(app, created["seats"][1]["token"]).get(f"/api/ballot/tables/{table}/seats/0")
    assert other.status_code == 403  # seat 2's token is not seat 0's
    people = seated(app, {**created, "seats": created["seats"][:2]})
    assert client_of(app).get(f"/api/ballot/tables/{table}").json()["status"] == "open"
    people |= seated(app, {**created, "seats": created["seats"][2:]})
    public = client_of(app).get(f"/api/ballot/tables/{table}").json()
    assert public["status"] == "playing" and public["waiting_for"] == [0, 2, 3]
    assert public["game"]["hand"] == [] and public["game"]["pack"] == []


def test_the_host_fills_the_empty_seats_with_bots(app: Any) -> None:
    created = create(app, PEOPLE, my_seat=0)
    table = created["id"]
    nobody = client_of(app).post(f"/api/ballot/tables/{table}/start")
    assert nobody.status_code == 422 and nobody.json()["field"] == "host"
    host = client_of(app, host=created["host_token"])
    started = host.post(f"/api/ballot/tables/{table}/start").json()
    assert started["status"] == "playing"
    assert [s["kind"] for s in started["seats"]] == ["human", "machine", "pollster", "pollster"]
    assert started["waiting_for"] == [0]
    late = client_of(app, created["seats"][1]["token"]).get(f"/api/ballot/tables/{table}/seats/2")
    assert late.status_code == 403  # a seat given to a bot keeps no token


def test_the_invite_link_sets_a_cookie_and_rejoins_from_anywhere(app: Any) -> None:
    created = create(app, ["human", "pollster", "human"])
    table = created["id"]
    people = seated(app, created)
    before = seat_view(people[2], table, 2)
    fresh = TestClient(app, base_url="http://testserver")  # another device
    link = created["seats"][1]["link"].removeprefix("http://testserver")
    joined = fresh.get(link, follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"].endswith("/seats/2")
    cookie = joined.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "token" not in (
        joined.headers["location"]
    )
    again = fresh.get(f"/api/ballot/tables/{table}/seats/2").json()
    assert again["game"]["hand"] == before["game"]["hand"] and again["you"] == 2
    assert fresh.get(f"/ballot/tables/{table}/seats/2").status_code == 200
    assert fresh.get(f"/ballot/tables/{table}/seats/0").status_code == 403
    assert fresh.get(link.replace("token=", "token=x")).status_code == 422


def test_a_stale_or_repeated_move_is_refused_and_never_lands_on_the_next(app: Any) -> None:
    created = create(app, ["human", "pollster", "machine"])
    table = created["id"]
    person = seated(app, created)[0]
    view = seat_view(person, table, 0)
    move = {"version": view["version"], "decision": simple_answer(view["game"])}
    url = f"/api/ballot/tables/{table}/seats/0/move"
    assert person.post(url, json=move).status_code == 200
    after = seat_view(person, table, 0)
    assert after["version"] > view["version"]
    again = person.post(url, json=move)
    assert again.status_code == 409 and again.json()["message"] == ALREADY_ANSWERED
    assert seat_view(person, table, 0) == after  # the next question is still open


def test_a_repeated_confirmation_by_form_is_refused(app: Any) -> None:
    created = create(app, ["human", "pollster", "machine"])
    table = created["id"]
    person = seated(app, created)[0]
    view = seat_view(person, table, 0)
    form = {"version": str(view["version"]), "card": str(view["game"]["pack"][0]["id"])}
    url = f"/ballot/tables/{table}/seats/0/move"
    review = person.post(url, data=form)
    assert review.status_code == 200 and "Confirm your move" in review.text
    assert seat_view(person, table, 0) == view  # nothing played yet
    done = person.post(url, data=form | {"confirm": "1"}, follow_redirects=False)
    assert done.status_code == 303
    twice = person.post(url, data=form | {"confirm": "1"}, follow_redirects=False)
    assert twice.status_code == 409 and ALREADY_ANSWERED in twice.text
    assert seat_view(person, table, 0)["version"] == view["version"] + 1


def test_two_tabs_cannot_both_answer(app: Any) -> None:
    """The second write finds the row changed under it (the revision check) and is refused."""
    store: BallotStore = app.state.ballot_store
    created = create(app, ["human", "pollster", "machine"])
    table = created["id"]
    person = seated(app, created)[0]
    view = seat_view(person, table, 0)
    decision = decision_from_data(simple_answer(view["game"]))
    real_must = store._must
    calls = {"n": 0}

    def other_tab_first(table_id: str) -> Any:
        calls["n"] += 1
        row = real_must(table_id)
        if calls["n"] == 1:  # after this tab read the row, the other tab answers
            store._must = real_must  # type: ignore[method-assign]
            store.answer(table_id, 0, view["version"], decision)
        return row

    store._must = other_tab_first  # type: ignore[method-assign]
    with pytest.raises(StaleAnswer):
        store.answer(table, 0, view["version"], decision)
    assert seat_view(person, table, 0)["version"] == view["version"] + 1


def race_first_answer(app: Any, stores: list[BallotStore]) -> list[str]:
    """Each store (a tab, or a process) sends the same first answer at once; the outcomes."""
    created = create(app, ["human", "pollster", "machine"])
    table = created["id"]
    view = seat_view(seated(app, created)[0], table, 0)
    decision = decision_from_data(simple_answer(view["game"]))
    start = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def tab(store: BallotStore) -> None:
        start.wait()
        try:
            store.answer(table, 0, view["version"], decision)
            outcomes.append("played")
        except StaleAnswer:
            outcomes.append("refused")

    tabs = [threading.Thread(target=tab, args=(store,)) for store in stores]
    for t in tabs:
        t.start()
    for t in tabs:
        t.join()
    return sorted(outcomes)


def test_threads_racing_for_one_answer_make_exactly_one(app: Any) -> None:
    outcomes = race_first_answer(app, [app.state.ballot_store] * 4)
    assert outcomes == ["played", "refused", "refused", "refused"]


def test_a_leaver_is_replaced_by_the_stand_in_who_plays_to_the_end(app: Any) -> None:
    created = create(app, ["human", "machine", "human"])
    table = created["id"]
    people = seated(app, created)
    play_round(people, table)
    left = people[2].post(f"/api/ballot/tables/{table}/seats/2/leave")
    assert left.status_code == 200
    seat = left.json()["seats"][2]
    assert seat["played_by"] == "stand-in"
    assert people[2].post(f"/api/ballot/tables/{table}/seats/2/leave").status_code == 422
    public = play_to_end({0: people[0]}, table)
    assert public["game"]["end_reason"] == "year-cap"  # the stand-in never ends it early


def test_the_deal_is_committed_revealed_and_the_record_replays(
    app: Any, tmp_path: Path
) -> None:
    created = create(app, ["human", "pollster", "human"])
    table = created["id"]
    people = seated(app, created)
    early = seat_view(people[0], table, 0)
    assert early["commitment"] == created["commitment"] and early["key"] is None
    for path in ("record.jsonl", "replay?step=1"):
        assert people[0].get(f"/ballot/tables/{table}/{path}").status_code == 422
    public = play_to_end(people, table)
    key = public["key"]
    assert hashlib.sha256(key.encode("ascii")).hexdigest() == created["commitment"]
    record = client_of(app).get(f"/ballot/tables/{table}/record.jsonl")
    assert record.status_code == 200
    path = tmp_path / "table.jsonl"
    path.write_text(record.text)
    lines = load_record(path)
    assert lines[0]["commitment"] == created["commitment"] and lines[-1]["key"] == key
    state = verify_record(lines)
    assert list(state.last_scores) == [s["score"] for s in public["game"]["seats"]]
    from fairfight.ballot.cli import app as ballot_cli

    assert CliRunner().invoke(ballot_cli, ["replay", str(path)]).exit_code == 0
    steps = len(json.loads(_table_column(app, table, "steps")))
    for step in (0, 1, steps):
        page = client_of(app).get(f"/ballot/tables/{table}/replay?step={step}")
        assert page.status_code == 200 and f"step {step} of {steps}" in page.text
        assert "✓ The revealed key&#39;s SHA-256 matches the commitment" in page.text
    assert client_of(app).get(f"/ballot/tables/{table}/replay?step={steps + 1}").status_code == 422
    twin = client_of(app).get(f"/api/ballot/tables/{table}/replay?step=1").json()
    assert twin["step"] == 1 and twin["commitment_ok"] and len(twin["hands"]) == 3


def _table_column(app: Any, table: str, column: str) -> Any:
    store: BallotStore = app.state.ballot_store
    with store.engine.connect() as connection:
        return connection.execute(
            TABLES.select().where(TABLES.c.id == table)
        ).first()._mapping[column]  # type: ignore[union-attr]


def test_a_game_this_engine_would_play_differently_is_refused_clearly(app: Any) -> None:
    created = create(app, ["human", "pollster", "machine"])
    table = created["id"]
    person = seated(app, created)[0]
    play_round({0: person}, table)
    store: BallotStore = app.state.ballot_store
    digests = json.loads(_table_column(app, table, "digests"))
    digests[0] = "0" * 64
    with store.engine.begin() as connection:
        connection.execute(
            update(TABLES).where(TABLES.c.id == table).values(digests=json.dumps(digests))
        )
    refused = person.get(f"/api/ballot/tables/{table}/seats/0")
    assert refused.status_code == 409
    assert "played under other rules" in refused.json()["message"]
    assert "step 1" in refused.json()["message"]


def test_the_turn_clock_lets_the_stand_in_answer_a_late_phase(app: Any) -> None:
    store: BallotStore = app.state.ballot_store
    now = {"t": 1000.0}
    store.clock = lambda: now["t"]
    created = create(app, ["human", "pollster", "human"], clock_bank=30, clock_increment=5)
    table = created["id"]
    people = seated(app, created)
    view = seat_view(people[0], table, 0)
    assert view["seats"][0]["clock_left"] == 30
    now["t"] += 10
    move = {"version": view["version"], "decision": simple_answer(view["game"])}
    assert people[0].post(f"/api/ballot/tables/{table}/seats/0/move", json=move).status_code == 200
    now["t"] += 19  # seat 2 is still within its 30 s
    assert client_of(app).get(f"/api/ballot/tables/{table}").json()["version"] == view["version"]
    now["t"] += 2
    public = client_of(app).get(f"/api/ballot/tables/{table}").json()
    assert public["version"] == view["version"] + 1  # seat 2's phase played by the stand-in
    banks = {s["seat"]: s for s in seat_view(people[0], table, 0)["seats"]}
    assert banks[0]["clock_left"] == 25 and banks[2]["clock_left"] == 5
    assert banks[2]["played_by"] == "person"  # only that phase, not the seat


class _Receiver(BaseHTTPRequestHandler):
    got: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Receiver.got.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return


def test_a_webhook_is_called_when_it_becomes_the_seats_turn(app: Any) -> None:
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/turn"
    store: BallotStore = app.state.ballot_store
    sent: list[int] = []
    store.notify = lambda t, s, v, u: sent.append(deliver(u, {"seat": s, "version": v}, True))
    created = create(app, ["human", "pollster", "human"])
    table = created["id"]
    people = seated(app, created)
    hook = people[2].post(f"/api/ballot/tables/{table}/seats/2/webhook", json={"url": url})
    assert hook.status_code == 200
    play_round(people, table)
    server.shutdown()
    server.server_close()
    assert sent and set(sent) == {204}
    assert all(message["seat"] == 2 for message in _Receiver.got)
    assert "token" not in json.dumps(_Receiver.got)
    for bad in ("ftp://example.org/x", "file:///etc/passwd", "http://user:pw@example.org/"):
        refused = people[2].post(f"/api/ballot/tables/{table}/seats/2/webhook", json={"url": bad})
        assert refused.status_code == 422 and refused.json()["field"] == "webhook"
    with pytest.raises(ValueError, match="special-purpose"):
        check_webhook(url, allow_private=False)
    with pytest.raises(ValueError, match="special-purpose"):
        check_webhook("http://10.1.2.3/hook", allow_private=False)


def test_the_ended_table_shows_each_seats_luck(app: Any) -> None:
    created = create(app, ["human", "pollster", "human"])
    table = created["id"]
    people = seated(app, created)
    assert seat_view(people[0], table, 0)["game"]["luck"] == []   # not before the end
    play_to_end(people, table)
    record = client_of(app).get(f"/ballot/tables/{table}/record.jsonl")
    lines = [json.loads(line) for line in record.text.splitlines()]
    expected = record_luck(lines)
    shown = seat_view(people[2], table, 2)["game"]["luck"]
    assert [row["sentence"] for row in shown] == [one.sentence() for one in expected]
    assert [(row["won"], row["entered"]) for row in shown] == [
        (sum(r.won for r in one.races), len(one.races)) for one in expected]
    page = client_of(app).get(f"/ballot/tables/{table}")
    assert page.status_code == 200 and 'id="luck"' in page.text
    for one in expected:
        assert one.sentence() in page.text
