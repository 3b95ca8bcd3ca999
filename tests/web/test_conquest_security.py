"""The secret seed never leaves the service before the reveal; errors never show internals."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from fairfight.conquest.rules import engine
from fairfight.conquest.store import season
from fairfight.conquest.store.seeds import seed_file_for
from tests.web.conquest_support import live_server, make_app


def _secrets(season_file: Path) -> list[str]:
    """The seed and everything derived from it that would let a viewer predict a draw."""
    seed = seed_file_for(season_file).read_text().strip()
    key = engine.season_key(seed, None)
    return [seed, seed.upper(), key, seed[:32], seed[32:]]


def _links(html: str) -> set[str]:
    return {href for href in re.findall(r'href="(/[^"#]*)', html)
            if not href.startswith("/static/")}


def test_crawl_every_page_api_stream_and_error_finds_no_secret(season_file: Path) -> None:
    secrets = _secrets(season_file)
    summary = season.summary(season_file)
    assert not summary.board["ended"] and summary.revealed_seed is None
    app = make_app(season_file)
    client = TestClient(app, raise_server_exceptions=False)
    schema = client.get("/openapi.json").json()
    start = {"/", "/conquest", "/conquest/operator", "/conquest/rules", "/openapi.json",
             "/api/docs", "/conquest/1/record.zip", "/conquest/1/verify", "/no/such/page",
             "/conquest/1/battles/999", "/api/seasons/1/battles/999", "/api/nothing"}
    for path in schema["paths"]:
        if "{" not in path:
            start.add(path)
    numbers = range(1, summary.battles + 1)
    start |= {f"/api/seasons/1/battles/{n}" for n in numbers}
    start |= {f"/api/seasons/1/map?after={n}" for n in numbers}
    start |= {f"/api/seasons/1/factions/{code}" for code in summary.board["factions"]}
    start |= {"/api/seasons/1", "/api/seasons/1/standings", "/api/seasons/1/ledger",
              "/api/seasons/1/record", "/api/seasons/1/operator/export"}
    seen: set[str] = set()
    queue = sorted(start)
    while queue:
        path = queue.pop()
        if path in seen or "/events" in path:
            continue
        seen.add(path)
        for accept in ("text/html", "application/json"):
            response = client.get(path, headers={"accept": accept})
            assert response.status_code < 500, path
            body = response.content.decode("utf-8", "replace")
            for secret in secrets:
                assert secret not in body, path
            if "text/html" in response.headers.get("content-type", ""):
                queue.extend(_links(body) - seen)
    assert len(seen) > 150 and "/conquest/1/factions/US-TX" in seen
    # the live stream, its backlog replayed from the first battle
    with live_server(app) as base, httpx.stream(
        "GET", f"{base}/api/seasons/1/events", headers={"Last-Event-ID": "0"}, timeout=30
    ) as stream:
        received = b""
        for chunk in stream.iter_bytes():
            received += chunk
            if received.count(b"event: battle") >= summary.battles:
                break
    for secret in secrets:
        assert secret.encode() not in received


def test_the_seed_file_is_not_served_as_a_static_file(client: TestClient,
                                                      season_file: Path) -> None:
    for path in (f"/static/../{season_file.name}.seed", "/static/%2e%2e/season.db.seed"):
        assert client.get(path).status_code in (400, 404)
