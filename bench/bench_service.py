"""The service operated: throughput with two workers against one, and health under abuse.

1. A mixed read load (season, standings, map, battles, the ruleset lists) over 40 keep-alive
   clients against `fairfight serve --workers 1`, then `--workers 2`, in the same run (rate
   limits off: the load comes from one address). Target: the two-worker rate ≥ 1.0x the one's.
2. Against `--workers 2` with every protection on, each abuse pattern in turn while a prober
   asks `/healthz` every 20 ms: 500 slow clients that open a connection and send one byte of a
   request head; 60 concurrent "what would $X do" askers (each asking again a second after its
   answer); the same questions as a flood from one address; uploads near the size cap.
   Targets: `/healthz` p99 ≤ 100 ms and the server's processes (supervisor and workers
   together) under 600 MB resident.

The machine's two cores are shared by the server and this load generator, so the ratios are
what counts; the absolute numbers move with the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench.loadgen import Answer, Request, read_answer, run_load
from bench.timing import report
from fairfight.conquest import scenario, season, tables

CLIENTS = 40
READS = 3000
PROBE_SECONDS = 6.0
PROBE_EVERY = 0.02
SLOW_CLIENTS = 500
QUESTIONS = 60
UPLOAD_BYTES = 15 * 1024 * 1024
HEALTH_P99_MS = 100.0
RSS_LIMIT_MB = 600.0


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _server(database: Path, workers: int, **settings: str) -> Iterator[tuple[str, int]]:
    """`fairfight serve` as a process; yields its base URL and pid."""
    port = _free_port()
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("FAIRFIGHT_", "PROMETHEUS_"))}
    environment.update({f"FAIRFIGHT_{name.upper()}": value for name, value in settings.items()})
    environment["FAIRFIGHT_REQUEST_LOG"] = "false"  # the log's cost is not what is measured
    log = open(os.environ.get("BENCH_SERVICE_SERVER_LOG", os.devnull), "a")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "fairfight", "serve", "--db", str(database), "--port", str(port),
         "--workers", str(workers)],
        stdout=log, stderr=subprocess.STDOUT, env=environment,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(60)
        log.close()


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, in MB (from /proc)."""
    total_kb = 0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(child) for child in children]
    except OSError:
        pass
    for each in pids:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
        except OSError:
            continue
    return total_kb / 1024


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
        with _server(database, workers, rate_limits_enabled="false") as (base, _):
            run_load(base, plan[:200], CLIENTS, _check_ok)  # warm: views built, pools open
            seconds, latencies = run_load(base, plan, CLIENTS, _check_ok)
        rates[workers] = len(plan) / seconds
        p99 = sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000
        print(f"{'':<48} --workers {workers}: {rates[workers]:,.0f} reads/s, "
              f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {p99:.1f} ms", flush=True)
    report(f"mixed reads/s, --workers 2 ({CLIENTS} clients)", rates[2], "/s", rates[1])


async def _probe(host: str, port: int, stop: asyncio.Event, pid: int) -> tuple[list[float],
                                                                                 float]:
    """Ask /healthz every PROBE_EVERY seconds on a connection of its own; sample the RSS."""
    latencies: list[float] = []
    peak = 0.0
    wire = Request("GET", "/healthz").encode(f"{host}:{port}")
    reader, writer = await asyncio.open_connection(host, port)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            writer.write(wire)
            answer = await read_answer(reader)
            latencies.append(time.perf_counter() - started)
            assert answer.status == 200, answer
            peak = max(peak, _tree_rss_mb(pid))
            await asyncio.sleep(PROBE_EVERY)
    finally:
        writer.close()
    return latencies, peak


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


async def _one_request(host: str, port: int, request: Request) -> int:
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        return 0
    try:
        writer.write(request.encode(f"{host}:{port}"))
        return (await read_answer(reader)).status
    except (OSError, asyncio.IncompleteReadError):
        return 0
    finally:
        writer.close()


def _question(codes: list[str], number: int) -> Request:
    """The `number`th "what would $X do" question: a faction in turn, an amount the rules take."""
    return Request("GET", f"/api/seasons/1/factions/{codes[number % len(codes)]}/pool-effect"
                          f"?amount={tables.POOL_STEP * (1 + number % 4)}")


async def _questions(host: str, port: int, stop: asyncio.Event, codes: list[str]) -> str:
    """QUESTIONS askers at once, each asking again a second after its answer (the issue's
    pattern: 60 concurrent "what would $X do" questions, each 1.5 to 2.5 s of work)."""
    statuses: list[int] = []

    async def asker(number: int) -> None:
        while not stop.is_set():
            statuses.append(await _one_request(host, port, _question(codes, number)))
            await asyncio.sleep(1.0)

    await asyncio.gather(*(asker(number) for number in range(QUESTIONS)))
    return f"{len(statuses)} questions: {_counts(statuses)}"


async def _flood(host: str, port: int, stop: asyncio.Event, codes: list[str]) -> str:
    """The same questions from one address as fast as the answers come (mostly 429s)."""
    statuses: list[int] = []
    while not stop.is_set():
        asked = [_question(codes, number) for number in range(QUESTIONS)]
        statuses += await asyncio.gather(*(_one_request(host, port, a) for a in asked))
    return f"{len(statuses)} questions: {_counts(statuses)}"


def _counts(statuses: list[int]) -> dict[str, int]:
    """How many answers of each status (0: the server closed the connection first)."""
    return {str(status) if status else "closed": statuses.count(status)
            for status in sorted(set(statuses))}


async def _uploads(host: str, port: int, stop: asyncio.Event) -> str:
    payload = os.urandom(UPLOAD_BYTES - 4096)
    boundary = "benchboundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"; "
            f"filename=\"season.zip\"\r\nContent-Type: application/zip\r\n\r\n").encode() + \
        payload + f"\r\n--{boundary}--\r\n".encode()
    head = (f"POST /api/upload/verify HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    statuses: list[int] = []

    async def upload() -> int:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            return 0
        try:
            writer.write(head + body)
            with contextlib.suppress(OSError):  # a refusal may come before the body is sent
                await writer.drain()
            return (await read_answer(reader)).status
        except (OSError, asyncio.IncompleteReadError, ValueError):
            return 0
        finally:
            writer.close()

    while not stop.is_set():
        statuses += await asyncio.gather(*(upload() for _ in range(4)))
    return f"{len(statuses)} uploads of {UPLOAD_BYTES // 2**20} MB: {_counts(statuses)}"


async def _under(base: str, pid: int,
                 abuse: Callable[[str, int, asyncio.Event], Awaitable[str]]) -> tuple[
                     list[float], float, str]:
    host, _, port_text = base.removeprefix("http://").partition(":")
    port = int(port_text)
    stop = asyncio.Event()
    attack = asyncio.create_task(abuse(host, port, stop))
    await asyncio.sleep(0.5)  # the abuse is under way before the prober starts
    probing = asyncio.create_task(_probe(host, port, stop, pid))
    await asyncio.sleep(PROBE_SECONDS)
    stop.set()
    latencies, peak = await probing
    what = await attack
    return latencies, peak, what


def _abuse(database: Path, codes: list[str]) -> None:
    patterns: dict[str, Callable[[str, int, asyncio.Event], Awaitable[str]]] = {
        "slow clients": _slow_clients,
        "60 concurrent questions": lambda h, p, s: _questions(h, p, s, codes),
        "a question flood": lambda h, p, s: _flood(h, p, s, codes),
        "big uploads": _uploads,
    }
    with _server(database, 2, header_read_seconds="2") as (base, pid):
        calm, calm_peak, _ = asyncio.run(_under(base, pid, _idle))
        calm_p99 = sorted(calm)[int(len(calm) * 0.99) - 1] * 1000
        print(f"{'':<48} calm: /healthz p99 {calm_p99:.1f} ms, RSS {calm_peak:.0f} MB",
              flush=True)
        for label, abuse in patterns.items():
            latencies, peak, what = asyncio.run(_under(base, pid, abuse))
            p99 = sorted(latencies)[int(len(latencies) * 0.99) - 1] * 1000
            verdict = "ok" if p99 <= HEALTH_P99_MS and peak < RSS_LIMIT_MB else "OVER TARGET"
            report(f"/healthz p99 under {label}", p99, " ms", calm_p99)
            print(f"{'':<48} {what}; RSS peak {peak:.0f} MB; {verdict}", flush=True)


async def _idle(host: str, port: int, stop: asyncio.Event) -> str:
    await stop.wait()
    return "nothing"


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
