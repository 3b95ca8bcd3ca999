"""One render per page at a time, waited for on the event loop instead of in a thread.

After a change the whole audience asks for the new page at once. The page cache used to let
one request render it while the others waited for that render inside the route's thread,
each holding one of the worker's few shared threads (`SHARED_THREADS`, four) while doing
nothing. Under the crowd bench the threads were taken by waiting home pages, and every page
that missed the cache, faction cards included, queued for a thread behind them: a home or a
card waited some four seconds for a thread, then a few tens of milliseconds to render.

Here a request that finds its page being rendered waits on the event loop, where waiting
costs nothing, and only the render itself (reading the page's key, then rendering on a miss)
goes to a thread. A waiter is answered with a render that started after it arrived, since
that render read the season's mark after the waiter asked: the page is never older than the
newest change the worker had seen when the request came. A waiter that finds the render it
waited for started before it arrived waits for the next one, which one of the waiters
starts.

Renders take turns at a few slots (`RENDER_SLOTS`), and a free slot goes to the render
whose requests have waited longest in all: the requests waiting for the page times how
long its render has been queued (plus `SLOT_GRACE_SECONDS`, so that among renders queued
together the most awaited goes first). Renders are mostly Python under the interpreter's
lock, so many of them at once only slow each; but a "render" starts by reading the page's key
and often the season's new snapshot from the database, with the lock released, and with two
slots the interpreter sat idle about a third of the crowd bench's paced minute while pages
waited seconds for a slot. And in first-come order a season home, which a
third of the crowd waits for, queued behind a render for each faction card asked (one
visitor each): with thirty of them ahead, a home waited most of a second for a thread.
Ordered by waiters alone, a card could wait for ever behind homes; by waiting in all, a
card's render goes first once its one visitor has waited as long as the home's many
together. The slot
is taken before the render's stamp, so every request that arrives while a page waits for a
slot is answered by that render.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

__all__ = ["RENDER_SLOTS", "SLOT_GRACE_SECONDS", "RenderFlights"]

RENDER_SLOTS = 3
"""Page renders under way at once per worker: three of the four shared threads
(`SHARED_THREADS`), so the other routes always find a thread. In `bench crowd`'s paced
minute the home's p99 was 2.6-7.1 s at two (three runs) and 1.1 s at three, 1.2 s at four."""
SLOT_GRACE_SECONDS = 0.05
"""Added to every queued render's wait when slots are handed out: about one render, so a
render queued just now still counts its requests."""

_Page = TypeVar("_Page")


@dataclass(slots=True)
class _Flight(Generic[_Page]):
    """The renders of one page: whether one is under way, its end, and the last page made
    with the stamp taken just before its render read the page's key."""

    rendering: bool = False
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    last: tuple[int, _Page] | None = None
    users: int = 0


class RenderFlights(Generic[_Page]):
    """Renders in flight per page, all of them looked at on the event loop alone (so no
    lock guards them). A render's answer is shared with the waiters when it is a kept page,
    not a `Response` (an error, or a page for one visitor alone)."""

    def __init__(self, slots: int = RENDER_SLOTS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._stamp = 0
        self._flights: dict[Hashable, _Flight[_Page]] = {}
        self._free = slots
        self._queued: list[tuple[_Flight[_Page], asyncio.Event, float]] = []
        """Renders waiting for a slot, each with the event set when it is given one and
        when it was queued."""
        self._clock = clock

    async def _take_slot(self, flight: _Flight[_Page]) -> None:
        """Wait for a render slot (none is waited for while one is free)."""
        if self._free and not self._queued:
            self._free -= 1
            return
        waiting = (flight, asyncio.Event(), self._clock())
        self._queued.append(waiting)
        try:
            await waiting[1].wait()
        except BaseException:
            if waiting[1].is_set():
                self._give_slot()
            else:
                self._queued.remove(waiting)
            raise

    def _give_slot(self) -> None:
        """Hand a finished render's slot to the queued render whose requests have waited
        longest in all."""
        if not self._queued:
            self._free += 1
            return
        now = self._clock()
        chosen = max(self._queued, key=lambda waiting: waiting[0].users * (
            now - waiting[2] + SLOT_GRACE_SECONDS))
        self._queued.remove(chosen)
        chosen[1].set()

    def _next_stamp(self) -> int:
        self._stamp += 1
        return self._stamp

    def under_way(self) -> int:
        """Pages with a request waiting or rendering now (for tests and the curious)."""
        return len(self._flights)

    async def page(self, name: Hashable,
                   make: Callable[[], _Page | Response]) -> _Page | Response:
        """The page `make` gives (run in a thread: it reads the key and renders on a miss),
        shared with every request for `name` that arrived before it started."""
        asked = self._next_stamp()
        flight = self._flights.setdefault(name, _Flight[_Page]())
        flight.users += 1
        try:
            while flight.rendering:
                ended = flight.ended
                await ended.wait()
                if flight.last is not None and flight.last[0] > asked:
                    return flight.last[1]  # started after this request came: as new or newer
            flight.rendering = True
            flight.ended = asyncio.Event()
            try:
                await self._take_slot(flight)
            except BaseException:
                flight.rendering = False
                flight.ended.set()
                raise
            started = self._next_stamp()
            try:
                made = await run_in_threadpool(make)
            finally:
                self._give_slot()
                flight.rendering = False
                flight.ended.set()  # the waiters run after this task next yields, below
            if not isinstance(made, Response):
                flight.last = (started, made)
            return made
        finally:
            flight.users -= 1
            if flight.users == 0:
                del self._flights[name]
