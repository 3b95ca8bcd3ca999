""""What would $X do?" on the demo season, as the service answers it.

The fan form asks for a faction's title chance without and with an amount in its pool, from
the same simulated seasons. The service keeps one forecast "as things stand" per season state
(made after each battle) and runs one more with the amount for each question. Timed here: the
first question in a fresh cache (the forecast as things stand made on the spot, as when a
question comes before the worker has made it), then 24 questions about different factions
and amounts (each one forecast). Target: p95 ≤ 1 s.
Baseline in the same run: the same questions answered with two forecasts each, as
`title_odds.pool_effect` does on its own.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.timing import p95
from fairfight.conquest.forecast.title_odds import pool_effect
from fairfight.conquest.rules import engine, tables
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.demo_season import build_demo_season
from fairfight.web.conquest.forecasts import ForecastCache, forecast_seed_for, public_state
from fairfight.web.conquest.odds_views import FORECAST_THREADS

SEED = "b0a7" * 16
SERVICE_SEASONS = 20_000
"""The service's default forecast size (`FAIRFIGHT_FORECAST_SEASONS`)."""
QUESTIONS = 24


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-effect-"))
    path = folder / "demo.db"
    build_demo_season(path, seed=SEED)
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{path}"))
    try:
        snap = catalog.snapshot(1)
        board = engine.pending_board(public_state(snap), snap.summary.ledger)["factions"]
        open_pools = [code for code, faction in sorted(board.items())
                      if faction["pool_state"] == tables.PoolState.OPEN and faction["pool"] == 0]
        asks = [(open_pools[i % len(open_pools)], (10, 25, 50)[i % 3]) for i in range(QUESTIONS)]
        cache = ForecastCache(catalog, SERVICE_SEASONS, None)
        started = time.perf_counter()
        cache.pool_effect(snap, *asks[0])
        first = time.perf_counter() - started
        served: list[float] = []
        for code, amount in asks[1:]:
            started = time.perf_counter()
            cache.pool_effect(snap, code, amount)
            served.append(time.perf_counter() - started)
        cache.close()
        seed, state = forecast_seed_for(snap, None), public_state(snap)
        two_each: list[float] = []
        for code, amount in asks[1:]:
            started = time.perf_counter()
            pool_effect(state, snap.summary.ledger, code, amount, seasons=cache.effect_seasons,
                        forecast_seed=seed, executor=FORECAST_THREADS)
            two_each.append(time.perf_counter() - started)
    finally:
        catalog.close()
    print(f"demo season, {cache.effect_seasons:,} seasons a side, {len(served)} questions")
    print(f"first question (forecast as things stand made then): {first * 1000:,.0f} ms")
    p95_seconds, baseline = p95(served), p95(two_each)
    print(f"p95 per question: {p95_seconds * 1000:,.0f} ms (target 1,000 ms); two forecasts "
          f"each: {baseline * 1000:,.0f} ms ({baseline / p95_seconds:,.2f}x slower)")
