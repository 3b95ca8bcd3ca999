"""A worker of `fairfight serve --workers N` ends when its supervisor does.

uvicorn's supervisor starts the workers and stops them when it is asked to stop; when it is
killed outright (SIGKILL, the out-of-memory killer, a crash) nothing tells them, and they go
on serving, orphaned, holding the port and the database. The supervisor writes its process id
into the environment the workers inherit (`mark_supervisor`); each worker then watches for
the moment its parent is no longer that process (`watch_supervisor`): the kernel's
parent-death signal on Linux says so at once, and a thread comparing `os.getppid()` with it
every POLL_SECONDS says so everywhere else, or if the supervisor died before the worker asked
the kernel. Either way the worker stops as it would on SIGTERM (open requests get the graceful
time), and exits outright if that has not ended it soon after. Standard library only: the
supervisor imports this module and nothing of the app.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

__all__ = [
    "ORPHAN_EXIT_CODE",
    "POLL_SECONDS",
    "SUPERVISOR_PID_VARIABLE",
    "mark_supervisor",
    "watch_supervisor",
]

SUPERVISOR_PID_VARIABLE = "FAIRFIGHT_SUPERVISOR_PID"
"""The environment variable holding the supervisor's process id, for its workers."""
POLL_SECONDS = 0.5
"""How often a worker compares its parent with its supervisor."""
ORPHAN_EXIT_CODE = 70
"""The exit status of a worker that had to end itself after its graceful stop did not."""
_PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal the kernel sends this process when its parent dies."""


def mark_supervisor() -> None:
    """In the supervisor, before it starts workers: tell them whose children they are."""
    os.environ[SUPERVISOR_PID_VARIABLE] = str(os.getpid())


def _ask_kernel(sig: signal.Signals) -> None:
    """Linux: have the kernel send `sig` when the parent dies (best effort; the poll stays)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _watch(supervisor: int, grace_seconds: float) -> None:
    while os.getppid() == supervisor:
        time.sleep(POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)  # the server's own graceful stop
    time.sleep(grace_seconds)
    os._exit(ORPHAN_EXIT_CODE)  # the graceful stop did not end the process


def watch_supervisor(grace_seconds: float) -> bool:
    """In a worker: stop (SIGTERM, then exit after `grace_seconds`) once the supervisor named
    in the environment is no longer this process's parent. False when no supervisor is named
    (one process serving alone, or the app built outside `serve --workers N`)."""
    named = os.environ.get(SUPERVISOR_PID_VARIABLE, "")
    if not named.isdigit():
        return False
    _ask_kernel(signal.SIGTERM)
    watcher = threading.Thread(
        target=_watch, args=(int(named), grace_seconds), name="supervisor-watch", daemon=True
    )
    watcher.start()
    return True
