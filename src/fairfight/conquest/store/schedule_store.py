"""A season's airing schedule in its database, and airing the slot that is due.

The rule is `fairfight.conquest.rules.schedule` (pure); this module keeps its state in two later
tables (`rows.AiringScheduleRow`, `rows.AiringSlotRow`, created on first need so older season
files still open) and airs through `season.fight`, the function the operator's "air" and the
command line use.

Why a slot airs exactly once, across restarts and processes:
- a process airs only while it holds the schedule's lease, taken by one conditional UPDATE
  (free, already its own, or run out), the same statement on SQLite and PostgreSQL;
- the slot's row is written inside the battle's own transaction (`fight(within=…)`), after
  checking there that the slot is still the next one, under the season's write lock; the row's
  primary key backs that check, so a second airing of a slot cannot commit, and a crash
  between the battle and its record cannot happen (they are one commit).
If the holder dies, its lease runs out and another process airs the slot it left.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy import CursorResult, or_, select, update
from sqlalchemy.orm import Session

from fairfight.conquest.rules.schedule import (
    Decision,
    Move,
    Schedule,
    ScheduleKind,
    ScheduleState,
    decide,
    epoch_seconds,
    initial_state,
    resume,
    skip,
)
from fairfight.conquest.store import season
from fairfight.conquest.store.rows import (
    AiringScheduleRow,
    AiringSlotRow,
    ensure_key_table,
    has_table,
    season_of,
)
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core.errors import InputError, RuleError

__all__ = [
    "AIRED",
    "AiringOutcome",
    "LEASE_SECONDS",
    "SKIPPED",
    "SlotTaken",
    "StoredSchedule",
    "air_due",
    "read_schedule",
    "recent_slots",
    "release_lease",
    "set_paused",
    "set_schedule",
    "skip_next",
    "take_lease",
]

LEASE_SECONDS = 30
"""How long a process holds a schedule's lease after taking or renewing it."""
AIRED = "aired"
SKIPPED = "skipped"


class SlotTaken(RuntimeError):
    """The slot was aired, skipped or rescheduled meanwhile: this airing is rolled back."""


@dataclass(frozen=True, slots=True)
class StoredSchedule:
    """A season's schedule as stored: the rule's values plus its version and lease."""

    season_id: int
    version: int
    schedule: Schedule
    state: ScheduleState
    lease_holder: str | None
    lease_until_ms: int


@dataclass(frozen=True, slots=True)
class AiringOutcome:
    """What one airing attempt did."""

    status: Literal["none", "over", "nothing", "leased", "passed", "aired", "taken"]
    decision: Decision | None = None
    entry: dict[str, Any] | None = None
    """The battle that aired (status `aired`)."""


def _schedule_of(row: AiringScheduleRow) -> Schedule:
    return Schedule(ScheduleKind(row.kind), int(row.start), row.minute_of_day,
                    row.interval_seconds)


def _row(session: Session) -> AiringScheduleRow | None:
    return session.get(AiringScheduleRow, season_of(session))


def _stored(session: Session, row: AiringScheduleRow) -> StoredSchedule:
    query = select(AiringSlotRow.slot).where(
        AiringSlotRow.season_id == row.season_id, AiringSlotRow.version == row.version,
        AiringSlotRow.outcome == SKIPPED, AiringSlotRow.slot > row.last_slot)
    skipped = frozenset(int(slot) for slot in session.scalars(query))
    state = ScheduleState(int(row.last_slot), bool(row.paused), skipped)
    return StoredSchedule(row.season_id, row.version, _schedule_of(row), state,
                          row.lease_holder, int(row.lease_until_ms))


def read_schedule(session: Session) -> StoredSchedule | None:
    """The season's schedule, or None (also for a file made before the tables existed)."""
    if not has_table(session.connection(), AiringScheduleRow.__tablename__):
        return None
    row = _row(session)
    return None if row is None else _stored(session, row)


def _require(session: Session) -> AiringScheduleRow:
    ensure_key_table(session.connection())
    row = _row(session)
    if row is None:
        raise InputError("schedule", "this season has no airing schedule; set one first")
    return row


def set_schedule(session: Session, schedule: Schedule, now: datetime) -> StoredSchedule:
    """Give the season this schedule from `now` (a new version: pending skips are dropped,
    a pause is kept)."""
    ensure_key_table(session.connection())
    row = _row(session)
    paused = bool(row.paused) if row is not None else False
    state = initial_state(schedule, now, paused)
    values = {"kind": schedule.kind.value, "start": schedule.start,
              "minute_of_day": schedule.minute_of_day,
              "interval_seconds": schedule.interval_seconds, "paused": int(paused),
              "last_slot": state.last_slot}
    if row is None:
        row = AiringScheduleRow(season_id=season_of(session), version=1, lease_holder=None,
                                lease_until_ms=0, **values)
        session.add(row)
    else:
        row.version += 1
        for name, value in values.items():
            setattr(row, name, value)
    session.flush()
    return _stored(session, row)


