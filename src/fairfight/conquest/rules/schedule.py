"""The airing schedule of a season, as a rule: when each slot falls and what is due now.

Standard library only, and pure: every function takes the moment `now` (an aware datetime in
UTC) instead of reading a clock, so the service, the command line and the tests ask the same
questions of the same function. A schedule is either daily at a UTC time of day or every N
minutes (N seconds is accepted for demos and tests); its slots are the schedule's times at or
after its start, numbered from 1.

What airs: when the slot due now is newer than the last slot dealt with, ONE battle airs, as
that slot; any earlier slot that never aired (the service was down) is counted as missed and
named in the airing's note, never aired on its own, so a long downtime gives one airing and
not a burst. A paused schedule airs nothing, and the slots that pass while it is paused are
dropped at resume, not missed. A skipped slot is passed over once, recorded as skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum

from fairfight.core.errors import InputError

__all__ = [
    "DAY_SECONDS",
    "Decision",
    "LATE_AFTER_SECONDS",
    "MAX_INTERVAL_MINUTES",
    "MAX_INTERVAL_SECONDS",
    "Move",
    "Schedule",
    "ScheduleKind",
    "ScheduleState",
    "decide",
    "due_slot",
    "duration_words",
    "epoch_seconds",
    "initial_state",
    "next_slot",
    "parse_schedule",
    "parse_start",
    "pause",
    "resume",
    "skip",
    "utc_instant",
]

DAY_SECONDS = 86_400
"""Seconds between two slots of a daily schedule (UTC has no daylight saving)."""
MAX_INTERVAL_MINUTES = 525_600
"""The longest `every` interval in minutes: a year (anything longer is not a show)."""
MAX_INTERVAL_SECONDS = 3_600
"""The longest interval given in seconds (the seconds form is for demos and tests)."""
LATE_AFTER_SECONDS = 60
"""A slot that airs this long after its time airs with a note saying how late it was."""


class ScheduleKind(StrEnum):
    """How a schedule's slots are spaced."""

    DAILY = "daily"
    """Once a day at a UTC time of day (HH:MM)."""
    EVERY = "every"
    """Every N minutes from the start (N seconds for demos and tests)."""


class Move(StrEnum):
    """What the airing loop does about the slots due now."""

    NOTHING = "nothing"
    """No new slot is due (or the schedule is paused): nothing airs."""
    AIR = "air"
    """One battle airs, as the newest due slot; older unaired slots are noted as missed."""
    PASS = "pass"
    """Every due slot was skipped: nothing airs, the schedule moves past them."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """A schedule: its kind, its start (epoch seconds, UTC) and its spacing."""

    kind: ScheduleKind
    start: int
    minute_of_day: int | None = None
    """Daily only: minutes after midnight UTC."""
    interval_seconds: int | None = None
    """Every only: the spacing of slots."""

    @property
    def period(self) -> int:
        """Seconds between two consecutive slots."""
        return DAY_SECONDS if self.kind is ScheduleKind.DAILY else int(self.interval_seconds or 0)

    @property
    def first(self) -> int:
        """The instant of slot 1: the first of the schedule's times at or after the start."""
        if self.kind is ScheduleKind.EVERY:
            return self.start
        daily = self.start - self.start % DAY_SECONDS + int(self.minute_of_day or 0) * 60
        return daily if daily >= self.start else daily + DAY_SECONDS

    def slot_time(self, slot: int) -> int:
        """When slot `slot` (from 1) falls, in epoch seconds."""
        return self.first + (slot - 1) * self.period

    def slots_through(self, instant: int) -> int:
        """How many slots fall at or before `instant` (the number of the latest one)."""
        return 0 if instant < self.first else (instant - self.first) // self.period + 1

    def describe(self) -> str:
        """The schedule in words: `daily at 18:00 UTC`, `every 5 min`, `every 2 s`."""
        if self.kind is ScheduleKind.DAILY:
            hours, minutes = divmod(int(self.minute_of_day or 0), 60)
            return f"daily at {hours:02d}:{minutes:02d} UTC"
        seconds = self.period
        return f"every {seconds // 60} min" if seconds % 60 == 0 else f"every {seconds} s"


