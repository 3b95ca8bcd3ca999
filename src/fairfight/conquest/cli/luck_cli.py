"""`fairfight conquest luck SEASON|ARCHIVE`: how lucky the season was, from its public record.

Reads a season (its file, or a server database's season) or a season archive (folder or .zip)
and never the seed: the aired battles with their exact chances give every faction's wins
against the chances, the champion's run and the upsets against their expected number.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from fairfight.conquest.cli.options import AsJson
from fairfight.console import console, guarded
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json

__all__ = ["luck"]


def _names(map_data: dict[str, Any]) -> dict[str, str]:
    return {region["code"]: region.get("name", region["code"]) for region in map_data["regions"]}


def _from_archive(path: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """An archive's luck, computed from its battles (its manifest checked on the way)."""
    from fairfight.conquest import luck as words
    from fairfight.conquest.record import verifier

    if not path.exists():
        raise InputError(str(path), "no such folder or archive")
    record = verifier.load_record(path)
    return words.luck_of_record(record), _names(record["map"])


def _from_season(address: str) -> tuple[dict[str, Any], dict[str, str]]:
    """A season's luck from its aired battles, read from the season opened read-only."""
    from fairfight.conquest.store import publication
    from fairfight.conquest.store.season import open_store, summary_in
    from fairfight.conquest.store.season_store import SeasonStore

    store = open_store(address)
    try:
        with store.transaction() as session:
            season = summary_in(session)
            history = SeasonStore.history(session)
    finally:
        store.close()
    return publication.luck_of(season, history), _names(season.map_data)


@guarded
def luck(
    source: str = typer.Argument(..., help="The season's SQLite file (or a server database's "
                                 "season as URL#ID), or a season archive: folder or .zip."),
    as_json: bool = AsJson,
) -> None:
    """How lucky the season was: each faction's wins against its exact battle chances (fan
    power shown apart), the champion's run and the upsets against their expected number."""
    from fairfight.conquest import luck as words

    path = Path(source)
    archived = path.is_dir() or path.suffix == ".zip"
    figures, names = _from_archive(path) if archived else _from_season(source)
    if as_json:
        typer.echo(canonical_json(figures).decode("utf-8"))
        return
    season, champion, factions = words.luck_lines(figures, names)
    console.print(f"The season: {season}.", markup=False)
    for lines in ([champion] if champion else []) + factions:
        console.print(f"{lines.title}: {lines.sentence}; {lines.fan}.", markup=False)
