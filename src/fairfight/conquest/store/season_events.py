"""Announced events of a season: one row per change the live pages hear of, written with it.

Every change a live page follows (a battle aired, the ledger moved, the season log signed a
head) adds a `rows.EventRow` in the transaction that makes the change, from the one place
that makes it (`store.SeasonStore.add_battle`, `ledger.record_contributions`, `log.append`),
so the command line, the web service and any scheduler announce alike. The guarantee: an
event exists if and only if its change committed (no event lost, none for a rolled-back
change). Writers of a season hold its write lock (`BEGIN IMMEDIATE` on SQLite, the season
row `FOR UPDATE` on PostgreSQL), so a season's ids are consecutive and increase in commit
order: a reader that has seen id n has seen every event up to n.

On PostgreSQL the same transaction sends `NOTIFY fairfight_events, 'season:id'`, which the
server delivers only on commit; the payload is an id, never the event. Only the newest
`EVENTS_KEPT` events per season are kept (at least that many: pruning runs every
`PRUNE_EVERY` events); an older cursor can no longer be resumed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from fairfight.conquest.store.rows import (
    DAMAGED,
    EventRow,
    ensure_key_table,
    has_table,
    json_text,
    later_tables_held,
    load_column,
    season_of,
)
from fairfight.core.errors import InputError

__all__ = [
    "EVENTS_CHANNEL",
    "EVENTS_KEPT",
    "EVENTS_PAGE_LIMIT",
    "EventKind",
    "PRUNE_EVERY",
    "SeasonEvent",
    "announce",
    "event_window",
    "events_after",
    "latest_ids",
]

EVENTS_CHANNEL = "fairfight_events"
"""The PostgreSQL channel every service process listens on; a payload is `season:id`."""
EVENTS_KEPT = 1000
"""Events kept per season: a client further behind than this is told to reload."""
PRUNE_EVERY = 100
"""The writer drops events older than the kept window once every this many events."""
EVENTS_PAGE_LIMIT = 500
"""The most events one read returns (a reader catching up reads again)."""

_NEXT_ID_KEY = "fairfight.next_event_id"
_TABLE_KEY = "fairfight.event_table"
_NOTIFIED_KEY = "fairfight.events_notified"
"""Set once a transaction has sent its notification: PostgreSQL delivers it at the commit,
when every event of the transaction is in the table, and the listeners read all the rows
after their cursor, so a second notification in the same transaction would wake nobody new."""


class EventKind(enum.StrEnum):
    """What an event announces."""

    BATTLE = "battle"
    """A history entry was aired: payload `{number, ended}`."""
    LEDGER = "ledger"
    """Contributions were recorded: payload `{last_seq}`."""
    HEAD = "head"
    """The season log signed a new head: payload the public head."""


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    """One stored event: its season, its id within the season, its kind and payload."""

    season_id: int
    id: int
    kind: EventKind
    payload: dict[str, Any]


def announce(session: Session, kind: EventKind, payload: dict[str, Any]) -> int:
    """Add the next event of the transaction's season (inside the writer's transaction,
    which holds the season's write lock); returns its id."""
    season_id = season_of(session)
    next_ids: dict[int, int] = session.info.setdefault(_NEXT_ID_KEY, {})
    number = next_ids.get(season_id)
    if number is None:
        ensure_key_table(session.connection())  # files made before it (free once known)
        session.info[_TABLE_KEY] = True
        number = event_window(session)[1] + 1
    session.add(EventRow(season_id=season_id, id=number, kind=kind.value,
                         payload=json_text(payload)))
    next_ids[season_id] = number + 1
    if number % PRUNE_EVERY == 0:
        session.execute(
            delete(EventRow)
            .where(EventRow.season_id == season_id, EventRow.id <= number - EVENTS_KEPT)
            .execution_options(synchronize_session=False))
    if session.get_bind().dialect.name == "postgresql" and not session.info.get(_NOTIFIED_KEY):
        session.execute(text("SELECT pg_notify(:channel, :message)"),
                        {"channel": EVENTS_CHANNEL, "message": f"{season_id}:{number}"})
        session.info[_NOTIFIED_KEY] = True
    return number


def _table_exists(session: Session) -> bool:
    known = session.info.get(_TABLE_KEY)
    if known is None and later_tables_held(session.connection().engine):
        known = session.info[_TABLE_KEY] = True
    if known is None:
        known = session.info[_TABLE_KEY] = has_table(session.connection(),
                                                     EventRow.__tablename__)
    return bool(known)


def event_window(session: Session) -> tuple[int, int]:
    """(oldest kept id, latest id) of the transaction's season; (0, 0) before any event."""
    if not _table_exists(session):
        return 0, 0
    row = session.execute(
        select(func.min(EventRow.id), func.max(EventRow.id))
        .where(EventRow.season_id == season_of(session))).one()
    return int(row[0] or 0), int(row[1] or 0)


def events_after(session: Session, after: int,
                 limit: int = EVENTS_PAGE_LIMIT) -> list[SeasonEvent]:
    """The season's kept events with an id above `after`, oldest first, at most `limit`."""
    if not _table_exists(session):
        return []
    season_id = season_of(session)
    query = (select(EventRow).where(EventRow.season_id == season_id, EventRow.id > after)
             .order_by(EventRow.id).limit(max(1, min(limit, EVENTS_PAGE_LIMIT))))
    return [_event_of(row) for row in session.scalars(query)]


def latest_ids(session: Session) -> dict[int, int]:
    """Every season's latest event id in the database (one query, whatever the season)."""
    if not _table_exists(session):
        return {}
    query = select(EventRow.season_id, func.max(EventRow.id)).group_by(EventRow.season_id)
    return {int(season): int(latest) for season, latest in session.execute(query)}


def _event_of(row: EventRow) -> SeasonEvent:
    place = f"season_event.payload (event {row.id})"
    payload = load_column(place, row.payload)
    if not isinstance(payload, dict):
        raise InputError(DAMAGED, f"{place}: not an object")
    try:
        kind = EventKind(row.kind)
    except ValueError:
        raise InputError(DAMAGED, f"season_event.kind (event {row.id}): unknown kind "
                         f"{str(row.kind)[:40]!r}") from None
    return SeasonEvent(row.season_id, row.id, kind, payload)
