"""Live updates across service instances on one PostgreSQL database, woken by LISTEN/NOTIFY.

The safety poll is switched off (an hour), so an event reaches the other instance only by a
notification, or by the re-read that follows the listener's reconnection after its backend
was terminated.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import psycopg
import pytest

from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season
from fairfight.web.conquest import event_listener, live
from tests.web.conquest_support import live_server
from tests.web.live_support import BEARER, StreamReader, service_app, wait_until
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres

EVENTS = "/api/seasons/1/events"


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A fresh cluster holding one new season."""
    with postgres_cluster() as url:
        season.create_season(url, scenario.load_map("north-america"), "north-america",
                             seed="33" * 32)
        yield url


@pytest.fixture(autouse=True)
def _notifications_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "SAFETY_POLL_SECONDS", 3600.0)


def _air(base: str) -> int:
    answer = httpx.post(f"{base}/api/seasons/1/operator/air", json={"count": 1},
                        headers=BEARER, timeout=60)
    assert answer.status_code == 200, answer.text
    number: int = answer.json()["battles"][0]["number"]
    return number


def _numbers(reader: StreamReader, count: int) -> list[int]:
    return [json.loads(b["data"])["number"] for b in reader.wait_for(count, "battle")]


def test_a_battle_aired_through_a_reaches_a_stream_on_b_by_notification(database: str) -> None:
    app_a, app_b = service_app(database), service_app(database)
    with live_server(app_a) as base_a, live_server(app_b) as base_b:
        listener = app_b.state.conquest.live.listener
        wait_until(lambda: listener.connected, "B listens")
        on_b = StreamReader(base_b, EVENTS)
        on_b.opened()
        aired = _air(base_a)
        assert _numbers(on_b, 1) == [aired]
        season.contribute(f"{database}#1", "US-TX", 5)  # the command line: also notified
        ledger = on_b.wait_for(1, "ledger")
        on_b.close()
    assert json.loads(ledger[0]["data"])["season"] == 1


def test_the_listener_reconnects_after_its_backend_is_terminated(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(event_listener, "BACKOFF_FIRST_SECONDS", 1.0)
    app_a, app_b = service_app(database), service_app(database)
    with live_server(app_a) as base_a, live_server(app_b) as base_b:
        broadcaster = app_b.state.conquest.live
        listener = broadcaster.listener
        wait_until(lambda: listener.connected, "B listens")
        on_b = StreamReader(base_b, EVENTS)
        on_b.opened()
        first_pid = listener.backend_pid
        with psycopg.connect(event_listener.libpq_address(database), autocommit=True) as admin:
            killed = admin.execute("SELECT pg_terminate_backend(%s)", (first_pid,)).fetchone()
        assert killed == (True,)
        wait_until(lambda: not broadcaster.listener_alive(), "B notices the lost connection")
        missed = _air(base_a)  # committed while B listens to nobody
        wait_until(lambda: listener.connections == 2 and listener.connected, "B reconnects")
        assert listener.backend_pid != first_pid
        after = _air(base_a)
        assert _numbers(on_b, 2) == [missed, after]
        on_b.close()
