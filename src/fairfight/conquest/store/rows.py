"""The season's tables as SQLAlchemy rows, and the few helpers every query over them needs.

This is the bottom layer of the season's persistence: it knows the tables and their columns,
nothing about files, servers or the rules. `season_file` and `server_store` connect to a
database holding these tables, `store.SeasonStore` composes the two, and `ledger` records
contributions through the store.

Two metadata: `SEASON_TABLES` (what every season file must hold; an open refuses a file
without them) and `KEY_TABLES` (tables added later, each created on first need so files made
before it existed still open, `ensure_key_table`: the claimed idempotency keys, the refunds
owed for paid contributions the rules refused, the operator's console sessions, the
season log's leaves, signed heads and witnesses' cosignatures, and the announced events the
live pages stream).
"""

from __future__ import annotations

import json
import weakref
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json

__all__ = [
    "AiringScheduleRow",
    "AiringSlotRow",
    "BattleStakesRow",
    "ContributionKeyRow",
    "DAMAGED",
    "EngineFileRow",
    "EventRow",
    "HistoryRow",
    "KEY_TABLES",
    "LedgerRow",
    "LogCosignatureRow",
    "LogHeadRow",
    "LogLeafRow",
    "OLD_KEY_TABLE",
    "OddsHistoryRow",
    "OperatorSessionRow",
    "RefundRow",
    "SEASON_INFO_KEY",
    "SEASON_ROW_ID",
    "SEASON_TABLES",
    "SQLITE_INTEGER_MAX",
    "SeasonRow",
    "check_stored_integer",
    "ensure_key_table",
    "has_table",
    "json_text",
    "later_tables_held",
    "load_column",
    "season_of",
    "table_of",
]

DAMAGED = "damaged season file"
"""The field every damaged-contents error names: `damaged season file: <table>.<column>: ...`."""
SEASON_ROW_ID = 1
"""The id of the one season a season file holds (a server database numbers them from 1)."""
SQLITE_INTEGER_MAX = 2**63 - 1
"""The largest integer a database column holds; battle numbers and counts stay within it."""
SEASON_INFO_KEY = "fairfight.season_id"
"""Where a store's transaction notes which season of the database it works on."""


class _SeasonBase(DeclarativeBase):
    pass


class _KeysBase(DeclarativeBase):
    pass


SEASON_TABLES: MetaData = _SeasonBase.metadata
KEY_TABLES: MetaData = _KeysBase.metadata


class SeasonRow(_SeasonBase):
    """The public side of a season: everything here may be published."""

    __tablename__ = "season"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    header: Mapped[str] = mapped_column(Text)
    commitment: Mapped[str] = mapped_column(String(64))
    map_data: Mapped[str] = mapped_column(Text)
    board: Mapped[str] = mapped_column(Text)
    beacon: Mapped[str | None] = mapped_column(Text, default=None)
    revealed_seed: Mapped[str | None] = mapped_column(String(64), default=None)


class LedgerRow(_SeasonBase):
    """One accepted contribution; refused ones are never written.

    Files made before the key table existed also have an `idempotency_key` column here; it
    is no longer read or written (a key is claimed in `ContributionKeyRow`).
    """

    __tablename__ = "ledger"
    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id"), primary_key=True, default=SEASON_ROW_ID
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    before_battle: Mapped[int] = mapped_column(Integer)
    faction: Mapped[str] = mapped_column(String(32))
    amount: Mapped[int] = mapped_column(Integer)

    def public(self) -> dict[str, Any]:
        """The ledger entry as published and replayed."""
        return {
            "seq": self.seq,
            "before_battle": self.before_battle,
            "faction": self.faction,
            "amount": self.amount,
        }


class EngineFileRow(_SeasonBase):
    """One verifier file as it was when the season was created; the header names its SHA-256."""

    __tablename__ = "engine_file"
    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id"), primary_key=True, default=SEASON_ROW_ID
    )
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    content: Mapped[bytes] = mapped_column(LargeBinary)


class HistoryRow(_SeasonBase):
    """One history entry (a battle or a bonus round) as canonical JSON."""

    __tablename__ = "history"
    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id"), primary_key=True, default=SEASON_ROW_ID
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[str] = mapped_column(Text)


class ContributionKeyRow(_KeysBase):
    """A claimed idempotency key of one season: the request it is bound to and its answer."""

    __tablename__ = "contribution_key"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    method: Mapped[str] = mapped_column(String(10))
    path: Mapped[str] = mapped_column(String(300))
    body_sha256: Mapped[str] = mapped_column(String(64))
    ledger_seq: Mapped[int] = mapped_column(Integer)
    answer: Mapped[str] = mapped_column(Text)


