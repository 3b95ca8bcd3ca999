"""A running season kept in a database (SQLAlchemy 2; one SQLite file by default).

Public tables: `season` (header, commitment, map, current board, beacon, revealed seed),
`ledger` and `history`. The secret seed is never in them: a `SeedKeeper` holds it apart
(on SQLite a separate file readable by its owner only; on a server database a table in its
own schema). Every write runs in a `BEGIN IMMEDIATE` transaction, so a contribution and a
battle fought at the same moment are serialised. Opened for reading, the file is opened
read-only: no journal-mode switch, no side files, no write of any kind (`season_file` holds
what is particular to the SQLite file: checks, connections, journal modes, backups).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
    inspect,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from fairfight.conquest.season_file import (
    DAMAGED,
    check_season_file,
    connect_file_engine,
    database_errors,
    return_to_rollback_journal,
)
from fairfight.conquest.seeds import SeedFile, SeedKeeper, seed_file_for
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json

__all__ = [
    "EngineFileRow",
    "HistoryRow",
    "LedgerRow",
    "SQLITE_INTEGER_MAX",
    "SeasonRow",
    "SeasonStore",
    "check_stored_integer",
    "is_server_address",
    "load_column",
    "season_of",
]

SEASON_ROW_ID = 1
SQLITE_INTEGER_MAX = 2**63 - 1
"""The largest integer a database column holds; battle numbers and counts stay within it."""


class _Base(DeclarativeBase):
    pass


class SeasonRow(_Base):
    """The public side of a season: everything here may be published."""

    __tablename__ = "season"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    header: Mapped[str] = mapped_column(Text)
    commitment: Mapped[str] = mapped_column(String(64))
    map_data: Mapped[str] = mapped_column(Text)
    board: Mapped[str] = mapped_column(Text)
    beacon: Mapped[str | None] = mapped_column(Text, default=None)
    revealed_seed: Mapped[str | None] = mapped_column(String(64), default=None)


class LedgerRow(_Base):
    """One accepted contribution; refused ones are never written."""

    __tablename__ = "ledger"
    __table_args__ = (UniqueConstraint("season_id", "idempotency_key"),)
    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id"), primary_key=True, default=SEASON_ROW_ID
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    before_battle: Mapped[int] = mapped_column(Integer)
    faction: Mapped[str] = mapped_column(String(32))
    amount: Mapped[int] = mapped_column(Integer)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), default=None)

    def public(self) -> dict[str, Any]:
        """The ledger entry as published and replayed (the idempotency key stays private)."""
        return {
            "seq": self.seq,
            "before_battle": self.before_battle,
            "faction": self.faction,
            "amount": self.amount,
        }


class EngineFileRow(_Base):
    """One verifier file as it was when the season was created; the header names its SHA-256."""

    __tablename__ = "engine_file"
    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id"), primary_key=True, default=SEASON_ROW_ID
    )
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    content: Mapped[bytes] = mapped_column(LargeBinary)


class HistoryRow(_Base):
    """One history entry (a battle or a bonus round) as canonical JSON."""

    __tablename__ = "history"
    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id"), primary_key=True, default=SEASON_ROW_ID
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[str] = mapped_column(Text)


def _text(value: Any) -> str:
    return canonical_json(value).decode("utf-8")


SEASON_INFO_KEY = "fairfight.season_id"
"""Where a store's transaction notes which season of the database it works on."""


def season_of(session: Session) -> int:
    """The season a transaction works on (every query below is limited to it)."""
    return int(session.info.get(SEASON_INFO_KEY, SEASON_ROW_ID))


def load_column(place: str, text: Any) -> Any:
    """Parse a stored JSON column; damaged contents name `table.column` and what is wrong."""
    if not isinstance(text, str):
        raise InputError(DAMAGED, f"{place}: holds {type(text).__name__}, not JSON text")
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(DAMAGED, f"{place}: nested too deeply") from None
    except ValueError as error:
        raise InputError(DAMAGED, f"{place}: not valid JSON ({_first_line(error)})") from None


def _first_line(error: Exception) -> str:
    return " ".join(str(error).split())[:80]


def _entry_of(row: HistoryRow) -> dict[str, Any]:
    entry = load_column(f"history.entry (battle {row.number})", row.entry)
    if not isinstance(entry, dict) or entry.get("number") != row.number:
        raise InputError(DAMAGED, f"history.entry (battle {row.number}): not that battle's entry")
    return entry


def check_stored_integer(field: str, value: int, low: int = 1) -> int:
    """Refuse a battle number or count the database could not hold."""
    if not low <= value <= SQLITE_INTEGER_MAX:
        raise InputError(field, f"must be from {low} to {SQLITE_INTEGER_MAX}")
    return value


