"""Command line of the ballot ruleset: odds, play, replay, simulate, rules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from fairfight.console import console, emit_json, guarded
from fairfight.core.errors import InputError
from fairfight.luck_cli import luck_command
from fairfight.rules_cli import rules_command

if TYPE_CHECKING:  # the engine is imported only when a command runs
    from rich.table import Table


__all__ = [
    "DEFAULT_CONFIG",
    "DEFAULT_MAX_EDGE",
    "DEFAULT_PLAYERS",
    "EXIT_INTERRUPTED",
    "MAX_GAMES",
    "MAX_ODDS_EDGE",
    "MODES_PER_TABLE",
    "app",
    "luck",
    "odds",
    "play",
    "replay",
    "rules",
    "simulate",
]


app = typer.Typer(help="The ballot ruleset.", no_args_is_help=True, add_completion=False)
MAX_ODDS_EDGE = 40
DEFAULT_MAX_EDGE = 8
"""The edges `odds` shows by default: the rules page's table (a test keeps the two equal)."""
MAX_GAMES = 1_000_000
MODES_PER_TABLE = 3
"""Modes side by side in one metrics table, so it fits 80 columns."""
EXIT_INTERRUPTED = 130
DEFAULT_PLAYERS = "pollster,machine,pollster,machine"
"""The bots `play` seats when --players is not given."""
DEFAULT_CONFIG = "as-written-plus"
"""The named config `play` uses when --config is not given."""


def _bot_names(players: str) -> list[str]:
    names = [name.strip() for name in players.split(",")]
    for seat, name in enumerate(names):
        if not name:
            raise InputError(f"players[{seat}]", "this seat is empty; name a bot for every seat")
    if not 2 <= len(names) <= 6:
        raise InputError("players", "name 2 to 6 players, comma separated", players)
    return names


@app.command()
@guarded
def odds(
    kind: str = typer.Option("general", help="general (3d6 against 3d6) or primary (2d6)"),
    max_edge: int = typer.Option(DEFAULT_MAX_EDGE, help="largest edge to show"),
    as_json: bool = typer.Option(False, "--json", help="machine-readable output"),
) -> None:
    """The exact win chance by modifier edge, ties counted as half; only an edge that cannot
    lose is marked certain, and a chance that would round to 100.0 reads "> 99.9"."""
    from rich.table import Table

    from fairfight.ballot.dice import RaceKind
    from fairfight.ballot.rules_page import odds_rows

    if kind not in {k.value for k in RaceKind}:
        raise InputError("kind", "must be general or primary", kind)
    if not 0 <= max_edge <= MAX_ODDS_EDGE:
        raise InputError("max-edge", f"must be between 0 and {MAX_ODDS_EDGE}", max_edge)
    rows = odds_rows(RaceKind(kind), max_edge)
    if as_json:
        emit_json(rows)
        return
    table = Table(title=f"Table {'G' if kind == 'general' else 'P'}: {kind} win chance")
    for column in ("edge", "chance", "exact"):
        table.add_column(column, justify="right")
    for row in rows:
        certain = " (certain)" if row["certain"] else ""
        table.add_row(f"+{row['edge']}", f"{row['percent']}%{certain}", row["fraction"])
    console.print(table)


def _rules_page(
    config: str = typer.Option("as-written-plus", help="named config"),
    victory: str | None = typer.Option(None, help="victory mode"),
) -> str:
    """The rules page of a named config (and victory mode)."""
    from fairfight.ballot.rules_page import render_rules
    from fairfight.ballot.tables import named_config

    return render_rules(named_config(config, victory))


rules = rules_command(app, "ballot", _rules_page)
luck = luck_command(app, "fairfight.ballot.luck:record_report")


