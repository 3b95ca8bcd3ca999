"""`fairfight serve --workers 2` as a real process: two worker pids answer, the metrics add up
across them, SIGTERM lets a request in flight finish before every process exits, and the
workers of a supervisor killed outright end by themselves."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests import processes
from tests.web.conquest_support import free_port

SOURCE = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    port = free_port()
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("FAIRFIGHT_", "PROMETHEUS_"))}
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(SOURCE), str(SOURCE.parent), environment.get("PYTHONPATH", "")])
    environment["FAIRFIGHT_HEADER_READ_SECONDS"] = "1"
    log = tmp_path / "requests.log"
    with log.open("wb") as out, (tmp_path / "server.log").open("wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "fairfight", "serve", "--db", str(tmp_path / "service.db"),
             "--port", str(port), "--workers", "2"],
            stdout=out, stderr=err, env=environment, cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            assert process.poll() is None, (tmp_path / "server.log").read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        yield process, base, log
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, as an operator stops the server (its workers stop with it); SIGKILL only if
    it does not end, and then its workers end themselves (`fairfight.web.supervision`)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _partial_post(base: str, path: str, body: bytes) -> socket.socket:
    """Open a connection and send a request's head and half its body."""
    host, port = base.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)))
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    connection.sendall(head + body[: len(body) // 2])
    return connection


def _read_all(connection: socket.socket) -> bytes:
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    connection.close()
    return b"".join(chunks)


def test_two_workers_answer_and_stop_gracefully(
        two_workers: tuple[subprocess.Popen[bytes], str, Path]) -> None:
    process, base, log = two_workers
    pids: set[int] = set()
    asked = 0
    while len(pids) < 2 and asked < 400:  # new connections: the kernel spreads them
        pids.add(httpx.get(f"{base}/healthz", timeout=10).json()["pid"])
        asked += 1
    assert len(pids) == 2, "both workers answer"
    assert process.pid not in pids, "the supervisor itself serves nothing"

    scraped = httpx.get(f"{base}/metrics", timeout=10).text
    counted = sum(sample.value for family in text_string_to_metric_families(scraped)
                  for sample in family.samples
                  if sample.name == "fairfight_http_requests_total"
                  and sample.labels["route"] == "/healthz")
    # Every /healthz answered so far, by either worker (the ready check's included).
    health_lines = [json.loads(line) for line in log.read_text().splitlines()
                    if line.startswith("{") and '"/healthz"' in line]
    assert counted == len(health_lines) >= asked

    host, port = base.removeprefix("http://").split(":")
    silent = socket.create_connection((host, int(port)))
    silent.settimeout(60)  # only so a broken server cannot hang the suite
    silent.sendall(b"G")  # one byte of a request head, then nothing
    assert silent.recv(1) == b"", "the server closes a connection whose head never comes"
    silent.close()

    spec = httpx.get(f"{base}/api/clash/examples/worked-example", timeout=10).json()
    body = json.dumps({"spec": spec}).encode()
    in_flight = _partial_post(base, "/api/clash/preview", body)
    time.sleep(0.5)  # the worker has the head and waits for the rest of the body
    process.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    in_flight.sendall(body[len(body) // 2:])
    answer = _read_all(in_flight)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert process.wait(60) == 0
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert any(line["path"] == "/api/clash/preview" and line["status"] == 200
               for line in lines)


def _answering_pids(base: str) -> set[int]:
    pids: set[int] = set()
    for _ in range(400):  # new connections: the kernel spreads them
        pids.add(httpx.get(f"{base}/healthz", timeout=10).json()["pid"])
        if len(pids) == 2:
            break
    assert len(pids) == 2, "both workers answer"
    return pids


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")
def test_the_supervisor_holds_uvicorn_only_and_its_workers_end_when_it_is_killed(
        two_workers: tuple[subprocess.Popen[bytes], str, Path]) -> None:
    """The supervisor (the `fairfight serve` process itself) never loads the app: pydantic's
    compiled core, which every worker's app loads, is not mapped into it. Then SIGKILL gives
    it no chance to stop its workers; each sees its parent gone and stops on its own, instead
    of serving on, orphaned (one server started for both, as each start costs seconds)."""
    process, base, _ = two_workers
    workers = _answering_pids(base)
    for worker in workers:
        assert "pydantic_core" in Path(f"/proc/{worker}/maps").read_text()
    assert "pydantic_core" not in Path(f"/proc/{process.pid}/maps").read_text()
    assert set(processes.children_of(process.pid)) >= workers
    process.kill()
    process.wait()
    give_up = time.monotonic() + 120  # only so a broken server cannot hang the suite
    while any(processes.alive(pid) for pid in workers) and time.monotonic() < give_up:
        time.sleep(0.1)
    assert not [processes.described(pid) for pid in workers if processes.alive(pid)]
    processes.reap(workers)  # adopted by the run when their supervisor died
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{base}/healthz", timeout=10)
