"""`fairfight conquest calibration --seasons N --out FILE`: are the title odds calibrated?"""

from __future__ import annotations

from pathlib import Path

import typer

from fairfight.conquest.forecast.calibration_defaults import (
    BINS,
    CALIBRATION_SEED,
    FORECAST_SEASONS,
)
from fairfight.console import console, emit_json, guarded
from fairfight.core.errors import InputError

__all__ = ["MAX_SEASONS", "calibration"]

MAX_SEASONS = 1_000_000
"""Most calibration seasons one run may ask for."""


@guarded
def calibration(
    out: Path = typer.Option(..., "--out", help="Where to write the calibration file (JSON)."),
    seasons: int = typer.Option(2_000, "--seasons", min=1, max=MAX_SEASONS,
                                help="Calibration seasons to play with the exact engine."),
    forecast_seasons: int = typer.Option(
        FORECAST_SEASONS, "--forecast-seasons", min=1, max=1_000_000,
        help="Simulated seasons in each forecast made before a battle."),
    bins: int = typer.Option(BINS, "--bins", min=1, max=100, help="Forecast bins of equal width."),
    seed: str = typer.Option(CALIBRATION_SEED, "--seed",
                             help="Calibration seed (any text): every season derives from it."),
    map_name: str = typer.Option("north-america", "--map", help="A shipped map's name."),
    jobs: int = typer.Option(1, "--jobs", min=1, max=256, help="Local processes to use."),
    as_json: bool = typer.Option(False, "--json", help="Print the run's summary as JSON."),
) -> None:
    """Play seasons, forecast before every battle, and compare the forecasts, binned, with who
    went on to win the title."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from fairfight.conquest.forecast.calibration import calibrate
    from fairfight.conquest.rules import scenario
    from fairfight.core.executor import executor_for
    from fairfight.core.records import canonical_json
    from fairfight.inputs import check_output_file

    if map_name not in scenario.MAP_NAMES:
        raise InputError("--map", f"must be one of {', '.join(scenario.MAP_NAMES)}")
    check_output_file(out)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task("calibration seasons", total=seasons)
        result = calibrate(
            seasons, map_name=map_name, calibration_seed=seed, forecast_seasons=forecast_seasons,
            bins=bins, executor=executor_for(jobs),
            progress=lambda done: progress.update(task, completed=done),
        )
    out.write_bytes(canonical_json(result.to_json()) + b"\n")
    pairs = sum(record.forecasts for record in result.records)
    if as_json:
        emit_json({"forecasts": pairs, "forecast_seasons": forecast_seasons, "out": str(out),
                   "seasons": len(result.records)})
        return
    console.print(f"{len(result.records):,} seasons, {pairs:,} forecasts of "
                  f"{forecast_seasons:,} seasons each, written to {out}", markup=False)
