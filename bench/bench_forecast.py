"""Forecast: whole simulated seasons per second on the north-america map.

Yardstick measured in the same run: the C season port in `bench/c/conquest_limit.c` (same
map, written in its text format), on 1 and 2 processes; the kernel's target is 1.0x the C port
per CPU-second. Also: 100,000-season title odds from the first battle, Dask with 1 and 2 local
workers against local processes, and how often the compiled kernel, fed the exact engine's
draws, reproduces the engine's history: FORECAST_AGREEMENT seasons of each map (300 by
default), each from three boards along the season with pools and rebellions waiting
(`tests.conquest.forecast_checks.boards_along_a_season`).
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench import yardstick
from bench.timing import report
from fairfight.conquest.forecast.title_odds import forecast, run_chunk, season_arrays
from fairfight.conquest.rules import engine, scenario, tables
from fairfight.core.executor import DaskExecutor, InProcess, LocalProcesses

SEASONS = 40_000
TITLE_ODDS_SEASONS = 100_000
KERNEL_TARGET = 1.0
"""The kernel's seasons per CPU-second against the C port's, in the same run."""
AGREEMENT_POINTS = {"north-america": (0, 30, 100), "europe": (0, 15, 30)}
"""Battles played before each board the agreement check starts from (europe has 38)."""


def map_text(world: dict[str, Any]) -> str:
    """The yardstick's map format: `R B`, R region lines in code order, B border lines."""
    codes = sorted(world["regions"])
    index = {code: i for i, code in enumerate(codes)}
    lines = [f"{len(codes)} {len(world['borders'])}"]
    for code in codes:
        region = world["regions"][code]
        ratings = " ".join(str(region["ratings"][c]) for c in "PSMRU")
        lines.append(f"{code} {region['population']} {ratings} {region['special']}")
    for a, b, kind, remote in world["borders"]:
        lines.append(f"{index[a]} {index[b]} {0 if kind == tables.LAND else 2 if remote else 1}")
    return "\n".join(lines) + "\n"


def _c_rates(world: dict[str, Any], processes: int) -> tuple[float, float] | None:
    """The C port's seasons per wall second (its median) and per CPU-second (all reps)."""
    program = yardstick.build("conquest_limit.c", "conquest_limit")
    if program is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "map.txt"
        path.write_text(map_text(world), encoding="ascii")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        output = yardstick.run(program, path, SEASONS, 3, processes)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return yardstick.number_after(output, "s ->"), 3 * SEASONS / cpu


def _rate(executor: Any, state: dict[str, Any], seasons: int = SEASONS) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        forecast(state, [], seasons=seasons, forecast_seed="bench", executor=executor)
        best = min(best, time.perf_counter() - started)
    return seasons / best


def _agreement_part(jobs: list[tuple[str, str]]) -> tuple[int, list[str]]:
    from tests.conquest.forecast_checks import boards_along_a_season, engine_trace, kernel_traces

    maps = {name: scenario.load_map(name) for name in AGREEMENT_POINTS}
    checked, differing = 0, []
    for name, key in jobs:
        for state, ledger in boards_along_a_season(maps[name], key, AGREEMENT_POINTS[name]):
            checked += 1
            if kernel_traces([state], [ledger], 200)[0] != engine_trace(state, ledger):
                differing.append(f"{name}/{key}/{state['board']['next_battle']}")
    return checked, differing


def agreement(count: int, workers: int = 2) -> tuple[int, list[str]]:
    """Boards checked (`count` seasons of each map, three boards each) and those whose kernel
    history differs from the engine's, named map/season key/next battle."""
    jobs = [(name, f"{i:064x}") for name in AGREEMENT_POINTS for i in range(1, count + 1)]
    parts = [jobs[k::workers] for k in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_agreement_part, parts))
    return sum(r[0] for r in results), sorted(k for r in results for k in r[1])


def main() -> None:
    state = engine.new_state(scenario.load_map("north-america"), "0" * 64)
    arrays = season_arrays(state["world"], state["board"], None)
    run_chunk(arrays, 1, 0, 1)  # compile (or load the compiled kernel) before timing
    c_rates = _c_rates(state["world"], 1)
    if c_rates is not None:
        report("C season port, per CPU-second (yardstick)", c_rates[1], "seasons/cpu-s")
    started = time.process_time()
    run_chunk(arrays, 1, 0, SEASONS)
    report(f"forecast kernel, per CPU-second (target {KERNEL_TARGET}x)",
           SEASONS / (time.process_time() - started), "seasons/cpu-s",
           None if c_rates is None else c_rates[1])
    for processes in (1, 2):
        c_rates = _c_rates(state["world"], processes)
        if c_rates is not None:
            report(f"C season port, {processes} process(es) (yardstick)", c_rates[0],
                   "seasons/s")
        executor = InProcess() if processes == 1 else LocalProcesses(processes)
        report(f"forecast kernel, {processes} process(es)", _rate(executor, state), "seasons/s",
               None if c_rates is None else c_rates[0])
    started = time.perf_counter()
    forecast(state, [], seasons=TITLE_ODDS_SEASONS, forecast_seed="bench",
             executor=LocalProcesses(2))
    print(f"{'100,000-season title odds, battle 1, 2 processes':<48} "
          f"{time.perf_counter() - started:>14.2f} s   (target <= 5)", flush=True)
    local = _rate(LocalProcesses(2), state)
    report("local processes, 2 (baseline for Dask)", local, "seasons/s")
    from distributed import Client, LocalCluster

    for workers in (1, 2):
        with LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None) as cluster, \
                Client(cluster) as client:  # type: ignore[no-untyped-call]
            rate = _rate(DaskExecutor(client=client), state)
        report(f"Dask LocalCluster, {workers} worker(s)", rate, "seasons/s", local)
    count = int(os.environ.get("FORECAST_AGREEMENT", "300"))
    checked, differing = agreement(count)
    print(f"{'kernel = engine history (engine draws)':<48} {checked - len(differing):>14,} "
          f"of {checked:,} boards ({(checked - len(differing)) / checked:.3%}); "
          f"differing: {differing[:5]}", flush=True)
