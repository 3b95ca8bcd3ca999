"""Every record reader of the command line (clash, ballot, conquest) fed records broken in one
place: a value of another type, a lone surrogate, a list 10,000 deep, or a million and one
lines. The promise: exit 2 with one line (exit 1 when a well-formed record replays
differently), never a traceback or an "unexpected failure", never a hang."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.fuzz.conftest import assert_refused, invoke
from tests.fuzz.hostile_records import (
    DEEP_TEXT,
    HostileRecord,
    hostile_records,
    many_lines,
    sample,
)

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "examples" / "clash" / "scenarios" / "belvoir-wood.yaml"
SAMPLE_SIZE = 12
"""Cases per command in the default run; the slow run takes every clash case (a few thousand)."""
SLOW_SIZE = 600
"""Cases of the ballot and conquest records in the slow run, spread over all of them (tens of
thousands; each replays a whole game or season, about half a second)."""
Verb = Callable[[Path], list[object]]
CLASH_VERBS: dict[str, Verb] = {
    "replay": lambda record: ["clash", "replay", record],
    "turn": lambda record: ["clash", "turn", record, "--json"],
    "board": lambda record: ["clash", "board", record, "--json"],
}


def assert_handled(result: Any, codes: tuple[int, ...] = (0, 1, 2)) -> None:
    """A run that ends as the command line promises: success, or one clear line."""
    assert "unexpected failure" not in result.stderr, result.stderr
    if result.exit_code == 0:
        assert result.exception is None, result.exception
        assert result.exit_code in codes
        return
    assert_refused(result, codes=tuple(code for code in codes if code))


@pytest.fixture(scope="module")
def clash_lines(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    record = tmp_path_factory.mktemp("clash") / "game.jsonl"
    played = invoke("clash", "play", SCENARIO, "--turns", "2", "--record", record)
    assert played.exit_code == 0, played.output
    return [json.loads(line) for line in record.read_text("utf-8").splitlines()]


@pytest.fixture(scope="module")
def ballot_lines(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    record = tmp_path_factory.mktemp("ballot") / "game.jsonl"
    played = invoke("ballot", "play", "--seed", "7", "--record", record)
    assert played.exit_code == 0, played.output
    return [json.loads(line) for line in record.read_text("utf-8").splitlines()]


def _run(verb: Verb, case: HostileRecord, folder: Path) -> Any:
    record = folder / "record.jsonl"
    record.write_bytes(case.data)
    return invoke(*verb(record))


def _check(verb_name: str, case: HostileRecord, result: Any,
           never_read: tuple[int, ...] = (2,)) -> None:
    # a value may be replaced by an equal one (an empty `classes`, a config of its defaults),
    # and a break of the events leaves `turn` and `board` a valid game (they replay orders
    # only): those may succeed; a lone surrogate or a deep list never, it is refused with
    # `never_read` (bad input, 2; a verifier answers a file of the record it cannot read as a
    # failed check, 1)
    codes: tuple[int, ...] = (0, 1, 2)
    if "surrogate" in case.name or "deep" in case.name:
        codes = never_read
    try:
        assert_handled(result, codes)
    except AssertionError as error:
        raise AssertionError(f"{verb_name}, {case.name}: {error}") from None


@pytest.mark.parametrize("verb", sorted(CLASH_VERBS))
def test_a_sample_of_broken_clash_records(verb: str, clash_lines: list[Any],
                                          tmp_path: Path) -> None:
    cases = list(hostile_records(clash_lines))
    for case in sample(cases, SAMPLE_SIZE):
        _check(verb, case, _run(CLASH_VERBS[verb], case, tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("verb", sorted(CLASH_VERBS))
def test_every_broken_clash_record(verb: str, clash_lines: list[Any], tmp_path: Path) -> None:
    for case in hostile_records(clash_lines):
        _check(verb, case, _run(CLASH_VERBS[verb], case, tmp_path))


def _ballot_lines_to_break(lines: list[Any]) -> set[int]:
    """The header, the first year's opening events, the first decision of each kind, and the
    reveal: every shape a ballot record holds, without replaying a whole game per value of
    each of its thousand lines."""
    kinds: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        kind = f"{line.get('event')} {line.get('choice', {}).get('type', '')}"
        kinds.setdefault(kind, number)
    return {1, 2, 3, len(lines), *kinds.values()}


def test_a_sample_of_broken_ballot_records(ballot_lines: list[Any], tmp_path: Path) -> None:
    cases = list(hostile_records(ballot_lines, _ballot_lines_to_break(ballot_lines)))
    for case in sample(cases, SAMPLE_SIZE):
        _check("ballot replay", case, _run(lambda r: ["ballot", "replay", r], case, tmp_path))


@pytest.mark.slow
def test_many_broken_ballot_records(ballot_lines: list[Any], tmp_path: Path) -> None:
    cases = list(hostile_records(ballot_lines, _ballot_lines_to_break(ballot_lines)))
    for case in sample(cases, SLOW_SIZE):
        _check("ballot replay", case, _run(lambda r: ["ballot", "replay", r], case, tmp_path))


@pytest.mark.parametrize("events", ["x", None, [1, 2], [7], [["clash"]], [{"event": 7}], [{}]],
                         ids=["string", "null", "ints", "seven", "list", "kind-int", "empty"])
@pytest.mark.parametrize("verb", sorted(CLASH_VERBS))
def test_clash_events_of_the_wrong_type(verb: str, events: Any, clash_lines: list[Any],
                                        tmp_path: Path) -> None:
    broken = [clash_lines[0], {**clash_lines[1], "events": events}]
    record = tmp_path / "record.jsonl"
    record.write_text("".join(json.dumps(line) + "\n" for line in broken), "utf-8")
    line = assert_refused(invoke(*CLASH_VERBS[verb](record)), codes=(2,))
    assert f"{record}:2: events" in line


def test_an_ai_player_who_is_not_in_the_game(clash_lines: list[Any], tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    header = {**clash_lines[0], "ai_players": ["nobody"]}
    record.write_text(json.dumps(header) + "\n", "utf-8")
    line = assert_refused(invoke("clash", "turn", record), codes=(2,))
    assert "ai_players[0]" in line and "'nobody'" in line and "not a player" in line


@pytest.mark.parametrize("command", [["clash", "replay"], ["clash", "turn"], ["clash", "board"],
                                     ["ballot", "replay"]], ids=" ".join)
def test_a_surrogate_and_deep_nesting_in_any_record(command: list[str], tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    record.write_text('{"format": "x", "name": "\\ud800"}\n', "utf-8")
    assert "lone surrogate" in assert_refused(invoke(*command, record), codes=(2,))
    record.write_text(DEEP_TEXT + "\n", "utf-8")
    assert "nested more than" in assert_refused(invoke(*command, record), codes=(2,))


@pytest.mark.parametrize("command", [["clash", "replay"], ["ballot", "replay"]], ids=" ".join)
def test_a_million_and_one_tiny_lines(command: list[str], clash_lines: list[Any],
                                      tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    record.write_bytes(many_lines(json.dumps(clash_lines[0]).encode("utf-8")))
    assert "more than 1000000 lines" in assert_refused(invoke(*command, record), codes=(2,))


CONQUEST_RECORD = ROOT / "examples" / "conquest" / "tiny-record"
CONQUEST_FILES = ("header.json", "final-map.json", "ledger.jsonl", "history.jsonl")
VERIFIER_TEXT_KINDS = ("surrogate",)
"""Kinds the conquest verifier's own text rule answers (kept out here; its suite has them)."""


