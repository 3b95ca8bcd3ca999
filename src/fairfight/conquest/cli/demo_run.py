"""A whole demonstration season in one call: fans, battles, a rebellion, reveal, export, verify."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from fairfight.conquest.rules import episodes, tables
from fairfight.conquest.store import publication, season

__all__ = ["DEMO_MAP", "DemoResult", "HIGHLIGHTS_SHOWN", "run_demo"]

DEMO_MAP = "north-america"
HIGHLIGHTS_SHOWN = 12


@dataclass(frozen=True, slots=True)
class DemoResult:
    """What the demonstration did, for callers and tests."""

    battles: int
    champion: str
    contributions: int
    rebellions: int
    highlights: list[str]
    verification: list[str]


def _default_map() -> dict[str, Any]:
    from fairfight.conquest.rules import scenario

    return scenario.load_map(DEMO_MAP)


def _fund_first_rebellion(path: Path, say: Callable[[str], None]) -> int:
    """Fans of the first absorbed faction with an empty open pool raise its fund to the cap."""
    board = season.summary(path).board
    for code, faction in sorted(board["factions"].items()):
        if not faction["standing"] and faction["pool_state"] == tables.PoolState.OPEN:
            steps = [20, 20, 10]
            for amount in steps:
                season.contribute(path, code, amount, key=f"demo-fund-{code}-{amount}-{len(steps)}")
                steps = steps[1:]
            say(f"fans of absorbed {code} fill its rebellion fund to ${tables.POOL_CAP}")
            return 3
    return 0


def run_demo(
    db_path: Path | None = None,
    out: Console | None = None,
    *,
    map_data: dict[str, Any] | None = None,
    seed: str | None = None,
) -> DemoResult:
    """Run a complete season on the default map (or `map_data`) in a temporary database.

    Scripted fans: a partial pool for the most populous faction, a full pool for the least
    populous one, and a rebellion fund for the first absorbed faction that can still use one.
    """
    printer = out or Console(highlight=False, soft_wrap=True)

    def say(text: str) -> None:
        printer.print(text, markup=False)

    chosen_map = map_data if map_data is not None else _default_map()
    with tempfile.TemporaryDirectory(prefix="conquest-demo-") as scratch:
        path = db_path or Path(scratch) / "demo-season.db"
        record = Path(scratch) / "record"
        created = season.create_season(
            path, chosen_map, str(chosen_map.get("name", "map")), seed=seed
        )
        say(f"new season on {created.header['map_name']}: commitment {created.commitment}")
        _fans_give(path, chosen_map, say)
        entries, contributions = _fight_season(path, say)
        highlights = _say_highlights(entries, say)
        rebellions = [entry for entry in entries if entry["kind"] == tables.BattleKind.BONUS]
        if rebellions:
            say(episodes.render_episode(rebellions[0]))
        final = season.standings(season.summary(path))
        champion = final[0]
        say(
            f"champion: {champion.faction} holding {champion.holdings} regions, "
            f"{champion.people:,} people"
        )
        say(f"seed revealed: {season.reveal(path)}")
        publication.export_record(path, record)
        notes = publication.verify_folder(record)
        for note in notes:
            say(f"verified: {note}")
        return DemoResult(
            battles=len(entries),
            champion=champion.faction,
            contributions=contributions,
            rebellions=len(rebellions),
            highlights=highlights,
            verification=notes,
        )


def _fans_give(path: Path, chosen_map: dict[str, Any], say: Callable[[str], None]) -> None:
    """The scripted fans: a partial pool for the most populous faction, a full one for the
    least populous."""
    by_size = sorted(chosen_map["regions"], key=lambda r: (r["population"], r["code"]))
    smallest, largest = by_size[0]["code"], by_size[-1]["code"]
    boost = (10, 10, 5)
    for amount in boost:
        season.contribute(path, largest, amount)
    for amount in (25, 25):
        season.contribute(path, smallest, amount)
    say(
        f"fans give ${sum(boost)} to {largest} and fill {smallest}'s pool to ${tables.POOL_CAP}"
    )


def _fight_season(path: Path, say: Callable[[str], None]) -> tuple[list[Any], int]:
    """Fight one battle at a time until a rebellion fund is given, then to the season's end:
    the battles' entries and the number of contributions made."""
    contributions, entries, funded = 5, [], 0
    while not funded:
        fought = list(season.fight(path, 1))
        entries += fought
        if not fought or fought[-1]["season_over"]:
            break
        funded = _fund_first_rebellion(path, say)
        contributions += funded
    if not entries or not entries[-1]["season_over"]:
        entries += list(season.fight(path, None))
    return entries, contributions


def _say_highlights(entries: list[Any], say: Callable[[str], None]) -> list[str]:
    """The notable battles' headlines (upsets, unusual reasons, rebellions), the first few said."""
    notable = [
        entry
        for entry in entries
        if entry["upset"]
        or entry["reason"] != tables.Reason.NATURAL
        or entry["kind"] == "bonus"
    ]
    highlights = [episodes.headline(entry) for entry in notable]
    say(f"{len(entries)} battles fought; highlights:")
    for line in highlights[:HIGHLIGHTS_SHOWN]:
        say(f"  {line}")
    if len(highlights) > HIGHLIGHTS_SHOWN:
        say(f"  ... and {len(highlights) - HIGHLIGHTS_SHOWN} more")
    return highlights
