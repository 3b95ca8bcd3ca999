"""Operations the baseline revisions use: create a table or index unless it is there.

A database made before migrations existed already holds some or all of the baseline's
tables (a season file made before the key table holds fewer); the baseline creates only
what is missing, so it brings any such database, or an empty one, to the same schema.
"""

from __future__ import annotations

from typing import Any

from alembic import op
from sqlalchemy import inspect

__all__ = ["create_index_once", "create_table_once"]


def create_table_once(name: str, *elements: Any, schema: str | None = None) -> None:
    """`op.create_table`, unless the table exists."""
    if not inspect(op.get_bind()).has_table(name, schema=schema):
        op.create_table(name, *elements, schema=schema)


def create_index_once(name: str, table: str, columns: list[str]) -> None:
    """`op.create_index` (not unique), unless the table has an index of that name."""
    present = {index["name"] for index in inspect(op.get_bind()).get_indexes(table)}
    if name not in present:
        op.create_index(name, table, columns, unique=False)
