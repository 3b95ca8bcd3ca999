"""SQLite journal modes shared by every database file the project writes (season files, clash
and ballot game files): served in WAL mode, left at rest in the rollback journal.

A long-running writer asks for WAL when it connects (readers never wait for a writer), and
whoever closes the file last puts it back to the rollback journal, so a read-only open later
needs no `-wal`/`-shm` side files. Neither switch ever waits: SQLite refuses to change the mode
while another connection has the file open, and then the file keeps the mode it has, which is
always safe. A process killed while serving leaves the file in WAL with its side files; the next
clean stop of any writer (or the next `return_to_rollback_journal`) checkpoints the WAL into the
file and ends WAL mode, losing nothing that was committed.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

__all__ = ["BUSY_TIMEOUT_SECONDS", "return_to_rollback_journal", "try_journal_mode"]

BUSY_TIMEOUT_SECONDS = 30.0
"""How long a command waits for another program's lock before saying the file is busy."""


def try_journal_mode(connection: sqlite3.Connection, mode: str) -> None:
    """Switch the journal mode only if no one else has the file open; never wait for it."""
    connection.execute("PRAGMA busy_timeout=0")
    try:
        connection.execute(f"PRAGMA journal_mode={mode}").fetchone()
    except sqlite3.OperationalError:
        pass  # another connection holds the file: it keeps the mode it has
    finally:
        connection.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_SECONDS * 1000)}")


def return_to_rollback_journal(path: Path) -> None:
    """After a writer closes: if no one else has the file open, leave it in rollback-journal
    mode, so read-only commands find no WAL file that they would need side files for."""
    if not path.is_file():
        return
    try:
        connection = sqlite3.connect(
            f"file:{quote(str(path.absolute()))}?mode=rw", uri=True, timeout=0,
            isolation_level=None,
        )
    except sqlite3.Error:
        return
    try:
        if connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
            try_journal_mode(connection, "DELETE")
    except sqlite3.Error:
        pass  # busy, damaged or gone: the file keeps its mode, which is always safe
    finally:
        connection.close()
