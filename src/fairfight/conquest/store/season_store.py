"""A running season kept in a database (SQLAlchemy 2; one SQLite file by default).

Public tables: `season` (header, commitment, map, current board, beacon, revealed seed),
`ledger` and `history`. The secret seed is never in them: a `SeedKeeper` holds it apart
(on SQLite a separate file readable by its owner only; on a server database a table in its
own schema). Every write runs in a `BEGIN IMMEDIATE` transaction, so a contribution and a
battle fought at the same moment are serialised. Opened for reading, the file is opened
read-only: no journal-mode switch, no side files, no write of any kind.

The layers: `rows` holds the tables; `season_file` (the SQLite file) and `server_store` (a
server database) are connection parts that know no store; `SeasonStore` composes them with a
seed keeper and offers the reads and writes the season's operations use (`season_queries`,
which it inherits); `ledger` records contributions through it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from fairfight.conquest.store import log
from fairfight.conquest.store.rows import (
    KEY_TABLES,
    SEASON_INFO_KEY,
    SEASON_ROW_ID,
    SEASON_TABLES,
    SQLITE_INTEGER_MAX,
    EngineFileRow,
    SeasonRow,
    check_stored_integer,
    json_text,
    load_column,
    season_of,
)
from fairfight.conquest.store.season_file import (
    check_new_season_files,
    check_season_file,
    check_tables,
    connect_file_engine,
    database_errors,
    return_to_rollback_journal,
)
from fairfight.conquest.store.season_keys import KeyFile, SeasonKeyKeeper, key_file_for, signing_key
from fairfight.conquest.store.season_queries import SeasonQueries, Version
from fairfight.conquest.store.seeds import SeedFile, SeedKeeper, seed_file_for
from fairfight.conquest.store.server_store import (
    ServerSeason,
    create_server_season,
    open_server_season,
)
from fairfight.core.errors import InputError

__all__ = [
    "SQLITE_INTEGER_MAX",
    "SeasonStore",
    "Version",
    "check_stored_integer",
    "is_server_address",
    "load_column",
    "season_of",
]


def is_server_address(address: Path | str) -> bool:
    """A server database's URL (`postgresql+psycopg://…#season`) rather than a season file."""
    return isinstance(address, str) and "://" in address and not address.startswith("sqlite")


