"""Witnesses' cosignatures of the season log's checkpoints, stored per head and origin.

A cosignature line (C2SP cosignature/v1) is kept for the checkpoint of one head (its tree
size) under one origin: the line is appended to that checkpoint's note when served, and the
largest size a witness cosigned is where the next consistency proof sent to it starts.
Checking a line is the caller's work (the witness's key is configuration, not data); nothing
here trusts or distrusts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fairfight.conquest.store.rows import (
    LogCosignatureRow,
    ensure_key_table,
    has_table,
    season_of,
)

__all__ = ["Cosigned", "RECENT_HEADS_LOOKED_AT", "last_cosigned", "lines", "newest_cosigned",
           "record"]

RECENT_HEADS_LOOKED_AT = 256
"""How many of the newest cosigned heads (per witness) a quorum is looked for among: a quorum
that only an older head has is not worth a scan of the whole season."""


@dataclass(frozen=True, slots=True)
class Cosigned:
    """The checkpoint of `size` leaves and the witnesses (name: timestamp) that cosigned it."""

    size: int
    witnesses: dict[str, int]


def _held(session: Session) -> bool:
    return has_table(session.connection(), LogCosignatureRow.__tablename__)


def record(session: Session, origin: str, size: int, witness: str, timestamp: int,
           line: str) -> None:
    """Keep a witness's cosignature of the checkpoint of `size` leaves (a newer one by the
    same witness of the same checkpoint replaces it: one line per witness and head)."""
    ensure_key_table(session.connection())  # files made before the table (free once known)
    key = (season_of(session), origin, size, witness)
    row = session.get(LogCosignatureRow, key)
    if row is None:
        session.add(LogCosignatureRow(season_id=key[0], origin=origin, size=size,
                                      witness=witness, timestamp=timestamp, line=line))
    elif row.timestamp < timestamp:
        row.timestamp, row.line = timestamp, line


def lines(session: Session, origin: str, size: int) -> list[str]:
    """The stored cosignature lines of one checkpoint, by witness name."""
    if not _held(session):
        return []
    query = select(LogCosignatureRow.line).where(
        LogCosignatureRow.season_id == season_of(session), LogCosignatureRow.origin == origin,
        LogCosignatureRow.size == size).order_by(LogCosignatureRow.witness)
    return list(session.scalars(query))


def last_cosigned(session: Session, origin: str, witness: str) -> int:
    """The largest size `witness` cosigned under `origin` (0 when none)."""
    if not _held(session):
        return 0
    query = select(func.max(LogCosignatureRow.size)).where(
        LogCosignatureRow.season_id == season_of(session), LogCosignatureRow.origin == origin,
        LogCosignatureRow.witness == witness)
    return int(session.scalar(query) or 0)


def newest_cosigned(session: Session, origin: str, witnesses: set[str],
                    quorum: int = 1) -> Cosigned | None:
    """The largest checkpoint that at least `quorum` of `witnesses` cosigned, with who did."""
    if not _held(session) or not witnesses:
        return None
    query = (select(LogCosignatureRow.size, LogCosignatureRow.witness,
                    LogCosignatureRow.timestamp)
             .where(LogCosignatureRow.season_id == season_of(session),
                    LogCosignatureRow.origin == origin,
                    LogCosignatureRow.witness.in_(sorted(witnesses)))
             .order_by(LogCosignatureRow.size.desc())
             .limit(RECENT_HEADS_LOOKED_AT * len(witnesses)))
    by_size: dict[int, dict[str, int]] = {}
    for size, witness, timestamp in session.execute(query):
        by_size.setdefault(int(size), {})[str(witness)] = int(timestamp)
    for size in sorted(by_size, reverse=True):
        if len(by_size[size]) >= max(1, quorum):
            return Cosigned(size, dict(sorted(by_size[size].items())))
    return None
