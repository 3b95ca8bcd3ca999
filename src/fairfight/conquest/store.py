"""A running season kept in a database (SQLAlchemy 2; one SQLite file by default).

Public tables: `season` (header, commitment, map, current board, beacon, revealed seed),
`ledger` and `history`. The secret seed is never in them: a `SeedKeeper` holds it apart
(on SQLite a separate file readable by its owner only; on a server database a table in its
own schema). Every write runs in a `BEGIN IMMEDIATE` transaction, so a contribution and a
battle fought at the same moment are serialised. Opened for reading, the file is opened
read-only: no journal-mode switch, no side files, no write of any kind.

The layers: `rows` holds the tables; `season_file` (the SQLite file) and `server_store` (a
server database) are connection parts that know no store; `SeasonStore` composes them with a
seed keeper and offers the reads and writes the season's operations use; `ledger` records
contributions through it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from fairfight.conquest import log, season_events
from fairfight.conquest.rows import (
    DAMAGED,
    KEY_TABLES,
    SEASON_INFO_KEY,
    SEASON_ROW_ID,
    SEASON_TABLES,
    SQLITE_INTEGER_MAX,
    ContributionKeyRow,
    EngineFileRow,
    HistoryRow,
    LedgerRow,
    RefundRow,
    SeasonRow,
    check_stored_integer,
    ensure_key_table,
    has_table,
    json_text,
    load_column,
    season_of,
)
from fairfight.conquest.season_file import (
    check_new_season_files,
    check_season_file,
    check_tables,
    connect_file_engine,
    database_errors,
    return_to_rollback_journal,
)
from fairfight.conquest.season_keys import KeyFile, SeasonKeyKeeper, key_file_for, signing_key
from fairfight.conquest.seeds import SeedFile, SeedKeeper, seed_file_for
from fairfight.conquest.server_store import (
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

Version = tuple[int, int, bool, bool]
"""(battles fought, last ledger seq, beacon recorded, seed revealed): changes on every write."""


def _entry_of(row: HistoryRow) -> dict[str, Any]:
    entry = load_column(f"history.entry (battle {row.number})", row.entry)
    if not isinstance(entry, dict) or entry.get("number") != row.number:
        raise InputError(DAMAGED, f"history.entry (battle {row.number}): not that battle's entry")
    return entry


def is_server_address(address: Path | str) -> bool:
    """A server database's URL (`postgresql+psycopg://…#season`) rather than a season file."""
    return isinstance(address, str) and "://" in address and not address.startswith("sqlite")


