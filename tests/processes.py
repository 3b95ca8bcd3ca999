"""The processes the test run started, read from /proc: none may outlive the run.

The run makes itself a child subreaper (Linux): a process whose parent dies while the run
goes on (a uvicorn worker whose supervisor was killed, a server a helper started and left)
is handed to the run instead of to init, so it is still found among the run's children at
the end. Things the whole run shares (the PostgreSQL cluster) register how to stop them with
`at_session_end`; `tests/conftest.py` stops them, then lists every child still alive, fails
the run naming them, and ends them.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "GRACE_SECONDS",
    "alive",
    "at_session_end",
    "become_subreaper",
    "children_of",
    "described",
    "end_left_behind",
    "left_behind",
    "reap",
    "run_session_end",
]

GRACE_SECONDS = float(os.environ.get("FAIRFIGHT_TEST_LEFT_BEHIND_GRACE", "10"))
"""How long children still ending when the run ends (a server asked to stop by the last
test's teardown) are given before they count as left behind (the check's own test sets it
short through the environment)."""
_PR_SET_CHILD_SUBREAPER = 36
_PROC = Path("/proc")
_session_end: list[Callable[[], None]] = []


def at_session_end(stop: Callable[[], None]) -> None:
    """Run `stop` when the run ends, before the check for processes left behind."""
    _session_end.append(stop)


def run_session_end() -> None:
    """Stop what the run shared, last registered first."""
    while _session_end:
        _session_end.pop()()


def become_subreaper() -> bool:
    """Linux: orphaned descendants of this process become its children (see the module)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        return (_PROC / str(pid) / "stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    """Running or sleeping: neither gone nor a zombie waiting to be reaped."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def children_of(pid: int) -> list[int]:
    """The live children of `pid`, in pid order (empty where there is no /proc)."""
    if not _PROC.is_dir():
        return []
    found = []
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return sorted(found)


def described(pid: int) -> str:
    """`PID: command line` (cut short), for a report."""
    try:
        words = (_PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"{pid}: (gone)"
    command = " ".join(w.decode(errors="replace") for w in words if w)
    return f"{pid}: {command[:160]}"


def left_behind(grace_seconds: float = GRACE_SECONDS) -> list[int]:
    """This process's children still alive once `grace_seconds` have passed without their
    number going down to none."""
    give_up = time.monotonic() + grace_seconds
    while (children := children_of(os.getpid())) and time.monotonic() < give_up:
        time.sleep(0.1)
    return children


def end_left_behind(pids: list[int]) -> None:
    """SIGKILL each and reap it, so a failed run leaves nothing running either."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def reap(pids: list[int] | set[int]) -> None:
    """Reap those of `pids` that ended as this run's (adopted) children; others are not ours."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
