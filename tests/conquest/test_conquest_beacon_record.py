"""Recording a beacon: only the chain's own value, and only once its round has come out [§8].

The round used is a real published quicknet round (the example in the drand-verify package's
README): round 657413 came out at 1692803367 + 657412 × 3 = 1694775603 unix seconds,
2023-09-15T11:00:03Z. Its randomness is SHA-256 of its signature, worked out here with hashlib.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.record import beacon_check
from fairfight.conquest.store import season
from fairfight.core.errors import RuleError
from tests.conquest.helpers import SEED, star_map
from tests.web.conquest_support import QUICKNET_RANDOMNESS, QUICKNET_ROUND, QUICKNET_SIGNATURE

CAME_OUT = datetime(2023, 9, 15, 11, 0, 3, tzinfo=UTC)
PUBLISHED = CAME_OUT - timedelta(hours=1)
LATER = CAME_OUT + timedelta(days=1)


def _season(tmp_path: Path, beacon_round: int = QUICKNET_ROUND) -> Path:
    path = tmp_path / f"b{beacon_round}.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=beacon_round,
                         published=PUBLISHED)
    return path


def _refused(path: Path, randomness: str, signature: str | None, now: datetime) -> RuleError:
    with pytest.raises(RuleError) as refused:
        season.record_beacon(path, randomness, signature, now=now)
    assert season.summary(path).beacon is None  # nothing unverified is ever stored
    return refused.value


def test_the_hand_figures_hold() -> None:
    assert 1692803367 + (QUICKNET_ROUND - 1) * 3 == int(CAME_OUT.timestamp()) == 1694775603
    assert beacon_check.round_came_out(QUICKNET_ROUND) == 1694775603
    assert hashlib.sha256(bytes.fromhex(QUICKNET_SIGNATURE)).hexdigest() == QUICKNET_RANDOMNESS
    assert beacon_check.round_url_path(QUICKNET_ROUND) == (
        "/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/657413")


def test_a_real_round_is_recorded_once_it_has_come_out(tmp_path: Path) -> None:
    path = _season(tmp_path)
    recorded = season.record_beacon(path, QUICKNET_RANDOMNESS.upper(), QUICKNET_SIGNATURE,
                                    now=CAME_OUT)
    expected = {"round": QUICKNET_ROUND, "randomness": QUICKNET_RANDOMNESS,
                "signature": QUICKNET_SIGNATURE}
    assert recorded == expected and season.summary(path).beacon == expected
    again = season.record_beacon(path, QUICKNET_RANDOMNESS, QUICKNET_SIGNATURE, now=LATER)
    assert again == expected


def test_a_round_is_refused_one_second_before_it_comes_out(tmp_path: Path) -> None:
    path = _season(tmp_path)
    early = _refused(path, QUICKNET_RANDOMNESS, QUICKNET_SIGNATURE,
                     CAME_OUT - timedelta(seconds=1))
    assert early.field == "beacon.round"
    assert "comes out at 2023-09-15T11:00:03Z, 1 s from now" in early.rule


def test_a_value_without_a_signature_is_refused(tmp_path: Path) -> None:
    refused = _refused(_season(tmp_path), QUICKNET_RANDOMNESS, None, LATER)
    assert refused.field == "beacon.signature" and "required" in refused.rule


def test_a_signature_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    refused = _refused(_season(tmp_path), QUICKNET_RANDOMNESS, QUICKNET_SIGNATURE[:-2], LATER)
    assert refused.field == "beacon.signature" and "96 hex digits" in refused.rule


def test_randomness_that_is_not_the_signature_digest_is_refused(tmp_path: Path) -> None:
    """The value the issue saw accepted: `c0c0…c0`, here even with a real signature."""
    refused = _refused(_season(tmp_path), "c0" * 32, QUICKNET_SIGNATURE, LATER)
    assert refused.field == "beacon.randomness" and "SHA-256 of the signature" in refused.rule


def test_a_forged_signature_is_refused(tmp_path: Path) -> None:
    forged = "a" + QUICKNET_SIGNATURE[1:]
    digest = hashlib.sha256(bytes.fromhex(forged)).hexdigest()  # consistent, but not signed
    refused = _refused(_season(tmp_path), digest, forged, LATER)
    assert refused.field == "beacon.signature" and "does not verify" in refused.rule


def test_another_rounds_signature_is_refused(tmp_path: Path) -> None:
    path = _season(tmp_path, QUICKNET_ROUND + 1)
    refused = _refused(path, QUICKNET_RANDOMNESS, QUICKNET_SIGNATURE, LATER)
    assert refused.field == "beacon.signature"
    assert f"quicknet round {QUICKNET_ROUND + 1}" in refused.rule


def test_a_recorded_round_cannot_be_replaced(tmp_path: Path) -> None:
    path = _season(tmp_path)
    season.record_beacon(path, QUICKNET_RANDOMNESS, QUICKNET_SIGNATURE, now=LATER)
    with pytest.raises(RuleError) as refused:
        season.record_beacon(path, "c0" * 32, QUICKNET_SIGNATURE, now=LATER)
    assert refused.value.field == "beacon" and "already recorded" in refused.value.rule


def test_the_command_line_names_the_reason(tmp_path: Path) -> None:
    path = _season(tmp_path)
    runner = CliRunner()
    unsigned = runner.invoke(app, ["beacon", str(path), "--randomness", QUICKNET_RANDOMNESS])
    assert unsigned.exit_code == 2 and "beacon.signature" in unsigned.output
    fake = runner.invoke(app, ["beacon", str(path), "--randomness", "c0" * 32,
                               "--signature", QUICKNET_SIGNATURE])
    assert fake.exit_code == 2 and "beacon.randomness" in fake.output
    done = runner.invoke(app, ["beacon", str(path), "--randomness", QUICKNET_RANDOMNESS,
                               "--signature", QUICKNET_SIGNATURE])
    assert done.exit_code == 0, done.output
    assert season.summary(path).beacon is not None
