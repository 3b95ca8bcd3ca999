"""A throwaway PostgreSQL server the outage tests can stop and start again on the same port
(the shared `tests.web.postgres_cluster` only starts one for the whole test)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.system import postgres_bin
from tests.web.conquest_support import free_port
from tests.web.postgres_cluster import _sweep_unclosed_connections


class StoppableServer:
    """A PostgreSQL cluster in a temporary folder, with its database `seasons`."""

    def __init__(self) -> None:
        self.binaries = Path(postgres_bin())
        self.folder = Path(tempfile.mkdtemp(prefix="fairfight-pg-outage-"))
        self.data, self.socket_dir = self.folder / "data", self.folder / "socket"
        self.socket_dir.mkdir()
        if os.getuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self.port = free_port()
        self.url = (f"postgresql+psycopg://fairfight@/seasons?host={self.socket_dir}"
                    f"&port={self.port}")

    def _as_server_user(self, command: list[str]) -> list[str]:
        runuser = shutil.which("runuser")
        if os.getuid() != 0 or runuser is None:
            return command
        return [runuser, "-u", "postgres", "--", *command]

    def _pg_ctl(self, *arguments: str) -> None:
        subprocess.run(self._as_server_user([str(self.binaries / "pg_ctl"), "-D",
                                             str(self.data), *arguments]),
                       check=True, capture_output=True)

    def create(self) -> None:
        subprocess.run(self._as_server_user([
            str(self.binaries / "initdb"), "-D", str(self.data), "-U", "fairfight",
            "--auth=trust", "-E", "UTF8", "--no-sync"]), check=True, capture_output=True)
        self.start()
        subprocess.run([str(self.binaries / "createdb"), "-h", str(self.socket_dir), "-p",
                        str(self.port), "-U", "fairfight", "seasons"],
                       check=True, capture_output=True)

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.socket_dir} -c listen_addresses='' "
                   "-c fsync=off")
        self._pg_ctl("-o", options, "-w", "-l", str(self.folder / "log"), "start")

    def stop(self) -> None:
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        _sweep_unclosed_connections()
        subprocess.run(self._as_server_user([str(self.binaries / "pg_ctl"), "-D",
                                             str(self.data), "-m", "immediate", "-w", "stop"]),
                       check=False, capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def stoppable_postgres() -> Iterator[StoppableServer]:
    """A running server; stopped and removed afterwards, whatever state the test left it in."""
    server = StoppableServer()
    try:
        server.create()
        yield server
    finally:
        server.remove()
