"""Bounded pools for the slow work: a few threads, a short queue, and a cap on the wait.

A "what would $X do" answer, a bot's run of moves, a clash turn or an archive check takes
seconds of CPU. Run in the default thread pool (forty threads), a burst of them starves every
other request of the process. Each kind of slow work gets a pool of its own instead:
`workers` run at once, at most `queue` more wait, and none waits longer than `wait_seconds`;
past that the request is answered at once with 503 and `Retry-After` (`PoolFull`), so a flood
costs the flooder a refusal and everyone else nothing. `/healthz` and cheap pages never enter a
pool, so they keep answering while every pool is full.

The pools of the running app are found through a context variable the operations middleware
sets for each request, so code deep in a route (the ballot bots) reaches them without taking
the request; outside a request the work simply runs in a thread.

A pool's jobs run in threads of its own, at a lower CPU priority than the event loop
(`LOWER_PRIORITY`, Linux's per-thread nice; the forecast threads and the verifier process a
job starts inherit it). The work itself mostly runs outside the interpreter's lock (the
compiled forecast kernel, the verifier's child process), so it is the operating system that
shares the cores: two workers each running a question on two forecast threads are four busy
threads on a two-core machine, and the loop thread, which answers `/healthz` and every cheap
page, waited its turn behind them. At a lower priority the slow work still takes every idle
cycle, but yields the core whenever the loop has something to answer.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import math
import os
import sys
import threading
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from typing import ParamSpec, TypeVar

import anyio
import anyio.to_thread
from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "LOWER_PRIORITY",
    "PoolFull",
    "PoolLimits",
    "SHARED_THREADS",
    "WorkPool",
    "current_pools",
    "narrow_shared_threads",
    "pooled",
    "run_first_in_pool",
    "run_in_pool",
    "using_pools",
]

_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")

LOWER_PRIORITY = 10
"""How much nicer (Linux `nice`, 0 to 19) a pool's threads are than the thread that made them.
At 10 a busy thread gets about a tenth of the CPU share of one at the loop's priority."""


SHARED_THREADS = 4
"""Threads of anyio's shared pool (the plain `def` routes) per process, instead of its 40.
Those routes run Python under the interpreter's lock, so forty at once (500 clash games created
from a hundred addresses, about 7 ms of Python each) were forty threads taking turns at the
lock with the event loop, which needs it several times for every request it answers. In
bench/bench_abuse.py `/api/health` p99 under that pattern went from 294 ms at 40 threads to
187 ms at 8 and 132 ms at 4 (one noisy run each). No route waits in a thread for another
thread's work, so a narrow pool cannot deadlock; four still cover routes waiting on the
database."""


def narrow_shared_threads() -> None:
    """Cap anyio's shared thread pool of the running loop at SHARED_THREADS (called at start)."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = SHARED_THREADS


def _lower_this_threads_priority() -> None:
    """Make the calling thread nicer by LOWER_PRIORITY (Linux only: there `setpriority` on a
    thread id changes that thread alone); elsewhere, or if refused, it keeps its priority."""
    if sys.platform != "linux":
        return
    thread = threading.get_native_id()
    with suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, thread,
                       min(19, os.getpriority(os.PRIO_PROCESS, thread) + LOWER_PRIORITY))


class PoolLimits(BaseModel):
    """How much slow work of one kind a process takes on at once, and how long it may wait."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    workers: int = Field(ge=1, le=64, description="Jobs running at once, per process.")
    queue: int = Field(ge=0, le=10_000, description="Jobs waiting for a worker, at most.")
    wait_seconds: float = Field(gt=0, le=600, description="Longest wait for a worker before "
                                "the request is refused with 503.")


class PoolFull(Exception):  # noqa: N818 (the name says what happened, like `QueueFull`)
    """A pool had no room for one more job: answered 503 with `Retry-After`."""

    def __init__(self, pool: str, retry_after: int) -> None:
        super().__init__(f"{pool}: the service is busy with this kind of work; try again in "
                         f"{retry_after} s")
        self.pool = pool
        self.retry_after = retry_after


class _Slots:
    """A pool's workers as slots of one event loop, handed out in two queues: a free slot goes
    to the longest-waiting job asked to go first (`WorkPool.run_first`), and only when none
    waits to the longest-waiting other job. A wait that is cancelled (its time ran out) leaves
    its queue, and a slot handed to it just then is passed on."""

    def __init__(self, total: int) -> None:
        self.free = total
        self._queues: tuple[deque[asyncio.Future[None]], ...] = (deque(), deque())

    async def acquire(self, first: bool) -> None:
        """Take a slot, waiting in the first queue or the other one for it."""
        if self.free > 0 and not any(self._queues):
            self.free -= 1
            try:  # let the loop run once first, as a limiter's acquire does
                await asyncio.sleep(0)
            except BaseException:
                self.release()
                raise
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._queues[0 if first else 1]
        queue.append(waiter)
        try:
            await waiter
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self.release()
            else:
                with suppress(ValueError):
                    queue.remove(waiter)
            raise

    def release(self) -> None:
        """Give the slot to the next waiter (the first queue before the other), or free it."""
        for queue in self._queues:
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self.free += 1


