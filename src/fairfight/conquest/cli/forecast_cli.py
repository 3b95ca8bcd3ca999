"""`fairfight conquest forecast SEASON`: title odds from where a season stands now."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from fairfight.console import console, guarded
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json

__all__ = ["TOP", "default_forecast_seed", "forecast"]

TOP = 15
"""Factions listed by the text output (the JSON lists every faction)."""


def default_forecast_seed(commitment: str, as_of_battle: int) -> str:
    """The forecast seed used unless one is given: public, and fixed for a given battle, so
    anyone can reproduce a published forecast and it says nothing about the secret seed."""
    return f"{commitment}-before-{as_of_battle}"


@guarded
def forecast(
    season_file: Path = typer.Argument(..., help="The season's SQLite file."),
    seasons: int = typer.Option(10_000, "--seasons", min=1, max=10_000_000,
                                help="Seasons to simulate."),
    jobs: int = typer.Option(1, "--jobs", min=1, max=256, help="Local processes to use."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="A dask.distributed scheduler address (tcp://host:8786)."),
    seed: str | None = typer.Option(
        None, "--seed", help="Forecast seed (any text; default: from the commitment)."),
    top: int = typer.Option(TOP, "--top", min=1, help="Factions listed in the text output."),
    as_json: bool = typer.Option(False, "--json", help="Machine output (canonical JSON)."),
) -> None:
    """Title odds per faction: the rest of the season simulated many times (never with the
    secret seed; fan money already in the pools counts, future money does not)."""
    from rich.progress import Progress

    from fairfight.conquest.forecast.title_odds import forecast as run_forecast
    from fairfight.conquest.rules import engine
    from fairfight.conquest.store import season
    from fairfight.core.executor import DaskExecutor, executor_for

    public = season.summary(season_file)
    state = {
        "world": engine.compile_world(public.map_data),
        "max_battles": public.header["max_battles"],
        "board": public.board,
    }
    forecast_seed = seed or default_forecast_seed(public.commitment, public.board["next_battle"])
    executor = executor_for(jobs, scheduler)
    quiet = as_json or not console.is_terminal
    try:
        with Progress(console=console, transient=True, disable=quiet) as progress:
            task = progress.add_task("simulating seasons", total=seasons)
            result = run_forecast(
                state, public.ledger, seasons=seasons, forecast_seed=forecast_seed,
                executor=executor,
                progress=lambda done: progress.update(task, completed=done),
            )
    except ValueError as error:
        field, _, rule = str(error).partition(": ")
        raise InputError(field if rule else "forecast", rule or str(error)) from None
    finally:
        if isinstance(executor, DaskExecutor):
            executor.close()
    if as_json:
        typer.echo(canonical_json(result.to_json()).decode("utf-8"))
        return
    console.print(
        f"title odds before battle {result.as_of_battle}: {result.seasons:,} simulated seasons, "
        f"forecast seed {result.forecast_seed!r}, "
        f"{result.mean_battles_left:.1f} battles left on average", markup=False)
    table = Table("faction", "title", "95% interval", "regions", "survives")
    for odds in result.factions[:top]:
        low, high = odds.title_interval
        table.add_row(
            odds.faction, f"{odds.title_chance:.1%}", f"{low:.1%} - {high:.1%}",
            f"{odds.expected_regions:.1f}", f"{odds.survival_chance:.1%}",
        )
    console.print(table)

