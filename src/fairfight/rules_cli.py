"""The `rules` verb of every ruleset's command line, made by one factory so the four cannot
drift apart: the rules page rendered for the terminal, as raw Markdown, or as JSON.

A ruleset gives where its page comes from: `"module:function"` (imported only when the verb
runs, so `--help` stays fast), or a function whose own parameters, typer options, become the
verb's options before `--format` and `--json` (ballot's `--config` and `--victory`).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import typer

from fairfight.console import PAGE_FORMAT_HELP, guarded, show_page

__all__ = ["RULES_SUMMARY", "rules_command"]

RULES_SUMMARY = "Print the rules page, every number computed from the ruleset's tables."
"""The verb's one-line help, the same in every ruleset."""

_SHARED_OPTIONS = (
    inspect.Parameter(
        "page_format",
        inspect.Parameter.KEYWORD_ONLY,
        default=typer.Option("auto", "--format", help=PAGE_FORMAT_HELP),
        annotation=str,
    ),
    inspect.Parameter(
        "as_json",
        inspect.Parameter.KEYWORD_ONLY,
        default=typer.Option(False, "--json", help="Machine output (JSON)."),
        annotation=bool,
    ),
)


def _imported_when_run(where: str) -> Callable[[], str]:
    module, _, name = where.partition(":")

    def build() -> str:
        page: Callable[[], str] = getattr(importlib.import_module(module), name)
        return page()

    return build


def rules_command(
    app: typer.Typer, ruleset: str, page: str | Callable[..., str]
) -> Callable[..., None]:
    """Register `<ruleset> rules` on `app` and return the command (guarded: a bad option is
    one line and exit 2)."""
    build = _imported_when_run(page) if isinstance(page, str) else page
    own = inspect.signature(build, eval_str=True).parameters.values()
    parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]

    def rules(**options: Any) -> None:
        page_format = options.pop("page_format")
        as_json = options.pop("as_json")
        show_page(build(**options), ruleset, page_format, as_json)

    rules.__dict__["__signature__"] = inspect.Signature([*parameters, *_SHARED_OPTIONS])
    rules.__doc__ = RULES_SUMMARY
    command = guarded(rules)
    app.command(name="rules")(command)
    return command
