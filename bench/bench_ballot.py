"""Ballot: full 4-bot games per second (2 Pollster + 2 Machine, as-written-plus).

Three figures from one run: the baseline plays the games in one process with every exact-table
and estimate cache cleared before each game (what a bot pays without remembering anything across
games), then `simulate`'s own path with `--jobs 1` and `--jobs 2`, each as a ratio to it; last,
the processor time of a game on the `--jobs 1` path (steadier than rates on a shared machine).

Every timed run plays games whose keys no earlier run in this process has played, so the tables
kept per game key start cold, as they do for each game of a real `simulate` batch (replaying
the same keys would time warm tables, inherited by the forked workers too).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

from fairfight.ballot import dice, estimates, racebook
from fairfight.ballot.simulate import GameSpec, run_game, run_games
from fairfight.ballot.tables import named_config

GAMES = 48
REPEATS = 2
PLAYERS = ("pollster", "pollster", "machine", "machine")
_keys = itertools.count(2000)


def _clear_caches() -> None:
    dice.clear_cache()
    estimates.clear_cache()
    racebook.clear_cache()


def _fresh_games() -> list[GameSpec]:
    config = named_config("as-written-plus")
    return [GameSpec(config, str(next(_keys)), PLAYERS) for _ in range(GAMES)]


def _rate(play: Callable[[list[GameSpec]], object], repeats: int = REPEATS) -> float:
    """Games per second: the best of `repeats` runs, each on games never played before."""
    best = float("inf")
    for _ in range(repeats):
        specs = _fresh_games()
        started = time.perf_counter()
        play(specs)
        best = min(best, time.perf_counter() - started)
    return GAMES / best


def _cold(specs: list[GameSpec]) -> None:
    for spec in specs:
        _clear_caches()
        run_game(spec)


def main() -> None:
    baseline = _rate(_cold, repeats=1)
    _line("ballot games, caches cleared every game", baseline)
    _line("ballot simulate --jobs 1", _rate(lambda specs: run_games(specs, jobs=1)), baseline)
    _line("ballot simulate --jobs 2 (target >= 25)",
          _rate(lambda specs: run_games(specs, jobs=2)), baseline)
    specs = _fresh_games()
    started = time.process_time()
    run_games(specs, jobs=1)
    per_game = (time.process_time() - started) / GAMES * 1000
    label = "ballot simulate --jobs 1, processor time"
    print(f"{label:<48} {per_game:>14,.1f} ms/game", flush=True)


def _line(label: str, rate: float, baseline: float | None = None) -> None:
    """Like `bench.timing.report`, with a decimal: these rates are tens, not thousands."""
    ratio = f"  ({rate / baseline:,.1f}x baseline)" if baseline else ""
    print(f"{label:<48} {rate:>14,.1f} games/s{ratio}", flush=True)
