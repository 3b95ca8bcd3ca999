"""Plain data into pydantic models, with the first problem as one InputError naming its field.

Every reader of files and request bodies (command line, web, rulesets) validates through
here, so a refusal reads the same wherever it happens. Only pydantic is imported, and only
when a model is validated, so a ruleset that imports this stays light.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

from fairfight.core.errors import InputError

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

__all__ = [
    "MAX_DIGITS",
    "field_path",
    "input_error_from_validation",
    "is_plain_digits",
    "parse_model",
    "plain_integer",
]

MAX_DIGITS = 18
"""Longest whole number any text input takes: every value fits a 64-bit signed integer (and
SQLite), and no input ever reaches Python's 4,300-digit conversion limit."""

_PLAIN_DIGITS = re.compile(r"[0-9]+", re.ASCII)

_M = TypeVar("_M", bound="BaseModel")

_NOISE = ("Value error, ", "Assertion failed, ")
"""Prefixes pydantic puts before a validator's own message; the message alone is clearer."""

_NOT_AN_OBJECT = ("model_type", "model_attributes_type", "dict_type")


def field_path(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a dotted field path: `defender.troops`, `units[2]`."""
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
    field = field_path(tuple(first["loc"]))
    if prefix:
        field = f"{prefix}.{field}" if field != "input" else prefix
    message = str(first["msg"])
    if first["type"] in _NOT_AN_OBJECT:
        message = "must be an object (a mapping of named fields)"
    for noise in _NOISE:
        message = message.removeprefix(noise)
    return InputError(field, message)


def parse_model(model: type[_M], data: Any, prefix: str = "") -> _M:
    """Validate plain data into a pydantic model, raising InputError on the first problem."""
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise input_error_from_validation(error, prefix) from None


def is_plain_digits(text: object, max_digits: int = MAX_DIGITS) -> bool:
    """Whether `text` is 1 to `max_digits` ASCII digits and nothing else.

    `str.isdigit` also says yes to `²`, `٣` or `１`, which `int()` then refuses or reads as a
    number nobody typed; every check of user text for digits goes through here instead.
    """
    return (isinstance(text, str) and 0 < len(text) <= max_digits
            and _PLAIN_DIGITS.fullmatch(text) is not None)


def plain_integer(text: str, field: str, *, max_digits: int = MAX_DIGITS,
                  signed: bool = False) -> int:
    """A whole number written as ASCII digits (a leading `-` if `signed`), or an InputError
    naming the field: one home for the rule, so the command line and the web refuse alike."""
    digits = text[1:] if signed and text.startswith("-") else text
    if not is_plain_digits(digits, max_digits):
        shown = text if len(text) <= 24 else f"{text[:24]}..."
        raise InputError(
            field, f"{shown!r} is not a whole number: write 1 to {max_digits} digits 0-9")
    return int(text)
