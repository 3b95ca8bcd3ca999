"""Liveness without I/O, readiness that asks every database, and a database outage answered
503 with Retry-After (JSON or the error page), recovering by itself when the database returns."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import anyio.to_thread
import httpx
from fastapi.testclient import TestClient

from tests.web.ops.stoppable_postgres import stoppable_postgres
from tests.web.ops.support import ops_app


def test_liveness_names_the_process(tmp_path: Path) -> None:
    with TestClient(ops_app(tmp_path)) as client:
        answer = client.get("/healthz")
        assert client.get("/api/health").json()["status"] == "ok", "the old check stays"
    assert answer.status_code == 200
    assert answer.json()["status"] == "ok"
    assert answer.json()["pid"] == os.getpid()


def test_health_answers_while_sync_routes_hold_every_shared_thread(tmp_path: Path) -> None:
    """Both checks are answered on the event loop: with every token of the shared thread pool
    taken (busy sync routes), each completes within a few loop turns, no thread needed."""
    app = ops_app(tmp_path)

    async def ask_with_no_thread_free() -> dict[str, int]:
        limiter = anyio.to_thread.current_default_thread_limiter()
        holders = [object() for _ in range(int(limiter.total_tokens))]
        for holder in holders:
            limiter.acquire_on_behalf_of_nowait(holder)
        transport = httpx.ASGITransport(app=app)
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://x") as client:
                asked = {path: asyncio.ensure_future(client.get(path))
                         for path in ("/healthz", "/api/health")}
                for _ in range(1000):  # loop turns only: nothing here waits on a clock
                    if all(task.done() for task in asked.values()):
                        break
                    await asyncio.sleep(0)
                assert all(task.done() for task in asked.values()), "a check waited for a thread"
                return {path: task.result().status_code for path, task in asked.items()}
        finally:
            for holder in holders:
                limiter.release_on_behalf_of(holder)

    async def run() -> dict[str, int]:
        async with app.router.lifespan_context(app):
            return await ask_with_no_thread_free()

    assert asyncio.run(run()) == {"/healthz": 200, "/api/health": 200}


def test_readiness_names_a_broken_sqlite_database_and_recovers(tmp_path: Path) -> None:
    with TestClient(ops_app(tmp_path)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"status": "ready",
                                "checks": {"conquest": "ok", "clash": "ok", "ballot": "ok",
                                           "listener": "ok", "schema": "ok"}}
        # the file and its WAL side files replaced by something that is no database (served
        # in WAL mode, the file alone may hold none of the pages yet)
        ballot_file = tmp_path / "service-ballot.db"
        kept = tmp_path / "kept"
        kept.mkdir()
        sides = [ballot_file.with_name(ballot_file.name + end) for end in ("", "-wal", "-shm")]
        for side in sides:
            if side.exists():
                side.rename(kept / side.name)
        ballot_file.write_bytes(b"this is no database " * 500)
        broken = client.get("/readyz")
        assert client.get("/healthz").status_code == 200, "liveness does no I/O"
        ballot_file.unlink()
        for side in sides:
            if (kept / side.name).exists():
                (kept / side.name).rename(side)
        again = client.get("/readyz")
    assert broken.status_code == 503
    assert broken.headers["retry-after"] == "5"
    body = broken.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["conquest"] == "ok" and body["checks"]["clash"] == "ok"
    assert "not a database" in body["checks"]["ballot"]
    assert again.status_code == 200


def _ready_once_listening(client: TestClient) -> Any:
    """/readyz, once the live-news listener has made its first connection (it connects in
    the background after start; until then the process is rightly not ready)."""
    for _ in range(200):
        answer = client.get("/readyz")
        if answer.status_code == 200 or "listener" not in answer.text:
            return answer
        time.sleep(0.05)
    return answer


def test_a_postgres_outage_is_503_everywhere_then_recovers() -> None:
    with stoppable_postgres() as server:
        app = ops_app(Path("/nonexistent"), database_url=server.url)
        with TestClient(app, raise_server_exceptions=False) as client:
            first = _ready_once_listening(client)
            assert first.status_code == 200, first.text
            assert client.get("/api/seasons").status_code == 200
            server.stop()
            ready = client.get("/readyz")
            api = client.get("/api/seasons")
            page = client.get("/ballot", headers={"accept": "text/html"})
            lobby = client.get("/api/ballot")
            alive = client.get("/healthz")
            server.start()
            recovered = [client.get("/readyz").status_code for _ in range(3)]
            recovered.append(_ready_once_listening(client).status_code)
            seasons_back = client.get("/api/seasons")
            metrics = client.get("/metrics").text
    assert ready.status_code == 503
    checks = ready.json()["checks"]
    assert set(checks) == {"conquest", "clash", "ballot", "listener", "schema"}
    assert all(checks[store] != "ok" for store in ("conquest", "clash", "ballot"))
    for answer in (api, lobby):
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == "5"
        assert answer.json()["field"] == "database"
        assert "Traceback" not in answer.text
    assert page.status_code == 503
    assert page.headers["content-type"].startswith("text/html")
    assert "database" in page.text and "Traceback" not in page.text
    assert alive.status_code == 200
    # The pools reconnect by themselves, the live-news listener after its backoff
    assert recovered[-1] == 200
    assert seasons_back.status_code == 200
    assert "fairfight_database_unavailable_total 3.0" in metrics
