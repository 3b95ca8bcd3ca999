"""The witnesses' cosignatures of the season log's checkpoints (`conquest.store.cosignatures`)."""

from __future__ import annotations

import sqlalchemy as sa

from fairfight.web.migrations.schema_ops import create_table_once

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `log_cosignature` (a store that stored a cosignature first made it)."""
    create_table_once(
        "log_cosignature",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("origin", sa.String(length=300), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("witness", sa.String(length=100), nullable=False),
        sa.Column("timestamp", sa.BigInteger(), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("season_id", "origin", "size", "witness"),
    )
