"""Conquest: whole seasons per second on the default map, against the replay verifier.

Baselines measured in the same run: the verify pass over the same season (which replays every
battle and compares every field), and the cost of battle 1 alone times the number of battles.
The stored season (SQLite, one transaction per battle) is reported against the in-memory one.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import Any

from bench.timing import best_seconds, report
from fairfight.conquest import archive, engine, season
from fairfight.conquest.synthetic import synthetic_map

SEEDS = [f"{i:064x}" for i in range(1, 6)]


def _default_map() -> tuple[dict[str, Any], str]:
    try:
        from fairfight.conquest import scenario

        return scenario.load_map("north-america"), "the default north-america map"
    except Exception as error:  # the map may not be installed in this checkout yet
        return synthetic_map(), f"a generated map of the same size ({type(error).__name__})"


def _season(map_data: dict[str, Any], seed: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state = engine.new_state(map_data, seed)
    history = []
    while not state["board"]["ended"]:
        state, entry = engine.play_step(state, [])
        history.append(entry)
    return state, history


def _record(map_data: dict[str, Any], seed: str) -> dict[str, Any]:
    state, history = _season(map_data, seed)
    return {
        "header": {
            "ruleset": "conquest",
            "engine_version": engine.ENGINE_VERSION,
            "engine_files": archive.engine_digests(archive.engine_sources()),
            "map_name": map_data["name"],
            "map_sha256": engine.map_sha256(map_data),
            "max_battles": None,
            "beacon": None,
        },
        "commitment": hashlib.sha256(seed.encode()).hexdigest(),
        "seed": seed,
        "beacon": None,
        "map": map_data,
        "ledger": [],
        "history": history,
        "final_map": state["board"],
    }


def _stored_season(map_data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        season.create_season(path, map_data, "bench", seed=SEEDS[0])
        for _ in season.fight(path, None):
            pass


def main() -> None:
    map_data, label = _default_map()
    print(f"map: {label}", flush=True)
    battles = [len(_season(map_data, seed)[1]) for seed in SEEDS]
    print(f"battles per season: {min(battles)}..{max(battles)}", flush=True)
    per_season = best_seconds(lambda: [_season(map_data, s) for s in SEEDS], repeats=3) / len(SEEDS)
    records = [_record(map_data, s) for s in SEEDS]
    per_verify = best_seconds(lambda: [engine.verify_record(r) for r in records], 3) / len(SEEDS)
    first = engine.new_state(map_data, SEEDS[0])
    per_battle = best_seconds(lambda: engine.play_step(first, []), repeats=20)
    naive = per_battle * sum(battles) / len(battles)
    per_stored = best_seconds(lambda: _stored_season(map_data), repeats=2)
    print(f"one season: {per_season * 1000:.1f} ms; its verify pass: {per_verify * 1000:.1f} ms")
    report("conquest verify pass (baseline)", 1 / per_verify, "seasons/s")
    report("conquest season simulated in memory", 1 / per_season, "seasons/s", 1 / per_verify)
    report("battle 1 cost x battles (baseline)", 1 / naive, "seasons/s")
    report("conquest season simulated in memory", 1 / per_season, "seasons/s", 1 / naive)
    mean_battles = sum(battles) / len(battles)
    report("battles fought in memory (baseline)", mean_battles / per_season, "battles/s")
    report(
        "battles fought and stored in SQLite",
        mean_battles / per_stored,
        "battles/s",
        mean_battles / per_season,
    )
