"""The few cases that need a real process: a named pipe that would block, memory held under
a hard limit, and Ctrl-C during long commands (exit 130, one line, no worker traceback).

The timeouts and limits are generous safety nets, not speed assertions.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fuzz.corpus import KINDS

SAFETY_SECONDS = 120
MEMORY_BYTES = 3 * 1024 * 1024 * 1024
ROOT = Path(__file__).resolve().parents[2]


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def fairfight(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fairfight", *map(str, args)], capture_output=True, text=True,
        timeout=SAFETY_SECONDS, preexec_fn=_limit_memory, check=False,
        env={**os.environ, "COLUMNS": "100"},
    )


def one_line_refusal(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize("kind", ["named-pipe", "billion-laughs", "deep-yaml", "deep-json",
                                  "over-size-cap"])
def test_hostile_files_under_a_memory_limit(kind: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    KINDS[kind](bad, b"")
    one_line_refusal(fairfight("warscore", "battle", bad))


def _group_size(pgid: int) -> int:
    """How many live processes share the process group `pgid` (the command and its workers)."""
    count = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            count += 1
    return count


def _interrupt(
    args: list[str], ready: Callable[[subprocess.Popen[str]], bool], tmp_path: Path
) -> tuple[int, str]:
    """Start the command, wait until `ready` says it is doing its long work, then press
    Ctrl-C for the whole process group, as a terminal does."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fairfight", *args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True,
    )
    deadline = time.monotonic() + SAFETY_SECONDS
    while not ready(process):
        assert process.poll() is None, "the command ended before it could be interrupted"
        assert time.monotonic() < deadline, "the command never started its long work"
        time.sleep(0.02)
    assert process.poll() is None, "the command ended before it could be interrupted"
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=SAFETY_SECONDS)
    return process.returncode, stderr


def _workers_running(process: subprocess.Popen[str]) -> bool:
    return _group_size(process.pid) >= 3  # the command and its two workers


def _first_battle_printed(process: subprocess.Popen[str]) -> bool:
    assert process.stdout is not None
    return bool(process.stdout.readline())


def test_ctrl_c_during_a_parallel_sweep(tmp_path: Path) -> None:
    code, stderr = _interrupt(["clash", "sweep", "--full", "--jobs", "2"], _workers_running,
                              tmp_path)
    assert code == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == "interrupted"
    assert stderr.count("interrupted") == 1


def test_ctrl_c_during_a_whole_season(tmp_path: Path) -> None:
    season = tmp_path / "s.db"
    assert fairfight("conquest", "new", season).returncode == 0
    code, stderr = _interrupt(["conquest", "next", str(season), "--to-end"],
                              _first_battle_printed, tmp_path)
    assert code == 130, stderr
    assert stderr.strip().splitlines() == ["interrupted"]


def test_ctrl_c_during_a_parallel_forecast(tmp_path: Path) -> None:
    """Ten million seasons would take minutes: Ctrl-C must cancel the queued chunks and stop
    the workers, not wait for the batch (the safety timeout would end the test first)."""
    season = tmp_path / "s.db"
    assert fairfight("conquest", "new", season).returncode == 0
    code, stderr = _interrupt(
        ["conquest", "forecast", str(season), "--seasons", "10000000", "--jobs", "2"],
        _workers_running, tmp_path,
    )
    assert code == 130, stderr
    assert stderr.strip().splitlines() == ["interrupted"]
