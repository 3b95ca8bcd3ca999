"""`fairfight conquest odds-history`: the kept forecasts, and a backfill that keeps the missing."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fairfight.cli import app
from fairfight.conquest.store import season

runner = CliRunner()


def _run(*arguments: object) -> tuple[int, str]:
    result = runner.invoke(app, ["conquest", "odds-history", *map(str, arguments)])
    return result.exit_code, result.output


def test_the_backfill_keeps_one_forecast_per_aired_battle_once(season_file: Path) -> None:
    list(season.fight(season_file, 2))
    assert _run(season_file) == (0, "no forecast kept yet (try --backfill)\n")
    code, output = _run(season_file, "--backfill", "--seasons", 200)
    assert code == 0 and "kept 3 missing forecast(s)" in output
    code, output = _run(season_file, "--backfill", "--seasons", 200, "--json")
    kept = json.loads(output)
    assert [row["battle"] for row in kept] == [0, 1, 2]
    assert [row["forecast"]["as_of_battle"] for row in kept] == [1, 2, 3]
    commitment = season.summary(season_file).commitment
    assert kept[2]["forecast"]["forecast_seed"] == f"{commitment}-before-3"
    assert all(sum(f["titles"] for f in row["forecast"]["factions"]) == 200 for row in kept)


def test_a_missing_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, output = _run(tmp_path / "none.db")
    assert code == 2 and output.count("\n") == 1 and "none.db" in output
