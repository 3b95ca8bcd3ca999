"""A throwaway PostgreSQL cluster for the tests: initdb in a temp folder, a free port, a unix
socket beside it; started once per session and stopped at the end. As root, the server runs
as the `postgres` user (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import gc
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


def _as_server_user(command: list[str]) -> list[str]:
    if os.getuid() != 0:
        return command
    runuser = shutil.which("runuser")
    return [runuser, "-u", "postgres", "--", *command] if runuser else [
        "su", "postgres", "-c", " ".join(command)]


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Yield a SQLAlchemy URL of a fresh, empty database; remove everything afterwards."""
    binaries = Path(postgres_bin())
    folder = Path(tempfile.mkdtemp(prefix="fairfight-pg-"))
    data, socket_dir = folder / "data", folder / "socket"
    socket_dir.mkdir()
    if os.getuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(socket_dir, "postgres", "postgres")
    port = free_port()
    run = {"check": True, "capture_output": True}
    subprocess.run(_as_server_user([str(binaries / "initdb"), "-D", str(data), "-U", "fairfight",
                                    "--auth=trust", "-E", "UTF8", "--no-sync"]), **run)
    options = (f"-p {port} -k {socket_dir} -c listen_addresses='' -c fsync=off "
               "-c max_connections=200")
    subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-o", options,
                                    "-w", "-l", str(folder / "log"), "start"]), **run)
    try:
        subprocess.run([str(binaries / "createdb"), "-h", str(socket_dir), "-p", str(port),
                        "-U", "fairfight", "seasons"], **run)
        yield f"postgresql+psycopg://fairfight@/seasons?host={socket_dir}&port={port}"
    finally:
        _sweep_unclosed_connections()
        subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast",
                                        "-w", "stop"]), check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def _sweep_unclosed_connections() -> None:
    """Collect, before the server stops, connections left in reference cycles.

    A service torn down mid-request can leave a pooled psycopg connection in a cycle; the
    garbage collector would otherwise close it during some later, unrelated test, whose
    warnings-as-errors setting then fails that test instead.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
