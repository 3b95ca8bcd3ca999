"""A replayed idempotent contribution returns the stored original bytes, marked
`Idempotent-Replayed: true`, also from another process that never saw the first request; the
same key with another body is refused with 422 naming the key."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from fairfight.web.conquest.contributions import REPLAYED_HEADER
from tests.web.conquest_support import make_app
from tests.web.test_conquest_contributions import URL, _open_empty_pool


def _replay_in_another_process(path: Path, key: str, body: bytes) -> tuple[int, dict[str, str],
                                                                         bytes]:
    """Post in a fresh interpreter with its own app: (status, headers, body bytes)."""
    program = textwrap.dedent(f"""
        import json, sys
        from fastapi.testclient import TestClient
        from tests.web.conquest_support import make_app
        with TestClient(make_app(__import__("pathlib").Path({str(path)!r}))) as client:
            answer = client.post({URL!r}, content={body!r},
                                 headers={{"Idempotency-Key": {key!r},
                                           "content-type": "application/json"}})
        sys.stdout.write(json.dumps({{"status": answer.status_code,
                                     "headers": dict(answer.headers),
                                     "body": answer.content.decode()}}))
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          timeout=300, check=True)
    seen = json.loads(done.stdout)
    return seen["status"], seen["headers"], seen["body"].encode()


def test_a_replay_gets_the_stored_bytes_from_any_process(season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    body = json.dumps({"faction": code, "amount": 15}).encode()
    headers = {"Idempotency-Key": "replay-1", "content-type": "application/json"}
    before = len(season.summary(season_file).ledger)
    with TestClient(make_app(season_file)) as client:
        first = client.post(URL, content=body, headers=headers)
        assert first.status_code == 201, first.text
        assert REPLAYED_HEADER not in first.headers
        again = client.post(URL, content=body, headers=headers)
    assert again.status_code == 201
    assert again.headers[REPLAYED_HEADER] == "true"
    assert again.content == first.content
    assert json.loads(first.content)["receipt"] is not None
    connection = sqlite3.connect(f"file:{season_file}?mode=ro", uri=True)
    try:
        (stored,) = connection.execute(
            "SELECT answer FROM contribution_key WHERE key = 'replay-1'").fetchone()
    finally:
        connection.close()
    assert stored.encode() == first.content  # the bytes live in the database, not in memory
    status, seen_headers, content = _replay_in_another_process(season_file, "replay-1", body)
    assert status == 201 and content == first.content
    assert seen_headers[REPLAYED_HEADER.lower()] == "true"
    assert len(season.summary(season_file).ledger) == before + 1


def test_the_same_key_with_another_body_is_refused_naming_the_key(season_file: Path) -> None:
    code = _open_empty_pool(season_file)
    headers = {"Idempotency-Key": "replay-2"}
    with TestClient(make_app(season_file)) as client:
        first = client.post(URL, json={"faction": code, "amount": 15}, headers=headers)
        assert first.status_code == 201
        other = client.post(URL, json={"faction": code, "amount": 20}, headers=headers)
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key"
    assert REPLAYED_HEADER not in other.headers
    status, _, content = _replay_in_another_process(
        season_file, "replay-2", json.dumps({"faction": code, "amount": 20}).encode())
    assert status == 422 and json.loads(content)["field"] == "Idempotency-Key"


def test_the_api_document_names_the_replay_header(season_file: Path) -> None:
    """A client reading /openapi.json learns that a 201 may be a replay, and how to tell."""
    with TestClient(make_app(season_file)) as client:
        document = client.get("/openapi.json").json()
    created = document["paths"]["/api/seasons/{season_id}/contributions"]["post"]["responses"]
    assert created["201"]["headers"][REPLAYED_HEADER]["schema"]["enum"] == ["true"]
