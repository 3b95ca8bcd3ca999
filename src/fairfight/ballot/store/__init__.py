"""Ballot tables kept in the service's database (an SQLite file of its own, or PostgreSQL).

A table is a row: its config, the seats' kinds, the dice key (secret until the end), the key's
commitment, every step's answers and the people's answers to the question now open. Seats are
rows of their own holding only the SHA-256 of each seat's token. The row is the truth: any
process rebuilds a game from it (playing on from the game it kept, `kept_games`, only when that
leads exactly to the row), and every write is one transaction that checks the row's revision,
so two tabs (or two processes) cannot both answer.

Six modules: `schema` (the two tables, one MetaData), `rows` (what a stored table reads as),
`connection` (opening the database), `kept_games` (the games a process keeps), `reads` (the
statements read most often, built once) and `table_store` (the queries); the public names are
re-exported here, where callers import them.
"""

from __future__ import annotations

from fairfight.ballot.store.rows import SeatRole, SeatRow, TableRow, TableStatus
from fairfight.ballot.store.schema import METADATA, SEATS, TABLES
from fairfight.ballot.store.table_store import (
    ALREADY_ANSWERED,
    OPEN_TABLES_PER_CLIENT,
    RULES_VERSION,
    UNSTARTED_TABLE_SECONDS,
    WRITE_ATTEMPTS,
    BallotStore,
    Clock,
    StaleAnswer,
    invite_token,
)
from fairfight.core.tokens import token_digest

__all__ = [
    "ALREADY_ANSWERED",
    "BallotStore",
    "Clock",
    "METADATA",
    "OPEN_TABLES_PER_CLIENT",
    "RULES_VERSION",
    "SEATS",
    "SeatRole",
    "SeatRow",
    "StaleAnswer",
    "TABLES",
    "TableRow",
    "TableStatus",
    "UNSTARTED_TABLE_SECONDS",
    "WRITE_ATTEMPTS",
    "invite_token",
    "token_digest",
]
