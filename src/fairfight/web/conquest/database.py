"""The database behind the service, by URL: which seasons it holds and a transaction on one.

A SQLite URL names a season file as `fairfight conquest new` makes it; the service opens it
once and the command line may keep using it at the same time (WAL mode, write lock per
transaction).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from fairfight.conquest.store import SEASON_ROW_ID, SeasonStore
from fairfight.core.errors import InputError

__all__ = ["SeasonDatabase", "sqlite_path"]


def sqlite_path(url: str) -> Path:
    """The file a `sqlite:///…` URL names; anything else is refused naming the setting."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise InputError("database_url", f"{url!r} is not a SQLite file URL")
    return Path(parsed.database)


class SeasonDatabase:
    """One open database and the seasons in it: a read-only handle and a writing one."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._reader: SeasonStore | None = None
        self._writer: SeasonStore | None = None

    @property
    def path(self) -> Path:
        """The season file the URL names."""
        return sqlite_path(self.url)

    def _store(self, write: bool) -> SeasonStore:
        """The open store (opened on first use, so a service starts before its database)."""
        if write:
            if self._writer is None:
                with closing(sqlite3.connect(self.path)) as connection:
                    connection.execute("PRAGMA journal_mode=WAL")  # readers never wait on writers
                store = SeasonStore.open(self.path, write=True)
                from fairfight.web.conquest.contributions import create_key_table

                with store.transaction() as session:
                    create_key_table(session)
                self._writer = store
            return self._writer
        if self._reader is None:
            self._store(write=True)  # the key table exists before any read asks for it
            self._reader = SeasonStore.open(self.path)
        return self._reader

    def close(self) -> None:
        """Release the connections."""
        for store in (self._reader, self._writer):
            if store is not None:
                store.close()
        self._reader = self._writer = None

    def season_ids(self) -> list[int]:
        """The seasons this database holds (a season file holds one)."""
        parsed = make_url(self.url)
        if not parsed.database or parsed.database == ":memory:" or not self.path.is_file():
            return []
        return [SEASON_ROW_ID]

    def season_path(self, season_id: int) -> Path:
        """The file the command-line functions open for this season."""
        del season_id
        return self.path

    @contextmanager
    def transaction(self, season_id: int, *, write: bool) -> Iterator[Session]:
        """A transaction on one season's rows; a write takes the write lock first."""
        del season_id  # one season per file
        with self._store(write).transaction() as session:
            yield session
