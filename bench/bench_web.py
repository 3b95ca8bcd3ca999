"""Conquest web: contributions per second from 50 concurrent clients, and page render times.

A real server (`fairfight serve`, one process, request log off) on loopback; 50 clients post
$5 contributions, each with its own idempotency key, and every response is checked (201 and
the entry it names).
The load comes from `bench.loadgen`, a client lean enough to leave the cores to the server.
Baseline measured in the same run: the same 50 clients on `GET /api/health`, the HTTP floor of
this machine. PostgreSQL is reported beside SQLite when its server programs are installed.
Pages: the season home and an episode of a finished 136-battle season, rendered in-process.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.loadgen import Answer, Request, run_load
from bench.postgres_cluster import postgres_binaries, throwaway_cluster
from bench.served import served
from bench.timing import report
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import season

CLIENTS = 50
CONTRIBUTIONS = 1200
PAGE_RENDERS = 60


def _plan(address: str | Path) -> list[str]:
    """One faction code per $5 contribution the rules will accept before the next battle."""
    summary = season.summary(address)
    plan = []
    for code, faction in sorted(summary.board["factions"].items()):
        if faction["pool_state"] == tables.PoolState.OPEN:
            plan += [code] * ((tables.POOL_CAP - faction["pool"]) // tables.POOL_STEP)
    return plan[:CONTRIBUTIONS]


def _check_health(request: Request, answer: Answer) -> None:
    assert answer.status == 200, answer


def _check_contribution(request: Request, answer: Answer) -> None:
    assert answer.status == 201, answer
    assert (answer.body["faction"], answer.body["amount"]) == (request.body["faction"], 5)


def _p99(latencies: list[float]) -> float:
    """The 99th percentile in milliseconds."""
    return sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000


def contribution_load(plan: list[str]) -> tuple[list[Request], list[Request]]:
    """(the baseline's health requests, one $5 contribution per planned code, each keyed)."""
    health = [Request("GET", "/api/health")] * len(plan)
    contributions = [
        Request("POST", "/api/seasons/1/contributions", {"faction": code, "amount": 5},
                (("Idempotency-Key", f"bench-{i}"),))
        for i, code in enumerate(plan)
    ]
    return health, contributions


def _contributions(label: str, database: str, address: str | Path) -> None:
    plan = _plan(address)
    health, contributions = contribution_load(plan)
    # every contribution comes from 127.0.0.1: past the write burst the per-client limit
    # would answer 429, and this bench measures throughput, not the limiter
    with served(database, 1, rate_limits_enabled="false") as (base, _):
        health_seconds, health_latencies = run_load(base, health, CLIENTS, _check_health)
        seconds, latencies = run_load(base, contributions, CLIENTS, _check_contribution)
    recorded = len(season.summary(address).ledger)
    assert recorded >= len(plan), "an acknowledged contribution is missing from the ledger"
    p99, health_p99 = _p99(latencies), _p99(health_latencies)
    report(f"{label}: contributions/s ({CLIENTS} clients)", len(plan) / seconds, "/s",
           len(plan) / health_seconds)
    print(f"{'':<48} p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {p99:.1f} ms; "
          f"baseline GET /api/health {len(plan) / health_seconds:,.0f}/s, p99 {health_p99:.1f} ms",
          flush=True)


def _pages(path: Path) -> None:
    from fastapi.testclient import TestClient

    from fairfight.web import WebSettings, create_app

    app = create_app(WebSettings(database_url=f"sqlite:///{path}"))
    with TestClient(app) as client:
        baseline: list[float] = []
        for _ in range(PAGE_RENDERS):
            start = time.perf_counter()
            client.get("/api/health")
            baseline.append(time.perf_counter() - start)
        pages = (("season home", "/conquest/1"), ("episode 68", "/conquest/1/battles/68"))
        for label, url in pages:
            client.get(url)  # the first render builds the cached views of this season version
            times = []
            for _ in range(PAGE_RENDERS):
                start = time.perf_counter()
                assert client.get(url).status_code == 200
                times.append(time.perf_counter() - start)
            p95 = sorted(times)[int(len(times) * 0.95) - 1] * 1000
            floor = statistics.median(baseline) * 1000
            print(f"page render p95, {label} (136 battles){'':<12} {p95:8.1f} ms  "
                  f"(GET /api/health median {floor:.1f} ms)", flush=True)


def _postgres() -> Any:
    """A throwaway PostgreSQL cluster (a context manager yielding a URL), or None."""
    binaries = postgres_binaries()
    return None if binaries is None else throwaway_cluster(binaries)


def main() -> None:
    north_america = scenario.load_map("north-america")
    with tempfile.TemporaryDirectory(prefix="bench-web-") as scratch:
        folder = Path(scratch)
        live = folder / "live.db"
        season.create_season(live, north_america, "north-america", seed="42" * 32)
        _contributions("sqlite", f"sqlite:///{live}", live)
        cluster = _postgres()
        if cluster is not None:
            with cluster as url:
                season.create_season(url, north_america, "north-america", seed="42" * 32)
                _contributions("postgresql", url, f"{url}#1")
        else:
            print("postgresql: not installed; skipped", flush=True)
        finished = folder / "finished.db"
        season.create_season(finished, north_america, "north-america", seed="43" * 32)
        list(season.fight(finished, None))
        _pages(finished)


if __name__ == "__main__":
    main()
