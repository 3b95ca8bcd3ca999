"""The title odds kept after each aired battle and the stakes of the next one
(`conquest.odds_history`)."""

from __future__ import annotations

import sqlalchemy as sa

from fairfight.web.migrations.schema_ops import create_table_once

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add `odds_history` and `battle_stakes` (a store that kept a forecast first made them)."""
    create_table_once(
        "odds_history",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("battle", sa.Integer(), nullable=False),
        sa.Column("forecast_seed", sa.String(length=300), nullable=False),
        sa.Column("seasons", sa.Integer(), nullable=False),
        sa.Column("forecast", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("season_id", "battle"),
    )
    create_table_once(
        "battle_stakes",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("battle", sa.Integer(), nullable=False),
        sa.Column("ledger_seq", sa.Integer(), nullable=False),
        sa.Column("stakes", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("season_id", "battle", "ledger_seq"),
    )
