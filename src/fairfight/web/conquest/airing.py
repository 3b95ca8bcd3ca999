"""The service airs each season's schedule by itself: a background loop, and the countdown.

`AiringLoop` runs in the service's lifespan (`install_airing`). Every `tick_seconds` it reads
each season's schedule (a cheap read) and, when a slot is due, calls
`schedule_store.air_due`: the lease, then `season.fight` with the slot recorded in the
battle's own transaction, the path the operator's "air" takes. It then pokes the live
broadcaster, so the event stream, the forecasts and the season log see a scheduled airing
exactly as a manual one. The clock is injected (`clock`), so tests drive it by hand with
`tick()`. `countdown` builds what every conquest page shows about the next episode.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any, Literal

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from fairfight.conquest.rules.schedule import (
    Move,
    decide,
    duration_words,
    epoch_seconds,
    next_slot,
    parse_schedule,
)
from fairfight.conquest.store import schedule_store
from fairfight.conquest.store.schedule_store import AiringOutcome, StoredSchedule, read_schedule
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core.errors import InputError
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot, once
from fairfight.web.templating import templates

__all__ = [
    "AiringLoop",
    "Clock",
    "CountdownView",
    "ScheduleRequest",
    "ScheduleView",
    "SlotRecord",
    "countdown_of_request",
    "install_airing",
    "season_countdown",
    "utc_now",
]

_log = logging.getLogger("fairfight.web.airing")

Clock = Callable[[], datetime]
"""What the loop asks for the time: an aware UTC datetime."""


def utc_now() -> datetime:
    """The service's clock."""
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _at_text(moment: datetime, now: datetime) -> str:
    """`18:00 UTC` today, `Wed 2 Dec 18:00 UTC` another day (seconds only when not :00)."""
    clock = moment.strftime("%H:%M:%S" if moment.second else "%H:%M")
    if moment.date() == now.astimezone(UTC).date():
        return f"{clock} UTC"
    return f"{moment.strftime('%a')} {moment.day} {moment.strftime('%b')} {clock} UTC"


