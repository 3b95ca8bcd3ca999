"""The steps of `fairfight ballot play`: settle how the game starts, seat it, run it, print its end.

Kept apart from the command so each step reads on its own and the command stays a list of
steps; the engine is imported only when a step runs, so `--help` stays quick.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from fairfight.console import console, error_console
from fairfight.core.errors import InputError
from fairfight.inputs import check_output_file

if TYPE_CHECKING:  # the engine is imported only when a command runs
    from rich.console import Console

    from fairfight.ballot.elections import Event
    from fairfight.ballot.players import Player
    from fairfight.ballot.record import PausedGame
    from fairfight.ballot.state import GameState
    from fairfight.ballot.tables import BallotConfig

__all__ = [
    "Opening",
    "Standings",
    "check_play_options",
    "ending_json",
    "narrate",
    "opening",
    "play_through",
    "print_ending",
    "save_paused",
    "seat_players",
    "simulate_modes",
    "standings_of",
]

Standings = list[tuple[int, list[int]]]


@dataclass(frozen=True, slots=True)
class Opening:
    """How a game starts: rules, key, bots, the human seat and the record, fresh or resumed."""

    rules_config: BallotConfig
    key: str
    bot_names: list[str]
    human: int | None
    record: Path | None
    paused: PausedGame | None


def check_play_options(record: Path | None, years: int | None) -> None:
    """Refuse a record of a cut-short game and a length under one year, before anything runs."""
    if record is not None:
        if years is not None:
            raise InputError("--record", "a record needs the whole game; drop --years", years)
        check_output_file(record)
    if years is not None and years < 1:
        raise InputError("years", "must be at least 1", years)


def opening(
    options: dict[str, Any], bot_names: Callable[[str], list[str]], default_players: str,
    default_config: str,
) -> Opening:
    """The game to play: the saved one when `--resume` names a file, else a fresh one from the
    options (`players`, `human`, `seed`, `config`, `victory`, `record`, `years`, `resume`)."""
    from fairfight.ballot.record import HUMAN_NAME, check_key, load_record, read_paused
    from fairfight.ballot.tables import named_config
    from fairfight.core.draws import new_seed

    resume: Path | None = options["resume"]
    if resume is None:
        config, seed, players = options["config"], options["seed"], options["players"]
        return Opening(
            rules_config=named_config(config if config is not None else default_config,
                                      options["victory"]),
            key=check_key(seed) if seed is not None else new_seed(),
            bot_names=bot_names(players if players is not None else default_players),
            human=options["human"], record=options["record"], paused=None,
        )
    _refuse_fixed_by_resume(**{name: options[name] for name in (
        "players", "config", "victory", "seed", "human", "years")})
    paused = read_paused(load_record(resume))
    names = paused.header.players
    humans = [seat for seat, name in enumerate(names) if name == HUMAN_NAME]
    if len(humans) > 1:
        raise InputError("--resume", "this terminal plays one human seat", len(humans))
    record = options["record"] or resume
    check_output_file(record)
    return Opening(
        rules_config=paused.header.config, key=paused.pause.key,
        bot_names=[name if name != HUMAN_NAME else "pollster" for name in names],
        human=humans[0] if humans else None, record=record, paused=paused,
    )


def _refuse_fixed_by_resume(**given: object) -> None:
    """Refuse, naming them, the options a saved game fixes when they come with --resume."""
    fixed = [f"--{name}" for name, value in given.items() if value is not None]
    if fixed:
        raise InputError("--resume", f"the saved game fixes its seats, players, config, "
                         f"victory, key and length; drop {', '.join(fixed)}")


def seat_players(names: list[str], human: int | None) -> list[Player]:
    """The bots by seat, with the terminal's human in its seat when one plays."""
    from fairfight.ballot.bots import make_bots
    from fairfight.ballot.human import TerminalHuman

    if human is not None and not 0 <= human < len(names):
        raise InputError("human", f"seat must be between 0 and {len(names) - 1}", human)
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


