"""The witness's memory: per log, the newest checkpoint it cosigned (SQLAlchemy 2).

One row per followed log: origin, size, root hash, the cosigned note (served to monitors) and
when it was last advanced. A SQLite file by default, PostgreSQL by URL. Every advance is one
`UPDATE ... WHERE size = <held> AND root = <held>`: of two requests that read the same held
checkpoint only one can move it (the other finds no row to change and is answered 409 with the
size now held), and a process killed mid-write leaves the old rows, since the database applies
a transaction whole or not at all. Advances that arrive while a commit is in flight are
committed together in the next transaction, one sync for the group (group_commit.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from fairfight.core.merkle import EMPTY_ROOT
from fairfight.core.store_engine import store_engine
from fairfight.witness.group_commit import GroupCommit
from fairfight.witness.protocol import Held

__all__ = ["LogState", "WitnessStore"]

_metadata = MetaData()
_logs = Table(
    "witness_logs", _metadata,
    Column("origin", String(1024), primary_key=True),
    Column("size", BigInteger, nullable=False),
    Column("root", LargeBinary(32), nullable=False),
    Column("checkpoint", Text, nullable=True),
    Column("updated", Float, nullable=True),
)

# Built once: constructing an expression costs more than running it on a small row.
_READ = select(_logs).where(_logs.c.origin == bindparam("at"))
_SWAP = (
    update(_logs)
    .where(_logs.c.origin == bindparam("at"), _logs.c.size == bindparam("held_size"),
           _logs.c.root == bindparam("held_root"))
    .values(size=bindparam("size"), root=bindparam("root"), checkpoint=bindparam("note"),
            updated=bindparam("now"))
)


@dataclass(frozen=True, slots=True)
class LogState:
    """One log's row: what the witness holds, the cosigned note and when it last moved."""

    origin: str
    held: Held
    checkpoint: str | None
    updated: float | None


class WitnessStore:
    """The witness's table behind one URL; each method is one short transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = store_engine(url, synced=True)  # cosign only what is on disk
        _metadata.create_all(self.engine)
        self.commits: GroupCommit[dict[str, Any]] = GroupCommit(self._swap_all)
        """Advances waiting for a commit in flight share the next one (group_commit.py)."""

    def follow(self, origins: Iterable[str]) -> None:
        """Give each followed log a row (size 0, the empty root) unless it has one, so every
        later change is an update that can compare and swap."""
        for origin in origins:
            try:
                with self.engine.begin() as connection:
                    if connection.execute(select(_logs.c.origin).where(
                            _logs.c.origin == origin)).first() is None:
                        connection.execute(insert(_logs).values(
                            origin=origin, size=0, root=EMPTY_ROOT))
            except IntegrityError:
                continue  # another process made it first: the row is what was wanted

    def state(self, origin: str) -> LogState | None:
        """The row of a followed log, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(_READ, {"at": origin}).first()
        if row is None:
            return None
        return LogState(row.origin, Held(int(row.size), bytes(row.root)), row.checkpoint,
                        row.updated)

    def cosigned_count(self, origins: Iterable[str]) -> int:
        """How many of these logs the witness has cosigned a checkpoint of (a log dropped
        from the configuration keeps its row, and is not counted)."""
        wanted = set(origins)
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(_logs.c.origin).where(_logs.c.checkpoint.is_not(None))).all()
        return sum(1 for row in rows if row.origin in wanted)

    def advance(self, origin: str, held: Held, new: Held, checkpoint: str, now: float) -> bool:
        """Move the log from `held` to `new` if it still holds `held`, committed before this
        returns; False if another request moved it first (nothing is then written)."""
        return self.commits.submit({
            "at": origin, "held_size": held.size, "held_root": held.root,
            "size": new.size, "root": new.root, "note": checkpoint, "now": now})

    def _swap_all(self, swaps: Sequence[dict[str, Any]]) -> list[bool]:
        """One transaction for a group of swaps, in order: whether each changed its row."""
        with self.engine.begin() as connection:
            return [connection.execute(_SWAP, swap).rowcount == 1 for swap in swaps]

    def close(self) -> None:
        """Release the pooled connections."""
        self.engine.dispose()
