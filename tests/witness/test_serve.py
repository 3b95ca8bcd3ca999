"""`fairfight witness serve` as a real process: it listens, cosigns over HTTP, and answers the
status line; the one test here that needs a server, since it checks the command's wiring."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from fairfight.core.cosignature import WitnessKey, verify_cosignature

from .support import WITNESS_NAME, Log, write_config

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _wait_for(url: str, process: subprocess.Popen[bytes]) -> httpx.Response:
    """The first answer from `url`, polling while the process starts (it must not exit)."""
    for _ in range(600):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        try:
            return httpx.get(url, timeout=5)
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError(f"{url} never answered")


def test_serve_cosigns_over_http(tmp_path: Path) -> None:
    log = Log().grow(6)
    config = write_config(tmp_path, log)
    port = _free_port()
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with subprocess.Popen(
        [sys.executable, "-m", "fairfight", "witness", "serve", "--config", str(config),
         "--port", str(port)], env=environment, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    ) as process:
        try:
            _exchange(f"http://127.0.0.1:{port}", process, log)
        finally:
            process.terminate()
            process.wait(timeout=30)


def _exchange(base: str, process: subprocess.Popen[bytes], log: Log) -> None:
    status = _wait_for(f"{base}/", process)
    assert status.status_code == 200 and status.text.startswith(WITNESS_NAME)
    vkey = status.text.rsplit("key ", 1)[1].strip()
    answer = httpx.post(f"{base}/add-checkpoint", content=log.body(0, 6), timeout=10)
    assert answer.status_code == 200
    assert verify_cosignature(log.note(6), answer.text, WitnessKey.from_vkey(vkey)) > 0
    again = httpx.post(f"{base}/add-checkpoint", content=log.body(0, 6), timeout=10)
    assert (again.status_code, again.text) == (409, "6\n")
    assert again.headers["content-type"] == "text/x.tlog.size"
