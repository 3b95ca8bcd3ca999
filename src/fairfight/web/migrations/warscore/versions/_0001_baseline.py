"""Baseline: the war store as it was first made (wars, nations' links, rounds, sheets, the
moderator's log and the published results)."""

from __future__ import annotations

import sqlalchemy as sa

from fairfight.web.migrations.schema_ops import create_index_once, create_table_once

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create whatever of the baseline schema is missing."""
    _wars_and_rounds()
    _sheets_log_and_results()


def _wars_and_rounds() -> None:
    create_table_once(
        "warscore_wars",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("moderator_sha256", sa.String(length=64), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_index_once("warscore_wars_client", "warscore_wars", ["client", "created"])
    create_table_once(
        "warscore_nations",
        sa.Column("war_id", sa.String(length=32), nullable=False),
        sa.Column("nation", sa.Integer(), nullable=False),
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("war_id", "nation"),
    )
    create_table_once(
        "warscore_rounds",
        sa.Column("war_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("header", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=True),
        sa.Column("opened", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("war_id", "round"),
    )


def _sheets_log_and_results() -> None:
    create_table_once(
        "warscore_sheets",
        sa.Column("war_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("nation", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("submitted", sa.Float(), nullable=False),
        sa.Column("sealed", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("war_id", "round", "nation"),
    )
    create_table_once(
        "warscore_log",
        sa.Column("war_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("war_id", "seq"),
    )
    create_index_once("warscore_log_client", "warscore_log", ["client", "action", "at"])
    create_table_once(
        "warscore_results",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("war_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("digest"),
    )
