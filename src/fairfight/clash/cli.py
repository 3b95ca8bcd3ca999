"""Command line of the clash ruleset."""

from __future__ import annotations

import typer

app = typer.Typer(help="The clash ruleset.", no_args_is_help=True, add_completion=False)
