"""The run's check for processes left behind, on a run of its own: an orphaned grandchild
(adopted by the run) fails the run, named, and is ended; what the run shares and stops at its
end through `processes.at_session_end` is stopped before the check and not named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import processes

ROOT = Path(__file__).resolve().parents[1]
LEAKY = '''
import subprocess
from tests import processes

shared = subprocess.Popen(["sleep", "601"])


def stop_shared():
    shared.kill()
    shared.wait()


processes.at_session_end(stop_shared)


def test_leaves_an_orphan(tmp_path):
    subprocess.run(["sh", "-c", "sleep 602 & echo $! > {pid_file}"], check=True)
'''


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["one-process", "xdist-worker"])
def test_a_process_left_behind_fails_the_run_named_and_is_ended(
        tmp_path: Path, workers: list[str]) -> None:
    """`make test` runs the suite under pytest-xdist: a worker's orphan fails the run too."""
    pid_file = tmp_path / "orphan.pid"
    test_file = tmp_path / "test_leaky.py"
    test_file.write_text(LEAKY.format(pid_file=pid_file), encoding="utf-8")
    environment = {**os.environ, "FAIRFIGHT_TEST_LEFT_BEHIND_GRACE": "0.5",
                   "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
         *workers, str(test_file)], cwd=ROOT, capture_output=True, text=True, env=environment,
        check=False, timeout=300)
    orphan = int(pid_file.read_text())
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    assert "processes started by the tests were still running at the end:" in run.stdout
    assert f"{orphan}: sleep 602" in run.stdout
    assert "sleep 601" not in run.stdout  # stopped at the session's end, before the check
    assert not processes.alive(orphan)
