"""One PostgreSQL connection per process that LISTENs for new events and wakes the watcher.

Notifications carry only `season:id` (`conquest.season_events.EVENTS_CHANNEL`); the watcher
then reads the rows from the events table, so a lost or coalesced notification costs nothing
but a little delay. The connection is its own (not one of the pool's), in autocommit. When
the server drops it (a restart, `pg_terminate_backend`, a network cut found by the periodic
probe), the listener reconnects with a growing pause, LISTENs again and wakes the watcher,
which re-reads whatever was committed while nobody listened. psycopg (the `postgres` extra)
is imported only when a listener runs, so a SQLite-only service never needs it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from fairfight.conquest.store.season_events import EVENTS_CHANNEL

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "BACKOFF_FIRST_SECONDS",
    "BACKOFF_MAX_SECONDS",
    "LISTENER_APPLICATION_NAME",
    "NotifyListener",
    "PROBE_SECONDS",
    "libpq_address",
]

BACKOFF_FIRST_SECONDS = 0.1
"""The pause before the first reconnection; doubled after each failure."""
BACKOFF_MAX_SECONDS = 5.0
"""The longest pause between reconnection attempts."""
LISTENER_APPLICATION_NAME = "fairfight-live"
"""How the listening connections show in `pg_stat_activity.application_name`."""
PROBE_SECONDS = 30.0
"""A quiet connection is probed this often (`SELECT 1`), so a silent cut is noticed."""


def libpq_address(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as the libpq URI psycopg connects with."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class NotifyListener:
    """LISTEN on the events channel; `wake` is called on each notification and after each
    (re)connection. `start` and `close` run on the service's event loop."""

    def __init__(self, url: str, wake: Callable[[], None]) -> None:
        self._address = libpq_address(url)
        self._wake = wake
        self._task: asyncio.Task[None] | None = None
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self.connected = False
        """Whether the connection is up and listening (readiness reads this)."""
        self.backend_pid: int | None = None
        """The server process of the listening connection (tests terminate it)."""
        self.connections = 0
        """Successful connections so far (1 + the reconnections)."""

    def start(self) -> None:
        """Begin listening in the background (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.connected = False

    async def _run(self) -> None:
        import psycopg

        pause = BACKOFF_FIRST_SECONDS
        while True:
            before = self.connections
            try:
                await self._listen()
            except (psycopg.Error, OSError):
                pass  # dropped or refused: try again after a pause
            finally:
                self.connected = False
                await self._disconnect()
            if self.connections > before:  # it was up: the first retry comes soon
                pause = BACKOFF_FIRST_SECONDS
            await asyncio.sleep(pause)
            pause = min(pause * 2, BACKOFF_MAX_SECONDS)

    async def _listen(self) -> None:
        import psycopg

        connection = await psycopg.AsyncConnection.connect(
            self._address, autocommit=True, application_name=LISTENER_APPLICATION_NAME)
        self._connection = connection
        await connection.execute(f"LISTEN {EVENTS_CHANNEL}")
        self.backend_pid = connection.info.backend_pid
        self.connected = True
        self.connections += 1
        self._wake()  # read what was committed while nobody listened
        while True:
            async for _ in connection.notifies(timeout=PROBE_SECONDS):
                self._wake()
            await connection.execute("SELECT 1")
            self._wake()  # in case one came during the probe

    async def _disconnect(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()
