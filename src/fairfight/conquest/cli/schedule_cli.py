"""`fairfight conquest schedule set|show|pause|resume|skip|run SEASON`: the airing schedule.

The commands change the schedule stored in the season; they air nothing themselves, except
`run`, a foreground airing loop for a season served by no service (or beside one: the lease
decides which of them airs each slot, and a slot airs once either way).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from fairfight.console import console, emit_json, guarded
from fairfight.core.errors import InputError

if TYPE_CHECKING:  # the store (SQLAlchemy) is imported when a command runs
    from sqlalchemy.orm import Session

    from fairfight.conquest.store import schedule_store

__all__ = [
    "AsJson",
    "MAX_TICK_SECONDS",
    "SeasonFile",
    "app",
    "pause",
    "resume",
    "run",
    "schedules",
    "set_schedule",
    "show",
    "skip",
]

_T = TypeVar("_T")

app = typer.Typer(help="Air a season on a schedule.", no_args_is_help=True,
                  add_completion=False)
SeasonFile = typer.Argument(..., help="The season's SQLite file, or a server database's "
                                      "season as URL#ID.")
AsJson = typer.Option(False, "--json", help="Machine output (JSON).")
MAX_TICK_SECONDS = 3600.0
"""The longest wait between two looks at the clock in `run`."""


@app.callback()
def schedules() -> None:
    """Set, show, pause, resume and skip a season's airing schedule (`run` airs it)."""


def _now() -> datetime:
    return datetime.now(UTC)


def _in_transaction(season_file: str, write: bool, work: Callable[[Session], _T]) -> _T:
    from fairfight.conquest.store import season

    store = season.open_store(season_file, write=write)
    try:
        with store.transaction() as session:
            return work(session)
    finally:
        store.close()


def _described(session: Session, now: datetime) -> dict[str, Any]:
    """The schedule as `show` prints it (and `--json` emits it)."""
    from fairfight.conquest.rules import schedule
    from fairfight.conquest.store import schedule_store, season

    stored = schedule_store.read_schedule(session)
    if stored is None:
        return {"scheduled": False}
    board = season.summary_in(session).board
    upcoming = None if board["ended"] else schedule.next_slot(stored.schedule, stored.state, now)
    described: dict[str, Any] = {
        "scheduled": True, "schedule": stored.schedule.describe(),
        "paused": stored.state.paused, "last_slot": stored.state.last_slot,
        "skipped": sorted(stored.state.skipped), "season_over": bool(board["ended"]),
        "lease_holder": stored.lease_holder, "recent": schedule_store.recent_slots(session),
        "next": None,
    }
    if upcoming is not None:
        slot, moment = upcoming
        wait = max(0, schedule.epoch_seconds(moment) - schedule.epoch_seconds(now))
        described["next"] = {"slot": slot, "battle": board["next_battle"],
                             "at": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                             "in": schedule.duration_words(wait)}
    return described


def _print(described: dict[str, Any]) -> None:
    if not described["scheduled"]:
        console.print("no airing schedule: battles air only when the operator airs them",
                      markup=False)
        return
    state = "paused" if described["paused"] else "airing"
    console.print(f"schedule: {described['schedule']} ({state}); last slot dealt with: "
                  f"{described['last_slot']}", markup=False)
    upcoming = described["next"]
    if described["season_over"]:
        console.print("the season is over: nothing more airs", markup=False)
    elif upcoming is not None:
        console.print(f"next: battle {upcoming['battle']} at {upcoming['at']} "
                      f"(slot {upcoming['slot']}, in {upcoming['in']})", markup=False)
    if described["skipped"]:
        console.print(f"skipping slots: {', '.join(map(str, described['skipped']))}",
                      markup=False)
    for slot in described["recent"]:
        note = f": {slot['note']}" if slot["note"] else ""
        battle = f" (battle {slot['battle']})" if slot["battle"] else ""
        console.print(f"  slot {slot['slot']}: {slot['outcome']}{battle}{note}", markup=False)


def _report(season_file: str, as_json: bool) -> None:
    now = _now()
    described = _in_transaction(season_file, False, lambda session: _described(session, now))
    if as_json:
        emit_json(described)
    else:
        _print(described)


def _every(value: str) -> dict[str, str]:
    """`5` (minutes) or `2s` (seconds, for demos) as the rule's fields."""
    text = value.strip().lower()
    if text.endswith("s"):
        return {"seconds": text.removesuffix("s")}
    return {"minutes": text.removesuffix("m").removesuffix("min")}


