"""Ballot: full bot games per minute (2 Pollster + 2 Machine, as-written-plus).

The baseline is the same games with every exact-table cache cleared before each game, so the
ratio shows what caching the exact tables (and the bots' table lookups) is worth.
"""

from __future__ import annotations

from bench.timing import best_seconds, report
from fairfight.ballot import dice, estimates
from fairfight.ballot.rules import named_config
from fairfight.ballot.simulate import GameSpec, run_game

GAMES = 3
SECONDS_PER_MINUTE = 60
PLAYERS = ("pollster", "machine", "pollster", "machine")


def _clear_caches() -> None:
    dice.clear_cache()
    for cached in (estimates.general_p, estimates.primary_p, estimates.presidential_p):
        cached.cache_clear()


def main() -> None:
    config = named_config("as-written-plus")
    specs = [GameSpec(config, str(2000 + i), PLAYERS) for i in range(GAMES)]

    def warm() -> None:
        for spec in specs:
            run_game(spec)

    def cold() -> None:
        for spec in specs:
            _clear_caches()
            run_game(spec)

    warm()
    cold_rate = SECONDS_PER_MINUTE * GAMES / best_seconds(cold, repeats=2)
    warm_rate = SECONDS_PER_MINUTE * GAMES / best_seconds(warm, repeats=2)
    report("ballot games, tables rebuilt every game", cold_rate, "games/min")
    report("ballot games, exact tables cached", warm_rate, "games/min", baseline=cold_rate)
