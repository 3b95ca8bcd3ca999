"""`fairfight.web.supervision` on its own: a process watching its supervisor stops when the
supervisor is killed outright, by the poll alone (the kernel's parent-death signal turned off
here), first with SIGTERM and, if that does not end it, by exiting itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fairfight.web import supervision
from tests import processes

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

SOURCE = Path(supervision.__file__).resolve().parents[2]
SUPERVISOR = """
import os, subprocess, sys
os.environ[sys.argv[1]] = str(os.getpid())
worker = subprocess.Popen([sys.executable, "-c", sys.argv[2], *sys.argv[3:]])
print(worker.pid, flush=True)
worker.wait()
"""
"""Starts the watching worker, says its pid, and waits (to be killed by the test)."""
WORKER = """
import signal, sys, time
from fairfight.web import supervision
supervision._ask_kernel = lambda sig: None  # the poll alone
mark, answer = sys.argv[1], sys.argv[2]
def stop(sig, frame):
    open(mark, "w").write("asked to stop")
    if answer == "stops":
        sys.exit(0)
signal.signal(signal.SIGTERM, stop)
assert supervision.watch_supervisor(grace_seconds=1.0)
open(mark + ".watching", "w").close()
while True:
    time.sleep(0.05)
"""
"""Watches its supervisor; on SIGTERM notes it, then stops or (`ignores`) carries on."""


def _orphaned_worker(tmp_path: Path, answer: str) -> tuple[int, Path]:
    """Start a supervisor and its watching worker, SIGKILL the supervisor; the worker's pid."""
    mark = tmp_path / "mark"
    supervisor = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, supervision.SUPERVISOR_PID_VARIABLE, WORKER,
         str(mark), answer],
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(SOURCE)})
    assert supervisor.stdout is not None
    worker = int(supervisor.stdout.readline())
    supervisor.stdout.close()
    give_up = time.monotonic() + 60  # the worker's interpreter starting on a busy machine
    while not mark.with_suffix(".watching").exists() and time.monotonic() < give_up:
        time.sleep(0.05)
    supervisor.send_signal(signal.SIGKILL)
    supervisor.wait()
    give_up = time.monotonic() + 60  # only so a broken watch cannot hang the suite
    while processes.alive(worker) and time.monotonic() < give_up:
        time.sleep(0.05)
    return worker, mark


def test_an_orphan_is_asked_to_stop_and_stops(tmp_path: Path) -> None:
    worker, mark = _orphaned_worker(tmp_path, "stops")
    assert not processes.alive(worker), processes.described(worker)
    assert mark.read_text() == "asked to stop"
    processes.reap([worker])


def test_an_orphan_that_does_not_stop_when_asked_ends_itself(tmp_path: Path) -> None:
    worker, mark = _orphaned_worker(tmp_path, "ignores")
    assert not processes.alive(worker), processes.described(worker)
    assert mark.read_text() == "asked to stop"
    if processes.become_subreaper():  # adopted by the run: its status can be read
        _, status = os.waitpid(worker, 0)
        assert os.waitstatus_to_exitcode(status) == supervision.ORPHAN_EXIT_CODE


def test_without_a_supervisor_named_nothing_is_watched(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(supervision.SUPERVISOR_PID_VARIABLE, raising=False)
    assert supervision.watch_supervisor(1.0) is False
