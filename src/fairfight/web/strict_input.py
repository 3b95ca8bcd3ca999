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
from typing import Annotated, Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, BeforeValidator, Field, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails
from starlette.convertors import Convertor, register_url_convertor

from fairfight.core.errors import InputError

__all__ = [
    "DATABASE_INTEGER_MAX",
    "DATABASE_INTEGER_MIN",
    "Id",
    "IdConvertor",
    "WholeNumber",
    "parse_json_body",
    "plain_rule",
    "strict_json_body",
    "whole_number",
]

DATABASE_INTEGER_MAX = 2**63 - 1
"""The largest integer SQLite and PostgreSQL (`bigint`) store."""
DATABASE_INTEGER_MIN = -(2**63)
"""The smallest integer they store."""

_DIGITS = re.compile(r"-?[0-9]{1,19}")
"""A whole number as text: ASCII digits only (no `+`, spaces, `_`, `1.0`, `1e3` or `٣`); 19
digits cover the range, so a longer text is refused before `int()` ever sees it."""
_WHOLE_NUMBER_RULE = "must be a whole number written in digits"

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
    "json_invalid": "is not valid JSON",
}
"""Pydantic's error types in the service's words; any other keeps pydantic's message."""


def plain_rule(error: ErrorDetails | dict[str, Any]) -> str:
    """The rule a pydantic error says was broken, in one line of plain words."""
    kind = str(error.get("type", ""))
    if kind in _PLAIN_RULES:
        return _PLAIN_RULES[kind]
    message = str(error.get("msg", "invalid value"))
    return message.removeprefix("Value error, ").removeprefix("Assertion failed, ")


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


def _digits_only(value: object) -> object:
    """Before pydantic's own check: text must be digits within range (an int default passes)."""
    if isinstance(value, str):
        if not _DIGITS.fullmatch(value):
            raise ValueError(_WHOLE_NUMBER_RULE)
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(_WHOLE_NUMBER_RULE)
    return value


WholeNumber = Annotated[int, BeforeValidator(_digits_only),
                        Field(ge=DATABASE_INTEGER_MIN, le=DATABASE_INTEGER_MAX)]
"""A query or path integer: digits only, within a signed 64-bit integer."""
Id = Annotated[int, BeforeValidator(_digits_only), Field(ge=0, le=DATABASE_INTEGER_MAX)]
"""An id, a seat or a turn number in a path or a query: digits only, 0 to the largest stored."""


class IdConvertor(Convertor[int]):
    """The `{name:id}` path convertor: 1 to 18 digits, so every match fits the database (a
    longer number matches no route: 404, never `int()` of thousands of digits)."""

    regex = "[0-9]{1,18}"

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
        return model.model_validate_json(raw or b"{}", strict=True, extra="forbid")
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
