"""Crash safety of the service's SQLite files: a writer killed with SIGKILL in the middle of its
writes leaves its file in WAL mode; the next clean start and stop puts it back to the rollback
journal with every committed write kept, and a read-only command then creates no side files.
The season file, the clash games file and the ballot games file all behave the same."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx

from fairfight.conquest.store import season
from tests.conquest.helpers import SEED, star_map

ACKNOWLEDGED = 25
"""Writes the killed process reports as committed before it is killed (it keeps writing)."""


def _journal_mode(path: Path) -> str:
    """The mode the file's header records (bytes 18-19: 1 rollback journal, 2 WAL), read
    without opening the file with SQLite (which could change what it records)."""
    with path.open("rb") as file:
        file.seek(18)
        return {b"\x01\x01": "delete", b"\x02\x02": "wal"}[file.read(2)]


def _side_files(path: Path) -> set[str]:
    return {side.name for side in path.parent.glob(f"{path.name}-*")}


def _count_rows(path: Path, table: str) -> int:
    """Rows of a table, read through a private copy so this process never touches the file."""
    copy = path.parent / "count" / path.name
    copy.parent.mkdir(exist_ok=True)
    for source in [path, *path.parent.glob(f"{path.name}-wal")]:
        copy.with_name(source.name).write_bytes(source.read_bytes())
    connection = sqlite3.connect(copy)
    try:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        connection.close()
        for stale in copy.parent.iterdir():
            stale.unlink()


def _kill_while_writing(program: str) -> int:
    """Run a writer loop that prints one line per committed write; SIGKILL it after
    `ACKNOWLEDGED` lines, mid-write. The number of writes it reported committed."""
    writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(program)],
                              stdout=subprocess.PIPE, text=True)
    assert writer.stdout is not None
    lines = [writer.stdout.readline() for _ in range(ACKNOWLEDGED)]
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=60)
    writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL
    assert all(line.strip() for line in lines), "the writer stopped on its own"
    return len(lines)


def _run(program: str) -> None:
    subprocess.run([sys.executable, "-c", textwrap.dedent(program)], check=True, timeout=300)


def test_a_season_file_left_in_wal_by_a_killed_service_returns_to_the_rollback_journal(
    tmp_path: Path,
) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    url = f"sqlite:///{path}"
    committed = _kill_while_writing(f"""
        from fairfight.conquest import season
        from fairfight.web.conquest.database import SeasonDatabase
        database = SeasonDatabase({url!r})
        database.transaction(1, write=False).__enter__()   # the service holds the file
        number = 0
        while True:
            season.contribute({str(path)!r}, "A" + "BCDE"[number % 4], 5)
            number += 1
            print(number, flush=True)
    """)
    assert _journal_mode(path) == "wal"
    assert {"season.db-wal", "season.db-shm"} <= _side_files(path)
    ledger_after_kill = _count_rows(path, "ledger")
    assert ledger_after_kill >= committed
    _run(f"""
        from fairfight.web.conquest.database import SeasonDatabase
        database = SeasonDatabase({url!r})
        with database.transaction(1, write=True):
            pass
        database.close()
    """)
    assert _journal_mode(path) == "delete"
    assert _side_files(path) == set()
    for command in (["show", str(path)], ["head", str(path)], ["odds", str(path), "AA", "AB"]):
        done = subprocess.run([sys.executable, "-m", "fairfight", "conquest", *command],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert _side_files(path) == set(), command
    assert len(season.summary(path).ledger) == ledger_after_kill
    assert _side_files(path) == set()


def _killed_then_stopped_cleanly(path: Path, table: str, writer: str, stopper: str) -> None:
    """Kill `writer` mid-write, run `stopper` (a clean open and close), then check the file
    is in the rollback journal, has no side files and kept every committed row."""
    committed = _kill_while_writing(writer)
    assert _journal_mode(path) == "wal"
    rows_after_kill = _count_rows(path, table)
    assert rows_after_kill >= committed
    _run(stopper)
    assert _journal_mode(path) == "delete"
    assert _side_files(path) == set()
    assert _count_rows(path, table) == rows_after_kill


def test_a_clash_games_file_left_in_wal_returns_to_the_rollback_journal(tmp_path: Path) -> None:
    path = tmp_path / "ff-clash.db"
    url = f"sqlite:///{path}"
    _killed_then_stopped_cleanly(path, "clash_games", f"""
        from fairfight.clash.store import ClashStore
        store = ClashStore({url!r})
        number = 0
        while True:
            store.create(name=f"game {{number}}", mode="duel", scenario={{"n": number}},
                         version=1, humans=("blue",), ai_players=("red",), autopilot=False,
                         client="10.0.0.1", clock_seconds=None, seats=("blue",))
            number += 1
            print(number, flush=True)
    """, f"""
        from fairfight.clash.store import ClashStore
        store = ClashStore({url!r})
        assert store.game("missing") is None
        store.close()
    """)


def test_a_ballot_games_file_left_in_wal_returns_to_the_rollback_journal(tmp_path: Path) -> None:
    path = tmp_path / "ff-ballot.db"
    url = f"sqlite:///{path}"
    _killed_then_stopped_cleanly(path, "ballot_tables", f"""
        from fairfight.ballot.tables import BallotConfig
        from fairfight.ballot.store import BallotStore
        store = BallotStore({url!r})
        number = 0
        while True:
            store.create(BallotConfig(), ["human", "machine", "machine"],
                         client=f"10.0.{{number // 250}}.{{number % 250}}")
            number += 1
            print(number, flush=True)
    """, f"""
        from fairfight.ballot.store import BallotStore
        store = BallotStore({url!r})
        assert store.load("missing") is None
        store.close()
    """)


def test_a_killed_web_service_then_a_clean_stop_leaves_the_rollback_journal(
    tmp_path: Path,
) -> None:
    """The real service (uvicorn) under contributions, killed with SIGKILL, then a second one
    started and stopped with SIGTERM: every acknowledged contribution is in the ledger."""
    from tests.web.test_conquest_kill import _gone, _ready, _Servers

    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    servers = _Servers(path)
    acknowledged: list[str] = []
    try:
        pid, base = servers.launch()
        _ready(pid, base)
        with httpx.Client(base_url=base, timeout=10) as client:
            for number in range(ACKNOWLEDGED):
                key = f"kill-{number}"
                answer = client.post("/api/seasons/1/contributions", headers={
                    "Idempotency-Key": key}, json={"faction": "A" + "BCDE"[number % 4],
                                                   "amount": 5})
                assert answer.status_code == 201, answer.text
                acknowledged.append(key)
        os.kill(pid, signal.SIGKILL)
        _gone(pid)
        assert _journal_mode(path) == "wal"
        assert _count_rows(path, "ledger") == len(acknowledged)
        pid, base = servers.launch()
        _ready(pid, base)
        os.kill(pid, signal.SIGTERM)  # a clean stop
        _gone(pid)
    finally:
        servers.close()
    assert _journal_mode(path) == "delete"
    assert _side_files(path) == set()
    assert len(season.summary(path).ledger) == len(acknowledged)
    assert _side_files(path) == set()
