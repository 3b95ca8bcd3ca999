"""Baseline: the clash games store as the release before migrations made it."""

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
        "clash_games",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("scenario", sa.Text(), nullable=False),
        sa.Column("combat_logic_version", sa.Integer(), nullable=False),
        sa.Column("humans", sa.Text(), nullable=False),
        sa.Column("ai_players", sa.Text(), nullable=False),
        sa.Column("autopilot", sa.Boolean(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("clock_seconds", sa.Integer(), nullable=True),
        sa.Column("turn_started", sa.Float(), nullable=False),
        sa.Column("turns_played", sa.Integer(), nullable=False),
        sa.Column("at_screen", sa.String(length=40), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_index_once("ix_clash_games_client", "clash_games", ["client"])
    create_table_once(
        "clash_seats",
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("side", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("token_sha256"),
    )
    create_index_once("ix_clash_seats_game_id", "clash_seats", ["game_id"])
    create_table_once(
        "clash_turns",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("orders", sa.Text(), nullable=False),
        sa.Column("events", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "number"),
    )
    create_table_once(
        "clash_drafts",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("side", sa.String(length=40), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("orders", sa.Text(), nullable=False),
        sa.Column("committed", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "side"),
    )
