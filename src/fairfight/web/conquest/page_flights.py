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
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

__all__ = ["RenderFlights"]

Page = TypeVar("Page")


@dataclass(slots=True)
class _Flight(Generic[Page]):
    """The renders of one page: whether one is under way, its end, and the last page made
    with the stamp taken just before its render read the page's key."""

    rendering: bool = False
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    last: tuple[int, Page] | None = None
    users: int = 0


class RenderFlights(Generic[Page]):
    """Renders in flight per page, all of them looked at on the event loop alone (so no
    lock guards them). A render's answer is shared with the waiters when it is a kept page,
    not a `Response` (an error, or a page for one visitor alone)."""

    def __init__(self) -> None:
        self._stamp = 0
        self._flights: dict[Hashable, _Flight[Page]] = {}

    def _next_stamp(self) -> int:
        self._stamp += 1
        return self._stamp

    def under_way(self) -> int:
        """Pages with a request waiting or rendering now (for tests and the curious)."""
        return len(self._flights)

    async def page(self, name: Hashable,
                   make: Callable[[], Page | Response]) -> Page | Response:
        """The page `make` gives (run in a thread: it reads the key and renders on a miss),
        shared with every request for `name` that arrived before it started."""
        asked = self._next_stamp()
        flight = self._flights.setdefault(name, _Flight[Page]())
        flight.users += 1
        try:
            while flight.rendering:
                ended = flight.ended
                await ended.wait()
                if flight.last is not None and flight.last[0] > asked:
                    return flight.last[1]  # started after this request came: as new or newer
            flight.rendering = True
            flight.ended = asyncio.Event()
            started = self._next_stamp()
            try:
                made = await run_in_threadpool(make)
            finally:
                flight.rendering = False
                flight.ended.set()  # the waiters run after this task next yields, below
            if not isinstance(made, Response):
                flight.last = (started, made)
            return made
        finally:
            flight.users -= 1
            if flight.users == 0:
                del self._flights[name]
