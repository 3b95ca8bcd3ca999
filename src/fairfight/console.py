"""Edge helpers shared by the command lines: reading files into models and reporting errors.

Every command runs under `guarded`, so bad input prints one red line and exits 2, a failed
verification exits 1, and no traceback ever reaches the user.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from pydantic import BaseModel, ValidationError
from rich.console import Console

from fairfight import inputs
from fairfight.core.errors import InputError, VerificationError

__all__ = [
    "console",
    "error_console",
    "guarded",
    "input_error_from_validation",
    "load_json_file",
    "load_yaml_file",
    "parse_model",
]

console = Console(highlight=False, soft_wrap=True)
error_console = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_VERIFICATION_FAILED = 1
EXIT_BAD_INPUT = 2

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """Turn InputError into exit 2 and VerificationError into exit 1, each as one line."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except InputError as error:
            error_console.print(error.one_line(), style="bold red", markup=False)
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except VerificationError as error:
            error_console.print(f"VerificationError: {error}", style="bold red", markup=False)
            raise typer.Exit(EXIT_VERIFICATION_FAILED) from None

    return run


def _location(loc: tuple[int | str, ...]) -> str:
    """Render a pydantic error location as a dotted field path: `defender.troops`, `units[2]`."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "input"


def input_error_from_validation(error: ValidationError, prefix: str = "") -> InputError:
    """The first problem pydantic found, as an InputError naming the field."""
    first = error.errors()[0]
    field = _location(tuple(first["loc"]))
    if prefix:
        field = f"{prefix}.{field}" if field != "input" else prefix
    message = str(first["msg"])
    for noise in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(noise)
    return InputError(field, message)


def parse_model(model: type[M], data: Any, prefix: str = "") -> M:
    """Validate plain data into a pydantic model, raising InputError on the first problem."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise input_error_from_validation(error, prefix) from None


def load_yaml_file(path: Path) -> Any:
    """Parse a YAML file safely (see `fairfight.inputs`); every problem is an InputError."""
    return inputs.load_yaml(path)


def load_json_file(path: Path) -> Any:
    """Parse a JSON file safely (see `fairfight.inputs`); every problem is an InputError."""
    return inputs.load_json(path)
