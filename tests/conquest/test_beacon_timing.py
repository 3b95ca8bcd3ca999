"""The beacon round must come out after the season's header was published [§2, §8].

Golden cases, each run through both verifiers (engine.py and engine.js) on the same archive
folder. Every expected time is worked out here from quicknet's clock: round r comes out at
1692803367 + (r − 1) × 3 unix seconds; the dates are written with the standard library's own
calendar, not the engine's.
"""

from __future__ import annotations

import calendar
import copy
import hashlib
import json
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.record import archive, beacons, season_luck, verifier
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import publication, season
from tests.conquest.helpers import SEED, champion_code, star_map
from tests.conquest.verifiers import ENGINE_JS, javascript_verdicts, python_verdict
from tests.system import node_path
from tests.web.conquest_support import store_unchecked_beacon

GENESIS = 1692803367  # quicknet round 1, unix seconds
PERIOD = 3
QUICKNET_HASH = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
PUBLISHED = "2024-05-01T12:00:00Z"
PUBLISHED_AT = calendar.timegm((2024, 5, 1, 12, 0, 0))  # 1714564800
AN_HOUR_LATER = 7255012  # 1692803367 + 7255011 × 3 = 1714568400 = PUBLISHED_AT + 3600
SAME_SECOND = 7253812  # 1692803367 + 7253811 × 3 = 1714564800 = PUBLISHED_AT
RANDOMNESS = "ab" * 32
REMOVE = object()
"""As a header change: take the field out."""


