"""Small hand-made maps and a ledger-driven season runner for the conquest tests."""

from __future__ import annotations

import copy
import hashlib
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fairfight.conquest.record import archive, season_luck
from fairfight.conquest.rules import engine, tables

SEED = "5eed" * 16
OTHER_SEED = "0123456789abcdef" * 4


def region(
    code: str, population: int, special: str = "P", ratings: Sequence[int] = (5, 5, 5, 5, 5)
) -> dict[str, Any]:
    """One region in the full map format (every field the map loader asks for)."""
    return {
        "code": code,
        "name": f"Test region {code}",
        "population": population,
        "population_year": 2020,
        "population_basis": "census",
        "ratings": dict(zip("PSMRU", ratings, strict=True)),
        "special": {
            "category": special,
            "name": f"Special {code}",
            "fact": "A test region.",
            "source_status": "unsourced",
        },
    }


def border(a: str, b: str, kind: str = "land", remote: bool = False) -> dict[str, Any]:
    low, high = sorted((a, b))
    return {"a": low, "b": high, "kind": kind, "remote": remote, "distance_km": 0}


def hand_map(regions: list[dict[str, Any]], borders: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": "hand", "regions": regions, "borders": borders}


def star_map() -> dict[str, Any]:
    """A hub AA with four neighbours that touch only the hub (one of them by sea)."""
    return hand_map(
        [
            region("AA", 5_000_000, "P", (6, 5, 5, 5, 5)),
            region("AB", 1_000_000, "S"),
            region("AC", 2_000_000, "M"),
            region("AD", 500_000, "R"),
            region("AE", 3_000_000, "U"),
        ],
        [border("AA", "AB"), border("AA", "AC"), border("AA", "AD"), border("AA", "AE", "sea")],
    )


def pair_map(weak: int = 1_000, strong: int = 10_000_000) -> dict[str, Any]:
    """Two regions, AA small and AB big, joined by one land border."""
    return hand_map([region("AA", weak, "P"), region("AB", strong, "S")], [border("AA", "AB")])


def seed_number(i: int) -> str:
    return f"{i:064x}"


def play(
    map_data: Mapping[str, Any],
    seed: str = SEED,
    contributions: Mapping[int, Sequence[tuple[str, int]]] | None = None,
    max_battles: int | None = None,
    stop_after: int | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Run a season in memory: (final state, history, ledger); contributions keyed by battle."""
    state = engine.new_state(map_data, seed, max_battles)
    history: list[dict[str, Any]] = []
    ledger: list[dict[str, Any]] = []
    planned = contributions or {}
    while not state["board"]["ended"] and (stop_after is None or len(history) < stop_after):
        for faction, amount in planned.get(state["board"]["next_battle"], ()):
            ledger.append(engine.check_contribution(state, ledger, faction, amount))
        state, entry = engine.play_step(state, ledger)
        history.append(entry)
    return state, history, ledger


def record_of(
    map_data: Mapping[str, Any],
    seed: str = SEED,
    contributions: Mapping[int, Sequence[tuple[str, int]]] | None = None,
) -> dict[str, Any]:
    """A published record (as `verifier.load_record` returns it) of a whole season, with the
    luck the export writes beside it."""
    state, history, ledger = play(map_data, seed, contributions)
    return {
        "luck": season_luck.season_luck(history, champion_code(state)),
        "header": {
            "ruleset": "conquest",
            "engine_version": tables.ENGINE_VERSION,
            "engine_files": archive.engine_digests(archive.engine_sources()),
            "map_name": map_data["name"],
            "map_sha256": engine.map_sha256(map_data),
            "max_battles": None,
            "beacon": None,
        },
        "commitment": hashlib.sha256(seed.encode()).hexdigest(),
        "seed": seed,
        "beacon": None,
        "map": copy.deepcopy(dict(map_data)),
        "ledger": ledger,
        "history": history,
        "final_map": state["board"],
    }


def champion_code(state: Mapping[str, Any]) -> str | None:
    """The champion of a played season (None before its end), by the standings' rule."""
    world, board = state["world"], state["board"]
    return season_luck.champion_of(board, lambda code: engine.population_power(
        engine.people(world, board, code, board["next_battle"])))


def table_dump(path: Path) -> str:
    """Every row of every table, for checking that nothing was written."""
    connection = sqlite3.connect(path)
    try:
        return "\n".join(connection.iterdump())
    finally:
        connection.close()


def reseal(folder: Path) -> None:
    """Rewrite an archive folder's manifest after a deliberate change, as a forger would."""
    names = sorted(
        path.name
        for path in folder.iterdir()
        if path.name != archive.MANIFEST and not path.name.startswith(".")
    )
    lines = [f"{hashlib.sha256((folder / n).read_bytes()).hexdigest()}  {n}\n" for n in names]
    (folder / archive.MANIFEST).write_text("".join(lines), encoding="ascii")
