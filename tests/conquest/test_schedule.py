"""The airing schedule: the rule on a controlled clock, its tables, and its command line.

Expected slot times and counts are worked out by hand in each test (a slot every 5 minutes
from 12:00 falls at 12:00, 12:05, 12:10, ...), never read back from the code under test.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fairfight.cli import app as root_app
from fairfight.conquest.rules import schedule
from fairfight.conquest.rules.schedule import (
    Move,
    Schedule,
    ScheduleKind,
    ScheduleState,
    decide,
    parse_schedule,
)
from fairfight.conquest.store import schedule_store, season
from fairfight.core.errors import InputError

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
EVERY_5 = parse_schedule("every", minutes=5, now=NOON)
"""Slots at 12:00 (1), 12:05 (2), 12:10 (3), ... on 1 December 2026."""


def at(minutes: float) -> datetime:
    return NOON + timedelta(minutes=minutes)


# ------------------------------------------------------------ the rule


def test_slots_of_an_every_schedule_fall_from_its_start() -> None:
    assert schedule.utc_instant(EVERY_5.slot_time(3)) == at(10)
    assert schedule.due_slot(EVERY_5, at(9.99)) == 2
    assert schedule.due_slot(EVERY_5, at(10)) == 3
    assert schedule.due_slot(EVERY_5, at(-1)) == 0


def test_a_daily_schedule_starts_with_the_first_time_at_or_after_its_start() -> None:
    evening = parse_schedule("daily", at="18:00", start="2026-12-01T19:00:00Z", now=NOON)
    assert schedule.utc_instant(evening.slot_time(1)) == datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
    assert schedule.utc_instant(evening.slot_time(3)) == datetime(2026, 12, 4, 18, 0, tzinfo=UTC)
    exact = parse_schedule("daily", at="18:00", start="2026-12-01T18:00:00+00:00", now=NOON)
    assert schedule.utc_instant(exact.slot_time(1)) == datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    assert evening.describe() == "daily at 18:00 UTC" and EVERY_5.describe() == "every 5 min"


def test_a_due_slot_airs_once() -> None:
    first = decide(EVERY_5, ScheduleState(), at(0))
    assert (first.move, first.slot, first.through, first.missed) == (Move.AIR, 1, 1, 0)
    assert first.note() is None
    again = decide(EVERY_5, ScheduleState(last_slot=1), at(4))
    assert again.move is Move.NOTHING


def test_downtime_over_several_slots_gives_one_airing_and_a_note() -> None:
    # Aired slot 1 at 12:00, then down until 12:21:30: slots 2 (12:05) to 5 (12:20) are due.
    late = decide(EVERY_5, ScheduleState(last_slot=1), at(21.5))
    assert (late.move, late.slot, late.through, late.missed, late.first_missed) == (
        Move.AIR, 5, 5, 3, 2)
    assert late.note() == ("3 missed slots (slots 2-4) while no airing ran; one battle aired "
                           "for them all; slot 5 aired 1 min late")
    assert decide(EVERY_5, ScheduleState(last_slot=late.through), at(21.5)).move is Move.NOTHING


def test_one_slot_aired_late_says_how_late() -> None:
    late = decide(EVERY_5, ScheduleState(last_slot=4), at(22))
    assert (late.slot, late.missed) == (5, 0)
    assert late.note() == "slot 5 aired 2 min late"
    on_time = decide(EVERY_5, ScheduleState(last_slot=4), at(20) + timedelta(seconds=59))
    assert on_time.note() is None


def test_paused_airs_nothing_and_resume_drops_the_paused_slots() -> None:
    paused = schedule.pause(ScheduleState(last_slot=1))
    assert decide(EVERY_5, paused, at(16)).move is Move.NOTHING
    assert schedule.next_slot(EVERY_5, paused, at(16)) is None
    resumed = schedule.resume(EVERY_5, paused, at(16))  # slots 2-4 fell while paused
    assert resumed == ScheduleState(last_slot=4)
    assert decide(EVERY_5, resumed, at(16)).move is Move.NOTHING
    fifth = decide(EVERY_5, resumed, at(20))
    assert (fifth.slot, fifth.missed, fifth.note()) == (5, 0, None)


def test_skip_passes_over_the_next_slot_once() -> None:
    slot, skipping = schedule.skip(EVERY_5, ScheduleState(last_slot=1), at(1))
    assert slot == 2 and skipping.skipped == {2}
    assert schedule.next_slot(EVERY_5, skipping, at(1)) == (3, at(10))
    passed = decide(EVERY_5, skipping, at(5))
    assert (passed.move, passed.through) == (Move.PASS, 2)
    after = ScheduleState(last_slot=2)
    assert decide(EVERY_5, after, at(10)).slot == 3
    twice, both = schedule.skip(EVERY_5, skipping, at(1))  # a second skip takes the one after
    assert twice == 3 and both.skipped == {2, 3}


def test_a_skipped_newest_slot_airs_the_missed_one_before_it() -> None:
    state = ScheduleState(last_slot=1, skipped=frozenset({3}))
    decision = decide(EVERY_5, state, at(10))
    assert (decision.move, decision.slot, decision.through, decision.missed) == (
        Move.AIR, 2, 3, 0)


def test_a_new_schedule_airs_nothing_for_the_past() -> None:
    started = parse_schedule("every", minutes=5, start="2026-12-01T11:00:00Z", now=NOON)
    state = schedule.initial_state(started, at(1))  # 11:00 ... 12:00 are 13 slots before 12:01
    assert state.last_slot == 13
    assert decide(started, state, at(1)).move is Move.NOTHING
    assert decide(EVERY_5, schedule.initial_state(EVERY_5, NOON), NOON).slot == 1


@given(st.lists(st.integers(min_value=0, max_value=4_000), min_size=1, max_size=40))
def test_every_due_slot_is_aired_or_noted_exactly_once(offsets: list[int]) -> None:
    """Whatever the ticks, each slot up to the last tick is counted once: aired or missed."""
    rule = Schedule(ScheduleKind.EVERY, 0, interval_seconds=60)
    state, aired, missed = ScheduleState(), [], 0
    for seconds in sorted(offsets):
        decision = decide(rule, state, schedule.utc_instant(seconds))
        if decision.move is Move.AIR:
            aired.append(decision.slot)
            missed += decision.missed
            state = ScheduleState(last_slot=decision.through)
    assert aired == sorted(set(aired))
    assert len(aired) + missed == max(offsets) // 60 + 1


def test_duration_words() -> None:
    assert schedule.duration_words(2 * 3600 + 14 * 60 + 5) == "2 h 14 min"
    assert [schedule.duration_words(s) for s in (0, 59, 60, 3600, 90000)] == [
        "0 s", "59 s", "1 min", "1 h", "1 d 1 h"]


@pytest.mark.parametrize(("kind", "fields", "field"), [
    ("weekly", {}, "kind"),
    (3, {}, "kind"),
    ("daily", {"at": "7:00"}, "at"),
    ("daily", {"at": "24:00"}, "at"),
    ("daily", {"at": "18:60"}, "at"),
    ("daily", {}, "at"),
    ("daily", {"at": "18:00", "minutes": 5}, "minutes"),
    ("every", {"minutes": 0}, "minutes"),
    ("every", {"minutes": -3}, "minutes"),
    ("every", {"minutes": True}, "minutes"),
    ("every", {"minutes": "five"}, "minutes"),
    ("every", {"seconds": 0}, "seconds"),
    ("every", {}, "minutes"),
    ("every", {"minutes": 5, "seconds": 2}, "minutes"),
    ("every", {"minutes": 5, "at": "18:00"}, "at"),
    ("every", {"minutes": 5, "start": "2026-12-01T18:00:00"}, "start"),
    ("every", {"minutes": 5, "start": "tomorrow"}, "start"),
])
def test_a_bad_schedule_is_refused_naming_its_field(kind: object, fields: dict[str, object],
                                                    field: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_schedule(kind, now=NOON, **fields)  # type: ignore[arg-type]
    assert refused.value.field == field


def test_a_naive_now_is_refused() -> None:
    with pytest.raises(InputError, match="now"):
        schedule.due_slot(EVERY_5, datetime(2026, 12, 1, 12, 0))


# ------------------------------------------------------------ the tables


def set_schedule_on(path: Path | str, rule: Schedule, now: datetime) -> None:
    """Give a season (a file or `URL#ID`) a schedule, as the operator's commands do."""
    store = season.open_store(path, write=True)
    try:
        with store.transaction() as session:
            schedule_store.set_schedule(session, rule, now)
    finally:
        store.close()


