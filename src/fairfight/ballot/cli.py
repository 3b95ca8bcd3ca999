"""Command line of the ballot ruleset: odds, play, replay, simulate, rules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from fairfight.console import console, emit_json, error_console, guarded
from fairfight.core.errors import InputError
from fairfight.inputs import check_output_file
from fairfight.luck_cli import luck_command
from fairfight.rules_cli import rules_command

if TYPE_CHECKING:  # the engine is imported only when a command runs
    from rich.table import Table

    from fairfight.ballot.elections import Event
    from fairfight.ballot.players import Player
    from fairfight.ballot.tables import BallotConfig

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
        raise InputError("players", "name 2 to 6 players, comma separated")
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
        raise InputError("kind", "must be general or primary")
    if not 0 <= max_edge <= MAX_ODDS_EDGE:
        raise InputError("max-edge", f"must be between 0 and {MAX_ODDS_EDGE}")
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


def _players(names: list[str], human: int | None) -> list[Player]:
    from fairfight.ballot.bots import make_bots
    from fairfight.ballot.human import TerminalHuman

    if human is not None and not 0 <= human < len(names):
        raise InputError("human", f"seat must be between 0 and {len(names) - 1}")
    bots = make_bots(names)
    if human is None:
        return bots

    def ask(text: str) -> str:
        return str(typer.prompt(text, default="", show_default=False))

    seated: list[Player] = list(bots)
    seated[human] = TerminalHuman(
        ask=ask,
        say=lambda line: console.print(line, markup=False),
        seat_names=tuple(name if seat != human else "you" for seat, name in enumerate(names)),
    )
    return seated


def _narrate(event: Event, human: int) -> None:
    """What a human seat sees of the game as it happens (plain text: no markup)."""
    from fairfight.ballot.narration import narrate

    for line in narrate(event, human):
        console.print(line, markup=False)


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
    from fairfight.ballot.luck import luck_text
    from fairfight.ballot.players import key_commitment, play_game
    from fairfight.ballot.record import (
        HUMAN_NAME,
        check_key,
        load_record,
        read_paused,
        record_lines,
        resume_game,
        write_record,
    )
    from fairfight.ballot.tables import named_config
    from fairfight.core.draws import new_seed

    if record is not None:
        if years is not None:
            raise InputError("--record", "a record needs the whole game; drop --years")
        check_output_file(record)
    if years is not None and years < 1:
        raise InputError("years", "must be at least 1")
    paused = None
    if resume is not None:
        _refuse_fixed_by_resume(players=players, config=config, victory=victory, seed=seed,
                                human=human, years=years)
        paused = read_paused(load_record(resume))
        rules_config, key = paused.header.config, paused.pause.key
        names = paused.header.players
        humans = [seat for seat, name in enumerate(names) if name == HUMAN_NAME]
        if len(humans) > 1:
            raise InputError("--resume", "this terminal plays one human seat")
        human = humans[0] if humans else None
        bot_names = [name if name != HUMAN_NAME else "pollster" for name in names]
        record = record or resume
        check_output_file(record)
    else:
        rules_config = named_config(config if config is not None else DEFAULT_CONFIG, victory)
        key = check_key(seed) if seed is not None else new_seed()
        bot_names = _bot_names(players if players is not None else DEFAULT_PLAYERS)
    seated = _players(bot_names, human)
    so_far: list[Event] = list(paused.events) if paused is not None else []

    def on_event(event: Event) -> None:
        so_far.append(event)
        if human is not None:
            _narrate(event, human)

    try:
        if paused is not None:
            state, events = resume_game(paused, seated, on_event)
        else:
            state, events = play_game(rules_config, key, seated, on_event, max_years=years)
    except (KeyboardInterrupt, typer.Abort):
        _save_paused(record, rules_config, key, [p.name for p in seated], so_far)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    names = [p.name for p in seated]
    if record is not None and years is None:
        write_record(record, record_lines(rules_config, key, names, state, events))
    standings = [(e["year"], e["scores"]) for e in events if e["event"] == "scoring"]
    if as_json:
        emit_json(
            {
                "seed": key,
                "commitment": key_commitment(key),
                "players": names,
                "years": [{"year": year, "scores": totals} for year, totals in standings],
                "over": state.ended,
                "reason": state.end_reason,
                "winners": list(state.winners),
            }
        )
        return
    _print_standings(rules_config, names, standings)
    if state.ended:
        winners = ", ".join(f"seat {w} ({names[w]})" for w in state.winners)
        console.print(f"Game over ({state.end_reason}) in {state.year}: winner {winners}")
        console.print(luck_text(names, key, events), markup=False)
    else:
        console.print(f"Stopped after {len(standings)} year(s); the game is not over.")
    console.print(f"seed {key}")
    if record is not None:
        console.print(f"Record written to {record}", markup=False)


def _refuse_fixed_by_resume(**given: object) -> None:
    """Refuse, naming them, the options a saved game fixes when they come with --resume."""
    fixed = [f"--{name}" for name, value in given.items() if value is not None]
    if fixed:
        raise InputError("--resume", f"the saved game fixes its seats, players, config, "
                         f"victory, key and length; drop {', '.join(fixed)}")


def _print_standings(
    rules_config: BallotConfig, names: list[str], standings: list[tuple[int, list[int]]]
) -> None:
    """Every year's scores, one column a seat."""
    from rich.table import Table

    title = f"Standings ({rules_config.name}, victory {rules_config.victory.value})"
    table = Table(title=title)
    table.add_column("year")
    for seat, name in enumerate(names):
        table.add_column(f"{seat}: {name}", justify="right")
    for year, totals in standings:
        table.add_row(str(year), *(str(t) for t in totals))
    console.print(table)


