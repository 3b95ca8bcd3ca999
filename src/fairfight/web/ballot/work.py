"""Where a table's requests do their work: the app's bounded `bots` pool.

Each request about a table rebuilds the game from its row, and a move or a leave may make the
server play the bots on for many steps: pure Python that holds the interpreter's lock. In the
default thread pool (forty threads) a burst of such requests leaves every other request of the
process, `/api/health` included, waiting its turn for the lock behind each of them; a small pool
of their own (`WebSettings.pool_bots`: two threads, a bounded queue, 503 when full) keeps that
queue short, so the rest of the service stays responsive while bots play. The work still runs
off the event loop, so live streams and cheap pages keep flowing.

Moves (and joining, starting, leaving) go first: a free thread takes the oldest waiting move
before any waiting read. A move is a few milliseconds of work a person waits on, while the
first read of a presidential year's page can take tens; with reads first in, four tables'
worth of them queued ahead of each move.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from fairfight.web.ops.pools import pooled, run_first_in_pool, run_in_pool

__all__ = ["GAME_POOL", "game_move", "game_work", "in_game_worker", "move_in_game_worker"]

GAME_POOL = "bots"
"""The pool (see `fairfight.web.ops.pools`) a table's work runs in."""

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


async def in_game_worker(
    work: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
) -> _Result:
    """Run `work` in one of the tables' threads and wait for it."""
    return await run_in_pool(GAME_POOL, work, *args, **kwargs)


async def move_in_game_worker(
    work: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs
) -> _Result:
    """`in_game_worker` for a move: ahead of the reads waiting for a thread."""
    return await run_first_in_pool(GAME_POOL, work, *args, **kwargs)


def game_work(
    endpoint: Callable[_Params, _Result],
) -> Callable[_Params, Awaitable[_Result]]:
    """A plain endpoint run in the tables' own threads; FastAPI still reads its parameters."""
    return pooled(GAME_POOL)(endpoint)


def game_move(
    endpoint: Callable[_Params, _Result],
) -> Callable[_Params, Awaitable[_Result]]:
    """`game_work` for an endpoint that changes a table: ahead of the reads waiting."""
    return pooled(GAME_POOL, first=True)(endpoint)
