"""Ballot: full 4-bot games per second (2 Pollster + 2 Machine, as-written-plus).

Three figures from one run: the baseline plays the games in one process with every exact-table
and estimate cache cleared before each game (what a bot pays without remembering anything across
games), then `simulate`'s own path with `--jobs 1` and `--jobs 2`, each as a ratio to it; last,
the processor time of a game on the `--jobs 1` path (steadier than rates on a shared machine).
"""

from __future__ import annotations

import time

from bench.timing import best_seconds
from fairfight.ballot import dice, estimates, racebook
from fairfight.ballot.rules import named_config
from fairfight.ballot.simulate import GameSpec, run_game, run_games

GAMES = 12
PLAYERS = ("pollster", "pollster", "machine", "machine")


def _clear_caches() -> None:
    dice.clear_cache()
    estimates.clear_cache()
    racebook.clear_cache()


def main() -> None:
    config = named_config("as-written-plus")
    specs = [GameSpec(config, str(2000 + i), PLAYERS) for i in range(GAMES)]

    def cold() -> None:
        for spec in specs:
            _clear_caches()
            run_game(spec)

    def jobs(count: int) -> float:
        return GAMES / best_seconds(lambda: run_games(specs, jobs=count), repeats=2)

    baseline = GAMES / best_seconds(cold, repeats=1)
    _line("ballot games, caches cleared every game", baseline)
    _line("ballot simulate --jobs 1", jobs(1), baseline)
    _line("ballot simulate --jobs 2 (target >= 25)", jobs(2), baseline)
    started = time.process_time()
    run_games(specs, jobs=1)
    per_game = (time.process_time() - started) / GAMES * 1000
    label = "ballot simulate --jobs 1, processor time"
    print(f"{label:<48} {per_game:>14,.1f} ms/game", flush=True)


def _line(label: str, rate: float, baseline: float | None = None) -> None:
    """Like `bench.timing.report`, with a decimal: these rates are tens, not thousands."""
    ratio = f"  ({rate / baseline:,.1f}x baseline)" if baseline else ""
    print(f"{label:<48} {rate:>14,.1f} games/s{ratio}", flush=True)
