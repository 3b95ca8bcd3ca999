"""Title odds: the rest of a season simulated many times from where it stands now.

A forecast starts from the public board as the next battle will see it (contributions already
dated to it included; no later contribution is imagined) and plays the remaining battles with
the compiled season kernel. Its draws come from its own forecast seed, never from the season's
secret seed, so publishing a forecast reveals nothing about the real draws. Seasons are split
into chunks that carry their own season numbers, so the figures are the same whichever
executor runs them and however they are split.
"""

from __future__ import annotations

import hashlib
import math
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fairfight.conquest.rules import engine, tables
from fairfight.core.executor import Executor, in_process

__all__ = [
    "CHUNK_SEASONS",
    "FactionOdds",
    "Forecast",
    "IntArray",
    "PoolEffect",
    "SeasonArrays",
    "Z_95",
    "forecast",
    "forecast_key",
    "pool_effect",
    "run_chunk",
    "season_arrays",
    "wilson_interval",
]

CHUNK_SEASONS = 2_000
"""Seasons per chunk of work: small enough for a lively progress bar, large enough to be cheap."""
Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class SeasonArrays:
    """A season's map and board as the kernel's flat arrays; factions numbered by code order."""

    codes: tuple[str, ...]
    population: IntArray
    rating: IntArray
    special: IntArray
    border_a: IntArray
    border_b: IntArray
    border_sea: npt.NDArray[np.bool_]
    owner: IntArray
    captured: IntArray
    standing: npt.NDArray[np.bool_]
    morale: IntArray
    pool: IntArray
    pool_open: npt.NDArray[np.bool_]
    battle: int
    max_battles: int

    def kernel_arguments(self) -> tuple[Any, ...]:
        """The kernel's leading arguments, in its order."""
        return (
            self.population, self.rating, self.special, self.border_a, self.border_b,
            self.border_sea, self.owner, self.captured,
            self.standing, self.morale, self.pool, self.pool_open, self.battle,
            self.max_battles,
        )


def _kernel() -> types.ModuleType:
    """The compiled season kernel, imported when a forecast first runs: numba takes about a
    second to load, which every process serving pages with forecasts off would pay for
    nothing."""
    from fairfight.conquest.forecast import kernel as forecast_kernel

    return forecast_kernel


def season_arrays(world: engine.Plain, board: engine.Plain,
                  max_battles: int | None) -> SeasonArrays:
    """Flatten a compiled world and a board (pools as they stand for the next battle)."""
    codes = tuple(sorted(world["regions"]))
    index = {code: i for i, code in enumerate(codes)}
    regions = [world["regions"][code] for code in codes]
    borders = world["borders"]
    border_a = np.asarray([index[b[0]] for b in borders], dtype=np.int64)
    border_b = np.asarray([index[b[1]] for b in borders], dtype=np.int64)
    factions = [board["factions"][code] for code in codes]
    held = [board["regions"][code] for code in codes]
    return SeasonArrays(
        codes=codes,
        population=np.asarray([r["population"] for r in regions], dtype=np.int64),
        rating=np.asarray([engine.weighted_rating(r["ratings"]) for r in regions],
                          dtype=np.int64),
        special=np.asarray([tables.CATEGORIES.index(tables.Category(r["special"]))
                            for r in regions], dtype=np.int64),
        border_a=border_a,
        border_b=border_b,
        border_sea=np.asarray([b[2] == tables.SEA for b in borders], dtype=np.bool_),
        owner=np.asarray([index[h["owner"]] for h in held], dtype=np.int64),
        captured=np.asarray([-1 if h["captured_at"] is None else h["captured_at"]
                             for h in held], dtype=np.int64),
        standing=np.asarray([f["standing"] for f in factions], dtype=np.bool_),
        morale=np.asarray([f["morale"] for f in factions], dtype=np.int64),
        pool=np.asarray([f["pool"] for f in factions], dtype=np.int64),
        pool_open=np.asarray([f["pool_state"] == tables.PoolState.OPEN for f in factions],
                             dtype=np.bool_),
        battle=int(board["next_battle"]),
        max_battles=_kernel().NO_CAP if max_battles is None else int(max_battles),
    )