def _battles(path: Path) -> int:
    return season.summary(path).battles


def _slots(path: Path) -> list[dict[str, object]]:
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            return schedule_store.recent_slots(session, 100)
    finally:
        store.close()


def test_the_store_airs_a_slot_once_and_downtime_once_with_a_note(season_file: Path) -> None:
    set_schedule_on(season_file, EVERY_5, NOON)
    assert schedule_store.air_due(season_file, "A", at(0)).status == "aired"
    assert schedule_store.air_due(season_file, "A", at(0.5)).status == "nothing"
    assert _battles(season_file) == 1
    down = schedule_store.air_due(season_file, "A", at(21.5))  # slots 2-5 came while down
    assert down.status == "aired" and down.entry is not None and down.entry["number"] == 2
    assert schedule_store.air_due(season_file, "A", at(22)).status == "nothing"
    assert _battles(season_file) == 2
    newest = _slots(season_file)[0]
    assert (newest["slot"], newest["battle"], newest["missed"]) == (5, 2, 3)
    assert "slots 2-4" in str(newest["note"])


def test_another_holder_waits_for_the_lease(season_file: Path) -> None:
    set_schedule_on(season_file, EVERY_5, NOON)
    assert schedule_store.air_due(season_file, "A", at(0)).status == "aired"
    # A holds the lease for 30 s after 12:00; B's slot-2 attempt at 12:05 finds it run out.
    assert schedule_store.air_due(season_file, "B", at(5)).status == "aired"
    # a new version, set at 12:05: its slot 2 is due now, but B's lease lasts to 12:05:30
    set_schedule_on(season_file, EVERY_5, at(5))
    assert schedule_store.air_due(season_file, "C", at(5.2)).status == "leased"
    assert schedule_store.air_due(season_file, "C", at(5.6)).status == "aired"
    assert _battles(season_file) == 3