def is_server_address(address: Path | str) -> bool:
    """A server database's URL (`postgresql+psycopg://…#season`) rather than a season file."""
    return isinstance(address, str) and "://" in address and not address.startswith("sqlite")


def _check_tables(engine: Engine, path: Path) -> None:
    """Every table and column the store uses is there (a foreign SQLite file is refused)."""
    inspector = inspect(engine)
    present = set(inspector.get_table_names())
    wanted = _Base.metadata.tables
    if not present & set(wanted):
        raise InputError(str(path), "is an SQLite database but not a conquest season file")
    for name, table in wanted.items():
        if name not in present:
            raise InputError(DAMAGED, f"{name}: the table is missing")
        columns = {column["name"] for column in inspector.get_columns(name)}
        for column in table.columns:
            if column.name not in columns:
                raise InputError(DAMAGED, f"{name}.{column.name}: the column is missing")


class SeasonStore:
    """One season's database and its seed keeper; `create` or `open`, then `close`."""

    def __init__(
        self, path: Path | str, engine: Engine, seeds: SeedKeeper, *, write: bool,
        season_id: int = SEASON_ROW_ID, server: bool = False,
    ) -> None:
        self.path = path
        self.write = write
        self.season_id = season_id
        self.server = server
        self._engine = engine
        self._seeds = seeds
        self.reconnect_url = ""

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
    ) -> SeasonStore:
        """Write a new season file and its seed file; existing files are never overwritten.

        `engine_files` are the verifier files the header names; the export publishes them.
        Given a server database URL, adds a season to that database instead.
        """
        if is_server_address(path):
            from fairfight.conquest.server_store import create_server_season

            rows = {"header": _text(header), "commitment": commitment,
                    "map_data": _text(map_data), "board": _text(board)}
            return create_server_season(cls, str(path), rows, seed, engine_files)
        path = Path(path)
        seeds = SeedFile(seed_file_for(path))
        for target in (path, seeds.path):
            if target.exists() or target.is_symlink():
                raise InputError(str(target), "already exists; choose a new file for a new season")
        if not path.parent.is_dir():
            raise InputError(str(path), "its folder does not exist")
        if not os.access(path.parent, os.W_OK):
            raise InputError(
                str(path.parent), "the folder is read-only; a season cannot be made here"
            )
        seeds.keep(seed)
        store = cls(path, connect_file_engine(path, "rwc"), seeds, write=True)
        try:
            with database_errors(path):
                _Base.metadata.create_all(store._engine)
            with store.transaction() as session:
                session.add(
                    SeasonRow(
                        id=SEASON_ROW_ID,
                        header=_text(header),
                        commitment=commitment,
                        map_data=_text(map_data),
                        board=_text(board),
                    )
                )
                session.flush()  # the season row first: the engine files name it
                for name, content in sorted(engine_files.items()):
                    session.add(EngineFileRow(name=name, content=content))
        except BaseException:
            store.close()
            path.unlink(missing_ok=True)
            seeds.discard()
            raise
        return store

    @classmethod
    def open(cls, path: Path | str, *, write: bool = False, wal: bool = False) -> SeasonStore:
        """Open an existing season; read-only unless `write` (then refused if read-only).

        `path` is a season file, or a server database's `URL#season` (see `server_store`).
        `wal` (a long-running writer such as the web service) serves a file in WAL mode.
        """
        if is_server_address(path):
            from fairfight.conquest.server_store import open_server_season

            return open_server_season(cls, str(path), write=write)
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
        )
        try:
            with database_errors(path):
                _check_tables(store._engine, path)
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
    def ledger_by_key(session: Session, key: str) -> LedgerRow | None:
        """The contribution already recorded under an idempotency key, if any."""
        query = select(LedgerRow).where(
            LedgerRow.season_id == season_of(session), LedgerRow.idempotency_key == key
        )
        return session.scalars(query).first()

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
    def add_contribution(session: Session, entry: dict[str, Any], key: str | None) -> None:
        """Record an accepted contribution."""
        session.add(LedgerRow(season_id=season_of(session), idempotency_key=key, **entry))

    @staticmethod
    def add_battle(session: Session, entry: dict[str, Any], board: dict[str, Any]) -> None:
        """Record a fought entry and the board after it, in the same transaction."""
        session.add(
            HistoryRow(season_id=season_of(session), number=entry["number"], entry=_text(entry))
        )
        SeasonStore.season(session).board = _text(board)

    @staticmethod
    def set_beacon(session: Session, beacon: dict[str, Any]) -> None:
        """Record the beacon round's public value."""
        SeasonStore.season(session).beacon = _text(beacon)

    @staticmethod
    def set_revealed(session: Session, seed: str) -> None:
        """Publish the seed (only after the season has ended)."""
        SeasonStore.season(session).revealed_seed = seed