def narrate(event: Event, human: int) -> None:
    """What a human seat sees of the game as it happens (plain text: no markup)."""
    from fairfight.ballot.narration import narrate as narrate_event

    for line in narrate_event(event, human):
        console.print(line, markup=False)


def play_through(
    start: Opening, seated: list[Player], years: int | None, exit_interrupted: int
) -> tuple[GameState, list[Event]]:
    """Play the game to its end (or `years`); Ctrl-C saves it so far and exits."""
    from fairfight.ballot.players import play_game
    from fairfight.ballot.record import resume_game

    so_far: list[Event] = list(start.paused.events) if start.paused is not None else []
    human = start.human

    def on_event(event: Event) -> None:
        so_far.append(event)
        if human is not None:
            narrate(event, human)

    try:
        if start.paused is not None:
            return resume_game(start.paused, seated, on_event)
        return play_game(start.rules_config, start.key, seated, on_event, max_years=years)
    except (KeyboardInterrupt, typer.Abort):
        save_paused(start.record, start.rules_config, start.key, [p.name for p in seated], so_far)
        raise typer.Exit(exit_interrupted) from None


def save_paused(
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


def standings_of(events: list[Event]) -> Standings:
    """Every scoring year with its totals by seat, in the order played."""
    return [(e["year"], e["scores"]) for e in events if e["event"] == "scoring"]


def ending_json(key: str, names: list[str], state: GameState, standings: Standings) -> Any:
    """The end of a game as `--json` prints it."""
    from fairfight.ballot.players import key_commitment

    return {
        "seed": key,
        "commitment": key_commitment(key),
        "players": names,
        "years": [{"year": year, "scores": totals} for year, totals in standings],
        "over": state.ended,
        "reason": state.end_reason,
        "winners": list(state.winners),
    }


def print_ending(
    console: Console,
    state: GameState,
    names: list[str],
    rules_config: BallotConfig,
    key: str,
    standings: Standings,
    record: Path | None,
    events: list[Event],
) -> None:
    """The end of a game at the terminal: the standings, who won (and how lucky each seat's
    dice were) or why it stopped, the seed and where the record went."""
    from fairfight.ballot.luck import luck_text
    from fairfight.ballot.story import end_sentence

    _print_standings(console, rules_config, names, standings)
    if state.ended:
        winners = ", ".join(f"seat {w} ({names[w]})" for w in state.winners)
        console.print(f"Game over in {state.year}: winner {winners}. "
                      f"{end_sentence(state.end_reason)}", markup=False)
        console.print(luck_text(names, key, events), markup=False)
    else:
        console.print(f"Stopped after {len(standings)} year(s); the game is not over.")
    console.print(f"seed {key}")
    if record is not None:
        console.print(f"Record written to {record}", markup=False)


def _print_standings(
    console: Console, rules_config: BallotConfig, names: list[str], standings: Standings
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


def simulate_modes(
    console: Console,
    configs: list[BallotConfig],
    names: tuple[str, ...],
    games: int,
    seed_base: int,
    jobs: int,
    executor: Any,
    show_progress: bool,
    exit_interrupted: int,
) -> list[dict[str, Any]]:
    """The smoke metrics of `games` seeded bot games under each config, with a progress bar;
    Ctrl-C stops the run and exits."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from fairfight.ballot.simulate import GameSpec, metrics, run_games

    results = []
    with Progress(
        *Progress.get_default_columns()[:1],
        BarColumn(bar_width=30),
        MofNCompleteColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not show_progress,
    ) as bar:
        task = bar.add_task("games", total=games * len(configs))
        try:
            for rules_config in configs:
                specs = [GameSpec(rules_config, str(seed_base + i), names) for i in range(games)]
                summaries = run_games(specs, jobs, lambda n: bar.advance(task, n), executor)
                results.append(metrics(summaries, rules_config.victory))
        except KeyboardInterrupt:
            bar.stop()
            error_console.print("interrupted", style="bold red", markup=False)
            raise typer.Exit(exit_interrupted) from None
    return results