class ScheduleRequest(BaseModel):
    """A schedule as the operator sets it: daily at HH:MM (UTC), or every N minutes."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str = Field(description="daily or every")
    at: str | None = Field(None, description="daily: the UTC time of day, HH:MM")
    minutes: int | None = Field(None, description="every: minutes between slots (1 or more)")
    seconds: int | None = Field(None, description="every, for demos and tests: seconds")
    start: str | None = Field(None, description="ISO 8601 instant the slots count from "
                              "(default: now)")


class SlotRecord(BaseModel):
    """One slot dealt with: aired (its battle, the note of missed slots) or skipped."""

    slot: int
    outcome: Literal["aired", "skipped"]
    battle: int | None = None
    missed: int = 0
    note: str | None = None
    recorded: str = Field(description="when it was recorded (UTC)")


class CountdownView(BaseModel):
    """What a page shows about the next episode: when, which battle, or why none."""

    season: int
    status: Literal["scheduled", "paused", "over"]
    schedule_text: str = Field(description="the schedule in words")
    battle: int | None = Field(None, description="the battle the next slot airs")
    slot: int | None = None
    at: str | None = Field(None, description="when the next slot falls (ISO 8601, UTC)")
    at_text: str | None = None
    seconds: int | None = Field(None, description="seconds from now until then")
    in_text: str | None = None
    text: str = Field(description="the whole sentence, as the page shows it")


class ScheduleView(BaseModel):
    """The operator's view of a season's schedule (no lease holder outside the operator)."""

    season: int
    scheduled: bool
    countdown: CountdownView | None = None
    kind: str | None = None
    paused: bool = False
    last_slot: int = 0
    skipped: list[int] = Field(default_factory=list)
    lease_holder: str | None = None
    lease_until: str | None = None
    recent: list[SlotRecord] = Field(default_factory=list)


def _countdown(season_id: int, stored: StoredSchedule, ended: bool, next_battle: int,
               now: datetime) -> CountdownView:
    words = stored.schedule.describe()
    common: dict[str, Any] = {"season": season_id, "schedule_text": words}
    if ended:
        return CountdownView(status="over", text="The season is over: no more episodes.",
                             **common)
    upcoming = next_slot(stored.schedule, stored.state, now)
    if upcoming is None:
        return CountdownView(status="paused", battle=next_battle,
                             text=f"Airing is paused; battle {next_battle} airs when the "
                                  "operator resumes the schedule.", **common)
    slot, moment = upcoming
    seconds = max(0, epoch_seconds(moment) - epoch_seconds(now))
    in_text = f"in {duration_words(seconds)}" if seconds else "now"
    at_text = _at_text(moment, now)
    return CountdownView(status="scheduled", battle=next_battle, slot=slot, at=_iso(moment),
                         at_text=at_text, seconds=seconds, in_text=in_text,
                         text=f"Next episode: battle {next_battle} at {at_text} ({in_text})",
                         **common)


class AiringLoop:
    """Airs every scheduled season's due slot, once, from a background task."""

    def __init__(self, catalog: SeasonCatalog, on_aired: Callable[[], None], *,
                 clock: Clock = utc_now, tick_seconds: float = 1.0,
                 lease_seconds: float = schedule_store.LEASE_SECONDS,
                 holder: str | None = None) -> None:
        self.catalog = catalog
        self.on_aired = on_aired
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.lease_seconds = lease_seconds
        self.holder = holder or f"airing-{uuid.uuid4().hex[:16]}"
        self._task: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        self._problems: dict[int, str] = {}
        self._leased: set[int] = set()
        """Seasons whose lease this loop may hold (handed back when it stops)."""

    # ------------------------------------------------------------ airing

    def _due(self, season_id: int, now: datetime) -> bool:
        with self.catalog.read(season_id) as session:
            stored = read_schedule(session)
            if stored is None or SeasonStore.board(session)["ended"]:
                return False
            return decide(stored.schedule, stored.state, now).move is not Move.NOTHING

    def tick(self) -> list[AiringOutcome]:
        """One pass at the clock's `now`: air (or pass) each season's due slot, at most one
        battle each; a season's problem (a beacon not recorded yet) is logged once."""
        now = self.clock()
        outcomes = []
        for season_id in self.catalog.season_ids():
            try:
                if not self._due(season_id, now):
                    continue
                outcome = schedule_store.air_due(self.catalog.database.season_path(season_id),
                                                 self.holder, now, self.lease_seconds)
            except (InputError, LookupError) as error:
                self._leased.add(season_id)  # the lease may have been taken before the refusal
                self._report(season_id, f"{error}")
                continue
            self._problems.pop(season_id, None)
            outcomes.append(outcome)
            if outcome.status in ("aired", "passed", "taken"):
                self._leased.add(season_id)
            if outcome.status == "aired":
                note = outcome.decision.note() if outcome.decision else None
                _log.info("season %s: slot %s aired battle %s%s", season_id,
                          outcome.decision.slot if outcome.decision else "?",
                          outcome.entry["number"] if outcome.entry else "?",
                          f" ({note})" if note else "")
                self.on_aired()
        return outcomes

    def _report(self, season_id: int, problem: str) -> None:
        if self._problems.get(season_id) != problem:
            self._problems[season_id] = problem
            _log.warning("season %s: the scheduled airing waits: %s", season_id, problem)

    def problem(self, season_id: int) -> str | None:
        """Why the season's due slot has not aired, if something stops it."""
        return self._problems.get(season_id)

    async def _run(self) -> None:
        assert self._stop is not None
        while not self._stop.is_set():
            try:
                await asyncio.to_thread(self.tick)
            except Exception:  # the loop must outlive a busy or vanished database
                _log.exception("the airing loop's pass failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.tick_seconds)

    def _task_of_this_loop(self) -> asyncio.Task[None] | None:
        """The airing task if it runs on the running event loop. An app served again on a
        new loop (a test client opened twice) leaves its old task behind on a loop that is
        gone; that one is forgotten, never awaited from the new loop."""
        task = self._task
        if task is not None and task.get_loop() is not asyncio.get_running_loop():
            self._task = task = None
        return task

    def start(self) -> None:
        """Start airing (on the running event loop)."""
        task = self._task_of_this_loop()
        if task is None or task.done():
            self._stop = asyncio.Event()
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop after the pass under way (a battle being aired is finished, not cut)."""
        task = self._task_of_this_loop()
        if self._stop is not None and task is not None:
            self._stop.set()
        if task is not None:
            await task
            self._task = None
            await asyncio.to_thread(self._release)

    def _release(self) -> None:
        """Hand back this process's leases, so a restarted service airs at once."""
        for season_id in sorted(self._leased):
            try:
                schedule_store.release_lease(self.catalog.database.season_path(season_id),
                                             self.holder)
            except (InputError, LookupError, RuntimeError):
                continue  # nothing held, or the database is already gone

    # ------------------------------------------------------------ views and operator powers

    def countdown(self, season_id: int) -> CountdownView | None:
        """The season's countdown now, or None without a schedule."""
        snap = self.catalog.snapshot(season_id)
        stored = self.catalog.read_unchanged(season_id, "schedule", read_schedule)
        return None if stored is None else self.countdown_of(snap, stored)

    def countdown_of(self, snap: Snapshot, stored: StoredSchedule) -> CountdownView:
        """The countdown of a schedule already read, now (the page cache reads the schedule
        in the same transaction as the season's version)."""
        return _countdown(snap.season_id, stored, bool(snap.board["ended"]),
                          int(snap.board["next_battle"]), self.clock())

    def soonest_countdown(self) -> CountdownView | None:
        """For pages of no one season: the scheduled season whose next episode comes first."""
        shown = [view for sid in self.catalog.season_ids()
                 if (view := self.countdown(sid)) is not None]
        scheduled = [view for view in shown if view.status == "scheduled"]
        if scheduled:
            return min(scheduled, key=lambda view: (view.seconds or 0, view.season))
        return shown[0] if shown else None

    def show(self, season_id: int) -> ScheduleView:
        """The operator's view: the schedule, its state, its lease and the latest slots."""
        countdown = self.countdown(season_id)
        with self.catalog.read(season_id) as session:
            stored = read_schedule(session)
            recent = schedule_store.recent_slots(session)
        if stored is None:
            return ScheduleView(season=season_id, scheduled=False)
        until = stored.lease_until_ms // 1000
        return ScheduleView(
            season=season_id, scheduled=True, countdown=countdown,
            kind=stored.schedule.kind.value, paused=stored.state.paused,
            last_slot=stored.state.last_slot, skipped=sorted(stored.state.skipped),
            lease_holder=stored.lease_holder,
            lease_until=_iso(datetime.fromtimestamp(until, UTC)) if until else None,
            recent=[SlotRecord(**{**slot, "recorded": _iso(datetime.fromtimestamp(
                slot["recorded"], UTC))}) for slot in recent])

    def set(self, season_id: int, asked: ScheduleRequest) -> ScheduleView:
        """Give the season a schedule (refused with the field named when it is not one)."""
        now = self.clock()
        schedule = parse_schedule(asked.kind, at=asked.at, minutes=asked.minutes,
                                  seconds=asked.seconds, start=asked.start, now=now)
        with self.catalog.database.transaction(self._known(season_id), write=True) as session:
            schedule_store.set_schedule(session, schedule, now)
        return self.show(season_id)

    def pause(self, season_id: int, paused: bool) -> ScheduleView:
        """Pause, or resume (slots that fell while paused are dropped, not aired)."""
        with self.catalog.database.transaction(self._known(season_id), write=True) as session:
            schedule_store.set_paused(session, paused, self.clock())
        return self.show(season_id)

    def skip(self, season_id: int) -> tuple[int, ScheduleView]:
        """Pass over the next slot once; returns its number and the view."""
        with self.catalog.database.transaction(self._known(season_id), write=True) as session:
            slot = schedule_store.skip_next(session, self.clock())
        return slot, self.show(season_id)

    def _known(self, season_id: int) -> int:
        self.catalog.require(season_id)
        return season_id


def countdown_of_request(request: Request) -> CountdownView | None:
    """What the page's countdown shows (templates call it): the page's season, or on other
    conquest pages the soonest scheduled one; None when nothing is scheduled."""
    airing = getattr(getattr(request.app.state, "conquest", None), "airing", None)
    if not isinstance(airing, AiringLoop):
        return None
    season_id = request.path_params.get("season_id")
    try:
        if isinstance(season_id, int):
            return season_countdown(season_id, lambda: airing.countdown(season_id))
        return airing.soonest_countdown()
    except (InputError, LookupError):  # the page itself says what is wrong with the season
        return None


def season_countdown(season_id: int, make: Callable[[], CountdownView | None]) -> \
        CountdownView | None:
    """A season's countdown, made once per page render (`catalog.once`): the first made,
    the one the page's key holds when the key was read in the render's block, is the one
    the page shows."""
    return once(("countdown", season_id), make)


def install_airing(app: FastAPI, airing: AiringLoop) -> None:
    """Air while the app runs: start with its lifespan, stop before the database closes."""
    templates.env.globals["airing_countdown"] = countdown_of_request
    previous = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        async with previous(application) as state:
            airing.start()
            try:
                yield state
            finally:
                await airing.stop()

    app.router.lifespan_context = lifespan
