"""Command line of the ballot ruleset."""

from __future__ import annotations

import typer

app = typer.Typer(help="The ballot ruleset.", no_args_is_help=True, add_completion=False)
