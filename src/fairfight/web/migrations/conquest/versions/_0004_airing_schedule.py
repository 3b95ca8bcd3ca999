"""The airing schedule and its slots (`conquest.schedule_store`)."""

from __future__ import annotations

import sqlalchemy as sa

from fairfight.web.migrations.schema_ops import create_table_once

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `airing_schedule` and `airing_slot` (a store that set a schedule first made them)."""
    create_table_once(
        "airing_schedule",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("start", sa.BigInteger(), nullable=False),
        sa.Column("minute_of_day", sa.Integer(), nullable=True),
        sa.Column("interval_seconds", sa.Integer(), nullable=True),
        sa.Column("paused", sa.Integer(), nullable=False),
        sa.Column("last_slot", sa.Integer(), nullable=False),
        sa.Column("lease_holder", sa.String(length=100), nullable=True),
        sa.Column("lease_until_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("season_id"),
    )
    create_table_once(
        "airing_slot",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=8), nullable=False),
        sa.Column("battle", sa.Integer(), nullable=True),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("recorded", sa.BigInteger(), nullable=False),
        sa.Column("holder", sa.String(length=100), nullable=True),
        sa.PrimaryKeyConstraint("season_id", "version", "slot"),
    )