def _utc(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _came_out(beacon_round: int) -> int:
    return GENESIS + (beacon_round - 1) * PERIOD


def test_the_hand_figures_hold() -> None:
    assert PUBLISHED_AT == 1714564800
    assert _came_out(AN_HOUR_LATER) == 1714568400 == PUBLISHED_AT + 3600
    assert _came_out(SAME_SECOND) == PUBLISHED_AT
    assert _utc(GENESIS) == "2023-08-23T15:09:27Z"


def _record(header_changes: dict[str, Any], beacon_round: int = AN_HOUR_LATER) -> dict[str, Any]:
    """A whole season on the star map drawing on `beacon_round`, header changed as asked."""
    map_data = engine.canonical_map({**star_map(), "name": "star"})
    state = engine.new_state(map_data, engine.season_key(SEED, RANDOMNESS))
    history = []
    while not state["board"]["ended"]:
        state, entry = engine.play_step(state, [])
        history.append(entry)
    header: dict[str, Any] = {
        "ruleset": "conquest",
        "engine_version": tables.ENGINE_VERSION,
        "engine_files": archive.engine_digests(archive.engine_sources()),
        "map_name": "star",
        "map_sha256": engine.map_sha256(map_data),
        "max_battles": None,
        "beacon": {
            "name": "quicknet",
            "chain_hash": QUICKNET_HASH,
            "period_seconds": PERIOD,
            "round": beacon_round,
        },
        "published": PUBLISHED,
    }
    for key, value in header_changes.items():
        if value is REMOVE:
            del header[key]
        elif key == "beacon" and value is not None:
            header["beacon"] = {**header["beacon"], **value}
        else:
            header[key] = value
    return {
        "header": header,
        "commitment": hashlib.sha256(SEED.encode()).hexdigest(),
        "seed": SEED,
        "beacon": None
        if header["beacon"] is None
        else {"round": header["beacon"]["round"], "randomness": RANDOMNESS, "signature": None},
        "map": map_data,
        "ledger": [],
        "history": history,
        "final_map": state["board"],
        "luck": season_luck.season_luck(history, champion_code(state)),
    }


def _timing_note(beacon_round: int, published: str = PUBLISHED, at: int = PUBLISHED_AT) -> str:
    came_out = _came_out(beacon_round)
    return (
        f"beacon timing: quicknet round {beacon_round} came out at {_utc(came_out)}, "
        f"{came_out - at} s after header.published {published}"
    )


def _too_early(beacon_round: int) -> str:
    return (
        f"header: field beacon.round: quicknet round {beacon_round} came out at "
        f"{_utc(_came_out(beacon_round))}, not after header.published {PUBLISHED}; "
        "the round must come after the commitment is published"
    )


def _bad_format(value: Any) -> str:
    shown = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    rule = f"must be a UTC time written YYYY-MM-DDTHH:MM:SSZ, found {shown}"
    return f"header: field published: {rule}"


NO_TIME = "publication time not recorded: the beacon timing cannot be checked"
OTHER_CHAIN = "0f" * 32

GOLDEN: list[tuple[str, dict[str, Any], int, str, str]] = [
    # (name, header changes, round, "pass" or "fail", the timing note or the failure line)
    ("an hour after", {}, AN_HOUR_LATER, "pass", _timing_note(AN_HOUR_LATER)),
    ("three seconds after", {}, SAME_SECOND + 1, "pass", _timing_note(SAME_SECOND + 1)),
    ("the same second", {}, SAME_SECOND, "fail", _too_early(SAME_SECOND)),
    ("three seconds before", {}, SAME_SECOND - 1, "fail", _too_early(SAME_SECOND - 1)),
    ("round 1", {}, 1, "fail", _too_early(1)),
    ("no publication time", {"published": REMOVE}, AN_HOUR_LATER, "pass", NO_TIME),
    ("no time, early round", {"published": REMOVE}, 1, "pass", NO_TIME),
    (
        "another chain",
        {"beacon": {"chain_hash": OTHER_CHAIN, "name": "other"}},
        1,
        "pass",
        f"beacon timing not checked: chain {OTHER_CHAIN} is not one this verifier knows "
        f"(header.published {PUBLISHED})",
    ),
    (
        "quicknet with another period",
        {"beacon": {"period_seconds": 30}},
        AN_HOUR_LATER,
        "fail",
        "header: field beacon.period_seconds: expected 3, found 30",
    ),
    (
        "a time without a beacon",
        {"beacon": None},
        AN_HOUR_LATER,
        "fail",
        'header: field published: expected nothing, found "2024-05-01T12:00:00Z"',
    ),
    (
        "a leap day",
        {"published": "2024-02-29T23:59:59Z"},
        AN_HOUR_LATER,
        "pass",
        _timing_note(
            AN_HOUR_LATER, "2024-02-29T23:59:59Z", calendar.timegm((2024, 2, 29, 23, 59, 59))
        ),
    ),
    (
        "the same second, another year",
        {"published": "2000-01-01T00:00:00Z"},
        1,
        "pass",
        _timing_note(1, "2000-01-01T00:00:00Z", 946684800),
    ),
]
MALFORMED: list[Any] = [
    "2024-05-01 12:00:00Z",
    "2024-05-01T12:00:00",
    "2024-05-01T12:00:00+00:00",
    "2024-05-01T12:00:00.5Z",
    "2024-05-01t12:00:00z",
    "2024-5-01T12:00:00Z",
    "2023-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2024-04-31T00:00:00Z",
    "2024-13-01T00:00:00Z",
    "2024-00-10T00:00:00Z",
    "2024-05-00T00:00:00Z",
    "2024-05-01T24:00:00Z",
    "2024-05-01T12:60:00Z",
    "2024-05-01T12:00:60Z",
    "2024-05-01T12:00:00Z\n",
    " 2024-05-01T12:00:00Z",
    "２０２４-05-01T12:00:00Z",
    "",
    1714564800,
    None,
    True,
    ["2024-05-01T12:00:00Z"],
]


def _write(record: dict[str, Any], folder: Path) -> Path:
    archive.write_folder(archive.archive_files(record, archive.engine_sources()), folder)
    return folder


def test_golden_cases_pass_both_verifiers_alike(tmp_path: Path) -> None:
    cases = [
        (name, verdict, line, _write(_record(changes, beacon_round), tmp_path / f"g{i}"))
        for i, (name, changes, beacon_round, verdict, line) in enumerate(GOLDEN)
    ]
    malformed = [
        (value, _write(_record({"published": value}), tmp_path / f"m{i}"))
        for i, value in enumerate(MALFORMED)
    ]
    script = javascript_verdicts([c[3] for c in cases] + [m[1] for m in malformed], tmp_path)
    for name, verdict, line, folder in cases:
        ok, message, notes = python_verdict(folder)
        javascript = script[str(folder)]
        assert (ok, javascript["ok"]) == (verdict == "pass",) * 2, (name, message)
        if ok:
            assert javascript["notes"] == notes, name
            assert line in notes, (name, notes)
        else:
            assert message == javascript["message"] == line, name
    for value, folder in malformed:
        ok, message, _ = python_verdict(folder)
        javascript = script[str(folder)]
        assert not ok and not javascript["ok"], value
        assert message == javascript["message"], value
        assert message == _bad_format(value), value


def _both_verifiers(folder: Path) -> list[subprocess.CompletedProcess[str]]:
    """`verify .` by the archive's own engine.js and engine.py (bare Python, no site)."""
    return [
        subprocess.run(
            [*command, "verify", "."],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
            env={"PATH": "/usr/bin:/bin"},
        )
        for command in ([node_path(), "engine.js"], [sys.executable, "-S", "engine.py"])
    ]


def test_the_timing_note_comes_before_the_beacon_note_in_both(tmp_path: Path) -> None:
    folder = _write(_record({}), tmp_path / "good")
    _, _, notes = python_verdict(folder)
    timing = notes.index(_timing_note(AN_HOUR_LATER))
    assert notes[timing + 1].startswith(f"beacon round {AN_HOUR_LATER} mixed into the season key")
    runs = _both_verifiers(folder)
    assert [run.returncode for run in runs] == [0, 0], [run.stderr for run in runs]
    assert runs[0].stdout == runs[1].stdout
    assert f"ok: {_timing_note(AN_HOUR_LATER)}\n" in runs[0].stdout
    early = _write(_record({}, SAME_SECOND), tmp_path / "early")
    runs = _both_verifiers(early)
    assert [run.returncode for run in runs] == [1, 1]
    assert runs[0].stderr == runs[1].stderr == f"MISMATCH {_too_early(SAME_SECOND)}\n"


def test_a_stored_header_with_a_bad_time_is_a_damaged_season() -> None:
    header = _record({})["header"]
    verifier.check_header(header)
    broken = copy.deepcopy(header)
    broken["published"] = "yesterday"
    with pytest.raises(engine.ReplayMismatch, match="field published"):
        verifier.check_header(broken)


# ---------------------------------------------------------------- conquest new

runner = CliRunner()
NOW = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)
# The first round that comes out 60 s or more after NOW: 1692803367 + 7253831 × 3 = 1714564860.
FIRST_ALLOWED = 7253832


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> datetime:
    monkeypatch.setattr(beacons, "utc_now", lambda: NOW)
    return NOW


