"""The season's mark read once per commit, on a thread of its own, for every request waiting.

A kept page is answered before routing (`page_front`) only while the worker knows the
season's mark for the file's last commit and holds the snapshot of that version: knowing
them costs no query. Under a stream of contributions the file is committed to some fifty
times a second, and each commit made the next page requests miss that knowledge. Each of
them then went through the router to a render slot, where the page's key was read (the
mark, and the new snapshot a faction card's key needs) before finding the page kept all
along. In `bench crowd` a third of the faction cards took that path and waited for a
render slot behind season homes: half a second to several seconds, for a page that was
already made.

So a request that finds the mark unknown waits here, on the event loop, for one read of
the mark and snapshot on a thread of this worker's own (not one of the shared threads the
renders use), then looks again. Requests that arrive while a read is under way wait for
the next one, which starts when it ends: a read that began before a request came may have
missed the commit the request was asked after. However many requests wait, one read runs
per season at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

__all__ = ["MarkReads"]

_Read = TypeVar("_Read")


class MarkReads(Generic[_Read]):
    """Reads of each season's mark, one at a time per season, waited for on the event loop
    (all of its state is touched on the loop alone, so no lock guards it)."""

    def __init__(self) -> None:
        self._thread: ThreadPoolExecutor | None = None
        self._running: dict[int, asyncio.Future[_Read | None]] = {}
        self._next: dict[int, asyncio.Future[_Read | None]] = {}

    async def fresh(self, season_id: int, read: Callable[[], _Read]) -> _Read | None:
        """What a `read` that started after this call answered, once it has ended (None
        when it failed: the page is then routed as before)."""
        if season_id not in self._running:
            return await asyncio.shield(self._start(season_id, read))
        following = self._next.get(season_id)
        if following is None:
            following = self._next[season_id] = asyncio.get_running_loop().create_future()
        return await asyncio.shield(following)

    def _start(self, season_id: int,
               read: Callable[[], _Read]) -> asyncio.Future[_Read | None]:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="season-marks")
        loop = asyncio.get_running_loop()
        running = self._running[season_id] = loop.run_in_executor(self._thread, _quiet(read))

        def ended(_: asyncio.Future[_Read | None]) -> None:
            del self._running[season_id]
            following = self._next.pop(season_id, None)
            if following is not None:
                self._start(season_id, read).add_done_callback(
                    lambda done: _end(following, done.result()))

        running.add_done_callback(ended)
        return running


def _end(waited: asyncio.Future[_Read | None], answer: _Read | None) -> None:
    if not waited.done():
        waited.set_result(answer)


def _quiet(read: Callable[[], _Read]) -> Callable[[], _Read | None]:
    """`read`, with any error left for the route to meet and answer (then None)."""

    def quiet() -> _Read | None:
        with contextlib.suppress(Exception):  # the route reads again and answers
            return read()
        return None

    return quiet