def set_paused(session: Session, paused: bool, now: datetime) -> StoredSchedule:
    """Pause, or resume at `now` (the slots that fell while paused are dropped, not missed)."""
    row = _require(session)
    current = _stored(session, row)
    if paused:
        row.paused = 1
    else:
        resumed = resume(current.schedule, current.state, now)
        row.paused, row.last_slot = 0, resumed.last_slot
    session.flush()
    return _stored(session, row)


def skip_next(session: Session, now: datetime) -> int:
    """Record the next slot after `now` as skipped; returns its number."""
    row = _require(session)
    current = _stored(session, row)
    slot, _ = skip(current.schedule, current.state, now)
    session.add(AiringSlotRow(season_id=row.season_id, version=row.version, slot=slot,
                              outcome=SKIPPED, recorded=epoch_seconds(now)))
    session.flush()
    return slot


def recent_slots(session: Session, limit: int = 10) -> list[dict[str, Any]]:
    """The latest slots dealt with under the current schedule, newest first."""
    row = None if read_schedule(session) is None else _row(session)
    if row is None:
        return []
    query = (select(AiringSlotRow)
             .where(AiringSlotRow.season_id == row.season_id,
                    AiringSlotRow.version == row.version)
             .order_by(AiringSlotRow.slot.desc()).limit(limit))
    return [{"slot": slot.slot, "outcome": slot.outcome, "battle": slot.battle,
             "missed": slot.missed, "note": slot.note, "recorded": slot.recorded}
            for slot in session.scalars(query)]


def take_lease(session: Session, holder: str, now_ms: int, lease_ms: int) -> bool:
    """Take or renew the schedule's lease: one conditional UPDATE, true if it is now ours."""
    statement = (
        update(AiringScheduleRow)
        .where(AiringScheduleRow.season_id == season_of(session),
               or_(AiringScheduleRow.lease_holder.is_(None),
                   AiringScheduleRow.lease_holder == holder,
                   AiringScheduleRow.lease_until_ms < now_ms))
        .values(lease_holder=holder, lease_until_ms=now_ms + lease_ms)
        .execution_options(synchronize_session=False)
    )
    result = cast(CursorResult[Any], session.execute(statement))
    return result.rowcount == 1


def release_lease(path: season.SeasonAddress, holder: str) -> None:
    """Give the lease back (a process that stops), so another may air at once, not only
    once it runs out."""
    store = season.open_store(path, write=True)
    try:
        with store.transaction() as session:
            if read_schedule(session) is None:
                return
            session.execute(
                update(AiringScheduleRow)
                .where(AiringScheduleRow.season_id == season_of(session),
                       AiringScheduleRow.lease_holder == holder)
                .values(lease_holder=None, lease_until_ms=0)
                .execution_options(synchronize_session=False))
    finally:
        store.close()


def _record_aired(session: Session, holder: str, version: int, decision: Decision,
                  battle: int, now: datetime) -> None:
    """In the battle's transaction: the slot is still the one to air, and ours; record it."""
    row = _row(session)
    if (row is None or row.version != version or row.paused or row.last_slot >= decision.slot
            or row.lease_holder != holder
            or session.get(AiringSlotRow, (row.season_id, version, decision.slot)) is not None):
        raise SlotTaken(f"slot {decision.slot} was dealt with meanwhile")
    session.add(AiringSlotRow(season_id=row.season_id, version=version, slot=decision.slot,
                              outcome=AIRED, battle=battle, missed=decision.missed,
                              note=decision.note(), recorded=epoch_seconds(now), holder=holder))
    row.last_slot = decision.through


def air_due(path: season.SeasonAddress, holder: str, now: datetime,
            lease_seconds: float = LEASE_SECONDS) -> AiringOutcome:
    """Air the slot due at `now`, if any and if this holder gets the lease: at most one battle.

    Raises what `season.fight` raises (a beacon not yet recorded, say); nothing is recorded
    then, and the slot stays due.
    """
    store = season.open_store(path, write=True)
    try:
        with store.transaction() as session:
            stored = read_schedule(session)
            if stored is None:
                return AiringOutcome("none")
            if SeasonStore.board(session)["ended"]:
                return AiringOutcome("over")
            decision = decide(stored.schedule, stored.state, now)
            if decision.move is Move.NOTHING:
                return AiringOutcome("nothing", decision)
            now_ms = int(now.timestamp() * 1000)
            if not take_lease(session, holder, now_ms, int(lease_seconds * 1000)):
                return AiringOutcome("leased", decision)
            if decision.move is Move.PASS:
                row = _require(session)
                row.last_slot = max(row.last_slot, decision.through)
                return AiringOutcome("passed", decision)
    finally:
        store.close()

    def record(session: Session, entry: dict[str, Any]) -> None:
        _record_aired(session, holder, stored.version, decision, int(entry["number"]), now)

    try:
        fought = list(season.fight(path, 1, within=record, now=now))
    except SlotTaken:
        return AiringOutcome("taken", decision)
    except RuleError:
        if _season_over(path):  # another process aired the last battle since the look above
            return AiringOutcome("over", decision)
        raise
    return AiringOutcome("aired", decision, fought[0])


def _season_over(path: season.SeasonAddress) -> bool:
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            return bool(SeasonStore.board(session)["ended"])
    finally:
        store.close()
