"""Strict integer options for every command line, and the click errors typer raises.

Typer coerces option values leniently: `+10`, `6_17` or ` 10` become integers. A count, a
draw or a year on our command lines is written as plain digits (a minus sign where negatives
make sense), so anything else is refused with one line naming the option.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin

import typer
from typer._click import exceptions as click_errors  # typer runs on its own copy of click
from typer._coercion import RuntimeParam, build_runtime_param

from fairfight.core.validation import MAX_DIGITS, is_plain_digits
from fairfight.plainwords import without_references

__all__ = ["MAX_DIGITS", "click_errors", "integer_annotation", "lazy_flag", "strict_integers"]



def integer_annotation(annotation: Any) -> bool:
    """Whether a parameter is declared `int` or `int | None` (never `bool`)."""
    if annotation is int:
        return True
    if get_origin(annotation) in (Union, types.UnionType):
        return int in get_args(annotation)
    return False


def _check_plain(value: Any, param: Any, ctx: Any) -> None:
    for item in value if isinstance(value, list | tuple) else (value,):
        if not isinstance(item, str):
            continue
        if not is_plain_digits(item.removeprefix("-"), max_digits=len(item) or 1):
            raise typer.BadParameter(
                f"{item[:40]!r} is not a whole number (write plain digits, like 10)",
                ctx=ctx, param=param)
        if len(item.lstrip("-")) > MAX_DIGITS:
            raise typer.BadParameter(f"{item[:24]}... has more than {MAX_DIGITS} digits",
                                     ctx=ctx, param=param)


def _strict(param: Any) -> None:
    original = param.process_value

    def process_value(ctx: Any, value: Any) -> Any:
        _check_plain(value, param, ctx)
        return original(ctx, value)

    param.process_value = process_value


class _LazyFlag(RuntimeParam):
    """A yes/no flag's coercion, built only for a value that is neither absent nor a bool.

    Typer builds a parameter's coercion (a pydantic adapter) the first time the parameter is
    processed unless its value is already a bool; an absent flag of a group (`--version`,
    the completion flags) is None, so every `fairfight <ruleset> --help` loaded pydantic, a
    third of its start-up, for values that need no coercion at all."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        built = build_runtime_param(param.type_descriptor)
        param._runtime_param = built
        return built._coerce_value(value, param=param, ctx=ctx)


def lazy_flag(param: Any) -> None:
    """Give a yes/no flag a `_LazyFlag` coercion unless it has one already."""
    descriptor = getattr(param, "type_descriptor", None)
    if (descriptor is not None and descriptor.annotation is bool
            and getattr(param, "_runtime_param", ()) is None):
        param._runtime_param = _LazyFlag(parameter_info=descriptor.parameter_info,
                                         annotation=bool)


def strict_integers(command: Any) -> None:
    """Make every integer parameter of a command (and its subcommands) take plain digits,
    give every yes/no flag a coercion built on first need (`_LazyFlag`), and take
    requirement numbers out of every help text."""
    for attribute in ("help", "short_help"):
        if getattr(command, attribute, None):
            setattr(command, attribute, without_references(getattr(command, attribute)))
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = without_references(param.help)
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and integer_annotation(descriptor.annotation):
            _strict(param)
        lazy_flag(param)
    for child in getattr(command, "commands", {}).values():
        strict_integers(child)
