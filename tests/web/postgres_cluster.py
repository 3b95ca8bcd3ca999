"""A throwaway PostgreSQL cluster for the tests (bench/postgres_cluster.py makes it): started
once per session and stopped at the end; without PostgreSQL's binaries the tests skip (and
fail under CI)."""

from __future__ import annotations

import gc
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.postgres_cluster import throwaway_cluster

from tests.system import postgres_bin


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database; remove everything afterwards."""
    with throwaway_cluster(Path(postgres_bin())) as url:
        try:
            yield url
        finally:
            _sweep_unclosed_connections()


def _sweep_unclosed_connections() -> None:
    """Collect, before the server stops, connections left in reference cycles.

    A service torn down mid-request can leave a pooled psycopg connection in a cycle; the
    garbage collector would otherwise close it during some later, unrelated test, whose
    warnings-as-errors setting then fails that test instead.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
