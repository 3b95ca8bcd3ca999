"""The resignations table: a side that resigns ends the game (`clash_resignations`)."""

from __future__ import annotations

import sqlalchemy as sa

from fairfight.web.migrations.schema_ops import create_table_once

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `clash_resignations` (a store that took a resignation first has made it already)."""
    create_table_once(
        "clash_resignations",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("side", sa.String(length=40), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "side"),
    )
