"""Where chunks of simulation run: in this process, in local processes, or on a Dask cluster.

A job is a function and a list of argument tuples (the chunks). Each chunk carries everything
it needs, its own seed and season numbers included, so the results are identical whichever
executor runs it; they always come back in chunk order.
"""

from __future__ import annotations

import multiprocessing
import re
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from typing import Any, Protocol

from fairfight.core.errors import InputError

__all__ = [
    "DaskExecutor",
    "Executor",
    "InProcess",
    "LocalProcesses",
    "MANAGER_EXIT_SECONDS",
    "POLL_SECONDS",
    "Progress",
    "SCHEDULER_CONNECT_SECONDS",
    "Threads",
    "WorkerPool",
    "executor_for",
    "in_process",
    "scheduler_address",
    "stop_pool",
]

Progress = Callable[[int], None]
"""Called with the number of chunks finished so far."""
MANAGER_EXIT_SECONDS = 10.0
"""How long a stopped pool waits for its manager thread to finish."""
POLL_SECONDS = 0.1
"""How often a waiting pool looks for a noted Ctrl-C."""
SCHEDULER_CONNECT_SECONDS = 2.0
"""How long a scheduler address is given to accept a connection before it is refused as
unreachable (a scheduler on the same network answers in milliseconds)."""
_SCHEDULER = re.compile(
    r"(?:(?P<scheme>tcp|tls)://)?(?P<host>\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9](?:[A-Za-z0-9.-]"
    r"{0,251}[A-Za-z0-9])?):(?P<port>[0-9]{1,5})", re.ASCII)
_SCHEDULER_FORM = "write tcp://HOST:PORT, for example tcp://127.0.0.1:8786"


def _start_worker(setup: Callable[[], None] | None) -> None:
    """Workers ignore Ctrl-C (the parent stops the pool and reports it in one line), then
    run the pool's own setup, if any."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: queued chunks cancelled, running ones killed (a compiled kernel
    does not look at Ctrl-C until its chunk ends, which can take many seconds).

    The pool's manager thread is then given time to see its workers gone and close its
    wake-up pipe: Python 3.11's exit hook may otherwise write to that pipe while the thread
    is closing it, and print a traceback after the one-line message.
    """
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    if manager is not None:
        manager.join(MANAGER_EXIT_SECONDS)


class WorkerPool:
    """Forked worker processes that leave Ctrl-C to this process.

    While the pool lives, Ctrl-C is only noted, and `gather` raises it between two waits. A
    KeyboardInterrupt raised wherever the signal happened to land could fall inside a garbage
    collector callback, where Python prints it and carries on, and the batch would run to its
    end. Leaving the block with an error (Ctrl-C included) stops the workers at once.
    `setup`, if given, runs once in each worker as it starts.
    """

    def __init__(self, workers: int, setup: Callable[[], None] | None = None) -> None:
        self.workers = workers
        self._setup = setup
        self._noted: list[int] = []
        self._main = threading.current_thread() is threading.main_thread()  # signals: main only
        self._previous = signal.getsignal(signal.SIGINT)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> WorkerPool:
        if self._main:
            signal.signal(signal.SIGINT, lambda number, _: self._noted.append(number))
        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("fork"),
            initializer=_start_worker, initargs=(self._setup,),
        )
        try:
            self._pool.submit(int).result()  # a fork pool starts every worker on first use
            self._raise_if_interrupted()
        except BaseException:
            self.__exit__(KeyboardInterrupt, None, None)
            raise
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if self._main:
            signal.signal(signal.SIGINT, self._previous)
        if self._pool is None:
            return
        if kind is None:
            self._pool.shutdown()
        else:
            stop_pool(self._pool)

    def _raise_if_interrupted(self) -> None:
        if self._noted:
            raise KeyboardInterrupt

    def submit(self, function: Callable[..., Any], *arguments: Any) -> Future[Any]:
        """Queue one call."""
        assert self._pool is not None, "submit inside the with block"
        return self._pool.submit(function, *arguments)

    def gather(self, futures: Sequence[Future[Any]], progress: Progress | None = None) -> list[Any]:
        """The results in order; `progress` hears how many are done; Ctrl-C raised here."""
        pending = set(futures)
        while pending:
            _done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            self._raise_if_interrupted()
            if progress is not None:
                progress(len(futures) - len(pending))
        return [future.result() for future in futures]


class Executor(Protocol):
    """Runs `function(*chunk)` for every chunk and returns the results in chunk order."""

    def map(
        self,
        function: Callable[..., Any],
        chunks: Sequence[tuple[Any, ...]],
        progress: Progress | None = None,
    ) -> list[Any]: ...


class InProcess:
    """Every chunk in this process, one after another."""

    def map(
        self,
        function: Callable[..., Any],
        chunks: Sequence[tuple[Any, ...]],
        progress: Progress | None = None,
    ) -> list[Any]:
        """Run the chunks in order."""
        results = []
        for done, chunk in enumerate(chunks, start=1):
            results.append(function(*chunk))
            if progress is not None:
                progress(done)
        return results


