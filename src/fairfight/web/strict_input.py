"""Strict reading of what a request carries: JSON bodies without coercion, whole numbers in
paths, queries and forms written in digits and within the database's integer range.

FastAPI validates a body in pydantic's lax Python mode, where `"1"`, `true` and `1.0` all
become the integer 1 and unknown fields pass unseen. `strict_json_body`, one dependency of the
whole app, validates every JSON body first in pydantic's strict JSON mode (strings stay text,
booleans stay booleans, `1.0` is not a whole number, enumerations are read from their JSON
values) with unknown fields forbidden, so the lax pass that follows sees only what the strict
one accepted. Routes that read their body themselves call `parse_json_body`.

A whole number in a path, a query or a form is text: `WholeNumber` and `whole_number` accept
ASCII digits with an optional leading minus and nothing else, and refuse anything outside a
signed 64-bit integer before it reaches `int()` or a query (a 5,000-digit id never does).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, BeforeValidator, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails
from starlette.convertors import Convertor, register_url_convertor

from fairfight.core.errors import InputError, shown_value
from fairfight.core.validation import MAX_DIGITS

__all__ = [
    "DATABASE_INTEGER_MAX",
    "DATABASE_INTEGER_MIN",
    "Digits",
    "Id",
    "IdConvertor",
    "MAX_PAGE",
    "MaybeWholeNumber",
    "WholeNumber",
    "given_value",
    "parse_json_body",
    "plain_rule",
    "strict_json_body",
    "whole_number",
]

DATABASE_INTEGER_MAX = 2**63 - 1
"""The largest integer SQLite and PostgreSQL (`bigint`) store."""
DATABASE_INTEGER_MIN = -(2**63)
"""The smallest integer they store."""

MAX_PAGE = 1_000_000
"""The highest page number any list takes: far past the last page of any real list, and small
enough that page times page size stays inside the database's integer range."""

_DIGITS = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
"""A whole number as text: ASCII digits only (no `+`, spaces, `_`, `1.0`, `1e3` or `٣`), as
many as any input takes, so a longer text is refused before `int()` ever sees it."""
_WHOLE_NUMBER_RULE = f"must be a whole number of 1 to {MAX_DIGITS} digits 0-9"

_PLAIN_RULES = {
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be text",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "extra_forbidden": "is not a field of this request",
    "missing": "is required",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
}
"""Pydantic's error types in the service's words; any other keeps pydantic's message."""


def plain_rule(error: ErrorDetails | dict[str, Any]) -> str:
    """The rule a pydantic error says was broken, in one line of plain words."""
    kind = str(error.get("type", ""))
    if kind in _PLAIN_RULES:
        return _PLAIN_RULES[kind]
    message = str(error.get("msg", "invalid value"))
    return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def given_value(error: ErrorDetails | dict[str, Any]) -> str | None:
    """The value a pydantic error was given, as a refusal quotes it; None when there is none
    to quote (a missing field, or a body that is not JSON at all: its bytes are no value)."""
    if error.get("type") == "missing" or "input" not in error:
        return None
    given = error["input"]
    return None if isinstance(given, (bytes, bytearray)) else shown_value(given)


def whole_number(field: str, text: str, low: int = DATABASE_INTEGER_MIN,
                 high: int = DATABASE_INTEGER_MAX) -> int:
    """A form, query or path field read as a whole number from `low` to `high`, or an
    InputError naming the field, the rule and the text given."""
    if not _DIGITS.fullmatch(text):
        raise InputError(field, _WHOLE_NUMBER_RULE, text)
    number = int(text)
    if not low <= number <= high:
        raise InputError(field, f"must be from {low} to {high}", text)
    return number


def _whole_number_text(low: int, high: int) -> Callable[[object], object]:
    """Before pydantic's own check of a path, query or form integer: text must be digits
    within `low`..`high` (an int default passes through the same bounds; None stays None)."""

    def check(value: object) -> object:
        if value is None:
            return None
        if isinstance(value, str) and _DIGITS.fullmatch(value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(_WHOLE_NUMBER_RULE)
        if not low <= value <= high:
            raise ValueError(f"must be from {low} to {high}")
        return value

    return check


Digits = BeforeValidator(_whole_number_text(DATABASE_INTEGER_MIN, DATABASE_INTEGER_MAX))
"""Metadata for `Annotated[int, Query(ge=..., le=...), Digits]` (or `Form`): the text must be
digits (a leading minus allowed) within a signed 64-bit integer before the bounds are checked.
Kept beside the `Query` rather than nested, so the OpenAPI document shows the bounds."""
WholeNumber = Annotated[int, Digits]
"""A query, path or form integer with no narrower bounds."""
MaybeWholeNumber = Annotated[int | None, Digits]
"""`WholeNumber`, or absent."""
Id = Annotated[int, BeforeValidator(_whole_number_text(0, DATABASE_INTEGER_MAX))]
"""An id, a seat or a turn number in a path or a query: digits only, 0 to the largest stored."""


class IdConvertor(Convertor[int]):
    """The `{name:id}` path convertor: 1 to `MAX_DIGITS` digits, so every match fits the
    database (a longer number matches no route: 404, never `int()` of thousands of digits)."""

    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("id", IdConvertor())

_Model = TypeVar("_Model", bound=BaseModel)
_adapters: dict[int, tuple[object, TypeAdapter[Any]]] = {}


def _validation_error(error: ValidationError, prefix: tuple[str, ...]) -> RequestValidationError:
    """pydantic's refusal as FastAPI's, located under `prefix` (rendered by the app's handler)."""
    details = [{**detail, "loc": (*prefix, *detail["loc"])} for detail in error.errors()]
    return RequestValidationError(details)


def parse_json_body(model: type[_Model], raw: bytes) -> _Model:
    """A body a route reads itself, validated strictly as `strict_json_body` does."""
    try:
        return model.model_validate_json(raw if raw.strip() else b"{}", strict=True,
                                         extra="forbid")
    except ValidationError as error:
        raise _validation_error(error, ("body",)) from None


def _body_adapter(request: Request) -> TypeAdapter[Any] | None:
    """The strict validator of the matched route's JSON body (None: it takes none, or a form)."""
    from fastapi import params

    route = request.scope.get("route")
    field = getattr(route, "body_field", None)
    if field is None or isinstance(field.field_info, (params.Form, params.File)):
        return None
    known = _adapters.get(id(field))
    if known is None:
        known = (field, TypeAdapter(field.field_info.annotation))
        _adapters[id(field)] = known
    return known[1]


async def strict_json_body(request: Request) -> None:
    """Refuse (422) a JSON body that only a coercing reader would accept: a wrong-typed value
    or an unknown field. A dependency of every route; one without a JSON body is untouched."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    adapter = _body_adapter(request)
    if adapter is None:
        return
    raw = await request.body()
    if not raw.strip():
        return
    try:
        adapter.validate_json(raw, strict=True, extra="forbid")
    except ValidationError as error:
        raise _validation_error(error, ("body",)) from None
