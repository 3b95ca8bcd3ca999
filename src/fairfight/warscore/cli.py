"""Command line of the warscore ruleset."""

from __future__ import annotations

import typer

app = typer.Typer(help="The warscore ruleset.", no_args_is_help=True, add_completion=False)
