"""Shared runners for the fuzz suite: every refusal is an exit code, one line, no traceback."""

from __future__ import annotations

import re
from typing import Any

from typer.testing import CliRunner

from fairfight.cli import app

__all__ = ["assert_refused", "invoke"]

RUNNER = CliRunner()
INTERNAL = re.compile(
    r"CB-\d|§|\b(?:ClashSpec|Combatant|ConquestMap|BattleInput|WarInput|RecordHeader|"
    r"RecordReveal|BaseModel|NoneType|dict\[|list\[)\b"
)


def invoke(*args: Any) -> Any:
    """Run `fairfight ARGS...` in process through the root command."""
    return RUNNER.invoke(app, [str(arg) for arg in args])


def assert_refused(result: Any, codes: tuple[int, ...] = (1, 2)) -> str:
    """The promise of the command line for bad input; returns the one stderr line."""
    shown = f"exit {result.exit_code}\nstdout: {result.stdout[-2000:]}\nstderr: {result.stderr}"
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert result.exit_code in codes, shown
    assert "Traceback" not in result.stdout + result.stderr, shown
    lines = result.stderr.splitlines()
    assert len(lines) == 1, shown
    assert not INTERNAL.search(lines[0]), shown  # no requirement ids, no class names
    return str(lines[0])
