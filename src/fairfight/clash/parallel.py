"""Split long array work across forked processes that write into shared memory, or across
threads when the work runs in compiled code that lets go of the interpreter lock.

Results do not depend on the number of workers: each worker fills its own contiguous range
of the output, and the parent only waits (reporting progress while it does). Threads are the
cheaper way where they can be used: a fork of a process holding numba and a few hundred
megabytes of columns, and the page faults on fresh shared output, cost a two-process batch
as much CPU again as the previews themselves.
"""

from __future__ import annotations

import mmap
import multiprocessing
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import wait
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "Int32Array",
    "Int64Array",
    "POLL_SECONDS",
    "Work",
    "run_split",
    "run_threads",
]

Int64Array = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
Work = Callable[[int, int, Any, Callable[[int], None]], None]
"""work(start, stop, output, tick): fill the output for items start..stop-1, tick(k) per k done."""
POLL_SECONDS = 1
"""How often the parent reports progress while it waits (it wakes at once when a worker ends)."""


def _shared(shape: tuple[int, ...], dtype: type[np.signedinteger[Any]]) -> Any:
    size = 1
    for extent in shape:
        size *= extent
    itemsize = np.dtype(dtype).itemsize
    buffer = mmap.mmap(-1, max(itemsize, size * itemsize))
    array = np.frombuffer(buffer, dtype=dtype)[:size].reshape(shape)
    return array  # anonymous shared memory starts zeroed; the array keeps the mapping alive


def _run_here(
    n: int, shape: tuple[int, ...], work: Work, progress: Callable[[int], None] | None,
    dtype: type[np.signedinteger[Any]],
) -> Any:
    """Run `work` over 0..n-1 in this process, reporting the running count to `progress`."""
    out = np.zeros(shape, dtype=dtype)
    done = [0]

    def tick(count: int) -> None:
        done[0] += count
        if progress is not None:
            progress(done[0])

    work(0, n, out, tick)
    return out


def run_split(
    n: int, workers: int, shape: tuple[int, ...], work: Work,
    progress: Callable[[int], None] | None = None,
    dtype: type[np.signedinteger[Any]] = np.int64,
) -> Any:
    """Run `work` over 0..n-1 in `workers` ranges and return the filled output array."""
    if workers <= 1:
        return _run_here(n, shape, work, progress, dtype)
    out = _shared(shape, dtype)
    counters = _shared((workers,), np.int64)
    bounds = [n * k // workers for k in range(workers + 1)]
    context = multiprocessing.get_context("fork")

    def child(index: int) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to report

        def tick(count: int) -> None:
            counters[index] += count

        work(bounds[index], bounds[index + 1], out, tick)

    processes = [context.Process(target=child, args=(k,)) for k in range(workers)]
    # While the workers run, Ctrl-C is only noted and raised between two waits: raised inside
    # the fork handlers it would print a worker traceback, and raised inside a garbage
    # collector callback Python would print it and carry on.
    noted: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _: noted.append(number))
    try:
        for process in processes:
            process.start()
        waiting = [process.sentinel for process in processes]
        while waiting:
            if noted:
                raise KeyboardInterrupt
            if progress is not None:
                progress(int(counters.sum()))
            for ended in wait(waiting, timeout=POLL_SECONDS):
                waiting.remove(ended)  # type: ignore[arg-type]
    finally:  # on Ctrl-C (or any error) no worker is left running
        signal.signal(signal.SIGINT, previous)
        for process in processes:
            if process.pid is not None and process.is_alive():
                process.terminate()
            if process.pid is not None:
                process.join()
    if noted:
        raise KeyboardInterrupt
    if any(process.exitcode != 0 for process in processes):
        raise RuntimeError("a worker process failed")
    if progress is not None:
        progress(int(counters.sum()))
    return out


class _Stopped(Exception):
    """Raised by a thread's tick once the caller has stopped waiting (Ctrl-C or an error)."""


def run_threads(
    n: int, workers: int, shape: tuple[int, ...], work: Work,
    progress: Callable[[int], None] | None = None,
    dtype: type[np.signedinteger[Any]] = np.int64,
) -> Any:
    """`run_split` on threads of this process, for work that releases the interpreter lock
    (compiled with nogil): no fork, and an ordinary array for the output. On Ctrl-C every
    thread stops at its next tick and the interrupt is raised here."""
    if workers <= 1:
        return _run_here(n, shape, work, progress, dtype)
    out = np.zeros(shape, dtype=dtype)
    bounds = [n * k // workers for k in range(workers + 1)]
    counters = [0] * workers
    failures: list[BaseException] = []
    stop = threading.Event()

    def run(index: int) -> None:
        def tick(count: int) -> None:
            counters[index] += count
            if stop.is_set():
                raise _Stopped

        try:
            work(bounds[index], bounds[index + 1], out, tick)
        except _Stopped:
            pass
        except BaseException as failure:  # handed to the caller's thread, raised there
            failures.append(failure)
            stop.set()

    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(workers)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                if progress is not None:
                    progress(sum(counters))
                thread.join(POLL_SECONDS)
    finally:  # on Ctrl-C the threads stop at their next tick
        stop.set()
        for thread in threads:
            thread.join()
    if failures:
        raise failures[0]
    if progress is not None:
        progress(sum(counters))
    return out
