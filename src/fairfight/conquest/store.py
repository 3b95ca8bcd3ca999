"""A running season kept in one SQLite file (SQLAlchemy 2, WAL mode).

Tables: `season` (public header, commitment, map, current board, beacon, revealed seed),
`secret_seed` (the seed, read only to fight battles and to reveal), `ledger` and `history`.
Every write runs in a `BEGIN IMMEDIATE` transaction, so a contribution and a battle fought at
the same moment are serialised and the ledger always matches the battles that used it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, ForeignKey, Integer, String, Text, create_engine, event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json

__all__ = ["HistoryRow", "LedgerRow", "SeasonRow", "SeasonStore", "SecretSeedRow"]

SEASON_ROW_ID = 1
BUSY_TIMEOUT_SECONDS = 30


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


class SecretSeedRow(_Base):
    """The secret seed, apart from everything public; no export reads this table."""

    __tablename__ = "secret_seed"
    id: Mapped[int] = mapped_column(ForeignKey("season.id"), primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))


class LedgerRow(_Base):
    """One accepted contribution; refused ones are never written."""

    __tablename__ = "ledger"
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    before_battle: Mapped[int] = mapped_column(Integer)
    faction: Mapped[str] = mapped_column(String(32))
    amount: Mapped[int] = mapped_column(Integer)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), unique=True, default=None)

    def public(self) -> dict[str, Any]:
        """The ledger entry as published and replayed (the idempotency key stays private)."""
        return {
            "seq": self.seq,
            "before_battle": self.before_battle,
            "faction": self.faction,
            "amount": self.amount,
        }


class HistoryRow(_Base):
    """One history entry (a battle or a bonus round) as canonical JSON."""

    __tablename__ = "history"
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[str] = mapped_column(Text)


def _text(value: Any) -> str:
    return canonical_json(value).decode("utf-8")


def _connect_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": BUSY_TIMEOUT_SECONDS})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy issues BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


class SeasonStore:
    """One season's database; open with `create` or `open`, close with `close`."""

    def __init__(self, path: Path, engine: Engine) -> None:
        self.path = path
        self._engine = engine

    @classmethod
    def create(
        cls,
        path: Path,
        header: dict[str, Any],
        commitment: str,
        map_data: dict[str, Any],
        board: dict[str, Any],
        seed: str,
    ) -> SeasonStore:
        """Write a new season file; an existing file is never overwritten."""
        if path.exists():
            raise InputError(str(path), "already exists; choose a new file for a new season")
        if not path.parent.is_dir():
            raise InputError(str(path), "its folder does not exist")
        store = cls(path, _connect_engine(path))
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
            session.flush()
            session.add(SecretSeedRow(id=SEASON_ROW_ID, seed=seed))
        return store

    @classmethod
    def open(cls, path: Path) -> SeasonStore:
        """Open an existing season file, refusing anything that is not one."""
        if not path.is_file():
            raise InputError(str(path), "no season file here; create one with `conquest new`")
        store = cls(path, _connect_engine(path))
        try:
            with store.transaction() as session:
                session.get(SeasonRow, SEASON_ROW_ID)
        except Exception as error:  # any database error means this is not a season file
            store.close()
            raise InputError(str(path), "is not a conquest season database") from error
        return store

    def close(self) -> None:
        """Release the file (so it can be copied, digested or deleted)."""
        self._engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A write-locked transaction: committed on success, rolled back on any error."""
        with Session(self._engine, expire_on_commit=False) as session, session.begin():
            yield session

    # ------------------------------------------------------------ reads

    @staticmethod
    def season(session: Session) -> SeasonRow:
        """The season row (there is exactly one)."""
        row = session.get(SeasonRow, SEASON_ROW_ID)
        if row is None:
            raise InputError("season", "the database holds no season")
        return row

    @staticmethod
    def secret_seed(session: Session) -> str:
        """The secret seed: only battles and the reveal read it."""
        row = session.get(SecretSeedRow, SEASON_ROW_ID)
        if row is None:
            raise InputError("season", "the database holds no seed")
        return row.seed

    @staticmethod
    def ledger(session: Session) -> list[LedgerRow]:
        """Every accepted contribution, in seq order."""
        return list(session.scalars(select(LedgerRow).order_by(LedgerRow.seq)))

    @staticmethod
    def ledger_for(session: Session, battle: int) -> list[LedgerRow]:
        """The contributions dated to one battle, in seq order."""
        query = select(LedgerRow).where(LedgerRow.before_battle == battle)
        return list(session.scalars(query.order_by(LedgerRow.seq)))

    @staticmethod
    def ledger_by_key(session: Session, key: str) -> LedgerRow | None:
        """The contribution already recorded under an idempotency key, if any."""
        return session.scalars(select(LedgerRow).where(LedgerRow.idempotency_key == key)).first()

    @staticmethod
    def history(session: Session) -> list[dict[str, Any]]:
        """Every history entry, in battle order."""
        rows = session.scalars(select(HistoryRow).order_by(HistoryRow.number))
        return [json.loads(row.entry) for row in rows]

    @staticmethod
    def history_entry(session: Session, number: int) -> dict[str, Any] | None:
        """One history entry, or None when that battle has not been fought."""
        row = session.get(HistoryRow, number)
        return None if row is None else dict(json.loads(row.entry))

    # ------------------------------------------------------------ writes

    @staticmethod
    def add_contribution(session: Session, entry: dict[str, Any], key: str | None) -> None:
        """Record an accepted contribution."""
        session.add(LedgerRow(idempotency_key=key, **entry))

    @staticmethod
    def add_battle(session: Session, entry: dict[str, Any], board: dict[str, Any]) -> None:
        """Record a fought entry and the board after it, in the same transaction."""
        session.add(HistoryRow(number=entry["number"], entry=_text(entry)))
        SeasonStore.season(session).board = _text(board)

    @staticmethod
    def set_beacon(session: Session, beacon: dict[str, Any]) -> None:
        """Record the beacon round's public value."""
        SeasonStore.season(session).beacon = _text(beacon)

    @staticmethod
    def set_revealed(session: Session, seed: str) -> None:
        """Publish the seed (only after the season has ended)."""
        SeasonStore.season(session).revealed_seed = seed