def test_the_lead_figures_hold() -> None:
    assert tables.BEACON_LEAD_SECONDS == 60
    assert _came_out(FIRST_ALLOWED) == PUBLISHED_AT + 60
    assert _came_out(FIRST_ALLOWED - 1) == PUBLISHED_AT + 57


def test_new_records_the_publication_time_with_a_beacon(tmp_path: Path, clock: datetime) -> None:
    map_file = tmp_path / "star.json"
    map_file.write_text(json.dumps(star_map()), encoding="utf-8")
    result = runner.invoke(
        app,
        ["new", str(tmp_path / "s.db"), "--map", str(map_file), "--seed", SEED,
         "--beacon-round", str(FIRST_ALLOWED), "--json"],
    )
    assert result.exit_code == 0, result.output
    header = json.loads(result.output)["header"]
    assert header["published"] == PUBLISHED
    assert header["beacon"]["round"] == FIRST_ALLOWED


def test_new_refuses_a_round_that_comes_too_soon(tmp_path: Path, clock: datetime) -> None:
    map_file = tmp_path / "star.json"
    map_file.write_text(json.dumps(star_map()), encoding="utf-8")
    for beacon_round in (FIRST_ALLOWED - 1, SAME_SECOND, 42):
        result = runner.invoke(
            app,
            ["new", str(tmp_path / "s.db"), "--map", str(map_file),
             "--beacon-round", str(beacon_round)],
        )
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1, result.output
        assert lines[0].startswith(
            f"RuleError: --beacon-round: quicknet round {beacon_round} comes out at "
            f"{_utc(_came_out(beacon_round))}, but a round must come out at least 60 s after "
            f"the header is published ({PUBLISHED})"
        )
        assert lines[0].endswith(f"choose round {FIRST_ALLOWED} or later")
        assert not (tmp_path / "s.db").exists()


