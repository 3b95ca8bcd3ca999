"""Server-sent events from the season's events table: every process streams the same show.

Writers add a row to the events table (`conquest.season_events`) in the transaction of the
change it announces, whichever process or command made it. Each service process runs one
watcher that reads the rows it has not seen yet and copies each into every client's own
bounded queue (a broadcast, never one shared queue). The watcher wakes on a PostgreSQL
notification (`event_listener.NotifyListener`, one connection per process), on a change
made in this process (`poke`), and otherwise every `poll_seconds` (the only wake on SQLite;
a safety net on PostgreSQL).

Event ids are the table's ids, so a client reconnecting to any process with
`Last-Event-ID: n` first gets events n+1 onwards from the table; a cursor the table no longer
covers (older than what is kept, or newer than any id) gets one `stale` event telling the
page to reload. A new stream's opening block carries the current id (no event), so even a
client that heard nothing yet resumes exactly. Streams are capped per process (a slot is
taken before any wait, so the cap is exact), a client that falls `queue_size` events
behind is dropped (it resumes by id), and a heartbeat comment keeps proxies from closing
quiet streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from fairfight.conquest.store.season_events import (
    EventKind,
    SeasonEvent,
    event_window,
    events_after,
    latest_ids,
)
from fairfight.core.validation import is_plain_digits
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.event_listener import NotifyListener
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.views import battle_line

__all__ = [
    "Broadcaster",
    "FIRST_LOOK_SECONDS",
    "LAST_EVENT_ID_DIGITS",
    "NEWS_GAP_SECONDS",
    "QUEUE_SIZE",
    "SAFETY_POLL_SECONDS",
    "battle_event",
    "head_event",
    "parse_last_event_id",
    "stale_event",
]

QUEUE_SIZE = 256
"""Events a slow client may fall behind by before its stream is closed (it then resumes)."""
SAFETY_POLL_SECONDS = 5.0
"""On PostgreSQL, how often the watcher reads the table even without a notification."""
FIRST_LOOK_SECONDS = 10.0
"""How long a stream opened at the service's start waits for the watcher's first read."""
NEWS_GAP_SECONDS = 0.05
"""The least time between the starts of two reads of the events table. Under a crowd each
worker commits a batch of contributions some 30 times a second, and every commit wakes every
worker's watcher: read at each wake, a worker of two spent some 0.2 ms of CPU per contribution
reading the other's news. Paced, a burst of commits is read in one go, and an event waits at
most this long more to reach the streams (a lone event after a quiet spell, not at all)."""

_Wire = tuple[int, int, EventKind, bytes]
"""(season, event id, kind, the event as sent)."""


def _message(event_id: int | None, kind: str, data: dict[str, Any]) -> bytes:
    prefix = "" if event_id is None else f"id: {event_id}\n"
    return f"{prefix}event: {kind}\ndata: {json.dumps(data, sort_keys=True)}\n\n".encode()


def battle_event(season_id: int, entry: dict[str, Any], ended: bool,
                 event_id: int | None = None) -> bytes:
    """One `battle` event: data = the battle's list line as JSON, its number included."""
    line = battle_line(season_id, entry).model_dump()
    return _message(event_id, "battle", {**line, "season": season_id, "season_over": ended})


def head_event(season_id: int, head: dict[str, Any], event_id: int | None = None) -> bytes:
    """One `head` event: the season log's new signed head (save it to hold the show to it)."""
    return _message(event_id, "head", {"season": season_id, "head": head})


def stale_event(season_id: int, latest: int, oldest: int) -> bytes:
    """The `stale` event: the client's cursor is not in the table; reload the page."""
    return _message(latest, "stale", {"season": season_id, "latest": latest, "oldest": oldest,
                                      "reload": True})


LAST_EVENT_ID_DIGITS = 12
"""Longest event id a resuming client may send (ASCII digits; `²` or `١` mean none)."""


def parse_last_event_id(value: str | None) -> int | None:
    """The event id a resuming client saw last; anything unreadable means none."""
    if value is None or not is_plain_digits(value.strip(), LAST_EVENT_ID_DIGITS):
        return None
    return int(value.strip())


@dataclass(eq=False, slots=True)
class _Client:
    queue: asyncio.Queue[_Wire | None]
    dropped: bool = False
    released: bool = False
    opened: bool = False
    """Its opening is read: every event committed from now on reaches it."""


@dataclass(slots=True)
class _Opening:
    """What a new stream sends before live events: its first block, and the backlog."""

    first: bytes
    backlog: list[bytes] = field(default_factory=list)
    cursor: int = 0


