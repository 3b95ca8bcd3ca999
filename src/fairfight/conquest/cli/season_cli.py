"""Command line of the conquest ruleset: run a season, add fan power, publish and verify it.

Fighting and showing (`battles_cli`) and the archive verbs (`archive_cli`) are modules of their
own, registered here in the order `--help` lists them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from fairfight.conquest.cli.archive_cli import backup, export, restore, verify
from fairfight.conquest.cli.battles_cli import PROGRESS_FROM, next_battles, show
from fairfight.conquest.cli.calibration_cli import calibration
from fairfight.conquest.cli.forecast_cli import forecast
from fairfight.conquest.cli.luck_cli import luck
from fairfight.conquest.cli.map_cli import app as map_app
from fairfight.conquest.cli.odds_history_cli import odds_history
from fairfight.conquest.cli.options import AsJson, SeasonFile
from fairfight.conquest.cli.schedule_cli import app as schedule_app
from fairfight.console import console, emit_json, guarded
from fairfight.core.errors import InputError, RuleError
from fairfight.inputs import check_input_file, check_output_file
from fairfight.rules_cli import rules_command

__all__ = [
    "AsJson",
    "MAX_BATTLES",
    "MAX_BEACON_ROUND",
    "PROGRESS_FROM",
    "SeasonFile",
    "app",
    "backup",
    "beacon",
    "contribute",
    "demo",
    "export",
    "head",
    "map_stats",
    "new",
    "next_battles",
    "odds",
    "restore",
    "reveal",
    "rules",
    "show",
    "unlock",
    "verify",
]

app = typer.Typer(help="The conquest ruleset.", no_args_is_help=True, add_completion=False)
app.add_typer(map_app, name="map")
app.add_typer(schedule_app, name="schedule")

MAX_BATTLES = 100_000
"""Largest --max-battles: far beyond any map (a season absorbs one faction per battle)."""
MAX_BEACON_ROUND = 10**12
"""Largest --beacon-round: a quicknet round comes every 3 s, so 10^12 is 95,000 years away."""


def _emit_json(value: Any) -> None:
    emit_json(value)


def _load_map(name: str) -> tuple[dict[str, Any], str]:
    from fairfight.conquest.rules import scenario  # the map package is loaded only when needed

    loaded = scenario.load_map(name)
    return loaded, str(loaded["name"])  # the header names the map by its own name


@app.command()
@guarded
def new(
    season_file: str = SeasonFile,
    map_name: str = typer.Option("north-america", "--map", help="Map name or JSON file."),
    seed: str | None = typer.Option(None, help="64 lowercase hex digits (default: fresh)."),
    max_battles: int | None = typer.Option(
        None, min=1, max=MAX_BATTLES, help="End the season after this many battles."),
    beacon_round: int | None = typer.Option(
        None, min=1, max=MAX_BEACON_ROUND,
        help="drand quicknet round mixed in; it must come out some time after the header "
        "is published (`conquest rules` says how long)."),
    ends_by: str | None = typer.Option(
        None, help="The season's latest planned end, YYYY-MM-DDTHH:MM:SSZ: the seed is also "
        "timelocked to a drand quicknet round a day later, so anyone can unlock it then."),
    as_json: bool = AsJson,
) -> None:
    """Start a season: print its header and the commitment to its secret seed."""
    if "://" not in season_file:  # a server database's seasons are checked by the store
        check_output_file(Path(season_file), may_exist=False)
    from fairfight.conquest.store import season

    map_data, label = _load_map(map_name)
    planned_end = None if ends_by is None else _utc_time("--ends-by", ends_by)
    try:
        created = season.create_season(
            season_file, map_data, label, seed=seed, max_battles=max_battles,
            beacon_round=beacon_round, ends_by=planned_end,
        )
    except InputError as refusal:  # name the option the user typed
        if refusal.field not in ("beacon_round", "ends_by", "timelock"):
            raise
        option = "--" + {"timelock": "ends_by"}.get(refusal.field, refusal.field).replace("_", "-")
        raise type(refusal)(option, refusal.rule, refusal.value) from None
    if as_json:
        _emit_json({"header": created.header, "commitment": created.commitment})
        return
    for key, value in created.header.items():
        console.print(f"{key}: {json.dumps(value)}", markup=False)
    console.print(f"commitment: {created.commitment}", markup=False)
    if "timelock" in created.header:
        from fairfight.conquest.store import season_timelock

        console.print(season_timelock.unlock_note(created.header["timelock"]), markup=False)
    if "://" in season_file:  # a server database: every later verb names the season URL#ID
        url = season_file.partition("#")[0]
        console.print(f"season: {created.season_id} (address it as {url}#{created.season_id})",
                      markup=False)
    if created.header["beacon"]:
        console.print("record the beacon round with `conquest beacon` before the first battle")


def _utc_time(option: str, text: str) -> datetime:
    """A strict `YYYY-MM-DDTHH:MM:SSZ` time, or a one-line refusal naming the option."""
    from fairfight.conquest.record import beacons

    seconds = beacons.published_seconds(text)
    if seconds is None:
        raise InputError(option, f"must be a UTC time written {beacons.PUBLISHED_FORM}", text)
    return datetime.fromtimestamp(seconds, UTC)


@app.command()
@guarded
def contribute(
    season_file: str = SeasonFile,
    faction: str = typer.Argument(..., help="Faction code, e.g. US-TX."),
    amount: int = typer.Argument(..., help="Dollars: 5, 10, ... 50."),
    key: str | None = typer.Option(None, help="Idempotency key: the same key records once."),
    receipt: Path | None = typer.Option(
        None, "--receipt", help="Write the contribution's receipt (JSON) to this file."),
    as_json: bool = AsJson,
) -> None:
    """Add fan power to a faction's pool (or rebellion fund); refused when a rule says no."""
    if receipt is not None:
        check_output_file(receipt)
    from fairfight.conquest.store import season

    result = season.contribute(season_file, faction, amount, key)
    if receipt is not None:
        if result.receipt is None:
            raise RuleError("receipt", "this season has no log (made by an older release), "
                            "so no receipt; the contribution is recorded")
        _write_json(receipt, result.receipt)
    if as_json:
        _emit_json({**result.entry, "repeated": result.repeated, "receipt": result.receipt})
        return
    entry = result.entry
    verb = "already recorded" if result.repeated else "recorded"
    console.print(
        f"{verb}: seq {entry['seq']}, ${entry['amount']} to {entry['faction']} "
        f"before battle {entry['before_battle']}",
        markup=False,
    )


