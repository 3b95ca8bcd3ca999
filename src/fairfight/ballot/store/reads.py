"""The reads every table request makes, each statement built once with the table's id (and
seat) as parameters.

Building a `select` and working out its cache key cost SQLAlchemy about twice what running it
costs on SQLite; a live stream polls its table's stamp twice a second, and a seat page or a
move reads the table, its seats and a token's digest. A statement built once is compiled once
and looked up by its own key on each run.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select

from fairfight.ballot.store.schema import SEATS, TABLES

__all__ = ["HOST_DIGEST", "SEAT_DIGEST", "TABLE_ROW", "TABLE_SEATS", "TABLE_STAMP"]

TABLE_ROW = select(TABLES).where(TABLES.c.id == bindparam("table_id"))
TABLE_SEATS = select(SEATS).where(SEATS.c.table_id == bindparam("table_id"))
TABLE_STAMP = select(
    TABLES.c.version, TABLES.c.revision, TABLES.c.status, TABLES.c.clock_bank
).where(TABLES.c.id == bindparam("table_id"))
"""What a live stream polls: the table's version and revision, and whether a clock runs."""
SEAT_DIGEST = select(SEATS.c.token_sha256).where(
    SEATS.c.table_id == bindparam("table_id"), SEATS.c.seat == bindparam("seat")
)
HOST_DIGEST = select(TABLES.c.host_sha256).where(TABLES.c.id == bindparam("table_id"))
