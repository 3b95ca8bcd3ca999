"""`conquest backup` and `conquest restore`: a consistent copy of a season with its secrets
(seed and key), from a season file or a server database, and back into either.

A backup is always the portable form: a season file, its seed file and its key file (created
with mode 0600, like the originals). From a season file it is SQLite's online backup
(`season_file.copy_online`); from PostgreSQL every row of the season is read in one
REPEATABLE READ transaction, so a battle or a contribution committed while it runs is wholly
in the copy or not at all, and written to a new season file as season 1. The seed and the key
never change once a season exists, so they are read beside that transaction. A season made
before the log has no key, and its backup has none either. Operator sign-in sessions are not
season data and are never copied.

A backup restores to SQLite as it is (it is a season file: move it, with its two companions,
where the service expects it) and to a server database with `restore_season`, which adds it as
that database's next season in one transaction.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Table, insert, inspect, select

from fairfight.conquest.store.rows import KEY_TABLES, SEASON_ROW_ID, SEASON_TABLES, SeasonRow
from fairfight.conquest.store.season_file import connect_file_engine, copy_online
from fairfight.conquest.store.season_keys import KeyFile, key_file_for
from fairfight.conquest.store.season_store import SeasonStore, is_server_address
from fairfight.conquest.store.seeds import SeedFile, seed_file_for
from fairfight.conquest.store.server_store import (
    next_season_id,
    open_server_season,
    prepare_database,
    server_engine,
    split_address,
)
from fairfight.core.errors import InputError

__all__ = ["Restored", "backup_season", "restore_season"]


def _season_tables() -> Iterator[Table]:
    """Every table holding one season's rows (the season row itself first, by foreign keys)."""
    for metadata in (SEASON_TABLES, KEY_TABLES):
        for table in metadata.sorted_tables:
            if table.name == SeasonRow.__tablename__ or "season_id" in table.c:
                yield table


def _season_key(table: Table) -> Any:
    return table.c.id if table.name == SeasonRow.__tablename__ else table.c.season_id


def _read_season(connection: Connection, season_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every row of one season, table by table, in primary-key order."""
    rows: dict[str, list[dict[str, Any]]] = {}
    present = set(inspect(connection).get_table_names())
    for table in _season_tables():
        if table.name not in present:  # a file made before that table existed
            continue
        query = select(table).where(_season_key(table) == season_id)
        ordered = query.order_by(*table.primary_key.columns)
        rows[table.name] = [dict(row._mapping) for row in connection.execute(ordered)]
    if not rows.get(SeasonRow.__tablename__):
        raise InputError("season", f"holds no season {season_id}")
    return rows


def _write_season(connection: Connection, rows: dict[str, list[dict[str, Any]]],
                  season_id: int) -> None:
    """Insert one season's rows under `season_id`, parents first."""
    for table in _season_tables():
        found = rows.get(table.name, [])
        if not found:
            continue
        column = "id" if table.name == SeasonRow.__tablename__ else "season_id"
        connection.execute(insert(table), [{**row, column: season_id} for row in found])


def _secrets(seeds: Any, keys: Any) -> tuple[str, str | None]:
    try:
        key: str | None = keys.read()
    except InputError:
        key = None  # a season made before the log has no key
    return seeds.read(), key


def _targets(folder: Path, name: str) -> tuple[Path, SeedFile, KeyFile]:
    if not folder.is_dir():
        raise InputError(str(folder), "no such folder; create it first")
    target = folder / name
    target_seeds, target_keys = SeedFile(seed_file_for(target)), KeyFile(key_file_for(target))
    for existing in (target, target_seeds.path, target_keys.path):
        if existing.exists() or existing.is_symlink():
            raise InputError(str(existing), "already exists; back up into an empty folder")
    if not os.access(folder, os.W_OK):
        raise InputError(str(folder), "the folder is read-only")
    return target, target_seeds, target_keys


def _written(target: Path, seeds: SeedFile, keys: KeyFile, seed: str,
             key: str | None) -> list[Path]:
    seeds.keep(seed)
    if key is None:
        return [target, seeds.path]
    keys.keep(key)
    return [target, seeds.path, keys.path]


def _undo(target: Path, seeds: SeedFile, keys: KeyFile) -> None:
    target.unlink(missing_ok=True)
    for secret in (seeds, keys):
        if secret.path.exists():
            secret.discard()


def _backup_file(path: Path, folder: Path) -> list[Path]:
    target, target_seeds, target_keys = _targets(folder, path.name)
    source_keys = KeyFile(key_file_for(path))
    source = SeasonStore.open(path)
    try:
        key = source_keys.read() if source_keys.exists() else None
        written = _written(target, target_seeds, target_keys, source.secret_seed(), key)
        copy_online(path, target)
    except BaseException:
        _undo(target, target_seeds, target_keys)
        raise
    finally:
        source.close()
    return written


def _backup_server(address: str, folder: Path) -> list[Path]:
    connected = open_server_season(address)
    try:
        target, target_seeds, target_keys = _targets(
            folder, f"season-{connected.season_id}.db")
        snapshot = connected.engine.execution_options(isolation_level="REPEATABLE READ")
        with snapshot.connect() as connection, connection.begin():
            rows = _read_season(connection, connected.season_id)
        seed, key = _secrets(connected.seeds, connected.keys)
    finally:
        connected.engine.dispose()
    try:
        written = _written(target, target_seeds, target_keys, seed, key)
        engine = connect_file_engine(target, "rwc")
        try:
            SEASON_TABLES.create_all(engine)
            KEY_TABLES.create_all(engine)
            with engine.begin() as connection:
                _write_season(connection, rows, SEASON_ROW_ID)
        finally:
            engine.dispose()
        SeasonStore.open(target).close()  # the copy opens as a season file
    except BaseException:
        _undo(target, target_seeds, target_keys)
        raise
    return written


def backup_season(path: Path | str, folder: Path) -> list[Path]:
    """Back up a season file or a server database's season (`URL#ID`) into `folder` as a
    season file with its seed and key files; the written paths."""
    if is_server_address(path):
        return _backup_server(str(path), folder)
    return _backup_file(Path(path), folder)


@dataclass(frozen=True, slots=True)
class Restored:
    """Where a restored season now lives."""

    address: str
    """`URL#ID`, password included: what `SeasonStore.open` takes."""
    shown: str
    """The same with the password hidden: what is printed."""


def restore_season(backup: Path, url: str) -> Restored:
    """Add a backed-up season file to a server database as its next season, all rows in one
    transaction, then its seed and key; where it now lives."""
    if not is_server_address(url):
        raise InputError("database", "restore into a server database URL; a backup already is "
                         "a season file (copy it with its .seed and .key files)")
    base, wanted = split_address(url)
    if wanted is not None:
        raise InputError("season", "a restored season gets the next id; give the URL without #ID")
    source = SeasonStore.open(backup)
    try:
        with source.transaction() as session:
            rows = _read_season(session.connection(), SEASON_ROW_ID)
        key_file = KeyFile(key_file_for(backup))
        seed, key = source.secret_seed(), key_file.read() if key_file.exists() else None
    finally:
        source.close()
    engine = server_engine(base)
    try:
        prepare_database(engine)
        with engine.begin() as connection:
            season_id = next_season_id(connection)
            _write_season(connection, rows, season_id)
        connected = open_server_season(f"{base}#{season_id}", engine=engine)
        connected.seeds.keep(seed)
        if key is not None:
            connected.keys.keep(key)
    finally:
        engine.dispose()
    return Restored(f"{base}#{season_id}", f"{connected.shown}#{season_id}")
