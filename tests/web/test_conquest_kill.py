"""No contribution lost: the server is killed (SIGKILL) 20 times under a load of contributions
(50 times in the `slow` run, `FAIRFIGHT_SLOW=1 pytest -m slow tests/web/test_conquest_kill.py`).

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

from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import publication, season

KILLS = 50
"""Kills of the `slow` run; `make test` kills `KILLS_SAMPLED` times."""
KILLS_SAMPLED = 20
WORKERS = 6
ROUND_QUOTA = 26
"""Requests one server may be sent at most: 50 rounds stay within the season's 1,360 pool
steps, so every round has work to be killed in the middle of."""


class _Servers:
    """Fresh server processes forked on demand (see `tests.web.fork_server`)."""

    def __init__(self, database: Path) -> None:
        self._parent = subprocess.Popen(
            [sys.executable, "-m", "tests.web.fork_server", f"sqlite:///{database}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )

    def launch(self) -> tuple[int, str]:
        """Fork a server (not yet waiting for it to answer): its pid and base URL."""
        assert self._parent.stdin is not None and self._parent.stdout is not None
        self._parent.stdin.write("\n")
        self._parent.stdin.flush()
        pid, port = self._parent.stdout.readline().split()
        return int(pid), f"http://127.0.0.1:{port}"

    def close(self) -> None:
        self._parent.kill()
        self._parent.wait()
        for pipe in (self._parent.stdin, self._parent.stdout):
            if pipe is not None:
                pipe.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone(pid: int) -> None:
    while _alive(pid):  # reaped by the forking parent
        time.sleep(0.005)


def _ready(pid: int, base: str) -> None:
    while True:
        assert _alive(pid), "the server exited on its own"
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.01)


def test_no_acknowledged_contribution_is_lost_or_doubled(tmp_path: Path) -> None:
    _kill_under_load(tmp_path, KILLS_SAMPLED)


@pytest.mark.slow
def test_no_acknowledged_contribution_is_lost_or_doubled_over_fifty_kills(
        tmp_path: Path) -> None:
    _kill_under_load(tmp_path, KILLS)


def _kill_under_load(tmp_path: Path, rounds: int) -> None:
    """Kill `rounds` servers in the middle of the load, then check the ledger against every
    acknowledgement."""
    path = tmp_path / "season.db"
    season.create_season(path, scenario.load_map("north-america"), "north-america",
                         seed="77" * 32, max_battles=30)
    factions = sorted(season.summary(path).board["factions"])
    slots = [code for code in factions for _ in range(tables.POOL_CAP // tables.POOL_STEP)]
    random.Random(7).shuffle(slots)
    pending = [(f"kill-{i}", code) for i, code in enumerate(slots)]
    acknowledged: dict[str, dict[str, object]] = {}
    lock = threading.Lock()
    chooser = random.Random(11)
    unanswered = [0]  # requests cut off by a kill
    servers = _Servers(path)
    upcoming = servers.launch()
    kills = 0
    try:
        for _ in range(rounds):
            pid, base = upcoming
            _ready(pid, base)
            upcoming = servers.launch()  # the next server starts while this one takes the load
            stop = threading.Event()
            answered = threading.Event()
            quota = [ROUND_QUOTA]

            def work(base: str = base, stop: threading.Event = stop,
                     answered: threading.Event = answered, quota: list[int] = quota) -> None:
                with httpx.Client(base_url=base, timeout=10) as http:
                    while not stop.is_set():
                        with lock:
                            if not pending or quota[0] == 0:
                                return
                            quota[0] -= 1
                            key, code = pending.pop()
                        try:
                            response = http.post(
                                "/api/seasons/1/contributions",
                                json={"faction": code, "amount": 5},
                                headers={"Idempotency-Key": key})
                        except httpx.TransportError as error:
                            with lock:
                                pending.append((key, code))  # no answer: retry, same key
                                if not isinstance(error, httpx.ConnectError):
                                    unanswered[0] += 1  # sent, then the server died
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
            time.sleep(chooser.uniform(0.0, 0.08))
            os.kill(pid, signal.SIGKILL)
            kills += 1
            stop.set()
            _gone(pid)
            for worker in workers:
                worker.join(30)
    finally:
        os.kill(upcoming[0], signal.SIGKILL)
        _gone(upcoming[0])
        servers.close()
    assert kills == rounds
    assert unanswered[0] >= rounds // 2, "the kills should land in the middle of the load"
    assert len(acknowledged) >= rounds
    ledger = season.summary(path).ledger
    by_seq = {entry["seq"]: entry for entry in ledger}
    for key, answer in acknowledged.items():
        entry = by_seq[int(str(answer["seq"]))]
        assert (entry["faction"], entry["amount"]) == (answer["faction"], 5), key
    with sqlite3.connect(path) as connection:
        keyed = connection.execute("SELECT key, ledger_seq FROM contribution_key").fetchall()
    assert len(keyed) == len(ledger)  # every ledger entry came from exactly one key
    assert len({seq for _, seq in keyed}) == len(ledger)
    assert {int(str(a["seq"])) for a in acknowledged.values()} <= {seq for _, seq in keyed}
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, tmp_path / "record")
    assert any("replayed" in note for note in publication.verify_folder(tmp_path / "record"))
