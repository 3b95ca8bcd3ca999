"""A throwaway PostgreSQL cluster: initdb in a temporary folder, a free port, a unix socket
beside it, removed afterwards. As root, the server runs as the `postgres` user (PostgreSQL
refuses to run as root). The benchmarks use it directly; the tests reach it through
tests/web/postgres_cluster.py, which finds the binaries (or skips) first."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["postgres_binaries", "throwaway_cluster"]


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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def throwaway_cluster(binaries: Path, max_connections: int = 200) -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database; remove everything afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="fairfight-pg-"))
    data, socket_dir = folder / "data", folder / "socket"
    socket_dir.mkdir()
    if os.getuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(socket_dir, "postgres", "postgres")
    port = _free_port()
    run = {"check": True, "capture_output": True}
    subprocess.run(_as_server_user([str(binaries / "initdb"), "-D", str(data), "-U", "fairfight",
                                    "--auth=trust", "-E", "UTF8", "--no-sync"]), **run)
    options = (f"-p {port} -k {socket_dir} -c listen_addresses='' -c fsync=off "
               f"-c max_connections={max_connections}")
    subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-o", options,
                                    "-w", "-l", str(folder / "log"), "start"]), **run)
    try:
        subprocess.run([str(binaries / "createdb"), "-h", str(socket_dir), "-p", str(port),
                        "-U", "fairfight", "seasons"], **run)
        yield f"postgresql+psycopg://fairfight@/seasons?host={socket_dir}&port={port}"
    finally:
        subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast",
                                        "-w", "stop"]), check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