@app.command()
@guarded
def play(
    players: str | None = typer.Option(None, help=f"bots by seat (default {DEFAULT_PLAYERS})"),
    human: int | None = typer.Option(None, help="seat number played at this terminal"),
    seed: str | None = typer.Option(None, help="64 hex digits or a game number (default: fresh)"),
    config: str | None = typer.Option(None, help=f"named config (default {DEFAULT_CONFIG})"),
    victory: str | None = typer.Option(None, help="victory mode"),
    record: Path | None = typer.Option(None, help="write the game record (JSON Lines) here"),
    years: int | None = typer.Option(None, help="stop after this many years"),
    resume: Path | None = typer.Option(
        None, help="continue a game saved by Ctrl-C (its seats, config and key come from it)"
    ),
    as_json: bool = typer.Option(False, "--json", help="machine-readable result"),
) -> None:
    """Play a game: bots to the end, or with one human seat at the terminal.

    Ctrl-C saves the game so far (to --record, or to a file named after the game) and prints
    where; `--resume FILE` replays it to that point and plays on.
    """
    from fairfight.ballot import cli_steps as steps
    from fairfight.ballot.record import record_lines, write_record

    steps.check_play_options(record, years)
    options = {"players": players, "human": human, "seed": seed, "config": config,
               "victory": victory, "record": record, "years": years, "resume": resume}
    start = steps.opening(options, _bot_names, DEFAULT_PLAYERS, DEFAULT_CONFIG)
    seated = steps.seat_players(start.bot_names, start.human)
    state, events = steps.play_through(start, seated, years, EXIT_INTERRUPTED)
    names = [p.name for p in seated]
    if start.record is not None and years is None:
        write_record(start.record, record_lines(start.rules_config, start.key, names, state,
                                                events))
    standings = steps.standings_of(events)
    if as_json:
        emit_json(steps.ending_json(start.key, names, state, standings))
        return
    steps.print_ending(console, state, names, start.rules_config, start.key, standings,
                       start.record, events)


@app.command()
@guarded
def replay(
    record: Path = typer.Argument(..., help="a record written by `ballot play --record`"),
    as_json: bool = typer.Option(False, "--json", help="machine-readable result"),
) -> None:
    """Re-run a record and check every event and the final scores."""
    from fairfight.ballot.record import load_record, verify_record

    state = verify_record(load_record(record))
    if as_json:
        emit_json(
            {
                "verified": True,
                "year": state.year,
                "reason": state.end_reason,
                "scores": list(state.last_scores),
            }
        )
        return
    console.print(
        f"Record verified: {state.year}, {state.end_reason}, scores {list(state.last_scores)}"
    )


@app.command()
@guarded
def simulate(
    games: int = typer.Option(100, help="games per victory mode"),
    players: str = typer.Option("pollster,pollster,machine,machine", help="bots by seat"),
    victory: str = typer.Option("amendment", help="a mode, a comma list, or 'all'"),
    config: str = typer.Option("as-written-plus", help="named config"),
    seed_base: int = typer.Option(1000, help="game keys are seed-base, seed-base+1, ..."),
    jobs: int = typer.Option(1, help="local processes"),
    scheduler: str | None = typer.Option(None, help="a dask.distributed scheduler address"),
    as_json: bool = typer.Option(False, "--json", help="machine-readable metrics"),
) -> None:
    """Seeded bot games and the smoke metrics (contested share, bills, length, spread, wins)."""
    from fairfight.ballot.bots import make_bots
    from fairfight.ballot.cli_steps import simulate_modes
    from fairfight.ballot.tables import VictoryMode, named_config
    from fairfight.core.executor import executor_for

    if not 1 <= games <= MAX_GAMES:
        raise InputError("games", f"must be between 1 and {MAX_GAMES}", games)
    if not 1 <= jobs <= 64:
        raise InputError("jobs", "must be between 1 and 64", jobs)
    if seed_base < 0:
        raise InputError("seed-base", "must be zero or positive", seed_base)
    names = tuple(_bot_names(players))
    make_bots(names)
    modes = [m.value for m in VictoryMode] if victory == "all" else victory.split(",")
    configs = [named_config(config, mode) for mode in modes]
    executor = executor_for(jobs, scheduler) if scheduler is not None else None
    results = simulate_modes(console, configs, names, games, seed_base, jobs, executor,
                             show_progress=not as_json, exit_interrupted=EXIT_INTERRUPTED)
    if as_json:
        emit_json(results)
        return
    for part in range(0, len(results), MODES_PER_TABLE):
        console.print(_metrics_table(results[part : part + MODES_PER_TABLE]))