def _save_paused(
    record: Path | None,
    rules_config: BallotConfig,
    key: str,
    names: list[str],
    events: list[Event],
) -> None:
    """Write the game so far and say, in one line, where it is and how to go on."""
    from fairfight.ballot.players import key_commitment
    from fairfight.ballot.record import paused_record, write_record

    path = record or Path(f"ballot-{key_commitment(key)[:12]}.jsonl")
    write_record(path, paused_record(rules_config, key, names, events))
    error_console.print(
        f"interrupted: the game is saved in {path}; "
        f"go on with `fairfight ballot play --resume {path}`",
        markup=False,
    )


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
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from fairfight.ballot.bots import make_bots
    from fairfight.ballot.simulate import GameSpec, metrics, run_games
    from fairfight.ballot.tables import VictoryMode, named_config
    from fairfight.core.executor import executor_for

    if not 1 <= games <= MAX_GAMES:
        raise InputError("games", f"must be between 1 and {MAX_GAMES}")
    if not 1 <= jobs <= 64:
        raise InputError("jobs", "must be between 1 and 64")
    if seed_base < 0:
        raise InputError("seed-base", "must be zero or positive")
    names = tuple(_bot_names(players))
    make_bots(names)
    modes = [m.value for m in VictoryMode] if victory == "all" else victory.split(",")
    configs = [named_config(config, mode) for mode in modes]
    executor = executor_for(jobs, scheduler) if scheduler is not None else None
    results = []
    with Progress(
        *Progress.get_default_columns()[:1],
        BarColumn(bar_width=30),
        MofNCompleteColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=as_json,
    ) as bar:
        task = bar.add_task("games", total=games * len(configs))
        try:
            for rules_config in configs:
                specs = [GameSpec(rules_config, str(seed_base + i), names) for i in range(games)]
                summaries = run_games(
                    specs,
                    jobs,
                    lambda n: bar.advance(task, n),
                    executor,
                )
                results.append(metrics(summaries, rules_config.victory))
        except KeyboardInterrupt:
            bar.stop()
            error_console.print("interrupted", style="bold red", markup=False)
            raise typer.Exit(EXIT_INTERRUPTED) from None
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