def test_a_failure_inside_the_battle_transaction_records_neither(season_file: Path) -> None:
    def crash(_session: object, _entry: object) -> None:
        raise RuntimeError("power cut")

    with pytest.raises(RuntimeError):
        list(season.fight(season_file, 1, within=crash))
    assert _battles(season_file) == 0


def test_pause_resume_and_skip_in_the_store(season_file: Path) -> None:
    set_schedule_on(season_file, EVERY_5, NOON)
    assert schedule_store.air_due(season_file, "A", at(0)).status == "aired"
    store = season.open_store(season_file, write=True)
    try:
        with store.transaction() as session:
            schedule_store.set_paused(session, True, at(1))
    finally:
        store.close()
    assert schedule_store.air_due(season_file, "A", at(16)).status == "nothing"
    store = season.open_store(season_file, write=True)
    try:
        with store.transaction() as session:
            resumed = schedule_store.set_paused(session, False, at(16))
            assert resumed.state.last_slot == 4  # 12:05-12:15 fell while paused
            assert schedule_store.skip_next(session, at(16)) == 5
    finally:
        store.close()
    assert schedule_store.air_due(season_file, "A", at(20)).status == "passed"
    assert schedule_store.air_due(season_file, "A", at(25)).status == "aired"
    assert [(s["slot"], s["outcome"], s["missed"]) for s in _slots(season_file)] == [
        (6, "aired", 0), (5, "skipped", 0), (1, "aired", 0)]
    assert _battles(season_file) == 2


