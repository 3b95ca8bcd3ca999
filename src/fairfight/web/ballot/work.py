"""Where a table's requests do their work: at most `GAME_WORKERS` threads at once.

Each request about a table rebuilds the game from its row, and a move or a leave may make the
server play the bots on for many steps: pure Python that holds the interpreter's lock. In the
default thread pool (forty threads) a burst of such requests leaves every other request of the
process, `/api/health` included, waiting its turn for the lock behind each of them; a small pool
of their own keeps that queue short, so the rest of the service stays responsive while bots
play. The work still runs off the event loop, so live streams and cheap pages keep flowing.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import weakref
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter

__all__ = ["GAME_WORKERS", "game_work", "in_game_worker"]

GAME_WORKERS = 2
"""Threads that rebuild and play tables at once, per process (one per core of a small host)."""

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")
_LIMITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)


def _limiter() -> CapacityLimiter:
    """The limiter of the running event loop (a limiter belongs to one loop)."""
    loop = asyncio.get_running_loop()
    if loop not in _LIMITERS:
        _LIMITERS[loop] = CapacityLimiter(GAME_WORKERS)
    return _LIMITERS[loop]


async def in_game_worker(
    work: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
) -> _Result:
    """Run `work` in one of the tables' threads and wait for it."""
    call = functools.partial(work, *args, **kwargs)
    return await anyio.to_thread.run_sync(call, limiter=_limiter())


def game_work(
    endpoint: Callable[_Params, _Result],
) -> Callable[_Params, Awaitable[_Result]]:
    """A plain endpoint run in the tables' own threads; FastAPI still reads its parameters
    (the signature is kept, its annotations resolved in the endpoint's own module)."""

    @functools.wraps(endpoint)
    async def run(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
        return await in_game_worker(endpoint, *args, **kwargs)

    run.__signature__ = inspect.signature(endpoint, eval_str=True)  # type: ignore[attr-defined]
    return run
