"""Server-sent events: every client gets every aired battle, in order, and can resume.

One watcher per service polls each watched season's version (so battles aired from the
command line are announced too) and copies each new battle into every client's own queue:
a broadcast, never one shared queue. Event ids are battle numbers, so a client reconnecting
with `Last-Event-ID: n` first receives battles n+1 onwards. A heartbeat comment every
`heartbeat_seconds` keeps proxies from closing the stream; `close` ends every stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.views import battle_line

__all__ = ["Broadcaster", "QUEUE_SIZE", "battle_event", "head_event", "parse_last_event_id"]

QUEUE_SIZE = 256
"""Events a slow client may fall behind by before its stream is closed (it then resumes)."""


def battle_event(season_id: int, entry: dict[str, Any], ended: bool) -> bytes:
    """One `battle` event: id = battle number, data = the battle's list line as JSON."""
    line = battle_line(season_id, entry).model_dump()
    data = json.dumps({**line, "season": season_id, "season_over": ended}, sort_keys=True)
    return f"id: {entry['number']}\nevent: battle\ndata: {data}\n\n".encode()


def _ledger_event(season_id: int, last_seq: int) -> bytes:
    data = json.dumps({"season": season_id, "last_seq": last_seq})
    return f"event: ledger\ndata: {data}\n\n".encode()


def head_event(season_id: int, head: dict[str, Any]) -> bytes:
    """One `head` event: the season log's new signed head (save it to hold the show to it)."""
    data = json.dumps({"season": season_id, "head": head}, sort_keys=True)
    return f"event: head\ndata: {data}\n\n".encode()


def parse_last_event_id(value: str | None) -> int | None:
    """The battle number a resuming client saw last; anything unreadable means none."""
    if value is None or not value.strip().isdigit() or len(value.strip()) > 12:
        return None
    return int(value.strip())


class Broadcaster:
    """Fan-out of season events to every connected client."""

    def __init__(
        self,
        catalog: SeasonCatalog,
        *,
        poll_seconds: float = 1.0,
        heartbeat_seconds: float = 15.0,
        max_clients: int = 500,
    ) -> None:
        self.catalog = catalog
        self.poll_seconds = poll_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self.max_clients = max_clients
        self._clients: dict[int, set[asyncio.Queue[bytes | None]]] = {}
        self._seen: dict[int, tuple[int, int]] = {}
        self._heads_seen: dict[int, int] = {}
        self._watcher: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.listeners: list[Callable[[int], None]] = []
        """Called with the season id whenever a battle or a ledger change is announced
        (on the event loop: they must return at once, e.g. by queueing work)."""

    def clients(self) -> int:
        """How many streams are open."""
        return sum(len(queues) for queues in self._clients.values())

    def poke(self) -> None:
        """Look for news now (called from any thread after an operator action)."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake.set)

    def _end_streams(self) -> None:
        self._closed = True
        for queues in self._clients.values():
            for queue in queues:
                with contextlib.suppress(asyncio.QueueFull):
                    queue.put_nowait(None)

    def end_soon(self) -> None:
        """End every stream (callable from any thread, e.g. the server's signal handler)."""
        self._closed = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._end_streams)

    async def close(self) -> None:
        """End every stream and stop watching."""
        self._end_streams()
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher

    async def _probe(self, season_id: int) -> tuple[int, int, dict[str, Any] | None]:
        snap = await asyncio.to_thread(self.catalog.snapshot, season_id)
        return snap.version[0], snap.version[1], snap.head

    async def _watch(self) -> None:
        assert self._wake is not None
        while not self._closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
            self._wake.clear()
            for season_id in [s for s, queues in self._clients.items() if queues]:
                try:
                    await self._announce(season_id)
                except Exception:  # a busy or vanished database: try again next round
                    continue

    async def _announce(self, season_id: int) -> None:
        battles, last_seq, head = await self._probe(season_id)
        seen_battles, seen_seq = self._seen.get(season_id, (battles, last_seq))
        size = 0 if head is None else head["size"]
        seen_size = self._heads_seen.setdefault(season_id, size)
        events: list[bytes] = []
        if battles > seen_battles:
            snap = await asyncio.to_thread(self.catalog.snapshot, season_id)
            for entry in snap.history[seen_battles:battles]:
                events.append(battle_event(season_id, entry, snap.board["ended"]))
        if last_seq != seen_seq:
            events.append(_ledger_event(season_id, last_seq))
        if head is not None and size != seen_size:
            events.append(head_event(season_id, head))
        self._seen[season_id] = (battles, last_seq)
        self._heads_seen[season_id] = size
        if events:
            for listener in self.listeners:
                listener(season_id)
        for queue in list(self._clients.get(season_id, ())):
            for event in events:
                try:
                    queue.put_nowait(event)
                except asyncio.QueueFull:  # too slow: close it; the browser resumes by id
                    with contextlib.suppress(asyncio.QueueEmpty):
                        queue.get_nowait()
                    queue.put_nowait(None)
                    break

    def _start(self) -> None:
        if self._watcher is None or self._watcher.done():
            self._loop = asyncio.get_running_loop()
            self._wake = asyncio.Event()
            self._watcher = asyncio.create_task(self._watch())

    async def stream(self, season_id: int, last_event_id: int | None) -> AsyncIterator[bytes]:
        """The event stream of one client: backlog after `last_event_id`, then live events."""
        if self._closed:
            raise Refusal(503, "events", "the service is shutting down")
        if self.clients() >= self.max_clients:
            raise Refusal(503, "events", "too many live connections; try again shortly",
                          {"Retry-After": "10"})
        snap = await asyncio.to_thread(self.catalog.snapshot, season_id)
        self._start()
        self._seen.setdefault(season_id, (snap.version[0], snap.version[1]))
        self._heads_seen.setdefault(season_id, 0 if snap.head is None else snap.head["size"])
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE_SIZE)
        self._clients.setdefault(season_id, set()).add(queue)
        return self._events(season_id, queue, snap, last_event_id)

    async def _events(
        self, season_id: int, queue: asyncio.Queue[bytes | None], snap: Any,
        last_event_id: int | None,
    ) -> AsyncIterator[bytes]:
        try:
            yield f"retry: 3000\n: season {season_id}\n\n".encode()
            last = len(snap.history) if last_event_id is None else last_event_id
            for entry in snap.history[last:]:
                yield battle_event(season_id, entry, snap.board["ended"])
            last = max(last, len(snap.history))
            while not self._closed:
                try:
                    event = await asyncio.wait_for(queue.get(), self.heartbeat_seconds)
                except TimeoutError:
                    yield b": heartbeat\n\n"
                    continue
                if event is None:
                    break
                number = _event_number(event)
                if number is not None and number <= last:
                    continue
                last = number if number is not None else last
                yield event
        finally:
            self._clients.get(season_id, set()).discard(queue)


def _event_number(event: bytes) -> int | None:
    if event.startswith(b"id: "):
        return int(event[4 : event.index(b"\n")])
    return None
