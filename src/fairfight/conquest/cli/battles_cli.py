"""`conquest next` and `conquest show`: fighting a season's battles and printing what happened.

The verbs that render the season as it goes (episodes, headlines, a progress bar, the standings
table), apart from `cli`, which starts and feeds a season and registers these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from fairfight.conquest.cli.options import AsJson, SeasonFile
from fairfight.console import console, emit_json, guarded
from fairfight.core.errors import InputError, RuleError

if TYPE_CHECKING:  # the engine and the store (SQLAlchemy) are imported when a command runs
    from fairfight.conquest.store import season

__all__ = ["PROGRESS_FROM", "next_battles", "show"]

PROGRESS_FROM = 20
"""Runs of at least this many battles show a progress bar instead of every episode."""


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
    from rich.progress import Progress

    from fairfight.conquest.rules import episodes
    from fairfight.conquest.store import season

    if to_end and count != 1:
        raise InputError("count", "give --count or --to-end, not both")
    before = season.summary(season_file)
    if before.board["ended"]:
        raise RuleError("season", "the season is over; nothing left to fight")
    fights = season.fight(season_file, None if to_end else count)
    if as_json:
        for entry in fights:
            emit_json(entry)
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


@guarded
def show(
    season_file: str = SeasonFile,
    battle: int | None = typer.Option(None, help="Show this battle's episode."),
    markdown: bool = typer.Option(False, "--markdown", help="The episode as Markdown."),
    as_json: bool = AsJson,
) -> None:
    """The standings (or one battle's episode with --battle)."""
    from rich.table import Table

    from fairfight.conquest.rules import episodes
    from fairfight.conquest.store import season

    if battle is not None:
        entry = season.battle(season_file, battle)
        if as_json:
            emit_json(entry)
        elif markdown:
            typer.echo(episodes.render_markdown(entry), nl=False)
        else:
            console.print(episodes.render_episode(entry), markup=False)
        return
    summary = season.summary(season_file)
    rows = season.standings(summary)
    if as_json:
        emit_json([_row(row) for row in rows])
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
