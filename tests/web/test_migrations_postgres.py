"""Schema migrations on PostgreSQL: a database dumped from the release before migrations
upgrades to head and is served as before, a fresh database is built to the code's schema,
concurrent upgrades wait for the advisory lock and migrate once, a newer database and a
damaged version table are refused."""

from __future__ import annotations

import gzip
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData
from sqlalchemy.engine import make_url

from fairfight.conquest.store import season, season_events
from fairfight.conquest.store.rows import KEY_TABLES, SEASON_TABLES
from fairfight.core.errors import InputError
from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.event_listener import libpq_address
from fairfight.web.migrations import STORES, current, upgrade
from fairfight.web.migrations.runner import MIGRATION_LOCK_KEY
from tests.system import postgres_bin
from tests.web.postgres_cluster import postgres_cluster
from tests.web.test_migrations import FIXTURES, HEADS, _differences

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def _database(cluster: str, name: str) -> str:
    """A new, empty database of the cluster; its URL."""
    with psycopg.connect(libpq_address(cluster), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return make_url(cluster).set(database=name).render_as_string(hide_password=False)


def _restore_release_dump(url: str) -> None:
    query = make_url(url).query
    dump = gzip.decompress((FIXTURES / "release-9237500-postgres.sql.gz").read_bytes())
    subprocess.run([str(Path(postgres_bin()) / "psql"), "-h", str(query["host"]),
                    "-p", str(query["port"]), "-U", "fairfight", "-d", str(make_url(url).database),
                    "-v", "ON_ERROR_STOP=1", "-q"], input=dump, check=True, capture_output=True)


def test_a_dump_of_the_release_before_migrations_upgrades_and_is_served(cluster: str) -> None:
    url = _database(cluster, "release_dump")
    _restore_release_dump(url)
    before = season.summary(f"{url}#1")
    assert [s.status for s in current(url)] == ["behind"] * len(STORES)
    upgraded = upgrade(url)
    assert [(s.store, s.upgraded_from, s.revision) for s in upgraded] == [
        (store.name, (None,), HEADS[store.name]) for store in STORES]
    assert [s.status for s in current(url)] == ["current"] * len(STORES)
    assert season.summary(f"{url}#1") == before
    app = create_app(WebSettings(database_url=url, forecast_seasons=0))
    with TestClient(app) as client:
        answer = client.get("/api/seasons/1")
        assert answer.status_code == 200, answer.text
    (aired,) = season.fight(f"{url}#1", 1)
    store = season.open_store(f"{url}#1")
    try:
        with store.transaction() as session:
            kinds = [(e.kind, e.payload.get("number")) for e in
                     season_events.events_after(session, 0)]
    finally:
        store.close()
    assert kinds == [(season_events.EventKind.BATTLE, aired["number"]),
                     (season_events.EventKind.HEAD, None)]


def test_a_fresh_database_is_built_to_the_schema_the_code_describes(cluster: str) -> None:
    url = _database(cluster, "fresh")
    upgrade(url)
    conquest = MetaData()
    for table in [*SEASON_TABLES.sorted_tables, *KEY_TABLES.sorted_tables]:
        table.to_metadata(conquest)
    assert _differences(url, STORES[0], conquest) == []
    season.create_season(url, _europe(), "europe", seed="77" * 32)  # and the store uses it
    assert season.summary(f"{url}#1").battles == 0


def _europe() -> dict[str, object]:
    from fairfight.conquest.rules import scenario

    return scenario.load_map("europe")


def test_upgrades_wait_for_the_advisory_lock_and_migrate_once(cluster: str) -> None:
    url = _database(cluster, "locked")
    outcomes: list[list[str]] = []

    def migrate() -> None:
        outcomes.append([state.line() for state in upgrade(url)])

    with psycopg.connect(libpq_address(url), autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
        workers = [threading.Thread(target=migrate) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(0.5)
        assert all(worker.is_alive() for worker in workers)  # both wait for the lock
        assert [s.status for s in current(url)] == ["behind"] * len(STORES)  # nothing migrated yet
        holder.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
    for worker in workers:
        worker.join(60)
    moved = [line for lines in outcomes for line in lines if "->" in line]
    assert len(outcomes) == 2 and len(moved) == len(STORES)  # each store migrated by one of the two
    assert [s.status for s in current(url)] == ["current"] * len(STORES)


def test_a_newer_server_database_is_refused(cluster: str) -> None:
    url = _database(cluster, "newer")
    upgrade(url)
    with psycopg.connect(libpq_address(url), autocommit=True) as connection:
        connection.execute("UPDATE clash_schema_version SET version_num = 'ffff'")
    for command in (upgrade, current):
        with pytest.raises(InputError, match="the clash schema is at revision 'ffff'"):
            command(url)


def test_a_damaged_version_table_is_refused_by_both_commands(cluster: str) -> None:
    """Two rows in one store's version table: never "at head", whichever row comes first."""
    url = _database(cluster, "damaged")
    upgrade(url)
    with psycopg.connect(libpq_address(url), autocommit=True) as connection:
        connection.execute("INSERT INTO ballot_schema_version VALUES ('0000')")
    for command in (upgrade, current):
        with pytest.raises(InputError, match="the ballot version table ballot_schema_version "
                           r"is damaged: it holds 2 rows \("):
            command(url)
    with psycopg.connect(libpq_address(url), autocommit=True) as connection:
        rows = connection.execute("SELECT version_num FROM ballot_schema_version").fetchall()
    assert sorted(rows) == [("0000",), ("0001",)]  # refused, not repaired by guessing
