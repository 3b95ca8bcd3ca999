"""Are the title odds calibrated? Simulated seasons, a forecast before every battle, binned.

Each calibration season is a real season in miniature: the exact engine plays it from its own
seed (derived from the stated calibration seed and the season's number), with no fan money and
no battle cap. Before every battle the forecast kernel (`forecast.forecast`, the public API the
show uses) gives every standing faction a title chance from `forecast_seasons` simulated rests
of the season. Each (battle, faction) pair is one forecast; it goes in the bin of its chance,
and counts as a hit when that faction went on to win the title. A calibrated forecast has, in
each bin, an observed share of hits close to the bin's mean forecast.

Everything is determined by the inputs, so anyone can re-run any one season and compare it
with the file: every season's record keeps its bin counts and a digest of every forecast made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fairfight import __version__
from fairfight.conquest.forecast import calibration_file
from fairfight.conquest.forecast.calibration_file import BINS, CALIBRATION_SEED, FORECAST_SEASONS
from fairfight.conquest.forecast.title_odds import forecast, wilson_interval
from fairfight.conquest.rules import engine, scenario, tables
from fairfight.core.executor import Executor, in_process
from fairfight.core.records import canonical_json

__all__ = [
    "BINS",
    "BinTally",
    "CALIBRATION_SEED",
    "CHUNK_SEASONS",
    "Calibration",
    "DIGEST_CHARS",
    "FORECAST_SEASONS",
    "SeasonRecord",
    "bin_of",
    "calibrate",
    "forecast_seed_of",
    "play_seasons",
    "season_seed",
]

CHUNK_SEASONS = 5
"""Calibration seasons per chunk of work handed to an executor."""
DIGEST_CHARS = 16
"""Hex characters kept of each season's forecast digest (64 bits: plenty to catch a change)."""


def season_seed(calibration_seed: str, season: int) -> str:
    """Season `season`'s secret-style seed: 64 hex characters from the calibration seed."""
    return hashlib.sha256(f"calibration:{calibration_seed}:season:{season}".encode()).hexdigest()


def forecast_seed_of(calibration_seed: str, season: int, battle: int) -> str:
    """The forecast seed of the forecast made before `battle` of calibration season `season`."""
    return f"{calibration_seed}-season-{season}-before-{battle}"