def _conquest_cases() -> list[tuple[str, HostileRecord]]:
    """One-place breaks of the record's JSON files (the first two lines of a JSON Lines one)."""
    cases = []
    for name in CONQUEST_FILES:
        text = (CONQUEST_RECORD / name).read_text("utf-8")
        lines = [json.loads(line) for line in text.splitlines()]
        head, rest = (lines[:2], lines[2:]) if name.endswith(".jsonl") else (lines, [])
        tail = "".join(json.dumps(line) + "\n" for line in rest).encode("utf-8")
        for case in hostile_records(head):
            if not any(kind in case.name for kind in VERIFIER_TEXT_KINDS):
                cases.append((name, HostileRecord(case.name, case.data + tail)))
    return cases


def _verify_broken(name: str, case: HostileRecord, folder: Path) -> None:
    """`conquest verify` of the record with one file broken and the manifest made to agree,
    so the break reaches the readers behind the manifest check."""
    record = folder / "record"
    if record.exists():
        shutil.rmtree(record)
    shutil.copytree(CONQUEST_RECORD, record)
    (record / name).write_bytes(case.data)
    manifest = []
    for line in (CONQUEST_RECORD / "manifest.sha256").read_text("utf-8").splitlines():
        member = line.split()[1]
        manifest.append(f"{hashlib.sha256((record / member).read_bytes()).hexdigest()}  {member}")
    (record / "manifest.sha256").write_text("\n".join(manifest) + "\n", "utf-8")
    _check("conquest verify", case, invoke("conquest", "verify", record), never_read=(1,))


def test_a_sample_of_broken_conquest_records(tmp_path: Path) -> None:
    cases = _conquest_cases()
    for index in range(0, len(cases), max(1, len(cases) // SAMPLE_SIZE)):
        _verify_broken(*cases[index], tmp_path)


@pytest.mark.slow
def test_many_broken_conquest_records(tmp_path: Path) -> None:
    cases = _conquest_cases()
    for index in range(0, len(cases), max(1, len(cases) // SLOW_SIZE)):
        _verify_broken(*cases[index], tmp_path)
