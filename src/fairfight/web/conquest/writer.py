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

import queue
import threading
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import Future

from fairfight.conquest.ledger import (
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


def record_batch(
    catalog: SeasonCatalog, season_id: int, requests: Sequence[LedgerRequest]
) -> list[LedgerOutcome]:
    """Record one season's requests in ONE write transaction; outcomes are final once this
    returns (after the commit). An error of the transaction itself raises: none was recorded.
    """
    catalog.require(season_id)
    with catalog.database.transaction(season_id, write=True) as session:
        return record_contributions(session, requests)


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
        while True:
            first = self._jobs.get()
            if first is None:
                return
            jobs = [first]
            stopping = False
            while len(jobs) < BATCH_LIMIT:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stopping = True
                    break
                jobs.append(job)
            self._commit(jobs)
            if stopping:
                return

    def _commit(self, jobs: list[_Job]) -> None:
        """One transaction per season present, in arrival order within each."""
        by_season: defaultdict[int, list[_Job]] = defaultdict(list)
        for job in jobs:
            by_season[job[0]].append(job)
        for season_id, group in by_season.items():
            live = [job for job in group if job[2].set_running_or_notify_cancel()]
            outcomes: Sequence[LedgerOutcome | Exception]
            try:
                outcomes = record_batch(self._catalog, season_id, [job[1] for job in live])
            except Exception as error:  # noqa: BLE001 -- the whole transaction failed
                outcomes = [error] * len(live)
            for (_, _, future), outcome in zip(live, outcomes, strict=True):
                if isinstance(outcome, Recorded | RefundOwed):
                    future.set_result(outcome)
                else:
                    future.set_exception(outcome)
