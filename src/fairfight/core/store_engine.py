"""The SQLAlchemy engine behind a store's URL: SQLite served in WAL, any other database as is.

The clash game store and the witness store open their URLs the same way: an in-memory SQLite
database shared by every thread through one connection, a SQLite file that waits for a busy
lock instead of failing and is served in WAL (`core.journal`), and any other URL (PostgreSQL)
with connections checked before use. A store whose answers promise durability (a witness
may cosign only what it has synced) asks for `synced`: WAL's default would not sync the log
on each commit.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

from fairfight.core.journal import BUSY_TIMEOUT_SECONDS, try_journal_mode

__all__ = ["store_engine"]


def store_engine(url: str, *, synced: bool = False) -> Engine:
    """An engine for the URL (see the module's docstring); `synced` sets SQLite's
    `synchronous=FULL`, so every commit is on disk before it returns."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    in_memory = parsed.database in (None, "", ":memory:")
    if in_memory:
        engine = create_engine(url, poolclass=StaticPool,
                               connect_args={"check_same_thread": False})
    else:
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS,
                                                  "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_SECONDS * 1000)}")
        cursor.close()
        if not in_memory:
            try_journal_mode(connection, "WAL")  # served in WAL; at rest, see `journal`
            if synced:
                cursor = connection.cursor()
                cursor.execute("PRAGMA synchronous=FULL")
                cursor.close()

    return engine
