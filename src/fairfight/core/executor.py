"""Where chunks of simulation run: in this process, in local processes, or on a Dask cluster.

A job is a function and a list of argument tuples (the chunks). Each chunk carries everything
it needs, its own seed and season numbers included, so the results are identical whichever
executor runs it; they always come back in chunk order.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Protocol

__all__ = [
    "DaskExecutor",
    "Executor",
    "InProcess",
    "LocalProcesses",
    "Progress",
    "executor_for",
    "in_process",
]

Progress = Callable[[int], None]
"""Called with the number of chunks finished so far."""


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


class LocalProcesses:
    """Chunks spread over `workers` forked processes of this machine."""

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
        """Run the chunks on the pool; one worker (or one chunk) runs in this process."""
        if self.workers == 1 or len(chunks) <= 1:
            return InProcess().map(function, chunks, progress)
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(min(self.workers, len(chunks)), mp_context=context) as pool:
            futures = [pool.submit(function, *chunk) for chunk in chunks]
            pending = set(futures)
            while pending:
                _done, pending = wait(pending, return_when=FIRST_COMPLETED)
                if progress is not None:
                    progress(len(futures) - len(pending))
            return [future.result() for future in futures]


class DaskExecutor:
    """Chunks sent to a dask.distributed scheduler (`tcp://host:8786`) or an existing client."""

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        if (address is None) == (client is None):
            raise ValueError("scheduler: give an address or a client")
        self.address, self._client = address, client

    def client(self) -> Any:
        """The Dask client, connected on first use."""
        if self._client is None:
            from distributed import Client

            try:
                self._client = Client(self.address, timeout="10s")  # type: ignore[no-untyped-call]
            except OSError as error:
                raise ValueError(
                    f"scheduler: cannot reach {self.address} ({error})"
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
    """The executor a command line asks for: a scheduler address wins over `--jobs`."""
    if scheduler:
        return DaskExecutor(scheduler)
    return LocalProcesses(jobs) if jobs > 1 else InProcess()