class RefundRow(_KeysBase):
    """A paid contribution the pool rules refused: the money is owed back to the payer.

    Keyed by the payment event, so a redelivered event finds its refusal instead of adding a
    second row (the primary key holds across processes). No payer data is kept: the event id
    is how the provider finds the payment to refund.
    """

    __tablename__ = "refund_owed"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    faction: Mapped[str] = mapped_column(String(32))
    amount: Mapped[int] = mapped_column(Integer)
    before_battle: Mapped[int] = mapped_column(Integer)
    field: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    body_sha256: Mapped[str] = mapped_column(String(64))

    def public(self) -> dict[str, Any]:
        """What may be published: amount, faction, the refusal and the event id."""
        return {"event_id": self.event_id, "faction": self.faction, "amount": self.amount,
                "before_battle": self.before_battle, "field": self.field,
                "reason": self.reason}


class OperatorSessionRow(_KeysBase):
    """A signed-in operator console: the SHA-256 of its cookie and when it expires.

    The cookie itself is never stored, so a copy of the database signs nobody in; every
    service process reads the same rows.
    """

    __tablename__ = "operator_session"
    session_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires: Mapped[int] = mapped_column(Integer)


class LogLeafRow(_KeysBase):
    """One leaf of the season log: its canonical JSON and its RFC 9162 leaf hash.

    `ref` is what the leaf is found by: a contribution's ledger seq (its receipt is found by
    its entry), a battle's number (its episode carries the head published with it).
    """

    __tablename__ = "log_leaf"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    leaf: Mapped[str] = mapped_column(Text)
    leaf_hash: Mapped[str] = mapped_column(String(64))
    ref: Mapped[int | None] = mapped_column(Integer, default=None, index=True)


class LogHeadRow(_KeysBase):
    """One signed head of the season log, by the tree size it covers (one per append)."""

    __tablename__ = "log_head"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    size: Mapped[int] = mapped_column(Integer, primary_key=True)
    root: Mapped[str] = mapped_column(String(64))
    time: Mapped[str] = mapped_column(String(32))
    signature: Mapped[str] = mapped_column(String(128))

    def public(self, season: str) -> dict[str, Any]:
        """The signed head as published: season (the commitment), size, root, time, signature."""
        return {"season": season, "size": self.size, "root": self.root, "time": self.time,
                "signature": self.signature}


class LogCosignatureRow(_KeysBase):
    """A witness's cosignature (C2SP cosignature/v1) of the checkpoint of one head under one
    origin: the note signature line, checked under the witness's configured key when stored."""

    __tablename__ = "log_cosignature"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    origin: Mapped[str] = mapped_column(String(300), primary_key=True)
    size: Mapped[int] = mapped_column(Integer, primary_key=True)
    witness: Mapped[str] = mapped_column(String(100), primary_key=True)
    timestamp: Mapped[int] = mapped_column(BigInteger)
    line: Mapped[str] = mapped_column(Text)


OLD_KEY_TABLE = "web_request_keys"
"""Where the web alone kept its keys (one key per database) before `contribution_key`."""


_KEY_TABLES_HELD: weakref.WeakSet[Engine] = weakref.WeakSet()
"""Engines whose database was seen holding every later table, made by a committed
transaction (a table is never dropped): their writers skip the catalogue query."""
_MADE_KEY_TABLES = "fairfight.made_key_tables"
"""Marks a connection that created later tables itself: what it sees may yet roll back."""


def later_tables_held(engine: Engine) -> bool:
    """Whether `engine`'s database was seen holding every later table (`ensure_key_table`):
    then neither a writer nor a reader needs to look them up again."""
    return engine in _KEY_TABLES_HELD


def ensure_key_table(connection: Connection) -> None:
    """Create the later tables that are missing, taking over the keys of the older web table
    when the key table itself is new.

    The old table is left in place (a server process of the older version may still read
    it); its keys are copied once, when the new table is made.
    """
    if later_tables_held(connection.engine):
        return
    tables = set(inspect(connection).get_table_names())
    missing = [table for table in KEY_TABLES.sorted_tables if table.name not in tables]
    if not missing:
        if not connection.info.get(_MADE_KEY_TABLES):  # none of them is this one's own yet
            _KEY_TABLES_HELD.add(connection.engine)
        return
    connection.info[_MADE_KEY_TABLES] = True
    KEY_TABLES.create_all(connection, tables=missing)
    if ContributionKeyRow.__tablename__ not in tables and OLD_KEY_TABLE in tables:
        connection.execute(text(
            f"INSERT INTO {ContributionKeyRow.__tablename__} "
            "(season_id, key, method, path, body_sha256, ledger_seq, answer) "
            f"SELECT season_id, key, method, path, body_sha256, ledger_seq, response "
            f"FROM {OLD_KEY_TABLE}"
        ))


