"""Who puts a season file in WAL mode and back: the service serves WAL, the file rests in the
rollback journal, and read-only commands never create side files."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlalchemy import select, text
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app as conquest_app
from fairfight.conquest.store import season
from fairfight.conquest.store.rows import HistoryRow, LedgerRow
from fairfight.web.conquest.database import SeasonDatabase

runner = CliRunner()


def _journal_mode(path: Path) -> str:
    """The mode the file's header records (bytes 18-19: 1 rollback, 2 WAL). Only while this
    process holds no connection to the file: closing any handle on it drops their locks."""
    with path.open("rb") as file:
        file.seek(18)
        return {b"\x01\x01": "delete", b"\x02\x02": "wal"}[file.read(2)]


def _files(folder: Path) -> set[str]:
    return {entry.name for entry in folder.iterdir()}


def _ledger_size(database: SeasonDatabase) -> int:
    with database.transaction(1, write=False) as session:
        return len(session.scalars(select(LedgerRow)).all())


def _served_mode(database: SeasonDatabase) -> str:
    """The journal mode, asked through the service's own connection."""
    with database.transaction(1, write=False) as session:
        return str(session.execute(text("PRAGMA journal_mode")).scalar_one())


def _command(*arguments: str | Path) -> None:
    """A conquest command in a process of its own, as an operator beside the service runs it."""
    done = subprocess.run([sys.executable, "-m", "fairfight", "conquest", *map(str, arguments)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_the_service_serves_wal_and_leaves_the_file_in_the_rollback_journal(
    season_file: Path,
) -> None:
    assert _journal_mode(season_file) == "delete"
    database = SeasonDatabase(f"sqlite:///{season_file}")
    try:
        assert _ledger_size(database) == 0
        assert _served_mode(database) == "wal"
        # The command line writes beside the service; it does not switch the mode back while
        # the service holds the file, and the service reads what it wrote.
        _command("contribute", season_file, "AB", "10")
        _command("next", season_file)
        assert _served_mode(database) == "wal"
        assert _ledger_size(database) == 1
        with database.transaction(1, write=False) as session:
            assert len(session.scalars(select(HistoryRow)).all()) == 1
    finally:
        database.close()
    assert _journal_mode(season_file) == "delete"
    assert _files(season_file.parent) == {"season.db", "season.db.key", "season.db.seed"}


def test_a_killed_service_leaves_a_file_the_command_line_reads_and_puts_back(
    season_file: Path,
) -> None:
    serve_and_die = textwrap.dedent(f"""
        import os
        from fairfight.web.conquest.database import SeasonDatabase
        from fairfight.conquest import season
        database = SeasonDatabase("sqlite:///{season_file}")
        database.transaction(1, write=False).__enter__()
        season.contribute({str(season_file)!r}, "AB", 10)
        os._exit(9)
    """)
    subprocess.run([sys.executable, "-c", serve_and_die], check=False, timeout=120)
    assert _journal_mode(season_file) == "wal"
    before = _files(season_file.parent)
    assert {"season.db-wal", "season.db-shm"} <= before
    shown = runner.invoke(conquest_app, ["show", str(season_file), "--json"])
    assert shown.exit_code == 0, shown.output
    assert len(season.summary(season_file).ledger) == 1
    assert _files(season_file.parent) == before  # the read-only verbs created nothing
    written = runner.invoke(conquest_app, ["contribute", str(season_file), "AC", "5"])
    assert written.exit_code == 0, written.output
    assert _journal_mode(season_file) == "delete"
    assert _files(season_file.parent) == {"season.db", "season.db.key", "season.db.seed"}
    assert len(season.summary(season_file).ledger) == 2



def test_a_closed_service_database_is_not_reopened_by_a_late_task(season_file: Path) -> None:
    """A background forecast finishing after the service stopped must not reopen the file
    (it would hold it open, in WAL mode, past the service's end)."""
    database = SeasonDatabase(f"sqlite:///{season_file}")
    assert _ledger_size(database) == 0
    database.close()
    with pytest.raises(RuntimeError, match="closed"):
        _ledger_size(database)
    assert _journal_mode(season_file) == "delete"
    assert _files(season_file.parent) == {"season.db", "season.db.key", "season.db.seed"}
