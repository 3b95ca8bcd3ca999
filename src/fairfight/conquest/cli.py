"""Command line of the conquest ruleset: run a season, add fan power, publish and verify it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.progress import Progress
from rich.table import Table

from fairfight.conquest import episodes, publication, season
from fairfight.conquest.rules import rules_page
from fairfight.conquest.store import is_server_address
from fairfight.console import console, guarded
from fairfight.core.errors import InputError, RuleError
from fairfight.core.records import canonical_json

app = typer.Typer(help="The conquest ruleset.", no_args_is_help=True, add_completion=False)

PROGRESS_FROM = 20
"""Runs of at least this many battles show a progress bar instead of every episode."""

SeasonFile = typer.Argument(
    ..., help="The season's SQLite file, or a server database's season as URL#ID."
)
AsJson = typer.Option(False, "--json", help="Machine output (canonical JSON).")


def _emit_json(value: Any) -> None:
    typer.echo(canonical_json(value).decode("utf-8"))


def _load_map(name: str) -> tuple[dict[str, Any], str]:
    from fairfight.conquest import scenario  # the map package is loaded only when needed

    return scenario.load_map(name), Path(name).stem if name.endswith(".json") else name


@app.command()
@guarded
def new(
    season_file: str = SeasonFile,
    map_name: str = typer.Option("north-america", "--map", help="Map name or JSON file."),
    seed: str | None = typer.Option(None, help="64 lowercase hex digits (default: fresh)."),
    max_battles: int | None = typer.Option(None, help="End the season after this many."),
    beacon_round: int | None = typer.Option(None, help="drand quicknet round mixed in."),
    as_json: bool = AsJson,
) -> None:
    """Start a season: print its header and the commitment to its secret seed."""
    map_data, label = _load_map(map_name)
    created = season.create_season(
        season_file, map_data, label, seed=seed, max_battles=max_battles, beacon_round=beacon_round
    )
    if as_json:
        _emit_json({"header": created.header, "commitment": created.commitment,
                    "season": created.season_id})
        return
    for key, value in created.header.items():
        console.print(f"{key}: {json.dumps(value)}", markup=False)
    console.print(f"commitment: {created.commitment}", markup=False)
    if is_server_address(season_file):
        url = season_file.partition("#")[0]
        console.print(f"season: {created.season_id} (address it as {url}#{created.season_id})",
                      markup=False)
    if created.header["beacon"]:
        console.print("record the beacon round with `conquest beacon` before the first battle")


@app.command()
@guarded
def contribute(
    season_file: str = SeasonFile,
    faction: str = typer.Argument(..., help="Faction code, e.g. US-TX."),
    amount: int = typer.Argument(..., help="Dollars: 5, 10, ... 50."),
    key: str | None = typer.Option(None, help="Idempotency key: the same key records once."),
    as_json: bool = AsJson,
) -> None:
    """Add fan power to a faction's pool (or rebellion fund); refused when a rule says no."""
    result = season.contribute(season_file, faction, amount, key)
    if as_json:
        _emit_json({**result.entry, "repeated": result.repeated})
        return
    entry = result.entry
    verb = "already recorded" if result.repeated else "recorded"
    console.print(
        f"{verb}: seq {entry['seq']}, ${entry['amount']} to {entry['faction']} "
        f"before battle {entry['before_battle']}",
        markup=False,
    )


@app.command(name="next")
@guarded
def next_battles(
    season_file: str = SeasonFile,
    count: int = typer.Option(1, "--count", "-n", help="How many battles to fight."),
    to_end: bool = typer.Option(False, "--to-end", help="Fight until the season ends."),
    highlights: bool = typer.Option(
        False, "--highlights", help="One line per upset, fan-power win or rebellion only."
    ),
    as_json: bool = AsJson,
) -> None:
    """Fight the next battles and print each episode."""
    if to_end and count != 1:
        raise InputError("count", "give --count or --to-end, not both")
    before = season.summary(season_file)
    if before.board["ended"]:
        raise RuleError("season", "the season is over; nothing left to fight")
    fights = season.fight(season_file, None if to_end else count)
    if as_json:
        for entry in fights:
            _emit_json(entry)
        return
    expected = _expected_battles(before, None if to_end else count)
    fought = 0
    quiet = expected < PROGRESS_FROM or not console.is_terminal
    with Progress(console=console, transient=True, disable=quiet) as progress:
        task = progress.add_task("fighting", total=expected)
        for entry in fights:
            fought += 1
            progress.advance(task)
            if not highlights:
                progress.console.print(episodes.render_episode(entry) + "\n", markup=False)
            elif _notable(entry):
                progress.console.print(episodes.headline(entry), markup=False)
    if highlights or fought >= PROGRESS_FROM:
        after = season.summary(season_file)
        state = "the season is over" if after.board["ended"] else "the season goes on"
        console.print(f"{fought} battles fought; {state}", markup=False)


def _notable(entry: dict[str, Any]) -> bool:
    return bool(entry["upset"] or entry["reason"] != "NATURAL" or entry["kind"] == "bonus")