def test_a_season_file_made_before_the_schedule_tables_still_opens(season_file: Path) -> None:
    with sqlite3.connect(season_file) as connection:
        connection.execute("DROP TABLE airing_slot")
        connection.execute("DROP TABLE airing_schedule")
    store = season.open_store(season_file)
    try:
        with store.transaction() as session:
            assert schedule_store.read_schedule(session) is None
    finally:
        store.close()
    assert schedule_store.air_due(season_file, "A", NOON).status == "none"
    set_schedule_on(season_file, EVERY_5, NOON)  # the tables are made on first need
    assert schedule_store.air_due(season_file, "A", NOON).status == "aired"


# ------------------------------------------------------------ the command line

runner = CliRunner()


def _cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(root_app, ["conquest", "schedule", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "field"), [
    (["daily", "25:00"], "at"),
    (["every", "0"], "minutes"),
    (["every", "0s"], "seconds"),
    (["weekly", "3"], "kind"),
    (["every", "5", "--start", "2026-13-01T00:00:00Z"], "start"),
])
def test_the_command_line_refuses_a_bad_schedule_in_one_line(season_file: Path, args: list[str],
                                                             field: str) -> None:
    code, _, error = _cli("set", str(season_file), *args)
    assert code == 2
    assert error.strip().count("\n") == 0 and error.startswith(f"InputError: {field}: ")


def test_the_command_line_sets_shows_pauses_resumes_skips_and_runs(
        season_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One moment for every command: a minute rolling over between setting "every 1" and
    # running would make that minute's slot due (a real airing, not the fault checked here).
    from fairfight.conquest.cli import schedule_cli
    monkeypatch.setattr(schedule_cli, "_now", lambda: datetime(2026, 12, 5, 12, 0, 30, tzinfo=UTC))
    assert _cli("show", str(season_file))[1].startswith("no airing schedule")
    code, out, _ = _cli("set", str(season_file), "daily", "18:00")
    assert code == 0 and "schedule: daily at 18:00 UTC (airing)" in out
    code, out, _ = _cli("pause", str(season_file))
    assert code == 0 and "(paused)" in out
    code, out, _ = _cli("resume", str(season_file))
    assert code == 0 and "(airing)" in out
    code, out, _ = _cli("skip", str(season_file))
    assert code == 0 and "will be passed over" in out and "skipping slots:" in out
    code, out, _ = _cli("run", str(season_file), "--once")
    assert code == 0 and out.strip() == "nothing is due now" and _battles(season_file) == 0
    code, _, _ = _cli("set", str(season_file), "every", "1", "--start", "2026-01-01T00:00:00Z")
    assert code == 0
    assert _cli("run", str(season_file), "--once")[1].strip() == "nothing is due now"
    assert _cli("pause", "/nonexistent/season.db")[0] == 2


def test_run_airs_a_due_slot_and_says_so_in_json(season_file: Path) -> None:
    import json

    assert _cli("set", str(season_file), "every", "5")[0] == 0  # slot 1 falls now
    code, out, _ = _cli("run", str(season_file), "--once", "--json")
    said = json.loads(out)
    assert code == 0 and (said["status"], said["slot"], said["battle"]) == ("aired", 1, 1)
    again = json.loads(_cli("run", str(season_file), "--once", "--json")[1])
    assert again == {"status": "nothing", "slot": None, "battle": None, "note": None}
    assert _battles(season_file) == 1


def test_run_without_a_schedule_is_refused(season_file: Path) -> None:
    code, _, error = _cli("run", str(season_file), "--once")
    assert code == 2 and error.startswith("InputError: schedule: ")
