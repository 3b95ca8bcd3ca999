"""Fan contributions on PostgreSQL: `fairfight serve --workers 2` against `--workers 1`.

A throwaway PostgreSQL cluster holds two north-america seasons; each server gets a season of
its own (the same start), so neither meets pools the other filled. CLIENTS keep-alive clients
post `$5` contributions, each with a key of its own, spread over every faction and never more
than nine per faction (a pool holds $50: none is refused by the rules), with the rate limits
off (the load comes from one address) and the forecasts off (their background work is not
what is measured). Every answer must be 201. Targets (issue 20): the
two-worker rate ≥ 1.0x the one-worker rate of the same run, and p99 ≤ 200 ms.

Without PostgreSQL's binaries this says so in one line and measures nothing.
"""

from __future__ import annotations

import statistics
import uuid

from bench.loadgen import Answer, Request, run_load
from bench.postgres_cluster import postgres_binaries, throwaway_cluster
from bench.served import p99_ms, served
from bench.timing import report
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import season

CLIENTS = 32
PER_FACTION = 9
"""Contributions of POOL_STEP per faction and run: one step short of the pool cap."""
WARM = 100
P99_TARGET_MS = 200.0


def _plan(season_id: int, codes: list[str]) -> list[Request]:
    """PER_FACTION contributions to every faction, the factions taken in turn."""
    return [Request("POST", f"/api/seasons/{season_id}/contributions",
                    {"faction": codes[number % len(codes)], "amount": tables.POOL_STEP},
                    (("Idempotency-Key", uuid.uuid4().hex),))
            for number in range(PER_FACTION * len(codes))]


def _check_recorded(request: Request, answer: Answer) -> None:
    assert answer.status == 201, (request.body, answer.status, answer.body)


def main() -> None:
    binaries = postgres_binaries()
    if binaries is None:
        print("contributions on PostgreSQL: skipped (no PostgreSQL binaries on this machine)")
        return
    with throwaway_cluster(binaries) as url:
        north_america = scenario.load_map("north-america")
        for _ in (1, 2):
            season.create_season(url, north_america, "north-america", seed="42" * 32)
        codes = sorted(season.summary(f"{url}#1").board["factions"])
        rates, p99s = {}, {}
        for season_id, workers in ((1, 1), (2, 2)):
            plan = _plan(season_id, codes)
            with served(url, workers, rate_limits_enabled="false", forecast_seasons="0") as (
                    base, _):
                run_load(base, plan[:WARM], CLIENTS, _check_recorded)  # pools and caches open
                seconds, latencies = run_load(base, plan[WARM:], CLIENTS, _check_recorded)
            rates[workers] = (len(plan) - WARM) / seconds
            p99s[workers] = p99_ms(latencies)
            verdict = "ok" if p99s[workers] <= P99_TARGET_MS else "OVER TARGET"
            print(f"{'':<48} --workers {workers}: {rates[workers]:,.0f} contributions/s, "
                  f"p50 {statistics.median(latencies) * 1000:.1f} ms, "
                  f"p99 {p99s[workers]:.1f} ms ({verdict})", flush=True)
        report(f"contributions/s on PostgreSQL, --workers 2 ({CLIENTS} clients)", rates[2], "/s",
               rates[1])
        print(f"{'':<48} target ≥ 1.00x: {'ok' if rates[2] >= rates[1] else 'UNDER TARGET'}",
              flush=True)


if __name__ == "__main__":
    main()
