"""Money the rules refuse: a paid contribution over the cap is recorded once as a refund owed."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.rules import tables
from fairfight.conquest.store import ledger, season
from fairfight.conquest.store.rows import RefundRow
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.web.conquest.payments import SIGNATURE_HEADER, sign
from tests.web.conquest_support import PAYMENT_SECRET, make_app

WEBHOOK = "/api/payments/webhook"


def _event(event_id: str, faction: str, amount: int) -> bytes:
    return json.dumps({"id": event_id, "type": "payment.succeeded",
                       "data": {"season": 1, "faction": faction, "amount": amount}}).encode()


def _signed(body: bytes) -> dict[str, str]:
    return {SIGNATURE_HEADER: sign(PAYMENT_SECRET, int(time.time()), body),
            "content-type": "application/json"}


def _empty_pool(path: Path) -> str:
    summary = season.summary(path)
    pending = {e["faction"] for e in summary.ledger
               if e["before_battle"] == summary.board["next_battle"]}
    return next(code for code, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
                and code not in pending)


@pytest.fixture
def paid(season_file: Path) -> TestClient:
    return TestClient(make_app(season_file, payments=True), raise_server_exceptions=False)


def test_a_payment_over_the_cap_is_owed_back_once(paid: TestClient, season_file: Path) -> None:
    code = _empty_pool(season_file)
    accepted = _event("evt_a", code, 30)
    assert paid.post(WEBHOOK, content=accepted, headers=_signed(accepted)).status_code == 201
    ledger_before = season.summary(season_file).ledger
    over = _event("evt_b", code, 30)  # $30 + $30 is over the $50 cap
    first = paid.post(WEBHOOK, content=over, headers=_signed(over))
    again = paid.post(WEBHOOK, content=over, headers=_signed(over))
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    due = season.summary(season_file).board["next_battle"]
    assert first.json() == {"status": "refund_owed", "event_id": "evt_b", "faction": code,
                            "amount": 30, "before_battle": due, "field": "amount",
                            "reason": first.json()["reason"]}
    assert f"${tables.POOL_CAP}" in first.json()["reason"]
    assert season.summary(season_file).ledger == ledger_before  # nothing entered the pool
    assert season.refunds_owed(season_file) == [
        {k: first.json()[k] for k in ("event_id", "faction", "amount", "before_battle",
                                      "field", "reason")}]


def test_a_redelivered_event_with_another_body_is_refused(paid: TestClient,
                                                          season_file: Path) -> None:
    code = _empty_pool(season_file)
    bad = _event("evt_c", code, 7)  # not a $5 step
    assert paid.post(WEBHOOK, content=bad, headers=_signed(bad)).json()["field"] == "amount"
    other = _event("evt_c", code, 9)
    response = paid.post(WEBHOOK, content=other, headers=_signed(other))
    assert response.status_code == 422 and response.json()["field"] == "Idempotency-Key"
    assert len(season.refunds_owed(season_file)) == 1


def test_exactly_once_across_two_services(season_file: Path) -> None:
    """Two service processes on one file (two apps here): the second finds the first's row."""
    code = _empty_pool(season_file)
    body = _event("evt_d", code, 55)
    with (TestClient(make_app(season_file, payments=True)) as one,
          TestClient(make_app(season_file, payments=True)) as two):
        answers = [client.post(WEBHOOK, content=body, headers=_signed(body))
                   for client in (one, two, one)]
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    assert [r["event_id"] for r in season.refunds_owed(season_file)] == ["evt_d"]


def test_the_database_refuses_a_second_row_for_one_event(season_file: Path) -> None:
    """The primary key, not process memory, keeps an event to one refund."""
    code = _empty_pool(season_file)
    request = ledger.LedgerRequest(code, 7, None, "evt_e")
    store = season.open_store(season_file, write=True)
    try:
        with store.transaction() as session:
            (outcome,) = ledger.record_contributions(session, [request])
        assert isinstance(outcome, ledger.RefundOwed) and not outcome.repeated
        with store.transaction() as session:
            (replayed,) = ledger.record_contributions(session, [request])
        assert isinstance(replayed, ledger.RefundOwed) and replayed.repeated
        with pytest.raises(Exception, match="(?i)unique|primary"), \
                store.transaction() as session:
            SeasonStore.add_refund(session, RefundRow(
                season_id=1, event_id="evt_e", faction=code, amount=7, before_battle=1,
                field="amount", reason="again", body_sha256=""))
    finally:
        store.close()
    assert len(season.refunds_owed(season_file)) == 1


def test_an_unpaid_refusal_still_writes_nothing(client: TestClient, season_file: Path) -> None:
    code = _empty_pool(season_file)
    response = client.post("/api/seasons/1/contributions", json={"faction": code, "amount": 7},
                           headers={"Idempotency-Key": "k-7"})
    assert response.status_code == 422 and response.json()["field"] == "amount"
    assert season.refunds_owed(season_file) == []


def test_an_older_file_without_the_table_lists_no_refunds(season_file: Path) -> None:
    import sqlite3

    connection = sqlite3.connect(season_file)
    connection.execute("DROP TABLE IF EXISTS refund_owed")
    connection.commit()
    connection.close()
    assert season.refunds_owed(season_file) == []


@pytest.mark.parametrize("amount", ["5", True, 5.0])
def test_a_payment_amount_is_read_strictly(paid: TestClient, season_file: Path,
                                           amount: object) -> None:
    """A signed event is still an input: "5", true or 5.0 is not a whole number of dollars."""
    body = json.dumps({"id": "evt_strict", "type": "payment.succeeded",
                       "data": {"season": 1, "faction": _empty_pool(season_file),
                                "amount": amount}}).encode()
    ledger_before = season.summary(season_file).ledger
    answer = paid.post(WEBHOOK, content=body, headers=_signed(body))
    assert answer.status_code == 422 and answer.json()["field"] == "data.amount"
    assert season.summary(season_file).ledger == ledger_before
