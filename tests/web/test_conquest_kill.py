"""No contribution lost: the server is killed (SIGKILL) 50 times under a load of contributions.

Clients retry every request whose answer did not arrive, with the same idempotency key, on the
next server. At the end every acknowledged contribution is in the ledger exactly once, nothing
is recorded twice, and the season still verifies after its reveal.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from fairfight.conquest import engine, publication, scenario, season
from tests.web.conquest_support import free_port

KILLS = 50
WORKERS = 6


def _launch(database: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start a server process (not yet waiting for it to answer)."""
    port = free_port()
    env = {**os.environ, "FAIRFIGHT_DATABASE_URL": f"sqlite:///{database}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "fairfight.web.app:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return process, f"http://127.0.0.1:{port}"


def _ready(process: subprocess.Popen[bytes], base: str) -> None:
    while True:
        assert process.poll() is None, "the server exited on its own"
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)


@pytest.mark.slow
def test_no_acknowledged_contribution_is_lost_or_doubled(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, scenario.load_map("north-america"), "north-america",
                         seed="77" * 32, max_battles=30)
    factions = sorted(season.summary(path).board["factions"])
    slots = [code for code in factions for _ in range(engine.POOL_CAP // engine.POOL_STEP)]
    random.Random(7).shuffle(slots)
    pending = [(f"kill-{i}", code) for i, code in enumerate(slots)]
    acknowledged: dict[str, dict[str, object]] = {}
    lock = threading.Lock()
    chooser = random.Random(11)
    upcoming = _launch(path)
    for _ in range(KILLS):
        process, base = upcoming
        _ready(process, base)
        upcoming = _launch(path)  # the next server boots while this one takes the load
        stop = threading.Event()
        answered = threading.Event()

        def work(base: str = base, stop: threading.Event = stop,
                 answered: threading.Event = answered) -> None:
            with httpx.Client(base_url=base, timeout=10) as http:
                while not stop.is_set():
                    with lock:
                        if not pending:
                            return
                        key, code = pending.pop()
                    try:
                        response = http.post(
                            "/api/seasons/1/contributions", json={"faction": code, "amount": 5},
                            headers={"Idempotency-Key": key})
                    except httpx.TransportError:
                        with lock:
                            pending.append((key, code))  # no answer: retry with the same key
                        continue
                    if response.status_code == 409:
                        with lock:
                            pending.append((key, code))
                        continue
                    assert response.status_code == 201, response.text
                    with lock:
                        assert key not in acknowledged or acknowledged[key] == response.json()
                        acknowledged[key] = response.json()
                    answered.set()

        workers = [threading.Thread(target=work) for _ in range(WORKERS)]
        for worker in workers:
            worker.start()
        answered.wait(10)  # kill it in the middle of the load, not before it starts
        time.sleep(chooser.uniform(0.0, 0.3))
        process.send_signal(signal.SIGKILL)
        process.wait()
        stop.set()
        for worker in workers:
            worker.join(30)
        if not pending:
            break
    upcoming[0].kill()
    upcoming[0].wait()
    assert len(acknowledged) >= KILLS
    ledger = season.summary(path).ledger
    by_seq = {entry["seq"]: entry for entry in ledger}
    for key, answer in acknowledged.items():
        entry = by_seq[int(str(answer["seq"]))]
        assert (entry["faction"], entry["amount"]) == (answer["faction"], 5), key
    with sqlite3.connect(path) as connection:
        keyed = connection.execute("SELECT key, ledger_seq FROM web_request_keys").fetchall()
    assert len(keyed) == len(ledger)  # every ledger entry came from exactly one key
    assert len({seq for _, seq in keyed}) == len(ledger)
    assert {int(str(a["seq"])) for a in acknowledged.values()} <= {seq for _, seq in keyed}
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    assert any("replayed" in note for note in publication.verify_folder(tmp_path / "record"))
