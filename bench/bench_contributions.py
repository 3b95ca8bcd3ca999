"""Fan contributions on PostgreSQL: `fairfight serve --workers 2` against `--workers 1`.

A throwaway PostgreSQL cluster holds two north-america seasons; each server gets a season of
its own (the same start), so neither meets pools the other filled. CLIENTS keep-alive clients
post `$5` contributions, each with a key of its own, spread over every faction and never more
than nine per faction (a pool holds $50: none is refused by the rules), with the rate limits
off (the load comes from one address) and the forecasts off (their background work is not
what is measured). Every answer must be 201. Targets (issue 20): the
two-worker rate ≥ 1.0x the one-worker rate of the same run, and p99 ≤ 200 ms; (issue 31)
two workers ≥ 800/s with p99 ≤ 100 ms, and the server's CPU ≤ 1 ms per contribution
(every process of the service, read from /proc around the measured load).

First the same load on a season file, one worker (SQLite has one writer): target ≥ 1,000/s,
reported as a ratio to that target.

Without PostgreSQL's binaries this says so in one line and measures nothing.
"""

from __future__ import annotations

import statistics
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

from bench.loadgen import Answer, Request, run_load
from bench.postgres_cluster import postgres_binaries, throwaway_cluster
from bench.served import _tree_cpu_seconds, p99_ms, served
from bench.timing import report
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import season

CLIENTS = 32
PER_FACTION = 9
"""Contributions of POOL_STEP per faction and run: one step short of the pool cap."""
WARM = 100
P99_TARGET_MS = 200.0
PG_P99_TARGET_MS = 100.0
PG_TWO_WORKERS_RATE_TARGET = 800.0
SQLITE_RATE_TARGET = 1000.0
CPU_TARGET_MS = 1.0
"""Server CPU (every process of the service, from /proc) per contribution."""


def _plan(season_id: int, codes: list[str]) -> list[Request]:
    """PER_FACTION contributions to every faction, the factions taken in turn."""
    return [Request("POST", f"/api/seasons/{season_id}/contributions",
                    {"faction": codes[number % len(codes)], "amount": tables.POOL_STEP},
                    (("Idempotency-Key", uuid.uuid4().hex),))
            for number in range(PER_FACTION * len(codes))]


def _check_recorded(request: Request, answer: Answer) -> None:
    assert answer.status == 201, (request.body, answer.status, answer.body)


def _run(address: str, season_id: int, workers: int,
         codes: list[str], after: Callable[[str], None] | None = None,
         **settings: str) -> tuple[float, float, float, float]:
    """(contributions a second, p50 ms, p99 ms, server CPU ms per contribution) of one
    served run, after WARM contributions that open the pools and caches; `after` is given the
    base URL once the measured load is over, the server still up."""
    plan = _plan(season_id, codes)
    with served(address, workers, rate_limits_enabled="false", forecast_seasons="0",
                **settings) as (
            base, pid):
        run_load(base, plan[:WARM], CLIENTS, _check_recorded)  # pools and caches open
        cpu = _tree_cpu_seconds(pid)
        seconds, latencies = run_load(base, plan[WARM:], CLIENTS, _check_recorded)
        cpu = _tree_cpu_seconds(pid) - cpu
        if after is not None:
            after(base)
    measured = len(plan) - WARM
    return (measured / seconds, statistics.median(latencies) * 1000, p99_ms(latencies),
            cpu / measured * 1000)


def _line(label: str, run: tuple[float, float, float, float], rate_target: float,
          p99_target: float) -> str:
    rate, p50, p99, cpu = run
    verdicts = [f"rate target >= {rate_target:,.0f}/s: "
                + ("ok" if rate >= rate_target else "UNDER TARGET"),
                f"p99 target <= {p99_target:.0f} ms: " + ("ok" if p99 <= p99_target else
                                                          "OVER TARGET"),
                f"CPU target <= {CPU_TARGET_MS:.1f} ms: " + ("ok" if cpu <= CPU_TARGET_MS else
                                                             "OVER TARGET")]
    return (f"{'':<48} {label}: {rate:,.0f} contributions/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"server CPU {cpu:.2f} ms each ({'; '.join(verdicts)})")


def _sqlite() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-contributions-") as scratch:
        path = Path(scratch) / "season.db"
        season.create_season(path, scenario.load_map("north-america"), "north-america",
                             seed="42" * 32)
        codes = sorted(season.summary(path).board["factions"])
        run = _run(str(path), 1, 1, codes)
    report(f"contributions/s on SQLite, one worker ({CLIENTS} clients)", run[0], "/s",
           SQLITE_RATE_TARGET)
    print(_line("SQLite, --workers 1", run, SQLITE_RATE_TARGET, P99_TARGET_MS), flush=True)


def main() -> None:
    _sqlite()
    binaries = postgres_binaries()
    if binaries is None:
        print("contributions on PostgreSQL: skipped (no PostgreSQL binaries on this machine)")
        return
    with throwaway_cluster(binaries) as url:
        north_america = scenario.load_map("north-america")
        for _ in (1, 2):
            season.create_season(url, north_america, "north-america", seed="42" * 32)
        codes = sorted(season.summary(f"{url}#1").board["factions"])
        runs = {workers: _run(url, season_id, workers, codes)
                for season_id, workers in ((1, 1), (2, 2))}
        for workers, run in runs.items():
            print(_line(f"PostgreSQL, --workers {workers}", run,
                        PG_TWO_WORKERS_RATE_TARGET if workers == 2 else 0,
                        PG_P99_TARGET_MS if workers == 2 else P99_TARGET_MS), flush=True)
        report(f"contributions/s on PostgreSQL, --workers 2 ({CLIENTS} clients)", runs[2][0],
               "/s", runs[1][0])
        print(f"{'':<48} target ≥ 1.00x: "
              f"{'ok' if runs[2][0] >= runs[1][0] else 'UNDER TARGET'}", flush=True)


if __name__ == "__main__":
    main()
