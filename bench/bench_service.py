"""The service operated: throughput with two workers against one, and health under abuse.

1. A mixed read load (season, standings, map, battles, the ruleset lists) over 40 keep-alive
   clients against `fairfight serve --workers 1`, then `--workers 2`, in the same run (rate
   limits off: the load comes from one address). Target: the two-worker rate ≥ 1.0x the one's.
2. Against `--workers 2` with every protection on, each abuse pattern in turn while a prober
   asks `/api/health` every 20 ms: 500 slow clients that open a connection and send one byte
   of a request head; "what would $X do" questions as a flood from one address. Targets:
   `/api/health` p99 ≤ 100 ms and the server's processes (supervisor and workers together)
   under 600 MB resident. The other abuse patterns of issue 20, each with a normal fan
   contributing beside it, are in bench/bench_abuse.py.

The machine's two cores are shared by the server and this load generator, so the ratios are
what counts; the absolute numbers move with the machine.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from pathlib import Path

from bench.bench_abuse import question
from bench.loadgen import Answer, Request, run_load
from bench.served import Abuse, counts, idle, one_request, p99_ms, served, under
from bench.timing import report
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season

CLIENTS = 40
READS = 3000
PROBE_SECONDS = 6.0
SLOW_CLIENTS = 500
QUESTIONS = 60
HEALTH_P99_MS = 100.0
RSS_LIMIT_MB = 600.0


def _read_plan(codes: list[str]) -> list[Request]:
    paths = ["/api/seasons", "/api/seasons/1", "/api/seasons/1/standings",
             "/api/seasons/1/map", "/api/seasons/1/battles", "/api/clash/examples",
             "/api/ballot", *(f"/api/seasons/1/factions/{code}" for code in codes[:5])]
    return [Request("GET", paths[i % len(paths)]) for i in range(READS)]


def _check_ok(request: Request, answer: Answer) -> None:
    assert answer.status == 200, (request.path, answer.status, answer.body)


def _throughput(database: Path, codes: list[str]) -> None:
    plan = _read_plan(codes)
    rates = {}
    for workers in (1, 2):
        with served(database, workers, rate_limits_enabled="false") as (base, _):
            run_load(base, plan[:200], CLIENTS, _check_ok)  # warm: views built, pools open
            seconds, latencies = run_load(base, plan, CLIENTS, _check_ok)
        rates[workers] = len(plan) / seconds
        print(f"{'':<48} --workers {workers}: {rates[workers]:,.0f} reads/s, "
              f"p50 {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {p99_ms(latencies):.1f} ms", flush=True)
    report(f"mixed reads/s, --workers 2 ({CLIENTS} clients)", rates[2], "/s", rates[1])


async def _slow_clients(host: str, port: int, stop: asyncio.Event) -> str:
    """SLOW_CLIENTS connections at all times, each sending one byte of a request head and
    then nothing; when the server closes one (the header-read timeout), it opens another."""
    closed_by_server = 0

    async def hold() -> None:
        nonlocal closed_by_server
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            writer.write(b"G")
            read = asyncio.create_task(reader.read(1))
            await asyncio.wait([read, asyncio.create_task(stop.wait())],
                               return_when=asyncio.FIRST_COMPLETED)
            if read.done():
                closed_by_server += 1
            else:
                read.cancel()
            writer.close()

    await asyncio.gather(*(hold() for _ in range(SLOW_CLIENTS)))
    return f"{SLOW_CLIENTS} slow connections kept open, {closed_by_server} closed by the server"


async def _flood(host: str, port: int, stop: asyncio.Event, codes: list[str]) -> str:
    """The same questions from one address as fast as the answers come (mostly 429s)."""
    statuses: list[int] = []
    while not stop.is_set():
        asked = [question(codes, number) for number in range(QUESTIONS)]
        statuses += await asyncio.gather(*(one_request(host, port, a) for a in asked))
    return f"{len(statuses)} questions: {counts(statuses)}"


def _abuse(database: Path, codes: list[str]) -> None:
    patterns: dict[str, Abuse] = {
        "slow clients": _slow_clients,
        "a question flood": lambda h, p, s: _flood(h, p, s, codes),
    }
    with served(database, 2, header_read_seconds="2") as (base, pid):
        calm, _, _ = asyncio.run(under(base, pid, idle, PROBE_SECONDS))
        calm_p99 = p99_ms(calm.latencies)
        print(f"{'':<48} calm: {calm.summary()}, RSS {calm.peak_mb:.0f} MB", flush=True)
        for label, abuse in patterns.items():
            probe, what, _ = asyncio.run(under(base, pid, abuse, PROBE_SECONDS))
            p99 = p99_ms(probe.latencies)
            verdict = "ok" if p99 <= HEALTH_P99_MS and probe.peak_mb < RSS_LIMIT_MB else \
                "OVER TARGET"
            report(f"/api/health p99 under {label}", p99, " ms", calm_p99)
            print(f"{'':<48} {what}; RSS peak {probe.peak_mb:.0f} MB; {verdict}", flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-service-") as scratch:
        database = Path(scratch) / "season.db"
        season.create_season(database, scenario.load_map("north-america"), "north-america",
                             seed="42" * 32, max_battles=30)
        codes = sorted(season.summary(database).board["factions"])
        _throughput(database, codes)
        _abuse(database, codes)


if __name__ == "__main__":
    main()