def has_table(connection: Connection, name: str) -> bool:
    """Whether a later table exists yet (a read-only reader cannot create it). Once the
    database was seen holding every later table (`later_tables_held`), no catalogue query:
    a season page's snapshot asked for the log's head table on every new version."""
    if name in KEY_TABLES.tables and later_tables_held(connection.engine):
        return True
    return name in set(inspect(connection).get_table_names())


def json_text(value: Any) -> str:
    """A JSON column's contents: canonical JSON, as text."""
    return canonical_json(value).decode("utf-8")


def table_of(row_class: type[DeclarativeBase]) -> Table:
    """A row class's table, for a multi-row Core INSERT (no ORM object built per row)."""
    table = row_class.__table__
    assert isinstance(table, Table)
    return table


def season_of(session: Session) -> int:
    """The season a transaction works on (every query is limited to it)."""
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


def check_stored_integer(field: str, value: int, low: int = 1) -> int:
    """Refuse a battle number or count the database could not hold."""
    if not low <= value <= SQLITE_INTEGER_MAX:
        raise InputError(field, f"must be from {low} to {SQLITE_INTEGER_MAX}")
    return value


# ---------------------------------------------------------------- title odds over time
# The forecasts kept after each aired battle and the stakes of the battle that came next
# (`fairfight.conquest.store.odds_history` reads and writes them). Both are keyed by season and
# battle, so a second process that computed the same one inserts nothing.


class OddsHistoryRow(_KeysBase):
    """The title odds as one battle left the board: `battle` battles fought (0 = before
    battle 1), the forecast as `Forecast.to_json` (seed, seasons, every faction's counts,
    chance and interval)."""

    __tablename__ = "odds_history"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    battle: Mapped[int] = mapped_column(Integer, primary_key=True)
    forecast_seed: Mapped[str] = mapped_column(String(300))
    seasons: Mapped[int] = mapped_column(Integer)
    forecast: Mapped[str] = mapped_column(Text)


class BattleStakesRow(_KeysBase):
    """The stakes of battle `battle`, worked out before it aired from the public board with
    the ledger up to `ledger_seq` (pools and rebellion funds change them): the pairings
    considered and, for each, both outcomes' forecasts (`Stakes.to_json`)."""

    __tablename__ = "battle_stakes"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    battle: Mapped[int] = mapped_column(Integer, primary_key=True)
    ledger_seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    stakes: Mapped[str] = mapped_column(Text)


# ------------------------------------------------------------ live events (a later table)


class EventRow(_KeysBase):
    """One announced change of a season (a battle aired, the ledger moved, a head signed).

    Written in the transaction that makes the change, under the season's write lock, so ids
    are consecutive per season and in commit order; `conquest.season_events` writes and
    reads them, and every service process streams them to its clients.
    """

    __tablename__ = "season_event"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[str] = mapped_column(Text)


# ------------------------------------------------------------ airing schedule (later tables)


class AiringScheduleRow(_KeysBase):
    """A season's airing schedule (`fairfight.conquest.rules.schedule`), where it stands, and the
    lease of the process airing it.

    `version` grows on every new schedule, so the slots of an old one never collide with the
    new one's. `lease_holder` airs until `lease_until_ms`; another process takes over only by
    a conditional UPDATE once it has run out.
    """

    __tablename__ = "airing_schedule"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    start: Mapped[int] = mapped_column(BigInteger)
    minute_of_day: Mapped[int | None] = mapped_column(Integer, default=None)
    interval_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    paused: Mapped[int] = mapped_column(Integer, default=0)
    last_slot: Mapped[int] = mapped_column(Integer, default=0)
    lease_holder: Mapped[str | None] = mapped_column(String(100), default=None)
    lease_until_ms: Mapped[int] = mapped_column(BigInteger, default=0)


class AiringSlotRow(_KeysBase):
    """One slot dealt with: aired (with its battle, and the note of missed slots) or skipped.

    The primary key is what makes a slot air once: the row is written in the transaction that
    records the battle, so a second airing of the same slot cannot commit.
    """

    __tablename__ = "airing_slot"
    season_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    outcome: Mapped[str] = mapped_column(String(8))
    battle: Mapped[int | None] = mapped_column(Integer, default=None)
    missed: Mapped[int] = mapped_column(Integer, default=0)
    note: Mapped[str | None] = mapped_column(Text, default=None)
    recorded: Mapped[int] = mapped_column(BigInteger)
    holder: Mapped[str | None] = mapped_column(String(100), default=None)