class SeasonStore(SeasonQueries):
    """One season's database and its seed keeper; `create` or `open`, then `close`."""

    def __init__(
        self, path: Path | str, engine: Engine, seeds: SeedKeeper, *, write: bool,
        season_id: int = SEASON_ROW_ID, server: bool = False, reconnect_url: str = "",
        keys: SeasonKeyKeeper | None = None,
    ) -> None:
        self.path = path
        self.write = write
        self.season_id = season_id
        self.server = server
        self._engine = engine
        self._seeds = seeds
        self._keys = keys
        self._signing_key: Ed25519PrivateKey | None = None
        self.reconnect_url = reconnect_url

    @classmethod
    def _on_server(cls, connected: ServerSeason, *, write: bool) -> SeasonStore:
        return cls(connected.shown, connected.engine, connected.seeds, write=write,
                   season_id=connected.season_id, server=True, reconnect_url=connected.url,
                   keys=connected.keys)

    def _signer(self) -> Ed25519PrivateKey:
        """The season key, read from its keeper once (only a writing transaction asks)."""
        if self._signing_key is None:
            if self._keys is None:
                raise InputError("season key", "this season has no key to sign its log with")
            self._signing_key = signing_key(self._keys.read())
        return self._signing_key

    @property
    def address(self) -> str:
        """What `open` takes to reach this season again: a file, or `URL#season`."""
        return f"{self.reconnect_url}#{self.season_id}" if self.server else str(self.path)

    @classmethod
    def create(
        cls,
        path: Path | str,
        header: dict[str, Any],
        commitment: str,
        map_data: dict[str, Any],
        board: dict[str, Any],
        seed: str,
        *,
        engine_files: Mapping[str, bytes],
        private_key: str | None = None,
    ) -> SeasonStore:
        """Write a new season file, its seed file and (with `private_key`) its key file;
        existing files are never overwritten. With a key, the header is the log's leaf 0.

        `engine_files` are the verifier files the header names; the export publishes them.
        Given a server database URL, adds a season to that database instead.
        """
        if is_server_address(path):
            rows = {"header": json_text(header), "commitment": commitment,
                    "map_data": json_text(map_data), "board": json_text(board)}
            server = cls._on_server(create_server_season(
                str(path), rows, seed, engine_files, private_key), write=True)
            with server.transaction() as session:
                log.append(session, [log.header_leaf(header)])
            return server
        path = Path(path)
        seeds = SeedFile(seed_file_for(path))
        keys = KeyFile(key_file_for(path))
        check_new_season_files(path, [seeds.path, keys.path])
        seeds.keep(seed)
        if private_key is not None:
            try:
                keys.keep(private_key)
            except BaseException:
                seeds.discard()
                raise
        store = cls(path, connect_file_engine(path, "rwc"), seeds, write=True, keys=keys)
        try:
            store._fill_new(path, header, commitment, map_data, board, engine_files)
        except BaseException:
            store.close()
            path.unlink(missing_ok=True)
            seeds.discard()
            if private_key is not None:
                keys.discard()
            raise
        return store

    def _fill_new(
        self, path: Path, header: dict[str, Any], commitment: str, map_data: dict[str, Any],
        board: dict[str, Any], engine_files: Mapping[str, bytes],
    ) -> None:
        """The new file's tables, its season row, the engine files and the log's leaf 0."""
        with database_errors(path):
            SEASON_TABLES.create_all(self._engine)
            KEY_TABLES.create_all(self._engine)
        with self.transaction() as session:
            session.add(
                SeasonRow(
                    id=SEASON_ROW_ID,
                    header=json_text(header),
                    commitment=commitment,
                    map_data=json_text(map_data),
                    board=json_text(board),
                )
            )
            session.flush()  # the season row first: the engine files name it
            for name, content in sorted(engine_files.items()):
                session.add(EngineFileRow(name=name, content=content))
            log.append(session, [log.header_leaf(header)])

    @classmethod
    def open(
        cls, path: Path | str, *, write: bool = False, wal: bool = False,
        server_engine: Engine | None = None,
    ) -> SeasonStore:
        """Open an existing season; read-only unless `write` (then refused if read-only).

        `path` is a season file, or a server database's `URL#season` (see `server_store`).
        `wal` (a long-running writer such as the web service) serves a file in WAL mode;
        `server_engine` is a server database's pooled engine to share (the web service's).
        """
        if is_server_address(path):
            connected = open_server_season(str(path), engine=server_engine)
            return cls._on_server(connected, write=write)
        path = Path(path)
        check_season_file(path)
        if write and not os.access(path, os.W_OK):
            raise InputError(str(path), "is read-only; this command writes the season file")
        if write and not os.access(path.parent, os.W_OK):
            raise InputError(
                str(path.parent), "the folder is read-only; writing a season needs its journal file"
            )
        store = cls(
            path,
            connect_file_engine(path, "rw" if write else "ro", wal=write and wal),
            SeedFile(seed_file_for(path)),
            write=write,
            keys=KeyFile(key_file_for(path)),
        )
        try:
            with database_errors(path):
                check_tables(store._engine, path)
            with store.transaction() as session:
                store.season(session)
        except BaseException:
            store.close()
            raise
        return store

    def close(self) -> None:
        """Release the file (so it can be copied, digested or deleted); the last writer to
        close it returns it to the rollback journal."""
        self._engine.dispose()
        if self.write and not self.server:
            return_to_rollback_journal(Path(self.path))

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A transaction (write-locked when opened for writing): committed, or rolled back."""
        with (
            database_errors(self.path),
            Session(self._engine, expire_on_commit=False) as session,
            session.begin(),
        ):
            session.info[SEASON_INFO_KEY] = self.season_id
            if self.write:  # only a writer signs heads; a reader's transaction holds no key
                session.info[log.SIGNER_INFO_KEY] = self._signer
            if self.server and self.write:  # the season row's lock serialises its writers
                lock = select(SeasonRow.id).where(SeasonRow.id == self.season_id)
                if session.execute(lock.with_for_update()).first() is None:
                    raise InputError(str(self.path), f"holds no season {self.season_id}")
            yield session

    def secret_seed(self) -> str:
        """The secret seed: only battles and the reveal read it, never a public path."""
        return self._seeds.read()