def bin_of(titles: int, forecast_seasons: int, bins: int = BINS) -> int:
    """The bin of a forecast chance titles / forecast_seasons (exact: no float on the edge);
    a chance of exactly 1 goes in the top bin."""
    return min(bins - 1, titles * bins // forecast_seasons)


@dataclass(frozen=True, slots=True)
class BinTally:
    """Forecasts that fell in one bin: how many, how many came true, their titles summed."""

    bin: int
    count: int
    wins: int
    titles: int
    """Simulated titles summed over the bin's forecasts (mean forecast = titles / (count·n))."""


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One calibration season: its length, champion, bin counts and forecast digest."""

    season: int
    battles: int
    champion: str
    forecasts: int
    bins: tuple[BinTally, ...]
    digest: str
    """The first DIGEST_CHARS hex of SHA-256 over every (battle, faction, titles) forecast."""

    def to_json(self) -> dict[str, Any]:
        """What the file keeps of a season (its bins follow from the forecasts the digest
        covers and the champion, so a re-run of the season checks them all)."""
        return {
            "season": self.season, "battles": self.battles, "champion": self.champion,
            "forecasts": self.forecasts, "digest": self.digest,
        }


@lru_cache(maxsize=4)
def _map(map_name: str) -> dict[str, Any]:
    return scenario.load_map(map_name)


def _play_one(map_data: dict[str, Any], calibration_seed: str, season: int,
              forecast_seasons: int, bins: int) -> SeasonRecord:
    state = engine.new_state(map_data, season_seed(calibration_seed, season))
    made: list[tuple[int, str, int]] = []
    while not state["board"]["ended"]:
        battle = state["board"]["next_battle"]
        odds = forecast(state, [], seasons=forecast_seasons,
                        forecast_seed=forecast_seed_of(calibration_seed, season, battle))
        titles = {line.faction: line.titles for line in odds.factions}
        made += [(battle, code, titles[code])
                 for code, faction in sorted(state["board"]["factions"].items())
                 if faction["standing"]]
        state, _entry = engine.play_step(state, [])
    standing = [code for code, f in state["board"]["factions"].items() if f["standing"]]
    if len(standing) != 1:  # uncapped and without fan money, a season ends with one faction
        raise ValueError(f"season {season}: ended with {len(standing)} factions standing")
    champion = standing[0]
    tallies: dict[int, list[int]] = {}
    for _battle, code, won in made:
        tally = tallies.setdefault(bin_of(won, forecast_seasons, bins), [0, 0, 0])
        tally[0] += 1
        tally[1] += code == champion
        tally[2] += won
    digest = hashlib.sha256(canonical_json([[b, c, t] for b, c, t in made])).hexdigest()
    return SeasonRecord(
        season=season, battles=state["board"]["next_battle"] - 1, champion=champion,
        forecasts=len(made),
        bins=tuple(BinTally(b, *tallies[b]) for b in sorted(tallies)),
        digest=digest[:DIGEST_CHARS],
    )


def play_seasons(map_name: str, calibration_seed: str, first: int, count: int,
                 forecast_seasons: int = FORECAST_SEASONS, bins: int = BINS
                 ) -> list[SeasonRecord]:
    """Calibration seasons first .. first + count - 1 (one chunk of work; any process)."""
    map_data = _map(map_name)
    return [_play_one(map_data, calibration_seed, season, forecast_seasons, bins)
            for season in range(first, first + count)]


@dataclass(frozen=True, slots=True)
class Calibration:
    """A whole calibration run: its inputs and every season's record."""

    map_name: str
    map_sha256: str
    calibration_seed: str
    forecast_seasons: int
    bins: int
    records: tuple[SeasonRecord, ...]

    def totals(self) -> list[BinTally]:
        """Every bin (empty ones too), summed over the seasons."""
        sums = [[0, 0, 0] for _ in range(self.bins)]
        for record in self.records:
            for tally in record.bins:
                row = sums[tally.bin]
                row[0] += tally.count
                row[1] += tally.wins
                row[2] += tally.titles
        return [BinTally(i, *row) for i, row in enumerate(sums)]

    def to_json(self) -> dict[str, Any]:
        """The file's content: inputs, per-bin summary (decimals as text), per-season records."""
        summary = []
        for tally in self.totals():
            low, high = wilson_interval(tally.wins, tally.count)
            shown = tally.count > 0
            summary.append({
                "bin": tally.bin, "low": f"{tally.bin / self.bins:.2f}",
                "high": f"{(tally.bin + 1) / self.bins:.2f}",
                "count": tally.count, "wins": tally.wins, "titles": tally.titles,
                "mean_forecast": _decimal(tally.titles / (tally.count * self.forecast_seasons))
                if shown else None,
                "observed": _decimal(tally.wins / tally.count) if shown else None,
                "interval": [_decimal(low), _decimal(high)] if shown else None,
            })
        return {
            "format": calibration_file.FORMAT,
            "inputs": {
                "map_name": self.map_name, "map_sha256": self.map_sha256,
                "calibration_seed": self.calibration_seed, "seasons": len(self.records),
                "forecast_seasons": self.forecast_seasons, "bins": self.bins,
                "engine_version": tables.ENGINE_VERSION, "code_version": __version__,
            },
            "bins": summary,
            "seasons": [record.to_json() for record in self.records],
        }


def _decimal(value: float) -> str:
    return f"{value:.6f}"


def calibrate(
    seasons: int,
    *,
    map_name: str = scenario.DEFAULT_MAP,
    calibration_seed: str = CALIBRATION_SEED,
    forecast_seasons: int = FORECAST_SEASONS,
    bins: int = BINS,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> Calibration:
    """Play `seasons` calibration seasons (chunks on `executor`; the result is the same on any).

    `progress` hears how many seasons are done.
    """
    if seasons < 1:
        raise ValueError("seasons: must be at least 1")
    if forecast_seasons < 1:
        raise ValueError("forecast_seasons: must be at least 1")
    if bins < 1:
        raise ValueError("bins: must be at least 1")
    map_data = _map(map_name)
    chunks: Sequence[tuple[Any, ...]] = [
        (map_name, calibration_seed, first, min(CHUNK_SEASONS, seasons - first),
         forecast_seasons, bins)
        for first in range(0, seasons, CHUNK_SEASONS)
    ]
    forecast(engine.new_state(map_data, season_seed(calibration_seed, 0)), [], seasons=1,
             forecast_seed="warm-up")  # load the compiled kernel before any process forks
    results = (executor or in_process()).map(
        play_seasons, chunks,
        progress=None if progress is None else (
            lambda done: progress(sum(chunk[3] for chunk in chunks[:done]))),
    )
    return Calibration(
        map_name=map_name, map_sha256=engine.map_sha256(map_data),
        calibration_seed=calibration_seed, forecast_seasons=forecast_seasons, bins=bins,
        records=tuple(record for chunk in results for record in chunk),
    )