@dataclass(frozen=True, slots=True)
class ScheduleState:
    """Where a schedule stands: the last slot dealt with, paused or not, skips to come."""

    last_slot: int = 0
    paused: bool = False
    skipped: frozenset[int] = field(default_factory=frozenset)
    """Slots after `last_slot` the operator asked to pass over."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do now: the move, the slot that airs, how far the schedule moves, what was missed."""

    move: Move
    slot: int = 0
    """The slot that airs (AIR only)."""
    through: int = 0
    """The last slot dealt with after this move."""
    missed: int = 0
    """Earlier slots that never aired and never will (AIR only)."""
    first_missed: int = 0
    late_seconds: int = 0
    """How long after its time the slot airs."""

    def note(self) -> str | None:
        """The airing's note, when slots were missed or the slot airs late; else None."""
        parts = []
        if self.missed:
            slots = (f"slot {self.first_missed}" if self.missed == 1
                     else f"slots {self.first_missed}-{self.first_missed + self.missed - 1}")
            covered = "both" if self.missed == 1 else "them all"
            parts.append(f"{self.missed} missed slot{'s' if self.missed != 1 else ''} "
                         f"({slots}) while no airing ran; one battle aired for {covered}")
        if self.late_seconds >= LATE_AFTER_SECONDS:
            parts.append(f"slot {self.slot} aired {duration_words(self.late_seconds)} late")
        return "; ".join(parts) or None


def epoch_seconds(now: datetime) -> int:
    """An aware datetime as whole epoch seconds (a naive one is refused: it names no zone)."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise InputError("now", "must be an aware datetime (UTC), not a naive one")
    return int(now.timestamp())


def utc_instant(seconds: int) -> datetime:
    """Epoch seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)


def due_slot(schedule: Schedule, now: datetime) -> int:
    """The newest slot whose time has come at `now` (0 before slot 1)."""
    return schedule.slots_through(epoch_seconds(now))


def initial_state(schedule: Schedule, now: datetime, paused: bool = False) -> ScheduleState:
    """A schedule set at `now` starts with the slots before now dealt with: a start in the
    past airs nothing for the past, and a slot falling exactly now airs at once."""
    return ScheduleState(last_slot=schedule.slots_through(epoch_seconds(now) - 1), paused=paused)


def _upcoming(schedule: Schedule, state: ScheduleState, now: datetime) -> int:
    slot = max(state.last_slot, due_slot(schedule, now)) + 1
    while slot in state.skipped:
        slot += 1
    return slot


def next_slot(
    schedule: Schedule, state: ScheduleState, now: datetime,
) -> tuple[int, datetime] | None:
    """The next slot that will air and when (for countdowns); None while paused. A slot due
    but not aired yet (the loop is about to air it) comes first, with its own past time."""
    if state.paused:
        return None
    pending = decide(schedule, state, now)
    slot = pending.slot if pending.move is Move.AIR else _upcoming(schedule, state, now)
    return slot, utc_instant(schedule.slot_time(slot))


def decide(schedule: Schedule, state: ScheduleState, now: datetime) -> Decision:
    """What to do at `now`: nothing, air once (noting missed slots), or pass skipped ones."""
    due = due_slot(schedule, now)
    if state.paused or due <= state.last_slot:
        return Decision(Move.NOTHING, through=state.last_slot)
    skipped_due = {slot for slot in state.skipped if state.last_slot < slot <= due}
    unaired = due - state.last_slot - len(skipped_due)
    if unaired == 0:
        return Decision(Move.PASS, through=due)
    slot = due
    while slot in skipped_due:
        slot -= 1
    late = epoch_seconds(now) - schedule.slot_time(slot)
    return Decision(Move.AIR, slot=slot, through=due, missed=unaired - 1,
                    first_missed=state.last_slot + 1 if unaired > 1 else 0, late_seconds=late)


