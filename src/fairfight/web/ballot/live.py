"""Live updates of a table as server-sent events, read from the database.

Each stream polls its table's row (on SQLite this is how another process's moves arrive): the
version and revision only, one small read, and the whole table once they change (or while a
turn clock runs, which a poll may run out), and sends an event whenever the table changes (a
step played, a person answered): its id is the state version, its data what that viewer may
know (the version, the status, the seats still to answer, and whether it is now the viewer's
turn). A comment every
`HEARTBEAT_SECONDS` keeps proxies from closing the stream; the stream ends with the game.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from fairfight.ballot.store import BallotStore, TableRow, TableStatus

__all__ = [
    "HEARTBEAT_SECONDS",
    "POLL_SECONDS",
    "table_event",
    "table_stream",
]

POLL_SECONDS = 0.5
HEARTBEAT_SECONDS = 15.0


def table_event(store: BallotStore, table: TableRow, you: int | None) -> bytes:
    """One `table` event for a viewer: nothing in it is secret to anyone at the table."""
    answered = set(table.answered())
    waiting = [] if table.status != TableStatus.PLAYING else _waiting(store, table, answered)
    data = {
        "table": table.id,
        "version": table.version,
        "status": table.status,
        "waiting_for": waiting,
        "your_turn": you is not None and you in waiting,
    }
    return f"id: {table.version}\nevent: table\ndata: {json.dumps(data)}\n\n".encode()


def _waiting(store: BallotStore, table: TableRow, answered: set[int]) -> list[int]:
    game = store.game(table)
    if game is None:
        return []
    return [seat for seat in game.people_asked() if seat not in answered]


async def table_stream(
    store: BallotStore,
    table_id: str,
    you: int | None,
    last_seen: int | None,
    poll_seconds: float = POLL_SECONDS,
    stopping: Callable[[], bool] = lambda: False,
) -> AsyncIterator[bytes]:
    """The stream of one viewer; `last_seen` is the version it already has (Last-Event-ID)."""
    yield b"retry: 3000\n\n"
    quiet = 0.0
    seen: tuple[int, int] | None = None
    while not stopping():
        stamp = await asyncio.to_thread(store.stamp, table_id)
        if stamp is None or stamp[2] or stamp[:2] != seen:  # changed, or a clock may run out
            table = await asyncio.to_thread(store.tick, table_id)
            now = (table.version, table.revision)
            fresh = seen is None and (last_seen is None or last_seen != table.version)
            if fresh or (seen is not None and now != seen):
                yield await asyncio.to_thread(table_event, store, table, you)
                quiet = 0.0
            seen = now
            if table.status == TableStatus.OVER:
                return
        await asyncio.sleep(poll_seconds)
        quiet += poll_seconds
        if quiet >= HEARTBEAT_SECONDS:
            yield b": heartbeat\n\n"
            quiet = 0.0
