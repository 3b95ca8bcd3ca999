"""Title odds over time: the work after an aired battle, and the season home with its chart.

1. After a battle airs, the service keeps the forecast the battle left and works out the next
   battle's stakes (`OddsStory.update`: one forecast plus two per chosen pairing, 20,000
   seasons each) — timed from battle 1 of the north-america map, the longest rest of a season,
   in one thread, on the service's two threads (`odds_views.FORECAST_THREADS`: the kernel
   releases the interpreter's lock) and with the forecasts' chunks spread over a pool of 2
   forked processes kept for the job. Target: ready
   within 3 s on 2 cores. Baseline in the same run: one 20,000-season forecast in this process.
2. The season home with the chart, the movers and the stakes, for a north-america season 134
   battles in (135 kept forecasts, battles 0 to 134; the season ends at battle 135): p95 of
   in-process renders. Target: 50 ms.
   Baseline in the same run: the same page with forecasts switched off (no chart).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench.timing import report
from fairfight.conquest.forecast.stakes import STAKES_PAIRINGS
from fairfight.conquest.forecast.title_odds import FactionOdds, Forecast, forecast
from fairfight.conquest.rules import engine, scenario
from fairfight.conquest.store import season
from fairfight.conquest.store.odds_history import HISTORY_SEASONS, record_forecast
from fairfight.core.executor import Executor, InProcess, Progress, WorkerPool
from fairfight.web.conquest.odds_views import FORECAST_THREADS

RENDERS = 60
HISTORY_BATTLES = 134
"""Battles fought before the page is timed: this seed's season ends at battle 135, so the
next battle still has its stakes."""


class _KeptPool:
    """An executor over one pool of forked workers kept for the whole job (the five
    forecasts share it instead of starting a pool each)."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool

    def map(self, function: Any, chunks: Any, progress: Progress | None = None) -> list[Any]:
        """Every chunk on the kept pool, results in chunk order."""
        return self.pool.gather([self.pool.submit(function, *chunk) for chunk in chunks],
                                progress)


def _update_seconds(state: dict[str, Any], executor: Executor) -> float:
    """One aired battle's work: the kept forecast, then the stakes of the chosen pairings."""
    from fairfight.conquest.forecast import stakes

    started = time.perf_counter()
    now = forecast(state, [], seasons=HISTORY_SEASONS, forecast_seed="bench",
                   executor=executor)
    chances = {odds.faction: odds.title_chance for odds in now.factions}
    for pairing in stakes.likely_pairings(stakes.next_pairings(state, []), chances):
        stakes.stakes_of(state, [], pairing, seasons=HISTORY_SEASONS, forecast_seed="bench",
                         executor=executor)
    return time.perf_counter() - started


def _shuffled(made: Forecast, battle: int) -> Forecast:
    """A stand-in forecast for one kept battle: the same factions, counts rotated by battle."""
    lines = list(made.factions)
    titles = [line.titles for line in lines]
    turn = battle % len(lines)
    titles = titles[turn:] + titles[:turn]
    return Forecast(as_of_battle=battle + 1, seasons=made.seasons,
                    forecast_seed=f"bench-before-{battle + 1}", battles_left=made.battles_left,
                    factions=tuple(FactionOdds(line.faction, made.seasons, t, line.regions_held,
                                               line.survived) for line, t in zip(lines, titles,
                                                                                 strict=True)))


def _p95_ms(client: Any, url: str) -> float:
    client.get(url)
    times = []
    for _ in range(RENDERS):
        started = time.perf_counter()
        assert client.get(url).status_code == 200
        times.append(time.perf_counter() - started)
    return sorted(times)[int(len(times) * 0.95) - 1] * 1000


def _home_page(folder: Path) -> None:
    from fastapi.testclient import TestClient
    from tests.web.conquest_support import make_app

    from fairfight.web.conquest.catalog import SeasonCatalog
    from fairfight.web.conquest.database import SeasonDatabase
    from fairfight.web.conquest.forecasts import forecast_seed_for, public_state
    from fairfight.web.conquest.odds_views import OddsStory

    path = folder / "history.db"
    season.create_season(path, scenario.load_map("north-america"), "north-america",
                         seed="44" * 32)
    list(season.fight(path, HISTORY_BATTLES))
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{path}"))
    snap = catalog.snapshot(1)
    made = forecast(public_state(snap), [], seasons=2_000, forecast_seed="bench")
    with catalog.database.transaction(1, write=True) as session:
        for battle in range(len(snap.history)):
            record_forecast(session, battle, _shuffled(made, battle))
    story = OddsStory(catalog, seasons=2_000)
    story.update(snap, public_state(snap), forecast_seed_for(snap, None))  # the last + stakes
    catalog.close()
    with TestClient(make_app(path)) as plain:
        baseline = _p95_ms(plain, "/conquest/1")
    with TestClient(make_app(path, forecast_seasons=2_000)) as client:
        client.app.state.conquest.forecasts.settle()  # type: ignore[attr-defined]
        page = client.get("/conquest/1").text
        assert 'id="season-odds-chart"' in page and 'id="stakes"' in page
        p95 = _p95_ms(client, "/conquest/1")
    print(f"{'season home p95, no chart (baseline)':<48} {baseline:>14.1f} ms", flush=True)
    print(f"{f'season home p95, chart of {len(snap.history) + 1} forecasts':<48} "
          f"{p95:>14.1f} ms  ({p95 / baseline:.2f}x baseline; target <= 50 ms)", flush=True)


def main() -> None:
    state = engine.new_state(scenario.load_map("north-america"), "0" * 64)
    forecast(state, [], seasons=10, forecast_seed="warm")  # compile or load the kernel
    started = time.perf_counter()
    forecast(state, [], seasons=HISTORY_SEASONS, forecast_seed="bench")
    one = time.perf_counter() - started
    print(f"{'one 20,000-season forecast, battle 1 (baseline)':<48} {one:>14.2f} s", flush=True)
    forecasts = 1 + 2 * STAKES_PAIRINGS
    for label in ("1 thread", "2 threads (the service)", "2 processes"):
        if label == "1 thread":
            seconds = _update_seconds(state, InProcess())
        elif label.startswith("2 threads"):
            seconds = _update_seconds(state, FORECAST_THREADS)
        else:
            with WorkerPool(2) as pool:
                seconds = _update_seconds(state, _KeptPool(pool))
        print(f"{f'odds + stakes after a battle, {label}':<52} {seconds:>14.2f} s  "
              f"({seconds / one:.2f}x baseline, {forecasts} forecasts; target <= 3 s on 2 "
              "cores)", flush=True)
    report("forecast seasons per second in that job", forecasts * HISTORY_SEASONS / seconds,
           "seasons/s", HISTORY_SEASONS / one)
    with tempfile.TemporaryDirectory(prefix="bench-stakes-") as scratch:
        _home_page(Path(scratch))


if __name__ == "__main__":
    main()
