"""The war store's tables in one MetaData: wars, their nations' links, rounds, sheets, the
moderator's log and the published results.

Kept apart from the queries so the schema reads in one place: the warscore migrations
(`fairfight.web.migrations`, store `warscore`) start from a frozen copy of it, and a column
added here needs a revision of its own there.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, MetaData, String, Table, Text

__all__ = ["LOG", "METADATA", "NATIONS", "RESULTS", "ROUNDS", "SHEETS", "WARS"]

METADATA = MetaData()
WARS = Table(
    "warscore_wars",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("client", String(64), nullable=False),
    Column("config", Text, nullable=False),
    Column("moderator_sha256", String(64), nullable=False),
    Column("revision", Integer, nullable=False),
    Index("warscore_wars_client", "client", "created"),
)
"""One row a war; `config` is its JSON (name, moderator, nations with sides, years)."""
NATIONS = Table(
    "warscore_nations",
    METADATA,
    Column("war_id", String(32), primary_key=True),
    Column("nation", Integer, primary_key=True),
    Column("token_sha256", String(64), nullable=False),
)
"""Only the SHA-256 of each nation's secret link."""
ROUNDS = Table(
    "warscore_rounds",
    METADATA,
    Column("war_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("header", Text, nullable=False),
    Column("status", String(12), nullable=False),
    Column("digest", String(64), nullable=True),
    Column("opened", Float, nullable=False),
)
"""A battle or a year to settle; `header` is its JSON, `digest` its published result."""
SHEETS = Table(
    "warscore_sheets",
    METADATA,
    Column("war_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("nation", Integer, primary_key=True),
    Column("body", Text, nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("state", String(12), nullable=False),
    Column("submitted", Float, nullable=False),
    Column("sealed", Float, nullable=True),
)
"""A side's sheet for a round, as sent; never served to the other side before the reveal."""
LOG = Table(
    "warscore_log",
    METADATA,
    Column("war_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("at", Float, nullable=False),
    Column("client", String(64), nullable=False),
    Column("actor", Text, nullable=False),
    Column("action", String(16), nullable=False),
    Column("detail", Text, nullable=False),
    Index("warscore_log_client", "client", "action", "at"),
)
"""Everything done to a war, in order: submissions, seals, returns, approvals, closes."""
RESULTS = Table(
    "warscore_results",
    METADATA,
    Column("digest", String(64), primary_key=True),
    Column("war_id", String(32), nullable=False),
    Column("round", Integer, nullable=False),
    Column("document", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""A published result: the canonical JSON whose SHA-256 is its digest."""
