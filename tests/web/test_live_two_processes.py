"""Two `fairfight serve` processes on one PostgreSQL database: a battle aired through one
reaches a stream on the other, a client resumes on the other process with what it missed, and
delivery goes on after every listener connection is terminated by the server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import psycopg
import pytest

from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season
from fairfight.web.conquest.event_listener import LISTENER_APPLICATION_NAME, libpq_address
from fairfight.web.conquest.operator import token_digest
from tests.web.conquest_support import ADMIN_TOKEN, free_port
from tests.web.live_support import BEARER, StreamReader, wait_until
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres

EVENTS = "/api/seasons/1/events"


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        season.create_season(url, scenario.load_map("europe"), "europe", seed="88" * 32)
        yield url


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/seasons", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def _service(database: str) -> Iterator[str]:
    """One `fairfight serve` process of its own; yields its base URL."""
    port = free_port()
    environment = {**os.environ, "FAIRFIGHT_ADMIN_TOKEN_SHA256": token_digest(ADMIN_TOKEN),
                   "FAIRFIGHT_FORECAST_SEASONS": "0"}
    process = subprocess.Popen(
        [sys.executable, "-m", "fairfight", "serve", "--db", database, "--port", str(port)],
        env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: process.poll() is not None or _answers(base), "the server answers")
        assert process.poll() is None, "the server stopped"
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _listeners(database: str) -> list[int]:
    with psycopg.connect(libpq_address(database), autocommit=True) as connection:
        rows = connection.execute(  # the run's cluster holds other modules' databases
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s"
            " AND datname = current_database()", (LISTENER_APPLICATION_NAME,)).fetchall()
    return sorted(int(row[0]) for row in rows)


def _air(base: str) -> int:
    answer = httpx.post(f"{base}/api/seasons/1/operator/air", json={"count": 1},
                        headers=BEARER, timeout=60)
    assert answer.status_code == 200, answer.text
    number: int = answer.json()["battles"][0]["number"]
    return number


def _numbers(blocks: list[dict[str, str]]) -> list[int]:
    return [json.loads(block["data"])["number"] for block in blocks]


def test_two_processes_share_the_show_and_survive_losing_their_listeners(
        database: str) -> None:
    with _service(database) as base_a, _service(database) as base_b:
        wait_until(lambda: len(_listeners(database)) == 2, "each process listens")
        on_b = StreamReader(base_b, EVENTS)
        on_b.opened()
        first = _air(base_a)
        assert _numbers(on_b.wait_for(1, "battle")) == [first]
        cursor = on_b.events("battle")[-1]["id"]
        # The server terminates both listening connections; each process reconnects.
        before = _listeners(database)
        with psycopg.connect(libpq_address(database), autocommit=True) as admin:
            for pid in before:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        wait_until(lambda: len(_listeners(database)) == 2
                   and not set(_listeners(database)) & set(before), "both reconnect")
        second = _air(base_a)
        assert _numbers(on_b.wait_for(2, "battle")) == [first, second]
        on_b.close()
        # A client of B that left after `first` resumes on A with exactly what followed.
        on_a = StreamReader(base_a, EVENTS, last_event_id=cursor)
        resumed = on_a.wait_for(1, "battle")
        on_a.close()
    assert _numbers(resumed) == [second]
    assert int(resumed[0]["id"]) > int(cursor)
