"""Helpers of the tests of one `fairfight serve --workers 2` on PostgreSQL: the server, its
worker pids, clients held to one worker, and an event stream read through such a client.

A TCP connection is accepted by exactly one worker process, so an httpx client limited to one
connection talks to one worker for as long as that connection lives; every answer is checked
to have come over the same connection (its local address), so a client that silently
reconnected, and might be talking to the other worker, fails the test instead of passing it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from fairfight.web.conquest.operator import token_digest
from tests.web.conquest_support import ADMIN_TOKEN, free_port
from tests.web.live_support import GIVE_UP_SECONDS, StreamReader, wait_until

__all__ = ["PinnedClient", "PinnedStream", "ServedWorkers", "served_workers"]

SOURCE = Path(__file__).resolve().parents[3] / "src"
WORKERS = 2
STARTUP_SECONDS = 300.0
"""How long workers may take to start (seconds of CPU each, on two busy cores); only so a
broken server cannot hang the suite."""


def _local_address(answer: httpx.Response) -> object:
    """The client end of the connection an answer came over."""
    return answer.extensions["network_stream"].get_extra_info("client_addr")


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])


class PinnedClient:
    """An HTTP client held to one connection, hence to one worker, whose pid it knows."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(  # plain HTTP: no TLS context to build for each client
            base_url=base, timeout=GIVE_UP_SECONDS, verify=False,
            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
        answer = self.http.get("/healthz")
        assert answer.status_code == 200, answer.text
        self.pid: int = answer.json()["pid"]
        self.connection = _local_address(answer)

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        """A request on the pinned connection (fails if it had to open another)."""
        answer = self.http.request(method, path, **options)
        assert _local_address(answer) == self.connection, "the connection was replaced"
        return answer

    def get(self, path: str, **options: Any) -> httpx.Response:
        return self.request("GET", path, **options)

    def post(self, path: str, **options: Any) -> httpx.Response:
        return self.request("POST", path, **options)

    def close(self) -> None:
        self.http.close()


class PinnedStream(StreamReader):
    """An event stream read on a thread through a `PinnedClient`, so on that client's worker
    as long as it came over the client's connection (`connection` says which one it did)."""

    def __init__(self, client: PinnedClient, path: str) -> None:
        self.client = client
        self.connection: object = None
        super().__init__("", path)  # the path is relative to the client's base URL

    @contextmanager
    def _open(self, url: str, headers: dict[str, str]) -> Iterator[httpx.Response]:
        with self.client.http.stream("GET", url, headers=headers) as response:
            self.connection = _local_address(response)
            yield response


class ServedWorkers:
    """One running `fairfight serve --workers 2`: its supervisor, base URL and error log."""

    def __init__(self, process: subprocess.Popen[bytes], base: str, log: Path) -> None:
        self.process = process
        self.base = base
        self.log = log

    def is_worker(self, pid: int) -> bool:
        """A live child of the supervisor (never the supervisor itself)."""
        return pid != self.process.pid and _parent_of(pid) == self.process.pid

    def answering_pids(self) -> set[int]:
        """The pids of both workers (waiting for one still starting)."""
        return self._new_workers(set(), WORKERS)

    def pinned_pair(self) -> tuple[PinnedClient, PinnedClient]:
        """Two pinned clients on two different workers (connections are opened until the
        kernel hands one to the other worker; the spare ones are closed)."""
        first = PinnedClient(self.base)
        for _ in range(400):
            other = PinnedClient(self.base)
            if other.pid != first.pid:
                assert self.is_worker(first.pid) and self.is_worker(other.pid)
                return first, other
            other.close()
        raise AssertionError("every connection went to one worker")

    def pinned_to(self, pid: int) -> PinnedClient:
        """A pinned client on the worker `pid`."""
        for _ in range(400):
            client = PinnedClient(self.base)
            if client.pid == pid:
                return client
            client.close()
        raise AssertionError(f"no connection reached worker {pid}")

    def stop(self, pid: int, how: signal.Signals) -> None:
        """Signal worker `pid` and wait until it is no more (reaped by the supervisor)."""
        assert self.is_worker(pid), f"{pid} is not a worker of this server"
        os.kill(pid, how)
        wait_until(lambda: not self.is_worker(pid), f"worker {pid} ends")

    def newcomer(self, known: set[int]) -> int:
        """The pid of a worker not in `known`, once one answers (the supervisor's restart)."""
        (pid,) = self._new_workers(known, 1)
        assert self.is_worker(pid)
        return pid

    def _new_workers(self, known: set[int], count: int) -> set[int]:
        """Wait until `count` workers not in `known` have answered, asked over new
        connections (starting a worker takes seconds of CPU)."""
        seen: set[int] = set()
        give_up = time.monotonic() + STARTUP_SECONDS
        with httpx.Client(base_url=self.base, timeout=GIVE_UP_SECONDS, verify=False,
                          headers={"Connection": "close"}) as http:
            while len(seen) < count:
                assert self.process.poll() is None, self.log.read_text()
                assert time.monotonic() < give_up, f"gave up waiting for workers: {seen}"
                try:
                    pid = http.get("/healthz").json()["pid"]
                except httpx.TransportError:
                    pid = None
                if pid is None or pid in known:
                    time.sleep(0.02)
                else:
                    seen.add(pid)
        return seen


@contextmanager
def served_workers(database: str, log_folder: Path) -> Iterator[ServedWorkers]:
    """`fairfight serve --db DATABASE --workers 2` until the block ends (then SIGTERM).

    Forecasts off (they cost CPU in the background), the test operator token, no rate limits
    (every client of the test is 127.0.0.1), and keep-alive connections kept for a minute so a
    pinned client idle between two steps of a slow machine keeps its worker."""
    port = free_port()
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("FAIRFIGHT_", "PROMETHEUS_"))}
    environment |= {
        "PYTHONPATH": os.pathsep.join([str(SOURCE), str(SOURCE.parent),
                                       environment.get("PYTHONPATH", "")]),
        "FAIRFIGHT_ADMIN_TOKEN_SHA256": token_digest(ADMIN_TOKEN),
        "FAIRFIGHT_FORECAST_SEASONS": "0",
        "FAIRFIGHT_RATE_LIMITS_ENABLED": "false",
        "FAIRFIGHT_KEEP_ALIVE_SECONDS": "60",
    }
    with (log_folder / "requests.log").open("wb") as out, \
            (log_folder / "server.log").open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "fairfight", "serve", "--db", database, "--port", str(port),
             "--workers", str(WORKERS)], stdout=out, stderr=err, env=environment,
            cwd=log_folder)
    served = ServedWorkers(process, f"http://127.0.0.1:{port}", log_folder / "server.log")
    try:
        served.answering_pids()
        yield served
    finally:
        ended = _stopped(process)
    assert ended == 0, f"after SIGTERM the server ended with {ended}"


def _stopped(process: subprocess.Popen[bytes]) -> int | None:
    """SIGTERM; the exit code once every process has stopped, None if it had to be killed."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
    process.wait()
    return None