def _write_json(path: Path, value: Any) -> None:
    """Save a receipt or a head as canonical JSON, one line."""
    from fairfight.core.records import canonical_json

    path.write_bytes(canonical_json(value) + b"\n")


@app.command()
@guarded
def head(
    season_file: str = SeasonFile,
    out: Path | None = typer.Option(None, "--out", help="Also save the head (JSON) here."),
    as_json: bool = AsJson,
) -> None:
    """Print the season log's latest signed head: save it, and check it against the archive.

    The head is JSON either way (one canonical line); `--json` is accepted like every verb's."""
    if out is not None:
        check_output_file(out)
    from fairfight.conquest.store import season
    from fairfight.core.records import canonical_json

    latest = season.latest_head(season_file)
    if latest is None:
        raise RuleError("log", "this season has no log (made by an older release)")
    if out is not None:
        _write_json(out, latest)
    if as_json:
        _emit_json(latest)
        return
    console.print(canonical_json(latest).decode("utf-8"), markup=False, soft_wrap=True)


app.command(name="next")(next_battles)
app.command()(show)


@app.command()
@guarded
def beacon(
    season_file: str = SeasonFile,
    randomness: str = typer.Option(..., help="The round's randomness, 64 hex digits."),
    signature: str | None = typer.Option(
        None, help="The round's BLS signature, 96 hex digits (required: it is verified)."),
    as_json: bool = AsJson,
) -> None:
    """Record the beacon round the season names, once it has come out and its signature
    verifies (any drand relay serves it at /52db9ba7…/public/ROUND)."""
    from fairfight.conquest.store import season

    value = season.record_beacon(season_file, randomness, signature)
    if as_json:
        _emit_json(value)
        return
    console.print(f"beacon round {value['round']} recorded: {value['randomness']}", markup=False)


@app.command()
@guarded
def reveal(season_file: str = SeasonFile, as_json: bool = AsJson) -> None:
    """Publish the seed once the season has ended."""
    from fairfight.conquest.store import season

    seed = season.reveal(season_file)
    if as_json:
        _emit_json({"seed": seed})
        return
    console.print(f"seed: {seed}", markup=False)


