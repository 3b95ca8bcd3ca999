"""Fan contributions over the API and the form: idempotency keys, refusals, payments."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from fairfight.web.conquest.payments import SIGNATURE_HEADER, TOLERANCE_SECONDS, sign
from tests.web.conquest_support import PAYMENT_SECRET, make_app

URL = "/api/seasons/1/contributions"


def _open_empty_pool(path: Path) -> str:
    summary = season.summary(path)
    due = summary.board["next_battle"]
    pending = {e["faction"] for e in summary.ledger if e["before_battle"] == due}
    return next(code for code, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
                and code not in pending)


def _ledger(path: Path) -> list[dict[str, object]]:
    return season.summary(path).ledger


def test_a_key_is_required(client: TestClient, season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    response = client.post(URL, json={"faction": code, "amount": 10})
    assert response.status_code == 400
    assert response.json()["field"] == "Idempotency-Key"
    assert len(_ledger(season_file)) == len(season.summary(season_file).ledger)


def test_same_key_same_body_records_once_and_answers_the_same(
    client: TestClient, season_file: Path
) -> None:
    code = _open_empty_pool(season_file)
    before = len(_ledger(season_file))
    body = {"faction": code, "amount": 25}
    first = client.post(URL, json=body, headers={"Idempotency-Key": "k-1"})
    again = client.post(URL, json=body, headers={"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first.json()["pool"] == 25 and first.json()["faction"] == code
    ledger = _ledger(season_file)
    assert len(ledger) == before + 1
    assert ledger[-1] == {k: first.json()[k] for k in ("seq", "before_battle", "faction", "amount")}
    card = client.get(f"/api/seasons/1/factions/{code}").json()
    assert card["pool"] == 25


def test_same_key_other_body_is_422(client: TestClient, season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    assert client.post(URL, json={"faction": code, "amount": 5},
                       headers={"Idempotency-Key": "k-2"}).status_code == 201
    other = client.post(URL, json={"faction": code, "amount": 10},
                        headers={"Idempotency-Key": "k-2"})
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    assert _ledger(season_file)[-1]["amount"] == 5


def test_a_key_in_flight_is_409(client: TestClient, season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    in_flight = client.app.state.conquest.in_flight  # type: ignore[attr-defined]
    with in_flight.claim("k-3"):
        busy = client.post(URL, json={"faction": code, "amount": 5},
                           headers={"Idempotency-Key": "k-3"})
    assert busy.status_code == 409 and busy.json()["field"] == "Idempotency-Key"
    done = client.post(URL, json={"faction": code, "amount": 5}, headers={"Idempotency-Key": "k-3"})
    assert done.status_code == 201


def test_a_refusal_writes_nothing_and_leaves_the_key_free(client: TestClient,
                                                          season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    before = _ledger(season_file)
    for body, field in (({"faction": code, "amount": 7}, "amount"),
                        ({"faction": code, "amount": 55}, "amount"),
                        ({"faction": "NOPE", "amount": 5}, "faction")):
        refused = client.post(URL, json=body, headers={"Idempotency-Key": "k-4"})
        assert refused.status_code == 422, body
        assert refused.json()["field"] == field
        assert refused.json()["detail"].startswith(f"{field}: ")
    assert _ledger(season_file) == before
    accepted = client.post(URL, json={"faction": code, "amount": 5},
                           headers={"Idempotency-Key": "k-4"})
    assert accepted.status_code == 201


def test_spent_pool_and_cap_are_refused(client: TestClient, season_file: Path) -> None:
    summary = season.summary(season_file)
    spent = next(c for c, f in summary.board["factions"].items() if f["pool_state"] == "spent")
    refused = client.post(URL, json={"faction": spent, "amount": 5},
                          headers={"Idempotency-Key": "k-5"})
    assert refused.status_code == 422 and "spent" in refused.json()["message"]
    code = _open_empty_pool(season_file)
    client.post(URL, json={"faction": code, "amount": 45}, headers={"Idempotency-Key": "k-6"})
    over = client.post(URL, json={"faction": code, "amount": 10},
                       headers={"Idempotency-Key": "k-7"})
    assert over.status_code == 422 and "cap" in over.json()["message"]


def test_bad_bodies_name_the_field(client: TestClient) -> None:
    for body, field in (({"faction": "US-TX"}, "amount"), ({"amount": 5}, "faction"),
                        ({"faction": "US-TX", "amount": "five"}, "amount"),
                        ({"faction": "US-TX", "amount": 5, "extra": 1}, "extra")):
        response = client.post(URL, json=body, headers={"Idempotency-Key": "k-8"})
        assert response.status_code == 422 and response.json()["field"] == field, body


def test_the_form_records_a_double_submit_once(client: TestClient, season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    before = len(_ledger(season_file))
    form = {"amount": "25", "idempotency_key": "form-key-1"}
    url = f"/conquest/1/factions/{code}/contribute"
    first = client.post(url, data=form, follow_redirects=False)
    second = client.post(url, data=form, follow_redirects=False)
    assert first.status_code == second.status_code == 303
    assert first.headers["location"] == second.headers["location"]
    assert len(_ledger(season_file)) == before + 1
    card = client.get(first.headers["location"], headers={"accept": "text/html"}).text
    assert '<span id="pool-amount">$25</span>' in card
    assert 'id="contribution-recorded"' in card


def test_the_form_shows_a_refusal_on_the_card(client: TestClient, season_file: Path) -> None:
    summary = season.summary(season_file)
    spent = next(c for c, f in summary.board["factions"].items() if f["pool_state"] == "spent")
    page = client.post(f"/conquest/1/factions/{spent}/contribute",
                       data={"amount": "5", "idempotency_key": "form-key-2"})
    assert page.status_code == 422 and 'id="contribution-error"' in page.text


def test_a_cross_site_form_post_is_refused(client: TestClient, season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    before = _ledger(season_file)
    response = client.post(f"/conquest/1/factions/{code}/contribute",
                           data={"amount": "5", "idempotency_key": "evil"},
                           headers={"origin": "https://elsewhere.example"})
    assert response.status_code == 403
    assert _ledger(season_file) == before


@pytest.fixture
def paid(season_file: Path) -> TestClient:
    return TestClient(make_app(season_file, payments=True), raise_server_exceptions=False)


def _event(event_id: str, faction: str, amount: int) -> bytes:
    return json.dumps({"id": event_id, "type": "payment.succeeded",
                       "data": {"season": 1, "faction": faction, "amount": amount}}).encode()


def test_with_payments_only_the_signed_webhook_records(paid: TestClient, season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    direct = paid.post(URL, json={"faction": code, "amount": 5}, headers={"Idempotency-Key": "x"})
    assert direct.status_code == 403
    body = _event("evt_1", code, 20)
    now = int(time.time())  # the real clock: the check must hold on it, not only on a frozen one
    signed = {SIGNATURE_HEADER: sign(PAYMENT_SECRET, now, body),
              "content-type": "application/json"}
    first = paid.post("/api/payments/webhook", content=body, headers=signed)
    again = paid.post("/api/payments/webhook", content=body, headers=signed)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert [e for e in _ledger(season_file) if e["faction"] == code] == [
        {k: first.json()[k] for k in ("seq", "before_battle", "faction", "amount")}]
    card = paid.get(f"/conquest/1/factions/{code}", headers={"accept": "text/html"}).text
    assert 'id="payments-note"' in card and 'id="contribute-form"' not in card


@pytest.mark.parametrize("shift", [-(TOLERANCE_SECONDS + 5), TOLERANCE_SECONDS + 5])
def test_webhook_refuses_stale_or_future_timestamps(paid: TestClient, season_file: Path,
                                                    shift: int) -> None:
    body = _event("evt_2", _open_empty_pool(season_file), 5)
    stamp = int(time.time()) + shift
    response = paid.post("/api/payments/webhook", content=body,
                         headers={SIGNATURE_HEADER: sign(PAYMENT_SECRET, stamp, body)})
    assert response.status_code == 401 and response.json()["field"] == SIGNATURE_HEADER


def test_webhook_refuses_a_bad_signature_or_a_changed_body(paid: TestClient,
                                                           season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    before = _ledger(season_file)
    body = _event("evt_3", code, 5)
    now = int(time.time())
    tampered = body.replace(b'"amount": 5', b'"amount": 50')
    for content, header in ((body, sign("wrong-secret", now, body)),
                            (tampered, sign(PAYMENT_SECRET, now, body)),
                            (body, "v1=abc"), (body, None)):
        headers = {} if header is None else {SIGNATURE_HEADER: header}
        response = paid.post("/api/payments/webhook", content=content, headers=headers)
        assert response.status_code in (400, 401), header
    assert _ledger(season_file) == before