class WorkPool:
    """One kind of slow work: bounded concurrency, a bounded queue, a bounded wait."""

    def __init__(self, name: str, limits: PoolLimits,
                 observe: Callable[[WorkPool], None] | None = None) -> None:
        self.name = name
        self.limits = limits
        self.running = 0
        """Jobs in a worker thread now."""
        self.waiting = 0
        """Jobs queued for a worker now."""
        self.refused = 0
        """Jobs refused since the pool was made (full queue or a wait that ran out)."""
        self._observe = observe
        self._slots: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, _Slots
        ] = weakref.WeakKeyDictionary()
        self._threads = ThreadPoolExecutor(
            max_workers=limits.workers, thread_name_prefix=f"pool-{name}",
            initializer=_lower_this_threads_priority)
        """The pool's own threads: only its jobs run there, so their priority stays lowered."""

    @property
    def retry_after(self) -> int:
        """Seconds a refused client is told to wait: about one queue's worth of waiting."""
        return max(1, math.ceil(self.limits.wait_seconds / 2))

    def _slots_of_loop(self) -> _Slots:
        """The slots a job takes (they belong to one loop); the job then runs in one of the
        pool's own threads, out of anyio's shared default pool."""
        loop = asyncio.get_running_loop()
        if loop not in self._slots:
            self._slots[loop] = _Slots(self.limits.workers)
        return self._slots[loop]

    def _changed(self) -> None:
        if self._observe is not None:
            self._observe(self)

    def _refuse(self) -> PoolFull:
        self.refused += 1
        self._changed()
        return PoolFull(self.name, self.retry_after)

    async def run(self, work: Callable[_Params, _Result], *args: _Params.args,
                  **kwargs: _Params.kwargs) -> _Result:
        """Run `work` in one of the pool's threads, or raise `PoolFull` without running it."""
        return await self._run(False, functools.partial(work, *args, **kwargs))

    async def run_first(self, work: Callable[_Params, _Result], *args: _Params.args,
                        **kwargs: _Params.kwargs) -> _Result:
        """`run`, ahead of every job waiting through `run`: a short job a person waits on
        (a move) is not queued behind the slow reads of the same pool."""
        return await self._run(True, functools.partial(work, *args, **kwargs))

    async def _run(self, first: bool, call: Callable[[], _Result]) -> _Result:
        slots = self._slots_of_loop()
        if slots.free == 0 and self.waiting >= self.limits.queue:
            raise self._refuse()
        self.waiting += 1
        self._changed()
        try:
            with anyio.fail_after(self.limits.wait_seconds):
                await slots.acquire(first)
        except TimeoutError:
            raise self._refuse() from None
        finally:
            self.waiting -= 1
        self.running += 1
        self._changed()
        try:
            context = contextvars.copy_context()  # as anyio's threads do: the request's vars
            return await asyncio.wrap_future(self._threads.submit(context.run, call))
        finally:
            self.running -= 1
            slots.release()
            self._changed()


_CURRENT: contextvars.ContextVar[Mapping[str, WorkPool] | None] = contextvars.ContextVar(
    "fairfight_pools", default=None
)


def current_pools() -> Mapping[str, WorkPool]:
    """The pools of the app answering the current request (empty outside one)."""
    return _CURRENT.get() or {}


@contextmanager
def using_pools(pools: Mapping[str, WorkPool]) -> Iterator[None]:
    """Make `pools` the current request's pools for the duration of the block."""
    token = _CURRENT.set(pools)
    try:
        yield
    finally:
        _CURRENT.reset(token)


async def run_in_pool(name: str, work: Callable[_Params, _Result], *args: _Params.args,
                      **kwargs: _Params.kwargs) -> _Result:
    """Run `work` in the current app's pool `name` (a plain thread when there is none)."""
    pool = current_pools().get(name)
    if pool is None:
        return await anyio.to_thread.run_sync(functools.partial(work, *args, **kwargs))
    return await pool.run(work, *args, **kwargs)


async def run_first_in_pool(name: str, work: Callable[_Params, _Result], *args: _Params.args,
                            **kwargs: _Params.kwargs) -> _Result:
    """`run_in_pool`, ahead of the pool's other waiting jobs (`WorkPool.run_first`)."""
    pool = current_pools().get(name)
    if pool is None:
        return await anyio.to_thread.run_sync(functools.partial(work, *args, **kwargs))
    return await pool.run_first(work, *args, **kwargs)


def pooled(name: str, first: bool = False) -> Callable[[Callable[_Params, _Result]],
                                                       Callable[_Params, Awaitable[_Result]]]:
    """Make a plain endpoint run in the pool `name` (ahead of its other waiting jobs when
    `first`); FastAPI still reads its parameters (the signature is kept, its annotations
    resolved in the endpoint's own module)."""
    runner = run_first_in_pool if first else run_in_pool

    def decorate(endpoint: Callable[_Params, _Result]) -> Callable[_Params, Awaitable[_Result]]:
        @functools.wraps(endpoint)
        async def run(*args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
            return await runner(name, endpoint, *args, **kwargs)

        run.__signature__ = inspect.signature(endpoint, eval_str=True)  # type: ignore[attr-defined]
        return run

    return decorate