def pause(state: ScheduleState) -> ScheduleState:
    """Paused: nothing airs until resumed."""
    return replace(state, paused=True)


def resume(schedule: Schedule, state: ScheduleState, now: datetime) -> ScheduleState:
    """Resumed at `now`: the slots that fell while paused are dropped (not missed), and the
    skips they covered with them."""
    last = max(state.last_slot, due_slot(schedule, now))
    return ScheduleState(last_slot=last, paused=False,
                         skipped=frozenset(slot for slot in state.skipped if slot > last))


def skip(schedule: Schedule, state: ScheduleState, now: datetime) -> tuple[int, ScheduleState]:
    """Pass over the next slot after `now` that is not skipped yet; returns it and the state."""
    slot = _upcoming(schedule, state, now)
    return slot, replace(state, skipped=state.skipped | {slot})


def duration_words(seconds: int) -> str:
    """A length of time as a person reads it: `2 h 14 min`, `3 min`, `45 s`, `3 d 2 h`."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, DAY_SECONDS)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


def parse_start(text: str | None, now: datetime) -> int:
    """The `start` field: an ISO 8601 instant with its offset (`2026-12-01T18:00Z`), or now."""
    if text is None or not str(text).strip():
        return epoch_seconds(now)
    try:
        parsed = datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
    except ValueError:
        raise InputError("start", "must be an ISO 8601 instant such as "
                         "2026-12-01T18:00:00Z") from None
    if parsed.tzinfo is None:
        raise InputError("start", "must name its offset (end it in Z for UTC)")
    if not 2000 <= parsed.astimezone(UTC).year <= 9000:
        raise InputError("start", "must fall between the years 2000 and 9000")
    return epoch_seconds(parsed)


def _time_of_day(text: str | None) -> int:
    rule = "must be a UTC time of day written HH:MM, from 00:00 to 23:59"
    value = "" if text is None else str(text).strip()
    hours, colon, minutes = value.partition(":")
    if (not colon or len(hours) != 2 or len(minutes) != 2
            or not (hours.isascii() and hours.isdigit() and minutes.isascii()
                    and minutes.isdigit())):
        raise InputError("at", rule)
    if int(hours) > 23 or int(minutes) > 59:
        raise InputError("at", rule)
    return int(hours) * 60 + int(minutes)


def _whole(name: str, value: object, high: int) -> int:
    rule = f"must be a whole number from 1 to {high}"
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(name, rule)
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or not 1 <= int(text) <= high:
        raise InputError(name, rule)
    return int(text)


def parse_schedule(kind: object, *, at: str | None = None, minutes: object = None,
                   seconds: object = None, start: str | None = None,
                   now: datetime) -> Schedule:
    """Check a schedule as the operator wrote it; refusals name the field and the rule."""
    kinds = ", ".join(item.value for item in ScheduleKind)
    if not isinstance(kind, str) or kind.strip().lower() not in set(ScheduleKind):
        raise InputError("kind", f"must be one of {kinds}")
    chosen = ScheduleKind(kind.strip().lower())
    begin = parse_start(start, now)
    if chosen is ScheduleKind.DAILY:
        if minutes is not None or seconds is not None:
            raise InputError("minutes", "a daily schedule takes `at` (HH:MM), not an interval")
        return Schedule(chosen, begin, minute_of_day=_time_of_day(at))
    if at is not None:
        raise InputError("at", "an `every` schedule takes minutes (or seconds), not a time of day")
    if (minutes is None) == (seconds is None):
        raise InputError("minutes", "an `every` schedule needs exactly one of minutes "
                         "(1 or more) or seconds (for demos)")
    interval = (_whole("minutes", minutes, MAX_INTERVAL_MINUTES) * 60 if minutes is not None
                else _whole("seconds", seconds, MAX_INTERVAL_SECONDS))
    return Schedule(chosen, begin, interval_seconds=interval)
