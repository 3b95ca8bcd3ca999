"""The SQLite season file as a connection part: checks before opening, connections, journal
modes, failures turned into one line, and a consistent copy. It knows no store: `store.SeasonStore`
builds on the engines made here.

Journal modes: at rest a season file uses SQLite's rollback journal, so a read-only open needs
no side files. The web service serves it in WAL mode (readers never wait for a writer, and a
commit costs one file sync instead of several); whichever writer closes the file last puts it
back to the rollback journal. A writer never switches modes while anyone else has the file
open (SQLite refuses, and we do not wait for it), so two programs never disagree on the mode.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event, inspect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import QueuePool

from fairfight.conquest.store.rows import DAMAGED, SEASON_TABLES
from fairfight.core.errors import InputError
from fairfight.core.journal import (
    BUSY_TIMEOUT_SECONDS,
    return_to_rollback_journal,
    try_journal_mode,
)

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "DAMAGED",
    "check_new_season_files",
    "check_season_file",
    "check_tables",
    "connect_file_engine",
    "copy_online",
    "database_errors",
    "return_to_rollback_journal",
]

def _busy_or_locked(message: str) -> bool:
    return "locked" in message or "busy" in message


@contextmanager
def database_errors(path: Path | str) -> Iterator[None]:
    """Turn a database failure into one line: busy, read-only, or damaged."""
    try:
        yield
    except (DBAPIError, sqlite3.Error) as error:
        original = getattr(error, "orig", None) or error
        message = str(original).lower()
        if _busy_or_locked(message):
            raise InputError(
                str(path),
                f"season file is busy: another program has held it for more than "
                f"{BUSY_TIMEOUT_SECONDS:g} s; try again",
            ) from None
        if "readonly" in message or "read-only" in message:
            raise InputError(
                str(path), "is read-only; this command writes the season file"
            ) from None
        if "file is not a database" in message:
            raise InputError(
                str(path), "is not a conquest season file (not an SQLite database)"
            ) from None
        if "unable to open" in message:
            raise InputError(str(path), "cannot be opened (check the file and folder)") from None
        if message.startswith("no such table: "):
            table = message.removeprefix("no such table: ")
            raise InputError(DAMAGED, f"{table}: the table is missing") from None
        raise InputError(DAMAGED, f"the database cannot be read ({original})") from None


def check_season_file(path: Path) -> None:
    """Refuse up front anything that is not a regular, non-empty file, before SQLite opens it.

    The contents are left to SQLite ("file is not a database"): opening and closing the file
    here would drop every lock this process's SQLite connections hold on it (POSIX locks belong
    to the process), which lets another program switch the journal mode under them.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputError(str(path), "no season file here; create one with `conquest new`") from None
    except OSError as error:
        raise InputError(str(path), f"cannot be read ({error.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(str(path), "is a folder, not a season file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(str(path), "is not a regular file, so not a season file")
    if info.st_size == 0:
        raise InputError(str(path), "is empty, not a conquest season file")


def check_new_season_files(path: Path, companions: Sequence[Path]) -> None:
    """Refuse to make a season over an existing file or companion (seed, key), or in a folder
    that is missing or read-only: nothing is ever overwritten."""
    for target in (path, *companions):
        if target.exists() or target.is_symlink():
            raise InputError(str(target), "already exists; choose a new file for a new season")
    if not path.parent.is_dir():
        raise InputError(str(path), "its folder does not exist")
    if not os.access(path.parent, os.W_OK):
        raise InputError(str(path.parent), "the folder is read-only; a season cannot be made here")


def check_tables(engine: Engine, path: Path) -> None:
    """Every table and column the store uses is there (a foreign SQLite file is refused)."""
    inspector = inspect(engine)
    present = set(inspector.get_table_names())
    wanted = SEASON_TABLES.tables
    if not present & set(wanted):
        raise InputError(str(path), "is an SQLite database but not a conquest season file")
    for name, table in wanted.items():
        if name not in present:
            raise InputError(DAMAGED, f"{name}: the table is missing")
        columns = {column["name"] for column in inspector.get_columns(name)}
        for column in table.columns:
            if column.name not in columns:
                raise InputError(DAMAGED, f"{name}.{column.name}: the column is missing")


def connect_file_engine(path: Path, mode: str, *, wal: bool = False) -> Engine:
    """An engine over the file: `ro` (with `query_only`), `rw`, or `rwc` (create); a writing
    engine with `wal` puts the file in WAL mode if no one else has it open."""
    write = mode != "ro"
    uri = f"file:{quote(str(path.absolute()))}?mode={mode}"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
            check_same_thread=False,  # the pool hands a connection to one thread at a time
        )

    engine = create_engine("sqlite://", creator=connect, poolclass=QueuePool)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if not write:
            cursor.execute("PRAGMA query_only=ON")
        cursor.close()
        if write and wal:
            try_journal_mode(dbapi_connection, "WAL")

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def copy_online(path: Path, target: Path) -> None:
    """Copy a season file with SQLite's online backup: a battle being fought while it runs is
    either wholly in the copy or not at all."""
    reader = sqlite3.connect(
        f"file:{quote(str(path.absolute()))}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS
    )
    writer = sqlite3.connect(target)
    try:
        with database_errors(path):
            reader.backup(writer)
    finally:
        writer.close()
        reader.close()
