"""Throwaway PostgreSQL databases for the tests: one cluster per test run (`bench.postgres_
cluster.Cluster`), started by the first module that asks and stopped when the run ends; each
`postgres_cluster()` gets a database of its own, dropped afterwards. The cluster is stopped
before the run's check for processes left behind (tests/processes.py). Without PostgreSQL's
binaries the tests skip (and fail under CI).

One cluster rather than one per module: initdb, start and stop cost a few seconds each time,
and a fresh database (CREATE DATABASE from the empty template) is as empty as a fresh cluster
for everything the tests look at (tables, sequences, LISTEN channels and `current_database()`
are per database). A test that must stop the server uses tests/web/ops/stoppable_postgres.py.
"""

from __future__ import annotations

import atexit
import gc
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.postgres_cluster import Cluster

from tests.processes import at_session_end
from tests.system import postgres_bin

__all__ = ["postgres_cluster"]

_running: list[Cluster] = []


def _cluster() -> Cluster:
    if not _running:
        _running.append(Cluster(Path(postgres_bin())))
        at_session_end(_stop)  # before the run checks that no process it started is alive
        atexit.register(_stop)  # a run that ends without its session hooks
    return _running[0]


def _stop() -> None:
    while _running:
        _running.pop().stop()


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database; drop it afterwards."""
    cluster = _cluster()
    name = cluster.create_database()
    try:
        yield cluster.url(name)
    finally:
        _sweep_unclosed_connections()
        cluster.drop_database(name)


def _sweep_unclosed_connections() -> None:
    """Collect, before the database goes, connections left in reference cycles.

    A service torn down mid-request can leave a pooled psycopg connection in a cycle; the
    garbage collector would otherwise close it during some later, unrelated test, whose
    warnings-as-errors setting then fails that test instead.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
