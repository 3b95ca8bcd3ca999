"""The database behind the service, by URL: which seasons it holds and a transaction on one.

A SQLite URL names a season file as `fairfight conquest new` makes it (one season, id 1); the
service opens it once, in WAL mode, and the command line may keep using it at the same time
(see `fairfight.conquest.store.season_file` for who switches the journal mode, and when).
A PostgreSQL URL holds any number of seasons, each by its id; one pooled engine serves them
all.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from fairfight.conquest.store.rows import SEASON_ROW_ID
from fairfight.conquest.store.season_store import SeasonStore, is_server_address
from fairfight.conquest.store.server_store import prepare_database, server_engine, server_season_ids
from fairfight.core.errors import InputError
from fairfight.core.journal import return_to_rollback_journal

__all__ = ["SeasonDatabase", "sqlite_path"]


def sqlite_path(url: str) -> Path:
    """The file a `sqlite:///…` URL names; anything else is refused naming the setting."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        raise InputError("database_url", f"{url!r} is not a SQLite file URL")
    return Path(parsed.database)


class SeasonDatabase:
    """One open database and the seasons in it, with a reading and a writing handle each."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.server = is_server_address(url)
        self._engine: Engine | None = None
        self._stores: dict[tuple[int, bool], SeasonStore] = {}
        self._lock = threading.RLock()
        self._writer_turn = threading.Lock()
        self._closed = False
        self._watch: sqlite3.Connection | None = None
        self._watch_lock = threading.Lock()
        self._watch_failed = False

    @property
    def path(self) -> Path:
        """The season file a SQLite URL names."""
        return sqlite_path(self.url)

    def engine(self) -> Engine:
        """The server database's pooled engine (created, with its tables, on first use)."""
        if self._engine is None:
            with self._lock:  # created once, even when the first requests arrive together
                self._refuse_when_closed()
                if self._engine is None:
                    engine = server_engine(self.url)
                    prepare_database(engine)
                    self._engine = engine
        return self._engine

    def _open(self, season_id: int, write: bool) -> SeasonStore:
        if self.server:
            return SeasonStore.open(f"{self.url}#{season_id}", write=write,
                                    server_engine=self.engine())
        if write:
            return SeasonStore.open(self.path, write=True, wal=True)
        self._store(season_id, write=True)  # the writer first: it serves the file in WAL mode
        return SeasonStore.open(self.path)

    def _refuse_when_closed(self) -> None:
        """After `close`, nothing reopens the file: a late background task (a forecast that
        was running) would otherwise hold it open, in WAL mode, past the service's end."""
        if self._closed:
            raise RuntimeError("the season database is closed: the service is stopping")

    def _store(self, season_id: int, write: bool) -> SeasonStore:
        store = self._stores.get((season_id, write))
        if store is None:
            with self._lock:  # each handle is opened once, even when requests arrive together
                self._refuse_when_closed()
                store = self._stores.get((season_id, write))
                if store is None:
                    store = self._stores[(season_id, write)] = self._open(season_id, write)
        return store

    def changes(self) -> int | None:
        """A number that moves whenever any connection, in this process or another, commits
        to the season file (SQLite's `PRAGMA data_version` on a connection of its own, which
        never writes); None for a server database, or when the file cannot be watched. Equal
        numbers mean nothing was committed in between, so what was read after the first may
        be reused: a read of shared memory, no query."""
        if self.server or self._watch_failed:
            return None
        with self._watch_lock:
            try:
                if self._watch is None:
                    self._refuse_when_closed()
                    self._watch = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                                  check_same_thread=False)
                return int(self._watch.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                self._watch_failed = True  # a file that cannot be watched is read each time
                return None

    def _stop_watching(self) -> None:
        with self._watch_lock:
            if self._watch is not None:
                self._watch.close()
            self._watch = None
            self._watch_failed = True

    def close(self) -> None:
        """Release the connections; the database is not reopened afterwards."""
        self._stop_watching()  # first: the writer closing last ends the file's WAL mode
        with self._lock:
            self._closed = True
            stores = list(self._stores.values())
            self._stores = {}
        if self.server:
            if self._engine is not None:
                self._engine.dispose()
            self._engine = None
            return
        for store in sorted(stores, key=lambda store: store.write):
            store.close()  # readers first: the writer closing last ends the file's WAL mode
        if not stores and self.season_ids():  # a file a killed service left in WAL
            return_to_rollback_journal(self.path)

    def season_ids(self) -> list[int]:
        """The seasons this database holds, oldest first."""
        if self.server:
            return server_season_ids(self.engine())
        parsed = make_url(self.url)
        if not parsed.database or parsed.database == ":memory:" or not self.path.is_file():
            return []
        return [SEASON_ROW_ID]

    def season_path(self, season_id: int) -> Path | str:
        """What the command line's functions take to reach this season."""
        return f"{self.url}#{season_id}" if self.server else self.path

    @contextmanager
    def transaction(self, season_id: int, *, write: bool) -> Iterator[Session]:
        """A transaction on one season; a write takes that season's write lock first.

        On SQLite this process's writers queue on a lock of their own before asking for the
        file's: SQLite's busy wait polls with growing sleeps, which would leave the file idle
        between writers under load.
        """
        store = self._store(season_id, write)
        if write and not self.server:
            with self._writer_turn, store.transaction() as session:
                yield session
            return
        with store.transaction() as session:
            yield session
