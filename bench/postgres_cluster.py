"""Throwaway PostgreSQL clusters: initdb in a temporary folder, a free port, a unix socket
beside it, removed when stopped. As root, the server runs as the `postgres` user (PostgreSQL
refuses to run as root). The benchmarks use `throwaway_cluster`; the tests keep one `Cluster`
for the whole run and give each module a database of its own (tests/web/postgres_cluster.py,
which finds the binaries, or skips, first)."""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.served import free_port

__all__ = ["Cluster", "postgres_binaries", "throwaway_cluster"]


def postgres_binaries() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl), or None without them."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_server_user(command: list[str]) -> list[str]:
    if os.getuid() != 0:
        return command
    runuser = shutil.which("runuser")
    return [runuser, "-u", "postgres", "--", *command] if runuser else [
        "su", "postgres", "-c", " ".join(command)]



class Cluster:
    """One server, started on creation; `stop` ends it and removes its folder, and only the
    process that started it does so (a forked child exiting must not stop its parent's)."""

    def __init__(self, binaries: Path, max_connections: int = 200) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="fairfight-pg-"))
        self.data, self.socket_dir = self.folder / "data", self.folder / "socket"
        self.socket_dir.mkdir()
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self.port = free_port()
        self.owner = os.getpid()
        self._names = itertools.count(1)
        self._max_connections = max_connections
        subprocess.run(_as_server_user([str(binaries / "initdb"), "-D", str(self.data),
                                        "-U", "fairfight", "--auth=trust", "-E", "UTF8",
                                        "--no-sync"]), check=True, capture_output=True)
        self.start()

    def start(self) -> None:
        """Start the server (again, after `halt`: the same port, socket and data)."""
        options = (f"-p {self.port} -k {self.socket_dir} -c listen_addresses='' -c fsync=off "
                   f"-c max_connections={self._max_connections}")
        self._pg_ctl("-o", options, "-w", "-l", str(self.folder / "log"), "start")

    def halt(self) -> None:
        """Stop the server at once, as a crash or an outage would (`start` brings it back)."""
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def _pg_ctl(self, *arguments: str, check: bool = True) -> None:
        subprocess.run(_as_server_user([str(self.binaries / "pg_ctl"), "-D", str(self.data),
                                        *arguments]), check=check, capture_output=True)

    def url(self, name: str) -> str:
        """The SQLAlchemy URL of database `name`."""
        return (f"postgresql+psycopg://fairfight@/{name}?host={self.socket_dir}"
                f"&port={self.port}")

    def _client(self, program: str, *arguments: str, check: bool = True) -> None:
        subprocess.run([str(self.binaries / program), "-h", str(self.socket_dir), "-p",
                        str(self.port), "-U", "fairfight", *arguments],
                       check=check, capture_output=True)

    def create_database(self, name: str | None = None) -> str:
        """A new, empty database (`name`, or the next `seasons_N`); its name."""
        name = name or f"seasons_{next(self._names)}"
        self._client("createdb", name)
        return name

    def drop_database(self, name: str) -> None:
        """Drop `name`, ending whatever connection was left open to it (a database left behind
        by a failed drop is harmless: the next one has another name)."""
        self._client("dropdb", "--force", name, check=False)

    def stop(self) -> None:
        if os.getpid() != self.owner:
            return
        self._pg_ctl("-m", "fast", "-w", "stop", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def throwaway_cluster(binaries: Path, max_connections: int = 200) -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database; remove everything afterwards."""
    cluster = Cluster(binaries, max_connections)
    try:
        yield cluster.url(cluster.create_database("seasons"))
    finally:
        cluster.stop()