def forecast_key(forecast_seed: str) -> int:
    """The kernel's 64-bit key for a forecast seed (any text; recorded with the forecast)."""
    return int.from_bytes(hashlib.sha256(f"forecast:{forecast_seed}".encode()).digest()[:8],
                          "big")


@dataclass(frozen=True, slots=True)
class _Totals:
    seasons: int
    titles: IntArray
    held: IntArray
    survived: IntArray
    battles: int


def run_chunk(arrays: SeasonArrays, key: int, first_season: int, seasons: int) -> _Totals:
    """Seasons first_season .. first_season + seasons - 1 of a forecast: their totals."""
    factions = len(arrays.codes)
    titles, held, survived = (np.zeros(factions, dtype=np.int64) for _ in range(3))
    lengths = np.zeros(seasons, dtype=np.int64)
    kernel: Any = _kernel().run_seasons
    kernel(*arrays.kernel_arguments(), np.uint64(key), first_season, seasons,
                np.zeros((0, tables.DRAWS_PER_BATTLE), dtype=np.uint64),
                np.zeros((0, 0, len(_kernel().TRACE_FIELDS)), dtype=np.int64),
                titles, held, survived, lengths)
    return _Totals(seasons, titles, held, survived, int(lengths.sum()))


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial proportion (sound near 0 and 1)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    spread = Z_95 * math.sqrt(p * (1 - p) / trials + Z_95**2 / (4 * trials**2))
    middle = p + Z_95**2 / (2 * trials)
    scale = 1 + Z_95**2 / trials
    low = 0.0 if successes == 0 else (middle - spread) / scale
    high = 1.0 if successes == trials else (middle + spread) / scale
    return low, high


