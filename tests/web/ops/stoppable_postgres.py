"""A throwaway PostgreSQL server of its own that the outage tests can stop and start again on
the same port (the run's shared cluster, tests.web.postgres_cluster, must stay up)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.postgres_cluster import Cluster

from tests.system import postgres_bin
from tests.web.postgres_cluster import _sweep_unclosed_connections


class StoppableServer:
    """A cluster with its database `seasons`: `stop` halts it at once, `start` brings it back."""

    def __init__(self) -> None:
        self._cluster = Cluster(Path(postgres_bin()))
        self.url = self._cluster.url(self._cluster.create_database("seasons"))

    def stop(self) -> None:
        self._cluster.halt()

    def start(self) -> None:
        self._cluster.start()

    def remove(self) -> None:
        _sweep_unclosed_connections()
        self._cluster.stop()


@contextmanager
def stoppable_postgres() -> Iterator[StoppableServer]:
    """A running server; stopped and removed afterwards, whatever state the test left it in."""
    server = StoppableServer()
    try:
        yield server
    finally:
        server.remove()
