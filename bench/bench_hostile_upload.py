"""Hostile archive uploads against a running `fairfight serve`: does the service keep answering?

Two uploads to `/api/upload/verify`: the lying zip (a member declaring 1,000 bytes that inflates
to 1 GiB from about 1 MB on disk) and a 2.6 MB archive whose ledger has a million lines with a
matching manifest. While each is verified, `/api/health` is asked every 50 ms; its p99 is
reported against the p99 of the same question on the idle server (the baseline, measured in
this run), with the server's peak resident memory (the verifier's child process not counted:
it is limited on its own, see docs/operations.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from tests.conquest.helpers import SEED, reseal
from tests.fuzz.hostile_zips import the_lying_archive

from bench.served import free_port
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive
from fairfight.conquest.store import publication, season

LEDGER_LINES = 1_000_000
IDLE_REQUESTS = 200



def _archives(root: Path) -> dict[str, Path]:
    path = root / "season.db"
    season.create_season(path, synthetic_map(20, 28, 10), "bench", seed=SEED)
    season.contribute(path, "ZZ-004", 50)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "record")
    files = {item.name: item.read_bytes() for item in (root / "record").iterdir()}
    (root / "lying.zip").write_bytes(the_lying_archive(files, 1 << 30))
    folder = root / "ledger"
    shutil.copytree(root / "record", folder)
    entries = (json.dumps({"amount": 1, "before_battle": 1, "faction": "ZZ-004", "seq": n},
                          separators=(",", ":"), sort_keys=True)
               for n in range(1, LEDGER_LINES + 1))
    (folder / "ledger.jsonl").write_text("\n".join(entries) + "\n", encoding="utf-8")
    reseal(folder)
    archive.write_zip({p.name: p.read_bytes() for p in folder.iterdir()}, root / "ledger.zip")
    return {"lying zip (1 GiB inflated)": root / "lying.zip",
            "million-line ledger": root / "ledger.zip"}


def _resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def _p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _during_upload(base: str, path: Path, pid: int) -> tuple[dict[str, Any], list[float], float]:
    """Upload `path` on a thread; ask /api/health every 50 ms until the verdict comes back."""
    finished = threading.Event()
    answer: dict[str, Any] = {}

    def upload() -> None:
        with path.open("rb") as handle:
            response = httpx.post(f"{base}/api/upload/verify", files={"archive": handle},
                                  timeout=600)
        answer.update(status=response.status_code, body=response.text[:120])
        finished.set()

    threading.Thread(target=upload, daemon=True).start()
    latencies, peak = [], 0.0
    with httpx.Client(timeout=60) as client:
        while not finished.is_set():
            started = time.perf_counter()
            client.get(f"{base}/api/health")
            latencies.append(time.perf_counter() - started)
            peak = max(peak, _resident_mb(pid))
            time.sleep(0.05)
    return answer, latencies, peak


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as scratch:
        root = Path(scratch)
        uploads = _archives(root)
        port = free_port()
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        server = subprocess.Popen(
            [sys.executable, "-m", "fairfight", "serve", "--db", str(root / "web.db"),
             "--port", str(port)], env=environment, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    httpx.get(f"{base}/api/health", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            with httpx.Client() as client:
                idle = []
                for _ in range(IDLE_REQUESTS):
                    started = time.perf_counter()
                    client.get(f"{base}/api/health")
                    idle.append(time.perf_counter() - started)
            baseline = _p99(idle)
            print(f"{'/api/health p99, idle (baseline)':<48} {baseline * 1000:>10.1f} ms")
            for label, path in uploads.items():
                answer, latencies, peak = _during_upload(base, path, server.pid)
                p99 = _p99(latencies)
                print(f"{'/api/health p99 during ' + label:<48} {p99 * 1000:>10.1f} ms  "
                      f"({p99 / baseline:,.1f}x baseline; {len(latencies)} asked; server "
                      f"peak {peak:,.0f} MB; upload {answer['status']})", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
