"""`ballot play --resume` fed paused records broken in one place (every field of the pause line
and of the header, any hostile value) and options the saved game fixes: each is exit 2 with
one line, before any of the game is played on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fairfight.ballot import make_bots, named_config, record_game
from fairfight.ballot.record import paused_record
from tests.fuzz.conftest import assert_refused, invoke
from tests.fuzz.hostile_records import (
    HOSTILE_VALUES,
    HostileRecord,
    hostile_records,
    sample,
    with_value,
)

KEY = "1005"
NAMES = ["pollster", "machine", "pollster", "machine"]
PAUSE_VALUES: dict[str, list[Any]] = {
    "phase": ["garbage", "", "DRAFT", "veto", 7, None, ["draft"], "\ud800"],
    "year": [-1, 0, 10**38, "2028", 2400, 2028.0, True, None, 2027, 2044],
    "key": ["", "1006", "x" * 64, 1005, None, "\ud800"],
    "event": ["reveal", "Pause", None, 1],
}
"""Values for each field of the pause line (the issue's examples among them)."""
FIXED_OPTIONS = [["--players", "pollster,pollster"], ["--config", "as-written"],
                 ["--victory", "amendment"], ["--seed", "7"], ["--human", "0"],
                 ["--years", "2"]]
SAMPLE_SIZE = 10


@pytest.fixture(scope="module")
def paused() -> list[Any]:
    """A game stopped after its 31st decision, as Ctrl-C saves it."""
    config = named_config("as-written-plus")
    _, lines = record_game(config, KEY, make_bots(NAMES))
    body = lines[1:-1]
    cut = [n for n, event in enumerate(body) if event["event"] == "decision"][30]
    saved: list[Any] = json.loads(json.dumps(paused_record(config, KEY, NAMES, body[: cut + 1])))
    return saved


def _resume(lines: list[Any] | bytes, folder: Path, *extra: str) -> Any:
    record = folder / "paused.jsonl"
    if isinstance(lines, bytes):
        record.write_bytes(lines)
    else:
        record.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return invoke("ballot", "play", "--resume", record, "--json", *extra)


def test_the_unbroken_record_resumes(paused: list[Any], tmp_path: Path) -> None:
    resumed = _resume(paused, tmp_path)
    assert resumed.exit_code == 0, resumed.output


@pytest.mark.parametrize(("field", "value"),
                         [(field, value) for field, values in PAUSE_VALUES.items()
                          for value in values],
                         ids=lambda v: repr(v)[:20])
def test_every_field_of_the_pause_line_is_checked(field: str, value: Any, paused: list[Any],
                                                  tmp_path: Path) -> None:
    broken = [*paused[:-1], {**paused[-1], field: value}]
    line = assert_refused(_resume(broken, tmp_path), codes=(2,))
    assert "resume" in line or "paused.jsonl" in line


@pytest.mark.parametrize("extra", FIXED_OPTIONS, ids=lambda words: words[0])
def test_options_the_saved_game_fixes_are_refused(extra: list[str], paused: list[Any],
                                                  tmp_path: Path) -> None:
    line = assert_refused(_resume(paused, tmp_path, *extra), codes=(2,))
    assert extra[0] in line and "the saved game fixes" in line


def _cases(paused: list[Any]) -> list[HostileRecord]:
    """One-place breaks of the header and the pause line (a break in the events is the
    replay's to find, exit 1); a pause line missing a field, or with one more."""
    cases = [case for case in hostile_records([paused[0], paused[-1]])]
    for field in paused[-1]:
        without = {k: v for k, v in paused[-1].items() if k != field}
        cases.append(HostileRecord(f"pause without {field}", json.dumps(without).encode()))
    extra = with_value(paused[-1], ("extra",), HOSTILE_VALUES["string"])
    cases.append(HostileRecord("pause with an extra field", json.dumps(extra).encode()))
    return cases


def _as_record(case: HostileRecord, paused: list[Any]) -> bytes:
    """The case's broken header and pause line around the real events."""
    lines = case.data.decode("utf-8").splitlines()
    if len(lines) == 1:   # a pause line alone
        lines = [json.dumps(paused[0]), lines[0]]
    events = "".join(json.dumps(event) + "\n" for event in paused[1:-1])
    return f"{lines[0]}\n{events}{lines[1]}\n".encode()


def _check(case: HostileRecord, paused: list[Any], folder: Path) -> None:
    result = _resume(_as_record(case, paused), folder)
    codes: tuple[int, ...] = (2,)
    if case.name.endswith(" same-type") and "surrogate" not in case.name:
        # another word for the config's name, a shorter year cap, an empty mapping of defaults:
        # a record this program could have written, which may resume, or whose recorded events
        # the new value no longer replays (exit 1, as `replay` says)
        if result.exit_code == 0:
            return
        codes = (1, 2)
    try:
        assert_refused(result, codes=codes)
    except AssertionError as error:
        raise AssertionError(f"{case.name}: {error}") from None


def test_a_sample_of_broken_paused_records(paused: list[Any], tmp_path: Path) -> None:
    for case in sample(_cases(paused), SAMPLE_SIZE):
        _check(case, paused, tmp_path)


@pytest.mark.slow
def test_every_broken_paused_record(paused: list[Any], tmp_path: Path) -> None:
    for case in _cases(paused):
        _check(case, paused, tmp_path)
