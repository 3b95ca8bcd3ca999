"""Baseline: the ballot tables store as the release before migrations made it."""

from __future__ import annotations

import sqlalchemy as sa

from fairfight.web.migrations.schema_ops import create_index_once, create_table_once

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create whatever of the baseline schema is missing."""
    create_table_once(
        "ballot_tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("listed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("kinds", sa.Text(), nullable=False),
        sa.Column("game_key", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("rules_version", sa.String(length=120), nullable=False),
        sa.Column("host_sha256", sa.String(length=64), nullable=False),
        sa.Column("clock_bank", sa.Integer(), nullable=False),
        sa.Column("clock_increment", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("digests", sa.Text(), nullable=False),
        sa.Column("pending", sa.Text(), nullable=False),
        sa.Column("asked_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_index_once("ballot_tables_lobby", "ballot_tables", ["listed", "status", "created"])
    create_table_once(
        "ballot_seats",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("token_sha256", sa.String(length=64), nullable=True),
        sa.Column("joined", sa.Integer(), nullable=False),
        sa.Column("stand_in_from", sa.Integer(), nullable=True),
        sa.Column("webhook", sa.Text(), nullable=True),
        sa.Column("bank", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
