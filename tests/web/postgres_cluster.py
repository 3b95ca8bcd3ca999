"""Throwaway PostgreSQL databases for the tests: one cluster per test run (initdb in a temp
folder, a free port, a unix socket beside it), started by the first module that asks and
stopped when the run ends; each `postgres_cluster()` gets a database of its own, dropped
afterwards. As root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).

One cluster rather than one per module: initdb, start and stop cost a few seconds each time,
and a fresh database (CREATE DATABASE from the empty template) is as empty as a fresh cluster
for everything the tests look at (tables, sequences, LISTEN channels and `current_database()`
are per database). A test that must stop the server uses tests/web/ops/stoppable_postgres.py.
"""

from __future__ import annotations

import atexit
import gc
import itertools
import os
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.system import postgres_bin
from tests.web.conquest_support import free_port

__all__ = ["postgres_cluster"]


def _as_server_user(command: list[str]) -> list[str]:
    if os.getuid() != 0:
        return command
    runuser = shutil.which("runuser")
    return [runuser, "-u", "postgres", "--", *command] if runuser else [
        "su", "postgres", "-c", " ".join(command)]


class _Cluster:
    """The run's one server: started on creation, stopped by `stop` (registered at exit)."""

    def __init__(self) -> None:
        self.binaries = Path(postgres_bin())
        self.folder = Path(tempfile.mkdtemp(prefix="fairfight-pg-"))
        self.data, self.socket_dir = self.folder / "data", self.folder / "socket"
        self.socket_dir.mkdir()
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self.port = free_port()
        self.owner = os.getpid()
        self.names = itertools.count(1)
        run = {"check": True, "capture_output": True}
        subprocess.run(_as_server_user([str(self.binaries / "initdb"), "-D", str(self.data),
                                        "-U", "fairfight", "--auth=trust", "-E", "UTF8",
                                        "--no-sync"]), **run)
        options = (f"-p {self.port} -k {self.socket_dir} -c listen_addresses='' -c fsync=off "
                   "-c max_connections=200")
        subprocess.run(_as_server_user([str(self.binaries / "pg_ctl"), "-D", str(self.data),
                                        "-o", options, "-w", "-l", str(self.folder / "log"),
                                        "start"]), **run)

    def _client(self, program: str, *arguments: str, check: bool = True) -> None:
        subprocess.run([str(self.binaries / program), "-h", str(self.socket_dir), "-p",
                        str(self.port), "-U", "fairfight", *arguments],
                       check=check, capture_output=True)

    def create_database(self) -> str:
        """A new, empty database; its name."""
        name = f"seasons_{next(self.names)}"
        self._client("createdb", name)
        return name

    def drop_database(self, name: str) -> None:
        """Drop `name`, ending whatever connection a test left open to it (a database left
        behind by a failed drop is harmless: the next one has another name)."""
        self._client("dropdb", "--force", name, check=False)

    def stop(self) -> None:
        """Stop the server and remove its folder; only the process that started it does so (a
        forked child of the test run must not stop the run's server when it exits)."""
        if os.getpid() != self.owner:
            return
        subprocess.run(_as_server_user([str(self.binaries / "pg_ctl"), "-D", str(self.data),
                                        "-m", "fast", "-w", "stop"]),
                       check=False, capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


_running: list[_Cluster] = []


def _cluster() -> _Cluster:
    if not _running:
        _running.append(_Cluster())
        atexit.register(_running[0].stop)
    return _running[0]


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database; drop it afterwards."""
    cluster = _cluster()
    name = cluster.create_database()
    try:
        yield (f"postgresql+psycopg://fairfight@/{name}?host={cluster.socket_dir}"
               f"&port={cluster.port}")
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