class SeasonStore:
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
            with database_errors(path):
                SEASON_TABLES.create_all(store._engine)
                KEY_TABLES.create_all(store._engine)
            with store.transaction() as session:
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
        except BaseException:
            store.close()
            path.unlink(missing_ok=True)
            seeds.discard()
            if private_key is not None:
                keys.discard()
            raise
        return store

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

    # ------------------------------------------------------------ reads

    @staticmethod
    def season(session: Session) -> SeasonRow:
        """The season row (there is exactly one)."""
        row = session.get(SeasonRow, season_of(session))
        if row is None:
            raise InputError(DAMAGED, "season: the season row is missing")
        return row

    @staticmethod
    def ledger(session: Session) -> list[LedgerRow]:
        """Every accepted contribution, in seq order."""
        query = select(LedgerRow).where(LedgerRow.season_id == season_of(session))
        return list(session.scalars(query.order_by(LedgerRow.seq)))

    @staticmethod
    def ledger_for(session: Session, battle: int) -> list[LedgerRow]:
        """The contributions dated to one battle, in seq order."""
        query = select(LedgerRow).where(
            LedgerRow.season_id == season_of(session), LedgerRow.before_battle == battle
        )
        return list(session.scalars(query.order_by(LedgerRow.seq)))

    @staticmethod
    def ledger_due(session: Session, battle: int, faction: str) -> list[dict[str, Any]]:
        """One faction's contributions dated to one battle, as public entries in seq order."""
        query = select(LedgerRow).where(
            LedgerRow.season_id == season_of(session),
            LedgerRow.before_battle == battle,
            LedgerRow.faction == faction,
        )
        return [row.public() for row in session.scalars(query.order_by(LedgerRow.seq))]

    @staticmethod
    def last_seq(session: Session) -> int:
        """The last ledger seq (0 before the first contribution)."""
        query = select(func.max(LedgerRow.seq)).where(LedgerRow.season_id == season_of(session))
        return int(session.scalar(query) or 0)

    @staticmethod
    def board(session: Session) -> dict[str, Any]:
        """The current board as stored (callers that need it checked use `integrity`)."""
        query = select(SeasonRow.board).where(SeasonRow.id == season_of(session))
        text = session.scalars(query).first()
        if text is None:
            raise InputError(DAMAGED, "season: the season row is missing")
        board: dict[str, Any] = load_column("season.board", text)
        return board

    @staticmethod
    def claimed_keys(session: Session, keys: list[str]) -> dict[str, ContributionKeyRow]:
        """The season's claimed idempotency keys among `keys` (the key table made if missing)."""
        ensure_key_table(session.connection())  # files made before the key table
        query = select(ContributionKeyRow).where(
            ContributionKeyRow.season_id == season_of(session), ContributionKeyRow.key.in_(keys)
        )
        return {row.key: row for row in session.scalars(query)}

    @staticmethod
    def refunds_for(session: Session, event_ids: list[str]) -> dict[str, RefundRow]:
        """The season's refunds owed among these payment events (the table made if missing)."""
        ensure_key_table(session.connection())
        query = select(RefundRow).where(
            RefundRow.season_id == season_of(session), RefundRow.event_id.in_(event_ids))
        return {row.event_id: row for row in session.scalars(query)}

    @staticmethod
    def refunds_owed(session: Session) -> list[RefundRow]:
        """Every refund owed in the season, by battle then event id (none before the table)."""
        if not has_table(session.connection(), RefundRow.__tablename__):
            return []
        query = select(RefundRow).where(RefundRow.season_id == season_of(session))
        return list(session.scalars(query.order_by(RefundRow.before_battle, RefundRow.event_id)))

    @staticmethod
    def version(session: Session) -> Version:
        """A cheap probe of the season's state: one row count, one max, two null checks."""
        season_id = season_of(session)
        battles = session.scalar(
            select(func.count()).select_from(HistoryRow).where(HistoryRow.season_id == season_id)
        ) or 0
        row = session.execute(
            select(SeasonRow.beacon.is_not(None), SeasonRow.revealed_seed.is_not(None))
            .where(SeasonRow.id == season_id)
        ).first()
        beacon, revealed = (bool(row[0]), bool(row[1])) if row else (False, False)
        return int(battles), SeasonStore.last_seq(session), beacon, revealed

    @staticmethod
    def history_count(session: Session) -> int:
        """How many history entries are stored."""
        query = select(func.count()).select_from(HistoryRow)
        return int(session.scalar(query.where(HistoryRow.season_id == season_of(session))) or 0)

    @staticmethod
    def history(session: Session) -> list[dict[str, Any]]:
        """Every history entry, in battle order."""
        query = select(HistoryRow).where(HistoryRow.season_id == season_of(session))
        rows = session.scalars(query.order_by(HistoryRow.number))
        return [_entry_of(row) for row in rows]

    @staticmethod
    def history_entry(session: Session, number: int) -> dict[str, Any] | None:
        """One history entry, or None when that battle has not been fought."""
        row = session.get(
            HistoryRow, (season_of(session), check_stored_integer("battle", number))
        )
        return None if row is None else _entry_of(row)

    @staticmethod
    def engine_files(session: Session) -> dict[str, bytes]:
        """The verifier files stored when the season was created, by name."""
        query = select(EngineFileRow).where(EngineFileRow.season_id == season_of(session))
        rows = session.scalars(query.order_by(EngineFileRow.name))
        return {row.name: row.content for row in rows}

    # ------------------------------------------------------------ writes

    @staticmethod
    def add_contribution(session: Session, entry: dict[str, Any]) -> None:
        """Record an accepted contribution (its entry as `check_contribution` made it)."""
        session.add(LedgerRow(season_id=season_of(session), **entry))

    @staticmethod
    def claim_key(session: Session, claimed: ContributionKeyRow) -> None:
        """Record a claimed idempotency key with its answer, in the ledger entry's transaction."""
        session.add(claimed)

    @staticmethod
    def add_refund(session: Session, refund: RefundRow) -> None:
        """Record a paid contribution the rules refused, in the transaction that refused it."""
        session.add(refund)

    @staticmethod
    def add_battle(session: Session, entry: dict[str, Any], board: dict[str, Any]) -> None:
        """Record a fought entry and the board after it, in the same transaction."""
        session.add(
            HistoryRow(season_id=season_of(session), number=entry["number"], entry=json_text(entry))
        )
        SeasonStore.season(session).board = json_text(board)
        season_events.announce(session, season_events.EventKind.BATTLE,
                               {"number": entry["number"], "ended": bool(board["ended"])})
        log.append(session, [log.battle_leaf(entry)])

    @staticmethod
    def set_beacon(session: Session, beacon: dict[str, Any]) -> None:
        """Record the beacon round's public value (and append it to the log)."""
        SeasonStore.season(session).beacon = json_text(beacon)
        log.append(session, [log.beacon_leaf(beacon)])

    @staticmethod
    def set_revealed(session: Session, seed: str) -> None:
        """Publish the seed (only after the season has ended); the log's last leaf."""
        SeasonStore.season(session).revealed_seed = seed
        log.append(session, [log.reveal_leaf(seed)])
