"""Command line of the conquest ruleset."""

from __future__ import annotations

import typer

app = typer.Typer(help="The conquest ruleset.", no_args_is_help=True, add_completion=False)
