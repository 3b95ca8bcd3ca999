"""Schema migrations on SQLite: the files the release before migrations made upgrade to head
and keep working, an upgrade run twice changes nothing, a database made by a newer release is
refused untouched, and each store's head is the schema its code describes."""

from __future__ import annotations

import hashlib
import sqlite3
import tarfile
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData, create_engine
from typer.testing import CliRunner

from fairfight.ballot.store import METADATA as BALLOT_TABLES
from fairfight.cli import app
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import ledger, season, season_events
from fairfight.conquest.store.rows import KEY_TABLES, SEASON_TABLES
from fairfight.warscore.store import METADATA as WARSCORE_TABLES
from fairfight.web.migrations import STORES, current, upgrade
from fairfight.web.migrations.runner import Store

FIXTURES = Path(__file__).parent / "migration_fixtures"
HEADS = {store.name: store.head() for store in STORES}


def _release_files(folder: Path) -> Path:
    with tarfile.open(FIXTURES / "release-9237500-sqlite.tar.gz") as archive:
        archive.extractall(folder, filter="data")
    return folder / "season.db"


def _schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        rows = connection.execute("SELECT name, sql FROM sqlite_master ORDER BY name")
        return [(name, sql or "") for name, sql in rows]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_the_release_before_migrations_upgrades_to_head_and_keeps_working(
        tmp_path: Path) -> None:
    path = _release_files(tmp_path)
    before = season.summary(path)
    code, shown = _cli("db", "current", "--url", str(path))
    assert code == 1 and shown.count("made before migrations") == 3
    code, shown = _cli("db", "upgrade", "--url", str(path))
    assert code == 0, shown
    assert f"conquest: sqlite:///{path}: revision none -> {HEADS['conquest']} (at head)" in shown
    assert [state.status for state in current(f"sqlite:///{path}")] == [
        "current", "current", "current", "absent"]  # that release had no stored wars
    assert "season_event" in dict(_schema(path))
    after = season.summary(path)
    assert after == before  # the season itself is untouched
    assert after.battles == 2 and [e["amount"] for e in after.ledger] == [10]
    # The contribution's key still answers the same, and the season goes on, announced.
    repeated = season.contribute(path, "AL", 10, key="fixture-key")
    assert repeated.repeated and repeated.entry == after.ledger[0]
    (aired,) = season.fight(path, 1)
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            events = season_events.events_after(session, 0)
            assert ledger.refunds_owed(session) == []
    finally:
        store.close()
    assert [(e.kind, e.payload.get("number")) for e in events] == [
        (season_events.EventKind.BATTLE, aired["number"]), (season_events.EventKind.HEAD, None)]


def test_an_upgrade_run_twice_changes_nothing(tmp_path: Path) -> None:
    path = _release_files(tmp_path)
    upgrade(f"sqlite:///{path}")
    schema, digest = _schema(path), _digest(path)
    again = upgrade(f"sqlite:///{path}")
    assert [(s.revision, s.upgraded_from) for s in again] == [
        (HEADS[store.name] if store.name != "warscore" else None, None) for store in STORES]
    assert again[0].line().endswith(f"revision {HEADS['conquest']} (at head)")
    assert _schema(path) == schema and _digest(path) == digest


def test_a_database_made_by_a_newer_release_is_refused_untouched(tmp_path: Path) -> None:
    path = _release_files(tmp_path)
    upgrade(f"sqlite:///{path}")
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE conquest_schema_version SET version_num = '9999'")
    digest = _digest(path)
    code, shown = _cli("db", "upgrade", "--url", str(path))
    assert code == 2
    refusal = (
        f"InputError: sqlite:///{path}: the conquest schema is at revision '9999', which this "
        f"release does not know (head {HEADS['conquest']}): either a newer release made it "
        "(run that release) or the version table was damaged (restore the database from the "
        "backup taken before the last upgrade)")
    assert shown.strip() == refusal
    assert _digest(path) == digest
    code, shown = _cli("db", "current", "--url", str(path))
    assert (code, shown.strip()) == (2, refusal)


def test_a_file_that_is_no_season_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    code, shown = _cli("db", "upgrade", "--url", str(other))
    assert code == 2
    assert shown.strip() == (f"InputError: sqlite:///{other}: is not a conquest database (no "
                             "season table); create a season with `conquest new`")
    assert _schema(other) == [("notes", "CREATE TABLE notes (text TEXT)")]


def test_files_not_made_yet_are_left_for_their_first_use(tmp_path: Path) -> None:
    states = upgrade(f"sqlite:///{tmp_path / 'fairfight.db'}")
    assert [state.status for state in states] == ["absent"] * len(STORES)
    assert list(tmp_path.iterdir()) == []


def _differences(url: str, store: Store, metadata: MetaData) -> list[object]:
    """What Alembic finds between the upgraded database and the code's tables of `store`."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"version_table": store.version_table})
            found = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    return [d for d in found if not _other_stores(d, metadata)]


def _other_stores(difference: object, metadata: MetaData) -> bool:
    """A table (or its index) of another store sharing the database: not this store's."""
    if not isinstance(difference, tuple) or difference[0] not in ("remove_table",
                                                                  "remove_index"):
        return False
    item = difference[1]
    table = item if difference[0] == "remove_table" else item.table
    return table.name not in metadata.tables


def test_each_store_head_is_the_schema_its_code_describes(tmp_path: Path) -> None:
    """A table or column changed in the code without a revision fails here."""
    path = tmp_path / "season.db"
    season.create_season(path, scenario.load_map("europe"), "europe", seed="66" * 32)
    for name in ("clash", "ballot", "warscore"):
        sqlite3.connect(tmp_path / f"season-{name}.db").close()  # empty files: made by upgrade
    upgrade(f"sqlite:///{path}")
    conquest = MetaData()
    for table in [*SEASON_TABLES.sorted_tables, *KEY_TABLES.sorted_tables]:
        table.to_metadata(conquest)
    from fairfight.clash.store.game_store import _metadata as clash_tables

    stores = {store.name: store for store in STORES}
    assert _differences(f"sqlite:///{path}", stores["conquest"], conquest) == []
    assert _differences(f"sqlite:///{tmp_path / 'season-clash.db'}", stores["clash"],
                        clash_tables) == []
    assert _differences(f"sqlite:///{tmp_path / 'season-ballot.db'}", stores["ballot"],
                        BALLOT_TABLES) == []
    assert _differences(f"sqlite:///{tmp_path / 'season-warscore.db'}", stores["warscore"],
                        WARSCORE_TABLES) == []


@pytest.mark.parametrize("store", STORES, ids=lambda store: store.name)
def test_each_store_has_one_line_of_revisions(store: Store) -> None:
    scripts = store.scripts()
    assert len(scripts.get_heads()) == 1 and len(scripts.get_bases()) == 1
