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


def assert_refused(
    result: Any, codes: tuple[int, ...] = (1, 2), given: str = ""
) -> str:
    """The promise of the command line for bad input; returns the one stderr line.

    `given` is the bad text itself: a message may quote it back, so it is left out of the
    check for internal names.
    """
    shown = f"exit {result.exit_code}\nstdout: {result.stdout[-2000:]}\nstderr: {result.stderr}"
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert result.exit_code in codes, shown
    assert "Traceback" not in result.stdout + result.stderr, shown
    lines = result.stderr.splitlines()
    assert len(lines) == 1, shown
    message = lines[0]
    if given:  # the quoted-back value (possibly escaped) is the user's text, not ours
        message = message.replace(given, "").replace(repr(given)[1:-1], "")
    assert not INTERNAL.search(message), shown  # no requirement ids, no class names
    return str(lines[0])
