"""`ballot simulate` at the terminal: strict seats, a table that fits 80 columns, an ETA,
and Ctrl-C that stops every process with one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from fairfight.cli import app

runner = CliRunner()
TERMINAL_WIDTH = 80


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["ballot", *args])


def test_players_refuses_an_empty_seat() -> None:
    for players, seat in (("pollster,,machine", 1), ("pollster,machine,", 2), (",machine", 0)):
        result = run("simulate", "--games", "1", "--players", players)
        assert result.exit_code == 2, players
        lines = result.output.strip().splitlines()
        assert lines == [
            f"InputError: players[{seat}]: this seat is empty; name a bot for every seat"
        ]
        assert run("play", "--players", players, "--years", "1").exit_code == 2


def test_metrics_tables_fit_80_columns_for_every_mode() -> None:
    result = run("simulate", "--games", "1", "--victory", "all")
    assert result.exit_code == 0
    widths = [len(line) for line in result.stdout.splitlines()]
    assert max(widths) <= TERMINAL_WIDTH
    for mode in ("points", "bills", "two-terms", "three-terms", "parallel", "amendment"):
        assert f" {mode} " in result.stdout
    assert "mean final score: machine" in result.stdout
    assert "mean final score: pollster" in result.stdout


def test_progress_line_shows_an_eta() -> None:
    """Rendered on a terminal of 80 columns, the progress line carries the time remaining."""
    from rich.console import Console

    from fairfight.ballot import cli

    console = Console(force_terminal=True, width=TERMINAL_WIDTH, record=True)
    original = cli.console
    cli.console = console
    try:
        result = run("simulate", "--games", "2", "--victory", "points")
    finally:
        cli.console = original
    assert result.exit_code == 0
    frames = ["games" + frame for frame in console.export_text().split("games")[1:]]
    progress = [frame.split("\n")[0] for frame in frames if " ETA " in frame]
    assert progress and all(len(frame) <= TERMINAL_WIDTH for frame in progress)
    assert progress[-1].endswith("2/2 ETA 0:00:00")


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    found: list[int] = []
    for task in tasks.iterdir() if tasks.exists() else []:
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def test_ctrl_c_during_simulate_exits_130_with_one_line() -> None:
    """Ctrl-C at a terminal reaches the whole process group, workers included."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fairfight", "ballot", "simulate", "--games", "60", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "COLUMNS": "80"},
    )
    while len(_children(process.pid)) < 2 and process.poll() is None:
        os.sched_yield()
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=600)
    assert process.returncode == 130
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines() == ["interrupted"]


def test_integer_options_take_plain_digits_only() -> None:
    for option in ("--games", "--jobs", "--seed-base"):
        for value in ("10.0", "+10", "6_17"):
            result = run("simulate", option, value)
            assert result.exit_code == 2, (option, value)
            lines = result.output.strip().splitlines()
            assert len(lines) == 1 and "not a whole number" in lines[0], lines
            assert "Traceback" not in result.output