def _metrics_table(results: list[dict[str, Any]]) -> Table:
    """The smoke metrics of up to three modes, in at most 80 columns."""
    from rich.table import Table

    table = Table(title="Smoke metrics")
    table.add_column("metric")
    for result in results:
        table.add_column(result["mode"], justify="right")

    def pct(value: float) -> str:
        return f"{100 * value:.1f}%"

    bots = sorted({b for r in results for b in (*r["win_share_by_bot"], *r["mean_score_by_bot"])})
    reasons = sorted({k for r in results for k in r["ended_by"]})
    seats = max(len(r["win_share_by_seat"]) for r in results)
    rows: list[tuple[str, Any]] = [
        ("games", lambda r: str(r["games"])),
        *[(f"ended by {reason}", _share_of("ended_by", reason, pct)) for reason in reasons],
        *[(f"wins: {bot}", _share_of("win_share_by_bot", bot, pct)) for bot in bots],
        *[(f"wins: seat {seat}", _seat_share(seat, pct)) for seat in range(seats)],
        ("contested, all races", lambda r: pct(r["contested_all"])),
        ("contested, even years", lambda r: pct(r["contested_even"])),
        ("House contested, even years", lambda r: pct(r["house_contested_even"])),
        ("games with a bill", lambda r: pct(r["games_with_bill"])),
        ("bills per game", lambda r: f"{r['bills_per_game']:.1f}"),
        ("bills voted on per game", lambda r: f"{r['bills_proposed_per_game']:.1f}"),
        ("bills passed / voted on", lambda r: pct(r["bill_pass_rate"])),
        ("bills enacted per year", lambda r: f"{r['bills_per_year']:.2f}"),
        ("bills held by a non-author", lambda r: str(r["non_author_bills"])),
        ("impeachments passed / moved", lambda r: "{} / {}".format(*r["impeachments"])),
        ("incumbent party keeps presidency", lambda r: pct(r["incumbent_party_keeps"])),
        ("mean EV margin", lambda r: f"{r['mean_ev_margin']:.0f}"),
        ("largest hand at scoring", lambda r: str(r["largest_hand"])),
        ("mean game length (years)", lambda r: f"{r['mean_length']:.1f}"),
        *[(f"mean final score: {bot}", _mean_score(bot)) for bot in bots],
        ("primaries per game", lambda r: f"{r['primaries_per_game']:.0f}"),
    ]
    for label, render in rows:
        table.add_row(label, *(render(result) for result in results))
    years = sorted({y for r in results for y in r["contested_by_year"]})
    for year in years:
        table.add_row(
            f"contested in {year}",
            *(
                pct(r["contested_by_year"][year]) if year in r["contested_by_year"] else "-"
                for r in results
            ),
        )
    return table


def _share_of(field: str, name: str, pct: Any) -> Any:
    """A row renderer for one entry of a share table (a bot's wins, an ending)."""
    return lambda result: pct(result[field].get(name, 0.0))


def _seat_share(seat: int, pct: Any) -> Any:
    """A row renderer for one seat's win share."""
    return lambda result: (
        pct(result["win_share_by_seat"][seat]) if seat < len(result["win_share_by_seat"]) else "-"
    )


def _mean_score(bot: str) -> Any:
    """A row renderer for one bot's mean final score."""
    return lambda result: (
        f"{result['mean_score_by_bot'][bot]:.1f}" if bot in result["mean_score_by_bot"] else "-"
    )