@app.command()
@guarded
def unlock(
    season_file: str = SeasonFile,
    beacon: str | None = typer.Option(
        None, help="The unlock round's BLS signature in hex (drand's /public/ROUND serves it)."),
    beacon_file: Path | None = typer.Option(
        None, help="The unlock round as drand's HTTP API serves it (JSON with `signature`)."),
    as_json: bool = AsJson,
) -> None:
    """Open the season's timelocked seed with its unlock round's beacon, without the operator,
    and check it against the commitment."""
    from fairfight.conquest.store import season

    seed = season.unlock(season_file, _beacon_signature(beacon, beacon_file))
    if as_json:
        _emit_json({"seed": seed})
        return
    console.print(f"seed: {seed}", markup=False)
    console.print("it matches the commitment; verify the archive with "
                  "`conquest verify FOLDER --beacon SIGNATURE`", markup=False)


def _beacon_signature(beacon: str | None, beacon_file: Path | None) -> str:
    """The signature from `--beacon` or from a drand JSON `--beacon-file` (exactly one)."""
    if (beacon is None) == (beacon_file is None):
        raise InputError("--beacon",
                         "give exactly one of --beacon SIGNATURE and --beacon-file FILE")
    if beacon is not None:
        return beacon
    assert beacon_file is not None
    check_input_file(beacon_file)
    try:
        value = json.loads(beacon_file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InputError(str(beacon_file), f"is not JSON ({error})") from None
    if not isinstance(value, dict) or not isinstance(value.get("signature"), str):
        raise InputError(f"{beacon_file}.signature", "a drand beacon holds its signature in hex")
    return str(value["signature"])


app.command()(export)
app.command()(backup)
app.command()(restore)
app.command()(verify)


@app.command()
@guarded
def odds(
    season_file: str = SeasonFile,
    attacker: str = typer.Argument(..., help="The attacking faction's code, e.g. US-TX."),
    defender: str = typer.Argument(..., help="The defending faction's code."),
    border: str | None = typer.Option(None, help="A particular border, written A-B."),
    as_json: bool = AsJson,
) -> None:
    """Exact battle chance and round chances if ATTACKER attacked DEFENDER now."""
    from fairfight.conquest.rules import episodes
    from fairfight.conquest.store import season

    previews = season.odds(season_file, attacker, defender, border)
    for preview in previews:
        if as_json:
            _emit_json(preview)
        else:
            console.print(episodes.render_odds(preview), markup=False)


rules = rules_command(app, "conquest", "fairfight.conquest.rules_page:rules_page")


@app.command(name="map-stats")
@guarded
def map_stats(
    map_name: str = typer.Option("north-america", "--map", help="Map name or JSON file."),
    as_json: bool = AsJson,
) -> None:
    """Counts of factions and borders (land, sea, remote) of a map."""
    from fairfight.conquest.rules import scenario

    stats = scenario.map_stats(scenario.load_map(map_name))
    if as_json:
        _emit_json(stats)
        return
    for key, value in stats.items():
        console.print(f"{key}: {value}", markup=False)


@app.command()
@guarded
def demo(
    db: Path | None = typer.Option(None, "--db", help="Keep the season in this new file."),
    seed: str | None = typer.Option(
        None, help="The season's secret seed, 64 hex digits, for a repeatable demo."),
    as_json: bool = typer.Option(False, "--json", help="Only the summary, as JSON."),
) -> None:
    """Run a whole demonstration season: contributions, battles, reveal, export, verify."""
    from fairfight.conquest.cli.demo_run import run_demo
    from fairfight.core.draws import validate_seed

    if db is not None:
        check_output_file(db, may_exist=False)
    if seed is not None:
        try:
            validate_seed(seed)
        except ValueError as error:
            raise InputError("--seed", str(error)) from None
    if not as_json:
        run_demo(db, console, seed=seed)
        return
    import io
    from dataclasses import asdict

    from rich.console import Console

    result = run_demo(db, Console(file=io.StringIO()), seed=seed)
    _emit_json(asdict(result))


app.command()(forecast)
app.command("odds-history")(odds_history)
app.command()(luck)
app.command()(calibration)
