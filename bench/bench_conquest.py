"""Conquest: whole seasons per second on the default map, and the replay verifier.

Baselines measured in the same run: the engine as it stood before its hot paths were made
faster (kept verbatim in `bench/conquest_engine_baseline.py`), playing and verifying the same
seasons; the verify pass against play alone; the stored season (SQLite, one transaction per
battle) against the in-memory one.

The verifier now checks a whole published record (the luck report, the season log, its
heads), so today's verify pass reads the same seasons stored, revealed and exported as a
publisher makes them; the baseline's reads the bare records its own format had.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import Any

from bench import conquest_engine_baseline as baseline_engine
from bench.timing import best_seconds, report
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive, verifier
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import publication, season

SEEDS = [f"{i:064x}" for i in range(1, 6)]


def _default_map() -> tuple[dict[str, Any], str]:
    try:
        from fairfight.conquest.rules import scenario

        return scenario.load_map("north-america"), "the default north-america map"
    except Exception as error:  # the map may not be installed in this checkout yet
        return synthetic_map(), f"a generated map of the same size ({type(error).__name__})"


def _season(
    map_data: dict[str, Any], seed: str, rules: Any = engine
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state = rules.new_state(map_data, seed)
    history = []
    while not state["board"]["ended"]:
        state, entry = rules.play_step(state, [])
        history.append(entry)
    return state, history


def _record(map_data: dict[str, Any], seed: str) -> dict[str, Any]:
    state, history = _season(map_data, seed)
    return {
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
        "map": map_data,
        "ledger": [],
        "history": history,
        "final_map": state["board"],
    }


def _published(map_data: dict[str, Any], seed: str, folder: Path) -> dict[str, Any]:
    """The season of `seed` stored, fought to its end, revealed and exported, read back as
    the verifier reads an archive."""
    path = folder / f"{seed[-4:]}.db"
    _fought(path, map_data, seed)
    season.reveal(path)
    publication.export_record(path, folder / f"{seed[-4:]}-record")
    return dict(verifier.load_record(folder / f"{seed[-4:]}-record"))


def _fought(path: Path, map_data: dict[str, Any], seed: str) -> None:
    """A season stored at `path` and fought to its end, a transaction per battle."""
    season.create_season(path, map_data, "bench", seed=seed)
    for _ in season.fight(path, None):
        pass


def _stored_season(map_data: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _fought(Path(folder) / "bench.db", map_data, SEEDS[0])


def main() -> None:
    map_data, label = _default_map()
    print(f"map: {label}", flush=True)
    battles = [len(_season(map_data, seed)[1]) for seed in SEEDS]
    print(f"battles per season: {min(battles)}..{max(battles)}", flush=True)
    records = [_record(map_data, s) for s in SEEDS]
    with tempfile.TemporaryDirectory() as folder:
        published = [_published(map_data, s, Path(folder)) for s in SEEDS]

    def per_season(rules: Any) -> float:
        return best_seconds(lambda: [_season(map_data, s, rules) for s in SEEDS], 3) / len(SEEDS)

    def per_verify(verify_record: Any, records: list[dict[str, Any]]) -> float:
        return best_seconds(lambda: [verify_record(r) for r in records], 3) / len(SEEDS)

    before_play, now_play = per_season(baseline_engine), per_season(engine)
    before_verify = per_verify(baseline_engine.verify_record, records)
    now_verify = per_verify(verifier.verify_record, published)
    print(f"one season: {now_play * 1000:.1f} ms (was {before_play * 1000:.1f} ms); "
          f"its verify pass: {now_verify * 1000:.1f} ms (was {before_verify * 1000:.1f} ms)")
    report("play_step seasons, engine before (baseline)", 1 / before_play, "seasons/s")
    report("play_step seasons, engine now", 1 / now_play, "seasons/s", 1 / before_play)
    report("verify pass, engine before (baseline)", 1 / before_verify, "seasons/s")
    report("verify pass, engine now", 1 / now_verify, "seasons/s", 1 / before_verify)
    report("verify pass against play alone", 1 / now_verify, "seasons/s", 1 / now_play)
    per_stored = best_seconds(lambda: _stored_season(map_data), repeats=2)
    mean_battles = sum(battles) / len(battles)
    report("battles fought in memory (baseline)", mean_battles / now_play, "battles/s")
    report(
        "battles fought and stored in SQLite",
        mean_battles / per_stored,
        "battles/s",
        mean_battles / now_play,
    )