@app.command(name="set")
@guarded
def set_schedule(
    season_file: str = SeasonFile,
    kind: str = typer.Argument(..., help="daily or every."),
    value: str = typer.Argument(..., help="daily: the UTC time of day, HH:MM; every: minutes "
                                          "(5), or seconds for a demo (2s)."),
    start: str | None = typer.Option(None, "--start", help="ISO 8601 instant the slots count "
                                                          "from (default: now)."),
    as_json: bool = AsJson,
) -> None:
    """Give the season an airing schedule (replacing any earlier one; a pause is kept)."""
    from fairfight.conquest.rules import schedule
    from fairfight.conquest.store import schedule_store

    now = _now()
    fields: dict[str, Any] = ({"at": value} if kind.strip().lower() == "daily"
                              else _every(value) if kind.strip().lower() == "every" else {})
    rule = schedule.parse_schedule(kind, start=start, now=now, **fields)
    _change(season_file, as_json,
            lambda session, _moment: schedule_store.set_schedule(session, rule, now))


@app.command()
@guarded
def show(season_file: str = SeasonFile, as_json: bool = AsJson) -> None:
    """The schedule, the next episode, and the latest slots with their notes."""
    _report(season_file, as_json)


def _change(season_file: str, as_json: bool, work: Callable[[Session, datetime], object],
            ) -> object:
    """Change the schedule in one write transaction at now, then show it."""
    now = _now()
    done = _in_transaction(season_file, True, lambda session: work(session, now))
    if not as_json and isinstance(done, int):
        console.print(f"slot {done} will be passed over", markup=False)
    _report(season_file, as_json)
    return done


@app.command()
@guarded
def pause(season_file: str = SeasonFile, as_json: bool = AsJson) -> None:
    """Pause airing: nothing airs until `resume`."""
    from fairfight.conquest.store import schedule_store

    _change(season_file, as_json,
            lambda session, now: schedule_store.set_paused(session, True, now))


@app.command()
@guarded
def resume(season_file: str = SeasonFile, as_json: bool = AsJson) -> None:
    """Resume airing from now; the slots that fell while paused are dropped, not aired."""
    from fairfight.conquest.store import schedule_store

    _change(season_file, as_json,
            lambda session, now: schedule_store.set_paused(session, False, now))


@app.command()
@guarded
def skip(season_file: str = SeasonFile, as_json: bool = AsJson) -> None:
    """Pass over the next slot once (recorded as skipped)."""
    from fairfight.conquest.store import schedule_store

    _change(season_file, as_json, schedule_store.skip_next)


@app.command()
@guarded
def run(
    season_file: str = SeasonFile,
    tick: float = typer.Option(1.0, "--tick", min=0.05, max=MAX_TICK_SECONDS,
                               help="Seconds between two looks at the clock."),
    once: bool = typer.Option(False, "--once", help="Air what is due now, then stop."),
    as_json: bool = typer.Option(False, "--json", help="One JSON line per airing (and, with "
                                                       "--once, per look)."),
) -> None:
    """Air the season's schedule in the foreground until Ctrl-C (one battle per due slot)."""
    from fairfight.conquest.store import schedule_store

    holder = f"cli-{uuid.uuid4().hex[:16]}"
    try:
        while True:
            outcome = schedule_store.air_due(season_file, holder, _now())
            if outcome.status == "none":
                raise InputError("schedule", "this season has no airing schedule; set one "
                                 "first")
            _say(outcome, as_json, once)
            if once or outcome.status == "over":
                return
            time.sleep(tick)
    finally:
        schedule_store.release_lease(season_file, holder)


def _say(outcome: schedule_store.AiringOutcome, as_json: bool, once: bool) -> None:
    """Print an airing (always) or what else happened (with --once, or at the season's end)."""
    aired = outcome.status == "aired" and outcome.entry and outcome.decision
    if not (aired or once or outcome.status == "over"):
        return
    decision = outcome.decision
    note = decision.note() if decision is not None else None
    if as_json:
        emit_json({"status": outcome.status, "slot": decision.slot if aired and decision else None,
                   "battle": outcome.entry["number"] if aired and outcome.entry else None,
                   "note": note if aired else None})
    elif aired and outcome.entry and decision is not None:
        console.print(f"slot {decision.slot}: battle {outcome.entry['number']} aired"
                      f"{f' ({note})' if note else ''}", markup=False)
    else:
        console.print(_QUIET[outcome.status], markup=False)


_QUIET = {
    "over": "the season is over: nothing more airs",
    "nothing": "nothing is due now",
    "leased": "another process holds the schedule's lease and airs it",
    "passed": "the due slot was skipped: nothing aired",
    "taken": "the slot was aired by another process meanwhile",
    "none": "no schedule",
}
