"""Baseline: the conquest store as the release before migrations made it.

Public tables (every dialect): season, ledger, engine_file, history, and the later tables
(contribution_key, refund_owed, operator_session, log_leaf, log_head). On PostgreSQL, the
secret schema with the seeds and the season keys. Each is created only if missing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fairfight.web.migrations.schema_ops import create_index_once, create_table_once

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

SECRET_SCHEMA = "fairfight_secret"


def upgrade() -> None:
    """Create whatever of the baseline schema is missing."""
    create_table_once(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("header", sa.Text(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("map_data", sa.Text(), nullable=False),
        sa.Column("board", sa.Text(), nullable=False),
        sa.Column("beacon", sa.Text(), nullable=True),
        sa.Column("revealed_seed", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    create_table_once(
        "engine_file",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["season.id"]),
        sa.PrimaryKeyConstraint("season_id", "name"),
    )
    create_table_once(
        "history",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("entry", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["season.id"]),
        sa.PrimaryKeyConstraint("season_id", "number"),
    )
    create_table_once(
        "ledger",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("before_battle", sa.Integer(), nullable=False),
        sa.Column("faction", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["season.id"]),
        sa.PrimaryKeyConstraint("season_id", "seq"),
    )
    create_table_once(
        "contribution_key",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("method", sa.String(length=10), nullable=False),
        sa.Column("path", sa.String(length=300), nullable=False),
        sa.Column("body_sha256", sa.String(length=64), nullable=False),
        sa.Column("ledger_seq", sa.Integer(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("season_id", "key"),
    )
    create_table_once(
        "refund_owed",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=200), nullable=False),
        sa.Column("faction", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("before_battle", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("body_sha256", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("season_id", "event_id"),
    )
    create_table_once(
        "operator_session",
        sa.Column("session_sha256", sa.String(length=64), nullable=False),
        sa.Column("expires", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("session_sha256"),
    )
    create_table_once(
        "log_leaf",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("leaf", sa.Text(), nullable=False),
        sa.Column("leaf_hash", sa.String(length=64), nullable=False),
        sa.Column("ref", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("season_id", "position"),
    )
    create_index_once("ix_log_leaf_ref", "log_leaf", ["ref"])
    create_table_once(
        "log_head",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("root", sa.String(length=64), nullable=False),
        sa.Column("time", sa.String(length=32), nullable=False),
        sa.Column("signature", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("season_id", "size"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"CREATE SCHEMA IF NOT EXISTS {SECRET_SCHEMA}")
        create_table_once(
            "secret_seed",
            sa.Column("season_id", sa.Integer(), nullable=False),
            sa.Column("seed", sa.String(length=64), nullable=False),
            sa.PrimaryKeyConstraint("season_id"),
            schema=SECRET_SCHEMA,
        )
        create_table_once(
            "season_key",
            sa.Column("season_id", sa.Integer(), nullable=False),
            sa.Column("private_key", sa.String(length=64), nullable=False),
            sa.PrimaryKeyConstraint("season_id"),
            schema=SECRET_SCHEMA,
        )