def test_a_season_without_a_beacon_keeps_its_header(tmp_path: Path, clock: datetime) -> None:
    created = season.create_season(tmp_path / "plain.db", star_map(), "star", seed=SEED)
    assert sorted(created.header) == [
        "beacon", "engine_files", "engine_version", "log_key", "map_name", "map_sha256",
        "max_battles", "ruleset",
    ]
    assert created.header["beacon"] is None


def test_a_beacon_season_verifies_end_to_end_with_both_times(
    tmp_path: Path, clock: datetime
) -> None:
    path = tmp_path / "b.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=AN_HOUR_LATER)
    store_unchecked_beacon(path, RANDOMNESS)  # no real round of that time is at hand
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    notes = publication.verify_folder(tmp_path / "record")
    assert _timing_note(AN_HOUR_LATER) in notes
    assert "2024-05-01T13:00:00Z" in _timing_note(AN_HOUR_LATER)  # the round, an hour later
    script = javascript_verdicts([tmp_path / "record"], tmp_path)[str(tmp_path / "record")]
    assert script["ok"] and _timing_note(AN_HOUR_LATER) in script["notes"]


def test_a_naive_publication_time_is_taken_as_utc() -> None:
    fields = beacons.header_fields(AN_HOUR_LATER, datetime(2024, 5, 1, 12, 0, 0, 999_999))
    assert fields["published"] == PUBLISHED


def test_the_docs_state_the_engine_figures() -> None:
    """docs/conquest.md and VERIFY.md are written by hand; they must quote the engine's figures."""
    root = Path(engine.__file__).resolve().parents[4]
    docs = (root / "docs" / "conquest.md").read_text(encoding="utf-8")
    guide = (Path(engine.__file__).parents[1] / "record" / "VERIFY.md").read_text(encoding="utf-8")
    clock = f"{tables.QUICKNET['genesis']} + {tables.QUICKNET['period_seconds']} × (r − 1)"
    assert clock in docs and clock in guide
    assert f"less than {tables.BEACON_LEAD_SECONDS} seconds after" in docs


CLOCKS = """
const e = require(process.argv[1]);
const input = JSON.parse(require("node:fs").readFileSync(0, "utf-8"));
const out = {
  texts: input.texts.map((t) => {
    const s = e.publishedSeconds(t);
    return s === null ? null : String(s);
  }),
  seconds: input.seconds.map((s) => e.utcText(BigInt(s))),
};
process.stdout.write(JSON.stringify(out));
"""


def test_both_verifiers_read_and_write_times_alike() -> None:
    """Thousands of times, well formed or nearly so, read by both and by the standard library."""
    rng = random.Random(8)
    seconds = [rng.randrange(0, 253402300800) for _ in range(3000)]  # up to 9999-12-31
    seconds += [0, 86399, 951782400, 951868800, 4107542399, GENESIS, 10**15]
    texts: list[str] = []
    for value in seconds[:3000]:
        text = _utc(value)
        texts.append(text)
        position = rng.randrange(len(text))
        texts.append(text[:position] + rng.choice("0123456789TZ:-9") + text[position + 1 :])
    texts += [f"{y:04d}-02-29T00:00:00Z" for y in (1600, 1700, 1900, 2000, 2023, 2024, 2100)]
    run = subprocess.run(
        [node_path(), "-e", CLOCKS, str(ENGINE_JS)],
        input=json.dumps({"texts": texts, "seconds": [str(s) for s in seconds]}),
        capture_output=True,
        text=True,
        check=True,
    )
    script = json.loads(run.stdout)
    python = [beacons.published_seconds(text) for text in texts]
    assert script["texts"] == [None if s is None else str(s) for s in python]
    for text, value in zip(texts, python, strict=True):
        try:
            moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
            expected: int | None = int(moment.timestamp())
        except ValueError:
            expected = None
        if expected is not None and len(text) != len("2024-05-01T12:00:00Z"):
            expected = None  # strptime lets one-digit fields through; the format does not
        assert value == expected, text
    assert script["seconds"] == [beacons.utc_text(s) for s in seconds]
    assert [beacons.utc_text(s) for s in seconds[:-1]] == [_utc(s) for s in seconds[:-1]]