@dataclass(frozen=True, slots=True)
class FactionOdds:
    """One faction's forecast, as counts over the simulated seasons (the figures derive)."""

    faction: str
    seasons: int
    titles: int
    regions_held: int
    """Regions held at the end, summed over the seasons."""
    survived: int

    @property
    def title_chance(self) -> float:
        """Share of the seasons the faction won."""
        return self.titles / self.seasons

    @property
    def title_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the title chance."""
        return wilson_interval(self.titles, self.seasons)

    @property
    def expected_regions(self) -> float:
        """Mean number of regions held when the season ends."""
        return self.regions_held / self.seasons

    @property
    def survival_chance(self) -> float:
        """Share of the seasons that end with the faction standing."""
        return self.survived / self.seasons

    def to_json(self) -> dict[str, Any]:
        """Counts as integers; derived figures as decimal strings with six places."""
        low, high = self.title_interval
        return {
            "faction": self.faction,
            "titles": self.titles,
            "regions_held": self.regions_held,
            "survived": self.survived,
            "title_chance": _decimal(self.title_chance),
            "title_interval": [_decimal(low), _decimal(high)],
            "expected_regions": _decimal(self.expected_regions),
            "survival_chance": _decimal(self.survival_chance),
        }


def _decimal(value: float) -> str:
    return f"{value:.6f}"


@dataclass(frozen=True, slots=True)
class Forecast:
    """Title odds from one state: which battle it stands before, and how it was drawn."""

    as_of_battle: int
    seasons: int
    forecast_seed: str
    battles_left: int
    """Battles fought after the state, summed over the seasons."""
    factions: tuple[FactionOdds, ...]

    @property
    def mean_battles_left(self) -> float:
        """Mean number of battles the simulated seasons still ran."""
        return self.battles_left / self.seasons

    def odds_of(self, faction: str) -> FactionOdds:
        """One faction's line."""
        for odds in self.factions:
            if odds.faction == faction:
                return odds
        raise KeyError(faction)

    @classmethod
    def from_json(cls, plain: Mapping[str, Any]) -> Forecast:
        """A forecast back from `to_json` (the counts; every figure derives from them)."""
        seasons = int(plain["seasons"])
        return cls(
            as_of_battle=int(plain["as_of_battle"]), seasons=seasons,
            forecast_seed=str(plain["forecast_seed"]), battles_left=int(plain["battles_left"]),
            factions=tuple(
                FactionOdds(faction=str(line["faction"]), seasons=seasons,
                            titles=int(line["titles"]), regions_held=int(line["regions_held"]),
                            survived=int(line["survived"]))
                for line in plain["factions"]),
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (no binary floats), factions by titles, then regions, then code."""
        return {
            "as_of_battle": self.as_of_battle,
            "seasons": self.seasons,
            "forecast_seed": self.forecast_seed,
            "battles_left": self.battles_left,
            "mean_battles_left": _decimal(self.mean_battles_left),
            "factions": [odds.to_json() for odds in self.factions],
        }


def forecast(
    state: engine.Plain,
    ledger: list[engine.Plain],
    *,
    seasons: int,
    forecast_seed: str,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> Forecast:
    """Title odds from a season's state: `seasons` simulated rests of the season.

    `state` needs only the public parts (world, board, max_battles); its key is never read.
    """
    if seasons < 1:
        raise ValueError("seasons: must be at least 1")
    board = engine.pending_board(state, ledger)
    arrays = season_arrays(state["world"], board, state["max_battles"])
    key = forecast_key(forecast_seed)
    chunks = [(start, min(CHUNK_SEASONS, seasons - start))
              for start in range(0, seasons, CHUNK_SEASONS)]
    run_chunk(arrays, key, 0, 0)  # compile or load the kernel here, before any process forks
    results = (executor or in_process()).map(
        run_chunk, [(arrays, key, start, size) for start, size in chunks],
        progress=None if progress is None else (lambda done: progress(
            sum(size for _start, size in chunks[:done]))),
    )
    factions = len(arrays.codes)
    titles, held, survived = (np.zeros(factions, dtype=np.int64) for _ in range(3))
    battles = 0
    for totals in results:
        titles += totals.titles
        held += totals.held
        survived += totals.survived
        battles += totals.battles
    rows = [
        FactionOdds(faction=code, seasons=seasons, titles=int(titles[i]),
                    regions_held=int(held[i]), survived=int(survived[i]))
        for i, code in enumerate(arrays.codes)
    ]
    rows.sort(key=lambda odds: (-odds.titles, -odds.regions_held, odds.faction))
    return Forecast(
        as_of_battle=arrays.battle, seasons=seasons, forecast_seed=forecast_seed,
        battles_left=battles, factions=tuple(rows),
    )


@dataclass(frozen=True, slots=True)
class PoolEffect:
    """What a contribution would do to a faction's title chance: the same simulated seasons
    (common random numbers) with and without it, so the difference is not sampling noise."""

    faction: str
    amount: int
    without: Forecast
    with_pool: Forecast

    @property
    def title_change(self) -> float:
        """Change in the faction's title chance (with minus without)."""
        return (self.with_pool.odds_of(self.faction).title_chance
                - self.without.odds_of(self.faction).title_chance)


def pool_effect(
    state: engine.Plain,
    ledger: list[engine.Plain],
    faction: str,
    amount: int,
    *,
    seasons: int,
    forecast_seed: str,
    executor: Executor | None = None,
) -> PoolEffect:
    """Two forecasts from the same seasons: as things stand, and with `amount` more dollars in
    `faction`'s pool before the next battle (refused by the pool rules like a real one)."""
    entry = engine.check_contribution(state, ledger, faction, amount)
    common = {"seasons": seasons, "forecast_seed": forecast_seed, "executor": executor}
    return PoolEffect(
        faction=faction, amount=amount,
        without=forecast(state, ledger, **common),  # type: ignore[arg-type]
        with_pool=forecast(state, [*ledger, entry], **common),  # type: ignore[arg-type]
    )
