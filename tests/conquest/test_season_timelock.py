"""A seed that unlocks itself: `conquest new --ends-by` timelocks the seed to a drand round, no
battle airs near that round, and once its beacon is out the season verifies without the operator.

A drand network of our own (`FakeDrand`) stands in for quicknet, whose future rounds a test
cannot wait for; it has quicknet's genesis and period, so rounds fall at the same times."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.record import beacons, verifier
from fairfight.conquest.rules.schedule import parse_schedule
from fairfight.conquest.store import schedule_store, season, season_timelock
from fairfight.conquest.store.seeds import seed_file_for
from fairfight.core import timelock
from fairfight.core.errors import RuleError
from tests.conquest.helpers import SEED, reseal, star_map
from tests.conquest.test_examples import EXAMPLE
from tests.core.timelock_network import FakeDrand
from tests.system import node_path

pytest.importorskip("py_arkworks_bls12381")

NOW = datetime.fromtimestamp(1_800_000_000, UTC)  # 2027-01-15T08:00:00Z
ENDS_BY = "2027-01-16T08:00:00Z"  # NOW + 86400 s = 1_800_086_400
UNLOCK_ROUND = 35_789_812
"""By hand: the seed unlocks at ENDS_BY + 1 day = 1_800_172_800; that minus quicknet's genesis
1_692_803_367 is 107_369_433 s = 35_789_811 periods of 3 s exactly, so round 35_789_811 + 1."""
UNLOCK_TIME = 1_800_172_800
runner = CliRunner()


def cli(*arguments: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in arguments])


@pytest.fixture(scope="module")
def drand() -> FakeDrand:
    return FakeDrand.create()


@pytest.fixture
def locked(drand: FakeDrand, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A season on the star map made at NOW with --ends-by ENDS_BY, on the test network."""
    monkeypatch.setitem(timelock.KNOWN_NETWORKS, drand.network.chain_hash, drand.network)
    monkeypatch.setattr(season_timelock, "NETWORK", drand.network)
    monkeypatch.setattr(beacons, "utc_now", lambda: NOW)
    map_file = tmp_path / "star.json"
    map_file.write_text(json.dumps(star_map()), encoding="utf-8")
    path = tmp_path / "season.db"
    made = cli("new", path, "--map", map_file, "--seed", SEED, "--ends-by", ENDS_BY, "--json")
    assert made.exit_code == 0, made.output
    return path


def test_the_round_after_the_planned_end_by_hand() -> None:
    end = datetime.fromtimestamp(1_800_086_400, UTC)
    assert season_timelock.unlock_round(end) == UNLOCK_ROUND
    assert timelock.QUICKNET.time_of(UNLOCK_ROUND) == UNLOCK_TIME
    one_second_later = datetime.fromtimestamp(1_800_086_401, UTC)
    assert season_timelock.unlock_round(one_second_later) == UNLOCK_ROUND + 1


def test_new_says_when_the_seed_unlocks_and_airing_stops(
        locked: Path, tmp_path: Path) -> None:
    again = cli("new", tmp_path / "other.db", "--map", tmp_path / "star.json", "--ends-by",
                ENDS_BY)
    assert again.exit_code == 0, again.output
    assert (f"the seed unlocks with test-drand round {UNLOCK_ROUND} at 2027-01-17T08:00:00Z; "
            "no battle airs from 2027-01-17T07:00:00Z on") in again.output.splitlines()


def test_the_header_publishes_the_locked_seed_as_leaf_0(locked: Path, drand: FakeDrand) -> None:
    header = season.summary(locked).header
    spec = header["timelock"]
    assert (spec["network"], spec["chain_hash"], spec["round"]) == (
        "test-drand", drand.network.chain_hash, UNLOCK_ROUND)
    assert timelock.locked_round(spec["ciphertext"]).round == UNLOCK_ROUND
    assert SEED not in json.dumps(header)
    assert timelock.decrypt(spec["ciphertext"], drand.sign(UNLOCK_ROUND), drand.network) \
        == SEED.encode()
    verifier.check_header(header)


