"""The `luck` verb of the ballot and clash command lines, made by one factory so the two read a
record, check it and answer the same way: a plain report, or one JSON value with `--json`.

A ruleset gives its report as `"module:function"`, a function from the record's path to the
report's text and its JSON; it is imported only when the verb runs, so `--help` stays fast. A
file that cannot be read is one line and exit 2, a record that does not replay exit 1.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from fairfight.console import console, emit_json, guarded

__all__ = ["LUCK_SUMMARY", "luck_command"]

LUCK_SUMMARY = ("How lucky each side was in a recorded game: every draw against its exact "
                "chance, the totals against their exact distribution.")
"""The verb's one-line help, the same in every ruleset."""

_Report = Callable[[Path], tuple[str, Any]]
"""A record's path -> (the report as text, the report as JSON)."""


def luck_command(app: typer.Typer, where: str) -> Callable[..., None]:
    """Register `<ruleset> luck RECORD [--json]` on `app` and return the command (guarded)."""
    module, _, name = where.partition(":")

    def luck(
        record: Path = typer.Argument(..., help="a game record (JSON Lines)"),
        as_json: bool = typer.Option(False, "--json", help="Machine output (JSON)."),
    ) -> None:
        report: _Report = getattr(importlib.import_module(module), name)
        text, data = report(record)
        if as_json:
            emit_json(data)
        else:
            console.print(text, markup=False)

    luck.__doc__ = LUCK_SUMMARY
    command = guarded(luck)
    app.command(name="luck")(command)
    return command
