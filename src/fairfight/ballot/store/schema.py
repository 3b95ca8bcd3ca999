"""The ballot store's two tables (a row per game table, a row per seat) in one MetaData.

Kept apart from the queries so the schema reads in one place: the ballot migrations
(`fairfight.web.migrations`, store `ballot`) start from a frozen copy of it, and a column added
here needs a revision of its own there.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text

__all__ = ["METADATA", "SEATS", "TABLES"]

METADATA = MetaData()
TABLES = Table(
    "ballot_tables",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("client", String(64), nullable=False),
    Column("listed", Integer, nullable=False),
    Column("status", String(12), nullable=False),
    Column("config", Text, nullable=False),
    Column("kinds", Text, nullable=False),
    Column("game_key", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("rules_version", String(120), nullable=False),
    Column("host_sha256", String(64), nullable=False),
    Column("clock_bank", Integer, nullable=False),
    Column("clock_increment", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("revision", Integer, nullable=False),
    Column("steps", Text, nullable=False),
    Column("digests", Text, nullable=False),
    Column("pending", Text, nullable=False),
    Column("asked_at", Float, nullable=False),
    Index("ballot_tables_lobby", "listed", "status", "created"),
)
"""One row a table; `steps` and `digests` are JSON lists, `pending` the people's answers to
the open question (never shown to anyone)."""
SEATS = Table(
    "ballot_seats",
    METADATA,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("token_sha256", String(64), nullable=True),
    Column("joined", Integer, nullable=False),
    Column("stand_in_from", Integer, nullable=True),
    Column("webhook", Text, nullable=True),
    Column("bank", Float, nullable=False),
)
