"""Group commit: checkpoints that arrive while a commit is in flight share the next one.

The witness must make a checkpoint durable before it answers, and on a disk a durable commit
costs one sync, a few milliseconds, whatever it holds. So requests queue here: the first to
find no commit in flight *leads*, takes everything queued, runs each compare-and-swap in order
of arrival inside one transaction, commits once and wakes each waiter with its own outcome.
Requests that arrived meanwhile form the next group; the oldest of them is woken to lead it,
so no thread commits for others forever. Alone, a request is its own group of one, as before.

Each swap still compares the row as the previous swaps of the same group left it, so two
requests for one log from the same held checkpoint still advance it once. A group whose
transaction fails is rolled back whole and every member sees the error: none was answered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

__all__ = ["GroupCommit"]

_Item = TypeVar("_Item")


class _Waiting(Generic[_Item]):
    """One queued request: what to write, and how it ended (or that it must lead)."""

    __slots__ = ("done", "error", "item", "lead", "outcome")

    def __init__(self, item: _Item) -> None:
        self.item = item
        self.done = threading.Event()
        self.lead = False
        self.outcome = False
        self.error: BaseException | None = None


class GroupCommit(Generic[_Item]):
    """Runs `write(items)` (one transaction, one outcome per item) for groups of requests."""

    def __init__(self, write: Callable[[Sequence[_Item]], list[bool]]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self._queue: list[_Waiting[_Item]] = []
        self._leading = False
        self.groups = 0
        """Transactions committed (or tried) so far; with `requests`, the mean group size."""
        self.requests = 0

    def queued(self) -> int:
        """How many requests wait for the next group (for tests and metrics)."""
        with self._lock:
            return len(self._queue)

    def submit(self, item: _Item) -> bool:
        """Queue `item`, wait until its group has committed, and return its outcome."""
        waiting = _Waiting(item)
        with self._lock:
            self._queue.append(waiting)
            leads = not self._leading
            self._leading = True
        if not leads:
            waiting.done.wait()
        if leads or waiting.lead:
            self._lead()
        if waiting.error is not None:
            raise waiting.error
        return waiting.outcome

    def _lead(self) -> None:
        """Commit the queued group, then hand the lead to the oldest later arrival."""
        with self._lock:
            group, self._queue = self._queue, []
            self.groups += 1
            self.requests += len(group)
        try:
            outcomes = self._write([waiting.item for waiting in group])
            for waiting, outcome in zip(group, outcomes, strict=True):
                waiting.outcome = outcome
        except BaseException as error:  # every member must hear of it, then the leader's caller
            for waiting in group:
                waiting.error = error
        with self._lock:
            if self._queue:
                self._queue[0].lead = True
                self._queue[0].done.set()
            else:
                self._leading = False
        for waiting in group:
            waiting.done.set()
