"""The calibration run: a small run of the same code path is well formed and counts what it
should; the shipped file is big enough, reads back, and re-runs to the same season records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.cli import app
from fairfight.conquest.forecast.calibration import (
    CHUNK_SEASONS,
    bin_of,
    calibrate,
    play_seasons,
    season_seed,
)
from fairfight.conquest.forecast.calibration_file import (
    CalibrationFile,
    load_calibration,
    shipped_calibration,
)
from fairfight.conquest.rules import engine, scenario
from fairfight.core.errors import InputError
from fairfight.core.executor import LocalProcesses

SMALL_SEED = "test-calibration"
SMALL_FORECAST = 8
"""Seasons per forecast in the small runs (only the shape is checked)."""


def _standing_per_battle(map_name: str, seed: str) -> tuple[list[int], str]:
    """Replay the season with the engine alone: standing factions before each battle, and
    the one left at the end (a simple independent count)."""
    state = engine.new_state(scenario.load_map(map_name), seed)
    counts = []
    while not state["board"]["ended"]:
        counts.append(sum(f["standing"] for f in state["board"]["factions"].values()))
        state, _ = engine.play_step(state, [])
    left = [c for c, f in state["board"]["factions"].items() if f["standing"]]
    assert len(left) == 1
    return counts, left[0]


def test_bins_are_exact_at_their_edges() -> None:
    assert bin_of(0, 100) == 0
    assert bin_of(4, 100) == 0 and bin_of(5, 100) == 1  # 5% opens the second bin of 20
    assert bin_of(99, 100) == 19 and bin_of(100, 100) == 19  # certainty in the top bin
    assert bin_of(1, 3, bins=3) == 1


def test_a_small_run_is_well_formed_and_counts_every_standing_faction() -> None:
    run = calibrate(3, map_name="europe", calibration_seed=SMALL_SEED,
                    forecast_seasons=SMALL_FORECAST)
    data = CalibrationFile.model_validate(json.loads(json.dumps(run.to_json())))
    assert data.inputs.seasons == 3 and data.inputs.forecast_seasons == SMALL_FORECAST
    assert data.inputs.map_sha256 == engine.map_sha256(scenario.load_map("europe"))
    for record in data.seasons:
        counts, champion = _standing_per_battle("europe", season_seed(SMALL_SEED, record.season))
        assert record.battles == len(counts) == 38  # 39 countries: 38 conquests
        assert record.forecasts == sum(counts)
        assert record.champion == champion
    assert sum(b.wins for b in data.bins) == sum(len(_standing_per_battle(
        "europe", season_seed(SMALL_SEED, s))[0]) for s in range(3))  # the champion, each battle
    for tally in data.bins:
        if tally.count:
            assert tally.observed is not None and tally.mean_forecast is not None
            assert float(tally.observed) == pytest.approx(tally.wins / tally.count, abs=1e-6)
            assert tally.bin / 20 <= float(tally.mean_forecast) <= (tally.bin + 1) / 20


def test_two_processes_give_the_same_records_as_one() -> None:
    seasons = CHUNK_SEASONS + 1  # two chunks
    one = calibrate(seasons, map_name="europe", calibration_seed=SMALL_SEED,
                    forecast_seasons=2)
    two = calibrate(seasons, map_name="europe", calibration_seed=SMALL_SEED,
                    forecast_seasons=2, executor=LocalProcesses(2))
    assert one.to_json() == two.to_json()


def test_the_command_writes_a_file_the_model_reads(tmp_path: Path) -> None:
    out = tmp_path / "calibration.json"
    result = CliRunner().invoke(app, ["conquest", "calibration", "--seasons", "2", "--map",
                                      "europe", "--forecast-seasons", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = load_calibration(out)
    assert data.inputs.seasons == 2 and data.inputs.map_name == "europe"
    assert "2 seasons" in result.output


def test_the_command_refuses_an_unknown_map(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["conquest", "calibration", "--seasons", "1", "--map",
                                      "atlantis", "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2
    assert "--map: must be one of north-america, europe" in result.output


def _malformed(tmp_path: Path, change: dict[str, object]) -> Path:
    run = calibrate(1, map_name="europe", calibration_seed=SMALL_SEED, forecast_seasons=2)
    body = {**run.to_json(), **change}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(body))
    return path


def test_a_malformed_file_is_refused_in_one_line(tmp_path: Path) -> None:
    run = calibrate(1, map_name="europe", calibration_seed=SMALL_SEED, forecast_seasons=2)
    good = run.to_json()
    extra = {**good["seasons"][0], "season": 1}
    cases = {
        "format": {"format": "something-else"},
        "seasons": {"seasons": [*good["seasons"], extra]},
        "bins": {"bins": good["bins"][1:]},
        "inputs": {"inputs": {**good["inputs"], "bins": "twenty"}},
    }
    for field, change in cases.items():
        with pytest.raises(InputError) as refused:
            load_calibration(_malformed(tmp_path, change))
        line = refused.value.one_line()
        assert "\n" not in line and field in line, line
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(InputError):
        load_calibration(tmp_path / "broken.json")


@pytest.fixture(scope="module")
def shipped() -> CalibrationFile:
    data = shipped_calibration("north-america")
    assert data is not None, "the north-america calibration file ships with the package"
    return data


def test_the_shipped_file_covers_at_least_2000_seasons(shipped: CalibrationFile) -> None:
    assert shipped.inputs.seasons >= 2000 and len(shipped.seasons) == shipped.inputs.seasons
    assert shipped.inputs.map_sha256 == engine.map_sha256(scenario.load_map("north-america"))
    assert shipped.forecasts > 2000 * 135  # one forecast per standing faction per battle
    assert sum(b.wins for b in shipped.bins) == sum(s.battles for s in shipped.seasons)
    assert shipped_calibration("europe") is None


def test_the_shipped_file_reproduces_from_its_stated_inputs(shipped: CalibrationFile) -> None:
    inputs = shipped.inputs
    again = play_seasons(inputs.map_name, inputs.calibration_seed, 0, 2,
                         inputs.forecast_seasons, inputs.bins)
    assert [record.to_json() for record in again] == [
        season.model_dump() for season in shipped.seasons[:2]]
