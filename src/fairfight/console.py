"""Edge helpers shared by the command lines: printing, rules pages and reporting errors.

Every command runs under `guarded`, so bad input prints one red line and exits 2, a failed
verification exits 1, and no traceback ever reaches the user.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from fairfight.clitypes import click_errors
from fairfight.core.errors import InputError, VerificationError
from fairfight.plainwords import without_references

__all__ = [
    "DEBUG_ENV",
    "EXIT_BAD_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_VERIFICATION_FAILED",
    "PAGE_FORMATS",
    "PAGE_FORMAT_HELP",
    "RESEND_SECONDS",
    "console",
    "emit_json",
    "error_console",
    "guarded",
    "keep_interrupts",
    "report_unexpected",
    "say_error",
    "show_page",
]

console = Console(highlight=False, soft_wrap=True)
error_console = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_VERIFICATION_FAILED = 1
EXIT_BAD_INPUT = 2

_P = ParamSpec("_P")
_R = TypeVar("_R")


DEBUG_ENV = "FAIRFIGHT_DEBUG"
"""Set to 1 to let an unexpected error show its traceback (for developers)."""
EXIT_INTERRUPTED = 130
RESEND_SECONDS = 0.05
"""How soon a Ctrl-C that Python swallowed in a callback is sent again."""


def say_error(line: str) -> None:
    """Print one red line on stderr, whatever characters it holds (no requirement ids)."""
    plain = " ".join(without_references(line).split())
    error_console.print(plain, style="bold red", markup=False)


def report_unexpected(error: BaseException) -> int:
    """One line for an error no rule anticipated; returns the exit code to use.

    The environment's own refusals (a full disk, memory, a closed pipe) are said plainly;
    anything else is a defect of ours, reported without internal names.
    """
    if os.environ.get(DEBUG_ENV) == "1":
        raise error
    if isinstance(error, KeyboardInterrupt):
        say_error("interrupted")
        return EXIT_INTERRUPTED
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        say_error(f"Error: {where}{error.strerror or 'input/output error'}")
    elif isinstance(error, MemoryError):
        say_error("Error: out of memory")
    elif isinstance(error, RecursionError):
        say_error("Error: the input is nested too deeply")
    else:
        detail = " ".join(str(error).split())[:160]
        say_error(f"Error: unexpected failure ({detail or 'no detail'}); "
                  f"rerun with {DEBUG_ENV}=1 to see where")
    return EXIT_BAD_INPUT


def keep_interrupts() -> None:
    """Make sure Ctrl-C is never lost.

    Python raises KeyboardInterrupt wherever the signal lands. When that is inside a
    garbage-collector callback or a finaliser, Python prints "Exception ignored in ..." with a
    traceback and carries on, so the command runs to its end. The interrupt is sent to the
    main thread again instead, a moment later (RESEND_SECONDS), when the callback has
    returned: it lands at the next step of the command itself.
    """
    previous = sys.unraisablehook
    main = threading.main_thread()

    def send_again() -> None:
        if main.ident is not None:
            signal.pthread_kill(main.ident, signal.SIGINT)

    def resend(unraisable: Any) -> None:
        if unraisable.exc_type is KeyboardInterrupt:
            resender = threading.Timer(RESEND_SECONDS, send_again)
            resender.daemon = True
            resender.start()
            return
        previous(unraisable)

    sys.unraisablehook = resend


def guarded(command: Callable[_P, _R]) -> Callable[_P, _R]:
    """Turn InputError into exit 2 and VerificationError into exit 1, each as one line.

    Ctrl-C exits 130 with one line; any other failure is one line and exit 2 (never a
    traceback, unless FAIRFIGHT_DEBUG=1).
    """

    @functools.wraps(command)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return command(*args, **kwargs)
        except InputError as error:
            say_error(error.one_line())
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except VerificationError as error:
            say_error(f"VerificationError: {error}")
            raise typer.Exit(EXIT_VERIFICATION_FAILED) from None
        except (typer.Exit, click_errors.ClickException, BrokenPipeError):
            raise
        except (Exception, KeyboardInterrupt) as error:
            raise typer.Exit(report_unexpected(error)) from None

    return run


def emit_json(value: Any) -> None:
    """Print one JSON value on one line: the single style of every `--json` output.

    Keys sorted, no spaces, UTF-8 as is; commands that stream (one value per battle) so
    produce JSON Lines.
    """
    import json

    typer.echo(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


PAGE_FORMATS = ("auto", "terminal", "markdown")
PAGE_FORMAT_HELP = ("auto (rendered in a terminal, raw Markdown when piped), terminal "
                    "(always rendered) or markdown (the raw page).")


def show_page(page: str, ruleset: str, page_format: str, as_json: bool) -> None:
    """A rules page: rendered for the terminal, raw Markdown, or JSON."""
    if page_format not in PAGE_FORMATS:
        raise InputError("--format", f"must be one of {', '.join(PAGE_FORMATS)}")
    if as_json and page_format != "auto":
        raise InputError("--json", f"conflicts with --format {page_format}; give one of the two")
    if as_json:
        emit_json({"ruleset": ruleset, "format": "markdown", "page": page})
    elif page_format == "markdown" or (page_format == "auto" and not console.is_terminal):
        typer.echo(page, nl=False)
    else:
        from rich.markdown import Markdown

        console.print(Markdown(page))
