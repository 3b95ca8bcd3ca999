"""Group commit: one thread records every waiting contribution of a season in one transaction.

A commit on SQLite's rollback journal costs a few file syncs, far more than checking and
inserting a row; one commit per request capped the service near the disk's sync rate. The
writer takes everything that arrived while the previous batch was committing, hands each
season's requests in arrival order to `ledger.record_contributions` inside one transaction,
commits once and only then answers each waiter: a response never runs ahead of the commit
that holds its row. The database's own write lock still serialises this process against the
command line and other server processes. The writer only queues and calls the ledger; it
knows nothing of HTTP (`contributions` turns the outcomes into answers).
"""

from __future__ import annotations

import enum
import queue
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Future

from fairfight.conquest.store.ledger import (
    LedgerOutcome,
    LedgerRequest,
    Recorded,
    RefundOwed,
    record_contributions,
)
from fairfight.web.conquest.catalog import SeasonCatalog

__all__ = ["Answered", "BATCH_LIMIT", "ContributionWriter", "record_batch"]

BATCH_LIMIT = 256
"""The most contributions one transaction carries (keeps a batch's lock hold short)."""

Answered = Recorded | RefundOwed
"""What a waiting request's future resolves to: its entry, or the refund its payment is owed."""
_Job = tuple[int, LedgerRequest, "Future[Answered]"]


class _Queue(enum.Enum):
    EMPTY = enum.auto()
    """What `_next_now` answers when nothing is queued."""


def record_batch(
    catalog: SeasonCatalog, season_id: int, requests: Sequence[LedgerRequest],
    arrived: Callable[[], Sequence[LedgerRequest]] = tuple,
) -> list[LedgerOutcome]:
    """Record one season's requests in ONE write transaction; outcomes are final once this
    returns (after the commit). `arrived()` is asked, once the season's lock is held, for
    requests that came while it was awaited: they follow `requests`, outcomes in the same
    order. An error of the transaction itself raises: none was recorded.
    """
    catalog.require(season_id)
    with catalog.database.transaction(season_id, write=True) as session:
        return record_contributions(session, [*requests, *arrived()])


class ContributionWriter:
    """The service's single writer of contributions, started on the first one."""

    def __init__(self, catalog: SeasonCatalog) -> None:
        self._catalog = catalog
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, season_id: int, request: LedgerRequest) -> Future[Answered]:
        """Queue a contribution; the future resolves after the commit that carries it (to the
        recorded entry, or to the refusal it got)."""
        future: Future[Answered] = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the service is shutting down")
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="contribution-writer", daemon=True)
                self._thread.start()
            self._jobs.put((season_id, request, future))
        return future

    def close(self) -> None:
        """Finish the queued contributions, then stop the thread."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._jobs.put(None)
            thread.join()

    def _run(self) -> None:
        carried: list[_Job | None] = []
        while True:
            first = carried.pop(0) if carried else self._jobs.get()
            if first is None:
                return
            jobs = [first]
            stopping = False
            while len(jobs) < BATCH_LIMIT:
                job = carried.pop(0) if carried else self._next_now()
                if job is _Queue.EMPTY:
                    break
                if job is None:
                    stopping = True
                    break
                jobs.append(job)
            self._commit(jobs, carried)
            if stopping:
                return

    def _next_now(self) -> _Job | None | _Queue:
        try:
            return self._jobs.get_nowait()
        except queue.Empty:
            return _Queue.EMPTY

    def _commit(self, jobs: list[_Job], carried: list[_Job | None]) -> None:
        """One transaction per season present, in arrival order within each. Whatever arrived
        while a transaction waited for the season's lock (held by another process) joins it,
        so under contention batches grow instead of each process's shrinking; jobs of other
        seasons (and the stop mark) are `carried` to the next round, in order."""
        by_season: defaultdict[int, list[_Job]] = defaultdict(list)
        for job in jobs:
            by_season[job[0]].append(job)
        for season_id, group in by_season.items():
            self._commit_season(season_id, group, carried)

    def _commit_season(self, season_id: int, group: list[_Job],
                       carried: list[_Job | None]) -> None:
        live = [job for job in group if job[2].set_running_or_notify_cancel()]
        first = len(live)

        def arrived() -> list[LedgerRequest]:
            live.extend(self._arrived(season_id, BATCH_LIMIT - first, carried))
            return [job[1] for job in live[first:]]

        outcomes: Sequence[LedgerOutcome | Exception]
        try:
            outcomes = record_batch(self._catalog, season_id, [job[1] for job in live], arrived)
        except Exception as error:  # noqa: BLE001 -- the whole transaction failed
            outcomes = [error] * len(live)
        for (_, _, future), outcome in zip(live, outcomes, strict=True):
            if isinstance(outcome, Recorded | RefundOwed):
                future.set_result(outcome)
            else:
                future.set_exception(outcome)

    def _arrived(self, season_id: int, room: int, carried: list[_Job | None]) -> list[_Job]:
        """Jobs of `season_id` queued by now (at most `room`), started; others are carried."""
        taken: list[_Job] = []
        if carried:  # an earlier job is already waiting for the next round: keep the order
            return taken
        while len(taken) < room:
            job = self._next_now()
            if job is _Queue.EMPTY:
                break
            if job is None or job[0] != season_id:
                carried.append(job)
                break
            if job[2].set_running_or_notify_cancel():
                taken.append(job)
        return taken
