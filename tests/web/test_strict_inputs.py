"""Every body, form, path and query number is read strictly: no text, true/false or 1.0 taken
for a whole number, no unknown field, no number past the database's range; each refusal is
one 422 (or 404) naming the field, the rule and the value given."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest import publication, season
from fairfight.core.errors import InputError, shown_value
from fairfight.web import WebSettings, create_app
from tests.conquest.helpers import SEED, star_map
from tests.web.conquest_support import ADMIN_TOKEN, make_app

BEARER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
HUGE = "9" * 40
THOUSANDS = "7" * 5000


def _refused(answer: Any, field: str, status: int = 422) -> dict[str, Any]:
    assert answer.status_code == status, answer.text[:300]
    body: dict[str, Any] = answer.json()
    assert body["field"] == field, body
    assert "\n" not in answer.text and "Traceback" not in answer.text
    return body


def test_a_refusal_quotes_the_value_given_shortened() -> None:
    error = InputError("years", "must be a whole number", "1" * 100)
    assert error.given is not None and len(error.given) == 40 and error.given.endswith("…")
    assert error.one_line().startswith('InputError: years: must be a whole number (given "111')
    assert InputError("years", "must be a whole number").one_line() == (
        "InputError: years: must be a whole number")  # no value: the line is as before
    assert shown_value(True) == "true" and shown_value(1.0) == "1.0" and shown_value("1") == '"1"'
    assert shown_value("\ud800") == '"\\ud800"'  # printable, whatever it holds
    assert shown_value("\ud800").encode("utf-8")


@pytest.fixture()
def ballot(tmp_path: Path) -> Iterator[TestClient]:
    """A fresh service per test: one address may keep only a few tables open."""
    app = create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


SEATS = ["human", "pollster", "pollster"]


@pytest.mark.parametrize(("extra", "field", "given"), [
    ({"years": "1"}, "years", '"1"'),
    ({"years": True}, "years", "true"),
    ({"years": 1.0}, "years", "1.0"),
    ({"listed": "yes"}, "listed", '"yes"'),
    ({"listed": 1}, "listed", "1"),
    ({"clock_bank": "30"}, "clock_bank", '"30"'),
    ({"my_seat": 0.0}, "my_seat", "0.0"),
    ({"seats": "human"}, "seats", '"human"'),
    ({"colour": "red"}, "colour", '"red"'),
])
def test_a_table_body_is_never_coerced(
    ballot: TestClient, extra: dict[str, Any], field: str, given: str,
) -> None:
    body = _refused(ballot.post("/api/ballot/tables", json={"seats": SEATS} | extra), field)
    assert body["value"] == given and body["detail"].endswith(f"(given {given})")


def test_the_same_table_with_right_types_is_created(ballot: TestClient) -> None:
    answer = ballot.post("/api/ballot/tables", json={
        "seats": SEATS, "years": 1, "listed": False, "clock_bank": 30, "my_seat": 0})
    assert answer.status_code == 200 and answer.json()["my_seat"] == 0


def _seated(ballot: TestClient) -> tuple[str, dict[str, str]]:
    created = ballot.post("/api/ballot/tables", json={"seats": SEATS, "years": 1,
                                                      "my_seat": 0}).json()
    token = next(seat["token"] for seat in created["seats"] if seat["seat"] == 0)
    return created["id"], {"X-Seat-Token": token}


@pytest.mark.parametrize("version", ["0", True, 0.0])
def test_a_move_version_is_a_whole_number(ballot: TestClient, version: object) -> None:
    table, headers = _seated(ballot)
    answer = ballot.post(f"/api/ballot/tables/{table}/seats/0/move", headers=headers,
                         json={"version": version, "decision": {"type": "yes-no", "yes": True}})
    _refused(answer, "version")


@pytest.mark.parametrize("path", [
    "/api/ballot/tables/{table}/seats/{huge}/join",
    "/api/ballot/tables/{table}/seats/{huge}",
    "/api/ballot/tables/{table}/seats/{thousands}",
    "/api/ballot/tables/{table}/seats/1.0",
    "/ballot/tables/{table}/seats/{huge}",
])
def test_a_seat_number_past_the_range_is_refused_before_any_query(
    ballot: TestClient, path: str,
) -> None:
    table, headers = _seated(ballot)
    url = path.format(table=table, huge=HUGE, thousands=THOUSANDS)
    method = "post" if url.endswith("/join") else "get"
    answer = ballot.request(method, url, headers=headers | {"accept": "application/json"})
    _refused(answer, "seat")


@pytest.mark.parametrize("query", [f"page={HUGE}", "page=1.0", "page=true", f"page={THOUSANDS}",
                                   "page=999999999999999999", "page=1000001"])
def test_the_lobby_page_number_is_bounded(ballot: TestClient, query: str) -> None:
    """18 nines are digits, but times the page size they would overflow the database."""
    _refused(ballot.get(f"/api/ballot?{query}"), "page")
    _refused(ballot.get(f"/ballot?{query}", headers={"accept": "application/json"}), "page")
    assert ballot.get("/api/ballot?page=1000000").status_code == 200


def test_a_replay_step_is_digits(ballot: TestClient) -> None:
    table, _ = _seated(ballot)
    _refused(ballot.get(f"/api/ballot/tables/{table}/replay?step=1.0"), "step")
    _refused(ballot.get(f"/api/ballot/tables/{table}/replay?step={HUGE}"), "step")


@pytest.mark.parametrize(("field", "text"), [
    ("years", "1.0"), ("years", "true"), ("years", "٣"), ("clock_bank", "30.0"),
    ("my_seat", "0.0"), ("years", HUGE),
])
def test_the_create_form_reads_numbers_strictly(
    ballot: TestClient, field: str, text: str,
) -> None:
    form = {"seat_0": "human", "seat_1": "pollster", "seat_2": "pollster", "years": "1",
            "my_seat": "0"} | {field: text}
    answer = ballot.post("/ballot/tables", data=form, headers={"accept": "application/json"})
    body = _refused(answer, field)
    assert body["value"] is not None and body["value"].startswith('"')


def test_the_create_form_takes_plain_digits(ballot: TestClient) -> None:
    form = {"seat_0": "human", "seat_1": "pollster", "seat_2": "pollster", "years": "1",
            "my_seat": "0", "clock_bank": "30"}
    assert ballot.post("/ballot/tables", data=form).status_code == 200


def _conquest_service(path: Path) -> Iterator[tuple[TestClient, Path]]:
    season.create_season(path, star_map(), "star", seed=SEED)
    with TestClient(make_app(path), raise_server_exceptions=False) as client:
        yield client, path


@pytest.fixture()
def conquest(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    """A season of its own, for the tests that air battles."""
    yield from _conquest_service(tmp_path / "season.db")


@pytest.fixture(scope="module")
def conquest_refusing(tmp_path_factory: pytest.TempPathFactory,
                      ) -> Iterator[tuple[TestClient, Path]]:
    """One season for the tests whose every request must be refused: a refusal changes
    nothing, so they share it (a service costs about half a second to start and serve)."""
    yield from _conquest_service(tmp_path_factory.mktemp("strict-conquest") / "season.db")


@pytest.mark.parametrize("count", [True, "1", 1.0, "2"])
def test_the_air_action_never_airs_on_a_coerced_count(
    conquest: tuple[TestClient, Path], count: object,
) -> None:
    client, path = conquest
    answer = client.post("/api/seasons/1/operator/air", json={"count": count}, headers=BEARER)
    _refused(answer, "count")
    assert season.summary(path).battles == 0  # nothing aired


def test_the_air_action_with_a_whole_number_airs(conquest: tuple[TestClient, Path]) -> None:
    client, path = conquest
    answer = client.post("/api/seasons/1/operator/air", json={"count": 1}, headers=BEARER)
    assert answer.status_code == 200 and season.summary(path).battles == 1


@pytest.mark.parametrize("minutes", ["5", True, 5.0])
def test_schedule_minutes_are_a_whole_number(
    conquest_refusing: tuple[TestClient, Path], minutes: object,
) -> None:
    client, _ = conquest_refusing
    answer = client.put("/api/seasons/1/operator/schedule", headers=BEARER,
                        json={"kind": "every", "minutes": minutes})
    _refused(answer, "minutes")


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/seasons/{id}"),
    ("get", "/api/seasons/{id}/schedule"),
    ("put", "/api/seasons/{id}/operator/schedule"),
    ("post", "/api/seasons/{id}/operator/air"),
    ("get", "/conquest/{id}"),
    ("get", "/api/seasons/1/battles/{id}"),
])
@pytest.mark.parametrize("number", [THOUSANDS, HUGE, "9223372036854775808"])
def test_season_ids_past_the_range_are_not_found(
    conquest_refusing: tuple[TestClient, Path], method: str, path: str, number: str,
) -> None:
    client, _ = conquest_refusing
    answer = client.request(method, path.format(id=number), headers=BEARER,
                            json={"kind": "every", "minutes": 5})
    assert answer.status_code == 404, answer.text[:200]
    assert "Traceback" not in answer.text


@pytest.mark.parametrize("query", ["page=1.0", f"page={HUGE}", "per_page=true", "after=1e3"])
def test_conquest_query_numbers_are_digits(
    conquest_refusing: tuple[TestClient, Path], query: str,
) -> None:
    client, _ = conquest_refusing
    route = "heads" if query.startswith("after") else "battles"
    _refused(client.get(f"/api/seasons/1/{route}?{query}"), query.split("=")[0])


@pytest.mark.parametrize("amount", ["1.0", "true", HUGE])
def test_the_contribution_form_amount_is_digits(
    conquest_refusing: tuple[TestClient, Path], amount: str,
) -> None:
    client, _ = conquest_refusing
    answer = client.post("/conquest/1/factions/AA/contribute", data={"amount": amount},
                         headers={"accept": "application/json"})
    _refused(answer, "amount")


@pytest.fixture(scope="module")
def clash(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("strict-clash")
    app = create_app(WebSettings(database_url=f"sqlite:///{folder / 'ff.db'}"))
    with TestClient(app, raise_server_exceptions=False) as client:
        client.post("/api/clash/games", json={"scenario": "belvoir-wood"})
        yield client


@pytest.mark.parametrize("path", ["/api/clash/game/turns/1.0", f"/api/clash/game/turns/{HUGE}",
                                  "/clash/game?turn=1.0", "/clash/game?event=true"])
def test_clash_turn_numbers_are_digits(clash: TestClient, path: str) -> None:
    answer = clash.get(path, headers={"accept": "application/json"})
    assert answer.status_code == 422, answer.text[:200]
    assert answer.json()["message"].startswith("must be a whole number")


@pytest.mark.parametrize("body", [{"ai": "true"}, {"autopilot": 1}, {"side": 7}, {"x": 1}])
def test_a_clash_game_body_is_never_coerced(clash: TestClient, body: dict[str, Any]) -> None:
    answer = clash.post("/api/clash/games", json={"scenario": "belvoir-wood"} | body)
    assert answer.status_code == 422 and answer.json()["field"] == next(iter(body))


@pytest.mark.parametrize(("name", "data"), [
    ("flow.yaml", b"a: " + b"[" * 10_000 + b"]" * 10_000),
    ("deep.json", b"[" * 10_000 + b"]" * 10_000),
    ("objects.json", b'{"a":' * 10_000 + b"1" + b"}" * 10_000),
    ("dashes.yaml", b"- " * 10_000 + b"x"),
])
def test_a_clash_upload_nested_ten_thousand_deep_is_refused(
    clash: TestClient, name: str, data: bytes,
) -> None:
    answer = clash.post("/clash/games/upload", files={"file": (name, data)},
                        data={"side": "blue"}, headers={"accept": "application/json"})
    body = _refused(answer, "file")
    assert "nest" in body["message"]


def test_an_archive_whose_header_holds_a_lone_surrogate_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, tmp_path / "season.zip")
    original = zipfile.ZipFile(tmp_path / "season.zip")
    header = original.read("header.json").replace(b"{", b'{"\\ud800": 1, ', 1)
    manifest = original.read("manifest.sha256").decode().replace(
        hashlib.sha256(original.read("header.json")).hexdigest(),
        hashlib.sha256(header).hexdigest())
    changed = io.BytesIO()
    with zipfile.ZipFile(changed, "w") as archive:
        for member in original.infolist():
            data = {"header.json": header, "manifest.sha256": manifest.encode()}.get(
                member.filename, original.read(member.filename))
            archive.writestr(member.filename, data)
    app = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(app, raise_server_exceptions=False) as client:
        for accept in ("application/json", "text/html"):
            answer = client.post("/api/upload/verify", headers={"accept": accept},
                                 files={"archive": ("s.zip", changed.getvalue())})
            # the verifiers' text rule answers it as a failed check: a verdict, never a 5xx
            assert answer.status_code < 500, answer.text[:300]
            assert "Traceback" not in answer.text
            assert "lone surrogate" in answer.text
        verdict = json.loads(client.post(
            "/api/upload/verify", files={"archive": ("s.zip", changed.getvalue())}).text)
        assert verdict["ok"] is False and "lone surrogate" in verdict["detail"]
