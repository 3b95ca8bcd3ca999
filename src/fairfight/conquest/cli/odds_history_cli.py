"""`fairfight conquest odds-history SEASON`: the title odds kept after each aired battle."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from fairfight.console import console, guarded
from fairfight.core.records import canonical_json

__all__ = ["LEADERS_LISTED", "odds_history"]

LEADERS_LISTED = 3
"""Factions named per kept forecast in the text output (the JSON has every faction)."""


@guarded
def odds_history(
    season_file: Path = typer.Argument(..., help="The season's SQLite file."),
    backfill: bool = typer.Option(
        False, "--backfill", help="First keep every missing forecast: the aired battles are "
        "replayed from the record by the engine (no seed needed)."),
    seasons: int = typer.Option(20_000, "--seasons", min=1, max=10_000_000,
                                help="Seasons per forecast the backfill keeps."),
    seed: str | None = typer.Option(
        None, "--seed", help="Public text the backfill's forecast seeds start with "
        "(default: the commitment, as the service uses)."),
    as_json: bool = typer.Option(False, "--json", help="Machine output (canonical JSON)."),
) -> None:
    """The title odds as each aired battle left the board, oldest first (kept by the web
    service after every battle, or here with --backfill)."""
    from fairfight.conquest.store import odds_history as history
    from fairfight.conquest.store import season

    store = season.open_store(season_file, write=backfill)
    try:
        if backfill:
            with store.transaction() as session:
                stem = seed or season.summary_in(session).commitment
            added = history.backfill(lambda _write: store.transaction(), stem, seasons)
            if not as_json:
                console.print(f"kept {len(added)} missing forecast(s)", markup=False)
        with store.transaction() as session:
            kept = history.read_history(session)
    finally:
        store.close()
    if as_json:
        typer.echo(canonical_json([{"battle": battle, "forecast": made.to_json()}
                                   for battle, made in kept]).decode("utf-8"))
        return
    if not kept:
        console.print("no forecast kept yet (try --backfill)", markup=False)
        return
    table = Table("after battle", "seasons", "leaders (title chance)")
    for battle, made in kept:
        leaders = ", ".join(f"{odds.faction} {odds.title_chance:.1%}"
                            for odds in made.factions[:LEADERS_LISTED])
        table.add_row(str(battle), f"{made.seasons:,}", leaders)
    console.print(table)