class Broadcaster:
    """Fan-out of every season's stored events to this process's connected clients."""

    def __init__(
        self,
        catalog: SeasonCatalog,
        *,
        poll_seconds: float = 0.5,
        heartbeat_seconds: float = 15.0,
        max_clients: int = 500,
        queue_size: int = QUEUE_SIZE,
        listen_url: str | None = None,
    ) -> None:
        self.catalog = catalog
        self.poll_seconds = poll_seconds
        self.heartbeat_seconds = heartbeat_seconds
        self.max_clients = max_clients
        self.queue_size = queue_size
        self.listener = None if listen_url is None else NotifyListener(listen_url, self.poke)
        """The PostgreSQL listener (None on SQLite, which is polled)."""
        self._clients: dict[int, set[_Client]] = {}
        self._admitted = 0
        self._reading = asyncio.Lock()
        self._cursors: dict[int, int] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._primed: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.listeners: list[Callable[[int], None]] = []
        """Called with the season id whenever a battle or a ledger change is announced
        (on the event loop: they must return at once, e.g. by queueing work)."""
        self.head_listeners: list[Callable[[int], None]] = []
        """Called with the season id whenever a signed head is announced (on the event loop,
        once per season and read however many heads it brought: they must return at once)."""
        self.delivered = 0
        """Events read from the table and fanned out so far (for tests and metrics)."""

    def clients(self) -> int:
        """How many streams are open: past their opening read, so every event committed
        from now on reaches them (streams still opening hold a slot of the cap too)."""
        return sum(1 for clients in self._clients.values() for client in clients
                   if client.opened)

    def listener_alive(self) -> bool:
        """Whether live news arrives at once: always on SQLite (polled), on PostgreSQL while
        the listening connection is up."""
        return self.listener is None or self.listener.connected

    def poke(self) -> None:
        """Look for news now (called from any thread after a change)."""
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(wake.set)

    def _end_streams(self) -> None:
        self._closed = True
        for clients in self._clients.values():
            for client in clients:
                _drop(client)
        if self._wake is not None:
            self._wake.set()

    def end_soon(self) -> None:
        """End every stream (callable from any thread, e.g. the server's signal handler)."""
        self._closed = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._end_streams)

    async def start(self) -> None:
        """Start watching (at the app's start, so the forecasts follow other processes'
        battles even before a first stream opens); idempotent."""
        running = asyncio.get_running_loop()
        if self._watcher is not None and self._watcher.get_loop() is not running:
            # the app served again on a new loop (a test client opened twice): the old
            # watcher went with its loop; this is a new start, streams open again
            self._watcher, self._closed = None, False
        if self._closed or (self._watcher is not None and not self._watcher.done()):
            return
        self._loop = running
        self._wake = asyncio.Event()
        self._primed = asyncio.Event()
        self._watcher = asyncio.create_task(self._watch())
        if self.listener is not None:
            self.listener.start()

    async def close(self) -> None:
        """End every stream and stop watching (the read in progress finishes first)."""
        self._end_streams()
        if self.listener is not None:
            await self.listener.close()
        if self._watcher is not None and self._watcher.get_loop() is asyncio.get_running_loop():
            done, _ = await asyncio.wait([self._watcher], timeout=5)
            if not done:
                self._watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._watcher

    async def _watch(self) -> None:
        assert self._wake is not None and self._primed is not None
        interval = self.poll_seconds if self.listener is None else SAFETY_POLL_SECONDS
        loop = asyncio.get_running_loop()
        while not self._closed:
            started = loop.time()
            with contextlib.suppress(Exception):  # a busy or vanished database: next round
                await self.catch_up()
            if self._cursors is not None:
                self._primed.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), interval)
            too_soon = NEWS_GAP_SECONDS - (loop.time() - started)
            if too_soon > 0 and not self._closed:
                await asyncio.sleep(too_soon)  # wakes meanwhile join this read
            self._wake.clear()

    async def catch_up(self) -> int:
        """Read the table now and hand every new event to its clients and the listeners
        (the watcher's step; tests call it to be sure a read happened); how many events."""
        async with self._reading:
            news = await asyncio.to_thread(self._read_news)
            self._fan_out(news)
        return len(news)

    def _read_news(self) -> list[_Wire]:
        """Every season's events after this process's cursor (on a worker thread)."""
        season_ids = self.catalog.season_ids()
        if not season_ids:
            return []
        with self.catalog.database.transaction(season_ids[0], write=False) as session:
            latest = latest_ids(session)
        if self._cursors is None:  # the first look: announce only what comes next
            self._cursors = latest
            return []
        news: list[_Wire] = []
        for season_id, newest in sorted(latest.items()):
            seen = self._cursors.get(season_id, 0)
            if newest < seen:  # the table was replaced (a restored copy): start again
                self._cursors[season_id] = newest
            elif newest > seen:
                read = self._read_season(season_id, seen, newest)
                news.extend(read)
                self._cursors[season_id] = read[-1][1] if read else newest
        return news

    def _read_season(self, season_id: int, after: int, newest: int) -> list[_Wire]:
        with self.catalog.read(season_id) as session:
            events = _all_after(session, after, newest)
        return [(season_id, event.id, event.kind, self._render(event)) for event in events]

    def _render(self, event: SeasonEvent) -> bytes:
        season_id, payload = event.season_id, event.payload
        if event.kind is EventKind.BATTLE:
            entry = self.catalog.battle(season_id, int(payload["number"]))
            return battle_event(season_id, entry, bool(payload["ended"]), event.id)
        if event.kind is EventKind.LEDGER:
            return _message(event.id, "ledger", {"season": season_id,
                                                 "last_seq": payload["last_seq"]})
        return head_event(season_id, payload, event.id)

    def _fan_out(self, news: list[_Wire]) -> None:
        moved = sorted({season for season, _, kind, _ in news if kind is not EventKind.HEAD})
        self.delivered += len(news)
        for season_id in moved:
            for listener in self.listeners:
                listener(season_id)
        for season_id in sorted({season for season, _, kind, _ in news if kind is EventKind.HEAD}):
            for head_listener in self.head_listeners:
                head_listener(season_id)
        for item in news:
            for client in list(self._clients.get(item[0], ())):
                if client.dropped:
                    continue
                try:
                    client.queue.put_nowait(item)
                except asyncio.QueueFull:  # too slow: close it; the browser resumes by id
                    _drop(client)

    async def stream(self, season_id: int, last_event_id: int | None) -> AsyncIterator[bytes]:
        """The event stream of one client: backlog after `last_event_id`, then live events.

        503 while shutting down or when `max_clients` streams are open in this process.
        """
        if self._closed:
            raise Refusal(503, "events", "the service is shutting down",
                          {"Retry-After": "5"})
        if self._admitted >= self.max_clients:
            raise Refusal(503, "events", "too many live connections; try again shortly",
                          {"Retry-After": "10"})
        self._admitted += 1  # taken before any wait: the cap holds however many arrive
        client = _Client(asyncio.Queue(self.queue_size))
        try:
            await self.start()
            await self._first_look()
            self._clients.setdefault(season_id, set()).add(client)
            opening = await asyncio.to_thread(self._opening, season_id, last_event_id)
            client.opened = True
        except BaseException:
            self._release(season_id, client)
            raise
        return self._events(season_id, client, opening)

    async def _first_look(self) -> None:
        """Wait for the watcher's first read: an event committed before it is never sent
        live, so a stream may open only once the watcher's cursors are set."""
        try:
            if self._primed is None:
                raise TimeoutError
            await asyncio.wait_for(self._primed.wait(), FIRST_LOOK_SECONDS)
        except TimeoutError:
            raise Refusal(503, "events", "live updates are not available yet (the database "
                          "does not answer)", {"Retry-After": "10"}) from None

    def _opening(self, season_id: int, last_event_id: int | None) -> _Opening:
        """Read after the client is registered, so nothing falls between backlog and live."""
        with self.catalog.read(season_id) as session:
            oldest, latest = event_window(session)
            if last_event_id is None:
                return _Opening(f"retry: 3000\nid: {latest}\n: season {season_id}\n\n".encode(),
                                cursor=latest)
            first = f"retry: 3000\n: season {season_id}\n\n".encode()
            if last_event_id > latest or (last_event_id < oldest - 1):
                return _Opening(first, [stale_event(season_id, latest, oldest)], latest)
            events = _all_after(session, last_event_id, latest)
        return _Opening(first, [self._render(event) for event in events], latest)

    async def _events(self, season_id: int, client: _Client,
                      opening: _Opening) -> AsyncIterator[bytes]:
        try:
            yield opening.first
            for wire in opening.backlog:
                yield wire
            last = opening.cursor
            while not self._closed:
                try:
                    item = await asyncio.wait_for(client.queue.get(), self.heartbeat_seconds)
                except TimeoutError:
                    yield b": heartbeat\n\n"
                    continue
                if item is None:
                    break
                if item[1] <= last:  # already sent in the backlog
                    continue
                last = item[1]
                yield item[3]
        finally:
            self._release(season_id, client)

    def _release(self, season_id: int, client: _Client) -> None:
        if client.released:
            return
        client.released = client.dropped = True
        self._clients.get(season_id, set()).discard(client)
        self._admitted -= 1


def _drop(client: _Client) -> None:
    """End a client's stream: what it had queued is let go, then the end marker."""
    client.dropped = True
    while not client.queue.empty():
        client.queue.get_nowait()
    client.queue.put_nowait(None)


def _all_after(session: Any, after: int, newest: int) -> list[SeasonEvent]:
    """Every kept event in (after, newest], read page by page."""
    found: list[SeasonEvent] = []
    while after < newest:
        page = [event for event in events_after(session, after) if event.id <= newest]
        if not page:
            break
        found.extend(page)
        after = page[-1].id
    return found
