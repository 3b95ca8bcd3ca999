"""Operator actions: the token guards them, and they act through the command line's functions."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from tests.web.conquest_support import ADMIN_TOKEN, make_app

BEARER = {"authorization": f"Bearer {ADMIN_TOKEN}"}
ACTIONS = [("post", "/api/seasons/1/operator/air", {"count": 1}),
           ("post", "/api/seasons/1/operator/reveal", None),
           ("post", "/api/seasons/1/operator/beacon", {"randomness": "ab" * 32}),
           ("get", "/api/seasons/1/operator/export", None)]


@pytest.mark.parametrize(("method", "path", "body"), ACTIONS)
def test_operator_api_is_401_without_the_right_token(client: TestClient, method: str,
                                                      path: str, body: object) -> None:
    for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": ADMIN_TOKEN}):
        response = client.request(method, path, json=body, headers=headers)
        assert response.status_code == 401, headers
        assert response.json()["field"] == "authorization"
        assert "Bearer" in response.headers["www-authenticate"]


def test_no_configured_token_disables_the_operator(season_file: Path) -> None:
    with TestClient(make_app(season_file, admin=False)) as client:
        response = client.post("/api/seasons/1/operator/air", json={"count": 1}, headers=BEARER)
        assert response.status_code == 401


def test_air_reveal_and_export(client: TestClient, season_file: Path) -> None:
    before = season.summary(season_file).battles
    aired = client.post("/api/seasons/1/operator/air", json={"count": 2}, headers=BEARER)
    assert aired.status_code == 200
    assert [b["number"] for b in aired.json()["battles"]] == [before + 1, before + 2]
    assert season.summary(season_file).battles == before + 2
    early = client.post("/api/seasons/1/operator/reveal", headers=BEARER)
    assert early.status_code == 422 and early.json()["field"] == "season"
    too_many = client.post("/api/seasons/1/operator/air", json={"count": 11}, headers=BEARER)
    assert too_many.status_code == 422 and too_many.json()["field"] == "count"
    while not season.summary(season_file).board["ended"]:
        assert client.post("/api/seasons/1/operator/air", json={"count": 10},
                           headers=BEARER).status_code == 200
    revealed = client.post("/api/seasons/1/operator/reveal", headers=BEARER).json()
    assert revealed["seed"] == season.summary(season_file).revealed_seed
    export = client.get("/api/seasons/1/operator/export", headers=BEARER)
    names = zipfile.ZipFile(io.BytesIO(export.content)).namelist()
    assert "seed.txt" in names and "history.jsonl" in names


def test_beacon_refused_for_a_season_without_one(client: TestClient) -> None:
    response = client.post("/api/seasons/1/operator/beacon", json={"randomness": "ab" * 32},
                           headers=BEARER)
    assert response.status_code == 422 and response.json()["field"] == "beacon"


def test_console_forms_need_a_session(client: TestClient, season_file: Path) -> None:
    page = client.get("/conquest/operator", headers={"accept": "text/html"})
    assert page.status_code == 200 and 'id="sign-in-form"' in page.text
    assert ADMIN_TOKEN not in page.text
    before = season.summary(season_file).battles
    refused = client.post("/conquest/operator/1/air", data={"token": ADMIN_TOKEN, "count": "1"},
                          headers={"accept": "text/html"})
    assert refused.status_code == 401 and 'id="sign-in-message"' in refused.text
    assert season.summary(season_file).battles == before
    signed = client.post("/conquest/operator/sign-in", data={"token": ADMIN_TOKEN})
    assert signed.status_code == 200 and 'id="operator-season-1"' in signed.text
    done = client.post("/conquest/operator/1/air", data={"count": "1"},
                       headers={"accept": "text/html"})
    assert done.status_code == 200 and 'id="operator-message"' in done.text
    assert season.summary(season_file).battles == before + 1
    cross = client.post("/conquest/operator/1/air", data={"count": "1"},
                        headers={"origin": "https://elsewhere.example"})
    assert cross.status_code == 403


def test_the_command_line_keeps_working_on_a_served_database(client: TestClient,
                                                             season_file: Path) -> None:
    client.get("/conquest/1")
    before = client.get("/api/seasons/1").json()["battles"]
    list(season.fight(season_file, 1))
    assert client.get("/api/seasons/1").json()["battles"] == before + 1


def test_command_line_processes_write_beside_the_service(client: TestClient,
                                                         season_file: Path) -> None:
    """Another process writing (contribute, next) while the service holds the file open in WAL
    mode: the service sees every write, and the file is not switched under it."""
    import subprocess
    import sys

    before = client.get("/api/seasons/1").json()
    ledger = client.get("/api/seasons/1/ledger").json()["total"]
    code = next(row["faction"] for row in before["standings"]
                if row["standing"] and row["pool_state"] == "open" and row["pool"] == 0)
    for verb in (["contribute", str(season_file), code, "5"], ["next", str(season_file)]):
        done = subprocess.run([sys.executable, "-m", "fairfight", "conquest", *verb],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    after = client.get("/api/seasons/1/ledger").json()
    assert after.get("total") == ledger + 1, after
    assert client.get("/api/seasons/1").json()["battles"] == before["battles"] + 1
    assert client.post("/api/seasons/1/contributions", json={"faction": code, "amount": 5},
                       headers={"Idempotency-Key": "after-cli"}).status_code == 201
