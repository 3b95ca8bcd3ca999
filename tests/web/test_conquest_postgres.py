"""The store and the API on PostgreSQL: several seasons in one database, seeds kept apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import log, publication, season, season_keys
from fairfight.core.errors import InputError
from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.operator import token_digest
from tests.conquest.test_log import head_is_signed, receipt_is_included
from tests.web.conquest_support import ADMIN_TOKEN
from tests.web.postgres_cluster import postgres_cluster

# A pooled psycopg connection can end up in a reference cycle when a service is torn down; its
# ResourceWarning, raised whenever the garbage collector happens to run, is not what these tests
# check. The cycle is collected, under the same filter, before the test cluster stops.
pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

SEEDS = ("11" * 32, "22" * 32)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """A fresh cluster with two seasons: the first with battles and fans, the second new."""
    with postgres_cluster() as url:
        north_america = scenario.load_map("north-america")
        for seed in SEEDS:
            season.create_season(url, north_america, "north-america", seed=seed)
        first = f"{url}#1"
        season.contribute(first, "US-TX", 25, key="cli-key")
        list(season.fight(first, 4))
        yield url


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    app = create_app(WebSettings(database_url=database, forecast_seasons=0,
                                 admin_token_sha256=token_digest(ADMIN_TOKEN)))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_seasons_have_stable_ids_and_stay_apart(database: str) -> None:
    first, second = season.summary(f"{database}#1"), season.summary(f"{database}#2")
    assert (first.season_id, second.season_id) == (1, 2)
    assert first.battles == 4 and second.battles == 0
    assert [e["faction"] for e in first.ledger] == ["US-TX"] and second.ledger == []
    again = season.contribute(f"{database}#1", "US-TX", 25, key="cli-key")
    assert again.repeated
    other = season.contribute(f"{database}#2", "US-TX", 25, key="cli-key")  # keys are per season
    assert not other.repeated and other.entry["seq"] == 1


def test_a_bare_url_needs_a_season_id_when_there_are_several(database: str) -> None:
    with pytest.raises(InputError, match="holds 2 seasons"):
        season.summary(database)


def test_the_seed_is_only_in_the_secret_schema(database: str) -> None:
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            public = inspect(connection).get_table_names()
            dumped = ""
            for table in public:
                for row in connection.execute(text(f'SELECT * FROM "{table}"')):
                    dumped += repr(tuple(row))
            secret = connection.execute(
                text("SELECT seed FROM fairfight_secret.secret_seed ORDER BY season_id")
            ).scalars().all()
    finally:
        engine.dispose()
    assert "secret_seed" not in public
    assert list(secret) == list(SEEDS)
    for seed in SEEDS:
        assert seed not in dumped


def test_the_season_key_is_only_in_the_secret_schema_and_signs_every_head(
        database: str) -> None:
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            dumped = "".join(
                repr(tuple(row)) for table in inspect(connection).get_table_names()
                for row in connection.execute(text(f'SELECT * FROM "{table}"')))
            keys = connection.execute(text(
                "SELECT private_key FROM fairfight_secret.season_key ORDER BY season_id"
            )).scalars().all()
    finally:
        engine.dispose()
    assert len(keys) == 2 and not any(key in dumped for key in keys)
    first = f"{database}#1"
    key = season.summary(first).header[tables.LOG_KEY]
    assert key == season_keys.public_key_hex(keys[0])
    store = season.open_store(first)
    try:
        with store.transaction() as session:
            kinds = [leaf["kind"] for leaf in log.leaves(session)]
            heads = log.heads(session)
    finally:
        store.close()
    assert kinds[:2] == ["header", "contribution"] and kinds.count("battle") >= 4
    assert [head["size"] for head in heads] == list(range(1, len(kinds) + 1))
    assert all(head_is_signed(head, key) for head in heads)
    receipt = season.contribute(first, "US-CA", 5).receipt
    assert receipt is not None and receipt_is_included(receipt)


def test_api_lists_and_serves_both_seasons(client: TestClient) -> None:
    listed = client.get("/api/seasons").json()["seasons"]
    assert [s["id"] for s in listed] == [1, 2]
    assert [s["battles"] for s in listed] == [4, 0]
    assert client.get("/api/seasons/1/battles/4").json()["number"] == 4
    assert client.get("/api/seasons/2/battles/1").status_code == 404
    assert client.get("/api/seasons/3").status_code == 404
    for path in ("/conquest/1", "/conquest/2", "/conquest/1/battles/2", "/conquest/2/verify",
                 "/conquest/1/factions/US-TX"):
        page = client.get(path, headers={"accept": "text/html"})
        assert page.status_code == 200, path
        for seed in SEEDS:
            assert seed not in page.text


def test_contributions_and_operator_on_postgres(client: TestClient, database: str) -> None:
    body = {"faction": "CA-ON", "amount": 15}
    first = client.post("/api/seasons/2/contributions", json=body,
                        headers={"Idempotency-Key": "pg-1"})
    again = client.post("/api/seasons/2/contributions", json=body,
                        headers={"Idempotency-Key": "pg-1"})
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert [e["faction"] for e in season.summary(f"{database}#2").ledger].count("CA-ON") == 1
    bearer = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    ended = False
    while not ended:  # at most 10 battles an action
        aired = client.post("/api/seasons/2/operator/air", json={"count": 10}, headers=bearer)
        assert aired.status_code == 200
        ended = aired.json()["ended"]
    assert season.summary(f"{database}#1").battles == 4  # the other season did not move
    revealed = client.post("/api/seasons/2/operator/reveal", headers=bearer).json()
    assert revealed["seed"] == SEEDS[1]
    assert client.get("/api/seasons/2/record").status_code == 200
    signed = client.post("/conquest/operator/sign-in", data={"token": ADMIN_TOKEN},
                         headers={"accept": "text/html"})
    assert 'id="operator-season-2"' in signed.text  # the session row lives in PostgreSQL


def test_a_postgres_season_exports_and_verifies(database: str, tmp_path: Path) -> None:
    address = f"{database}#2"
    if not season.summary(address).board["ended"]:
        list(season.fight(address, None))
        season.reveal(address)
    folder = tmp_path / "record"
    publication.export_record(address, folder)
    notes = publication.verify_folder(folder)
    assert any("replayed" in note for note in notes)
