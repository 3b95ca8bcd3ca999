"""`fairfight serve` as a process for the service benchmarks, and what they watch it with: the
resident memory of its process tree, a `/api/health` prober, one-off requests from a chosen
loopback address (all of 127.0.0.0/8 is this machine, so a bench can be many clients)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

import httpx

from bench.loadgen import Request, read_answer

__all__ = ["Abuse", "HealthProbe", "counts", "free_port", "idle", "one_request", "p99_ms",
           "served", "settle", "tree_rss_mb", "under"]

PROBE_EVERY = 0.02
"""The prober's pause between two health questions (the issue's 20 ms)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def served(database: Path | str, workers: int, **settings: str) -> Iterator[tuple[str, int]]:
    """`fairfight serve --db DATABASE --workers N` with `FAIRFIGHT_<NAME>` settings; yields its
    base URL and pid. `BENCH_SERVICE_SERVER_LOG` names a file for the server's output."""
    port = free_port()
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


def _tree_pids(pid: int) -> list[int]:
    """A process and its children (the supervisor and its workers)."""
    pids = [pid]
    with suppress(OSError):
        pids += [int(child) for child in
                 Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return pids


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, in MB (from /proc)."""
    total_kb = 0
    for each in _tree_pids(pid):
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
        except OSError:
            continue
    return total_kb / 1024


def _tree_cpu_seconds(pid: int) -> float:
    """CPU time (user and system) used so far by a process and its children, from /proc."""
    ticks = 0
    for each in _tree_pids(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def settle(pid: int, idle_share: float = 0.05, longest: float = 90.0) -> float:
    """Wait until the server's processes use less than `idle_share` of a core over a second
    (a start's background work, such as the first forecast, or the queue an abuse left, is
    done), at most `longest` seconds; returns the seconds waited."""
    started = time.monotonic()
    before = _tree_cpu_seconds(pid)
    while time.monotonic() - started < longest:
        time.sleep(1.0)
        now = _tree_cpu_seconds(pid)
        if now - before < idle_share:
            break
        before = now
    return time.monotonic() - started


def p99_ms(latencies: list[float]) -> float:
    """The 99th percentile of latencies in seconds, in milliseconds."""
    ordered = sorted(latencies)
    return ordered[max(0, min(len(ordered) - 1, int(len(ordered) * 0.99) - 1))] * 1000


def counts(statuses: list[int]) -> dict[str, int]:
    """How many answers of each status (0: no answer, the connection failed or was closed)."""
    return {str(status) if status else "closed": statuses.count(status)
            for status in sorted(set(statuses))}


class HealthProbe:
    """Asks `path` every PROBE_EVERY seconds on a keep-alive connection of its own until
    stopped, timing each answer and sampling the server's resident memory."""

    def __init__(self, host: str, port: int, pid: int, path: str = "/api/health") -> None:
        self.host, self.port, self.pid, self.path = host, port, pid, path
        self.latencies: list[float] = []
        self.statuses: list[int] = []
        self.peak_mb = 0.0

    async def run(self, stop: asyncio.Event) -> None:
        wire = Request("GET", self.path).encode(f"{self.host}:{self.port}")
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            while not stop.is_set():
                started = time.perf_counter()
                writer.write(wire)
                answer = await read_answer(reader)
                self.latencies.append(time.perf_counter() - started)
                self.statuses.append(answer.status)
                self.peak_mb = max(self.peak_mb, tree_rss_mb(self.pid))
                await asyncio.sleep(PROBE_EVERY)
        finally:
            writer.close()

    def summary(self) -> str:
        failed = len(self.statuses) - self.statuses.count(200)
        return (f"{self.path} p99 {p99_ms(self.latencies):.1f} ms over {len(self.latencies)} "
                f"asked{f' ({failed} not 200: {counts(self.statuses)})' if failed else ''}")


async def one_request(host: str, port: int, request: Request,
                      local_address: str | None = None) -> int:
    """Send `request` on a new connection (from `local_address` when given); its status, or 0
    when the connection failed or closed before an answer."""
    local = None if local_address is None else (local_address, 0)
    try:
        reader, writer = await asyncio.open_connection(host, port, local_addr=local)
    except OSError:
        return 0
    try:
        writer.write(request.encode(f"{host}:{port}"))
        return (await read_answer(reader)).status
    except (OSError, asyncio.IncompleteReadError):
        return 0
    finally:
        writer.close()


Abuse = Callable[[str, int, asyncio.Event], Coroutine[Any, Any, str]]
"""One abuse pattern: given the server's host and port, abuse it until the event is set, then
say in a few words what was sent and how it was answered."""


def _probe_in_own_process(host: str, port: int, pid: int, go: EventType, stop: EventType,
                          results: Connection) -> None:
    """The prober's process: wait for `go`, probe until `stop`, send back what it saw."""
    probe = HealthProbe(host, port, pid)
    go.wait()

    async def probe_until_stopped() -> None:
        stopped = asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.05)
            stopped.set()

        watcher = asyncio.create_task(watch())
        await probe.run(stopped)
        await watcher

    asyncio.run(probe_until_stopped())
    results.send((probe.latencies, probe.statuses, probe.peak_mb))


async def under(base: str, pid: int, abuse: Abuse, seconds: float,
                bystander: Callable[[asyncio.Event], Coroutine[Any, Any, str]] | None = None,
                ) -> tuple[HealthProbe, str, str]:
    """Run `abuse`; half a second later start the health prober (and `bystander`, a normal
    client going about its business) for `seconds`; then stop them all. Returns the prober
    and what the abuse and the bystander said.

    The prober runs in a process of its own: in this one, an abuse that keeps the event loop
    busy (a flood answered as fast as it is sent) would delay reading the prober's answers,
    and that wait would be counted as the server's."""
    host, _, port_text = base.removeprefix("http://").partition(":")
    port = int(port_text)
    context = multiprocessing.get_context("spawn")
    go, stopping = context.Event(), context.Event()
    received, results = context.Pipe(duplex=False)
    prober = context.Process(target=_probe_in_own_process,
                             args=(host, port, pid, go, stopping, results), daemon=True)
    prober.start()
    stop = asyncio.Event()
    attack = asyncio.create_task(abuse(host, port, stop))
    await asyncio.sleep(0.5)  # the abuse is under way before the prober starts
    go.set()
    normal = None if bystander is None else asyncio.create_task(bystander(stop))
    await asyncio.sleep(seconds)
    stopping.set()
    stop.set()
    probe = HealthProbe(host, port, pid)
    probe.latencies, probe.statuses, probe.peak_mb = await asyncio.to_thread(received.recv)
    await asyncio.to_thread(prober.join, 30)
    said = "" if normal is None else await normal
    return probe, await attack, said


async def idle(host: str, port: int, stop: asyncio.Event) -> str:
    """No abuse: the calm baseline."""
    await stop.wait()
    return "nothing"
