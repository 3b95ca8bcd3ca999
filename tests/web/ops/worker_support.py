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
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from fairfight.web.conquest.operator import token_digest
from tests.web.conquest_support import ADMIN_TOKEN, free_port
from tests.web.live_support import GIVE_UP_SECONDS, sse_blocks, wait_until

__all__ = ["PinnedClient", "PinnedStream", "ServedWorkers", "served_workers"]

SOURCE = Path(__file__).resolve().parents[3] / "src"
WORKERS = 2


def _local_address(answer: httpx.Response) -> object:
    """The client end of the connection an answer came over."""
    return answer.extensions["network_stream"].get_extra_info("client_addr")


def _parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rpartition(")")[2].split()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class PinnedClient:
    """An HTTP client held to one connection, hence to one worker, whose pid it knows."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=GIVE_UP_SECONDS, limits=httpx.Limits(
            max_connections=1, max_keepalive_connections=1))
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


class PinnedStream:
    """An event stream read on a thread through a `PinnedClient` (so on its worker)."""

    def __init__(self, client: PinnedClient, path: str) -> None:
        self.client = client
        self.blocks: list[dict[str, str]] = []
        self.connection: object = None
        self.ended = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(path,), daemon=True)
        self._thread.start()

    def _read(self, path: str) -> None:
        try:
            with self.client.http.stream("GET", path) as response:
                self.connection = _local_address(response)
                for block in sse_blocks(response):
                    self.blocks.append(block)
                    if self._stop.is_set():
                        return
        except httpx.HTTPError:
            pass
        finally:
            self.ended.set()

    def events(self, kind: str) -> list[dict[str, str]]:
        return [block for block in self.blocks if block.get("event") == kind]

    def wait_for(self, kind: str, count: int) -> list[dict[str, str]]:
        """Wait until `count` events of `kind` have arrived; returns them."""
        wait_until(lambda: len(self.events(kind)) >= count or self.ended.is_set(),
                   f"{count} {kind} events")
        found = self.events(kind)
        assert len(found) >= count, self.blocks
        return found

    def opened(self) -> None:
        """Wait for the opening block; it came over the client's pinned connection."""
        wait_until(lambda: bool(self.blocks) or self.ended.is_set(), "the opening block")
        assert self.blocks, "the stream ended before it opened"
        assert self.connection == self.client.connection, "the stream is on another worker"

    def close(self) -> None:
        """Stop at the next block, then let the thread go."""
        self._stop.set()


class ServedWorkers:
    """One running `fairfight serve --workers 2`: its supervisor and base URL."""

    def __init__(self, process: subprocess.Popen[bytes], base: str) -> None:
        self.process = process
        self.base = base

    def is_worker(self, pid: int) -> bool:
        """A live child of the supervisor (never the supervisor itself)."""
        return pid != self.process.pid and _parent_of(pid) == self.process.pid

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

    def answering_pids(self) -> set[int]:
        """The pids of both workers, asked over new connections."""
        found: set[int] = set()
        for _ in range(400):
            with httpx.Client(base_url=self.base, timeout=GIVE_UP_SECONDS) as http:
                found.add(http.get("/healthz").json()["pid"])
            if len(found) == WORKERS:
                return found
        raise AssertionError(f"only {found} answer")

    def replaced(self, gone: int, known: set[int], how: signal.Signals) -> int:
        """Signal worker `gone`, wait until it is no more and a worker not in `known`
        answers; that new worker's pid."""
        assert self.is_worker(gone), f"{gone} is not a worker of this server"
        os.kill(gone, how)
        wait_until(lambda: not _alive(gone), f"worker {gone} ends")  # reaped by the supervisor
        newcomer: list[int] = []

        def new_worker_answers() -> bool:
            assert self.process.poll() is None, "the supervisor stopped"
            try:
                with httpx.Client(base_url=self.base, timeout=GIVE_UP_SECONDS) as http:
                    pid = http.get("/healthz").json()["pid"]
            except httpx.TransportError:
                return False
            if pid not in known:
                newcomer.append(pid)
                return True
            time.sleep(0.05)
            return False

        wait_until(new_worker_answers, "the restarted worker answers")
        assert self.is_worker(newcomer[0])
        return newcomer[0]


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


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
    served = ServedWorkers(process, f"http://127.0.0.1:{port}")
    try:
        wait_until(lambda: process.poll() is not None or _answers(served.base),
                   "the server answers")
        assert process.poll() is None, (log_folder / "server.log").read_text()
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
