"""The table of claimed idempotency keys: which request a key is bound to, and its answer.

Its own metadata, so the season tables never depend on the web; created on first use in a
database made by `fairfight conquest new`.
"""

from __future__ import annotations

from sqlalchemy import Engine, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

__all__ = ["RequestKeyRow", "create_key_table", "create_key_table_on"]


class _KeysBase(DeclarativeBase):
    pass


class RequestKeyRow(_KeysBase):
    """A claimed idempotency key, the request it is bound to and the response it got."""

    __tablename__ = "web_request_keys"
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    season_id: Mapped[int] = mapped_column(Integer)
    method: Mapped[str] = mapped_column(String(10))
    path: Mapped[str] = mapped_column(String(300))
    body_sha256: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    response: Mapped[str] = mapped_column(Text)
    ledger_seq: Mapped[int] = mapped_column(Integer)


def create_key_table(session: Session) -> None:
    """Create the key table in a database that does not have it yet (a `conquest new` file)."""
    _KeysBase.metadata.create_all(session.connection())


def create_key_table_on(engine: Engine) -> None:
    """Create the key table through an engine (a server database)."""
    _KeysBase.metadata.create_all(engine)