def test_no_battle_airs_from_an_hour_before_the_unlock(
        locked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    last_moment = datetime.fromtimestamp(UNLOCK_TIME - 3600 - 1, UTC)
    monkeypatch.setattr(beacons, "utc_now", lambda: last_moment)
    assert len(list(season.fight(locked, 1))) == 1
    too_late = datetime.fromtimestamp(UNLOCK_TIME - 3600, UTC)
    monkeypatch.setattr(beacons, "utc_now", lambda: too_late)
    with pytest.raises(RuleError, match="no battle airs from 2027-01-17T07:00:00Z on"):
        list(season.fight(locked, 1))
    refused = cli("next", locked)
    assert refused.exit_code == 2
    assert refused.output.strip().splitlines() == [
        "RuleError: timelock: no battle airs from 2027-01-17T07:00:00Z on: the seed unlocks "
        f"with test-drand round {UNLOCK_ROUND} at 2027-01-17T08:00:00Z and airing stops "
        "3600 s before"]


def test_the_operator_vanished(locked: Path, drand: FakeDrand, tmp_path: Path) -> None:
    """Battles aired, no reveal, the seed file gone: the beacon opens the seed and every
    Python verifier replays the season from it."""
    season.contribute(locked, "AB", 10)
    assert cli("next", locked, "--to-end").exit_code == 0
    assert cli("export", locked, tmp_path / "archive").exit_code == 0
    seed_file_for(locked).unlink()
    signature = drand.sign(UNLOCK_ROUND).hex()

    unlocked = cli("unlock", locked, "--beacon", signature, "--json")
    assert unlocked.exit_code == 0, unlocked.output
    assert json.loads(unlocked.output) == {"seed": SEED}
    beacon_file = tmp_path / "beacon.json"
    beacon_file.write_text(json.dumps({"round": UNLOCK_ROUND, "signature": signature}))
    assert SEED in cli("unlock", locked, "--beacon-file", beacon_file).output

    verified = cli("verify", tmp_path / "archive", "--beacon", signature)
    assert verified.exit_code == 0, verified.output
    assert f"seed unlocked from drand round {UNLOCK_ROUND}, not revealed" in verified.output
    assert "final map matches" in verified.output
    assert verifier.main(["verify", str(tmp_path / "archive"), "--beacon", signature]) == 0

    wrong = cli("verify", tmp_path / "archive", "--beacon", drand.sign(UNLOCK_ROUND - 1).hex())
    assert wrong.exit_code == 1
    assert f"not test-drand's signature on round {UNLOCK_ROUND}" in wrong.output
    unrevealed = cli("verify", tmp_path / "archive")
    assert unrevealed.exit_code == 1 and "not revealed" in unrevealed.output


def test_the_bare_verifier_says_what_unlocking_needs(locked: Path, tmp_path: Path) -> None:
    assert cli("export", locked, tmp_path / "archive").exit_code == 0
    run = subprocess.run(
        [sys.executable, "-S", "-B", "verifier.py", "verify", ".", "--beacon", "00" * 48],
        cwd=tmp_path / "archive", capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "unlocking the seed needs fairfight with py-arkworks-bls12381 (pip install "
        "'fairfight[timelock]'; not under python3 -S), or drand's tle"]


@pytest.mark.parametrize(("ends_by", "words"), [
    ("tomorrow", "--ends-by: must be a UTC time written YYYY-MM-DDTHH:MM:SSZ"),
    ("2027-01-15T07:59:59Z", "--ends-by: the season's planned end must be in the future"),
])
def test_a_bad_planned_end_is_refused_in_one_line(
        ends_by: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beacons, "utc_now", lambda: NOW)
    map_file = tmp_path / "star.json"
    map_file.write_text(json.dumps(star_map()), encoding="utf-8")
    result = cli("new", tmp_path / "s.db", "--map", map_file, "--ends-by", ends_by)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.output


def test_a_season_without_a_timelock_cannot_be_unlocked(season_file: Path) -> None:
    result = cli("unlock", season_file, "--beacon", "00")
    assert result.exit_code == 2
    assert "locks no seed to a drand round" in result.output


def test_a_revealed_locked_season_verifies_everywhere(
        locked: Path, drand: FakeDrand, tmp_path: Path) -> None:
    """The header's timelock field is known to engine.js too; with the seed revealed, a beacon
    given as well must open the same seed."""
    assert cli("next", locked, "--to-end").exit_code == 0
    assert cli("reveal", locked).exit_code == 0
    assert cli("export", locked, tmp_path / "archive").exit_code == 0
    run = subprocess.run([node_path(), "engine.js", "verify", "."], cwd=tmp_path / "archive",
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    both = cli("verify", tmp_path / "archive", "--beacon", drand.sign(UNLOCK_ROUND).hex())
    assert both.exit_code == 0, both.output
    assert "not revealed" not in both.output


def test_the_airing_service_refuses_on_its_own_clock(locked: Path) -> None:
    """The scheduler passes its `now` down: 07:00 is refused even while `utc_now` says NOW."""
    stop = datetime.fromtimestamp(UNLOCK_TIME - 3600, UTC)  # 2027-01-17T07:00:00Z
    rule = parse_schedule("every", minutes=5, now=stop - timedelta(minutes=10))
    store = season.open_store(locked, write=True)
    try:
        with store.transaction() as session:
            schedule_store.set_schedule(session, rule, stop - timedelta(minutes=10))
    finally:
        store.close()
    assert schedule_store.air_due(locked, "A", stop - timedelta(minutes=5)).status == "aired"
    with pytest.raises(RuleError, match="no battle airs from 2027-01-17T07:00:00Z on"):
        schedule_store.air_due(locked, "A", stop)
    assert season.summary(locked).battles == 1


def test_without_the_pairing_library_new_says_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "py_arkworks_bls12381", None)
    monkeypatch.setattr(beacons, "utc_now", lambda: NOW)
    result = cli("new", tmp_path / "s.db", "--ends-by", ENDS_BY)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "InputError: --ends-by: needs the pairing library py-arkworks-bls12381 (pip install "
        "'fairfight[timelock]')"]
    assert not (tmp_path / "s.db").exists()


def test_both_verifiers_refuse_a_malformed_timelock_field_alike(tmp_path: Path) -> None:
    """The example archive with a timelock field whose round is 0: Python and engine.js name
    the same field with the same words."""
    folder = tmp_path / "record"
    shutil.copytree(EXAMPLE, folder)
    header = json.loads((folder / "header.json").read_text(encoding="utf-8"))
    header["timelock"] = {"network": "quicknet", "chain_hash": "ab" * 32, "round": 0,
                          "ciphertext": "-----BEGIN AGE ENCRYPTED FILE-----"}
    (folder / "header.json").write_text(json.dumps(header), encoding="utf-8")
    reseal(folder)
    words = ("MISMATCH header: field timelock: needs a network, a 64-hex-digit chain_hash, "
             "a round >= 1 and an armored ciphertext")
    for program in ([sys.executable, "-S", "-B", "verifier.py"], [node_path(), "engine.js"]):
        run = subprocess.run([*program, "verify", "."], cwd=folder, capture_output=True,
                             text=True, check=False)
        assert run.returncode == 1 and run.stderr.strip() == words, (program, run.stderr)