def _expected_battles(summary: season.SeasonSummary, count: int | None) -> int:
    """Battles this run will probably fight: each regular battle absorbs one faction."""
    standing = sum(1 for f in summary.board["factions"].values() if f["standing"])
    estimate = standing - 1 if count is None else count
    cap = summary.header["max_battles"]
    return estimate if cap is None else min(estimate, cap - summary.battles)


@app.command()
@guarded
def show(
    season_file: str = SeasonFile,
    battle: int | None = typer.Option(None, help="Show this battle's episode."),
    markdown: bool = typer.Option(False, "--markdown", help="The episode as Markdown."),
    as_json: bool = AsJson,
) -> None:
    """The standings (or one battle's episode with --battle)."""
    if battle is not None:
        entry = season.battle(season_file, battle)
        if as_json:
            _emit_json(entry)
        elif markdown:
            typer.echo(episodes.render_markdown(entry), nl=False)
        else:
            console.print(episodes.render_episode(entry), markup=False)
        return
    summary = season.summary(season_file)
    rows = season.standings(summary)
    if as_json:
        _emit_json([_row(row) for row in rows])
        return
    state = "over" if summary.board["ended"] else f"next battle {summary.board['next_battle']}"
    console.print(
        f"{summary.header['map_name']}: {summary.battles} battles fought, {state}; "
        f"commitment {summary.commitment}",
        markup=False,
    )
    table = Table("faction", "holdings", "people", "population power", "morale", "pool")
    for row in rows:
        if not row.standing and not (row.pool_state == "open" and row.pool):
            continue
        name = row.faction if row.standing else f"{row.faction} (absorbed; fund)"
        table.add_row(
            name,
            str(row.holdings),
            f"{row.people:,}",
            episodes.power_text(row.power),
            episodes.morale_text(row.morale_bp),
            f"${row.pool} {row.pool_state}",
        )
    console.print(table)


def _row(row: season.Standing) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__slots__}


@app.command()
@guarded
def beacon(
    season_file: str = SeasonFile,
    randomness: str = typer.Option(..., help="The round's randomness, 64 hex digits."),
    signature: str | None = typer.Option(None, help="The round's signature, hex."),
) -> None:
    """Record the public randomness of the beacon round the season names."""
    value = season.record_beacon(season_file, randomness, signature)
    console.print(f"beacon round {value['round']} recorded: {value['randomness']}", markup=False)


@app.command()
@guarded
def reveal(season_file: str = SeasonFile) -> None:
    """Publish the seed once the season has ended."""
    console.print(f"seed: {season.reveal(season_file)}", markup=False)


@app.command()
@guarded
def export(
    season_file: str = SeasonFile,
    folder: Path = typer.Argument(..., help="Folder for the public record."),
) -> None:
    """Write the public record (the seed only after the reveal)."""
    for path in publication.export_record(season_file, folder):
        console.print(str(path), markup=False)


@app.command()
@guarded
def backup(
    season_file: str = SeasonFile,
    folder: Path = typer.Argument(..., help="An existing folder for the two copies."),
) -> None:
    """Copy the season file and its secret seed file, safely even while battles run."""
    from fairfight.conquest.store import backup_season

    for path in backup_season(Path(season_file), folder):
        console.print(str(path), markup=False)


@app.command()
@guarded
def verify(folder: Path = typer.Argument(..., help="A folder written by `export`.")) -> None:
    """Replay a published season; exit 1 naming the first battle and field that differ."""
    for note in publication.verify_folder(folder):
        console.print(f"ok: {note}", markup=False)


@app.command()
@guarded
def odds(
    season_file: str = SeasonFile,
    attacker: str = typer.Argument(...),
    defender: str = typer.Argument(...),
    border: str | None = typer.Option(None, help="A particular border, written A-B."),
    as_json: bool = AsJson,
) -> None:
    """Exact battle chance and round chances if ATTACKER attacked DEFENDER now."""
    previews = season.odds(season_file, attacker, defender, border)
    for preview in previews:
        if as_json:
            _emit_json(preview)
        else:
            console.print(episodes.render_odds(preview), markup=False)


@app.command()
@guarded
def rules() -> None:
    """Print the rules page, generated from the engine's constants."""
    typer.echo(rules_page(), nl=False)


@app.command(name="map-stats")
@guarded
def map_stats(
    map_name: str = typer.Option("north-america", "--map", help="Map name or JSON file."),
    as_json: bool = AsJson,
) -> None:
    """Counts of factions and borders (land, sea, remote) of a map."""
    from fairfight.conquest import scenario

    stats = scenario.map_stats(scenario.load_map(map_name))
    if as_json:
        _emit_json(stats)
        return
    for key, value in stats.items():
        console.print(f"{key}: {value}", markup=False)


@app.command()
@guarded
def demo(
    db: Path | None = typer.Option(None, "--db", help="Keep the season in this file."),
) -> None:
    """Run a whole demonstration season: contributions, battles, reveal, export, verify."""
    from fairfight.conquest.demo import run_demo

    run_demo(db, console)