class _SpreadOver:
    """Chunks spread over `workers` of something; one worker, or one chunk, runs here."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("workers: must be at least 1")
        self.workers = workers

    def map(
        self,
        function: Callable[..., Any],
        chunks: Sequence[tuple[Any, ...]],
        progress: Progress | None = None,
    ) -> list[Any]:
        """Run the chunks; results in chunk order."""
        if self.workers == 1 or len(chunks) <= 1:
            return InProcess().map(function, chunks, progress)
        return self._spread(function, chunks, min(self.workers, len(chunks)), progress)

    def _spread(self, function: Callable[..., Any], chunks: Sequence[tuple[Any, ...]],
                workers: int, progress: Progress | None) -> list[Any]:
        raise NotImplementedError


class Threads(_SpreadOver):
    """Chunks spread over `workers` threads of this process: for work that releases the
    interpreter's lock while it runs (the compiled forecast kernel), so a service can use both
    cores without forking processes that would copy its connections and threads."""

    def _spread(self, function: Callable[..., Any], chunks: Sequence[tuple[Any, ...]],
                workers: int, progress: Progress | None) -> list[Any]:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(function, *chunk) for chunk in chunks]
            results = []
            for done, future in enumerate(futures, start=1):
                results.append(future.result())
                if progress is not None:
                    progress(done)
            return results


class LocalProcesses(_SpreadOver):
    """Chunks spread over `workers` forked processes of this machine."""

    def _spread(self, function: Callable[..., Any], chunks: Sequence[tuple[Any, ...]],
                workers: int, progress: Progress | None) -> list[Any]:
        with WorkerPool(workers) as pool:
            return pool.gather([pool.submit(function, *chunk) for chunk in chunks], progress)


def scheduler_address(text: str) -> tuple[str, int]:
    """The host and port of a scheduler address (`tcp://host:8786`, `tls://...` or `host:8786`),
    or an InputError naming --scheduler: a malformed address is refused before any work."""
    found = _SCHEDULER.fullmatch(text)
    port = int(found["port"]) if found else 0
    if found is None or not 1 <= port <= 65535:
        shown = text if len(text) <= 60 else f"{text[:60]}..."
        reason = "the port must be 1 to 65535; " if found else ""
        raise InputError("--scheduler", f"{shown!r} is not a scheduler address: {reason}"
                         f"{_SCHEDULER_FORM}")
    return found["host"].strip("[]"), port


class DaskExecutor:
    """Chunks sent to a dask.distributed scheduler (`tcp://host:8786`) or an existing client."""

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        if (address is None) == (client is None):
            raise ValueError("scheduler: give an address or a client")
        if address is not None:
            scheduler_address(address)
        self.address, self._client = address, client

    def check_reachable(self) -> None:
        """Refuse, after at most SCHEDULER_CONNECT_SECONDS, an address nothing answers at."""
        if self.address is None:
            return
        host, port = scheduler_address(self.address)
        try:
            with socket.create_connection((host, port), timeout=SCHEDULER_CONNECT_SECONDS):
                pass
        except OSError as error:
            reason = (f"no answer within {SCHEDULER_CONNECT_SECONDS:g} s"
                      if isinstance(error, TimeoutError)
                      else error.strerror or str(error) or type(error).__name__)
            raise InputError("--scheduler", f"cannot reach {self.address} ({reason})") from None
        except (UnicodeError, ValueError):
            raise InputError("--scheduler", f"{self.address!r} is not a scheduler address: "
                             f"{_SCHEDULER_FORM}") from None

    def client(self) -> Any:
        """The Dask client, connected on first use."""
        if self._client is None:
            from distributed import Client

            try:
                self._client = Client(self.address, timeout="10s")  # type: ignore[no-untyped-call]
            except OSError as error:
                raise InputError(
                    "--scheduler", f"cannot reach {self.address} ({error})"
                ) from None
            except (MemoryError, ValueError, TypeError, EOFError) as error:
                # something answers there, but not in the scheduler's protocol (it sent a
                # length no message has, or bytes that do not decode)
                raise InputError(
                    "--scheduler", f"{self.address} does not answer as a dask scheduler "
                    f"({type(error).__name__})"
                ) from None
        return self._client

    def map(
        self,
        function: Callable[..., Any],
        chunks: Sequence[tuple[Any, ...]],
        progress: Progress | None = None,
    ) -> list[Any]:
        """Submit every chunk (pure=False: a chunk is never merged with a cached one)."""
        from distributed import as_completed

        client = self.client()
        futures = [client.submit(function, *chunk, pure=False) for chunk in chunks]
        for done, _future in enumerate(as_completed(futures), start=1):  # type: ignore[no-untyped-call]
            if progress is not None:
                progress(done)
        results: list[Any] = client.gather(futures)
        return results

    def close(self) -> None:
        """Disconnect a client this executor opened itself."""
        if self._client is not None and self.address is not None:
            self._client.close()
            self._client = None


def in_process() -> InProcess:
    """The executor that runs everything here and now."""
    return InProcess()


def executor_for(jobs: int = 1, scheduler: str | None = None) -> Executor:
    """The executor a command line asks for: a scheduler address wins over `--jobs`, and is
    refused at once when malformed or when nothing answers there."""
    if scheduler is not None:
        executor = DaskExecutor(scheduler)
        executor.check_reachable()
        return executor
    return LocalProcesses(jobs) if jobs > 1 else InProcess()
