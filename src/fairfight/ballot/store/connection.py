"""Opening and closing the ballot database: the SQLite pool and journal rules, apart from the
queries, which are the same on SQLite and PostgreSQL.

An in-memory database is one shared connection (else every connection would see a database of
its own); a SQLite file is served in WAL mode (readers never wait for a writer) and left in the
rollback journal when the store closes (see `fairfight.core.journal`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool

from fairfight.core.journal import return_to_rollback_journal, try_journal_mode

__all__ = ["close_engine", "open_engine"]


def _serve_in_wal(connection: Any, _record: Any) -> None:
    """A ballot file is served in WAL mode (readers never wait for a writer)."""
    try_journal_mode(connection, "WAL")


def open_engine(url: str) -> Engine:
    """The engine of the ballot database at `url`, with the SQLite options it needs."""
    options: dict[str, Any] = {}
    if url in ("sqlite://", "sqlite:///:memory:"):
        options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    elif url.startswith("sqlite"):
        options = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    engine = create_engine(url, **options)
    if "poolclass" not in options and url.startswith("sqlite"):
        event.listen(engine, "connect", _serve_in_wal)
    return engine


def close_engine(engine: Engine, url: str) -> None:
    """Release the connections; a SQLite file no one else has open is left in the rollback
    journal."""
    engine.dispose()
    database = make_url(url).database
    if url.startswith("sqlite") and database and database != ":memory:":
        return_to_rollback_journal(Path(database))
